"""The Python model of the player's whole move on a game of any size: window, search, keeper.

The game lives in the board keeper (``hw/keeper.py``: block RAM, rules exact, a ``size × size``
torus); the tile array holds a window of it, ``width × height`` squares, for the search. Each
turn of the player:

1. **Window.** Per axis, when the tiles span no more squares than the array, the array holds
   them all, centred as before (``window_of``); otherwise the window lies around the
   opponent's last move (its square at the array's middle, ``(n - 1) // 2``), moved in just
   enough to keep within the tiles' box and the ring around it. A window that cuts the game
   in either axis is *cut*: the array then runs no line passes (a track that leaves the window
   would look like a line between its edges), and sees no tile outside it.
2. **Search.** The search (``search_model``, ``lanes_model``) chooses on the array's tiles
   only: the position :meth:`~fpgatrax.host.rules.position.Position.of_tiles` makes of them,
   in the loop variant when the window is cut (no lines).
3. **Keeper's pass.** The keeper tries every candidate of the whole board in raster order
   (squares of the box and its ring, symbols ``+ / \\``), exactly, and the player plays:

   - the first move that wins for it (the search may not see a win through tiles outside
     the window);
   - else the search's move, if the keeper finds it legal and it does not complete only the
     opponent's colour (or every legal move does);
   - else the first legal move that does not lose at once, else the first legal move.

   A candidate the keeper has no room for (``out_of_room``) is not legal here. With the whole
   game in the window the array is exact, and the result is the search's move (or its win
   pass's, the same first win in raster order).

The keeper pass costs its candidates' TRYs, at most ``KEEPER_CYCLES_PER_TRY`` clocks each; the
model counts them (``PlayerChoice.keeper_trials``) so that the board's time includes them.
"""

from dataclasses import dataclass, replace

from fpgatrax.host.rules.position import Position, xy_of
from fpgatrax.hw.search_model import candidates_in_order, window_of

__all__ = ["player_window", "window_position", "keeper_pass", "PlayerModel", "PlayerChoice",
           "keeper_cycles", "board_cycles", "check_keeper_size", "KEEPER_SIZE", "KEEPER_LOG",
           "KEEPER_CYCLES_PER_TRY", "KEEPER_CYCLES_PER_REFUSAL", "LOAD_CYCLES_PER_SQUARE"]

#: The keeper's board (squares per side) and log (tiles one turn may place): see docs.
KEEPER_SIZE, KEEPER_LOG = 64, 256
#: Upper bounds, in clocks, for the board's time: a keeper TRY of a fitting move and its
#: DISCARD; a TRY refused at once (occupied, alone, not fitting) and its DISCARD; loading one
#: square of the window into the arrays (a keeper READ and an array WRITE).
KEEPER_CYCLES_PER_TRY = 2048
KEEPER_CYCLES_PER_REFUSAL = 32
LOAD_CYCLES_PER_SQUARE = 16


def check_keeper_size(size):
    """Refuse, with a ValueError, a keeper's board that is not a power of two of at least 16."""
    if size < 16 or size & (size - 1):
        raise ValueError(f"the keeper's board is a power of two of at least 16, not {size}")


def _axis(first, last, focus, n):
    """The window's first square on an axis where the tiles run from ``first`` to ``last``:
    centred if they fit in ``n``, else around ``focus`` within the tiles and their ring."""
    span = last - first + 1
    if span <= n:
        return first - (n - span) // 2
    return min(max(focus - (n - 1) // 2, first - 1), last + 1 - (n - 1))


def player_window(position, size):
    """The squares (x0, y0, x1, y1) the array holds for the search on ``position``, and
    whether that window cuts the game (see 1 above)."""
    width, height = size
    if position.bbox is None:
        return window_of(position, size), False
    x0, y0, x1, y1 = position.bbox
    fx, fy = xy_of(position.moves[-1][0])
    left, top = _axis(x0, x1, fx, width), _axis(y0, y1, fy, height)
    cut = x1 - x0 + 1 > width or y1 - y0 + 1 > height
    return (left, top, left + width - 1, top + height - 1), cut


def window_position(position, window, cut):
    """What the array holds: the tiles of ``position`` inside ``window``, as a position whose
    turn is the game's (without lines when the window is cut)."""
    if not cut:
        return position
    x0, y0, x1, y1 = window
    tiles = {key: tile for key, tile in position.tiles.items()
             if x0 <= xy_of(key)[0] <= x1 and y0 <= xy_of(key)[1] <= y1}
    return Position.of_tiles(tiles, position.moves, "loop")


def _room(position, keeper_size, keeper_log):
    """Whether the keeper holds the turn just pushed on ``position``."""
    x0, y0, x1, y1 = position.bbox
    return (max(x1 - x0, y1 - y0) + 1 <= keeper_size - 2 and
            len(position.placed_last()) <= keeper_log)


def keeper_pass(position, proposal, keeper_size=KEEPER_SIZE, keeper_log=KEEPER_LOG):
    """The move the player plays on ``position`` given the search's ``proposal`` (a move or
    None), the reason ("win", "search", "safe", "legal" or None when the keeper has no legal
    move at all), and the candidates tried (see 3 above)."""
    if not position.tiles:            # the first move of a game: the search's
        return proposal, "search", 0
    mover = position.to_move
    first_safe = first_legal = None
    judged = {}             # legal move: whether it completes only the opponent's colour
    candidates = candidates_in_order(position)
    for tried, move in enumerate(candidates, 1):
        if not position.push(move):
            continue
        held = _room(position, keeper_size, keeper_log)
        outcome = position.outcome
        position.undo()
        if not held:
            continue
        if outcome is not None and outcome.winner == mover:
            return move, "win", tried
        judged[move] = outcome is not None
        first_legal = first_legal or move
        if outcome is None:
            first_safe = first_safe or move
    if proposal in judged and (not judged[proposal] or first_safe is None):
        return proposal, "search", len(candidates)
    if first_safe is not None:
        return first_safe, "safe", len(candidates)
    return first_legal, ("legal" if first_legal else None), len(candidates)


@dataclass
class PlayerChoice:
    """The player's move and what it cost: the search's Choice (None: the search found no
    move in the window), the keeper's reason and its TRYs of fitting moves, whether the window
    was cut, and the squares of the keeper's pass."""
    move: tuple | None
    reason: str | None
    search: object
    keeper_trials: int
    cut: bool
    ring: int = 0        # squares of the box and its ring that the keeper's pass goes over


class PlayerModel:
    """The player's move (see the module docstring) with ``search`` (a SearchModel or
    LanesModel with a window of ``size`` = (width, height)) and the keeper's ``keeper_size``
    and ``keeper_log``."""

    def __init__(self, search, size, keeper_size=KEEPER_SIZE, keeper_log=KEEPER_LOG):
        self.search, self.size = search, size
        self.keeper_size, self.keeper_log = keeper_size, keeper_log

    def choose(self, position):
        window, cut = player_window(position, self.size)
        choice = self.search.choose(window_position(position, window, cut), window)
        proposal = choice.move if choice is not None else None
        move, reason, tried = keeper_pass(position, proposal, self.keeper_size, self.keeper_log)
        if choice is not None and move != proposal:
            choice = replace(choice, move=move)
        columns, rows = position.size()
        ring = (columns + 2) * (rows + 2) if position.tiles else 0
        return PlayerChoice(move, reason, choice, tried, cut, ring)


def keeper_cycles(choice, size):
    """At most the clocks the player spends besides its search on a PlayerChoice: loading the
    window of ``size`` and the keeper's pass (every square of the box and its ring tried with
    each symbol, the fitting ones placed)."""
    width, height = size
    return (width * height * LOAD_CYCLES_PER_SQUARE +
            3 * choice.ring * KEEPER_CYCLES_PER_REFUSAL +
            choice.keeper_trials * KEEPER_CYCLES_PER_TRY)


def board_cycles(choice, size, cycles_per_trial):
    """At most the clocks the board spends on a PlayerChoice: its search's trials (the busiest
    lane's) at ``cycles_per_trial`` each, and ``keeper_cycles``."""
    trials = choice.search.time_trials if choice.search is not None else 0
    return trials * cycles_per_trial + keeper_cycles(choice, size)
