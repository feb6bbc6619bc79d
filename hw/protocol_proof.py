"""Proofs about the :class:`~.protocol.Protocol` handler, whatever bytes arrive.

The harness offers any byte on any clock, takes and offers the player's moves and the
transmitted bytes freely, and watches the line the bytes make (CRs ignored, as the handler
ignores them). Then, in every run of the proof's depth from reset, for any byte sequence:

- the handler never stops accepting bytes: ``rx.ready`` is never low two clocks running
  (it is low only on the clock after a line feed, while the line is judged);
- a line that is exactly ``-W``, ``-B`` or ``-R`` starts a new game two clocks after its line
  feed, with the colour it names, whatever came before it; and ``new_game`` is raised by
  nothing else;
- an opponent's move is handed on only for a line of 3 to ``max_line`` bytes: a longer line
  is dropped, never misread as a move, and so is a command.

The control gives the handler a ``max_line`` one byte longer than the harness's: the proof
must find a line the harness calls too long handed on as a move.
"""

from amaranth.hdl import Assert, Module, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In

from fpgatrax.hw.formal import Proof, no_reset, past, started
from fpgatrax.hw.notation import LF, MoveLayout
from fpgatrax.hw.protocol import CR, Colour, Protocol

__all__ = ["ProtocolHarness", "PROOFS"]

# Numbers of 4 bits keep the state small; with them a move has 3 or 4 bytes ("A10+"), so with
# a cap of 3 it is the cap, not the decoder, that must drop a 4-byte move.
MAX_LINE = 3
BITS = 4


class ProtocolHarness(wiring.Component):
    """The handler with free inputs; ``slack`` lengthens its ``max_line`` (the control)."""

    def __init__(self, slack=0):
        self.slack = slack
        super().__init__({
            "rx_valid": In(1), "rx_byte": In(8), "tx_ready": In(1),
            "my_valid": In(1), "my_move": In(MoveLayout(BITS, BITS)), "move_ready": In(1),
        })

    def elaborate(self, platform):
        m = Module()
        m.submodules.protocol = protocol = Protocol(max_line=MAX_LINE + self.slack,
                                                    col_bits=BITS, row_bits=BITS)
        no_reset(m)
        m.d.comb += [
            protocol.rx.valid.eq(self.rx_valid), protocol.rx.payload.eq(self.rx_byte),
            protocol.tx.ready.eq(self.tx_ready),
            protocol.my_move.valid.eq(self.my_valid), protocol.my_move.payload.eq(self.my_move),
            protocol.opponent_move.ready.eq(self.move_ready),
        ]
        byte = self.rx_byte
        taken = self.rx_valid & protocol.rx.ready & (byte != CR)

        # The line so far: its length (stopping past MAX_LINE + 1) and whether it is a command.
        length = Signal(range(MAX_LINE + 3))
        dash, colour, named = Signal(), Signal(Colour), Signal()
        ends = taken & (byte == LF)
        with m.If(taken & (byte != LF)):
            with m.If(length != MAX_LINE + 2):
                m.d.sync += length.eq(length + 1)
            with m.If(length == 0):
                m.d.sync += dash.eq(byte == ord("-"))
            with m.If(length == 1):
                m.d.sync += [named.eq(dash & ((byte == ord("W")) | (byte == ord("B")) |
                                              (byte == ord("R")))),
                             colour.eq(byte != ord("W"))]
        with m.If(ends):
            m.d.sync += length.eq(0)

        # What each line feed promised, two clocks on.
        new_game = ends & (length == 2) & named
        move_line = ends & (length >= 3) & (length <= MAX_LINE)
        promised = past(m, new_game, "new_game", clocks=2)
        promised_colour = past(m, colour, "colour", clocks=2)
        may_move = past(m, move_line, "move_line", clocks=2)

        ready = started(m)
        out = protocol.opponent_move
        handed_on = out.valid & (~past(m, out.valid, "valid") |
                                 past(m, out.valid & out.ready, "taken"))
        with m.If(ready):
            m.d.comb += [
                Assert(protocol.rx.ready | past(m, protocol.rx.ready, "ready")),
                Assert(protocol.new_game == promised),
                Assert(~handed_on | may_move),
            ]
            with m.If(promised):
                m.d.comb += Assert(protocol.colour == promised_colour)
        return m


PROOFS = (
    Proof("protocol", "protocol: bytes always taken, -W/-B/-R start a game, long lines "
          "dropped", ProtocolHarness, mode="bmc", depth=40),
    Proof("protocol-control", "a handler whose line cap is one byte longer",
          lambda: ProtocolHarness(slack=1), mode="bmc", depth=24, expect="fail"),
)
