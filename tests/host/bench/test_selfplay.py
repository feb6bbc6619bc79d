"""The self-play benchmark: paired openings, and a score that belongs to the right side."""

import pytest

from fpgatrax.host.bench.selfplay import main, opening, play
from fpgatrax.host.match.model import loses, parse_settings, proof_search
from fpgatrax.host.rules.position import RED, WHITE, Position

SMALL = "depth=2,max_trials=300,width=8,height=8,clock=1e7,evasions=0"
WEAK = "depth=1,max_trials=1,width=8,height=8,clock=1e7,evasions=0"


@pytest.mark.parametrize("seed", range(4))
def test_an_opening_is_the_same_draw_and_hands_no_side_the_game(seed):
    moves = opening(seed, 4)
    assert moves == opening(seed, 4) and len(moves) == 4
    position = Position()
    refuter = proof_search()
    for move in moves:
        assert position.push(move) and not loses(position, refuter)
        position.play(move)
    assert position.outcome is None
    assert len({tuple(opening(s, 4)) for s in range(6)}) > 1


def test_equal_settings_score_one_half_on_every_opening():
    settings = parse_settings(SMALL)
    setup = (settings, settings, 4, 300, "standard")
    for seed in range(3):
        games = [play((setup, (seed, colour))) for colour in (WHITE, RED)]
        # One deterministic search against itself: the same game twice, so A wins one of the
        # pair exactly when the colour that won it was A's.
        assert sum(game[1] for game in games) == 1.0


def test_a_side_that_plays_the_first_legal_move_loses_to_a_search():
    # Side A's points are A's: a search of 300 trials beats one of a single trial (the first
    # legal move) with both colours, so a score credited to the wrong side would be 0.
    strong, weak = parse_settings(SMALL), parse_settings(WEAK)
    points = [play(((strong, weak, 2, 300, "standard"), (seed, colour)))[1]
              for seed in range(3) for colour in (WHITE, RED)]
    assert sum(points) >= 5


def test_the_table_counts_each_opening_once_per_colour(capsys):
    assert main(["--a", SMALL, "--b", SMALL, "--openings", "2", "--jobs", "1"]) == 0
    table = [row.split() for row in capsys.readouterr().out.splitlines()[-3:]]
    # Equal settings: whichever colour wins an opening, A wins it once of its two games.
    assert [row[:2] for row in table] == [["white", "2"], ["black", "2"], ["both", "4"]]
    assert float(table[0][2]) + float(table[1][2]) == float(table[2][2]) == 2


@pytest.mark.parametrize("argv, message", [
    (["--a", "depth=0"], "depth 0 is out of range"),
    (["--a", "tss=2"], "odd number of plies"),
    (["--a", SMALL, "--openings", "0"], "at least 1"),
])
def test_a_bad_setting_is_one_line(capsys, argv, message):
    with pytest.raises(SystemExit) as exit:
        main(argv)
    assert exit.value.code == 1
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
