"""Proofs about one :class:`~.cell.Cell`, whatever its neighbours and the broadcast do.

The harness drives a cell's every input freely. Assumed, as the array guarantees: a written
tile (``ctl.wdata`` when the cell is selected) is empty or one of the six tiles, and the level
written with it is a thermometer code (:func:`~.cell.cell_state_layout`); no write comes while
forced play runs (the array's controller writes in PLACE and its sweeps, forces in RESOLVE);
a neighbour without a tile shows no white edge. Proven by induction, in every reachable state:

- the cell holds only the empty square or one of the six tiles, at a thermometer level;
- a clear that names the cell's level empties it (a DISCARD leaves exactly the tiles of
  lower levels), and a tile changes only by a write to its square or such a clear, never by
  forced play;
- a tile that forced play puts in the cell fits every neighbour that has a tile, and two of
  its edges are entered by one colour (it is the forced tile, not a guess).
"""

from amaranth.hdl import Assert, Assume, Cat, Module
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In

from fpgatrax.host.rules.position import SYMBOL_TILES
from fpgatrax.hw.cell import Cell, control_layout, neighbour_layout
from fpgatrax.hw.formal import Proof, no_reset, past, started

__all__ = ["CellHarness", "PROOFS", "valid_tile", "two_or_more"]

LEVELS = 3
TILES = sorted({tile for pair in SYMBOL_TILES.values() for tile in pair})


def valid_tile(tile):
    """Whether ``tile`` is the empty square or one of the six tiles."""
    return Cat(tile == t for t in [0, *TILES]).any()


def _thermometer(level):
    return Cat(level == (1 << k) - 1 for k in range(len(level) + 1)).any()


class CellHarness(wiring.Component):
    """A cell of parity 0 with ``LEVELS`` trial levels and free inputs; ``any_tile`` drops the
    assumption on written tiles (the control: the first property must then fail)."""

    def __init__(self, any_tile=False):
        self.any_tile = any_tile
        super().__init__({
            "ctl": In(control_layout(LEVELS)),
            "sel_x": In(1), "sel_y": In(1), "at": In(1),
            "seed_col": In(1), "seed_row": In(1), "end_col": In(1), "end_row": In(1),
            "nb": In(data.ArrayLayout(neighbour_layout(1), 4)),
        })

    def elaborate(self, platform):
        m = Module()
        m.submodules.cell = cell = Cell(0, LEVELS)
        for name in ("ctl", "sel_x", "sel_y", "at", "seed_col", "seed_row", "end_col",
                     "end_row", "nb"):
            m.d.comb += getattr(cell, name).eq(getattr(self, name))
        tile, level = cell.state.tile, cell.state.level

        no_reset(m)
        if not self.any_tile:
            m.d.comb += Assume(valid_tile(self.ctl.wdata))
        m.d.comb += Assume(_thermometer(self.ctl.level))
        m.d.comb += Assume(~(self.sel_x & self.ctl.force.any()))
        for d in range(4):
            m.d.comb += Assume(~self.nb[d].edge | self.nb[d].occ)

        m.d.comb += [Assert(valid_tile(tile)), Assert(_thermometer(level))]

        ready = started(m)
        was_tile, was_level = past(m, tile, "tile"), past(m, level, "level")
        written = past(m, self.sel_x & self.sel_y, "written")
        cleared = past(m, (self.ctl.clear & level).any(), "cleared")
        occupied = past(m, Cat(self.nb[d].occ for d in range(4)), "occupied")
        white = past(m, Cat(self.nb[d].edge for d in range(4)), "white")
        with m.If(ready):
            m.d.comb += Assert(~cleared | (tile == 0))
            with m.If(~written & ~cleared & (was_tile != 0)):
                m.d.comb += Assert((tile == was_tile) & (level == was_level))
            with m.If(~written & ~cleared & (was_tile == 0) & (tile != 0)):
                red = occupied & ~white
                fits = ((tile ^ white) & occupied) == 0
                m.d.comb += [Assert(fits), Assert(two_or_more(white) | two_or_more(red))]
        return m


def two_or_more(bits):
    """Whether two or more of ``bits`` (four, one per direction) are set."""
    # Written out here rather than taken from ``tiles.forced_play``'s helpers: the property
    # must not share the code it checks.
    return Cat(bits[i] & bits[j] for i in range(4) for j in range(i + 1, 4)).any()


PROOFS = (
    Proof("cell", "one cell: valid tiles and levels, clears, forced tiles fit",
          CellHarness, mode="prove", depth=4),
    Proof("cell-control", "a cell written with any 4 bits holds an invalid tile",
          lambda: CellHarness(any_tile=True), mode="prove", depth=4, expect="fail"),
)
