"""The eight symmetries of the square (turns and mirrors), for positions and puzzle boards.

Each is a map of the plane's points about the origin and the map of a tile's sides that goes
with it: a tile turned or mirrored keeps each side's colour on the side it moves to. The Mini
Trax solver folds a position's images together; the puzzles' ``match`` kind asks a board to
equal its image, and their solver counts loop shapes up to these symmetries; the strength
bench draws its openings among positions that are not one another's images.
"""

from collections.abc import Callable

from fpgatrax.host.rules.position import E, N, Position, S, W, xy_of

__all__ = ["SYMMETRIES", "turn_point", "turn_side", "turn_tile", "canonical",
           "PositionKey"]

#: name -> (where the point (x, y) goes, where each side N, E, S, W goes); y grows downwards.
SYMMETRIES: dict[str, tuple[Callable[[int, int], tuple[int, int]], tuple[int, ...]]] = {
    "identity": (lambda x, y: (x, y), (N, E, S, W)),
    "rotate-90": (lambda x, y: (-y, x), (E, S, W, N)),        # a quarter turn clockwise
    "rotate-180": (lambda x, y: (-x, -y), (S, W, N, E)),
    "rotate-270": (lambda x, y: (y, -x), (W, N, E, S)),
    "left-right": (lambda x, y: (-x, y), (N, W, S, E)),       # mirrored in a vertical line
    "top-bottom": (lambda x, y: (x, -y), (S, E, N, W)),
    "diagonal": (lambda x, y: (y, x), (W, S, E, N)),          # top left to bottom right
    "antidiagonal": (lambda x, y: (-y, -x), (E, N, W, S)),
}


#: A position's key: its side to move and its tiles (x, y, white-edge mask), sorted.
PositionKey = tuple[int, tuple[tuple[int, int, int], ...]]


def turn_point(name: str, x: int, y: int) -> tuple[int, int]:
    return SYMMETRIES[name][0](x, y)


def turn_side(name: str, side: int) -> int:
    """The side (N, E, S, W) that ``side`` becomes under the symmetry ``name``."""
    return SYMMETRIES[name][1][side]


def turn_tile(name: str, tile: int) -> int:
    """The white-edge mask of ``tile`` after the symmetry ``name``."""
    return sum(1 << turn_side(name, d) for d in range(4) if tile >> d & 1)


def canonical(position: Position, symmetries: bool = True) -> PositionKey:
    """A key of ``position`` that its images share: its side to move and tiles, moved to the
    origin, and with ``symmetries`` the least such key over its sixteen images (the eight
    symmetries, each with the colours and the side to move swapped), which are the same game.
    The Mini Trax solver keys its table by it; the strength bench tells openings apart by it."""
    cells = [(*xy_of(k), t) for k, t in position.tiles.items()]
    mover = position.to_move
    images = []
    for name in (SYMMETRIES if symmetries else ["identity"]):
        moved = [(*turn_point(name, x, y), turn_tile(name, t)) for x, y, t in cells]
        x0 = min((x for x, _, _ in moved), default=0)
        y0 = min((y for _, y, _ in moved), default=0)
        tiles = tuple(sorted((x - x0, y - y0, t) for x, y, t in moved))
        images.append((mover, tiles))
        if symmetries:
            images.append((1 - mover, tuple((x, y, t ^ 0xF) for x, y, t in tiles)))
    return min(images)
