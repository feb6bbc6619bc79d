"""The referee's protocol (``docs/protocol.md``) between the UART and the move search.

Received bytes become lines, and lines become events for the player: a new game (``-W``, or
``-B`` and its synonym ``-R``), or the opponent's move as notation numbers. The team-code
handshake (``-T``) is answered here, so the player never sees it. The player's moves go the
other way, each written as one line ending in LF.

Lines are never stored: each byte goes to the notation decoder as it arrives, while a byte
counter and a two-byte command recogniser run beside it, and the line feed decides which of them
the line was. A move line is at most a handful of bytes, so a line longer than ``max_line`` is
garbage whatever it says; it is dropped and counted in ``bad_input``, like any other line that
is neither a command nor a move.
"""

from amaranth.hdl import Array, Module, Mux, Signal
from amaranth.lib import enum, stream, wiring
from amaranth.lib.wiring import In, Out

from fpgatrax.hw.notation import LF, MoveLayout, NotationDecoder, NotationEncoder

__all__ = ["Colour", "Protocol"]

CR = ord("\r")

# The bad-input counter stops at its maximum, so a status light stays lit once input was bad.
BAD_INPUT_BITS = 8


class Colour(enum.Enum, shape=1):
    """The player's colour in a new game (numbered as ``fpgatrax.host.rules.position``)."""
    WHITE = 0       # -W: the player moves first
    RED = 1         # -B or -R: the player waits for white's move


class _Command(enum.Enum, shape=2):
    """What a line is if it is a command: a dash and the byte after it."""
    NONE = 0
    TEAM = 1
    WHITE = 2
    RED = 3


class Protocol(wiring.Component):
    """Turns received bytes into protocol events, and the player's moves into sent lines.

    Received lines may end in LF or CR LF; every CR is ignored wherever it is, and so are empty
    lines. A line is then exactly ``-T``, ``-W``, ``-B``, ``-R``, a move as
    :class:`~fpgatrax.hw.notation.NotationDecoder` accepts it, or bad input.

    - ``-W``/``-B``/``-R`` raise ``new_game`` for one clock, and set ``colour``, at any moment of
      a game: the player must start over whatever it is doing, so this is a pulse that cannot
      be refused rather than a stream. An opponent's move still waiting in ``opponent_move`` is
      withdrawn then, since it belongs to the old game.
    - A move waits in ``opponent_move`` until the player takes it. A second move that arrives
      before the first is taken (the referee never sends one out of turn) is bad input.
    - ``-T`` is answered with the team code and LF as soon as the transmitter is between lines.
    - A line longer than ``max_line`` bytes (CRs not counted) and anything else is bad input:
      dropped, and counted in ``bad_input``. Noise with no LF joins the next line and spoils it.

    Each move taken from ``my_move`` is sent as its notation and LF (never CR). A line in
    progress is always finished, even across a new game, so the referee never sees half a line.

    Parameters
    ----------
    team : str
        The two-character team code sent in answer to ``-T``.
    max_line : int
        The longest line, in bytes without its line ending, that can be a move (the longest
        move a real game needs, ``AA10/``, has 5).
    col_bits, row_bits : int
        Widths of the notation's column and row numbers (see
        :class:`~fpgatrax.hw.notation.MoveLayout`).

    Ports
    -----
    rx : In(stream.Signature(8))
        Bytes from the UART receiver.
    tx : Out(stream.Signature(8))
        Bytes to the UART transmitter.
    new_game : Out(1)
        High for one clock when a new game starts.
    colour : Out(Colour)
        The player's colour in the current game (set with ``new_game``).
    opponent_move : Out(stream.Signature(MoveLayout(col_bits, row_bits)))
        The opponent's moves, as notation numbers relative to the tiles in play.
    my_move : In(stream.Signature(MoveLayout(col_bits, row_bits)))
        The player's moves, as notation numbers relative to the tiles in play.
    bad_input : Out(8)
        How many lines were dropped, stopping at 255.
    """

    def __init__(self, *, team="FT", max_line=8, col_bits=10, row_bits=10):
        if not (isinstance(team, str) and len(team) == 2
                and all("!" <= c <= "~" for c in team)):
            raise ValueError(f"the team code must be two printable ASCII characters, like "
                             f"'FT', not {team!r}")
        if not (isinstance(max_line, int) and max_line >= 3):
            raise ValueError(f"max_line must be an integer of at least 3 (the shortest move, "
                             f"'@0+', has 3 bytes), not {max_line!r}")
        self.team = team
        self.max_line = max_line
        self._col_bits, self._row_bits = col_bits, row_bits
        move = MoveLayout(col_bits, row_bits)
        super().__init__({
            "rx": In(stream.Signature(8)),
            "tx": Out(stream.Signature(8)),
            "new_game": Out(1),
            "colour": Out(Colour),
            "opponent_move": Out(stream.Signature(move)),
            "my_move": In(stream.Signature(move)),
            "bad_input": Out(BAD_INPUT_BITS),
        })

    def elaborate(self, platform):
        m = Module()
        widths = dict(col_bits=self._col_bits, row_bits=self._row_bits)
        m.submodules.decoder = decoder = NotationDecoder(**widths)
        m.submodules.encoder = encoder = NotationEncoder(**widths)

        team_pending = Signal()         # a -T still to be answered
        self._send(m, encoder, team_pending)
        self._receive(m, decoder, team_pending)
        return m

    def _send(self, m, encoder, team_pending):
        """The transmit side: the player's moves through the encoder, and the team code, one
        whole line at a time."""
        index = Signal(range(3))        # the byte of "XY\n" being sent
        with m.FSM():
            with m.State("MOVES"):
                m.d.comb += [
                    self.tx.payload.eq(encoder.chars.payload),
                    self.tx.valid.eq(encoder.chars.valid),
                    encoder.chars.ready.eq(self.tx.ready),
                ]
                # The encoder is ready only between lines: the team code goes in there.
                with m.If(team_pending & encoder.move.ready):
                    m.next = "TEAM_CODE"
                with m.Else():
                    m.d.comb += [
                        encoder.move.payload.eq(self.my_move.payload),
                        encoder.move.valid.eq(self.my_move.valid),
                        self.my_move.ready.eq(encoder.move.ready),
                    ]

            with m.State("TEAM_CODE"):
                m.d.comb += [
                    self.tx.payload.eq(Array(ord(c) for c in self.team + "\n")[index]),
                    self.tx.valid.eq(1),
                ]
                with m.If(self.tx.ready):
                    m.d.sync += index.eq(index + 1)
                    with m.If(index == 2):
                        m.d.sync += [index.eq(0), team_pending.eq(0)]
                        m.next = "MOVES"

    def _receive(self, m, decoder, team_pending):
        """The receive side: bytes into the decoder and the command recogniser; at the line
        feed, one event or one count of bad input."""
        byte = self.rx.payload
        taken = self.rx.valid & self.rx.ready
        length = Signal(range(self.max_line + 2))   # bytes in the line; max_line + 1 = too many
        dash = Signal()                             # the line began with "-"
        command = Signal(_Command)                  # what the line is if it ends after 2 bytes

        skip = (byte == CR) | ((byte == LF) & (length == 0))
        m.d.comb += [
            self.rx.ready.eq(decoder.chars.ready),
            decoder.chars.payload.eq(byte),
            decoder.chars.valid.eq(self.rx.valid & ~skip),
            decoder.move.ready.eq(1),
        ]

        with m.If(taken & ~skip & (byte != LF)):
            with m.If(length != self.max_line + 1):
                m.d.sync += length.eq(length + 1)
            with m.If(length == 0):
                m.d.sync += dash.eq(byte == ord("-"))
            with m.If(length == 1):
                m.d.sync += command.eq(_Command.NONE)
                with m.If(dash):
                    with m.Switch(byte):
                        for char, meaning in (("T", _Command.TEAM), ("W", _Command.WHITE),
                                              ("B", _Command.RED), ("R", _Command.RED)):
                            with m.Case(ord(char)):
                                m.d.sync += command.eq(meaning)

        def count_bad():
            with m.If(self.bad_input != (1 << BAD_INPUT_BITS) - 1):
                m.d.sync += self.bad_input.eq(self.bad_input + 1)

        m.d.sync += self.new_game.eq(0)
        with m.If(self.opponent_move.ready):
            m.d.sync += self.opponent_move.valid.eq(0)

        # The decoder's result comes the clock after the line feed, and it takes no byte
        # until then, so the line's length and command are still those of this line.
        is_command = length == 2
        with m.If(decoder.move.valid):
            m.d.sync += length.eq(0)
            with m.If(is_command & (command == _Command.TEAM)):
                m.d.sync += team_pending.eq(1)
            with m.Elif(is_command & ((command == _Command.WHITE) |
                                      (command == _Command.RED))):
                m.d.sync += [
                    self.new_game.eq(1),
                    self.colour.eq(Mux(command == _Command.WHITE, Colour.WHITE, Colour.RED)),
                    self.opponent_move.valid.eq(0),
                ]
            with m.Elif((length > self.max_line) | decoder.move.payload.error |
                        (self.opponent_move.valid & ~self.opponent_move.ready)):
                count_bad()
            with m.Else():
                m.d.sync += [
                    self.opponent_move.payload.eq(decoder.move.payload.move),
                    self.opponent_move.valid.eq(1),
                ]
