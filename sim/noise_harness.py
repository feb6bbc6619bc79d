"""A test harness that puts a long stream of random frames on the player's ``rx`` pin.

A cocotb coroutine that drives a pin bit by bit costs a Python call per bit, too slow for a
million bytes; here the frames come from gateware inside the simulation (a transmitter fed by a
pseudo-random generator), so Verilator runs on its own while they pass. The harness then hands
the pin to the testbench, which plays a game (``sim/noise_tb.py``).

The bytes: each is drawn by xorshift32 from ``seed``; three in four come from an alphabet of
the protocol's own characters (line ends, ``-``, ``W``, ``B``, ``T``, digits, column letters,
tile symbols), so that the protocol handler sees short lines, commands that start games (which
the player then plays, answering on ``tx`` while the noise goes on) and lines that look like
moves, not just over-long garbage; the rest are any byte at all. Frames follow each other after
0 to 3 idle bit times, also drawn.

What it counts, from the player's own receiver (``Player._rx``): the bytes it delivered to the
protocol handler (``noise_received``), and how many of them differ from the byte sent in that
place (``noise_wrong``: a second generator, stepped once per delivered byte, replays the
stream, so a lost, doubled or corrupted byte shows up as a difference), and its framing errors
and overruns. The other ports are the player's, so the player's testbench drives this harness
as it drives the player.
"""

from amaranth.hdl import Array, Const, Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from fpgatrax.hw.player import Player
from fpgatrax.hw.uart import UARTTransmitter

__all__ = ["NoisyLink"]

# Characters of the protocol, weighted by repetition: line feeds often enough that most lines
# stay under the protocol's 16-byte cap, and the bytes of "-W", "-B", "-T" often enough that
# games start now and then.
ALPHABET = b"\n\n\n\n\r--WWBBT@0123456789ABCDE/\\++"
assert len(ALPHABET) == 32


def xorshift32(m, state):
    """The next state of Marsaglia's xorshift32 generator (combinational)."""
    a = Signal(32)
    b = Signal(32)
    following = Signal(32)
    m.d.comb += [a.eq(state ^ (state << 13)[:32]),
                 b.eq(a ^ (a >> 17)),
                 following.eq(b ^ (b << 5)[:32])]
    return following


def noise_byte(state):
    """The byte a generator state stands for: from the alphabet when bits 8–9 are not both
    zero, else bits 0–7 as they are."""
    alphabet = Array(Const(c, 8) for c in ALPHABET)
    return Mux(state[8:10] != 0, alphabet[state[10:15]], state[:8])


class NoisyLink(wiring.Component):
    """``player`` behind a link that first carries ``noise_count`` random frames (set ``seed``,
    non-zero, and ``noise_count``, then raise ``go``), then the ``rx`` pin."""

    def __init__(self, player: Player):
        self._player = player
        super().__init__({
            **player.signature.members,       # the player's pins and lights, as they are
            "seed": In(32),
            "noise_count": In(32),
            "go": In(1),
            "noise_done": Out(1),
            "noise_received": Out(32),
            "noise_wrong": Out(32),
            "framing_errors": Out(8),
            "overruns": Out(8),
        })

    def elaborate(self, platform):
        m = Module()
        player = self._player
        m.submodules.player = player
        m.submodules.noise_tx = tx = UARTTransmitter(clk_freq=player.clk_freq, baud=player.baud)
        for name, member in player.signature.members.items():
            if member.flow == Out:
                m.d.comb += getattr(self, name).eq(getattr(player, name))

        # The sender: one generator step per byte handed to the transmitter, then an idle gap.
        sent_state, sent = Signal(32), Signal(32)
        gap = Signal(range(6 * tx.divisor))
        last = sent + 1 == self.noise_count
        with m.If(~self.go):
            m.d.sync += [sent_state.eq(self.seed), sent.eq(0)]
        m.d.comb += [tx.data.payload.eq(noise_byte(sent_state)),
                     tx.data.valid.eq(self.go & (sent != self.noise_count) & (gap == 0))]
        next_sent_state = xorshift32(m, sent_state)
        with m.If(tx.data.valid & tx.data.ready):
            m.d.sync += [sent_state.eq(next_sent_state), sent.eq(sent + 1),
                         gap.eq((sent_state[15:17] + Mux(last, 2, 0)) * tx.divisor)]
        with m.Elif(tx.data.ready & (gap != 0)):
            m.d.sync += gap.eq(gap - 1)
        # Done two bit times or more after the last frame, when the receiver has delivered it.
        done = self.go & (sent == self.noise_count) & tx.data.ready & (gap == 0)
        m.d.comb += [self.noise_done.eq(done),
                     player.rx.eq(Mux(done, self.rx, tx.tx))]

        # The checker: the player's receiver's deliveries against a replay of the stream.
        urx = player._rx
        seen_state = Signal(32)
        with m.If(~self.go):
            m.d.sync += [seen_state.eq(self.seed), self.noise_received.eq(0),
                         self.noise_wrong.eq(0)]
        with m.Elif(urx.data.valid & urx.data.ready & ~done):
            m.d.sync += [seen_state.eq(xorshift32(m, seen_state)),
                         self.noise_received.eq(self.noise_received + 1)]
            with m.If(urx.data.payload != noise_byte(seen_state)):
                m.d.sync += self.noise_wrong.eq(self.noise_wrong + 1)
        m.d.comb += [self.framing_errors.eq(urx.framing_errors),
                     self.overruns.eq(urx.overruns)]
        return m
