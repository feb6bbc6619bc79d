"""Benchmark: one setting of the hardware search against another, by self-play on paired openings.

Tuning the search (issue 13) means asking whether a change makes it stronger, and the engines
it meets are slow to play and noisy. Self-play answers faster: the search's Python model with
settings A (``--a``, as in a ``model:`` spec, e.g. ``max_trials=30000``) plays the model with
settings B (``--b``), both judged only on their moves (no clock: each plays its own trial
limit, as the boards do).

Both players are deterministic, so two games of the same settings from the same position are
the same game. Each game therefore starts from an *opening*: ``--plies`` random moves (4 unless
told), each drawn among the moves after which the side to move next proves no win (at once or
by a 7-ply threat-space search, as the strength bench's random moves), so that an opening does
not hand one side the game. Every opening is played twice, A with white and A with black:
what a lopsided opening gives one colour, the pair gives to each side once. Equal settings
therefore score exactly one half.

The table gives A's score (a win 1, a draw ½) with each colour and in all, its rate with the
95 % interval (Wilson), and each side's trials and finished depth per move. A game that goes
past ``--max-moves`` moves is a draw; a side that would stop answering on its board (its
keeper left with no move it may play) loses, and is counted. Run it with ``make bench-selfplay
A=SETTINGS B=SETTINGS`` (``ARGS='--openings 50 --jobs 2'``).
"""

import argparse
import os
import random
import sys
import time
from dataclasses import dataclass, field

from fpgatrax.host.bench.strength import wilson_interval
from fpgatrax.host.match.model import (
    ModelBot,
    OutOfRoom,
    SearchStats,
    loses,
    parse_settings,
    proof_search,
)
from fpgatrax.host.match.tournament import Progress
from fpgatrax.host.match.workers import run_unordered
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.position import RED, WHITE, Move, Position
from fpgatrax.host.rules.variant import VARIANT_NAMES

__all__ = ["opening", "play", "Score", "main"]

PROG = "python -m fpgatrax.host.bench.selfplay"


def opening(seed: int, plies: int, variant: str = "standard") -> list[Move]:
    """``plies`` random moves from the empty board, drawn with ``seed``, each one after which
    the side to move proves no win (``loses``): the same list for the same arguments."""
    rng = random.Random(seed)
    refuter = proof_search()
    position = Position(variant)
    for _ in range(plies):
        moves = position.legal_moves()
        rng.shuffle(moves)
        move = next((move for move in moves
                     if position.push(move) and not loses(position, refuter)), None)
        if move is None:
            raise UserError(f"opening {seed}: every move loses after {len(position.moves)} "
                            f"plies; ask for fewer --plies")
        position.play(move)
    return list(position.moves)


def play(job):
    """One game: A with ``a_colour`` from the opening; returns A's points (1, ½, 0) and both
    sides' SearchStats. A process of its own may play it."""
    (a, b, plies, max_moves, variant), (seed, a_colour) = job
    position = Position(variant)
    for move in opening(seed, plies, variant):
        position.play(move)
    stats = {WHITE: SearchStats(), RED: SearchStats()}
    settings = {a_colour: a, 1 - a_colour: b}
    bots = {colour: ModelBot(settings[colour], stats[colour], lambda cycles: 0.0)
            for colour in (WHITE, RED)}
    winner = None              # a draw, unless the game or a silent side says otherwise
    while position.outcome is None and len(position.moves) < max_moves:
        try:
            position.play(bots[position.to_move].choose(position))
        except OutOfRoom:
            winner = 1 - position.to_move
            break
    if position.outcome is not None:
        winner = position.outcome.winner
    points = 0.5 if winner is None else float(winner == a_colour)
    return a_colour, points, stats[a_colour], stats[1 - a_colour]


@dataclass
class Score:
    """A's points with each colour, and both sides' costs (``overflows``: games it lost by
    finding no move it may play)."""
    points: dict[int, float] = field(default_factory=lambda: {WHITE: 0.0, RED: 0.0})
    games: dict[int, int] = field(default_factory=lambda: {WHITE: 0, RED: 0})
    sides: tuple[SearchStats, SearchStats] = field(
        default_factory=lambda: (SearchStats(), SearchStats()))

    def add(self, a_colour, points, a_stats, b_stats):
        self.points[a_colour] += points
        self.games[a_colour] += 1
        for side, stats in zip(self.sides, (a_stats, b_stats), strict=True):
            side.trials += stats.trials
            side.depths += stats.depths
            side.overflows += stats.overflows

    def table(self) -> list[str]:
        rows = [f"{'A plays':<8} {'games':>5} {'score':>7} {'rate':>6}   95 % interval"]
        for name, colours in (("white", (WHITE,)), ("black", (RED,)), ("both", (WHITE, RED))):
            games = sum(self.games[c] for c in colours)
            points = sum(self.points[c] for c in colours)
            low, high = wilson_interval(points, games)
            rate = points / games if games else 0.0
            rows.append(f"{name:<8} {games:>5} {points:>7g} {rate:>6.0%}   "
                        f"{low:.0%}–{high:.0%}")
        return rows

    def notes(self) -> list[str]:
        lines = []
        for name, side in zip("AB", self.sides, strict=True):
            searched = [d for d in side.depths if d]
            mean = sum(side.trials) / len(side.trials) if side.trials else 0
            deep = (sum(searched) / len(searched)) if searched else 0
            lines.append(f"# {name}: {len(side.trials)} moves, trials per move mean {mean:,.0f}"
                         f", max {max(side.trials, default=0):,}; deepest finished iteration "
                         f"mean {deep:.2f} plies over {len(searched)} negamax answers; "
                         f"silent {side.overflows}")
        return lines


def _parser():
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", required=True, metavar="SETTINGS",
                        help="side A's settings, as in a model: spec (board=NAME, depth=, "
                             "max_trials=, tss=, …)")
    parser.add_argument("--b", default="", metavar="SETTINGS",
                        help="side B's settings (default: the ULX3S-85F's)")
    parser.add_argument("--openings", type=int, default=20, metavar="N",
                        help="openings, each played twice, A with each colour (default 20)")
    parser.add_argument("--plies", type=int, default=4, metavar="K",
                        help="random plies of each opening (default 4)")
    parser.add_argument("--max-moves", type=int, default=300, metavar="M",
                        help="a game still going at M moves is a draw (default 300)")
    parser.add_argument("--seed", type=int, default=1, metavar="S",
                        help="the first opening's seed; opening k has seed S + k (default 1)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="J",
                        help="games played at once, one process each (default: one per CPU)")
    parser.add_argument("--variant", choices=VARIANT_NAMES, default="standard")
    return parser


def main(argv=None):
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        a, b = (parse_settings(text) for text in (args.a, args.b))
        if min(args.openings, args.jobs, args.max_moves) < 1 or args.plies < 0:
            raise UserError("--openings, --jobs and --max-moves are at least 1, --plies at "
                            "least 0")
    except UserError as err:
        parser.exit(1, f"{PROG}: error: {err}\n")
    print(f"# A: {a.describe()}\n# B: {b.describe()}\n# {args.openings} openings of "
          f"{args.plies} random plies (seeds {args.seed} to {args.seed + args.openings - 1}), "
          f"each played with A as white and as black")
    setup = (a, b, args.plies, args.max_moves, args.variant)
    work = [(setup, (args.seed + k, colour)) for k in range(args.openings)
            for colour in (WHITE, RED)]
    score, progress, start = Score(), Progress(), time.perf_counter()
    progress(0, len(work), "")
    try:
        for done, (colour, points, a_stats, b_stats) in enumerate(
                run_unordered(play, work, args.jobs), 1):
            score.add(colour, points, a_stats, b_stats)
            total = sum(score.points.values())
            progress(done, len(work), f"A {total:g} of {done}")
    except UserError as err:
        parser.exit(1, f"{PROG}: error: {err}\n")
    print("\n".join(score.notes()))
    print(f"# {len(work)} games in {time.perf_counter() - start:.0f} s on {args.jobs} "
          f"process{'es' if args.jobs > 1 else ''}")
    print("\n".join(score.table()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
