"""Proofs about the :class:`~.array.TileArray`'s grid: its cells as the array wires them.

The cell's own proofs (:mod:`.cell_proof`) see one square with free neighbours; these see the
whole grid, with the array's own wiring of parities, neighbour ports and facing edges, so that
a neighbour wired to the wrong side or two adjacent squares on one parity cannot hide. The
controller is taken out (:class:`FreeControl`): the solver drives the broadcast, the write and
its address freely on every clock, within what the real controller does:

- a written tile is empty or one of the six, and fits the tiles around its square (PLACE
  chooses such a colouring; the sweeps of CLEAR, COMMIT and SHIFT, which copy tiles through the
  same port, leave a half-copied board until they end, and are outside these proofs);
- forced play runs on one parity at a time (RESOLVE alternates them), never while writing;
- clears of any level, detection passes of any kind, at any time.

Proven by induction on a 3×3 array (the smallest the array allows), in every reachable state:

- every square holds the empty square or one of the six tiles, and every two adjacent tiles
  agree on their shared edge: forced play never puts down a tile that disagrees with one
  beside it;
- forced play ends: after two clocks of forced play (both parities) that added no tile, no
  empty square is forced, except a square that three edges of one colour enter (illegal, and
  reported). So each two clocks of RESOLVE either add a tile or end it, and forced play ends
  within 2·W·H clocks.

Two controls must fail: both parities forcing on one clock (two adjacent squares then fill at
once, each fitting the old board, and the proof must find them disagreeing), and a claim that
forced play ends after one quiet clock (a square of the other parity is still forced).
"""

import itertools

from amaranth.hdl import Assert, Assume, C, Cat, Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In

from fpgatrax.hw.array import TileArray
from fpgatrax.hw.array_control import STEPS, ArrayControl, grid_outputs
from fpgatrax.hw.cell_proof import two_or_more, valid_tile
from fpgatrax.hw.formal import Proof, no_reset, past, started
from fpgatrax.hw.tiles import TILE_BITS, opposite

__all__ = ["FreeControl", "ArrayHarness", "PROOFS"]

LEVELS = 2


class FreeControl(ArrayControl):
    """A controller whose outputs to the grid (``grid_outputs``: the broadcast, the write, its
    address and the pass) are the harness's free inputs ``free``; its other outputs stay at
    zero."""

    def __init__(self, width, height, levels, both_colours, labels, free):
        super().__init__(width, height, levels, both_colours, labels)
        self.free = free

    def elaborate(self, platform):
        m = Module()
        for name in grid_outputs(self.width, self.height, self.levels):
            m.d.comb += getattr(self, name).eq(getattr(self.free, name))
        return m


class _FreeArray(TileArray):
    def __init__(self, size, free):
        self.free = free
        super().__init__(size, size, LEVELS)

    def Controller(self, width, height, levels, both_colours, labels):  # noqa: N802 (the seam)
        return FreeControl(width, height, levels, both_colours, labels, self.free)


class ArrayHarness(wiring.Component):
    """The ``size`` × ``size`` array with free controller outputs. Controls:
    ``both_parities`` lets forced play run on both parities at once (the first property must
    then fail); ``forced_clocks`` 1 claims that one clock of forced play that adds no tile
    ends it (the second must fail)."""

    def __init__(self, size=3, both_parities=False, forced_clocks=2):
        self.size, self.both_parities, self.forced_clocks = size, both_parities, forced_clocks
        super().__init__({name: In(member.shape)
                          for name, member in grid_outputs(size, size, LEVELS).items()})

    def elaborate(self, platform):
        m = Module()
        size = self.size
        m.submodules.array = array = _FreeArray(size, self)
        ctl = self.ctl
        squares = [(x, y) for y in range(size) for x in range(size)]
        tile = {(x, y): array.board[TILE_BITS * (y * size + x):][:TILE_BITS] for x, y in squares}

        def around(x, y):
            """The squares next to (x, y) inside the array: (direction, square)."""
            return [(d, (x + dx, y + dy)) for d, (dx, dy) in STEPS.items()
                    if (x + dx, y + dy) in tile]

        def agree(x, y, d, other):
            """Whether the tile at (x, y) and the tile ``other`` beside it towards ``d`` agree,
            or either square is empty."""
            return (tile[x, y] == 0) | (other == 0) | (tile[x, y][d] == other[opposite(d)])

        no_reset(m)
        m.d.comb += [Assume(valid_tile(ctl.wdata)), Assume(~(self.write & ctl.force.any()))]
        if not self.both_parities:
            m.d.comb += Assume(ctl.force != 0b11)
        for x, y in squares:
            with m.If(self.write & (self.ax == x) & (self.ay == y)):
                for d, near in around(x, y):
                    m.d.comb += Assume((tile[near] == 0) |
                                       (ctl.wdata[d] == tile[near][opposite(d)]))

        for x, y in squares:
            m.d.comb += Assert(valid_tile(tile[x, y]))
            for d, near in around(x, y):
                m.d.comb += Assert(agree(x, y, d, tile[near]))

        # Forced play ends: ``forced_clocks`` clocks of forced play, each on a parity other
        # than the last one's, with no write and no clear, that changed no tile leave no empty
        # square forced (but an illegal one).
        clocks = [past(m, Cat(ctl.force, self.write, ctl.clear.any()), f"clock_{k}", clocks=k)
                  for k in range(1, self.forced_clocks + 1)]
        quiet = Cat(*(clock[:2].any() & ~clock[2:].any() for clock in clocks),
                    *(a[:2] != b[:2] for a, b in itertools.pairwise(clocks)),
                    array.board == past(m, array.board, "board", clocks=self.forced_clocks)).all()
        ready = past(m, started(m), "ready")
        for x, y in squares:
            near = dict(around(x, y))
            # The edges entering (x, y) of each colour, N E S W; none from outside the array.
            white = Cat(tile[near[d]][opposite(d)] if d in near else C(0, 1) for d in range(4))
            red = Cat((tile[near[d]] != 0) & ~tile[near[d]][opposite(d)] if d in near
                      else C(0, 1) for d in range(4))
            with m.If(ready & quiet & (tile[x, y] == 0) &
                      ~_three_or_more(white) & ~_three_or_more(red)):
                m.d.comb += Assert(~two_or_more(white) & ~two_or_more(red))
        return m


def _three_or_more(bits):
    return Cat(bits[i] & bits[j] & bits[k]
               for i in range(4) for j in range(i + 1, 4) for k in range(j + 1, 4)).any()


PROOFS = (
    Proof("array", "a 3x3 grid as the array wires it: tiles always agree, forced play ends",
          ArrayHarness, mode="prove", depth=4),
    Proof("array-8x8", "an 8x8 grid as the array wires it: tiles always agree, forced play ends",
          lambda: ArrayHarness(size=8), mode="prove", depth=4, fast=False),
    Proof("array-control", "forcing both parities at once puts down disagreeing tiles",
          lambda: ArrayHarness(both_parities=True), mode="bmc", depth=10, expect="fail"),
    Proof("array-control-ends", "one clock of forced play that adds no tile does not end it",
          lambda: ArrayHarness(forced_clocks=1), mode="bmc", depth=10, expect="fail"),
)
