"""Software players: sparring partners for the hardware and yardsticks for its strength.

Every bot is a ``choose(position) -> move`` over the reference engine and is deterministic given
its seed (``alphabeta`` only when its depth, not its time budget, is what stops it). They search
with the engine's own ``play``/``undo``, which make and unmake a turn in place, so no position is
copied in an inner loop.

- ``random``: any legal move.
- ``greedy``: a winning move when there is one; otherwise a random move after which the opponent
  cannot win at once, if there is such a move.
- ``alphabeta``: iterative-deepening negamax with alpha-beta pruning inside a time budget, over
  an evaluation that follows every track: ends one square apart threaten a loop, long tracks
  make progress towards a line.
"""

import random
import time

from .position import LINE_SPAN, WHITE, key_of, xy_of

__all__ = ["BOTS", "make_bot", "RandomBot", "GreedyBot", "AlphaBetaBot", "evaluate"]

WIN = 1_000_000
# Neighbour offsets of a square key, north, east, south, west (as in the engine's tile masks).
_STEP = tuple(key_of(dx, dy) - key_of(0, 0) for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)))


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
            if not _lets_opponent_win(position, move, me):
                return move
        return moves[0]


def _lets_opponent_win(position, move, me):
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


class _OutOfTime(Exception):
    pass


class AlphaBetaBot(RandomBot):
    """Negamax with alpha-beta pruning, deepened one ply at a time until ``budget`` seconds are
    spent (or ``depth`` plies are searched); the best move of the deepest finished search wins.
    The root moves are shuffled by the seed, so equal moves are chosen among at random, and
    reordered best-first after each depth so the next one prunes more."""

    def __init__(self, seed=None, budget=0.25, depth=None):
        super().__init__(seed)
        self.budget = budget
        self.max_depth = depth or 64
        self.reached = 0          # depth of the last finished search, for the benchmark

    def choose(self, position):
        moves = position.legal_moves()
        self.rng.shuffle(moves)
        self._deadline = time.perf_counter() + self.budget if self.budget else None
        best = moves[0]
        for depth in range(1, self.max_depth + 1):
            try:
                score, best = self._root(position, moves, depth)
            except _OutOfTime:
                break
            self.reached = depth
            moves.remove(best)
            moves.insert(0, best)
            if abs(score) > WIN // 2:
                break                   # a forced result: deeper search cannot change it
        return best

    def _root(self, position, moves, depth):
        alpha, best = -WIN - 1, moves[0]
        for move in moves:
            score = self._score_move(position, move, depth, -WIN - 1, -alpha, 1)
            if score > alpha:
                alpha, best = score, move
        return alpha, best

    def _score_move(self, position, move, depth, alpha, beta, ply):
        """The value of ``move`` for the player making it."""
        mover = position.to_move
        outcome = position.play(move)
        try:
            if outcome is not None:
                if outcome.winner is None:
                    return 0
                return WIN - ply if outcome.winner == mover else ply - WIN
            if depth <= 1:
                return -evaluate(position)
            return -self._negamax(position, depth - 1, alpha, beta, ply + 1)
        finally:
            position.undo()

    def _negamax(self, position, depth, alpha, beta, ply):
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise _OutOfTime
        best = -WIN - 1
        for move in position.legal_moves():
            score = self._score_move(position, move, depth, -beta, -alpha, ply)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best


# -- evaluation -------------------------------------------------------------------------------

# Weights of the evaluation, in points.
LOOP_THREAT_TO_MOVE = 5000     # the side to move can close this loop now
LOOP_THREAT = 400              # one such threat of the side not to move: it must be parried
DOUBLE_THREAT = 20000          # two of them: one move cannot parry both
NEAR_LOOP = 40                 # ends two squares apart: a loop threat one move away


def evaluate(position):
    """The position's value for the side to move, from its tracks (see ``tracks``)."""
    me = position.to_move
    score = 0
    lines = position.variant != "loop"
    for colour in (me, 1 - me):
        threats = near = progress = 0
        for distance, span in tracks(position, colour):
            if distance == 1:
                threats += 1
            elif distance == 2:
                near += 1
            if lines:
                progress += span * span
        if colour == me:
            value = threats * LOOP_THREAT_TO_MOVE
        else:
            value = DOUBLE_THREAT if threats >= 2 else threats * LOOP_THREAT
        value += near * NEAR_LOOP + progress
        score += value if colour == me else -value
    return score


def tracks(position, colour):
    """Each open track of ``colour``: (distance, span), where distance is the Manhattan distance
    between the empty squares its two ends enter (1 means one move can close a loop) and span
    the number of columns or rows it crosses, whichever is more, counted up to the line length
    (8) and doubled when the track already joins two opposite outermost edges of the tiles in
    play (so that growing the tiles in play with it makes a line)."""
    tiles = position.tiles
    done = set()
    found = []
    for square, entry in position.frontier.items():
        bits = entry >> 4 if colour else entry & 0xF
        for side in range(4):
            if not bits >> side & 1 or (square, side) in done:
                continue
            end, xs, ys = _follow(tiles, colour, square + _STEP[side], (side + 2) & 3)
            done.add(end)
            (ax, ay), (bx, by) = xy_of(square), xy_of(end[0])
            span = min(LINE_SPAN, max(len(xs), len(ys)))
            if _touches_edge(position.bbox, xs, ys):
                span *= 2
            found.append((abs(ax - bx) + abs(ay - by), span))
    return found


def _follow(tiles, colour, key, entry_side):
    """Walk the ``colour`` track into tile ``key`` through its ``entry_side`` until it leaves
    the tiles; return the (empty square, side it enters by) at the far end and the columns and
    rows the track crossed."""
    xs, ys = set(), set()
    while True:
        x, y = xy_of(key)
        xs.add(x)
        ys.add(y)
        edges = tiles[key] if colour == WHITE else tiles[key] ^ 0xF
        out = edges & ~(1 << entry_side)
        side = out.bit_length() - 1
        key += _STEP[side]
        entry_side = (side + 2) & 3
        if key not in tiles:
            return (key, entry_side), xs, ys


def _touches_edge(bbox, xs, ys):
    x0, y0, x1, y1 = bbox
    return (x0 in xs and x1 in xs) or (y0 in ys and y1 in ys)


BOTS = {"random": RandomBot, "greedy": GreedyBot, "alphabeta": AlphaBetaBot}


def make_bot(name, seed=None, budget=None, depth=None):
    """The bot called ``name`` (a key of ``BOTS``); ``budget`` and ``depth`` tune alphabeta."""
    if name == "alphabeta":
        options = {"depth": depth}
        if budget is not None:
            options["budget"] = budget
        return AlphaBetaBot(seed, **options)
    return BOTS[name](seed)
