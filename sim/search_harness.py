"""A test harness around the move search: the tile array, the search, and a loading port.

The testbench loads a position through ``load`` (array commands, typically CLEAR and WRITE)
while the search is idle, pulses ``start``, and reads the search's result from the search's own
ports, which the harness passes through. ``restart`` resets the search alone (as a new game does
in the player); ``cycles`` counts the search's.
"""

from amaranth.hdl import Module, ResetInserter
from amaranth.lib import stream, wiring
from amaranth.lib.wiring import In, Out

from fpgatrax.hw.array import TileArray, command_layout
from fpgatrax.hw.search import MoveSearch

__all__ = ["SearchHarness"]

# The search's ports that the testbench drives or reads directly.
PASSED = ("start", "colour", "busy", "done", "found", "win", "move", "trials")


class SearchHarness(wiring.Component):
    def __init__(self, width, height, *, depth, max_trials=0, variant="standard"):
        self.width, self.height = width, height
        self._search = MoveSearch(width, height, depth=depth, max_trials=max_trials, variant=variant)
        super().__init__({
            "load": In(stream.Signature(command_layout(width, height, self._search.levels))),
            "load_done": Out(1),
            "restart": In(1),
            "cycles": Out(32),
            **{name: self._search.signature.members[name] for name in PASSED},
        })

    def elaborate(self, platform):
        m = Module()
        m.submodules.array = array = TileArray(self.width, self.height, self._search.levels)
        m.submodules.search = search = ResetInserter(self.restart)(self._search)
        for name in PASSED:
            outer, inner = getattr(self, name), getattr(self._search, name)
            flow_in = self.signature.members[name].flow == In
            m.d.comb += inner.eq(outer) if flow_in else outer.eq(inner)
        m.d.comb += [search.array_done.eq(array.done), search.flags.eq(array.flags),
                     search.bbox.eq(array.bbox), self.load_done.eq(array.done)]
        with m.If(search.busy):
            wiring.connect(m, search.cmd, array.cmd)
        with m.Else():
            wiring.connect(m, wiring.flipped(self.load), array.cmd)
        with m.If(self.start):
            m.d.sync += self.cycles.eq(0)
        with m.Elif(search.busy):
            m.d.sync += self.cycles.eq(self.cycles + 1)
        return m
