"""Driving ``lib.stream`` interfaces from Amaranth simulator testbenches.

Streams transfer on a clock edge where both ``valid`` and ``ready`` are high; these helpers hold
their side of the handshake until such an edge, so a testbench reads like a list of transfers.
"""

from amaranth.sim import Simulator

PERIOD = 1e-6          # the clock period; any will do, the designs count clocks


# These helpers wait with plain ``await ctx.tick()`` loops rather than ``until()`` or
# ``repeat()``: when a hung design makes the watchdog below end the simulation, a testbench left
# waiting inside those async generators fails again when it is garbage collected, and buries the
# real failure under unraisable-exception errors.

async def idle(ctx, cycles):
    """Let ``cycles`` clocks pass."""
    for _ in range(cycles):
        await ctx.tick()


async def put(ctx, stream, payload):
    """Offer ``payload`` on ``stream`` (whose sink is the design) until it is taken."""
    ctx.set(stream.payload, payload)
    ctx.set(stream.valid, 1)
    while not (await ctx.tick().sample(stream.ready))[2]:
        pass
    ctx.set(stream.valid, 0)


async def get(ctx, stream):
    """Take the next payload from ``stream`` (whose source is the design)."""
    ctx.set(stream.ready, 1)
    while True:
        _, _, valid, payload = await ctx.tick().sample(stream.valid, stream.payload)
        if valid:
            ctx.set(stream.ready, 0)
            return payload


def run(dut, *testbenches, background=(), max_cycles=100_000):
    """Simulate ``dut`` until every testbench has returned; ``background`` testbenches (ones that
    serve a stream forever) run alongside but do not keep the simulation going. A design that
    hangs fails after ``max_cycles`` clocks instead of hanging the test suite."""
    async def watchdog(ctx):
        await ctx.delay(max_cycles * PERIOD)
        raise AssertionError(f"the testbenches did not finish within {max_cycles} clocks")

    sim = Simulator(dut)
    sim.add_clock(PERIOD)
    for testbench in testbenches:
        sim.add_testbench(testbench)
    for testbench in (*background, watchdog):
        sim.add_testbench(testbench, background=True)
    sim.run()
