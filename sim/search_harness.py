"""A test harness around the move search: the search and its tile array (one per lane, as in
the player: ``SearchLanes``), and a loading port.

The testbench loads a position through ``load`` (the arrays' command port, ``ArrayPort``; cocotb
sees ``load__cmd__valid``, ``load__cmd__payload``, ``load__done``, …), typically CLEAR and WRITE,
while the search is idle, pulses ``start``, and reads the search's result from the search's own
ports, which the harness passes through. The arrays are shared as in the player: the search
drives them while busy, ``load`` otherwise. ``restart`` resets the search alone (as a new game
does in the player); ``cycles`` counts the search's.
"""

from amaranth.hdl import Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from fpgatrax.hw.array_port import ArrayPort
from fpgatrax.hw.lanes import SearchLanes
from fpgatrax.hw.search_model import DEFAULT_EXTENSION

__all__ = ["SearchHarness"]

# The search's ports that the testbench drives or reads directly.
PASSED = ("start", "colour", "busy", "done", "found", "win", "move", "trials")


class SearchHarness(wiring.Component):
    def __init__(self, width, height, *, depth, evasions=True, max_trials=0, tss=0, tss_trials=0,
                 both_colours=False, variant="standard", lanes=1, every_attack=False, table=0,
                 veto=0, veto_trials=0):
        self.width, self.height = width, height
        self._env = {"SEARCH_WIDTH": width, "SEARCH_HEIGHT": height, "SEARCH_DEPTH": depth,
                     "SEARCH_MAX_TRIALS": max_trials, "SEARCH_VARIANT": variant,
                     "SEARCH_EVASIONS": int(evasions), "SEARCH_TSS": tss,
                     "SEARCH_TSS_TRIALS": tss_trials, "SEARCH_LANES": lanes,
                     "SEARCH_EVERY_ATTACK": int(every_attack), "SEARCH_TABLE": table,
                     "SEARCH_VETO": veto, "SEARCH_VETO_TRIALS": veto_trials}
        self._search = SearchLanes(width, height, lanes=lanes, both_colours=both_colours,
                                   depth=depth, evasions=evasions, every_attack=every_attack,
                                   table=table, veto=veto, veto_trials=veto_trials,
                                   extension=DEFAULT_EXTENSION if evasions else 0,
                                   max_trials=max_trials, tss=tss, tss_trials=tss_trials,
                                   variant=variant)
        super().__init__({
            "load": In(ArrayPort(width, height, self._search.levels)),
            "restart": In(1),
            "cycles": Out(32),
            **{name: self._search.signature.members[name] for name in PASSED},
        })

    def testbench_env(self, positions, seed):
        """The ``SEARCH_*`` environment that tells the search testbenches (``sim/search_tb.py``
        and those that reuse it) this harness's search, and the positions of play to run it on:
        ``positions`` of them from games seeded with ``seed``."""
        return {name: str(value) for name, value in
                {**self._env, "SEARCH_POSITIONS": positions, "SEARCH_SEED": seed}.items()}

    def elaborate(self, platform):
        m = Module()
        m.submodules.search = search = self._search
        m.d.comb += search.restart.eq(self.restart)
        for name in PASSED:
            outer, inner = getattr(self, name), getattr(search, name)
            flow_in = self.signature.members[name].flow == In
            m.d.comb += inner.eq(outer) if flow_in else outer.eq(inner)
        wiring.connect(m, wiring.flipped(self.load), search.port)
        with m.If(self.start):
            m.d.sync += self.cycles.eq(0)
        with m.Elif(search.busy):
            m.d.sync += self.cycles.eq(self.cycles + 1)
        return m
