"""The search model's promises, checked by brute force with the reference engine on positions
from real play: always legal, a win whenever one exists, never a move that lets the opponent win
at once when another move does not, and the budget honoured."""

import random

import pytest

from fpgatrax.host.bots import make_bot
from fpgatrax.host.position import Position, tile_symbol
from fpgatrax.host.search_model import SearchModel, candidates_in_order


def wins_for(position, move, colour):
    position.play(move)
    won = position.outcome is not None and position.outcome.winner == colour
    position.undo()
    return won


def opponent_can_win_after(position, move):
    me = position.to_move
    position.play(move)
    if position.outcome is not None:
        position.undo()
        return position.outcome is not None
    can = any(wins_for(position, reply, 1 - me) for reply in position.legal_moves())
    position.undo()
    return can


def positions_from_play(count, seed):
    """Positions (the side to move to choose) from games of the search against greedy."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position, search = Position(), SearchModel(budget=rng.choice([None, 2, 8]))
        bot = make_bot("greedy", seed=rng.randrange(1 << 30))
        me = rng.randrange(2)
        while position.outcome is None and len(found) < count:
            if position.to_move == me:
                found.append((position.copy(), search.budget))
                move = search.choose(position).move
            else:
                move = bot.choose(position)
            position.play(move)
    return found


@pytest.mark.parametrize("seed", range(4))
def test_search_keeps_its_promises(seed):
    for position, budget in positions_from_play(25, seed):
        choice = SearchModel(budget).choose(position)
        legal = position.legal_moves()
        assert choice.move in legal
        me = position.to_move
        if any(wins_for(position, m, me) for m in legal):
            assert wins_for(position, choice.move, me)
            continue
        if any(not opponent_can_win_after(position, m) for m in legal):
            assert not opponent_can_win_after(position, choice.move)
        if budget is not None:
            assert choice.safe_scored <= budget


def test_candidate_order_is_raster_then_symbol():
    position, _ = positions_from_play(12, 7)[-1]
    order = candidates_in_order(position)
    assert order == sorted(order, key=lambda m: (m[0], "+/\\".index(tile_symbol(m[1]))))
    assert set(order) == set(position.candidates())


def test_same_position_same_choice():
    position, _ = positions_from_play(15, 3)[-1]
    assert SearchModel(4).choose(position) == SearchModel(4).choose(position)
