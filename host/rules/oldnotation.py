"""The notation of Trax records written before 1998 (``docs/notation.md``, "The old
notation"): ``A1C``, ``B1U``, ``1AS``.

A move names its square in the tiles' bounding box *after* the move: a letter for the column
(``A`` the leftmost, in bijective base 26 after ``Z``) and a number for the row (``1`` the top
one). A tile to the left of the leftmost column therefore becomes column ``A``, and one above
the top row row ``1``; the square left of the top-left tile and the one above it would both be
``A1``, so the one above is written with the number first, ``1A``. Then the tile: ``S`` for a
cross; for a curve, ``C`` when it is the first tile or when its neighbours leave it one way to
lie, else ``U``, ``D``, ``L`` or ``R``, the way the track that enters it from its first
neighbour (in the order north, east, south, west) leaves it.

Both directions need the position before the move, like the current notation's.
"""

import re

from fpgatrax.host.rules.columns import column_name, column_number
from fpgatrax.host.rules.notation import NotationError
from fpgatrax.host.rules.position import (
    DELTA,
    FITS,
    SYMBOL_TILES,
    IllegalMove,
    Move,
    Position,
    key_of,
    tile_symbol,
    xy_of,
)

__all__ = ["parse_old_move", "format_old_move"]

_MOVE = re.compile(r"([A-Z]+)([1-9][0-9]*)([SCUDLR])")
_SWAPPED = re.compile(r"([1-9][0-9]*)([A-Z]+)([SCUDLR])")
# The way a track leaves a tile, by side: north, east, south, west.
_WAYS = "URDL"


def parse_old_move(position: Position, text: str) -> Move:
    """The (key, tile) that old-notation ``text`` denotes on ``position``. Raises
    NotationError for text that is not a move, IllegalMove for a square or tile that cannot
    be played here (forced play is checked by ``position.check``)."""
    normal, swapped = _MOVE.fullmatch(text), _SWAPPED.fullmatch(text)
    if normal is None and swapped is None:
        raise NotationError(f"{text!r}: an old-notation move is a column letter and a row "
                            "number (1A for the square above the top-left tile), then S, C, "
                            "U, D, L or R")
    if normal is not None:
        col, row, kind = column_number(normal.group(1)), int(normal.group(2)), normal.group(3)
    else:
        assert swapped is not None
        col, row, kind = column_number(swapped.group(2)), int(swapped.group(1)), swapped.group(3)
    if position.bbox is None:
        if (col, row) != (1, 1) or swapped is not None or kind not in "SC":
            raise IllegalMove("the first move is A1S or A1C")
        return key_of(0, 0), SYMBOL_TILES["+" if kind == "S" else "/"][0]
    key = _square(position, col, row, swapped is not None, text)
    if kind == "S":
        return key, position.tile_for(key, "+")
    curves = _curves(position, key)
    if kind == "C":
        if len(curves) != 1:
            raise IllegalMove(f"{text}: C is a curve that its neighbours leave one way to lie; "
                              f"{len(curves)} fit here")
        return key, curves[0]
    for tile in curves:
        if _way(position, key, tile) == kind:
            return key, tile
    raise IllegalMove(f"{text}: no curve there takes its track {kind}")


def format_old_move(position: Position, move: Move) -> str:
    """The old-notation text of ``move`` on ``position``."""
    key, tile = move
    symbol = tile_symbol(tile)
    kind = "S" if symbol == "+" else "C"
    if position.bbox is None:
        return "A1" + kind
    x, y = xy_of(key)
    x0, y0, _, _ = position.bbox
    if (x, y) == (x0, y0 - 1):               # above the top-left tile
        return f"1A{kind if kind == 'S' else _curve_kind(position, key, tile)}"
    col, row = x - min(x0, x) + 1, y - min(y0, y) + 1
    if kind == "C":
        kind = _curve_kind(position, key, tile)
    return f"{column_name(col)}{row}{kind}"


def _square(position: Position, col: int, row: int, swapped: bool, text: str) -> int:
    """The square of ``col``, ``row`` in the box after the move (see the module docstring)."""
    x0, y0, _, _ = position.bbox  # type: ignore[misc]  # the caller checked there are tiles
    if swapped:
        if (col, row) != (1, 1):
            raise NotationError(f"{text!r}: the number comes first only for the square above "
                                "the top-left tile, 1A")
        return key_of(x0, y0 - 1)
    x, y = x0 + col - 1, y0 + row - 1
    if col == 1 and key_of(x0, y) in position.tiles:      # left of the leftmost column
        return key_of(x0 - 1, y)
    if row == 1 and key_of(x, y0) in position.tiles:      # above the top row
        return key_of(x, y0 - 1)
    return key_of(x, y)


def _curves(position: Position, key: int) -> list[int]:
    """The curve tiles that fit the neighbours of the empty square ``key``."""
    if key in position.tiles:
        raise IllegalMove("the square is occupied")
    entering = position.frontier.get(key)
    if entering is None:
        raise IllegalMove("the square is not next to a tile")
    return [t for s in "/\\" for t in SYMBOL_TILES[s] if t in FITS[entering]]


def _way(position: Position, key: int, tile: int) -> str:
    """Where the track entering ``tile`` at ``key`` from its first neighbour leaves it."""
    side = next(d for d in range(4) if key + DELTA[d] in position.tiles)
    mask = tile if tile >> side & 1 else tile ^ 0xF      # that track's two sides
    return _WAYS[next(d for d in range(4) if mask >> d & 1 and d != side)]


def _curve_kind(position: Position, key: int, tile: int) -> str:
    return "C" if len(_curves(position, key)) == 1 else _way(position, key, tile)
