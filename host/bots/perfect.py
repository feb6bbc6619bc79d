"""Mini Trax solved: the value of every position by exhaustive search, and ``perfect``, the
player that never lets a won or drawn position slip.

Mini Trax (``docs/rules.md``) keeps its tiles within 3 × 3 squares, so every game ends within
nine tiles and its whole game tree can be searched. Two things make the search small:

- **Transpositions.** A position's future depends only on its tiles and whose turn it is (not
  on the order of the moves that made it), so each value is computed once, in a table keyed by
  the tiles.
- **Symmetries.** Turning or mirroring the tiles (the eight symmetries of the square) and
  moving them on the plane changes nothing; nor does swapping red and white together with the
  side to move, since the rules treat the colours alike. A position's key is the least of its
  sixteen images, each moved to the same corner, so symmetric positions share one entry.

Values are for the side to move: ``WIN``, ``DRAW`` or ``LOSS``.
"""

import random

from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.position import Move, Position, xy_of
from fpgatrax.host.rules.symmetry import SYMMETRIES, turn_point, turn_tile

__all__ = ["WIN", "DRAW", "LOSS", "MiniSolver", "PerfectBot"]

WIN, DRAW, LOSS = 1, 0, -1

def canonical(position: Position, symmetries: bool = True) -> tuple:
    """The key of ``position`` in the table: its side to move and tiles, moved to the origin,
    and with ``symmetries`` the least such key over its sixteen images."""
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


class MiniSolver:
    """The values of Mini Trax positions, each searched once (``symmetries`` folds the images
    of a position into one entry). ``table`` holds every value found; ``visited`` counts the
    positions searched (one per entry)."""

    def __init__(self, symmetries: bool = True) -> None:
        self.symmetries = symmetries
        self.table: dict[tuple, int] = {}

    def value(self, position: Position) -> int:
        """WIN, DRAW or LOSS for the side to move in ``position`` (a game not yet over)."""
        key = canonical(position, self.symmetries)
        found = self.table.get(key)
        if found is not None:
            return found
        best = LOSS
        for move in position.legal_moves():
            best = max(best, self.after(position, move))
            if best == WIN:
                break
        self.table[key] = best
        return best

    def after(self, position: Position, move: Move) -> int:
        """The value of ``move`` for the side that plays it."""
        mover = position.to_move
        outcome = position.play(move)
        try:
            if outcome is not None:
                return DRAW if outcome.winner is None else WIN if outcome.winner == mover else LOSS
            return -self.value(position)
        finally:
            position.undo()


def solve_empty_board(symmetries: bool = True) -> tuple[int, MiniSolver]:
    """The value of Mini Trax's empty board for white, who moves first, and the solver."""
    solver = MiniSolver(symmetries)
    return solver.value(Position("mini")), solver


class PerfectBot:
    """Plays Mini Trax perfectly: always a move of the position's best value (a win when there
    is one, else a draw), chosen at random among those (seeded), so games differ while the
    result never gets worse. Refuses any other variant: only Mini Trax is solved. Every
    PerfectBot of a process shares one table (values are facts of the game), filled when the
    first one is made (seconds, before any game's clock runs); later moves look values up."""

    variants = ("mini",)
    _shared = MiniSolver()

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.solver = self._shared
        if not self.solver.table:
            self.solver.value(Position("mini"))

    def choose(self, position: Position) -> Move:
        if position.variant.name != "mini":
            raise UserError(f"perfect plays only Mini Trax (--variant mini), not "
                            f"{position.variant}")
        scored = [(self.solver.after(position, move), move) for move in position.legal_moves()]
        best = max(value for value, _ in scored)
        return self.rng.choice([move for value, move in scored if value == best])


