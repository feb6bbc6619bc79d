"""Shared by the search's tests: positions from real play, and plain AND/OR proof search by
the threat-space search's rules over the reference engine's legal moves, the oracle that the
model's threat-space search and the bench's safe random moves are held to."""

import random

from fpgatrax.host.bots import make_bot
from fpgatrax.host.rules.position import Position
from fpgatrax.hw.search_model import SearchModel, threat_pair


def positions_from_play(count, seed):
    """Positions (the side to move to choose) from games of the search against greedy."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position, search = Position(), SearchModel(depth=1)
        bot = make_bot("greedy", seed=rng.randrange(1 << 30))
        me = rng.randrange(2)
        while position.outcome is None and len(found) < count:
            if position.to_move == me:
                found.append(position.copy())
                move = search.choose(position).move
            else:
                move = bot.choose(position)
            position.play(move)
    return found


def attacker_proves(position, ply, plies):
    """Whether the side to move (the attacker, at an odd ``ply``) wins by the threat-space
    search's rules, by plain AND/OR search over the engine's legal moves (see ``proof_by``)."""
    return any(proof_by(position, move, ply, plies) for move in position.legal_moves())


def proof_by(position, move, ply, plies):
    """Whether the attacker's ``move`` wins: it wins now, or it makes an attack (before ply
    ``plies``) after which every reply fails."""
    me = position.to_move
    position.play(move)
    try:
        outcome = position.outcome
        if outcome is not None and outcome.winner is not None:
            return outcome.winner == me
        made = threat_pair(position, move[0], me)
        return ply < plies and made is not None and \
            defender_fails(position, ply + 1, plies, made)
    finally:
        position.undo()


def defender_fails(position, ply, plies, attack):
    """Whether every legal reply of the defender (at least one) to the ``attack`` loses: it
    completes only the attacker's colour, or it leaves the attack's squares empty and the
    attacker then wins at once on one of them (played out, not assumed), or the attacker
    then proves a win."""
    me = position.to_move
    replies = position.legal_moves()
    for move in replies:
        position.play(move)
        try:
            outcome = position.outcome
            if outcome is not None and outcome.winner is not None:
                if outcome.winner == me:
                    return False
                continue
            if not any(key in position.tiles for key in attack) and _wins_on(position, attack):
                continue
            if not attacker_proves(position, ply + 1, plies):
                return False
        finally:
            position.undo()
    return bool(replies)


def _wins_on(position, squares):
    """Whether the side to move has a legal move on one of ``squares`` that wins for it."""
    me = position.to_move
    for move in position.legal_moves():
        if move[0] in squares:
            position.play(move)
            outcome = position.outcome
            position.undo()
            if outcome is not None and outcome.winner == me:
                return True
    return False
