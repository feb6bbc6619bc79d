"""Benchmark: how strong the hardware player's search is, against bots and other engines.

The board's side is the ``model`` player (``host/match/model.py``): the search's Python model,
which picks the gateware's move for the same position (the gateware's tests hold them equal),
judged by the board's time, so hundreds of games take minutes instead of days of simulation.
It plays with a board's settings (``--model board=NAME``, default the ULX3S-85F's), on a window
of the whole game as the board does, and past the board keeper's 64×64 board it forgets and
takes moves on trust as the board does; it would stop answering only where the board would
(its keeper left with no move it may play: a late forfeit, counted as an *overflow*).

The opponents are player specs (``--opponent``, repeatable): the software bots, or any engine
(``cmd:PROGRAM ARGS`` starts one per game; ``tcp:PORT`` waits for one to connect). In-process
bots have no time limit (alphabeta keeps to its own thinking time); every other opponent has
``--time`` per answer, as in a match.

Two deterministic players would play one game forever, so the games of a run begin
differently. Against an opponent the bench runs itself (the bots, a ``model:``), each game
begins with an opening of ``--opening-plies`` plies drawn at random for both sides, each ply
among the moves after which the other side proves no win (``host/bench/openings.py``), and
each opening is played once with each colour: every game its own start, and both players the
same starts. An engine's moves are its own, so against one the model's first ``--random-moves``
moves are drawn at random instead, among those after which the opponent proves no win, at once
or by a short threat-space search (see ``random_moves`` in ``host/match/model.py``), which
hands only the model a random start. Those draws differ from game to game by construction: the
games of one opponent and colour are numbered, and the number picks the model's moves among the
choices met, with one more random move for as long as those drawn so far cannot give each game
its own opening (``ModelBot._random_move``). So even a deterministic engine meets a new game
every time (moves that make one position, moved, count as
one choice); the notes count the games that differ as positions (``game_shapes``). Each
opponent meets the model ``--games`` times with each colour. The table gives wins, draws and losses
from the model's side, the win rate with its 95 % interval (Wilson), and for the bots the project's
targets; the notes give the trials, the finished depth and the board time per move. These are
figures to read, not pass marks. Run it with ``make bench-strength`` (``OPPONENT=SPEC`` for one
opponent, ``ARGS=--quick`` for seconds); ``--write docs/measurements.md`` also puts the run's
table, with its command, date and settings, between the page's markers
``<!-- generated: strength -->`` and ``<!-- end generated: strength -->``
(``host/bench/pages.py``); ``--record DIR`` keeps every game's record, to replay with
``fpgatrax show``.
"""

import argparse
import math
import os
import shlex
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace

from fpgatrax.host.bench.openings import draw_openings
from fpgatrax.host.bench.pages import check_page, write_generated
from fpgatrax.host.bots import BOTS, bots_for
from fpgatrax.host.bots.perfect import canonical
from fpgatrax.host.link.transport import FunctionTransport
from fpgatrax.host.match.model import ModelSession, ModelSettings, parse_settings
from fpgatrax.host.match.players import PlayerOptions, open_player
from fpgatrax.host.match.referee import new_record, play_game, record_paths
from fpgatrax.host.match.tournament import Progress
from fpgatrax.host.match.workers import run_unordered
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.position import RED, WHITE, Position
from fpgatrax.host.rules.variant import VARIANT_NAMES

__all__ = ["Tally", "game_shapes", "wilson_interval", "format_strength", "markdown_strength",
           "takes_book", "main"]

PROG = "python -m fpgatrax.host.bench.strength"
#: The name of the strength table's block in a documentation page.
PAGE_BLOCK = "strength"
#: The win rates the project aims at against its own bots (issues 6 and 13).
TARGETS = {"random": 0.99, "greedy": 0.80, "alphabeta": 0.90}
# The trial limit of --quick: the simulated board's, a few thousand.
QUICK_TRIALS = 5000
# In-process bots are not timed (alphabeta keeps to its own thinking time).
NO_LIMIT = float("inf")


@dataclass
class Tally:
    """One opponent's results from the model's side, and what the model's searches cost."""
    results: dict[int, list[int]] = field(
        default_factory=lambda: {WHITE: [0, 0, 0], RED: [0, 0, 0]})  # colour: won, drew, lost
    trials: list[int] = field(default_factory=list)
    depths: Counter[int] = field(default_factory=Counter)
    seconds: list[float] = field(default_factory=list)    # board time per searched move
    overflows: int = 0
    forfeits: Counter[str] = field(default_factory=Counter)   # the opponent's, by kind
    ends: Counter[tuple[int, str]] = field(default_factory=Counter)  # (outcome, how)
    moves: list[int] = field(default_factory=list)        # each game's length in moves
    games: set[tuple] = field(default_factory=set)        # each game's shapes, once


def wilson_interval(wins, games, z=1.96):
    """The 95 % interval (Wilson score) of a win rate of ``wins`` out of ``games``."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) \
        / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def game_shapes(moves, variant):
    """A game as the positions it went through, each as its tiles lie relative to one another
    (``canonical`` without symmetries): two games whose moves place the same tiles, moved
    across the board, are one game, which the count of games that differ must say."""
    position = Position(variant)
    shapes = []
    for move in moves:
        position.play(move)
        shapes.append(canonical(position, symmetries=False))
    return tuple(shapes)


def takes_book(spec):
    """Whether the bench runs the opponent ``spec`` itself (a bot, a model), so that it can
    give it an opening to play (``draw_openings``); an engine's moves are its own."""
    return spec.partition(":")[0] in (*BOTS, "model")


def _play_one(job):
    """One game: the model with ``colour`` against ``spec``. Returns the outcome from the model's
    side (0 won, 1 drew, 2 lost), the model's search costs and the opponent's forfeit, if any.
    A process of its own may play it."""
    (settings, variant, time_limit, think, seed), (spec, colour, number, book, path) = job
    session = ModelSession(replace(settings, seed=seed, opening=number,
                                   random_moves=0 if book else settings.random_moves),
                           variant, book=book)
    model = FunctionTransport("model", session.respond)
    model.clock = session.clock
    opponent = open_player(spec, PlayerOptions(variant=variant, seed=seed + number,
                                               think=think, quiet=True, book=book))
    players = (model, opponent) if colour == WHITE else (opponent, model)
    names = (f"model ({settings.board})", spec)
    writer = (new_record(path, *(names if colour == WHITE else names[::-1]), variant)
              if path else None)
    try:
        result = play_game(*players, variant=variant, record=writer,
                           time_limit=NO_LIMIT if spec in BOTS else time_limit)
    finally:
        opponent.close()
        if writer is not None:
            writer.close()
    outcome = 1 if result.winner is None else (0 if result.winner == colour else 2)
    opponent_forfeit = result.forfeit if outcome == 0 else None
    return spec, colour, outcome, session.stats, opponent_forfeit, (
        result.how, result.move_number, tuple(result.position.moves))


def _parser():
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponent", action="append", metavar="SPEC",
                        help="an opponent, as a player spec (repeat for several; default: "
                             f"{', '.join(BOTS)}): a bot, 'cmd:PROGRAM ARGS', tcp:PORT, a "
                             "serial port, another model:...")
    parser.add_argument("--model", default="", metavar="SETTINGS",
                        help="the board's settings as in a model: spec, e.g. board=hx8k or "
                             "depth=2,max_trials=20000 (default: the ULX3S-85F's)")
    parser.add_argument("--games", type=int, metavar="N",
                        help="games per opponent and colour (default 10; 3 with --quick)")
    parser.add_argument("--opening-plies", type=int, default=4, metavar="P",
                        help="against the bots and model: players, each game begins with an "
                             "opening of P plies drawn at random for both sides among the "
                             "moves after which the other side proves no win, and each "
                             "opening is played once with each colour (default 4)")
    parser.add_argument("--random-moves", type=int, default=2, metavar="K",
                        help="against other opponents (engines, whose moves the bench cannot "
                             "choose), the model's first K moves are drawn at random among "
                             "those after which the opponent proves no win (at once or by a "
                             "7-ply threat-space search), and more while the games would not "
                             "all begin differently (default 2)")
    parser.add_argument("--time", type=float, default=1.0, metavar="S",
                        help="time limit per answer of an opponent that is not an in-process "
                             "bot (default 1 s, the competition's)")
    parser.add_argument("--think", type=float, metavar="S",
                        help="alphabeta's time per move (default 1 s; 0.25 s with --quick)")
    parser.add_argument("--quick", action="store_true",
                        help=f"fewer games, a trial limit of {QUICK_TRIALS:,} and a faster "
                             "alphabeta: a run of seconds")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="J",
                        help="games played at once, one process each (default: one per CPU; "
                             "more than the free CPUs would slow the players that think by "
                             "the clock); 1 for tcp: and serial opponents")
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="play the games on the Dask cluster whose scheduler is at "
                             "ADDRESS (tcp://HOST:8786; the optional fpgatrax[cluster])")
    parser.add_argument("--variant", choices=VARIANT_NAMES, default="standard")
    parser.add_argument("--seed", type=int, default=2015,
                        help="first seed of the random moves and the bots")
    parser.add_argument("--write", metavar="PAGE",
                        help="also write the table, with this command, the date and the "
                             "settings, into PAGE (e.g. docs/measurements.md) between its "
                             "markers '<!-- generated: strength -->' and '<!-- end generated: "
                             "strength -->'")
    parser.add_argument("--record", metavar="DIR",
                        help="write each game's record into DIR, to replay with 'fpgatrax "
                             "show' (e.g. to see how the games were lost)")
    return parser


def _settings(args):
    settings = parse_settings(args.model)
    if args.quick and "max_trials" not in args.model:
        settings = replace(settings, max_trials=QUICK_TRIALS)
    return replace(settings, random_moves=args.random_moves)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = _parser()
    args = parser.parse_args(argv)
    games = args.games or (3 if args.quick else 10)
    think = args.think or (0.25 if args.quick else 1.0)
    opponents = args.opponent or bots_for(args.variant)
    try:
        settings = _settings(args)
        if (min(games, args.jobs) < 1 or min(args.random_moves, args.opening_plies) < 0
                or not args.time > 0):
            raise UserError("--games and --jobs are at least 1, --random-moves and "
                            "--opening-plies at least 0, --time more than 0")
        for spec in opponents:     # open each once: a bad spec fails now, not in a worker
            open_player(spec, PlayerOptions(variant=args.variant, quiet=True, startup=0)).close()
        if args.write:
            check_page(args.write, PAGE_BLOCK)      # before minutes of games, not after
        record_path = record_paths(args.record)
    except UserError as err:
        parser.exit(1, f"{PROG}: error: {err}\n")
    shared = any(spec.partition(":")[0] not in (*BOTS, "cmd", "model") for spec in opponents)
    jobs = 1 if shared else args.jobs

    booked = [spec for spec in opponents if takes_book(spec) and args.opening_plies]
    books = [()] * games
    if booked:
        try:
            books = draw_openings(games, args.opening_plies, args.seed, args.variant,
                                  Progress(unit="opening"))
        except UserError as err:
            parser.exit(1, f"{PROG}: error: {err}\n")
    # Colours alternate, so that a run cut short still has as many games with each, and each
    # opening is played with both.
    schedule = [(spec, colour, number, books[number] if spec in booked else ())
                for spec in opponents for number in range(games) for colour in (WHITE, RED)]
    setup = (settings, args.variant, args.time, think, args.seed)
    tallies = {spec: Tally() for spec in opponents}
    progress = Progress()
    start = time.perf_counter()
    jobs = min(jobs, len(schedule))
    work = [(setup, (*game, record_path(k) if record_path else None))
            for k, game in enumerate(schedule, 1)]
    played = run_unordered(_play_one, work, jobs, None if shared else args.cluster)
    progress(0, len(schedule), "")
    for done, (spec, colour, outcome, stats, forfeit, game) in enumerate(played, 1):
        how, length, moves = game
        tally = tallies[spec]
        tally.ends[outcome, how] += 1
        tally.moves.append(length)
        tally.games.add(game_shapes(moves, args.variant))
        tally.results[colour][outcome] += 1
        tally.trials += stats.trials
        tally.depths.update(stats.depths)
        tally.seconds += stats.seconds
        tally.overflows += stats.overflows
        if forfeit:
            tally.forfeits[forfeit] += 1
        progress(done, len(schedule), f"model {'white' if colour == WHITE else 'black'} "
                                      f"vs {spec}: {('won', 'drew', 'lost')[outcome]}")
    seconds = time.perf_counter() - start

    where = (f"the Dask cluster at {args.cluster}" if args.cluster and not shared
             else f"{jobs} process{'es' if jobs > 1 else ''}")
    starts = []
    if booked:
        starts.append(f"against {', '.join(booked)} {args.opening_plies}-ply openings drawn "
                      f"for both sides, each played with both colours")
    if len(booked) < len(opponents):
        starts.append(f"against the others the model's first {args.random_moves} moves random")
    notes = [
        f"the hardware search (model) with {settings.describe()}; {'; '.join(starts)} "
        f"(among moves after which the other side proves no win); {games} games per opponent "
        f"and colour, seed {args.seed}; alphabeta {think:g} s per move, other engines "
        f"{args.time:g} s; {len(schedule)} games in {seconds:.0f} s on {where}",
        *(_cost_note(spec, tally, settings) for spec, tally in tallies.items()),
    ]
    for note in notes:
        print(f"# {note}")
    print(format_strength(tallies))
    if args.write:
        command = " ".join(shlex.quote(word) for word in [*PROG.split(), *argv])
        text = (f"Written by `{command}` on {time.strftime('%Y-%m-%d')}, on a machine with "
                f"{os.cpu_count()} CPUs:\n\n" + "".join(f"- {note}.\n" for note in notes) + "\n"
                + markdown_strength(tallies))
        try:
            write_generated(args.write, PAGE_BLOCK, text)
        except UserError as err:
            parser.exit(1, f"{PROG}: error: {err}\n")
        print(f"# wrote the table into {args.write}")


def _cost_note(spec, tally, settings: ModelSettings):
    searched = sum(n for depth, n in tally.depths.items() if depth)
    depths = ", ".join(f"{depth} plies {n / searched:.0%}"
                       for depth, n in sorted(tally.depths.items()) if depth) or "none"
    forfeits = ", ".join(f"{n} {kind}" for kind, n in sorted(tally.forfeits.items())) or "none"
    return (f"vs {spec}: trials per move mean {sum(tally.trials) / max(len(tally.trials), 1):,.0f}"
            f", max {max(tally.trials, default=0):,} (board time max "
            f"{max(tally.seconds, default=0) * 1e3:.0f} ms at {settings.clock / 1e6:g} MHz); "
            f"deepest finished iteration {depths} of {searched} searches (besides "
            f"{tally.depths[0]} wins found by the win pass or the threat-space search); "
            f"overflows {tally.overflows}; the opponent's "
            f"forfeits: {forfeits}; {_ends_note(tally)}")


def _ends_note(tally):
    """How the games ended, from the model's side (which of them it lost by line shows what
    its search is blind to), and how long they were."""
    ends = "; ".join(
        f"{('won', 'drew', 'lost')[outcome]} " + ", ".join(
            f"{n} by {how}" for (kind, how), n in sorted(tally.ends.items()) if kind == outcome)
        for outcome in (0, 1, 2) if any(kind == outcome for kind, _ in tally.ends))
    moves = sorted(tally.moves)
    median = moves[len(moves) // 2] if moves else 0
    return (f"games ended: {ends or 'none'} (median length {median} moves); "
            f"{len(tally.games)} of {len(tally.moves)} games differ")


def _rate(wins, games):
    low, high = wilson_interval(wins, games)
    return wins / games if games else 0.0, low, high


def format_strength(tallies):
    """The table: for each opponent, a row per colour of the model and one for both, with the
    win rate, its 95 % interval and, for the bots, the target."""
    lines = [f"{'opponent':<24} {'model':<6} {'games':>5} {'wins':>5} {'draws':>5} "
             f"{'losses':>6} {'win rate':>8} {'95 % interval':>15}  target"]
    for spec, tally in tallies.items():
        white, black = tally.results[WHITE], tally.results[RED]
        both = [a + b for a, b in zip(white, black, strict=True)]
        for label, (wins, draws, losses) in (("white", white), ("black", black), ("both", both)):
            total = wins + draws + losses
            rate, low, high = _rate(wins, total)
            target = ""
            if label == "both" and spec in TARGETS:
                met = "met" if wins >= TARGETS[spec] * total else "not met"
                target = f"≥{TARGETS[spec]:.0%} {met}"
            lines.append(f"{spec[:24]:<24} {label:<6} {total:>5} {wins:>5} {draws:>5} "
                         f"{losses:>6} {rate:>8.0%} {f'{low:.0%}–{high:.0%}':>15}  {target}")
    return "\n".join(lines)


def markdown_strength(tallies):
    """The same results as a Markdown table for the documentation: wins out of games per colour
    of the model (and the draws, if any), the win rate over both colours with its 95 %
    interval, and the target."""
    def cell(wins, draws, losses):
        total = wins + draws + losses
        return f"{wins}/{total}" + (f" ({draws} drawn)" if draws else "")

    lines = ["| opponent | model white | model black | win rate | 95 % interval | target |",
             "|---|---|---|---:|---:|---|"]
    for spec, tally in tallies.items():
        white, black = tally.results[WHITE], tally.results[RED]
        rate, low, high = _rate(white[0] + black[0], sum(white) + sum(black))
        target = ""
        if spec in TARGETS:
            met = "met" if rate >= TARGETS[spec] else "not met"
            target = f"≥{TARGETS[spec] * 100:.0f} %: {met}"
        lines.append(f"| `{spec}` | {cell(*white)} | {cell(*black)} | {rate * 100:.0f} % | "
                     f"{low * 100:.0f}–{high * 100:.0f} % | {target} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
