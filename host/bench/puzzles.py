"""Solve times of the solo puzzles per kind and difficulty (``make bench-puzzles``).

For each kind and difficulty it makes puzzles (``fpgatrax puzzle make``, seeds 1, 2, …), then
solves each afresh twice over, as ``fpgatrax puzzle solve`` does: the first solve finds the
answer, the second (with the answer excluded) proves there is no other. It prints, per kind and
difficulty, the median givens, the median and worst conflicts of the SAT solver and cuts
against stray red tracks over both solves (counts that do not depend on the machine), and the
median and worst time to solve and prove (which do: quote them as orders of magnitude), and
the median time to make one puzzle.

    python -m fpgatrax.host.bench.puzzles --size 8 --count 10
"""

import argparse
import statistics
import sys
import time

from fpgatrax.host.puzzles.board import KINDS
from fpgatrax.host.puzzles.check import problems
from fpgatrax.host.puzzles.make import DIFFICULTIES, make_puzzle
from fpgatrax.host.puzzles.solve import PuzzleSolver


def measure(kind, size, difficulty, count):
    """One row of the table: the figures over ``count`` made puzzles."""
    givens, conflicts, cuts, solve_times, make_times = [], [], [], [], []
    for seed in range(1, count + 1):
        start = time.perf_counter()
        puzzle, answer = make_puzzle(kind, size, difficulty, seed)
        made = time.perf_counter()
        with PuzzleSolver(puzzle) as solver:
            found = list(solver)
            conflicts.append(solver.conflicts())
            cuts.append(solver.cuts)
        solve_times.append(time.perf_counter() - made)
        make_times.append(made - start)
        if len(found) != 1 or problems(puzzle, found[0]) or found[0] != answer:
            raise RuntimeError(f"{kind} seed {seed}: the made puzzle is not uniquely solved")
        givens.append(len(puzzle.givens))
    return {
        "kind": kind, "difficulty": difficulty, "puzzles": count,
        "givens": statistics.median(givens),
        "conflicts": (statistics.median(conflicts), max(conflicts)),
        "cuts": (statistics.median(cuts), max(cuts)),
        "solve_ms": (statistics.median(solve_times) * 1e3, max(solve_times) * 1e3),
        "make_ms": statistics.median(make_times) * 1e3,
    }


def format_row(row):
    return (f"{row['kind']:<6} {row['difficulty']:<7} {row['puzzles']:>7} {row['givens']:>7.0f} "
            f"{row['conflicts'][0]:>9.0f} {row['conflicts'][1]:>9} "
            f"{row['cuts'][0]:>5.0f} {row['cuts'][1]:>5} "
            f"{row['solve_ms'][0]:>9.1f} {row['solve_ms'][1]:>9.1f} {row['make_ms']:>9.0f}")


HEADER = ("kind   level   puzzles  givens conflicts      max  cuts   max  solve ms       max"
          "   make ms")


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m fpgatrax.host.bench.puzzles",
        description="Make puzzles of each kind and difficulty, solve each and prove its "
                    "solution unique, and print the SAT solver's work and the times.")
    parser.add_argument("--size", type=int, default=8, help="the board's side (default 8)")
    parser.add_argument("--count", type=int, default=10,
                        help="puzzles per kind and difficulty (default 10)")
    args = parser.parse_args(argv)
    print(f"{args.size}×{args.size} boards, {args.count} puzzles per row, seeds 1 to "
          f"{args.count}; conflicts and cuts over the solve and the proof of uniqueness")
    print(HEADER)
    for kind in KINDS:
        for difficulty in DIFFICULTIES:
            print(format_row(measure(kind, args.size, difficulty, args.count)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
