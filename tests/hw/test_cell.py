"""One cell of the tile array in Amaranth's simulator, against the reference engine's table of
forced play: every combination of what its four neighbours show it (nothing, a white edge, a
red edge)."""

import itertools

from amaranth.sim import Simulator

from fpgatrax.host.rules.position import FORCED
from fpgatrax.hw.cell import Cell


def test_forced_play_matches_the_engine():
    dut = Cell(parity=0)
    seen = []

    async def bench(ctx):
        ctx.set(dut.ctl.level, 0b01)
        for faces in itertools.product((None, "white", "red"), repeat=4):
            for d, face in enumerate(faces):
                ctx.set(dut.nb[d].occ, face is not None)
                ctx.set(dut.nb[d].edge, face == "white")
            ctx.set(dut.ctl.resolve, 1)
            ctx.set(dut.ctl.force, 0b01)
            await ctx.tick()
            ctx.set(dut.ctl.force, 0)
            await ctx.tick()   # the leaves are registered
            seen.append((faces, ctx.get(dut.state.tile), ctx.get(dut.three)))
            ctx.set(dut.ctl.clear, 0b11)
            await ctx.tick()
            ctx.set(dut.ctl.clear, 0)

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()

    assert len(seen) == 81
    for faces, tile, three in seen:
        entry = sum(1 << d for d, f in enumerate(faces) if f == "white")
        entry |= sum(1 << (d + 4) for d, f in enumerate(faces) if f == "red")
        want = FORCED[entry]
        assert (bool(three), tile) == (want < 0, max(want, 0)), faces
