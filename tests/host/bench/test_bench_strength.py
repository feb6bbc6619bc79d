"""The strength benchmark: its table, its interval, and games that do not depend on how many
processes play them."""

import math
import re

import pytest

from fpgatrax.host.bench.openings import draw_openings
from fpgatrax.host.bench.strength import game_shapes, main, wilson_interval
from fpgatrax.host.rules.position import RED, WHITE, Position, xy_of
from fpgatrax.host.rules.record import read_record, replay


def test_benchmark_prints_a_row_per_colour_and_both(capsys):
    main(["--games", "1", "--opponent", "random", "--model", "max_trials=1", "--jobs", "1"])
    table = capsys.readouterr().out.splitlines()[-3:]
    assert [row.split()[:3] for row in table] == [["random", "white", "1"],
                                                  ["random", "black", "1"],
                                                  ["random", "both", "2"]]


def test_games_in_parallel_give_the_same_results(capsys):
    def run(jobs):
        main(["--games", "2", "--opponent", "random", "--opponent", "greedy",
              "--model", "max_trials=300", "--jobs", jobs])
        lines = capsys.readouterr().out.splitlines()
        return [line for line in lines if line.startswith("# vs")], lines[-6:]
    assert run("1") == run("2")


def test_a_bad_opponent_is_one_line_before_any_game(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["--opponent", "cmd:", "--jobs", "1"])
    assert exit.value.code == 1
    err = capsys.readouterr().err
    assert "cmd: needs a program" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("games", [1, 10, 40, 400])
def test_wilson_interval_closed_forms(games):
    z = 1.96
    # No win: the upper bound is z² / (n + z²); every win: the lower bound is n / (n + z²).
    assert wilson_interval(0, games) == (0.0, pytest.approx(z * z / (games + z * z)))
    assert wilson_interval(games, games) == (pytest.approx(games / (games + z * z)), 1.0)
    # Symmetric under swapping wins and losses, and it holds the rate.
    for wins in range(0, games + 1, max(1, games // 7)):
        low, high = wilson_interval(wins, games)
        mirror = wilson_interval(games - wins, games)
        assert (low, high) == (pytest.approx(1 - mirror[1]), pytest.approx(1 - mirror[0]))
        assert low <= wins / games <= high
    # It narrows as 1 / sqrt(n).
    width = wilson_interval(games // 2, games)
    assert width[1] - width[0] < 2 * 1.96 * math.sqrt(0.25 / games) + 1e-9


def test_how_games_ended_adds_up_to_the_table(capsys):
    main(["--games", "3", "--opponent", "greedy", "--model", "max_trials=1", "--jobs", "1"])
    out = capsys.readouterr().out
    note = next(line for line in out.splitlines() if line.startswith("# vs greedy"))
    ends = re.search(r"games ended: (.*) \(median length (\d+) moves\)", note)
    counted = {"won": 0, "drew": 0, "lost": 0}
    for part in ends.group(1).split("; "):
        outcome, _, hows = part.partition(" ")
        counted[outcome] = sum(int(n) for n in re.findall(r"(\d+) by \w+", hows))
    both = next(row.split() for row in out.splitlines() if row.startswith("greedy ")
                and row.split()[1] == "both")
    assert [counted["won"], counted["drew"], counted["lost"]] == [int(n) for n in both[3:6]]
    assert int(ends.group(2)) > 0


def test_records_replay_to_the_tables_results(capsys, tmp_path):
    main(["--games", "2", "--opponent", "greedy", "--model", "max_trials=300", "--jobs", "1",
          "--record", str(tmp_path / "games")])
    out = capsys.readouterr().out
    records = sorted((tmp_path / "games").iterdir())
    assert len(records) == 4
    won = lost = 0
    games = set()
    for path in records:
        record = read_record(path)
        model = WHITE if record.white.startswith("model") else RED
        assert (record.white, record.black)[1 - model] == "greedy"
        game = replay(record)
        won += game.winner == model
        lost += game.winner == 1 - model
        games.add(tuple(game.position.moves))
    both = next(row.split() for row in out.splitlines() if row.startswith("greedy ")
                and row.split()[1] == "both")
    assert [won, lost] == [int(both[3]), int(both[5])]
    assert f"; {len(games)} of 4 games differ" in out


def tiles_from_corner(position):
    """The oracle of a shape: the tiles as offsets from the top left corner of their box."""
    x0, y0, _, _ = position.bbox
    return frozenset((xy_of(key)[0] - x0, xy_of(key)[1] - y0, tile)
                     for key, tile in position.tiles.items())


def test_games_count_once_when_their_moves_place_the_same_tiles_moved():
    """Two second moves that make one position up to where it lies (a tile above or below an
    equal one) are one game for the count of games that differ; different ones are two."""
    same = 0
    for opening in Position().first_moves():
        position = Position()
        position.play(opening)
        replies = position.legal_moves()
        shapes = {}
        for move in replies:
            position.play(move)
            shapes[move] = tiles_from_corner(position)
            position.undo()
        for a in replies:
            for b in replies:
                alike = (game_shapes([opening, a], "standard")
                         == game_shapes([opening, b], "standard"))
                assert alike == (shapes[a] == shapes[b]), (a, b)
                same += alike and a != b
    assert same


def test_each_opening_is_played_with_both_colours(capsys, tmp_path):
    """Against a bot both sides play the run's openings (``draw_openings`` of its seed): the two
    games of a number begin with that opening, one with each colour, and the games of
    different numbers begin differently."""
    main(["--games", "3", "--opponent", "greedy", "--model", "max_trials=300", "--jobs", "1",
          "--opening-plies", "3", "--seed", "8", "--record", str(tmp_path)])
    openings = draw_openings(3, 3, 8)
    records = sorted(tmp_path.iterdir())
    assert len(records) == 6
    for k, path in enumerate(records):
        record = read_record(path)
        assert record.white.startswith("model") == (k % 2 == 0)
        assert tuple(replay(record).position.moves[:3]) == openings[k // 2]
    assert "greedy 3-ply openings drawn for both sides" in capsys.readouterr().out
