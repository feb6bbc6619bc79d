"""The Python model of the search in lanes: several searches at once, one answer.

A large device holds several copies of the tile array, each with its own search (a *lane*,
``hw/lanes.py``). Lane ``k`` of ``lanes`` searches only the root squares whose array
coordinates have ``(x + y) % lanes == k`` (point 11 of :mod:`.search_model`), each with the
whole trial limit, so the lanes together try ``lanes`` times the moves in the time of one. Their
answers make one choice, by these rules in order:

1. A lane that found no legal move among its squares has no answer; without any, there is none.
2. If a lane's win pass found a win, the first such move in raster order (row, column, symbol
   ``+ / \\``) is played: the same move as one search's win pass.
3. Else, if a lane's threat-space search proved a win, the first such move in raster order.
4. Else the lanes' negamax results are compared at the same depth, since a value depends on
   the depth it was searched to: ``D``, the deepest iteration that every lane finished. Each
   lane offers its best root move of iteration ``D`` with its value; the highest value wins,
   the first in raster order among equals. When some lane finished no iteration (``D`` is 0),
   each lane offers the move it would play alone (its unfinished iteration's best, or its first
   legal move, worth less than any value).

The chosen move's Choice has the reason and value of the lane's answer it came from, ``depth``
``D``, ``trials`` the sum over the lanes and ``lane_trials`` each lane's: the lanes run at once,
so the busiest lane's trials take the time (``Choice.time_trials``).
"""

from dataclasses import replace

from fpgatrax.host.rules.position import SYMBOLS, tile_symbol, xy_of
from fpgatrax.hw.search_model import SearchModel

__all__ = ["LanesModel", "search_model", "raster_key"]

def raster_key(move):
    """Where ``move`` comes in the search's raster order: row, column, symbol ``+ / \\``."""
    x, y = xy_of(move[0])
    return y, x, SYMBOLS.index(tile_symbol(move[1]))


class LanesModel:
    """``lanes`` searches of :class:`SearchModel`'s settings (``kwargs``; a ``window`` is
    needed), each on its share of the root's squares, and the one choice they make."""

    def __init__(self, lanes, **kwargs):
        if lanes < 2:
            raise ValueError("lanes are at least two searches (one is a SearchModel)")
        self.lanes = [SearchModel(**kwargs, lane=k, lanes=lanes) for k in range(lanes)]

    def choose(self, position, region=None):
        """The move the lanes play on ``position``, or None when no lane has a legal move
        inside the window (``region``: as :meth:`SearchModel.choose`)."""
        answers = [(lane.choose(position, region), lane.iterations) for lane in self.lanes]
        lane_trials = tuple(lane.trials for lane in self.lanes)
        found = [(choice, iterations) for choice, iterations in answers if choice is not None]
        if not found:
            return None
        for reason in ("win", "threat"):
            proven = [choice for choice, _ in found if choice.reason == reason]
            if proven:
                return self._made(min(proven, key=lambda c: raster_key(c.move)), lane_trials)
        depth = min(choice.depth for choice, _ in found)
        offers = [(replace(choice, move=iterations[depth - 1][0], value=iterations[depth - 1][1],
                           reason="best", depth=depth) if depth else choice)
                  for choice, iterations in found]
        best = min(offers, key=lambda c: (-c.value, raster_key(c.move)))
        return self._made(best, lane_trials)

    @staticmethod
    def _made(choice, lane_trials):
        return replace(choice, trials=sum(lane_trials), lane_trials=lane_trials)


def search_model(lanes=1, **kwargs):
    """The search model of a board with ``lanes`` lanes and :class:`SearchModel`'s settings."""
    return LanesModel(lanes, **kwargs) if lanes > 1 else SearchModel(**kwargs)
