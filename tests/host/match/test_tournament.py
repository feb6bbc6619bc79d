"""Round robins: the schedule gives every pairing both colours, and the Elo estimate follows
the Bradley-Terry model."""

import math
from collections import Counter

import pytest

from fpgatrax.host.match.players import PlayerOptions, open_player
from fpgatrax.host.match.tournament import elo_ratings, round_robin


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
