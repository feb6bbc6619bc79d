"""Move notation of ``docs/notation.md``: ``@0+``, ``B1/``, ``AA10\\``.

Coordinates are relative to the tiles in play *before* the move: column ``@`` (0) is the empty
column left of the leftmost tile and ``A`` (1) the leftmost tile column, in bijective base 26;
row ``0`` is the empty row above the top tile row. Converting needs the position, so both
directions take one.
"""

import re

from fpgatrax.host.rules.columns import column_name, column_number
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.position import (
    SYMBOLS,
    IllegalMove,
    Move,
    Position,
    key_of,
    tile_symbol,
    xy_of,
)

__all__ = ["NotationError", "parse_text", "parse_move", "format_move"]

_MOVE = re.compile(r"([@A-Z]+)([0-9]+)(.)")


class NotationError(UserError):
    """Text that is not a move at all (as opposed to a well-formed but illegal one)."""


def parse_text(text: str) -> tuple[int, int, str]:
    """Split move text into (column, row, symbol) numbers; raise NotationError saying what is
    wrong with it."""
    if not text:
        raise NotationError("empty move")
    m = _MOVE.fullmatch(text)
    if m is None:
        if text[-1] not in SYMBOLS:
            raise NotationError(f"{text!r}: a move ends with one of + / \\")
        if not re.match(r"[@A-Z]", text):
            raise NotationError(f"{text!r}: a move starts with a column (@, A-Z, AA ...)")
        raise NotationError(f"{text!r}: expected column letters, row digits and + / \\")
    col, row, symbol = m.groups()
    if "@" in col and col != "@":
        raise NotationError(f"{text!r}: '@' is a column of its own, not a letter")
    if symbol not in SYMBOLS:
        raise NotationError(f"{text!r}: {symbol!r} is not a tile symbol (+ / \\)")
    if len(row) > 1 and row[0] == "0":
        raise NotationError(f"{text!r}: the row has a leading zero")
    return column_number(col), int(row), symbol


def parse_move(position: Position, text: str) -> Move:
    """The (key, tile) that ``text`` denotes on ``position``. Raises NotationError for text that
    is not a move, IllegalMove for a move whose square or colours do not work here (the full
    legality check, forced play included, is ``position.check``)."""
    col, row, symbol = parse_text(text)
    if position.bbox is None:
        if (col, row) != (0, 0) or symbol == "\\":
            raise IllegalMove("the first move must be @0/ or @0+")
        return key_of(0, 0), position.tile_for(key_of(0, 0), symbol)
    x0, y0, x1, y1 = position.bbox
    if col > x1 - x0 + 2 or row > y1 - y0 + 2:
        raise IllegalMove("the square is not next to a tile")
    key = key_of(x0 - 1 + col, y0 - 1 + row)
    return key, position.tile_for(key, symbol)


def format_move(position: Position, move: Move) -> str:
    """The notation of ``move`` (a (key, tile) pair) on ``position``."""
    key, tile = move
    if position.bbox is None:
        return "@0" + tile_symbol(tile)
    x, y = xy_of(key)
    x0, y0 = position.bbox[:2]
    return f"{column_name(x - x0 + 1)}{y - y0 + 1}{tile_symbol(tile)}"
