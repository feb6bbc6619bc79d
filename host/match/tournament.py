"""Round-robin tournaments: every pair of players meets with both colours, and a table sums up
wins, draws, losses, forfeits by reason and an Elo estimate.

The Elo estimate is the Bradley-Terry model fitted to the results (a draw counts half a win to
each side) with one virtual draw per pairing, which keeps a player who won or lost everything
at a finite rating. Ratings are relative: their average is 0.
"""

import itertools
import math
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from fpgatrax.host.link.transport import Transport
from fpgatrax.host.match.referee import FORFEIT_KINDS, GameResult, new_record, play_game
from fpgatrax.host.rules.position import RED, WHITE

__all__ = ["Standing", "round_robin", "elo_ratings", "format_table", "Progress"]


@dataclass
class Standing:
    name: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: Counter[str] = field(default_factory=Counter)    # kind -> this player's forfeits
    elo: float = 0.0

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
    schedule = [pair for _ in range(games) for pair in itertools.permutations(players, 2)]
    standings = {name: Standing(name) for name in players}
    results: list[tuple[str, str, GameResult]] = []
    for number, (white, black) in enumerate(schedule, start=1):
        if progress is not None:
            progress(number - 1, len(schedule), f"{white} vs {black}")
        writer = None
        if record_path is not None:
            writer = new_record(record_path(number), white, black,
                                game_options.get("variant", "standard"))
        try:
            result = play_game(players[white], players[black], record=writer, **game_options)
        finally:
            if writer is not None:
                writer.close()
        results.append((white, black, result))
        _score(standings, {WHITE: white, RED: black}, result)
    if progress is not None:
        progress(len(schedule), len(schedule), "done")
    ratings = elo_ratings(list(players), [(w, b, r.winner) for w, b, r in results])
    for name, rating in ratings.items():
        standings[name].elo = rating
    table = sorted(standings.values(), key=lambda s: (-s.score, -s.elo, s.name))
    return table, results


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


def elo_ratings(names: Sequence[str], games: Iterable[tuple[str, str, int | None]],
                iterations: int = 200) -> dict[str, float]:
    """Elo ratings (average 0) from ``games``, a list of (white, black, winner colour or None),
    by the minorization-maximization fit of the Bradley-Terry model."""
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


def format_table(table: Sequence[Standing]) -> str:
    """The standings as an aligned text table."""
    width = max(6, *(len(s.name) for s in table))
    head = (f"{'player':<{width}}  games  wins draws losses  score    elo  forfeits: "
            + " ".join(FORFEIT_KINDS))
    lines = [head]
    for s in table:
        forfeits = " ".join(f"{s.forfeits[k]:>{len(k)}}" for k in FORFEIT_KINDS)
        lines.append(f"{s.name:<{width}}  {s.games:>5}  {s.wins:>4} {s.draws:>5} {s.losses:>6}"
                     f"  {s.score:>5.0%}  {s.elo:>+5.0f}  {'':9} {forfeits}")
    return "\n".join(lines)


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
