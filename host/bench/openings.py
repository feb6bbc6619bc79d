"""Openings for the strength bench: the first plies of a game, drawn at random for both sides,
that the model and an opponent the bench runs itself (a bot, another model) both play.

Two deterministic players repeat one game forever, so the games of a run must begin
differently. Drawing only the model's first moves at random (``--random-moves``, all a bench
can do against an engine whose moves it cannot choose) hands the model, and only the model,
a weaker start: against ``alphabeta`` such a run lost games that random moves had decided
(docs/measurements.md). An opening drawn for both sides and played once with each colour
gives every game its own start and each player the same starts, as engine testers play a
book of openings with both colours.

Each ply is drawn among the moves that do not end the game and after which the other side
proves no win (``safe_moves``: at once, or by a 7-ply threat-space search that sees attacks
anywhere), so that an opening is rarely decided before the players take over; the openings
of a run make pairwise different positions (the same tiles, moved, are one position).
"""

import random

from fpgatrax.host.bots.perfect import canonical
from fpgatrax.host.match.model import proof_search, safe_moves
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.position import Move, Position

__all__ = ["draw_openings"]

#: Draws of one opening before the bench gives up finding a new position.
ATTEMPTS = 50


def draw_openings(count: int, plies: int, seed: int, variant: str = "standard",
                  progress=None) -> list[tuple[Move, ...]]:
    """``count`` openings of ``plies`` plies, each reproducible from ``seed`` and its number,
    whose last positions differ; ``progress(done, count, "")`` is called after each. Raises
    UserError when ``plies`` plies do not make ``count`` positions that differ."""
    refuter = proof_search(every_attack=True)
    safe_cache: dict = {}
    openings: list[tuple[Move, ...]] = []
    made = set()
    for number in range(count):
        for attempt in range(ATTEMPTS):
            rng = random.Random(f"{seed} {number} {attempt}")
            opening, position = _draw(plies, variant, rng, refuter, safe_cache)
            shape = canonical(position, symmetries=False)
            if shape not in made:
                break
        else:
            raise UserError(f"{plies} plies of opening make fewer than {count} positions that "
                            f"differ: give --opening-plies more, or --games fewer")
        made.add(shape)
        openings.append(opening)
        if progress is not None:
            progress(number + 1, count, "")
    return openings


def _draw(plies, variant, rng, refuter, safe_cache):
    """One opening drawn with ``rng``: its moves and its last position. A move that ends the
    game is never drawn (an opening that did would decide the game); a ply without a safe
    move (every move loses) is drawn among the others."""
    position = Position(variant)
    for _ in range(plies):
        key = tuple(position.moves)
        if key not in safe_cache:
            safe_cache[key] = ([move for move in safe_moves(position, refuter)
                                if not _ends(position, move)]
                               or [move for move in position.legal_moves()
                                   if not _ends(position, move)])
        if not safe_cache[key]:
            break
        position.play(rng.choice(safe_cache[key]))
    return tuple(position.moves), position


def _ends(position, move):
    """Whether ``move`` ends the game."""
    outcome = position.play(move)
    position.undo()
    return outcome is not None
