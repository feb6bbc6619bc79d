"""Tile encodings shared by the gateware and its testbenches.

A tile is the 4-bit mask of its *white* edges, exactly as in the reference engine
(``fpgatrax.host.rules.position``): bit 0 north, 1 east, 2 south, 3 west; the other two edges
are red; ``0`` is an empty square. Keeping the engine's encoding means a testbench compares
cells with ``pos.tiles`` without any translation, and every edge colour is a wire, not a
decoder.

The notation symbol of a move (``+ / \\``) travels as a 2-bit :class:`Symbol`; the array picks its
colouring from the neighbours, and the symbol's *first* colouring (the engine's
``SYMBOL_TILES[s][0]``) is the one a first move on an empty board takes.
"""

from amaranth.hdl import Cat
from amaranth.lib import enum

from fpgatrax.host.rules.position import SYMBOL_TILES, SYMBOLS

__all__ = ["TILE_BITS", "Symbol", "Direction", "first_colouring", "opposite", "fits",
           "forced_play"]

TILE_BITS = 4


class Symbol(enum.Enum, shape=2):
    """A tile type, in the order of ``fpgatrax.host.rules.position.SYMBOLS``."""
    PLUS = 0       # +
    SLASH = 1      # /
    BACKSLASH = 2  # \

    @classmethod
    def of(cls, text):
        return cls(SYMBOLS.index(text))

    @property
    def char(self):
        return SYMBOLS[self.value]


class Direction(enum.Enum, shape=2):
    """A side of a square; the value is the bit of that edge in a tile mask."""
    N = 0
    E = 1
    S = 2
    W = 3


def first_colouring(symbol):
    """The white-edge mask of ``symbol``'s first colouring (the other one is its complement)."""
    return SYMBOL_TILES[SYMBOLS[Symbol(symbol).value]][0]


def opposite(direction):
    """The side facing ``direction`` (an edge-bit index 0..3)."""
    return (direction + 2) & 3


def fits(tile, near):
    """Whether ``tile`` matches the facing edge of every occupied neighbour in ``near`` (the
    four neighbours' tiles, N, E, S, W; 0 empty)."""
    return Cat(~near[d].any() | (tile[d] == near[d][opposite(d)]) for d in range(4)).all()


def forced_play(white_in, red_in, occupied):
    """Forced play in an empty square whose neighbours ``occupied`` (4 bits, N E S W) send
    ``white_in`` and ``red_in`` edges into it: (``forced``, ``three``, ``tile``). Two entering
    edges of one colour force the unique tile joining them (``forced``, ``tile``); three of
    one colour make the turn illegal (``three``)."""
    two_white = _at_least_two(white_in) & ~_at_least_three(white_in)
    three = _at_least_three(white_in) | _at_least_three(red_in)
    forced = (_at_least_two(white_in) | _at_least_two(red_in)) & ~three
    # With two white entries the tile is white exactly there; otherwise (two red) it is white
    # wherever no red edge enters.
    tile = Cat(white_in[d] | (~occupied[d] & ~two_white) for d in range(4))
    return forced, three, tile


def _at_least_two(bits):
    return Cat(bits[i] & bits[j] for i in range(4) for j in range(i + 1, 4)).any()


def _at_least_three(bits):
    return Cat(bits[i] & bits[j] & bits[k]
               for i in range(4) for j in range(i + 1, 4) for k in range(j + 1, 4)).any()
