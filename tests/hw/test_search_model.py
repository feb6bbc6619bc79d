"""The search model's promises, checked by brute force with the reference engine on positions
from real play: always legal, a win whenever one exists, never a move that lets the opponent win
at once when another move does not, the same choice and value as plain minimax without pruning,
and the trial limit honoured."""

import pytest
from threat_proofs import positions_from_play, proof_by

from fpgatrax.host.rules.position import tile_symbol
from fpgatrax.hw.search_model import (
    DEFAULT_EXTENSION,
    LEAF_LIMIT,
    MAX_COUNT,
    THREAT_WEIGHT,
    WIN,
    SearchModel,
    candidates_in_order,
    makes_threat,
    threat_pair,
)


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


@pytest.mark.parametrize("seed", range(4))
def test_search_keeps_its_promises(seed):
    for position in positions_from_play(12, seed):
        legal = position.legal_moves()
        me = position.to_move
        can_win = any(wins_for(position, m, me) for m in legal)
        can_hold = any(not opponent_can_win_after(position, m) for m in legal)
        for depth in (1, 2):
            choice = SearchModel(depth=depth).choose(position)
            assert choice.move in legal
            if can_win:
                assert wins_for(position, choice.move, me)
            elif can_hold:
                assert not opponent_can_win_after(position, choice.move)


def minimax(position, ply, depth, attack=None, leaf=False, evasions=True):
    """The value of ``position`` for the side to move, by plain negamax over every legal move
    (no pruning, the engine's own move list), with the model's leaf evaluation at the horizon
    (``leaf``: ply ``depth + 1``, or up to ``DEFAULT_EXTENSION`` plies deeper after a move that
    made an attack); elsewhere, under an ``attack`` made by the move before, a move that ends
    nothing and leaves both its squares empty is lost at the next ply. Without ``evasions``
    attacks change nothing."""
    me = position.to_move
    moves = position.legal_moves()
    if leaf:
        squares = {"threats": set(), "mine": set(), "theirs": set()}
        for move in moves:
            position.play(move)
            winner = position.outcome.winner if position.outcome else None
            if winner is None:
                for colour, name in ((me, "mine"), (1 - me, "theirs")):
                    if makes_threat(position, move[0], colour):
                        squares[name].add(move[0])
            position.undo()
            if winner == me:
                return WIN - ply
            if winner is not None:
                squares["threats"].add(move[0])
        count = {name: min(len(found), MAX_COUNT) for name, found in squares.items()}
        value = count["mine"] - count["theirs"] - THREAT_WEIGHT * count["threats"]
        return max(-LEAF_LIMIT, min(LEAF_LIMIT, value))
    values = [move_value(position, move, ply, depth, attack, evasions) for move in moves]
    return max(values) if values else 0


def move_value(position, move, ply, depth, attacked=None, evasions=True):
    me = position.to_move
    position.play(move)
    try:
        if position.outcome is not None and position.outcome.winner is not None:
            return WIN - ply if position.outcome.winner == me else ply - WIN
        if attacked is not None and not set(attacked) & position.tiles.keys():
            return ply + 1 - WIN
        made = threat_pair(position, move[0], me) if evasions else None
        leaf = ply >= depth and (made is None or ply >= depth + DEFAULT_EXTENSION)
        return -minimax(position, ply + 1, depth, made, leaf, evasions)
    finally:
        position.undo()


# Depth 3 takes minutes of brute force (7.5 alone): the whole suite runs it, `make test-fast` not.
@pytest.mark.parametrize("depth,positions,evasions", [
    (1, 24, True), (2, 10, True), (2, 10, False),
    pytest.param(3, 6, True, marks=pytest.mark.slow)])
def test_pruned_search_chooses_as_plain_minimax(depth, positions, evasions):
    extension = DEFAULT_EXTENSION if evasions else 0
    for position in positions_from_play(positions, 11 + depth)[2::2]:
        choice = SearchModel(depth=depth, extension=extension, evasions=evasions).choose(position)
        if choice.reason == "win":
            continue
        legal = position.legal_moves()
        order = [move for move in candidates_in_order(position) if move in legal]
        chosen = None
        for iteration in range(1, depth + 1):
            # The previous choice first, then raster order: the first of the highest value.
            values = {move: move_value(position, move, 1, iteration, evasions=evasions)
                      for move in ([chosen] if chosen else []) + order}
            best = max(values.values())
            chosen = next(move for move, value in values.items() if value == best)
        assert (choice.move, choice.value) == (chosen, best)


def test_max_trials_bounds_the_trials():
    for position in positions_from_play(20, 5)[2::3]:
        unlimited = SearchModel(depth=2).choose(position)
        for max_trials in (1, 50, 400):
            choice = SearchModel(max_trials, depth=2).choose(position)
            win_pass = len(candidates_in_order(position))
            assert choice.trials <= max(max_trials, win_pass + 1)
            assert choice.move in position.legal_moves()
            if unlimited.trials < max_trials:
                assert choice == unlimited


def test_candidate_order_is_raster_then_symbol():
    position = positions_from_play(12, 7)[-1]
    order = candidates_in_order(position)
    assert order == sorted(order, key=lambda m: (m[0], "+/\\".index(tile_symbol(m[1]))))
    assert set(order) == set(position.candidates())


def test_same_position_same_choice():
    position = positions_from_play(15, 3)[-1]
    assert SearchModel(400, depth=2).choose(position) == SearchModel(400, depth=2).choose(position)


def test_threat_space_search_plays_the_first_proven_win():
    """The threat-space search (5 plies, no trial limit) plays a root move exactly when plain
    AND/OR search proves one wins, and then the first such move in candidate order; it runs
    after the win pass and before the negamax, whose choice it leaves alone otherwise."""
    proofs = 0
    for position in positions_from_play(24, 21)[3::2]:
        choice = SearchModel(depth=1, tss=5).choose(position)
        plain = SearchModel(depth=1).choose(position)
        if plain.reason == "win":
            assert choice == plain
            continue
        legal = position.legal_moves()
        proven = next((move for move in candidates_in_order(position)
                       if move in legal and proof_by(position, move, 1, 5)), None)
        if proven is None:
            assert choice.reason != "threat" and choice.move == plain.move
        else:
            proofs += 1
            assert (choice.reason, choice.move) == ("threat", proven)
    assert proofs >= 2       # the positions hold proofs to find
