"""Benchmark: how strong the hardware player's search is, against each software bot.

The search is played through its Python model (``host/search_model.py``), which picks the same
move as the gateware for the same position (the player's tests hold them equal), so hundreds of
games take minutes instead of days of simulation. The model plays the protocol as the board does:
each search starts afresh, and when the game outgrows the array it stops answering (the board's
overflow), which the referee scores as a late forfeit.

Both sides are deterministic (the model by design, alphabeta nearly so at a fixed depth), so games
from the empty board repeat themselves and N games would measure one or two lines of play. Each
game therefore starts from a random opening of a few plies (random legal moves that do not end
the game, the same for both players), and each opening is played twice, the model taking each
colour once. Each bot meets the model N times with each colour; the table gives wins, draws and
losses from the model's side, the win rate, and the issue's targets (at least 99 % against
random, 80 % against greedy, 50 % against alphabeta at 1 s per move). These are figures to read,
not pass marks. Run with ``make bench-strength`` (``--quick`` for a run of seconds);
``--write docs/measurements.md`` also puts the run's table, with its command, date and settings,
between the page's markers ``<!-- generated: strength -->`` and ``<!-- end generated: strength
-->`` (``host/bench/pages.py``).
"""

import argparse
import contextlib
import multiprocessing
import os
import random
import shlex
import sys
import time
from collections import Counter

from fpgatrax.host.bench.pages import check_page, write_generated
from fpgatrax.host.bots import BOTS, make_bot
from fpgatrax.host.bots.session import BotSession
from fpgatrax.host.link.transport import FunctionTransport
from fpgatrax.host.match.referee import play_game
from fpgatrax.host.match.tournament import Progress
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.notation import format_move, parse_move
from fpgatrax.host.rules.position import RED, WHITE, Position
from fpgatrax.host.rules.variant import VARIANT_NAMES
from fpgatrax.hw.search_model import DEFAULT_DEPTH, SearchModel

__all__ = ["ModelSession", "Opening", "random_opening", "format_strength", "markdown_strength",
           "main"]

PROG = "python -m fpgatrax.host.bench.strength"
#: The name of the strength table's block in a documentation page.
PAGE_BLOCK = "strength"
TARGETS = {"random": 0.99, "greedy": 0.80, "alphabeta": 0.50}
# The model is judged on its moves, not on Python's speed: no time limit for either side
# (alphabeta keeps to its own thinking time).
NO_LIMIT = float("inf")


class _Overflow(Exception):
    """No legal move inside the array: the board stops answering."""


class _SearchBot:
    """The search model as a bot, counting the trials each choice costs on the array."""

    def __init__(self, model):
        self.model = model
        self.trials = []
        self.depths = []         # the deepest finished iteration of each search (0: win pass)
        self.overflows = 0

    def choose(self, position):
        choice = self.model.choose(position)
        if choice is None:
            raise _Overflow()
        self.trials.append(choice.trials)
        self.depths.append(choice.depth)
        return choice.move


class Opening:
    """A bot that plays the moves of ``opening`` (notation) while the game is within them, and is
    ``bot`` from then on."""

    def __init__(self, bot, opening=()):
        self.bot, self.opening = bot, list(opening)

    def choose(self, position):
        ply = len(position.moves)
        if ply < len(self.opening):
            return parse_move(position, self.opening[ply])
        return self.bot.choose(position)


def random_opening(plies, seed, variant="standard"):
    """``plies`` random legal moves (notation) from the empty board, none of which ends the game
    (fewer if no such move is left)."""
    rng = random.Random(seed)
    position, opening = Position(variant), []
    for _ in range(plies):
        moves = position.legal_moves()
        rng.shuffle(moves)
        for move in moves:
            position.push(move)
            ends = position.outcome is not None
            position.undo()
            if not ends:
                opening.append(format_move(position, move))
                position.play(move)
                break
        else:
            break
    return opening


class ModelSession(BotSession):
    """The hardware player's side of the protocol, played by ``SearchModel(max_trials, window,
    depth)`` after the moves of ``opening`` (set per game); an overflow leaves the line
    unanswered. ``search`` counts trials and overflows."""

    def __init__(self, max_trials, window, variant="standard", depth=DEFAULT_DEPTH):
        self.search = _SearchBot(SearchModel(max_trials, window, depth))
        super().__init__(Opening(self.search), variant, team="FT")

    def respond(self, line):
        try:
            return super().respond(line)
        except _Overflow:
            self.search.overflows += 1
            return None


def _window(text):
    if text == "none":
        return None
    width, _, height = text.partition("x")
    try:
        window = int(width), int(height)
    except ValueError:
        raise argparse.ArgumentTypeError(f"give the array as WxH, e.g. 16x16, or none "
                                         f"(got {text!r})") from None
    if min(window) < 1:
        raise argparse.ArgumentTypeError("the array has at least one cell each way")
    return window


def _default_max_trials(quick):
    from fpgatrax.boards.build import max_trials_for
    from fpgatrax.hw.player import SIM_PROFILE
    return SIM_PROFILE["max_trials"] if quick else max_trials_for(SIM_PROFILE["clk_freq"])


def _default_window():
    from fpgatrax.hw.player import SIM_PROFILE
    return SIM_PROFILE["width"], SIM_PROFILE["height"]


def _play_one(job):
    """One game of the schedule: (bot, model colour, outcome 0 won / 1 drew / 2 lost, the trials
    and finished depth of each of the model's searches, overflows). A process of its own may
    play it."""
    (depth, max_trials, window, variant, plies, seed, think), (name, colour, number, index) = job
    session = ModelSession(max_trials, window, variant, depth)
    # Game ``number`` with either colour opens the same way.
    session.bot.opening = random_opening(plies, seed + number, variant)
    model = FunctionTransport("model", session.respond)
    bot = Opening(make_bot(name, seed + index, think=think), session.bot.opening)
    opponent = FunctionTransport(name, BotSession(bot, variant).respond)
    players = (model, opponent) if colour == WHITE else (opponent, model)
    result = play_game(*players, variant=variant, time_limit=NO_LIMIT)
    outcome = 1 if result.winner is None else (0 if result.winner == colour else 2)
    return (name, colour, outcome, session.search.trials, session.search.depths,
            session.search.overflows)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, metavar="N",
                        help="games per bot and colour (default 10; 4 with --quick)")
    parser.add_argument("--depth", type=int, default=DEFAULT_DEPTH, metavar="D",
                        help=f"the search's plies of negamax (default {DEFAULT_DEPTH}, as on "
                             f"the boards)")
    parser.add_argument("--max-trials", type=int, metavar="B",
                        help="the search's trials per move at most, 0 for no limit (default: "
                             "what a board at the simulated board's clock affords; the simulated "
                             "board's own with --quick)")
    parser.add_argument("--window", type=_window, metavar="WxH",
                        help="the tile array's size, or none for an unbounded one (default: the "
                             "simulated board's)")
    parser.add_argument("--think", type=float, metavar="S",
                        help="alphabeta's time per move (default 1 s; 0.25 s with --quick)")
    parser.add_argument("--bots", default=",".join(BOTS),
                        help=f"the opponents, comma-separated (default {','.join(BOTS)})")
    parser.add_argument("--quick", action="store_true",
                        help="fewer games, a smaller trial limit and a faster alphabeta: a run of "
                             "seconds")
    parser.add_argument("--opening", type=int, default=4, metavar="K",
                        help="random plies that open each game, played by both sides, so that "
                             "games differ (default 4; 0 starts every game from the empty board)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="J",
                        help="games played at once, one process each (default: one per CPU; "
                             "more than the free CPUs would slow alphabeta, which thinks by the "
                             "clock)")
    parser.add_argument("--variant", choices=VARIANT_NAMES, default="standard")
    parser.add_argument("--seed", type=int, default=2015, help="first seed of the bots")
    parser.add_argument("--write", metavar="PAGE",
                        help="also write the table, with this command, the date and the "
                             "settings, into PAGE (e.g. docs/measurements.md) between its "
                             "markers '<!-- generated: strength -->' and '<!-- end generated: "
                             "strength -->'")
    args = parser.parse_args(argv)
    games = args.games or (4 if args.quick else 10)
    think = args.think or (0.25 if args.quick else 1.0)
    window = _default_window() if args.window is None else args.window
    bots = args.bots.split(",")
    unknown = [name for name in bots if name not in BOTS]
    max_trials = _default_max_trials(args.quick) if args.max_trials is None else args.max_trials
    if unknown or min(games, args.jobs, args.depth) < 1 or min(max_trials, args.opening) < 0:
        parser.error(f"unknown bot {unknown[0]!r}" if unknown else
                     "--games, --jobs and --depth are at least 1, --max-trials and --opening at "
                     "least 0")
    if args.write:
        try:
            check_page(args.write, PAGE_BLOCK)      # before minutes of games, not after
        except UserError as err:
            parser.exit(1, f"{PROG}: error: {err}\n")

    schedule = [(name, colour, number, index) for index, (name, colour, number) in enumerate(
        (name, colour, number) for name in bots for colour in (WHITE, RED)
        for number in range(games))]
    setup = (args.depth, max_trials or None, window, args.variant, args.opening, args.seed, think)
    tally = {(name, colour): [0, 0, 0] for name in bots for colour in (WHITE, RED)}
    trials, depths, overflows = [], Counter(), 0
    progress = Progress()
    start = time.perf_counter()
    jobs = min(args.jobs, len(schedule))
    with (multiprocessing.Pool(jobs) if jobs > 1 else contextlib.nullcontext()) as pool:
        games_played = (pool.imap_unordered(_play_one, [(setup, game) for game in schedule])
                        if pool else (_play_one((setup, game)) for game in schedule))
        progress(0, len(schedule), "")
        for done, (name, colour, outcome, game_trials, game_depths, overflow) in enumerate(
                games_played, 1):
            tally[name, colour][outcome] += 1
            trials += game_trials
            depths.update(game_depths)
            overflows += overflow
            progress(done, len(schedule), f"model {'white' if colour == WHITE else 'black'} "
                                          f"vs {name}: {('won', 'drew', 'lost')[outcome]}")
    seconds = time.perf_counter() - start

    array = "unbounded" if window is None else f"{window[0]}x{window[1]}"
    searched = sum(n for depth, n in depths.items() if depth)
    notes = [
        f"the hardware search (model): depth {args.depth}, trial limit "
        f"{f'{max_trials:,}' if max_trials else 'none'}, array {array}, {args.variant}; "
        f"alphabeta {think:g} s per move; {games} games per bot and colour, seed {args.seed}, "
        f"openings of {args.opening} random plies; {len(schedule)} games in {seconds:.0f} s "
        f"on {jobs} process{'es' if jobs > 1 else ''}",
        f"trials per move (moves tried on the array): mean "
        f"{sum(trials) / max(len(trials), 1):,.0f}, max {max(trials, default=0):,}; "
        f"games lost by overflow (no room in the array): {overflows}",
        "deepest finished iteration: " + ", ".join(
            f"{depth} plies {n / searched:.0%}" for depth, n in sorted(depths.items()) if depth)
        + f" of {searched} searches (besides {depths[0]} wins in one)",
    ]
    for note in notes:
        print(f"# {note}")
    print(format_strength(tally, bots))
    if args.write:
        command = " ".join(shlex.quote(word) for word in [*PROG.split(), *argv])
        text = (f"Written by `{command}` on {time.strftime('%Y-%m-%d')}, on a machine with "
                f"{os.cpu_count()} CPUs; " + "; ".join(notes) + ".\n\n"
                + markdown_strength(tally, bots))
        try:
            write_generated(args.write, PAGE_BLOCK, text)
        except UserError as err:
            parser.exit(1, f"{PROG}: error: {err}\n")
        print(f"# wrote the table into {args.write}")


def format_strength(tally, bots):
    """The table: one row per bot and colour of the model, and a row for both colours with the
    issue's target. ``tally[bot, colour]`` is [wins, draws, losses] from the model's side."""
    lines = [f"{'bot':<10} {'model':<6} {'games':>5} {'wins':>5} {'draws':>5} {'losses':>6} "
             f"{'win rate':>8}  target"]
    for name in bots:
        rows = [("white", tally[name, WHITE]), ("black", tally[name, RED]),
                ("both", [a + b for a, b in zip(tally[name, WHITE], tally[name, RED],
                                                strict=True)])]
        for label, (wins, draws, losses) in rows:
            total = wins + draws + losses
            target = ""
            if label == "both" and name in TARGETS:
                met = "met" if wins >= TARGETS[name] * total else "not met"
                target = f"≥{TARGETS[name]:.0%} {met}"
            lines.append(f"{name:<10} {label:<6} {total:>5} {wins:>5} {draws:>5} {losses:>6} "
                         f"{wins / total:>8.0%}  {target}")
    return "\n".join(lines)


def markdown_strength(tally, bots):
    """The same results as a Markdown table for the documentation: wins out of games per colour
    of the model (and the draws, if any), the win rate over both colours and the target."""
    def cell(wins, draws, losses):
        total = wins + draws + losses
        return f"{wins}/{total}" + (f" ({draws} drawn)" if draws else "")

    lines = ["| bot | model white | model black | win rate | target |",
             "|---|---|---|---:|---|"]
    for name in bots:
        white, black = tally[name, WHITE], tally[name, RED]
        wins, total = white[0] + black[0], sum(white) + sum(black)
        target = ""
        if name in TARGETS:
            met = "met" if wins >= TARGETS[name] * total else "not met"
            target = f"≥{TARGETS[name] * 100:.0f} %: {met}"
        lines.append(f"| {name} | {cell(*white)} | {cell(*black)} | "
                     f"{wins / total * 100:.0f} % | {target} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
