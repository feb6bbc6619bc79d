"""Round robins: the schedule gives every pairing both colours, one game at a time or several
at once, the Elo estimate follows the Bradley-Terry model and its interval the Fisher
information, and the results go to CSV and JSON."""

import csv
import json
import math
import re
from collections import Counter

import pytest

from fpgatrax.host.cli.main import main
from fpgatrax.host.match.players import PlayerOptions, open_player
from fpgatrax.host.match.referee import FORFEIT_KINDS
from fpgatrax.host.match.tournament import (
    ELO_SCALE,
    RESULT_COLUMNS,
    Entrant,
    Standing,
    elo_intervals,
    elo_ratings,
    format_table,
    parallel_round_robin,
    round_robin,
    write_results,
)


def test_every_pairing_plays_both_colours_and_the_table_adds_up():
    names = ["random", "greedy", "alphabeta"]
    players = {name: open_player(name, PlayerOptions(seed=i, depth=1))
               for i, name in enumerate(names)}
    table, results = round_robin(players, games=1, time_limit=10.0)
    assert Counter((white, black) for white, black, _ in results) == \
        Counter((a, b) for a in names for b in names if a != b)
    for standing in table:
        mine = [(w, b, r) for w, b, r in results if standing.name in (w, b)]
        wins = sum(r.winner is not None and (w, b)[r.winner] == standing.name for w, b, r in mine)
        assert (standing.games, standing.wins) == (4, wins)
    assert [s.score for s in table] == sorted((s.score for s in table), reverse=True)


def test_elo_of_two_players_matches_the_model():
    """3 wins in 4 games, plus the one virtual draw: 3.5 points to 1.5, so the strength ratio
    is 3.5/1.5 and the Elo gap 400 log10 of it."""
    games = [("a", "b", 0), ("b", "a", 1), ("a", "b", 0), ("b", "a", 0)]
    ratings = elo_ratings(["a", "b"], games)
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(3.5 / 1.5), abs=0.01)
    assert ratings["a"] + ratings["b"] == pytest.approx(0)


def test_elo_of_a_cycle_is_level():
    """a beats b, b beats c, c beats a: nobody is stronger."""
    games = [("a", "b", 0), ("b", "c", 0), ("c", "a", 0)]
    ratings = elo_ratings(["a", "b", "c"], games)
    assert all(r == pytest.approx(0, abs=0.01) for r in ratings.values())


def test_the_elo_interval_of_two_players_follows_the_fisher_information():
    """4-0 plus the virtual draw: 5 meetings at p = 0.9, information 5 p q = 0.45 on the
    difference, each rating half of it: 1.96 standard errors of 1 / (2 sqrt(0.45))."""
    games = [("a", "b", 0), ("b", "a", 1)] * 2
    ratings = elo_ratings(["a", "b"], games)
    (low, high) = elo_intervals(["a", "b"], games, ratings)["a"]
    assert (high - low) / 2 == pytest.approx(1.96 * ELO_SCALE / (2 * math.sqrt(0.45)), rel=1e-3)
    assert low < ratings["a"] < high
    # Ten times the games at the same score: the interval about sqrt(10) times narrower.
    many = [("a", "b", 0)] * 36 + [("a", "b", 1)] * 4
    narrow = elo_intervals(["a", "b"], many, elo_ratings(["a", "b"], many))["a"]
    assert 2.5 < (high - low) / (narrow[1] - narrow[0]) < 3.5


def test_games_at_once_fill_the_schedule_and_write_their_results(tmp_path):
    entrants = [Entrant(name, name, PlayerOptions(seed=i, depth=1))
                for i, name in enumerate(["random", "greedy", "alphabeta"])]
    table, results = parallel_round_robin(
        entrants, 1, 2, lambda n: tmp_path / f"run-{n:03d}.txt", time_limit=10.0)
    names = [e.name for e in entrants]
    assert [(w, b) for w, b, _ in results] == [(a, b) for a in names for b in names if a != b]
    assert sum(s.wins + s.draws / 2 for s in table) == len(results)
    assert len(list(tmp_path.glob("run-*.txt"))) == 6
    csv_file, json_file = write_results(tmp_path / "run", table, results)
    with open(csv_file, newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["white"], r["black"], r["how"]) for r in rows] == \
        [(w, b, r.how) for w, b, r in results]
    assert [r["winner"] for r in rows] == \
        ["draw" if r.winner is None else ("white", "black")[r.winner] for _, _, r in results]
    data = json.loads(json_file.read_text())
    assert {s["player"]: (s["games"], s["wins"], s["draws"], s["losses"])
            for s in data["standings"]} == \
        {s.name: (s.games, s.wins, s.draws, s.losses) for s in table}
    assert all(s["elo_95"][0] <= s["elo"] <= s["elo_95"][1] for s in data["standings"])
    assert [game["winner"] for game in data["games"]] == [r["winner"] for r in rows]


def test_a_tournament_stopped_before_its_first_game_writes_the_same_columns(tmp_path):
    """Results files are read by scripts: with no game played yet, the header is still the
    full one (and what a file with games has: the test above reads those columns)."""
    csv_file, json_file = write_results(tmp_path / "run", [], [])
    assert csv_file.read_text().splitlines() == [",".join(RESULT_COLUMNS)]
    assert RESULT_COLUMNS[:4] == ["game", "white", "black", "winner"]
    assert json.loads(json_file.read_text()) == {"standings": [], "games": []}


def test_games_at_once_need_players_each_game_can_open(capsys):
    assert main(["tournament", "random", "tcp:5999", "--jobs", "2"]) == 1
    assert "--jobs needs players" in capsys.readouterr().err


def test_the_table_lines_up_under_its_header():
    """Every figure of a row ends under the end of its column's title (names as wide as the
    longest, at least as wide as 'player'), the forfeits one under each kind."""
    for names in (["a", "b"], ["a very long name", "b"]):
        table = [Standing(names[0], wins=3, draws=1, losses=12,
                          forfeits=Counter({kind: i + 1 for i, kind in enumerate(FORFEIT_KINDS)}),
                          elo=-123.4, elo_low=-250, elo_high=-10),
                 Standing(names[1], wins=12, losses=3)]
        head, *rows = format_table(table).splitlines()
        assert head.startswith("player".ljust(max(6, *map(len, names))) + "  games")
        ends = [match.end() for match in re.finditer(r"\S+", head)]
        titles = ["games", "wins", "draws", "losses"]
        for row, standing in zip(rows, table, strict=True):
            assert row.startswith(standing.name.ljust(max(6, *map(len, names))) + "  ")
            for title, figure in zip(titles, (str(standing.games), str(standing.wins),
                                              str(standing.draws), str(standing.losses)),
                                     strict=True):
                end = head.index(f" {title} ") + 1 + len(title)
                assert row[end - len(figure):end] == figure, (title, row)
            for kind in FORFEIT_KINDS:
                end = head.index(kind) + len(kind)
                assert row[end - 1] == str(standing.forfeits[kind]), (kind, row)
            assert len(row) == ends[-1]
