"""The two simple bots: ``random`` plays any legal move; ``greedy`` wins when it can and
otherwise avoids the moves that let the opponent win at once. Both are deterministic given their
seed, and both play through the engine's own ``play``/``undo`` (make and unmake in place)."""

import random

__all__ = ["RandomBot", "GreedyBot", "lets_opponent_win"]


class RandomBot:
    """Plays a uniformly random legal move."""

    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def choose(self, position):
        return self.rng.choice(position.legal_moves())


class GreedyBot(RandomBot):
    """Wins when it can; otherwise plays a random move that does not let the opponent win at
    once; otherwise (every move loses) any move."""

    def choose(self, position):
        moves = position.legal_moves()
        self.rng.shuffle(moves)
        me = position.to_move
        for move in moves:
            outcome = position.play(move)
            position.undo()
            if outcome is not None and outcome.winner == me:
                return move
        for move in moves:
            if not lets_opponent_win(position, move, me):
                return move
        return moves[0]


def lets_opponent_win(position, move, me):
    """True if after ``move`` by ``me`` the game is lost, or the opponent has a winning reply."""
    outcome = position.play(move)
    try:
        if outcome is not None:
            return outcome.winner not in (me, None)
        for reply in position.legal_moves():
            outcome = position.play(reply)
            position.undo()
            if outcome is not None and outcome.winner == 1 - me:
                return True
        return False
    finally:
        position.undo()
