"""The puzzle file: what it reads, what it writes, and a clear message for each mistake; and
the checker's reasons on boards spoiled one square at a time."""

import random

import pytest

from fpgatrax.host.puzzles.board import (
    SYMMETRIES,
    PuzzleError,
    format_puzzle,
    parse_puzzle,
    transform_square,
    transform_tile,
)
from fpgatrax.host.puzzles.check import problems
from fpgatrax.host.puzzles.make import make_puzzle
from fpgatrax.host.rules.position import TILES

LINE = """\
# a comment
kind line
size 3
ends A1W C1E   # the line's two ends
board
.  /w .
.  .  .
.  .  +r
"""


def test_a_line_puzzle_is_read():
    puzzle = parse_puzzle(LINE)
    assert puzzle.kind == "line" and puzzle.size == 3
    assert puzzle.ends == (((0, 0), 3), ((2, 0), 1))
    assert puzzle.givens == {(1, 0): 0b1001, (2, 2): 0b1010}
    assert parse_puzzle(format_puzzle(puzzle)) == puzzle


@pytest.mark.parametrize("text, message", [
    ("kind lines\n", "'kind' must be one of"),
    ("kind line\nsize 3\n", "needs a 'ends' line"),
    ("kind line\nsize 3\nends A1W\n", ":3: a line needs two different ends"),
    ("kind line\nsize 3\nends A1W A1W\n", ":3: a line needs two different ends"),
    ("kind line\nsize 3\nends B2N C1E\n", ":3: B2N does not leave the 3×3 board"),
    ("kind line\nsize 3\nends D1N C1E\n", ":3: D1N does not leave"),
    ("kind line\nsize 3\nends A1X C1E\n", ":3: 'A1X' is not an end"),
    ("kind line\nsize 30\n", ":2: expected a whole number from 2 to 26"),
    ("kind loop\ncrosses 1\ncurves 2\n", "a loop has at least 4 tiles"),
    ("kind loop\ncrosses x\ncurves 2\n", ":2: expected a whole number"),
    ("kind match\nsymmetry twirl\n", ":2: 'symmetry' must be one of"),
    ("kind match\nsymmetry diagonal\nends A1N B1N\n", ":3: a match puzzle has no 'ends'"),
    ("kind match\nkind match\n", ":2: 'kind' is given twice"),
    ("kind match\ncolour red\n", ":2: unknown line 'colour red'"),
    ("kind match\nsize 2\nsymmetry diagonal\nboard\n. .\n", "the board has 1 rows, not 2"),
    ("kind match\nsize 2\nsymmetry diagonal\nboard\n. .\n. . .\n", ":6: row 2 has 3 squares"),
    ("kind match\nsize 2\nsymmetry diagonal\nboard\n. /x\n. .\n", ":5: '/x' is not a tile"),
])
def test_mistakes_are_named_with_their_line(text, message):
    with pytest.raises(PuzzleError, match=message.replace("(", r"\(")):
        parse_puzzle(text, "p.txt")


@pytest.mark.parametrize("name", sorted(SYMMETRIES))
def test_each_symmetry_moves_tracks_with_the_squares(name):
    """A symmetry maps a matching board to a matching board (sides move with squares), is
    one-to-one, and the turns and mirrors of order two undo themselves."""
    rng = random.Random(name)
    _, answer = make_puzzle("line", 5, "easy", seed=rng.randrange(100))
    image = {transform_square(name, s, 5): transform_tile(name, t) for s, t in answer.items()}
    assert len(image) == 25 and set(image.values()) <= set(TILES)
    for s in image:
        for side, other in ((1, (s[0] + 1, s[1])), (2, (s[0], s[1] + 1))):
            if other in image:
                assert (image[s] >> side ^ image[other] >> (side ^ 2)) & 1 == 0
    if name != "rotate-90":
        twice = {transform_square(name, s, 5): transform_tile(name, t) for s, t in image.items()}
        assert twice == answer


@pytest.mark.parametrize("kind", ["line", "loop", "match"])
def test_the_checker_finds_every_single_square_spoiled(kind):
    rng = random.Random(kind)
    for seed in range(3):
        puzzle, answer = make_puzzle(kind, 5, "easy", seed)
        blank = puzzle.with_board({})
        assert problems(blank, answer) == []
        for square in rng.sample(sorted(answer), 6):
            for tile in TILES:
                if tile != answer[square]:
                    assert problems(blank, {**answer, square: tile}), (square, tile)
            assert problems(blank, {s: t for s, t in answer.items() if s != square})
        square = rng.choice(sorted(puzzle.givens))
        assert any("must hold the given tile" in p for p in problems(
            puzzle, {**answer, square: next(t for t in TILES if t != answer[square])}))
