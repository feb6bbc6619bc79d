"""Mini Trax solved (``make solve-mini``): the value of the empty board with perfect play, and
how small transpositions and symmetries make the search.

It runs the exhaustive search of ``host/bots/perfect.py`` twice, with the sixteen symmetries of
a position folded into one table entry and without them (transpositions only), and prints the
value for white, the positions each search stored, the time, and the value of each of white's
two first moves.

    python -m fpgatrax.host.bench.mini
"""

import sys
import time

from fpgatrax.host.bots.perfect import DRAW, WIN, MiniSolver
from fpgatrax.host.rules.notation import format_move
from fpgatrax.host.rules.position import Position

NAMES = {WIN: "a win", DRAW: "a draw", -WIN: "a loss"}


def main(argv=None):
    print("Mini Trax (tiles within 3 × 3 squares; a line joins opposite sides): perfect play "
          "from the empty board")
    values = set()
    for symmetries in (True, False):
        solver = MiniSolver(symmetries)
        start = time.perf_counter()
        value = solver.value(Position("mini"))
        seconds = time.perf_counter() - start
        values.add(value)
        how = ("transpositions and the 16 symmetries" if symmetries
               else "transpositions only")
        print(f"  {how:<38} {NAMES[value]} for white, {len(solver.table):>6,} positions "
              f"stored, {seconds:.1f} s")
    position = Position("mini")
    for move in position.legal_moves():
        text = format_move(position, move)
        print(f"  white's first move {text}: {NAMES[solver.after(position, move)]} for white")
    return 0 if len(values) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
