"""Proofs about the :class:`~.uart.UARTReceiver`: every byte framed within the rate tolerance
is delivered once, intact.

The harness sends 8N1 frames into the receiver's pin: whenever it is idle it may start one
(free), with any byte (free), frames back to back or with any gap. A sender's clock differs
from the receiver's, so its bits do not last a whole number of the receiver's clocks: each
frame has a rate error, chosen freely per frame in eighths of a clock per bit, and its bit
edges fall where that error puts them, rounded down to whole clocks. The receiver's bytes
are always taken. Then, in every run of the proof's depth from reset:

- a byte comes out only while a frame's byte is owed, and it is the oldest such frame's;
- each frame's byte has come out before the frame after the next one starts, and a bit after
  the stop bit at the latest;
- no framing error and no overrun is ever counted.

The fast proof runs the smallest divisor the receiver accepts, 4 (``MIN_DIVISOR``), at the
exact rate (two whole frames and more); the full one a divisor of 8 with rate errors up to
``MAX_RATE_ERROR`` (2 %: an eighth of a clock per bit either way), a whole frame and the
start of the next, back to back (a depth of two frames took Yices over 20 minutes). The
control sends frames 6 % fast, beyond the tolerance: the proof must find a byte lost or
misread. (At a divisor of 8 the receiver happens to take frames 6 % slow: it samples half a
bit after the start edge, and the drift of 4.5 clocks by the stop bit rounds down to the 4 it
can absorb.)
"""

from amaranth.hdl import Assert, Assume, C, Cat, Module, Mux, Signal, signed
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from fpgatrax.hw.formal import Proof, no_reset
from fpgatrax.hw.uart import MAX_RATE_ERROR, MIN_DIVISOR, UARTReceiver

__all__ = ["ReceiverHarness", "PROOFS"]

BAUD = 19200
EIGHTHS = 8        # the rate error's unit: an eighth of a clock per bit


class ReceiverHarness(wiring.Component):
    """The receiver at ``divisor`` clocks per bit, fed by frames whose rate error is at most
    ``error`` (a fraction, either way; rounded down to eighths of a clock per bit) plus
    ``slow`` (a fraction, negative for fast: the control's)."""

    def __init__(self, divisor, error=0.0, slow=0.0):
        self.divisor = divisor
        self.spread = int(divisor * error * EIGHTHS)
        self.slow = round(divisor * slow * EIGHTHS)
        super().__init__({
            "send": In(1),
            "byte": In(8),
            "error": In(signed(6)),       # this frame's, eighths of a clock per bit
            "rx": Out(1),
        })

    def elaborate(self, platform):
        m = Module()
        divisor = self.divisor
        m.submodules.rx = receiver = UARTReceiver(clk_freq=divisor * BAUD, baud=BAUD)
        no_reset(m)
        m.d.comb += Assume((self.error >= -self.spread) & (self.error <= self.spread))

        # The sender: bit 0 idle, 1..10 the start bit, eight data bits and the stop bit. The
        # frame's error accumulates in eighths of a clock; a bit lasts the divisor plus the
        # whole clocks the accumulated error gained during it.
        bit = Signal(range(11))
        per_bit = Signal(signed(6))
        drift = Signal(signed(8))            # eighths of a clock since the frame began
        timer = Signal(range(2 * divisor))
        frame = Signal(10)
        m.d.comb += [self.rx.eq((bit == 0) | frame[0]), receiver.rx.eq(self.rx),
                     receiver.data.ready.eq(1)]
        starting = (bit == 0) & self.send
        after = drift + per_bit
        length = divisor + (after >> 3) - (drift >> 3)
        with m.If(starting):
            m.d.sync += [bit.eq(1), timer.eq(0), frame.eq(Cat(C(0, 1), self.byte, C(1, 1))),
                         drift.eq(0), per_bit.eq(self.error + self.slow)]
        with m.Elif(bit != 0):
            m.d.sync += timer.eq(timer + 1)
            with m.If(timer == length - 1):
                m.d.sync += [timer.eq(0), frame.eq(frame[1:]), bit.eq(bit + 1),
                             drift.eq(after)]
                with m.If(bit == 10):
                    m.d.sync += bit.eq(0)

        # What the receiver owes: the bytes of the frames sent and not yet delivered, oldest
        # first. The stop bit is sampled in its middle and the pin passes a synchroniser, so at
        # small divisors a byte comes out just after the next frame has started: two may be owed.
        owed = [Signal(name=f"owed_{k}") for k in range(2)]
        expected = [Signal(8, name=f"expected_{k}") for k in range(2)]
        quiet = Signal(range(divisor + 1))      # idle clocks since the last stop bit
        with m.If(bit != 0):
            m.d.sync += quiet.eq(0)
        with m.Elif(quiet != divisor):
            m.d.sync += quiet.eq(quiet + 1)
        delivered = receiver.data.valid
        with m.If(delivered):
            m.d.comb += Assert(owed[0] & (receiver.data.payload == expected[0]))
        with m.If(starting):
            m.d.comb += Assert(~owed[1])
        # The queue after this clock: a delivered byte leaves the front, a new frame joins
        # at the front if that is free, else behind it.
        front = Mux(delivered, owed[1], owed[0])
        front_byte = Mux(delivered, expected[1], expected[0])
        behind = starting & front
        m.d.sync += [
            owed[0].eq(front | starting),
            expected[0].eq(Mux(front, front_byte, self.byte)),
            owed[1].eq((owed[1] & ~delivered) | behind),
            expected[1].eq(Mux(behind, self.byte, expected[1])),
        ]
        with m.If((quiet == divisor) & (bit == 0)):
            m.d.comb += Assert(~owed[0])
        m.d.comb += [Assert(receiver.framing_errors == 0), Assert(receiver.overruns == 0)]
        return m


PROOFS = (
    Proof("uart-rx", f"UART receiver, divisor {MIN_DIVISOR}, exact rate: each byte once",
          lambda: ReceiverHarness(MIN_DIVISOR), mode="bmc", depth=90),
    Proof("uart-rx-tolerance", "UART receiver, divisor 8, rate error up to 2 %: each byte once",
          lambda: ReceiverHarness(8, error=MAX_RATE_ERROR), mode="bmc", depth=100, fast=False),
    Proof("uart-rx-control", "frames 6 % fast are not all delivered intact",
          lambda: ReceiverHarness(8, slow=-0.06), mode="bmc", depth=90, expect="fail"),
)
