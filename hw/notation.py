"""The move notation of ``docs/notation.md`` in gateware: text to numbers and back.

A move such as ``AA10/`` is a column in bijective base 26 (``@`` = 0, ``A`` = 1 ... ``Z`` = 26,
``AA`` = 27), a row in decimal (``0`` = the empty row above the tiles) and a tile symbol. These
blocks deal only in those *relative* numbers; turning them into array coordinates needs the
bounding box of the tiles in play, which the player keeps.

Both directions work one character at a time: the link delivers a character every few thousand
clocks, so a serial converter costs nothing in time and saves the wide dividers and multipliers
a parallel one would need on a small FPGA. The decoder multiplies by 26 or 10 and adds one
digit per character; the encoder finds each digit, most significant first, by subtracting its
place value repeatedly, so it needs no divider and no buffer to reverse the digits.
"""

from contextlib import contextmanager

from amaranth.hdl import Array, Module, Signal
from amaranth.lib import data, stream, wiring
from amaranth.lib.wiring import In, Out

from fpgatrax.hw.tiles import Symbol

__all__ = ["Symbol", "MoveLayout", "DecodedLayout", "NotationDecoder", "NotationEncoder",
           "LF"]

LF = ord("\n")


class MoveLayout(data.StructLayout):
    """A move in the notation's numbers: ``col`` (``@`` = 0), ``row`` (``0`` = the row above the
    tiles) and ``symbol``. The widths bound the largest coordinates; the default 10 bits reach
    column ``AMJ`` (1023), far beyond any array an FPGA holds."""

    def __init__(self, col_bits=10, row_bits=10):
        for name, bits in (("col_bits", col_bits), ("row_bits", row_bits)):
            if not isinstance(bits, int) or bits < 1:
                raise ValueError(f"{name} must be a positive integer, not {bits!r}")
        super().__init__({"col": col_bits, "row": row_bits, "symbol": Symbol})


class DecodedLayout(data.StructLayout):
    """What the decoder makes of one line: the ``move`` and whether the text was not a move
    (``error``; the move is then meaningless)."""

    def __init__(self, col_bits=10, row_bits=10):
        super().__init__({"move": MoveLayout(col_bits, row_bits), "error": 1})


def _char_in(byte, first, last):
    return (byte >= ord(first)) & (byte <= ord(last))


class NotationDecoder(wiring.Component):
    """Parses the text of one move, a character at a time, into its numbers.

    The characters of a line arrive on ``chars``; the line feed that ends them produces one
    result on ``move`` (an empty line gives an error, so the caller should drop those first).
    The decoder accepts exactly what ``fpgatrax.host.rules.notation.parse_text`` accepts: column
    letters (``@`` alone, or ``A``-``Z`` in bijective base 26), decimal row digits without a
    leading zero, one of ``+ / \\``, and nothing after it; a column or row too large for its
    width is an error too. It takes no new character while a result waits to be taken.

    Ports
    -----
    chars : In(stream.Signature(8))
        The move's characters, then a line feed.
    move : Out(stream.Signature(DecodedLayout(col_bits, row_bits)))
        One result per line.
    """

    def __init__(self, *, col_bits=10, row_bits=10):
        super().__init__({
            "chars": In(stream.Signature(8)),
            "move": Out(stream.Signature(DecodedLayout(col_bits, row_bits))),
        })

    def elaborate(self, platform):
        m = Module()

        char = self.chars.payload
        take = self.chars.valid & self.chars.ready
        move = self.move.payload.move
        col_bits, row_bits = len(move.col), len(move.row)

        m.d.comb += self.chars.ready.eq(~self.move.valid)
        with m.If(self.move.ready):
            m.d.sync += self.move.valid.eq(0)

        is_letter = _char_in(char, "A", "Z")
        is_digit = _char_in(char, "0", "9")
        letter = (char - (ord("A") - 1))[:5]
        digit = (char - ord("0"))[:4]
        # The next column and row if this character is their next digit, with room to see
        # whether they outgrow their width.
        next_col = Signal(col_bits + 5)
        next_row = Signal(row_bits + 4)
        m.d.comb += [next_col.eq(move.col * 26 + letter), next_row.eq(move.row * 10 + digit)]
        col_fits = next_col[col_bits:] == 0
        row_fits = next_row[row_bits:] == 0

        symbol = Signal(Symbol)
        is_symbol = Signal()
        with m.Switch(char):
            for s in Symbol:
                with m.Case(ord(s.char)):
                    m.d.comb += [symbol.eq(s), is_symbol.eq(1)]

        @contextmanager
        def on_char(state):
            """A state of the parse: a line feed ends the line here; ``yield`` handles any other
            character."""
            with m.State(state):
                with m.If(take & (char == LF)):
                    m.d.sync += [
                        self.move.valid.eq(1),
                        self.move.payload.error.eq(state != "DONE"),
                    ]
                    m.next = "COLUMN_START"
                with m.Elif(take):
                    yield

        def row_begins():
            """The first row digit, after the column."""
            with m.If(char == ord("0")):
                m.d.sync += move.row.eq(0)
                m.next = "ZERO_ROW"
            with m.Elif(is_digit):
                m.d.sync += move.row.eq(digit)
                m.next = "ROW"
            with m.Else():
                m.next = "BAD"

        def symbol_ends():
            with m.If(is_symbol):
                m.d.sync += move.symbol.eq(symbol)
                m.next = "DONE"
            with m.Else():
                m.next = "BAD"

        with m.FSM():
            with on_char("COLUMN_START"):
                with m.If(char == ord("@")):
                    m.d.sync += move.col.eq(0)
                    m.next = "AT_COLUMN"
                with m.Elif(is_letter):
                    m.d.sync += move.col.eq(letter)
                    m.next = "LETTERS"
                with m.Else():
                    m.next = "BAD"

            with on_char("AT_COLUMN"):              # "@", which takes no more letters
                row_begins()

            with on_char("LETTERS"):
                with m.If(is_letter):
                    m.d.sync += move.col.eq(next_col)
                    with m.If(~col_fits):
                        m.next = "BAD"
                with m.Else():
                    row_begins()

            with on_char("ZERO_ROW"):               # "0" is the whole row: no leading zeros
                symbol_ends()

            with on_char("ROW"):
                with m.If(is_digit):
                    m.d.sync += move.row.eq(next_row)
                    with m.If(~row_fits):
                        m.next = "BAD"
                with m.Else():
                    symbol_ends()

            with on_char("DONE"):                   # nothing may follow the symbol
                m.next = "BAD"

            with on_char("BAD"):
                pass

        return m


class NotationEncoder(wiring.Component):
    """Writes a move as its line of text: column, row, symbol and a line feed.

    Each digit, most significant first, is found by subtracting its place value (26ⁿ or 10ⁿ)
    while it fits, counting the subtractions: one comparator and subtractor serve the column and
    the row, a digit takes at most 26 clocks, and a move about a hundred, against the thousands
    of clocks a byte takes on the line. The bijective column of k letters is the ordinary base-26
    number ``col - (1 + 26 + ... + 26ᵏ⁻¹)`` written with exactly k digits A-Z, so the encoder
    first finds k by subtracting those offsets, largest first.

    Ports
    -----
    move : In(stream.Signature(MoveLayout(col_bits, row_bits)))
        Moves to write; one is taken only after the previous line is out.
    chars : Out(stream.Signature(8))
        The line, ending in a line feed.
    """

    def __init__(self, *, col_bits=10, row_bits=10):
        layout = MoveLayout(col_bits, row_bits)
        super().__init__({
            "move": In(stream.Signature(layout)),
            "chars": Out(stream.Signature(8)),
        })

    def elaborate(self, platform):
        m = Module()

        col_bits, row_bits = len(self.move.p.col), len(self.move.p.row)
        # Offsets[k-1] is the smallest column with k letters; only those that fit the width.
        offsets = [1]
        while offsets[-1] + 26 ** len(offsets) < 1 << col_bits:
            offsets.append(offsets[-1] + 26 ** len(offsets))
        row_digits = len(str((1 << row_bits) - 1))

        value = Signal(max(col_bits, row_bits))     # what is left to write of the number
        place = Signal(range(max(len(offsets), row_digits)))
        digit = Signal(range(26))
        row = Signal(row_bits)
        symbol = Signal(Symbol)

        constant = Signal.like(value)               # the place value or offset to subtract
        remainder = Signal(len(value) + 1)
        fits = ~remainder[-1]
        m.d.comb += remainder.eq(value - constant)

        def emit(char):
            m.d.comb += [self.chars.payload.eq(char), self.chars.valid.eq(1)]
            return self.chars.ready

        def row_next():
            m.d.sync += [value.eq(row), place.eq(row_digits - 1)]
            m.next = "ROW_SIZE"

        def digits(powers, zero, done):
            """Write the digits of ``value`` from ``place`` down, in base ``powers[1]``."""
            m.d.comb += constant.eq(Array(powers)[place])
            with m.If(fits):
                m.d.sync += [value.eq(remainder), digit.eq(digit + 1)]
            with m.Else():
                with m.If(emit(ord(zero) + digit)):
                    m.d.sync += [digit.eq(0), place.eq(place - 1)]
                    with m.If(place == 0):
                        done()

        with m.FSM():
            with m.State("IDLE"):
                m.d.comb += self.move.ready.eq(1)
                with m.If(self.move.valid):
                    m.d.sync += [
                        value.eq(self.move.p.col),
                        place.eq(len(offsets) - 1),
                        digit.eq(0),
                        row.eq(self.move.p.row),
                        symbol.eq(self.move.p.symbol),
                    ]
                    with m.If(self.move.p.col == 0):
                        m.next = "AT_COLUMN"
                    with m.Else():
                        m.next = "COLUMN_SIZE"

            with m.State("AT_COLUMN"):
                with m.If(emit(ord("@"))):
                    row_next()

            with m.State("COLUMN_SIZE"):            # how many letters: the largest offset that fits
                m.d.comb += constant.eq(Array(offsets)[place])
                with m.If(fits):
                    m.d.sync += value.eq(remainder)
                    m.next = "COLUMN_DIGITS"
                with m.Else():
                    m.d.sync += place.eq(place - 1)

            with m.State("COLUMN_DIGITS"):
                digits([26 ** n for n in range(len(offsets))], "A", row_next)

            with m.State("ROW_SIZE"):               # how many digits: no leading zeros
                m.d.comb += constant.eq(Array(10 ** n for n in range(row_digits))[place])
                with m.If(fits | (place == 0)):
                    m.next = "ROW_DIGITS"
                with m.Else():
                    m.d.sync += place.eq(place - 1)

            with m.State("ROW_DIGITS"):
                def symbol_next():
                    m.next = "SYMBOL"
                digits([10 ** n for n in range(row_digits)], "0", symbol_next)

            with m.State("SYMBOL"):
                with m.If(emit(Array(ord(s.char) for s in Symbol)[symbol])):
                    m.next = "NEWLINE"

            with m.State("NEWLINE"):
                with m.If(emit(LF)):
                    m.next = "IDLE"

        return m
