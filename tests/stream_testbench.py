"""Driving ``lib.stream`` interfaces from Amaranth simulator testbenches.

Streams transfer on a clock edge where both ``valid`` and ``ready`` are high; these helpers hold
their side of the handshake until such an edge, so a testbench reads like a list of transfers.
"""

from amaranth.sim import Simulator


async def put(ctx, stream, payload):
    """Offer ``payload`` on ``stream`` (whose sink is the design) until it is taken."""
    ctx.set(stream.payload, payload)
    ctx.set(stream.valid, 1)
    await ctx.tick().until(stream.ready)
    ctx.set(stream.valid, 0)


async def get(ctx, stream):
    """Take the next payload from ``stream`` (whose source is the design)."""
    ctx.set(stream.ready, 1)
    payload, = await ctx.tick().sample(stream.payload).until(stream.valid)
    ctx.set(stream.ready, 0)
    return payload


def run(dut, *testbenches, background=()):
    """Simulate ``dut`` until every testbench has returned; ``background`` testbenches (ones that
    serve a stream forever) run alongside but do not keep the simulation going."""
    sim = Simulator(dut)
    sim.add_clock(1e-6)
    for testbench in testbenches:
        sim.add_testbench(testbench)
    for testbench in background:
        sim.add_testbench(testbench, background=True)
    sim.run()
