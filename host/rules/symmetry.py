"""The eight symmetries of the square (turns and mirrors), for positions and puzzle boards.

Each is a map of the plane's points about the origin and the map of a tile's sides that goes
with it: a tile turned or mirrored keeps each side's colour on the side it moves to. The Mini
Trax solver folds a position's images together; the puzzles' ``match`` kind asks a board to
equal its image, and their solver counts loop shapes up to these symmetries.
"""

from collections.abc import Callable

from fpgatrax.host.rules.position import E, N, S, W

__all__ = ["SYMMETRIES", "turn_point", "turn_side", "turn_tile"]

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


def turn_point(name: str, x: int, y: int) -> tuple[int, int]:
    return SYMMETRIES[name][0](x, y)


def turn_side(name: str, side: int) -> int:
    """The side (N, E, S, W) that ``side`` becomes under the symmetry ``name``."""
    return SYMMETRIES[name][1][side]


def turn_tile(name: str, tile: int) -> int:
    """The white-edge mask of ``tile`` after the symmetry ``name``."""
    return sum(1 << turn_side(name, d) for d in range(4) if tile >> d & 1)
