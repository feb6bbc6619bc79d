"""The serial link of ``docs/protocol.md``: an asynchronous 8N1 receiver and transmitter.

amaranth-stdio, which has a UART of this shape, is not on PyPI, so the player carries its own.
Both halves are ``wiring.Component``\\ s whose bytes travel as ``lib.stream`` interfaces, so that
they connect to the protocol handler with ``wiring.connect`` and to a testbench the same way.

The referee's link runs at 19200 baud while the board's clock runs at tens of MHz, so one bit
lasts hundreds of clocks: both halves count a fixed *divisor* of clocks per bit, computed from
the clock frequency and the baud rate when the design is built.
"""

from amaranth.hdl import C, Cat, Module, Signal
from amaranth.lib import stream, wiring
from amaranth.lib.cdc import FFSynchronizer
from amaranth.lib.wiring import In, Out

__all__ = ["baud_divisor", "UARTReceiver", "UARTTransmitter"]

# The receiver samples each bit half a bit after the edge that starts the frame, so by the stop
# bit (9.5 bits later) it tolerates a rate mismatch of 0.5 / 9.5 ≈ 5 % between the two ends,
# less the synchroniser's few clocks. Allowing each end 2 % leaves margin for the other end.
MAX_RATE_ERROR = 0.02

# Half a bit must be at least two clocks for mid-bit sampling to mean anything.
MIN_DIVISOR = 4

# Error counters stop at their maximum: a status light reading "errors seen" must not go dark
# again because a counter wrapped around.
COUNTER_BITS = 8


def baud_divisor(clk_freq, baud):
    """The number of clocks per bit for ``baud`` at ``clk_freq`` Hz.

    Raises ValueError when the nearest whole divisor misses the baud rate by more than
    ``MAX_RATE_ERROR``, or is too small to sample a bit in its middle: such a link would lose
    bytes, so the build stops instead."""
    if not (isinstance(clk_freq, (int, float)) and clk_freq > 0):
        raise ValueError(f"clock frequency must be a positive number of Hz, not {clk_freq!r}")
    if not (isinstance(baud, (int, float)) and baud > 0):
        raise ValueError(f"baud rate must be a positive number, not {baud!r}")
    divisor = round(clk_freq / baud)
    if divisor < MIN_DIVISOR:
        raise ValueError(f"a {clk_freq} Hz clock is too slow for {baud} baud: a bit would last "
                         f"{clk_freq / baud:.2f} clocks, at least {MIN_DIVISOR} are needed")
    error = abs(clk_freq / divisor - baud) / baud
    if error > MAX_RATE_ERROR:
        raise ValueError(f"a {clk_freq} Hz clock cannot make {baud} baud: the nearest divisor, "
                         f"{divisor}, gives {clk_freq / divisor:.0f} baud, {error:.1%} off "
                         f"(at most {MAX_RATE_ERROR:.0%} is safe)")
    return divisor


def _saturating_increment(m, counter):
    with m.If(counter != (1 << len(counter)) - 1):
        m.d.sync += counter.eq(counter + 1)


class UARTReceiver(wiring.Component):
    """Receives 8N1 frames on ``rx`` and hands each byte to ``data``.

    The pin is asynchronous to the clock, so it passes a two-flip-flop synchroniser first. A
    falling edge on the idle line starts a frame; the start bit is checked again half a bit later,
    so a glitch shorter than half a bit on the idle line does not start a frame. Every following
    bit is sampled once in its middle, where it is furthest from either edge.

    A frame whose stop bit is low is a *framing error* (a break, noise, or a wrong baud rate): its
    byte is dropped, ``framing_errors`` counts it, and the receiver waits for the line to go high
    before it looks for the next start bit, so it resynchronises on the next good frame.

    The received byte waits in ``data`` until it is taken. A byte that arrives while the previous
    one is still waiting is dropped and counted in ``overruns`` (the protocol handler takes a byte
    within a clock or two, so this only happens when something is stuck).

    Ports
    -----
    rx : In(1)
        The serial input pin, high when idle.
    data : Out(stream.Signature(8))
        Received bytes.
    framing_errors, overruns : Out(8)
        How many frames were dropped for each reason, stopping at 255.
    """

    def __init__(self, *, clk_freq, baud=19200):
        self.divisor = baud_divisor(clk_freq, baud)
        super().__init__({
            "rx": In(1, init=1),
            "data": Out(stream.Signature(8)),
            "framing_errors": Out(COUNTER_BITS),
            "overruns": Out(COUNTER_BITS),
        })

    def elaborate(self, platform):
        m = Module()

        line = Signal(init=1)
        m.submodules.synchroniser = FFSynchronizer(self.rx, line, init=1)

        timer = Signal(range(self.divisor))     # clocks left until the next sample
        bits = Signal(8)                        # data bits, shifted in LSB first
        count = Signal(range(8))                # data bits received so far

        with m.If(self.data.ready):
            m.d.sync += self.data.valid.eq(0)

        with m.FSM():
            with m.State("IDLE"):
                with m.If(~line):
                    m.d.sync += timer.eq(self.divisor // 2 - 1)
                    m.next = "START"

            with m.State("START"):
                m.d.sync += timer.eq(timer - 1)
                with m.If(timer == 0):
                    m.d.sync += [timer.eq(self.divisor - 1), count.eq(0)]
                    with m.If(line):
                        m.next = "IDLE"                 # a glitch, not a start bit
                    with m.Else():
                        m.next = "DATA"

            with m.State("DATA"):
                m.d.sync += timer.eq(timer - 1)
                with m.If(timer == 0):
                    m.d.sync += [
                        timer.eq(self.divisor - 1),
                        bits.eq(Cat(bits[1:], line)),
                        count.eq(count + 1),
                    ]
                    with m.If(count == 7):
                        m.next = "STOP"

            with m.State("STOP"):
                m.d.sync += timer.eq(timer - 1)
                with m.If(timer == 0):
                    with m.If(~line):
                        _saturating_increment(m, self.framing_errors)
                        m.next = "BREAK"
                    with m.Elif(self.data.valid & ~self.data.ready):
                        _saturating_increment(m, self.overruns)
                        m.next = "IDLE"
                    with m.Else():
                        m.d.sync += [self.data.payload.eq(bits), self.data.valid.eq(1)]
                        m.next = "IDLE"

            with m.State("BREAK"):
                with m.If(line):
                    m.next = "IDLE"

        return m


class UARTTransmitter(wiring.Component):
    """Sends each byte taken from ``data`` as an 8N1 frame on ``tx``.

    A frame is the start bit, eight data bits LSB first and the stop bit, each held for exactly
    one divisor of clocks. The pin is driven straight from a flip-flop, so it never glitches. The
    next byte is taken only after the whole stop bit, so frames follow each other back to back.

    Ports
    -----
    data : In(stream.Signature(8))
        Bytes to send.
    tx : Out(1)
        The serial output pin, high when idle.
    """

    def __init__(self, *, clk_freq, baud=19200):
        self.divisor = baud_divisor(clk_freq, baud)
        super().__init__({
            "data": In(stream.Signature(8)),
            "tx": Out(1, init=1),
        })

    def elaborate(self, platform):
        m = Module()

        frame = Signal(10, init=1)          # bit 0 is on the pin; ones shift in behind
        left = Signal(range(11))            # bits of the frame not yet finished
        timer = Signal(range(self.divisor))

        m.d.comb += [self.tx.eq(frame[0]), self.data.ready.eq(left == 0)]

        with m.If(self.data.valid & self.data.ready):
            m.d.sync += [
                frame.eq(Cat(C(0, 1), self.data.payload, C(1, 1))),
                left.eq(10),
                timer.eq(self.divisor - 1),
            ]
        with m.Elif(left != 0):
            m.d.sync += timer.eq(timer - 1)
            with m.If(timer == 0):
                m.d.sync += [
                    frame.eq(Cat(frame[1:], C(1, 1))),
                    left.eq(left - 1),
                    timer.eq(self.divisor - 1),
                ]

        return m
