"""The position as text, with the notation's coordinates on its borders.

Each square is two characters: the tile's symbol and the colour of its north edge (``w`` or
``r``), which together fix the tile's colouring. The empty ring around the tiles, where moves go,
shows as ``.`` so that every legal square's coordinates can be read off; on a terminal the tiles
are coloured by that north edge.
"""

from fpgatrax.host.rules.columns import column_name
from fpgatrax.host.rules.position import key_of, tile_symbol

__all__ = ["render_text"]

_ANSI = {"w": "\x1b[1;97m", "r": "\x1b[1;91m"}
_RESET = "\x1b[0m"


def render_text(position, ansi=False):
    """A multi-line picture of ``position``: columns ``@ A B ...`` on top, rows ``0 1 ...`` on the
    left."""
    if position.bbox is None:
        return "   @\n0  ."
    x0, y0, x1, y1 = position.bbox
    columns = [column_name(c) for c in range(x1 - x0 + 3)]
    width = max(2, *(len(c) for c in columns)) + 1
    margin = len(str(y1 - y0 + 2)) + 1
    lines = [" " * margin + "".join(c.ljust(width) for c in columns).rstrip()]
    for r in range(y1 - y0 + 3):
        row = str(r).ljust(margin)
        for c in range(len(columns)):
            row += _cell(position.tiles.get(key_of(x0 - 1 + c, y0 - 1 + r)), width, ansi)
        lines.append(row.rstrip())
    return "\n".join(lines)


def _cell(tile, width, ansi):
    if tile is None:
        return ".".ljust(width)
    north = "w" if tile & 1 else "r"
    text = (tile_symbol(tile) + north).ljust(width)
    return f"{_ANSI[north]}{text}{_RESET}" if ansi else text
