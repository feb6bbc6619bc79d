"""A test harness around the move search: the tile array, the search, and a loading port.

The testbench loads a position through ``load`` (array commands, typically CLEAR and WRITE)
while the search is idle, pulses ``start``, and reads the search's result. ``restart`` resets the
search alone (as a new game does in the player), so every position starts from the LFSR seed.
"""

from amaranth.hdl import Module, ResetInserter
from amaranth.lib import stream, wiring
from amaranth.lib.wiring import In, Out

from ..hw.array import Flags, TileArray, command_layout
from ..hw.search import MoveSearch, square_layout

__all__ = ["SearchHarness"]


class SearchHarness(wiring.Component):
    def __init__(self, width, height, *, budget=0, variant="standard"):
        self.width, self.height = width, height
        self.budget, self.variant = budget, variant
        super().__init__({
            "load": In(stream.Signature(command_layout(width, height))),
            "load_done": Out(1),
            "restart": In(1),
            "start": In(1),
            "colour": In(1),
            "busy": Out(1),
            "done": Out(1),
            "found": Out(1),
            "win": Out(1),
            "move": Out(square_layout(width, height)),
            "trials": Out(24),
            "cycles": Out(32),
            "flags": Out(Flags),
        })

    def elaborate(self, platform):
        m = Module()
        m.submodules.array = array = TileArray(self.width, self.height)
        m.submodules.search = search = ResetInserter(self.restart)(
            MoveSearch(self.width, self.height, budget=self.budget, variant=self.variant))
        m.d.comb += [
            search.start.eq(self.start), search.colour.eq(self.colour),
            search.array_done.eq(array.done), search.flags.eq(array.flags),
            search.bbox.eq(array.bbox),
            self.busy.eq(search.busy), self.done.eq(search.done), self.found.eq(search.found),
            self.win.eq(search.win), self.move.eq(search.move), self.trials.eq(search.trials),
            self.flags.eq(array.flags), self.load_done.eq(array.done),
        ]
        with m.If(search.busy):
            wiring.connect(m, search.cmd, array.cmd)
        with m.Else():
            wiring.connect(m, wiring.flipped(self.load), array.cmd)
        with m.If(self.start):
            m.d.sync += self.cycles.eq(0)
        with m.Elif(search.busy):
            m.d.sync += self.cycles.eq(self.cycles + 1)
        return m
