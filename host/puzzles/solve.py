"""The solver: each puzzle as a SAT problem for a solver from PyPI (``python-sat``).

The encoding (``docs/puzzles.md`` explains it with its reasons):

- one variable ``red(s, d)`` per side ``d`` of each square ``s``: true when that side of the
  tile there is red. A tile is exactly its two red sides (any two of four make one of the six
  tiles), so a square holds a tile iff exactly two of its sides are red;
- for a loop, where the board is not filled, one more variable ``placed(s)`` per square: a
  square without a tile has no red side;
- two neighbouring tiles show one colour on the side they share;
- the kind's own clauses: the border sides red exactly at a line's ends; a loop's red sides
  never face an empty square or the border, and cardinality constraints count its straight and
  curved tiles; a match's sides equal their images under the symmetry.

What clauses cannot say cheaply is that the red tracks form *one* line or *one* loop. The solver
adds it lazily: each model is split into red tracks, and every track that should not exist
gets a clause that rules it out (a *cut*), then the solver runs again. A stray red loop in a
line puzzle is cut by "some red side leaves the squares of this loop": the line visits every
square, so it must. A loop in a loop puzzle that has more than one is cut by "one of this
loop's squares is empty, or a red side leads out of them": the answer's one loop is longer,
so if it covers those squares it also leaves them. Cuts are true of every solution, so they
stay, and later solves start from them.

A loop puzzle without given tiles is solved up to where the loop lies and how it is turned or
mirrored: its top row and left column must hold a tile, and once a loop is found its eight
images are excluded together.
"""

import random
from collections.abc import Iterator

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from fpgatrax.host.puzzles.board import (
    Puzzle,
    Square,
    neighbour,
    red_sides,
    tile_with_red,
    transform_square,
    transform_tile,
)
from fpgatrax.host.rules import symmetry

__all__ = ["PuzzleSolver", "BudgetSpent", "solutions", "images"]

SOLVER = "cadical195"


class BudgetSpent(Exception):
    """A solve ran out of its conflict budget: neither a solution nor a proof of none."""


class PuzzleSolver:
    """One puzzle's SAT problem, solved solution after solution (each excluded once found).

    ``seed`` draws the solver's first guess of every variable at random, so that a puzzle with
    many solutions yields a different one per seed (the generator's source of boards); a
    ``budget`` of conflicts per solve makes a hard one raise ``BudgetSpent`` instead of taking
    as long as it takes (the generator then draws another)."""

    def __init__(self, puzzle: Puzzle, seed: int | None = None,
                 budget: int | None = None) -> None:
        self.puzzle = puzzle
        self.budget = budget  # conflicts per solve before BudgetSpent, or None: no limit
        self.pool = IDPool()
        self.up_to_symmetry = puzzle.kind == "loop" and not puzzle.givens
        self.cuts = 0         # clauses added against stray red tracks
        self.sat = Solver(name=SOLVER, bootstrap_with=list(self._clauses()))
        if seed is not None:
            rng = random.Random(seed)
            self.sat.set_phases([v if rng.random() < 0.5 else -v for v in self._variables()])

    def close(self) -> None:
        self.sat.delete()

    def __enter__(self) -> "PuzzleSolver":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def conflicts(self) -> int:
        """The solver's conflicts so far: its work, counted independently of the machine."""
        return int(self.sat.accum_stats().get("conflicts", 0))

    def red(self, square: Square, side: int) -> int:
        return int(self.pool.id(("red", square, side)))

    def placed(self, square: Square) -> int:
        return int(self.pool.id(("placed", square)))

    def __iter__(self) -> Iterator[dict[Square, int]]:
        """The solutions, each once (a loop without givens: one per shape)."""
        while (board := self._next()) is not None:
            yield board

    # -- the clauses ---------------------------------------------------------------------------

    def _variables(self) -> list[int]:
        squares = self.puzzle.squares()
        names = [self.red(s, d) for s in squares for d in range(4)]
        if self.puzzle.kind == "loop":
            names += [self.placed(s) for s in squares]
        return names

    def _clauses(self) -> Iterator[list[int]]:
        puzzle = self.puzzle
        loop = puzzle.kind == "loop"
        for s in puzzle.squares():
            sides = [self.red(s, d) for d in range(4)]
            guard = [-self.placed(s)] if loop else []
            for skip in range(4):                # exactly two of four: every three hold
                three = sides[:skip] + sides[skip + 1:]   # one red and one white side
                yield guard + three
                yield [-v for v in three]
            if loop:
                yield from ([self.placed(s), -v] for v in sides)
            for d in range(4):
                t = neighbour(s, d)
                if not puzzle.on_board(t):
                    yield from self._border(s, d)
                elif d in (1, 2):
                    a, b = self.red(s, d), self.red(t, d ^ 2)
                    both = [-self.placed(s), -self.placed(t)] if loop else []
                    yield both + [-a, b]
                    yield both + [a, -b]
                if loop and puzzle.on_board(t):
                    yield [-self.red(s, d), self.placed(t)]
        for s, tile in puzzle.givens.items():
            if loop:
                yield [self.placed(s)]
            yield from ([self.red(s, d) if not tile >> d & 1 else -self.red(s, d)]
                        for d in range(4))
        if loop:
            yield from self._counts()
            if self.up_to_symmetry:
                yield [self.placed((c, 0)) for c in range(puzzle.size)]
                yield [self.placed((0, r)) for r in range(puzzle.size)]
        if puzzle.symmetry is not None:
            for s in puzzle.squares():
                t = transform_square(puzzle.symmetry, s, puzzle.size)
                for d in range(4):
                    a = self.red(s, d)
                    b = self.red(t, symmetry.turn_side(puzzle.symmetry, d))
                    yield [-a, b]
                    yield [a, -b]

    def _border(self, square: Square, side: int) -> Iterator[list[int]]:
        puzzle = self.puzzle
        if puzzle.kind == "line":
            assert puzzle.ends is not None
            yield [self.red(square, side) if (square, side) in puzzle.ends
                   else -self.red(square, side)]
        elif puzzle.kind == "loop":
            yield [-self.red(square, side)]

    def _counts(self) -> Iterator[list[int]]:
        """Cardinality constraints: exactly ``crosses`` straight tiles, ``curves`` curved."""
        puzzle = self.puzzle
        straight, curved = [], []
        for s in puzzle.squares():
            north, east = self.red(s, 0), self.red(s, 1)
            south, west = self.red(s, 2), self.red(s, 3)
            x = self.pool.id(("straight", s))       # x <-> (N and S) or (E and W)
            yield [-north, -south, x]
            yield [-east, -west, x]
            yield [-x, north, east]
            yield [-x, north, west]
            yield [-x, south, east]
            yield [-x, south, west]
            k = self.pool.id(("curved", s))          # k <-> placed and not x
            yield [-k, self.placed(s)]
            yield [-k, -x]
            yield [k, -self.placed(s), x]
            straight.append(x)
            curved.append(k)
        for lits, bound in ((straight, puzzle.crosses), (curved, puzzle.curves)):
            card = CardEnc.equals(lits=lits, bound=bound, top_id=self.pool.top,
                                  encoding=EncType.seqcounter)
            self.pool.top = max(self.pool.top, card.nv)
            yield from card.clauses

    # -- solving -------------------------------------------------------------------------------

    def _next(self) -> dict[Square, int] | None:
        """The next solution (then excluded), or None when there is none left."""
        while self._solve():
            model = self.sat.get_model()
            true = {v for v in model if v > 0}
            board = self._board(true)
            stray = self._stray_tracks(board)
            if not stray:
                for image in (images(board, self.puzzle.size) if self.up_to_symmetry
                              else [board]):
                    self.sat.add_clause(self._exclude(image))
                return board
            for track in stray:
                self.sat.add_clause(self._cut(track))
                self.cuts += 1
        return None

    def _solve(self) -> bool:
        if self.budget is None:
            return bool(self.sat.solve())
        self.sat.conf_budget(self.budget)
        found = self.sat.solve_limited()
        if found is None:
            raise BudgetSpent(f"no answer within {self.budget} conflicts")
        return bool(found)

    def _board(self, true: set[int]) -> dict[Square, int]:
        board = {}
        for s in self.puzzle.squares():
            sides = [d for d in range(4) if self.red(s, d) in true]
            if sides:
                board[s] = tile_with_red(*sides)
        return board

    def _stray_tracks(self, board: dict[Square, int]) -> list[set[Square]]:
        """The red tracks of ``board`` that the puzzle forbids, as sets of squares: every
        track but the line's, or every loop when there is more than one."""
        tracks = _red_tracks(board)
        if self.puzzle.kind == "line":
            assert self.puzzle.ends is not None
            start = self.puzzle.ends[0][0]
            return [t for t in tracks if start not in t]
        if self.puzzle.kind == "loop" and len(tracks) > 1:
            return tracks
        return []

    def _cut(self, track: set[Square]) -> list[int]:
        """Some red side leads out of the track's squares (for a loop: or one of them is
        empty)."""
        leave = [self.red(s, d) for s in track for d in range(4)
                 if self.puzzle.on_board(neighbour(s, d)) and neighbour(s, d) not in track]
        if self.puzzle.kind == "loop":
            leave += [-self.placed(s) for s in track]
        return leave

    def _exclude(self, board: dict[Square, int]) -> list[int]:
        """The clause that no solution is ``board``."""
        clause = []
        for s in self.puzzle.squares():
            tile = board.get(s)
            if self.puzzle.kind == "loop":
                clause.append(-self.placed(s) if tile is not None else self.placed(s))
            if tile is not None:
                clause += [-self.red(s, d) if not tile >> d & 1 else self.red(s, d)
                           for d in range(4)]
        return clause


def _red_tracks(board: dict[Square, int]) -> list[set[Square]]:
    """The squares of each red track of ``board`` (union of squares joined by a red side)."""
    parent = {s: s for s in board}

    def root(s: Square) -> Square:
        while parent[s] != s:
            parent[s] = parent[parent[s]]
            s = parent[s]
        return s

    for s, tile in board.items():
        for d in red_sides(tile):
            t = neighbour(s, d)
            if t in board:
                parent[root(s)] = root(t)
    tracks: dict[Square, set[Square]] = {}
    for s in board:
        tracks.setdefault(root(s), set()).add(s)
    return list(tracks.values())


def images(board: dict[Square, int], size: int) -> list[dict[Square, int]]:
    """The eight images of a shape under turns and mirrors, each moved to the top-left corner
    (the identity first; an image can repeat when the shape is symmetric)."""
    found = [{transform_square(name, s, size): transform_tile(name, t)
              for s, t in board.items()} for name in symmetry.SYMMETRIES]
    moved = []
    for image in found:
        c0 = min(c for c, _ in image)
        r0 = min(r for _, r in image)
        moved.append({(c - c0, r - r0): t for (c, r), t in image.items()})
    return moved


def solutions(puzzle: Puzzle, limit: int | None = None) -> list[dict[Square, int]]:
    """Up to ``limit`` solutions of ``puzzle`` (all of them if None)."""
    found = []
    with PuzzleSolver(puzzle) as solver:
        for board in solver:
            found.append(board)
            if limit is not None and len(found) >= limit:
                break
    return found
