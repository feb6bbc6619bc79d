"""The ``alphabeta`` bot: iterative-deepening negamax with alpha-beta pruning within a thinking
time, over an evaluation that follows every track: ends one square apart threaten a loop, long
tracks make progress towards a line. It is deterministic given its seed only when its depth,
not its thinking time, is what stops it; it never copies a position in its inner loop.
"""

import time
from collections import Counter

from fpgatrax.host.bots.basic import RandomBot
from fpgatrax.host.rules.position import key_of, xy_of
from fpgatrax.host.rules.variant import LINE_SPAN

__all__ = ["AlphaBetaBot", "DEFAULT_THINK", "evaluate", "tracks"]

WIN = 1_000_000
DEFAULT_THINK = 0.25      # seconds per move: a quarter of the competition's limit
# Neighbours north, east, south, west (the sides of the engine's tile masks): coordinate steps
# and square-key steps.
_DX, _DY = (0, 1, 0, -1), (-1, 0, 1, 0)
_STEP = tuple(key_of(dx, dy) - key_of(0, 0) for dx, dy in zip(_DX, _DY, strict=True))


class _OutOfTime(Exception):
    pass


class AlphaBetaBot(RandomBot):
    """Negamax with alpha-beta pruning, deepened one ply at a time until ``think`` seconds are
    spent (0: no limit) or ``depth`` plies are searched; the best move of the deepest finished
    search is played. The root moves are shuffled by the seed, so that equal moves are chosen
    among at random, then sorted by their scores after each depth so that the next search
    prunes more; deeper down, a move that refuted a sibling (a killer) is tried first. ``clock``
    (seconds, ``time.perf_counter`` by default) is what the thinking time is measured by."""

    def __init__(self, seed=None, think=None, depth=None, clock=time.perf_counter):
        super().__init__(seed)
        think = DEFAULT_THINK if think is None else think
        self.think, self.clock = think, clock
        self.max_depth = depth or 64
        self.depths = Counter()   # how often each depth was the deepest finished search

    def choose(self, position):
        moves = position.legal_moves()
        self.rng.shuffle(moves)
        self._deadline = self.clock() + self.think if self.think else None
        self._killers = {}
        reached = 0
        for depth in range(1, self.max_depth + 1):
            try:
                scores = self._root(position, moves, depth)
            except _OutOfTime:
                break
            reached = depth
            moves.sort(key=lambda move: -scores[move])
            if abs(scores[moves[0]]) > WIN // 2:
                break                   # a forced result: deeper search cannot change it
        self.depths[reached] += 1
        return moves[0]

    def _root(self, position, moves, depth):
        """The score of each root move (exact for the best, an upper bound for the others)."""
        alpha, scores = -WIN - 1, {}
        for move in moves:
            scores[move] = self._score_move(position, move, depth, -WIN - 1, -alpha, 1)
            alpha = max(alpha, scores[move])
        return scores

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
        if self._deadline is not None and self.clock() > self._deadline:
            raise _OutOfTime
        moves = position.legal_moves()
        killer = self._killers.get(ply)
        if killer in moves:
            moves.remove(killer)
            moves.insert(0, killer)
        best = -WIN - 1
        for move in moves:
            score = self._score_move(position, move, depth, -beta, -alpha, ply)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self._killers[ply] = move
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
    lines = position.variant.line_span is not None
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
    (8; Mini Trax's 3) and doubled when the track already joins two opposite outermost edges of
    the tiles in play (so that growing the tiles in play with it makes a line)."""
    tiles = position.tiles
    x0, y0, x1, y1 = position.bbox
    line_span = position.variant.line_span or LINE_SPAN
    flip = 0xF if colour else 0
    done = set()
    found = []
    for square, entry in position.frontier.items():
        bits = entry >> 4 if colour else entry & 0xF
        for side in range(4):
            if not bits >> side & 1 or (square, side) in done:
                continue
            # Walk the track from the tile on that side until it leaves the tiles. A track
            # moves one square at a time, so the columns (rows) it crosses are an interval.
            ax, ay = xy_of(square)
            x, y = ax + _DX[side], ay + _DY[side]
            left = right = x
            top = bottom = y
            key, back = square + _STEP[side], side ^ 2
            while True:
                out = ((tiles[key] ^ flip) & ~(1 << back)).bit_length() - 1
                key += _STEP[out]
                if key not in tiles:
                    break
                back = out ^ 2
                x += _DX[out]
                y += _DY[out]
                if x < left:
                    left = x
                elif x > right:
                    right = x
                if y < top:
                    top = y
                elif y > bottom:
                    bottom = y
            done.add((key, out ^ 2))
            bx, by = x + _DX[out], y + _DY[out]
            span = min(line_span, max(right - left, bottom - top) + 1)
            if (left == x0 and right == x1) or (top == y0 and bottom == y1):
                span *= 2
            found.append((abs(ax - bx) + abs(ay - by), span))
    return found
