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

**Past the keeper's board.** The keeper holds the tiles of a ``size × size`` torus, so a game
may span ``size - 2`` columns or rows. When the opponent's move would make it span more, the
player has the keeper *forget* the quarter of the board at the far side (FORGET in
``hw/keeper.py``) and tries the move again; a move it still has no room for (one in forgotten
squares, say) is taken on trust: it counts for the notation, but the keeper does not hold it.
The player goes on answering with what the keeper holds: no move on or beyond a cut side, no
lines judged, the window and the pass over the keeper's box. ``KeeperView`` replays a game's
moves through exactly these steps, so it holds what the keeper holds. From the first forgetting
on, a move of the opponent's that the keeper finds illegal is taken on trust too (the referee
is the judge).

**The edge move.** Once a move is taken on trust the keeper is blind to its forced play, which
may run into the squares it holds, so from then on the player no longer asks the keeper: it
plays the *edge move* (``edge_move``), a ``+`` on the square just west of the game's westmost
column, next to the tile of the move that last reached that column (the first move, or the
last that widened the game westwards), which the player keeps with the game's box for the
notation. That square has no other neighbour, and the forced play of a tile there runs only
along the new column, away from the tile in both directions, so no square ever meets three
edges of one colour: the move is legal whatever the forgotten tiles are. It is also the answer
when the keeper finds no move it may play, and it is itself taken on trust (the keeper does
not hold it). So past the keeper's board the player never falls silent and never answers
illegally, at the cost of its strength there (``make bench-room``). A board with no room for
this logic builds without it (``forgetting=False``): its player stops answering once a move
finds no room.

The keeper pass costs its candidates' TRYs, at most ``KEEPER_CYCLES_PER_TRY`` clocks each; the
model counts them (``PlayerChoice.keeper_trials``) so that the board's time includes them.
"""

from dataclasses import dataclass, replace

from fpgatrax.host.rules.position import (
    E,
    IllegalMove,
    N,
    Position,
    S,
    W,
    key_of,
    tile_symbol,
    xy_of,
)
from fpgatrax.hw.search_model import candidates_in_order, window_of

__all__ = ["player_window", "window_position", "keeper_pass", "edge_move", "PlayerModel",
           "PlayerChoice", "keeper_cycles", "board_cycles", "check_keeper_size", "KeeperView",
           "KeeperRefused", "KEEPER_SIZE", "KEEPER_LOG", "COORD_BITS",
           "KEEPER_CYCLES_PER_TRY", "KEEPER_CYCLES_PER_REFUSAL", "LOAD_CYCLES_PER_SQUARE"]

#: The keeper's board (squares per side) and log (tiles one turn may place): see docs.
KEEPER_SIZE, KEEPER_LOG = 64, 256
#: The bits of the player's square coordinates (and of the notation's column and row numbers):
#: a game may span 250 columns or rows (a game of 250 moves at least) before they wrap.
COORD_BITS = 8
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


class KeeperRefused(Exception):
    """The keeper refused a move of the game that the rules allow: what it holds differs from
    the game (see the blind spot above), and the player would wait for another move."""


class KeeperView:
    """What the keeper holds of a game of ``variant`` on a ``size × size`` board with a log of
    ``log`` tiles, turn by turn (see "Past the keeper's board" above): ``position``, its tiles
    (the game's turn order, lines judged only while nothing is forgotten), ``box``, the
    keeper's box (x0, y0, x1, y1; None before the first move), ``cut``, the sides (N E S W)
    beyond which it forgot tiles, and ``blind``, the moves taken on trust."""

    def __init__(self, variant, size=KEEPER_SIZE, log=KEEPER_LOG, forgetting=True):
        self.size, self.log, self.forgetting = size, log, forgetting
        self.full = False     # without forgetting: a move found no room, the player is silent
        self.position = Position(variant)
        self.variant = self.position.variant          # the game's (``position`` may lose lines)
        self.box, self.cut, self.blind = None, set(), 0

    def holds(self, move):
        """Whether the keeper has room for ``move``, just pushed on ``position``: the box
        with it spans at most ``size - 2`` columns and rows, no tile it placed lies on or beyond
        a cut side, and the log holds them all."""
        if self.box is None:
            return True
        x0, y0, x1, y1 = _grown(self.box, move[0])
        if max(x1 - x0, y1 - y0) > self.size - 3:
            return False
        placed = self.position.placed_last()
        return len(placed) <= self.log and not any(self.near_cut(key) for key in placed)

    def near_cut(self, key):
        """Whether a tile at ``key`` lies within two squares of a cut side (or beyond it): its
        neighbours, or the neighbours of the squares its forced play looks at, may be
        forgotten tiles."""
        x, y = xy_of(key)
        x0, y0, x1, y1 = self.box
        return ((W in self.cut and x <= x0 + 1) or (E in self.cut and x >= x1 - 1) or
                (N in self.cut and y <= y0 + 1) or (S in self.cut and y >= y1 - 1))

    def play(self, move):
        """A move of the game (either side's): tried, with the far side forgotten when the
        board is full, and kept or taken on trust. Raise KeeperRefused if the keeper finds it
        illegal while it still holds the whole game (once it does not, it takes the move on
        trust: the squares it cannot see may make it legal)."""
        key, tile = move
        while True:
            position = self.position
            if self.box is None or not self.near_cut(key):     # a square it can see: tried
                try:
                    placed = (key, position.tile_for(key, tile_symbol(tile)))
                    pushed = position.push(placed)
                except IllegalMove:
                    pushed = False
                if pushed and self.holds(placed):
                    self.box = _grown(self.box, key)
                    return
                if pushed:
                    position.undo()
                    if not self.forgetting:
                        self.full = True
                        return
                elif not (self.cut or self.blind):
                    raise KeeperRefused(f"the keeper refuses {tile_symbol(tile)} at "
                                        f"{xy_of(key)}")
            side = self.side_to_forget(key)
            if side is None:
                self.trust(move)
                side = self.side_to_buffer(key)
                if side is not None:
                    self._forget(side)
                return
            self._forget(side)

    def trust(self, move):
        """Take ``move`` on trust: it counts for the turn, the keeper does not hold it."""
        self.blind += 1
        self._rebuild(self.position.tiles, self.position.moves + [move])

    def side_to_forget(self, key):
        """The side the player forgets for a move at ``key`` that found no room: the one
        opposite the move, if the move lies next to a full side of the box that is not cut."""
        x, y = xy_of(key)
        x0, y0, x1, y1 = self.box
        full = self.size - 3
        for beyond, spans, side, opposite in ((x == x1 + 1, x1 - x0, E, W),
                                              (x == x0 - 1, x1 - x0, W, E),
                                              (y == y1 + 1, y1 - y0, S, N),
                                              (y == y0 - 1, y1 - y0, N, S)):
            if beyond and spans >= full and side not in self.cut:
                return opposite
        return None

    def side_to_buffer(self, key):
        """The cut side to forget further after a move on trust at ``key``: the first (N E S
        W) that the move lies within two squares of or at most ``size / 4`` beyond, level with
        the box give or take as much, if the box is wider than that there, so that the forced
        play of moves the keeper cannot see keeps its distance from the tiles it holds."""
        x, y = xy_of(key)
        x0, y0, x1, y1 = self.box
        d = self.size // 4
        level_x, level_y = x0 - d <= x <= x1 + d, y0 - d <= y <= y1 + d
        for side, near, spans in ((N, y0 - d <= y <= y0 + 1 and level_x, y1 - y0),
                                  (E, x1 - 1 <= x <= x1 + d and level_y, x1 - x0),
                                  (S, y1 - 1 <= y <= y1 + d and level_x, y1 - y0),
                                  (W, x0 - d <= x <= x0 + 1 and level_y, x1 - x0)):
            if side in self.cut and near and spans >= d + 2:
                return side
        return None

    def _forget(self, side):
        """FORGET: the ``size / 4`` columns or rows at ``side`` of the box emptied."""
        d = self.size // 4
        x0, y0, x1, y1 = self.box
        x0, y0, x1, y1 = {N: (x0, y0 + d, x1, y1), E: (x0, y0, x1 - d, y1),
                          S: (x0, y0, x1, y1 - d), W: (x0 + d, y0, x1, y1)}[side]
        self.box = x0, y0, x1, y1
        self.cut.add(side)
        tiles = self.position.tiles
        kept = {k: t for k, t in tiles.items()
                if x0 <= xy_of(k)[0] <= x1 and y0 <= xy_of(k)[1] <= y1}
        self._rebuild(kept, self.position.moves)

    def _rebuild(self, tiles, moves):
        variant = self.variant if not self.cut else "loop"
        self.position = Position.of_tiles(tiles, moves, variant)


def _grown(box, key):
    """``box`` (or nothing) with the square ``key`` in it."""
    x, y = xy_of(key)
    if box is None:
        return x, y, x, y
    x0, y0, x1, y1 = box
    return min(x0, x), min(y0, y), max(x1, x), max(y1, y)


def _axis(first, last, focus, n):
    """The window's first square on an axis where the tiles run from ``first`` to ``last``:
    centred if they fit in ``n``, else around ``focus`` within the tiles and their ring."""
    span = last - first + 1
    if span <= n:
        return first - (n - span) // 2
    return min(max(focus - (n - 1) // 2, first - 1), last + 1 - (n - 1))


def player_window(position, size, box=None):
    """The squares (x0, y0, x1, y1) the array holds for the search on ``position`` whose
    keeper's box is ``box`` (by default the tiles'), and whether that window cuts the game (see
    1 above)."""
    width, height = size
    box = box or position.bbox
    if box is None:
        return window_of(position, size), False
    x0, y0, x1, y1 = box
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


def edge_move(position):
    """The edge move on ``position`` (see "The edge move" above): a ``+`` just west of the
    tile of the move that last reached the game's westmost column."""
    west = row = None
    for key, _tile in position.moves:
        x, y = xy_of(key)
        if west is None or x < west:
            west, row = x, y
    key = key_of(west - 1, row)
    return key, position.tile_for(key, "+")


def keeper_pass(view, proposal):
    """The move the player plays on what the keeper holds (a KeeperView) given the search's
    ``proposal`` (a move or None), the reason ("win", "search", "safe", "legal" or None when
    the keeper has no legal move at all), and the candidates tried (see 3 above)."""
    position = view.position
    if view.box is None:              # the first move of a game: the search's
        return proposal, "search", 0
    mover = position.to_move
    first_safe = first_legal = None
    judged = {}             # legal move: whether it completes only the opponent's colour
    candidates = candidates_in_order(position)
    for tried, move in enumerate(candidates, 1):
        if not position.push(move):
            continue
        held = view.holds(move)
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
    and ``keeper_log``; without ``forgetting`` (a board with no room for it), the player
    stops answering once a move of the game finds no room in the keeper (``KeeperView.full``)."""

    def __init__(self, search, size, keeper_size=KEEPER_SIZE, keeper_log=KEEPER_LOG,
                 forgetting=True):
        self.search, self.size = search, size
        self.keeper_size, self.keeper_log, self.forgetting = keeper_size, keeper_log, forgetting
        self._view, self._replayed, self._edges = None, [], {}

    def view(self, position):
        """The KeeperView of the game that led to ``position``, replayed from the moves it has
        not seen (or from the start for another game); its own edge moves are taken on trust."""
        moves = position.moves
        if (self._view is None or moves[:len(self._replayed)] != self._replayed or
                self._view.variant != position.variant):
            self._view, self._replayed = KeeperView(position.variant, self.keeper_size,
                                                    self.keeper_log, self.forgetting), []
            self._edges = {}
        for move in moves[len(self._replayed):]:
            if self._edges.get(len(self._replayed)) == move:
                self._view.trust(move)
            else:
                self._view.play(move)
            self._replayed.append(move)
        return self._view

    def choose(self, position):
        view = self.view(position)
        if view.full:
            return PlayerChoice(None, None, None, 0, False)
        if view.blind:
            return self._edge(position, None)
        held = view.position
        window, cut = player_window(held, self.size, view.box)
        cut = cut or bool(view.cut)
        choice = self.search.choose(window_position(held, window, cut), window)
        proposal = choice.move if choice is not None else None
        move, reason, tried = keeper_pass(view, proposal)
        ring = 0
        if view.box is not None:
            x0, y0, x1, y1 = view.box
            ring = (x1 - x0 + 3) * (y1 - y0 + 3)
        if move is None and self.forgetting:
            return replace(self._edge(position, choice), keeper_trials=tried, cut=cut, ring=ring)
        if choice is not None and move != proposal:
            choice = replace(choice, move=move)
        return PlayerChoice(move, reason, choice, tried, cut, ring)

    def _edge(self, position, choice):
        """The edge move, remembered so that the keeper takes it on trust when it comes back
        in the game's moves."""
        move = edge_move(position)
        self._edges[len(position.moves)] = move
        if choice is not None:
            choice = replace(choice, move=move)
        return PlayerChoice(move, "edge", choice, 0, True)


def keeper_cycles(choice, size):
    """At most the clocks the player spends besides its search on a PlayerChoice: loading the
    window of ``size`` and the keeper's pass (every square of the box and its ring tried with
    each symbol, the fitting ones placed)."""
    width, height = size
    return (width * height * LOAD_CYCLES_PER_SQUARE +
            3 * choice.ring * KEEPER_CYCLES_PER_REFUSAL +
            choice.keeper_trials * KEEPER_CYCLES_PER_TRY)


def board_cycles(choice, size, cycles_per_trial, table=0):
    """At most the clocks the board spends on a PlayerChoice: its search's trials (the busiest
    lane's) at ``cycles_per_trial`` each, emptying its table of ``2**table`` leaf values (if it
    has one), and ``keeper_cycles``."""
    if choice.search is None:
        return keeper_cycles(choice, size)
    empty = (1 << table) if table else 0
    return choice.search.time_trials * cycles_per_trial + empty + keeper_cycles(choice, size)
