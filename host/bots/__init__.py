"""Software players: sparring partners for the hardware and yardsticks for its strength.

Every bot is a ``choose(position) -> move`` over the reference engine: ``random`` and ``greedy``
(``basic.py``), ``alphabeta`` (``alphabeta.py``). ``session.py`` turns any of them into a
protocol player.
"""

from fpgatrax.host.bots.alphabeta import DEFAULT_THINK, AlphaBetaBot
from fpgatrax.host.bots.basic import GreedyBot, RandomBot

__all__ = ["BOTS", "make_bot"]

BOTS = {"random": RandomBot, "greedy": GreedyBot, "alphabeta": AlphaBetaBot}


def make_bot(name, seed=None, think=None, depth=None):
    """The bot called ``name`` (a key of ``BOTS``). For alphabeta, ``think`` is its thinking
    time per move (default 0.25 s, 0 for no limit) and ``depth`` its deepest search; a depth
    given without a thinking time is searched in full, which makes its games reproducible."""
    if name != "alphabeta":
        return BOTS[name](seed)
    if think is None:
        think = 0 if depth else DEFAULT_THINK
    return AlphaBetaBot(seed, think, depth)
