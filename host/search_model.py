"""The Python model of the hardware move search: the same choice as the gateware, without cycles.

The search FSM in ``hw/`` and this model implement one algorithm, step for step, so that the
player's strength can be measured at Python speed and its speed in cycles. The algorithm:

1. **Candidates** are the fitting (square, symbol) pairs in raster order (top row first, left to
   right) with the symbols in the order ``+ / \\``. On an empty board they are ``@0+`` then
   ``@0/``. Raster order does not change when the array shifts its contents, so the gateware and
   the model agree whatever the array offset.
2. **Win pass.** Every candidate is tried; the first legal one that wins for the mover is played.
3. **Safety pass.** Candidates that are legal and do not complete only the opponent's colour are
   scanned in order. Each one is tried, then every reply to it (the same candidate order, on the
   trial position): a reply that wins for the opponent marks the candidate *unsafe* and ends its
   scan early; a reply that would complete only the mover's colour is a *threat* (a square the
   mover could win on next turn), counted once per square. A safe candidate scores
   ``threat squares (at most 15) × 256 + an 8-bit pseudo-random tie-break``; the tie-break comes
   from a 16-bit LFSR stepped once per scored candidate, so play is deterministic but not glued
   to the top-left corner.
4. **Budget.** The safety pass stops after ``budget`` safe candidates have been scored (None: no
   limit); the highest score wins, the earliest on equal scores. If no candidate is safe, the
   first legal one that does not lose by itself is played, else the first legal one.
5. **Window.** The array is finite: before each search the player centres the tiles in it
   (the leftmost tile column at array column ``(width - columns) // 2``, likewise for rows), and
   squares outside the array are never tried. ``window=(width, height)`` makes the model skip
   the same squares; None models an unbounded array.

The cost of a choice is counted in *trials* (moves tried on the array, each a TRY command),
exactly as the gateware spends them: the safety pass tries each candidate again rather than
remembering the win pass's results. ``Choice.trials`` reports it.
"""

from dataclasses import dataclass

from .position import FITS, SYMBOL_TILES, key_of, xy_of

__all__ = ["SearchModel", "Choice", "LFSR_SEED", "lfsr_step", "candidates_in_order", "window_of"]

LFSR_SEED = 0xACE1
LFSR_TAPS = 0xB400
MAX_THREATS = 15


def lfsr_step(state):
    """One step of the 16-bit Galois LFSR (taps 16, 14, 13, 11) used for tie-breaks."""
    return (state >> 1) ^ (LFSR_TAPS if state & 1 else 0)


def window_of(position, size):
    """The squares (x0, y0, x1, y1) that an array of ``size`` = (width, height) holds once the
    player has centred the tiles of ``position`` in it."""
    width, height = size
    bx0, by0, bx1, by1 = position.bbox
    x0 = bx0 - (width - (bx1 - bx0 + 1)) // 2
    y0 = by0 - (height - (by1 - by0 + 1)) // 2
    return x0, y0, x0 + width - 1, y0 + height - 1


def candidates_in_order(position, window=None):
    """The fitting (key, tile) moves in the search's order: raster order, symbols ``+ / \\``,
    only squares inside ``window`` (x0, y0, x1, y1) when one is given."""
    if not position.tiles:
        origin = key_of(0, 0)
        return [(origin, SYMBOL_TILES["+"][0]), (origin, SYMBOL_TILES["/"][0])]
    moves = []
    for key in sorted(position.frontier):
        if window is not None:
            x, y = xy_of(key)
            if not (window[0] <= x <= window[2] and window[1] <= y <= window[3]):
                continue
        fits = FITS[position.frontier[key]]
        for pair in SYMBOL_TILES.values():
            moves.extend((key, t) for t in pair if t in fits)
    return moves


@dataclass
class Choice:
    move: tuple          # (key, tile)
    reason: str          # "win", "best", "no safe move", "only losing moves"
    score: int           # the chosen candidate's score (threats × 256 + tie-break), or -1
    trials: int          # moves tried (each one a place + resolve + detect on the array)
    safe_scored: int     # safe candidates scored in the safety pass


class SearchModel:
    """The search, with its tie-break LFSR as state (reset by ``new_game``, as the gateware's is
    by ``-W``/``-B``). ``budget`` bounds the safe candidates scored; ``window`` is the array's
    (width, height), None for an unbounded one."""

    def __init__(self, budget=None, window=None):
        if budget is not None and budget < 1:
            raise ValueError("the budget is at least one safe candidate")
        self.budget = budget
        self.window = window
        self.lfsr = LFSR_SEED

    def new_game(self):
        self.lfsr = LFSR_SEED

    def choose(self, position):
        """The move the player makes on ``position`` (whose side is to move), or None when no
        legal move fits in the window (the player's overflow)."""
        mover = position.to_move
        window = None
        if self.window is not None and position.tiles:
            window = window_of(position, self.window)
        order = candidates_in_order(position, window)
        trials = 0
        first_legal = first_fair = None
        for move in order:                                  # the win pass
            trials += 1
            if not position.push(move):
                continue
            outcome = position.outcome
            position.undo()
            if outcome is not None and outcome.winner == mover:
                return Choice(move, "win", -1, trials, 0)
            first_legal = first_legal or move
            if outcome is None:
                first_fair = first_fair or move
        best, best_score, scored = None, -1, 0
        for move in order:                                  # the safety pass
            if self.budget is not None and scored >= self.budget:
                break
            trials += 1
            if not position.push(move):
                continue
            if position.outcome is not None:                # completes only the opponent's colour
                position.undo()
                continue
            threats, safe, cost = self._replies(position, mover, window)
            position.undo()
            trials += cost
            if not safe:
                continue
            scored += 1
            self.lfsr = lfsr_step(self.lfsr)
            score = min(threats, MAX_THREATS) * 256 + (self.lfsr & 0xFF)
            if score > best_score:
                best, best_score = move, score
        if best is not None:
            return Choice(best, "best", best_score, trials, scored)
        if first_fair is not None:
            return Choice(first_fair, "no safe move", -1, trials, scored)
        if first_legal is not None:
            return Choice(first_legal, "only losing moves", -1, trials, scored)
        return None

    @staticmethod
    def _replies(position, mover, window):
        """Scan the replies on the trial position: (threat squares, safe, replies tried)."""
        threat_squares = set()
        tried = 0
        for reply in candidates_in_order(position, window):
            tried += 1
            if not position.push(reply):
                continue
            outcome = position.outcome
            position.undo()
            if outcome is None:
                continue
            if outcome.winner != mover:
                return len(threat_squares), False, tried
            threat_squares.add(reply[0])
        return len(threat_squares), True, tried
