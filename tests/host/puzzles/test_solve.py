"""The SAT solver against brute force on small boards, and every answer against the checker.

The brute force knows nothing of the encoding: a line puzzle's solutions are the paths through
every square between its ends (a tile is its two red sides, so a path is a board), a loop's are
the grid's simple cycles, a match's are the fillings of a small board that equal their image.
"""

import itertools
import random

import pytest

from fpgatrax.host.puzzles.board import SYMMETRIES, Puzzle, neighbour, tile_with_red
from fpgatrax.host.puzzles.check import problems
from fpgatrax.host.puzzles.solve import PuzzleSolver, images, solutions
from fpgatrax.host.rules.position import TILES


def _border_ends(size):
    return [((c, r), d) for r in range(size) for c in range(size) for d in range(4)
            if not Puzzle("line", size).on_board(neighbour((c, r), d))]


def _paths(size, start, goal):
    """Every board of a path through all squares from end ``start`` to end ``goal``."""
    (first, into), (last, out) = start, goal
    found = []

    def extend(path, entered):
        square = path[-1]
        if len(path) == size * size:
            if square == last:
                board = dict(zip(path, entered, strict=True))
                found.append({s: tile_with_red(board[s], exit_side)
                              for s, exit_side in zip(path, _exits(path, out), strict=True)})
            return
        for d in range(4):
            nxt = neighbour(square, d)
            if Puzzle("line", size).on_board(nxt) and nxt not in path:
                extend(path + [nxt], entered + [d ^ 2])

    extend([first], [into])
    return found


def _exits(path, out):
    sides = [next(d for d in range(4) if neighbour(a, d) == b) for a, b in itertools.pairwise(path)]
    return sides + [out]


@pytest.mark.parametrize("size", [3, 4, 5])
def test_line_solutions_are_the_paths_through_every_square(size):
    rng = random.Random(size)
    ends = _border_ends(size)
    pairs = [p for p in itertools.combinations(ends, 2) if p[0][0] != p[1][0]]
    for start, goal in rng.sample(pairs, min(len(pairs), 12 if size < 5 else 6)):
        puzzle = Puzzle("line", size, ends=(start, goal))
        expected = _paths(size, start, goal)
        found = solutions(puzzle)
        assert all(problems(puzzle, b) == [] for b in found)
        assert sorted(map(sorted_items, found)) == sorted(map(sorted_items, expected)), \
            (start, goal)


def sorted_items(board):
    return sorted(board.items())


def _cycles(size):
    """Every simple cycle of the size × size grid, as a board of red tiles."""
    on = Puzzle("line", size).on_board
    found = {}
    for start in itertools.product(range(size), repeat=2):
        stack = [[start]]
        while stack:
            path = stack.pop()
            for d in range(4):
                nxt = neighbour(path[-1], d)
                if nxt == start and len(path) >= 4:
                    key = frozenset(path)
                    board = _cycle_board(path)
                    found.setdefault((key, tuple(sorted(board.items()))), board)
                elif on(nxt) and nxt not in path and nxt > start:
                    stack.append(path + [nxt])
    return list(found.values())


def _cycle_board(path):
    board = {}
    for i, square in enumerate(path):
        before, after = path[i - 1], path[(i + 1) % len(path)]
        sides = [d for d in range(4) if neighbour(square, d) in (before, after)]
        board[square] = tile_with_red(*sides)
    return board


def _counts(board):
    crosses = sum(1 for t in board.values() if t in (0b0101, 0b1010))
    return crosses, len(board) - crosses


def _shape(board, size):
    return min(tuple(sorted(image.items())) for image in images(board, size))


@pytest.mark.parametrize("size", [4, 5])
def test_loop_shapes_are_the_grids_cycles_up_to_symmetry(size):
    shapes = {}
    for board in _cycles(size):
        shapes.setdefault(_counts(board), set()).add(_shape(board, size))
    for (crosses, curves), expected in sorted(shapes.items()):
        puzzle = Puzzle("loop", size, crosses=crosses, curves=curves)
        found = solutions(puzzle)
        assert all(problems(puzzle, b) == [] for b in found)
        assert {_shape(b, size) for b in found} == expected
        assert len(found) == len(expected), (crosses, curves)   # one board per shape


def test_loop_with_a_given_tile_lists_every_placed_cycle_through_it():
    size, rng = 4, random.Random(4)
    cycles = _cycles(size)
    for board in rng.sample(cycles, 8):
        square = rng.choice(sorted(board))
        crosses, curves = _counts(board)
        puzzle = Puzzle("loop", size, {square: board[square]}, crosses=crosses, curves=curves)
        expected = [b for b in cycles if _counts(b) == (crosses, curves)
                    and b.get(square) == board[square]]
        found = solutions(puzzle)
        assert sorted(map(sorted_items, found)) == sorted(map(sorted_items, expected))


def _fillings(size, givens):
    """Every board of matching tiles on a size × size board that keeps ``givens``."""
    squares = [(c, r) for r in range(size) for c in range(size)]
    boards = [{}]
    for s in squares:
        options = [givens[s]] if s in givens else TILES
        grown = []
        for board in boards:
            for t in options:
                west, north = (s[0] - 1, s[1]), (s[0], s[1] - 1)
                if west in board and (board[west] >> 1 ^ t >> 3) & 1:
                    continue
                if north in board and (board[north] >> 2 ^ t) & 1:
                    continue
                grown.append({**board, s: t})
        boards = grown
    return boards


@pytest.mark.parametrize("symmetry", sorted(SYMMETRIES))
def test_match_solutions_are_the_symmetric_fillings(symmetry):
    rng = random.Random(symmetry)
    for size, given_count in ((2, 0), (3, 3), (3, 4)):
        full = _fillings(size, {})
        pick = rng.choice(full)
        givens = dict(rng.sample(sorted(pick.items()), given_count))
        puzzle = Puzzle("match", size, givens, symmetry=symmetry)
        expected = [b for b in _fillings(size, givens) if problems(puzzle, b) == []]
        found = solutions(puzzle)
        assert sorted(map(sorted_items, found)) == sorted(map(sorted_items, expected))


def test_the_checker_accepts_a_filling_exactly_when_it_is_a_line():
    """Every matching filling of a 3 × 3 board, judged by the checker, against the paths."""
    size = 3
    fillings = _fillings(size, {})
    for start, goal in random.Random(3).sample(
            [p for p in itertools.combinations(_border_ends(size), 2) if p[0][0] != p[1][0]], 10):
        puzzle = Puzzle("line", size, ends=(start, goal))
        accepted = [b for b in fillings if problems(puzzle, b) == []]
        assert sorted(map(sorted_items, accepted)) == \
            sorted(map(sorted_items, _paths(size, start, goal)))


def test_a_seed_draws_different_answers_of_one_puzzle():
    puzzle = Puzzle("line", 6, ends=(((0, 0), 3), ((5, 0), 1)))
    answers = set()
    for seed in range(6):
        with PuzzleSolver(puzzle, seed=seed) as solver:
            board = next(iter(solver))
        assert problems(puzzle, board) == []
        answers.add(tuple(sorted(board.items())))
    assert len(answers) > 1
