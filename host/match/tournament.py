"""Round-robin tournaments: every pair of players meets with both colours, and a table sums up
wins, draws, losses, forfeits by reason and an Elo estimate.

The Elo estimate is the Bradley-Terry model fitted to the results (a draw counts half a win to
each side) with one virtual draw per pairing, which keeps a player who won or lost everything
at a finite rating. Ratings are relative: their average is 0. Each comes with a 95 % interval,
1.96 standard errors either side, the errors from the curvature of the fit's log-likelihood at
its maximum (the inverse of the Fisher information, with the virtual draws counted and the
ratings' average held at 0): a 4-0 between two players gives about 190 ± 250.

Games run one after the other on players opened once (``round_robin``), or in ``jobs``
processes at once, each game opening its own players from their specs (``parallel_round_robin``:
engines that are programs or bots, not a serial port or a TCP port).
"""

import csv
import itertools
import json
import math
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from fpgatrax.host.link.transport import Transport
from fpgatrax.host.match.players import PlayerOptions, open_player
from fpgatrax.host.match.referee import FORFEIT_KINDS, GameResult, new_record, play_game
from fpgatrax.host.match.workers import run_unordered
from fpgatrax.host.rules.position import RED, WHITE
from fpgatrax.host.rules.record import COLOUR_NAMES

__all__ = ["Standing", "Entrant", "round_robin", "parallel_round_robin", "elo_ratings",
           "elo_intervals", "format_table", "write_results", "Progress"]

#: Elo points per unit of log-strength.
ELO_SCALE = 400 / math.log(10)


@dataclass
class Standing:
    name: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: Counter[str] = field(default_factory=Counter)    # kind -> this player's forfeits
    elo: float = 0.0
    elo_low: float = 0.0       # the 95 % interval of ``elo``
    elo_high: float = 0.0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


def round_robin(players: dict[str, Transport], games: int = 1,
                record_path: Callable[[int], str | os.PathLike[str]] | None = None,
                progress: Callable[[int, int, str], object] | None = None,
                **game_options: Any) -> tuple[list[Standing], list[tuple[str, str, GameResult]]]:
    """Play every ordered pair of ``players`` (a dict name -> transport) ``games`` times, so
    each pairing plays ``2 * games`` games, half with each colour. ``record_path(number)`` names
    the record file of each game (None: no records); ``progress(done, total, text)`` follows
    the games. ``game_options`` go to ``play_game``. Returns the standings (best first) and the
    list of (white, black, GameResult)."""
    schedule = _schedule(list(players), games)
    results: list[tuple[str, str, GameResult]] = []
    for number, (white, black) in enumerate(schedule, start=1):
        if progress is not None:
            progress(number - 1, len(schedule), f"{white} vs {black}")
        path = record_path(number) if record_path is not None else None
        result = _play(players[white], players[black], (white, black), path, game_options)
        results.append((white, black, result))
    if progress is not None:
        progress(len(schedule), len(schedule), "done")
    return _table(list(players), results), results


@dataclass(frozen=True)
class Entrant:
    """A player of a parallel round robin: its name, and the spec and options that open it."""
    name: str
    spec: str
    options: PlayerOptions


def parallel_round_robin(entrants: Sequence[Entrant], games: int, jobs: int,
                         record_path: Callable[[int], str | os.PathLike[str]] | None = None,
                         progress: Callable[[int, int, str], object] | None = None,
                         cluster: str | None = None, **game_options: Any
                         ) -> tuple[list[Standing], list[tuple[str, str, GameResult]]]:
    """``round_robin`` in ``jobs`` processes (or on the Dask cluster at ``cluster``:
    ``workers.py``), each game opening its own two players (so a program is started afresh
    for every game) and closing them after it. The same schedule, record files and results,
    in the schedule's order."""
    by_name = {entrant.name: entrant for entrant in entrants}
    schedule = _schedule(list(by_name), games)
    work = [(number, by_name[white], by_name[black],
             record_path(number) if record_path is not None else None, game_options)
            for number, (white, black) in enumerate(schedule, start=1)]
    finished: dict[int, tuple[str, str, GameResult]] = {}
    if progress is not None:
        progress(0, len(work), f"on {cluster}" if cluster else f"{jobs} games at once")
    for number, result in run_unordered(_play_entrants, work, jobs, cluster):
        white, black = schedule[number - 1]
        finished[number] = (white, black, result)
        if progress is not None:
            progress(len(finished), len(work), f"{white} vs {black}: {result.how}")
    results = [finished[number] for number in sorted(finished)]
    return _table(list(by_name), results), results


def _play_entrants(job: tuple[int, Entrant, Entrant, Any, dict[str, Any]]
                   ) -> tuple[int, GameResult]:
    """One game of a parallel round robin, in a process of the pool."""
    number, white, black, path, game_options = job
    players = [open_player(white.spec, white.options)]
    try:
        players.append(open_player(black.spec, black.options))
        return number, _play(players[0], players[1], (white.name, black.name), path,
                             game_options)
    finally:
        for player in players:
            player.close()


def _schedule(names: list[str], games: int) -> list[tuple[str, str]]:
    return [pair for _ in range(games) for pair in itertools.permutations(names, 2)]


def _play(white: Transport, black: Transport, names: tuple[str, str], path: Any,
          game_options: dict[str, Any]) -> GameResult:
    """One game, written to the record file ``path`` if given."""
    writer = None
    if path is not None:
        writer = new_record(path, *names, game_options.get("variant", "standard"))
    try:
        return play_game(white, black, record=writer, **game_options)
    finally:
        if writer is not None:
            writer.close()


def _table(names: list[str], results: list[tuple[str, str, GameResult]]) -> list[Standing]:
    """The standings, best first, with Elo ratings and their intervals."""
    standings = {name: Standing(name) for name in names}
    for white, black, result in results:
        _score(standings, {WHITE: white, RED: black}, result)
    games = [(w, b, r.winner) for w, b, r in results]
    ratings = elo_ratings(names, games)
    intervals = elo_intervals(names, games, ratings)
    for name, rating in ratings.items():
        standing = standings[name]
        standing.elo = rating
        standing.elo_low, standing.elo_high = intervals[name]
    return sorted(standings.values(), key=lambda s: (-s.score, -s.elo, s.name))


def _score(standings: dict[str, Standing], names: dict[int, str], result: GameResult) -> None:
    if result.winner is None:
        for colour in (WHITE, RED):
            standings[names[colour]].draws += 1
        return
    standings[names[result.winner]].wins += 1
    loser = standings[names[1 - result.winner]]
    loser.losses += 1
    if result.forfeit:
        loser.forfeits[result.forfeit] += 1


def _meetings(names: Sequence[str], games: Iterable[tuple[str, str, int | None]]
              ) -> tuple[Counter[tuple[str, str]], dict[str, float]]:
    """Games between each ordered pair and each player's points, the virtual draws included."""
    points = {name: 0.0 for name in names}
    meetings: Counter[tuple[str, str]] = Counter()
    for white, black, winner in games:
        meetings[white, black] += 1
        meetings[black, white] += 1
        if winner is None:
            points[white] += 0.5
            points[black] += 0.5
        else:
            points[(white, black)[winner]] += 1
    for a, b in itertools.permutations(names, 2):      # the virtual draw of each pairing
        if a < b:
            meetings[a, b] += 1
            meetings[b, a] += 1
            points[a] += 0.5
            points[b] += 0.5
    return meetings, points


def elo_ratings(names: Sequence[str], games: Iterable[tuple[str, str, int | None]],
                iterations: int = 200) -> dict[str, float]:
    """Elo ratings (average 0) from ``games``, a list of (white, black, winner colour or None),
    by the minorization-maximization fit of the Bradley-Terry model."""
    meetings, points = _meetings(names, games)
    strength = {name: 1.0 for name in names}
    for _ in range(iterations):
        for name in names:
            denominator = sum(n / (strength[name] + strength[other])
                              for (one, other), n in meetings.items() if one == name)
            if denominator:
                strength[name] = points[name] / denominator
    elo = {name: 400 * math.log10(s) for name, s in strength.items()}
    mean = sum(elo.values()) / len(elo)
    return {name: e - mean for name, e in elo.items()}


def elo_intervals(names: Sequence[str], games: Sequence[tuple[str, str, int | None]],
                  ratings: dict[str, float]) -> dict[str, tuple[float, float]]:
    """The 95 % interval of each of ``ratings`` (the fit of ``games``; see the module
    docstring)."""
    meetings, _ = _meetings(names, games)
    n = len(names)
    # The Fisher information of the log-strengths: sum of n p q over each player's meetings.
    info = [[0.0] * n for _ in range(n)]
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i != j and meetings[a, b]:
                p = 1 / (1 + math.exp((ratings[b] - ratings[a]) / ELO_SCALE))
                weight = meetings[a, b] * p * (1 - p)
                info[i][j] -= weight
                info[i][i] += weight
    # Held at average 0: add the constraint's rank-one term, then invert.
    held = [[info[i][j] + 1 / n for j in range(n)] for i in range(n)]
    covariance = _inverse(held)
    half = {name: 1.96 * ELO_SCALE * math.sqrt(max(covariance[i][i] - 1 / n, 0.0))
            for i, name in enumerate(names)}
    return {name: (ratings[name] - half[name], ratings[name] + half[name]) for name in names}


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a small invertible matrix, by Gauss-Jordan elimination."""
    n = len(matrix)
    rows = [row[:] + [float(i == j) for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        scale = rows[col][col]
        rows[col] = [v / scale for v in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [v - factor * w for v, w in zip(rows[r], rows[col], strict=True)]
    return [row[n:] for row in rows]


def format_table(table: Sequence[Standing]) -> str:
    """The standings as an aligned text table."""
    width = max(6, *(len(s.name) for s in table))
    head = (f"{'player':<{width}}  games  wins draws losses  score    elo  (95 % interval)"
            "  forfeits: " + " ".join(FORFEIT_KINDS))
    lines = [head]
    for s in table:
        forfeits = " ".join(f"{s.forfeits[k]:>{len(k)}}" for k in FORFEIT_KINDS)
        interval = f"({s.elo_low:+.0f} to {s.elo_high:+.0f})"
        lines.append(f"{s.name:<{width}}  {s.games:>5}  {s.wins:>4} {s.draws:>5} {s.losses:>6}"
                     f"  {s.score:>5.0%}  {s.elo:>+5.0f}  {interval:<15}  {'':9} {forfeits}")
    return "\n".join(lines)


#: The columns of ``STEM-results.csv``, a row per game.
RESULT_COLUMNS = ["game", "white", "black", "winner", "how", "moves", "forfeit", "reason"]


def write_results(stem: Path, table: Sequence[Standing],
                  results: Sequence[tuple[str, str, GameResult]]) -> list[Path]:
    """Write ``STEM-results.csv`` (a row per game) and ``STEM-standings.json`` (the table and
    the games); return their paths."""
    rows = [{"game": number, "white": white, "black": black,
             "winner": "draw" if r.winner is None else COLOUR_NAMES[r.winner],
             "how": r.how, "moves": len(r.position.moves), "forfeit": r.forfeit or "",
             "reason": r.reason}
            for number, (white, black, r) in enumerate(results, start=1)]
    games_file = stem.with_name(stem.name + "-results.csv")
    table_file = stem.with_name(stem.name + "-standings.json")
    with open(games_file, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=RESULT_COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    standings = [{"player": s.name, "games": s.games, "wins": s.wins, "draws": s.draws,
                  "losses": s.losses, "score": s.score, "elo": s.elo,
                  "elo_95": [s.elo_low, s.elo_high], "forfeits": dict(s.forfeits)}
                 for s in table]
    with open(table_file, "w", encoding="utf-8") as f:
        json.dump({"standings": standings, "games": rows}, f, indent=1)
    return [games_file, table_file]


class Progress:
    """A progress bar on a terminal (redrawn in place), one line per step elsewhere, each step
    a ``unit`` (a game unless told)."""

    def __init__(self, stream: TextIO | None = None, width: int = 30, unit: str = "game") -> None:
        self.stream, self.width, self.unit = stream or sys.stderr, width, unit
        self.tty = self.stream.isatty()

    def __call__(self, done: int, total: int, text: str) -> None:
        if self.tty:
            filled = self.width * done // total if total else self.width
            bar = "#" * filled + "." * (self.width - filled)
            end = "\n" if done == total else ""
            self.stream.write(f"\r[{bar}] {done}/{total} {text:<40}{end}")
        elif done < total:
            self.stream.write(f"{self.unit} {done + 1}/{total}: {text}\n")
        self.stream.flush()
