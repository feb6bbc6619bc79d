"""The generator: puzzles with exactly one solution, at a chosen difficulty.

A puzzle is made from its answer. A random answer comes from the solver itself (its first
guesses drawn at random, ``PuzzleSolver(seed=…)``) on a puzzle with no tile given: a line between
two random border ends, a random loop, a random symmetric board. Then every tile of the answer
is given, and the givens are taken away one at a time, in random order, keeping each removal
only if the puzzle still has exactly one solution (solved again with the answer excluded), until
the difficulty's share of givens is left or no given can go. Fewer givens leave more to deduce:
``easy`` keeps half of the answer's tiles, ``medium`` a quarter, ``hard`` as few as uniqueness
allows (every given is needed).
"""

import random
from collections.abc import Callable

from fpgatrax.host.puzzles.board import SYMMETRIES, End, Puzzle, PuzzleError, Square
from fpgatrax.host.puzzles.solve import BudgetSpent, PuzzleSolver

__all__ = ["DIFFICULTIES", "make_puzzle", "is_unique"]

#: The share of the answer's tiles each difficulty leaves given (at least: uniqueness first).
DIFFICULTIES = {"easy": 0.5, "medium": 0.25, "hard": 0.0}
_TRIES = 50
#: Conflicts one draw of a random answer may take (easy draws take tens).
_BUDGET = 20_000


def is_unique(puzzle: Puzzle) -> bool:
    """True if ``puzzle`` has exactly one solution."""
    with PuzzleSolver(puzzle) as solver:
        found = iter(solver)
        return next(found, None) is not None and next(found, None) is None


def make_puzzle(kind: str, size: int = 8, difficulty: str = "medium", seed: int = 0,
                progress: Callable[[int, int], None] | None = None
                ) -> tuple[Puzzle, dict[Square, int]]:
    """A puzzle of ``kind`` with exactly one solution, and that solution. ``progress(done,
    total)`` is called after each given is tried."""
    if difficulty not in DIFFICULTIES:
        raise PuzzleError(f"unknown difficulty {difficulty!r}; choose one of "
                          f"{', '.join(DIFFICULTIES)}")
    rng = random.Random(seed)
    blank, answer = _random_answer(kind, size, rng)
    givens = dict(answer)
    order = sorted(answer)
    rng.shuffle(order)
    keep = round(DIFFICULTIES[difficulty] * len(answer))
    for done, square in enumerate(order, 1):
        if len(givens) <= max(keep, 1):
            break
        tile = givens.pop(square)
        if not is_unique(blank.with_board(givens)):
            givens[square] = tile
        if progress is not None:
            progress(done, len(order))
    return blank.with_board(givens), answer


def _random_answer(kind: str, size: int, rng: random.Random
                   ) -> tuple[Puzzle, dict[Square, int]]:
    """A puzzle of ``kind`` with no givens (its kind's data drawn at random) and one of its
    solutions, also drawn at random."""
    for _ in range(_TRIES):
        if kind == "line":
            blank = Puzzle("line", size, ends=_random_ends(size, rng))
        elif kind == "loop":
            length = 2 * rng.randint(4, max(4, size * size // 3))
            curves = 2 * rng.randint(2, length // 2)
            blank = Puzzle("loop", size, crosses=length - curves, curves=curves)
        elif kind == "match":
            blank = Puzzle("match", size, symmetry=rng.choice(sorted(SYMMETRIES)))
        else:
            raise PuzzleError(f"unknown kind {kind!r}; choose line, loop or match")
        with PuzzleSolver(blank, seed=rng.randrange(1 << 30), budget=_BUDGET) as solver:
            try:
                answer = next(iter(solver), None)
            except BudgetSpent:         # counts that are hard to meet, or to refute: redraw
                answer = None
        if answer is not None:
            return blank, answer
    raise PuzzleError(f"no {kind} puzzle of size {size} found in {_TRIES} tries")


def _random_ends(size: int, rng: random.Random) -> tuple[End, End]:
    """Two border ends whose squares a path through every square can join: on a board of
    even size they lie on squares of opposite colours of a chessboard, on an odd one both on
    the colour of the corners (the colour with one square more)."""
    border = [((c, r), d) for c in range(size) for r in range(size) for d, off in
              enumerate(((c, r - 1), (c + 1, r), (c, r + 1), (c - 1, r)))
              if not (0 <= off[0] < size and 0 <= off[1] < size)]
    while True:
        a, b = rng.sample(border, 2)
        colours = (sum(a[0]) % 2, sum(b[0]) % 2)
        if a[0] != b[0] and (colours in ((0, 1), (1, 0)) if size % 2 == 0
                             else colours == (0, 0)):
            return a, b
