"""The position as text, with the notation's coordinates on its borders.

Each square is two characters: the tile's symbol and the colour of its north edge (``w`` or
``r``), which together fix the tile's colouring. The empty ring around the tiles, where moves go,
shows as ``.`` so that every legal square's coordinates can be read off; on a terminal the tiles
are coloured by that north edge. The tiles of the loop or line that won the game are marked
``*`` (and drawn in reverse video on a terminal).
"""

from fpgatrax.host.rules.columns import column_name
from fpgatrax.host.rules.position import key_of, tile_symbol

__all__ = ["render_text", "render_grid_text"]

_ANSI = {"w": "\x1b[1;97m", "r": "\x1b[1;91m"}
_REVERSE = "\x1b[7m"
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
    won = position.winning_track()
    for r in range(y1 - y0 + 3):
        row = str(r).ljust(margin)
        for c in range(len(columns)):
            key = key_of(x0 - 1 + c, y0 - 1 + r)
            row += _cell(position.tiles.get(key), width, ansi, key in won)
        lines.append(row.rstrip())
    return "\n".join(lines)


def _cell(tile, width, ansi, winning):
    if tile is None:
        return ".".ljust(width)
    north = "w" if tile & 1 else "r"
    text = (tile_symbol(tile) + north + ("*" if winning else "")).ljust(width)
    if not ansi:
        return text
    return f"{_ANSI[north]}{_REVERSE if winning else ''}{text}{_RESET}"


def render_grid_text(size, tiles, ansi=False):
    """A puzzle's ``size`` × ``size`` board: ``tiles`` maps (column, row) (from 0, top left) to
    a tile; columns are named from ``A`` and rows from 1, as puzzles name their squares."""
    lines = ["   " + " ".join(column_name(c + 1).ljust(2) for c in range(size)).rstrip()]
    for r in range(size):
        cells = (_cell(tiles.get((c, r)), 3, ansi, False) for c in range(size))
        lines.append(str(r + 1).ljust(3) + "".join(cells).rstrip())
    return "\n".join(lines)
