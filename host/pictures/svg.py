"""An SVG picture of a position: the tiles with their white and red tracks, and the notation's
coordinates on the borders, for documentation and for looking at a game away from a terminal.

The picture covers the tiles in play and the empty ring around them (where moves go, drawn as
dashed squares), like ``render_text``. Each tile is a ``<g class="tile">`` holding its face and
two ``<path>`` elements, ``class="white"`` and ``class="red"``: a straight track joins opposite
edge midpoints, a curved one is a quarter circle around the corner between its two edges. The
tiles placed by the last turn (forced ones included) are outlined. The loop or line that won
the game is drawn over a broad gold band: its tiles' track of the winner's colour has the class
``"white win"`` or ``"red win"``, and a ``<path class="win-band">`` lies under it.
"""

from xml.sax.saxutils import quoteattr

from fpgatrax.host.rules.columns import column_name
from fpgatrax.host.rules.position import key_of, tile_symbol

__all__ = ["render_svg", "render_grid_svg"]

CELL = 40           # side of a square, in pixels
MARGIN = 28         # room for the coordinates
COLOURS = {"face": "#202020", "found": "#4a4a4a", "white": "#f2f2f2", "red": "#d4202a",
           "empty": "#9a9a9a", "last": "#f0b400", "text": "#333333", "win": "#ffc400"}

# Midpoints of the four edges (N, E, S, W), in units of a square.
_MID = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))


def render_svg(position, cell=CELL):
    """The SVG document (text) of ``position``."""
    if position.bbox is None:
        x0, y0, columns, rows = 1, 1, -1, -1     # just the square @0
    else:
        bx0, by0, bx1, by1 = position.bbox
        x0, y0, columns, rows = bx0, by0, bx1 - bx0 + 1, by1 - by0 + 1
    width, height = MARGIN + (columns + 2) * cell, MARGIN + (rows + 2) * cell
    last = set(position.placed_last())
    won = position.winning_track()
    winner = ("white", "red")[position.outcome.winner] if won else None
    out = _header(width, height, cell)
    for c in range(columns + 2):
        out.append(_text(MARGIN + (c + 0.5) * cell, MARGIN * 0.7, column_name(c), "column"))
    for r in range(rows + 2):
        out.append(_text(MARGIN * 0.5, MARGIN + (r + 0.5) * cell + cell * 0.12, str(r), "row"))
    outlines = []
    for r in range(rows + 2):
        for c in range(columns + 2):
            key = key_of(x0 - 1 + c, y0 - 1 + r)
            left, top = MARGIN + c * cell, MARGIN + r * cell
            tile = position.tiles.get(key)
            if tile is None:
                out.append(_empty(left, top, cell))
                continue
            out.append(_tile(tile, left, top, cell, f"{column_name(c)}{r}",
                             winner if key in won else None))
            if key in last:
                outlines.append(f'<rect class="last-move" x="{left + 1}" y="{top + 1}" '
                                f'width="{cell - 2}" height="{cell - 2}" fill="none" '
                                f'stroke="{COLOURS["last"]}" stroke-width="2"/>')
    out.extend(outlines)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def render_grid_svg(size, tiles, given=(), ends=(), cell=CELL):
    """The SVG document of a puzzle's ``size`` × ``size`` board: ``tiles`` maps (column, row)
    (from 0, top left) to a tile; the squares in ``given`` keep the dark face of a given tile,
    the others (found by solving) a lighter one; each (square, side) of ``ends`` is marked by a
    red stub leaving the board there. Columns are named from ``A``, rows from 1."""
    width = height = 2 * MARGIN + size * cell
    out = _header(width, height, cell)
    for i in range(size):
        out.append(_text(MARGIN + (i + 0.5) * cell, MARGIN * 0.55, column_name(i + 1), "column"))
        out.append(_text(MARGIN * 0.45, MARGIN + (i + 0.5) * cell + cell * 0.12, str(i + 1),
                         "row"))
    for r in range(size):
        for c in range(size):
            left, top = MARGIN + c * cell, MARGIN + r * cell
            name = f"{column_name(c + 1)}{r + 1}"
            if (c, r) in tiles:
                out.append(_tile(tiles[c, r], left, top, cell, name,
                                 face="face" if (c, r) in given else "found"))
            else:
                out.append(_empty(left, top, cell))
    for (c, r), side in ends:
        (mx, my), (dx, dy) = _MID[side], ((0, -1), (1, 0), (0, 1), (-1, 0))[side]
        x, y = MARGIN + (c + mx) * cell, MARGIN + (r + my) * cell
        out.append(f'<path class="end" d="M {x:.1f} {y:.1f} l {dx * MARGIN * 0.4:.1f} '
                   f'{dy * MARGIN * 0.4:.1f}" stroke="{COLOURS["red"]}" '
                   f'stroke-width="{cell / 5:.1f}"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _header(width, height, cell):
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" '
            f'font-size="{cell * 0.35:.0f}">',
            f'<rect width="{width}" height="{height}" fill="white"/>']


def _empty(left, top, cell):
    """An empty square: a dashed outline."""
    return (f'<rect class="empty" x="{left + 2}" y="{top + 2}" width="{cell - 4}" '
            f'height="{cell - 4}" fill="none" stroke="{COLOURS["empty"]}" '
            f'stroke-dasharray="3 3"/>')


def _text(x, y, text, cls):
    return (f'<text class="{cls}" x="{x:.1f}" y="{y:.1f}" text-anchor="middle" '
            f'fill="{COLOURS["text"]}">{text}</text>')


def _tile(tile, left, top, cell, name, winning=None, face="face"):
    """One tile: its face, then its red and its white track (``tile`` is the white-edge
    mask; the other two edges are red); the track of colour ``winning`` over a gold band."""
    parts = [f'<g class="tile" data-square={quoteattr(name)} '
             f'data-symbol={quoteattr(tile_symbol(tile))}>',
             f'<rect class="{face}" x="{left}" y="{top}" width="{cell}" height="{cell}" '
             f'fill="{COLOURS[face]}" stroke="#000"/>']
    for colour, edges in (("red", tile ^ 0xF), ("white", tile)):
        a, b = (side for side in range(4) if edges >> side & 1)
        path = _track(a, b, left, top, cell)
        cls = colour
        if colour == winning:
            cls += " win"
            parts.append(f'<path class="win-band" d="{path}" fill="none" '
                         f'stroke="{COLOURS["win"]}" stroke-width="{cell / 2.2:.1f}"/>')
        parts.append(f'<path class="{cls}" d="{path}" fill="none" '
                     f'stroke="{COLOURS[colour]}" stroke-width="{cell / 5:.1f}"/>')
    parts.append("</g>")
    return "".join(parts)


def _track(a, b, left, top, cell):
    """Path data joining the midpoints of edges ``a`` and ``b``."""
    (ax, ay), (bx, by) = _MID[a], _MID[b]
    start = f"M {left + ax * cell:.1f} {top + ay * cell:.1f}"
    end = f"{left + bx * cell:.1f} {top + by * cell:.1f}"
    if (a - b) % 2 == 0:
        return f"{start} L {end}"
    # The circle's centre is the corner the two edges share.
    cx, cy = (ax if ax != 0.5 else bx), (ay if ay != 0.5 else by)
    cross = (ax - cx) * (by - cy) - (ay - cy) * (bx - cx)
    radius = cell / 2
    return f"{start} A {radius:.1f} {radius:.1f} 0 0 {1 if cross > 0 else 0} {end}"
