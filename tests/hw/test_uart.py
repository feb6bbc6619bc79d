# amaranth: UnusedElaboratable=no
# (the tests of refused parameters construct components whose __init__ raises; Amaranth would
# warn, at garbage collection, that those half-made objects were never elaborated)
"""The gateware UART: divisor checks, frame timing on the pin, reception under rate mismatch,
framing errors, glitches and overruns, and round trips through both halves."""

import random

import pytest
from amaranth import Elaboratable, Module
from stream_testbench import get, idle, put, run

from fpgatrax.hw.uart import UARTReceiver, UARTTransmitter, baud_divisor

BAUD = 19200


def test_divisor_of_real_boards():
    assert baud_divisor(12e6, BAUD) == 625          # iCEBreaker
    assert baud_divisor(25e6, BAUD) == 1302         # ULX3S: 0.006 % off
    assert baud_divisor(48e6, 115200) == 417


@pytest.mark.parametrize("clk_freq,baud,message", [
    (100_000, BAUD, "nearest divisor, 5, gives 20000 baud, 4.2% off"),
    (60_000, BAUD, "too slow"),
    (0, BAUD, "positive number of Hz"),
    (12e6, -1, "positive number"),
    (12e6, "fast", "positive number"),
])
def test_divisor_refuses_bad_rates(clk_freq, baud, message):
    for component in (UARTReceiver, UARTTransmitter):
        with pytest.raises(ValueError, match=message):
            component(clk_freq=clk_freq, baud=baud)


class Waveform:
    """The levels of a serial line, one per clock, built frame by frame. A bit lasts ``period``
    clocks, which need not be a whole number (a sender whose rate is off)."""

    def __init__(self, period):
        self.period = period
        self.levels = []
        self._time = 0.0

    def hold(self, level, bits):
        self._time += bits * self.period
        self.levels += [level] * (round(self._time) - len(self.levels))

    def clocks(self, level, count):
        """Exactly ``count`` clocks of ``level``."""
        self.levels += [level] * count
        self._time = len(self.levels)

    def frame(self, byte, stop=1):
        for bit in [0] + [byte >> i & 1 for i in range(8)] + [stop]:
            self.hold(bit, 1)


def drive_receiver(divisor, levels, ready=lambda cycle: True):
    """Play ``levels`` on the receiver's pin; return the bytes it delivered, each with the
    clock it arrived on, and its final error counters."""
    dut = UARTReceiver(clk_freq=divisor * BAUD, baud=BAUD)
    received, counters = [], {}

    async def testbench(ctx):
        for cycle, level in enumerate(levels + [1] * 12 * divisor):
            ctx.set(dut.rx, level)
            ctx.set(dut.data.ready, ready(cycle))
            _, _, valid, taken, byte = await ctx.tick().sample(
                dut.data.valid, dut.data.ready, dut.data.payload)
            if valid and taken:
                received.append((cycle, byte))
        counters["framing"] = ctx.get(dut.framing_errors)
        counters["overruns"] = ctx.get(dut.overruns)

    run(dut, testbench)
    return received, counters


@pytest.mark.parametrize("divisor,rate_error", [
    (5, 0), (8, -0.02), (8, 0.02), (16, -0.03), (16, 0.03), (13, 0)])
def test_receiver_reads_back_to_back_frames(divisor, rate_error):
    rng = random.Random(f"rx {divisor} {rate_error}")
    data = [rng.randrange(256) for _ in range(40)] + [0x00, 0xff, 0x55, 0xaa]
    line = Waveform(divisor * (1 + rate_error))
    line.hold(1, 2)
    for byte in data:
        line.frame(byte)
        line.hold(1, rng.choice([0, 0, 0.5, 3]))
    received, counters = drive_receiver(divisor, line.levels)
    assert [byte for _, byte in received] == data
    assert counters == {"framing": 0, "overruns": 0}


def test_receiver_counts_and_survives_framing_errors():
    divisor = 8
    rng = random.Random("framing")
    line = Waveform(divisor)
    line.hold(1, 2)
    expected, errors = [], 0
    for _ in range(30):
        byte = rng.randrange(256)
        kind = rng.choice(["good", "good", "bad stop", "break"])
        if kind == "good":
            line.frame(byte)
            expected.append(byte)
        elif kind == "bad stop":              # a frame whose stop bit is low, then idle
            line.frame(byte, stop=0)
            errors += 1
        else:                                 # the line held low for a few frames
            line.hold(0, rng.randrange(10, 40))
            errors += 1
        line.hold(1, rng.choice([0.5, 1, 2]))
    received, counters = drive_receiver(divisor, line.levels)
    assert [byte for _, byte in received] == expected
    assert counters == {"framing": errors, "overruns": 0}


@pytest.mark.parametrize("divisor", [8, 16])
def test_receiver_ignores_short_glitches(divisor):
    """A low pulse shorter than half a bit on the idle line starts no frame; a pulse near the
    edge of a data bit, away from its middle, does not change the bit."""
    rng = random.Random(f"glitch {divisor}")
    glitch = divisor // 2 - 2
    data = [rng.randrange(256) for _ in range(20)]
    line = Waveform(divisor)
    line.hold(1, 2)
    for byte in data:
        line.clocks(0, glitch)                  # a glitch on the idle line
        line.clocks(1, 2 * divisor)
        flipped = rng.randrange(1, 9)
        for i, bit in enumerate([0] + [byte >> i & 1 for i in range(8)] + [1]):
            if i == flipped:                    # a one-clock spike at the start of the bit
                line.clocks(1 - bit, 1)
                line.clocks(bit, divisor - 1)
            else:
                line.clocks(bit, divisor)
        line.hold(1, 1)
    received, counters = drive_receiver(divisor, line.levels)
    assert [byte for _, byte in received] == data
    assert counters == {"framing": 0, "overruns": 0}


def test_receiver_resynchronises_after_noise():
    """Whatever noise comes first, after a frame's time of idle line the next frames arrive
    exactly."""
    divisor = 8
    rng = random.Random("noise")
    for trial in range(8):
        line = Waveform(divisor)
        line.hold(1, 1)
        for _ in range(rng.randrange(1, 30)):
            line.hold(rng.randrange(2), rng.random() * 3)
        line.hold(1, 11)
        start = len(line.levels)
        data = [rng.randrange(256) for _ in range(6)]
        for byte in data:
            line.frame(byte)
        received, _ = drive_receiver(divisor, line.levels)
        assert [byte for cycle, byte in received if cycle > start] == data, trial


def test_receiver_keeps_the_waiting_byte_on_overrun():
    divisor = 8
    line = Waveform(divisor)
    line.hold(1, 1)
    for byte in (0x41, 0x42, 0x43):
        line.frame(byte)
    blocked_until = len(line.levels)            # nobody takes bytes during all three frames
    line.hold(1, 2)
    line.frame(0x44)
    received, counters = drive_receiver(divisor, line.levels,
                                        ready=lambda cycle: cycle > blocked_until)
    assert [byte for _, byte in received] == [0x41, 0x44]
    assert counters == {"framing": 0, "overruns": 2}


def bytes_sent(levels, divisor):
    """The bytes in a transmitter's pin ``levels`` (one per clock), checking that every bit lasts
    exactly ``divisor`` clocks, LSB first, between a low start bit and a high stop bit."""
    sent, i = [], 0
    while i < len(levels):
        if levels[i] == 1:
            i += 1
            continue
        frame = levels[i:i + 10 * divisor]
        bits = [frame[k * divisor] for k in range(10)]
        assert frame == [bit for bit in bits for _ in range(divisor)], f"frame at clock {i}"
        assert bits[0] == 0 and bits[9] == 1
        sent.append(sum(bit << k for k, bit in enumerate(bits[1:9])))
        i += 10 * divisor
    return sent


@pytest.mark.parametrize("divisor", [4, 7, 10])
def test_transmitter_frame_timing(divisor):
    """Every bit on the pin lasts exactly one divisor of clocks, LSB first, framed by a low start
    bit and a high stop bit, and the pin idles high."""
    rng = random.Random(f"tx {divisor}")
    data = [rng.randrange(256) for _ in range(30)]
    dut = UARTTransmitter(clk_freq=divisor * BAUD, baud=BAUD)
    levels = []

    async def writer(ctx):
        for byte in data:
            if rng.random() < 0.3:
                await idle(ctx, rng.randrange(1, 3 * divisor))
            await put(ctx, dut.data, byte)
        await idle(ctx, 12 * divisor)

    async def monitor(ctx):
        while True:
            _, _, level = await ctx.tick().sample(dut.tx)
            levels.append(level)

    run(dut, writer, background=[monitor])

    assert bytes_sent(levels, divisor) == data


class Loopback(Elaboratable):
    def __init__(self, divisor):
        self.tx = UARTTransmitter(clk_freq=divisor * BAUD, baud=BAUD)
        self.rx = UARTReceiver(clk_freq=divisor * BAUD, baud=BAUD)

    def elaborate(self, platform):
        m = Module()
        m.submodules.tx, m.submodules.rx = self.tx, self.rx
        m.d.comb += self.rx.rx.eq(self.tx.tx)
        return m


@pytest.mark.parametrize("divisor", [4, 9, 12])
def test_round_trip(divisor):
    rng = random.Random(f"loop {divisor}")
    data = [rng.randrange(256) for _ in range(50)]
    dut = Loopback(divisor)
    received = []

    async def writer(ctx):
        for byte in data:
            await put(ctx, dut.tx.data, byte)

    async def reader(ctx):
        for _ in data:
            received.append(await get(ctx, dut.rx.data))

    run(dut, writer, reader)
    assert received == data
