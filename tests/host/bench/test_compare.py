"""Two strength runs compared game by game: pairs made from random games whose winners the rules
engine decides, and the sign test against the binomial distribution's own values."""

import random

import pytest

from fpgatrax.host.bench import compare
from fpgatrax.host.match.referee import record_number, record_paths
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.notation import format_move
from fpgatrax.host.rules.position import WHITE, Position
from fpgatrax.host.rules.record import RecordWriter

MODEL, OPPONENT = "model (test)", "random"


def random_game(prefix, seed, model_wins, colour):
    """The moves of a finished game that starts with ``prefix`` and continues at random (seeds
    from ``seed`` on) until one ends as wanted: won or lost by the model, playing ``colour``."""
    for attempt in range(seed, seed + 500):
        rng = random.Random(attempt)
        position = Position()
        for move in prefix:
            position.play(move)
        while position.outcome is None and len(position.moves) < 300:
            position.play(rng.choice(position.legal_moves()))
        winner = position.outcome and position.outcome.winner
        if winner is not None and (winner == colour) == model_wins:
            return position.moves
    raise AssertionError("no random game ended as wanted")


def write_game(folder, number, moves, colour, opponent=OPPONENT):
    """A record named as the strength bench names game ``number``'s (the round trip of such
    names is tested below)."""
    names = (MODEL, opponent) if colour == WHITE else (opponent, MODEL)
    position = Position()
    with RecordWriter(folder / f"20261206-000000-{number:03d}.txt", *names) as writer:
        for move in moves:
            writer.move(format_move(position, move))
            position.play(move)


def opening(seed):
    """Four random moves after which the game goes on."""
    rng = random.Random(seed)
    position = Position()
    for _ in range(4):
        position.play(rng.choice(position.legal_moves()))
    assert position.outcome is None
    return list(position.moves)


# Game number: the model's result in the first run and in the second.
RESULTS = {1: (True, True), 2: (False, False), 3: (False, True), 4: (True, False),
           5: (False, True), 6: (True, True), 7: (False, True), 8: (False, False)}


@pytest.fixture
def runs(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    for number, results in RESULTS.items():
        colour = WHITE if number % 2 else 1 - WHITE
        prefix = opening(number)
        for folder, won in zip((first, second), results, strict=True):
            write_game(folder, number, random_game(prefix, 100 * number, won, colour), colour)
    return first, second


def test_the_games_each_run_won_are_paired_by_number(runs):
    result = compare.compare(*runs)
    assert result.paired == sorted(RESULTS)
    assert result.gained == [n for n, (a, b) in RESULTS.items() if b and not a]
    assert result.lost == [n for n, (a, b) in RESULTS.items() if a and not b]
    assert result.both_won == sum(a and b for a, b in RESULTS.values())
    lines = compare.format_comparison(result, "first", "second")
    assert lines[0].startswith("first: won 3 of 8 paired games")
    assert lines[1].startswith("second: won 5 of 8 paired games")


def test_games_that_differ_before_the_search_or_finished_once_are_left_out(runs):
    first, second = runs
    colour = 1 - WHITE
    write_game(second, 2, random_game(opening(2), 7, True, colour), colour, opponent="greedy")
    write_game(second, 4, random_game(opening(99), 7, True, colour), colour)
    (first / "20261206-000000-006.txt").unlink()
    unfinished = opening(9)
    write_game(first, 9, unfinished, WHITE)
    write_game(second, 9, random_game(unfinished, 9, True, WHITE), WHITE)
    result = compare.compare(first, second)
    assert result.differing == [2, 4]
    assert result.unpaired == [6, 9]
    assert result.paired == [1, 3, 5, 7, 8]


def test_runs_without_a_common_game_are_refused(runs, tmp_path):
    first, _ = runs
    other = tmp_path / "other"
    other.mkdir()
    write_game(other, 1, random_game(opening(1), 3, True, WHITE), WHITE, opponent="greedy")
    with pytest.raises(UserError, match="opens alike"):
        compare.compare(first, other)


def test_the_command_line_reports_a_folder_without_records_without_a_traceback(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        compare.main([str(tmp_path), str(tmp_path)])
    assert exit_.value.code == 1
    assert "no records" in capsys.readouterr().err


@pytest.mark.parametrize("number", [1, 7, 40, 999, 1234])
def test_a_records_number_is_read_back_from_the_name_the_bench_gives_it(tmp_path, number):
    assert record_number(record_paths(tmp_path)(number).name) == number


@pytest.mark.parametrize("name", ["game.txt", "-12.txt", "20261206-000000-x.txt"])
def test_other_names_have_no_number(name):
    assert record_number(name) is None


@pytest.mark.parametrize("gained,lost,expected", [
    (0, 0, 1.0), (3, 3, 1.0), (5, 0, 2 / 32), (0, 5, 2 / 32), (6, 1, 2 * 8 / 128),
    (10, 2, 2 * (1 + 12 + 66) / 4096)])
def test_the_sign_test_is_the_binomial_tail(gained, lost, expected):
    assert compare.sign_test(gained, lost) == pytest.approx(expected)
