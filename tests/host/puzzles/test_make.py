"""The generator: every puzzle it makes has exactly one solution, the answer it gives, and as
few givens as its difficulty asks."""

import pytest

from fpgatrax.host.puzzles.board import format_puzzle, parse_puzzle
from fpgatrax.host.puzzles.check import problems
from fpgatrax.host.puzzles.make import DIFFICULTIES, is_unique, make_puzzle
from fpgatrax.host.puzzles.solve import solutions


@pytest.mark.parametrize("kind", ["line", "loop", "match"])
@pytest.mark.parametrize("difficulty", sorted(DIFFICULTIES))
def test_made_puzzles_have_one_solution_the_answer(kind, difficulty):
    for seed in range(3):
        puzzle, answer = make_puzzle(kind, 6, difficulty, seed)
        assert problems(puzzle, answer) == []
        found = solutions(puzzle, limit=2)          # solved again: the answer, then nothing
        assert [sorted(b.items()) for b in found] == [sorted(answer.items())]
        assert set(puzzle.givens.items()) <= set(answer.items())
        assert len(puzzle.givens) <= max(1, round(DIFFICULTIES[difficulty] * len(answer))) \
            or difficulty == "hard"
        assert parse_puzzle(format_puzzle(puzzle)) == puzzle


@pytest.mark.parametrize("kind", ["line", "loop", "match"])
def test_a_hard_puzzle_needs_every_given(kind):
    puzzle, _ = make_puzzle(kind, 6, "hard", seed=11)
    for square in puzzle.givens:
        fewer = dict(puzzle.givens)
        del fewer[square]
        if fewer:
            assert not is_unique(puzzle.with_board(fewer)), square


def test_seeds_make_different_puzzles_and_a_seed_makes_the_same_one():
    made = [format_puzzle(make_puzzle("line", 6, "medium", seed)[0]) for seed in (1, 2, 1)]
    assert made[0] == made[2] != made[1]
