"""Software players: sparring partners for the hardware and yardsticks for its strength.

Every bot is a ``choose(position) -> move`` over the reference engine: ``random`` and ``greedy``
(``basic.py``), ``alphabeta`` (``alphabeta.py``), and for Mini Trax only ``perfect``
(``perfect.py``), which has solved it. ``session.py`` turns any of them into a
protocol player.
"""

from fpgatrax.host.bots.alphabeta import DEFAULT_THINK, AlphaBetaBot
from fpgatrax.host.bots.basic import GreedyBot, RandomBot
from fpgatrax.host.bots.perfect import PerfectBot

__all__ = ["BOTS", "make_bot", "bots_for"]

BOTS = {"random": RandomBot, "greedy": GreedyBot, "alphabeta": AlphaBetaBot,
        "perfect": PerfectBot}


def bots_for(variant):
    """The names of the bots that play ``variant`` (a bot's ``variants``, if it has them, names
    the only variants it plays): the default field of tournaments, soaks and benchmarks."""
    return [name for name, bot in BOTS.items()
            if str(variant) in getattr(bot, "variants", (str(variant),))]


def make_bot(name, seed=None, think=None, depth=None):
    """The bot called ``name`` (a key of ``BOTS``). For alphabeta, ``think`` is its thinking
    time per move (default 0.25 s, 0 for no limit) and ``depth`` its deepest search; a depth
    given without a thinking time is searched in full, which makes its games reproducible."""
    if name != "alphabeta":
        return BOTS[name](seed)
    if think is None:
        think = 0 if depth else DEFAULT_THINK
    return AlphaBetaBot(seed, think, depth)
