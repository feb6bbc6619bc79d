"""The reference rules engine: a Trax position, forced play, wins.

This module is the single source of truth for the rules of ``docs/rules.md``. The gateware, the
referee and every bot are checked against it, so it favours exactness first and speed second,
but it is written to be fast in CPython: a move only touches the squares next to the tiles it
places, never the whole board.

Representation
--------------
A placed tile is its four edge colours, stored as a 4-bit mask of the edges that are *white*
(bit 0 north, 1 east, 2 south, 3 west); the other two edges are red. There are six such masks.
A square is an integer key ``(y + ORIGIN) * STRIDE + (x + ORIGIN)`` so that the four neighbours
are ``key ± 1`` and ``key ± STRIDE``.

Besides the tiles the position keeps its *frontier*: every empty square next to a tile, with the
colours entering it as an 8-bit mask (white edges in the low nibble, red in the high one). That
is the same information each cell of the systolic array holds, and it makes three things cheap:
candidate squares are the frontier's keys, the colouring of a placed tile is a table lookup, and
forced play only has to look at frontier entries that a new tile changed.
"""

from dataclasses import dataclass
from typing import TypeAlias

from fpgatrax.host.rules.columns import column_name
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.variant import Variant, variant_named

__all__ = [
    "N", "E", "S", "W", "SYMBOLS", "WHITE", "RED", "IllegalMove", "Position",
    "TILES", "tile_symbol", "key_of", "xy_of", "Move", "Bbox", "Outcome",
]

N, E, S, W = range(4)
WHITE, RED = 0, 1
SYMBOLS = "+/\\"

STRIDE = 1 << 13
ORIGIN = STRIDE // 2
DELTA = (-STRIDE, 1, STRIDE, -1)

# The two colourings of each symbol, as white-edge masks.
SYMBOL_TILES = {"+": (0b0101, 0b1010), "/": (0b1001, 0b0110), "\\": (0b0011, 0b1100)}
TILES = tuple(t for pair in SYMBOL_TILES.values() for t in pair)
_TILE_SYMBOL = {t: s for s, pair in SYMBOL_TILES.items() for t in pair}

#: A move or a placed tile: (square key, tile).
Move: TypeAlias = tuple[int, int]
#: (min_x, min_y, max_x, max_y) of the tiles in play.
Bbox: TypeAlias = tuple[int, int, int, int]


def tile_symbol(tile: int) -> str:
    """The notation symbol (``+``, ``/`` or ``\\``) of a placed tile."""
    return _TILE_SYMBOL[tile]


def key_of(x: int, y: int) -> int:
    if not (-ORIGIN < x < ORIGIN and -ORIGIN < y < ORIGIN):
        raise ValueError(f"square ({x}, {y}) is outside the engine's {STRIDE}-square plane")
    return (y + ORIGIN) * STRIDE + (x + ORIGIN)


def xy_of(key: int) -> tuple[int, int]:
    y, x = divmod(key, STRIDE)
    return x - ORIGIN, y - ORIGIN


_Tiles = tuple[int, ...]


# Tables made once, at import (mutation testing cannot reach code that runs before the tests:
# it is marked so; the tables are checked through every rule that reads them).
def _popcount4(m: int) -> int:  # pragma: no mutate block
    return (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1)


def _entry_tables() -> tuple[tuple[int, ...], tuple[_Tiles, ...]]:  # pragma: no mutate block
    """For each entry mask (white nibble | red nibble << 4) of an empty square: what is forced
    there (a tile, 0 for nothing, -1 for an illegal square) and which tiles fit there."""
    forced = [0] * 256
    fits: list[tuple[int, ...]] = [()] * 256
    for entry in range(256):
        white, red = entry & 0xF, entry >> 4
        if white & red:
            forced[entry] = -1
            continue
        nw, nr = _popcount4(white), _popcount4(red)
        if nw >= 3 or nr >= 3:
            forced[entry] = -1
        elif nw == 2:
            forced[entry] = white
        elif nr == 2:
            forced[entry] = red ^ 0xF
        fits[entry] = tuple(t for t in TILES if t & white == white and t & red == 0)
    return tuple(forced), tuple(fits)


FORCED, FITS = _entry_tables()
# ENTER[tile][d]: the entry bit that ``tile``'s edge on side ``d`` sets in the neighbour there.
ENTER = [[0] * 4 for _ in range(16)]
for _t in TILES:
    for _d in range(4):
        _bit = 1 << ((_d + 2) & 3)
        ENTER[_t][_d] = _bit if _t >> _d & 1 else _bit << 4


class IllegalMove(UserError):
    """A move that breaks the rules; the message says which rule."""


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game: ``winner`` is WHITE, RED or None for a draw."""
    winner: int | None
    how: str           # "loop", "line", "draw"
    move_number: int   # 1-based number of the move that ended the game


class Position:
    """A Trax position in one of the variants ``standard``, ``8x8`` or ``loop``.

    ``play`` and ``undo`` change it in place; ``copy`` makes an independent one. Moves are
    ``(key, tile)`` pairs in absolute board coordinates; ``notation.py`` converts them to and from
    the relative notation of the game.
    """

    #: Where the last illegal ``_make`` failed (set by ``_make`` only).
    _bad_square: int

    def __init__(self, variant: str | Variant = "standard") -> None:
        self.variant = variant_named(variant)
        self.tiles: dict[int, int] = {}
        self.frontier: dict[int, int] = {}
        self.bbox: Bbox | None = None   # (min_x, min_y, max_x, max_y) of the tiles in play
        self.moves: list[Move] = []     # the placed (key, tile) of each turn, in order
        self.outcome: Outcome | None = None
        # Per turn: the bbox before it, the squares it placed, the (square, old entry) it changed.
        self._undo_log: list[tuple[Bbox | None, list[int], list[tuple[int, int]]]] = []

    @classmethod
    def of_tiles(cls, tiles: dict[int, int], moves: list[Move],
                 variant: "str | Variant" = "standard") -> "Position":
        """A position holding only ``tiles`` (part of a game after ``moves``, with its forced
        play done, so that no square of it is forced), the side to move that of the game: what
        a tile array sees when it holds a window of a larger game. Turns can be pushed on it;
        ``moves`` is not replayed."""
        position = cls(variant)
        position.tiles = dict(tiles)
        position.moves = list(moves)
        for key, tile in tiles.items():
            enter = ENTER[tile]
            for d in range(4):
                n = key + DELTA[d]
                if n not in tiles:
                    position.frontier[n] = position.frontier.get(n, 0) | enter[d]
        if tiles:
            xs, ys = zip(*map(xy_of, tiles), strict=True)
            position.bbox = (min(xs), min(ys), max(xs), max(ys))
        return position

    # -- queries ------------------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        """WHITE or RED: whose turn it is."""
        return len(self.moves) & 1

    def copy(self) -> "Position":
        other = Position.__new__(Position)
        other.variant = self.variant
        other.tiles = dict(self.tiles)
        other.frontier = dict(self.frontier)
        other.bbox = self.bbox
        other.moves = list(self.moves)
        other.outcome = self.outcome
        other._undo_log = list(self._undo_log)
        return other

    def size(self) -> tuple[int, int]:
        """(columns, rows) spanned by the tiles in play; (0, 0) when the board is empty."""
        if self.bbox is None:
            return 0, 0
        x0, y0, x1, y1 = self.bbox
        return x1 - x0 + 1, y1 - y0 + 1

    def first_moves(self) -> list[Move]:
        origin = key_of(0, 0)
        return [(origin, SYMBOL_TILES["/"][0]), (origin, SYMBOL_TILES["+"][0])]

    def candidates(self) -> list[Move]:
        """Every (key, tile) that fits its neighbours' colours, legal or not after forced play."""
        if not self.tiles:
            return self.first_moves()
        return [(k, t) for k, e in self.frontier.items() for t in FITS[e]]

    def legal_moves(self) -> list[Move]:
        """Every legal move, each (square, symbol) once."""
        if not self.tiles:
            return self.first_moves()
        legal: list[Move] = []
        for k, e in list(self.frontier.items()):
            for t in FITS[e]:
                if self._quiet(k, t) or self._try(k, t):
                    legal.append((k, t))
        return legal

    def count_legal_moves(self) -> int:
        if not self.tiles:
            return 2
        count = 0
        for k, e in list(self.frontier.items()):
            for t in FITS[e]:
                if self._quiet(k, t) or self._try(k, t):
                    count += 1
        return count

    def check(self, move: Move) -> None:
        """Raise IllegalMove saying why ``move`` is illegal here; return None if it is legal."""
        key, tile = move
        if self.outcome is not None:
            raise IllegalMove("the game is already over")
        if tile not in _TILE_SYMBOL:
            raise IllegalMove(f"{tile!r} is not a tile")
        if not self.tiles:
            if key != key_of(0, 0) or tile_symbol(tile) == "\\":
                raise IllegalMove("the first move must be @0/ or @0+")
            return
        if key in self.tiles:
            raise IllegalMove("the square is occupied")
        if key not in self.frontier:
            raise IllegalMove("the square is not next to a tile")
        if tile not in FITS[self.frontier[key]]:
            raise IllegalMove("its colours do not match the neighbouring tiles")
        if not self._inside_limit(key):
            raise IllegalMove(f"it would make the tiles span more than {self.variant.span_limit} "
                              "columns or rows")
        bad = self._forced_play_conflict(key, tile)
        if bad is not None:
            raise IllegalMove(f"three edges of one colour would enter {self._square_name(bad)}")

    def tile_for(self, key: int, symbol: str) -> int:
        """The colouring of ``symbol`` that fits the neighbours of ``key`` (or on an empty board,
        the first-move colouring); raise IllegalMove if neither does."""
        pair = SYMBOL_TILES[symbol]
        if not self.tiles:
            return pair[0]
        if key in self.tiles:
            raise IllegalMove("the square is occupied")
        if key not in self.frontier:
            raise IllegalMove("the square is not next to a tile")
        for t in pair:
            if t in FITS[self.frontier[key]]:
                return t
        raise IllegalMove("its colours do not match the neighbouring tiles")

    # -- moves --------------------------------------------------------------------------------

    def play(self, move: Move) -> Outcome | None:
        """Play a whole turn: the tile, forced play, then the win check. Raise IllegalMove (and
        leave the position as it was) if the turn is illegal. Return the Outcome or None."""
        self.check(move)
        self._make(*move)
        self.moves.append(move)
        self.outcome = self._judge()
        if self.outcome is None and self.variant.span_limit and self.count_legal_moves() == 0:
            self.outcome = Outcome(None, "draw", len(self.moves))
        return self.outcome

    def push(self, move: Move) -> bool:
        """Play a fitting move (one of ``candidates()``) for a search. If the turn is legal, play
        it, judge ``outcome`` and return True; if not, return False with the position unchanged.
        Faster than ``play``: no reason is worked out and 8x8 draws are not looked for."""
        key, tile = move
        if self.tiles and not self._inside_limit(key):
            return False
        if not self._make(key, tile):
            self._unmake()
            return False
        self.moves.append(move)
        self.outcome = self._judge()
        return True

    def undo(self) -> None:
        """Take back the last turn played with ``play`` or ``push``."""
        self.moves.pop()
        self.outcome = None
        self._unmake()

    def placed_last(self) -> list[int]:
        """The squares of the tiles placed by the last turn, forced ones included."""
        return list(self._undo_log[-1][1]) if self._undo_log else []

    # -- internals ----------------------------------------------------------------------------

    def _inside_limit(self, key: int) -> bool:
        """False if a tile at ``key`` would make the tiles span more than the variant allows."""
        limit = self.variant.span_limit
        if limit is None:
            return True
        x, y = xy_of(key)
        x0, y0, x1, y1 = self.bbox  # type: ignore[misc]  # callers have tiles, so a bbox
        return max(x1, x) - min(x0, x) < limit and max(y1, y) - min(y0, y) < limit

    def _quiet(self, key: int, tile: int) -> bool:
        """True if placing ``tile`` at ``key`` forces nothing (so it is legal at once)."""
        if not self._inside_limit(key):
            return False
        tiles, frontier, enter = self.tiles, self.frontier, ENTER[tile]
        for d in range(4):
            n = key + DELTA[d]
            if n not in tiles and FORCED[frontier.get(n, 0) | enter[d]]:
                return False
        return True

    def _try(self, key: int, tile: int) -> bool:
        if not self._inside_limit(key):
            return False
        ok = self._make(key, tile)
        self._unmake()
        return ok

    def _square_name(self, xy: tuple[int, int]) -> str:
        """A square in the notation's coordinates of this position (before the move)."""
        x, y = xy
        col, row = x - self.bbox[0] + 1, y - self.bbox[1] + 1  # type: ignore[index]  # tiles in play
        if col < 0 or row < 0:
            return "a square beyond column @ or row 0"
        return f"square {column_name(col)}{row}"

    def _forced_play_conflict(self, key: int, tile: int) -> tuple[int, int] | None:
        """None if forced play after ``tile`` at ``key`` succeeds, else the square (x, y) where
        three edges of one colour meet."""
        ok = self._make(key, tile)
        bad = None if ok else self._bad_square
        self._unmake()
        return None if bad is None else xy_of(bad)

    def _make(self, key: int, tile: int) -> bool:
        """Place ``tile`` and resolve forced play. Always pushes an undo record; returns False
        (with ``_bad_square`` set) when the turn is illegal, True otherwise."""
        tiles, frontier = self.tiles, self.frontier
        placed: list[int] = []
        changed: list[tuple[int, int]] = []
        self._undo_log.append((self.bbox, placed, changed))
        x, y = xy_of(key)
        if self.bbox is None:
            self.bbox = (x, y, x, y)
        else:
            x0, y0, x1, y1 = self.bbox
            if not (x0 <= x <= x1 and y0 <= y <= y1):
                self.bbox = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))
        pending = [(key, tile)]
        while pending:
            k, t = pending.pop()
            if k in tiles:
                continue
            e = frontier.get(k, 0)
            if e:
                if t == 0:                     # forced: what the entries say now
                    t = FORCED[e]
                    if t < 0:
                        self._bad_square = k
                        return False
                changed.append((k, e))
                del frontier[k]
            tiles[k] = t
            placed.append(k)
            enter = ENTER[t]
            for d in range(4):
                n = k + DELTA[d]
                if n in tiles:
                    continue
                old = frontier.get(n, 0)
                new = old | enter[d]
                changed.append((n, old))
                frontier[n] = new
                f = FORCED[new]
                if f < 0:
                    self._bad_square = n
                    return False
                if f:
                    pending.append((n, 0))
        return True

    def _unmake(self) -> None:
        bbox, placed, changed = self._undo_log.pop()
        self.bbox = bbox
        tiles, frontier = self.tiles, self.frontier
        for k in placed:
            del tiles[k]
        for k, e in reversed(changed):
            if e:
                frontier[k] = e
            else:
                frontier.pop(k, None)

    def _judge(self) -> Outcome | None:
        """Wins after the last turn: only tracks through the tiles it placed can be new."""
        mover = (len(self.moves) - 1) & 1
        found: dict[int, str] = {}
        seen: set[tuple[int, int]] = set()
        for k in self._undo_log[-1][1]:
            for colour in (WHITE, RED):
                if (k, colour) in seen:
                    continue
                how = self._track_result(k, colour, seen)
                if how is not None and colour not in found:
                    found[colour] = how
        if not found:
            return None
        winner = mover if mover in found else 1 - mover
        return Outcome(winner, found[winner], len(self.moves))

    def track_ends(self, start: int, colour: int, seen: set[tuple[int, int]] | None = None
                   ) -> list[tuple[int, int]] | None:
        """Follow the ``colour`` track through the tile at ``start`` both ways: its two ends as
        (last tile, side it leaves by), or None if it is a loop. Adds each (tile, colour) it
        passes to ``seen`` if given."""
        tiles = self.tiles
        ends: list[tuple[int, int]] = []
        mask = tiles[start] if colour == WHITE else tiles[start] ^ 0xF
        for first in (d for d in range(4) if mask >> d & 1):
            k, d = start, first
            while True:
                if seen is not None:
                    seen.add((k, colour))
                n = k + DELTA[d]
                t = tiles.get(n)
                if t is None:
                    ends.append((k, d))
                    break
                if n == start:
                    return None
                back = (d + 2) & 3
                m = (t if colour == WHITE else t ^ 0xF) & ~(1 << back)
                d = (m & -m).bit_length() - 1
                k = n
        return ends

    def winning_track(self) -> set[int]:
        """The squares of the loop or line that won the game (empty while it goes on, after a
        draw, or when it was not won by a track): the winner's track through a tile of the last
        turn that makes the outcome's loop or line."""
        outcome = self.outcome
        if outcome is None or outcome.winner is None or outcome.how not in ("loop", "line"):
            return set()
        for key in self.placed_last():
            track: set[tuple[int, int]] = set()
            if self._track_result(key, outcome.winner, track) == outcome.how:
                return {k for k, _ in track}
        return set()

    def _track_result(self, start: int, colour: int, seen: set[tuple[int, int]]) -> str | None:
        """Follow the ``colour`` track through ``start``: "loop", "line" or None."""
        ends = self.track_ends(start, colour, seen)
        if ends is None:
            return "loop"
        span = self.variant.line_span
        if span is None:
            return None
        x0, y0, x1, y1 = self.bbox  # type: ignore[misc]  # a turn was played, so a bbox
        sides = set()
        for k, d in ends:
            x, y = xy_of(k)
            if d == W and x == x0:
                sides.add(W)
            elif d == E and x == x1:
                sides.add(E)
            elif d == N and y == y0:
                sides.add(N)
            elif d == S and y == y1:
                sides.add(S)
        if {W, E} <= sides and x1 - x0 + 1 >= span:
            return "line"
        if {N, S} <= sides and y1 - y0 + 1 >= span:
            return "line"
        return None
