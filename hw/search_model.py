"""The Python model of the hardware move search: the same choice as the gateware, without cycles.

The search FSM in ``hw/`` and this model implement one algorithm, step for step, so that the
player's strength can be measured at Python speed and its speed in cycles. The algorithm:

1. **Candidates** at any point of the search are the fitting (square, symbol) pairs of the
   position there, in raster order (top row first, left to right), symbols in the order
   ``+ / \\``. On an empty board they are ``@0+`` then ``@0/``. Raster order does not change when
   the array shifts its contents, so the gateware and the model agree whatever the array offset.
2. **Win pass.** Every candidate is tried; the first legal one that wins for the mover is played.
   Then, with a threat-space search (``tss`` plies, see 10), that; then the negamax.
3. **Negamax, deepening.** Otherwise every candidate is searched 1 ply deep (its own ply), then
   every candidate 2 plies deep, and so on up to ``depth``: each iteration a negamax with
   alpha-beta pruning, each ply on its own trial level of the array. A
   move that ends the game is worth ``WIN - ply`` to its mover if it completes the mover's colour
   (a win sooner is worth more), ``ply - WIN`` if it completes only the opponent's, where ``ply``
   is 1 for the move searched at the root. An illegal move is skipped; a position with no legal
   move is worth 0.
4. **Leaf evaluation**, at ply ``depth + 1`` (deeper after an attack, see 5): every candidate of the
   side to move is tried. If one wins for it, the leaf is worth ``WIN - ply`` to it. Otherwise three
   counts of squares (each at most ``MAX_COUNT``) make its value, ``MINE_WEIGHT * mine - theirs -
   THREAT_WEIGHT * threats`` kept within ``±LEAF_LIMIT``:

   - *threats*: squares on which a move would complete only the opponent's colour, the
     opponent's threats, which the side to move must parry;
   - *mine*, *theirs*: squares on which a move that ends nothing leaves a loop threat of the
     side to move's colour, of the opponent's (``makes_threat``): the placed tile's track of
     that colour ends in two adjacent squares, one tile from closing. These are the tracks
     one move from a threat, the positional sense the search would otherwise lack. *mine*
     counts ``MINE_WEIGHT`` (2) times: the side to move makes its attack first, and the
     opponent must answer it (in sparring against a C++ engine the double weight won 220 games
     of 300 against 198 for equal weights, and 174 for triple; docs/measurements.md).

   With ``every_attack`` (an array that labels its tracks) *mine* and *theirs* count the
   squares after whose move that colour holds an attack anywhere (``holds_attack``) instead,
   and a candidate after which the side to move holds two attacks or more and the opponent
   none (a *double attack*, ``attacks_held``) makes the leaf worth ``WIN - ply - DOUBLE_PLIES``
   to it whatever the counts: the opponent can parry one attack only, and the side to move
   closes the other loop two plies later. The leaf at the horizon thereby sees the quiet move
   before a winning attack, which only a search one ply deeper would otherwise (in sparring
   against a C++ engine at a tenth of the board's budgets it won 244 games of 300 against 220
   without: 25 won that were lost, 1 lost that was won; docs/measurements.md).

   Only a win ends the scan early (a count cannot: a win later in the scan would outweigh it).
5. **Attacks.** Every negamax trial also reports whether the placed tile's track of the mover's
   colour now ends in two adjacent squares inside the window (``threat_pair``): an *attack*,
   one tile from a loop. A track's ends change only when a tile fills one of those squares, so:

   - **Check evasions.** In a node whose opponent's move just made an attack (an *evasion
     node*, from ply 2 on), a legal move that ends nothing and leaves both squares of the
     attack empty is worth ``ply + 1 - WIN`` at once, lost at the next ply (the opponent
     closes the loop there), without a deeper search: only the moves that fill a square of
     the attack, with the tile itself or by its forced play, are searched on, besides the
     side's own wins, which end the game first. The node tries its candidates as any node
     does (its killer first), so no parry is missed; after each trial the gateware reads the
     attack's two squares. A non-evasion is refuted by this one trial instead of a subtree,
     and a third of real positions are under attack. (The closing tile always fits its
     square; the value assumes its forced play stays legal too, which a contradiction
     further along the forced play, or the 8x8 game's bounds, can deny.)
   - **Every attack** (``every_attack``, on an array that labels its tracks): every negamax
     trial reports instead whether each colour holds an attack anywhere in the window
     (``holds_attack``: any track, made by this move, by its forced play or before). A move
     that ends nothing and leaves the opponent an attack is worth ``ply + 1 - WIN`` at once, at
     every ply (the opponent closes that loop next); a move after which the mover holds one
     made an attack. Unlike the squares of the placed tile's track, this sees attacks made
     by forced play, and every attack of a double one.
   - **Attack extensions.** A move at the search's horizon (or up to ``extension - 1`` plies
     beyond it) that makes an attack is not valued by a leaf scan at once: its evasion node
     is searched one ply deeper, so that a double attack, which no evasion parries, is seen
     as the win it is. The array needs ``depth + 1 + extension`` trial levels.
6. **Move order.** Each ply first tries one move, then the candidates in raster order: at the
   root the choice of the last finished iteration (from the second iteration on), at deeper
   plies the *killer* of that ply, the last move there that cut a node off (a value of at least
   beta) or won a leaf, anywhere in this search. The killer is tried only if it is a candidate
   here (the same square and symbol). Met again in raster order, the first move is tried again
   (a trial, as the gateware spends it) but not valued again; at a leaf, where it is only looked
   at for a win, it is counted as any candidate. Refutations repeat across siblings, so this
   prunes several times more than raster order alone.
7. **The choice** is the first root candidate of the highest value (in the order searched)
   in the last iteration, or in the one the trial limit cut short (8).
8. **Trial limit.** Every tried move that places a tile is a *trial*. With a trial limit, the
   search stops when a trial of the negamax brings the count to the trial limit (that trial is
   not looked at). The unfinished iteration's best move so far is played if it valued one
   (its first move is the last finished iteration's choice, now searched a ply deeper), else
   the deepest finished iteration's choice, or, if none finished, the first legal candidate.
   So a trial limit trades depth for time, move by move.
9. **Window.** The array is finite: before each search the player centres the tiles in it
   (the leftmost tile column at array column ``(width - columns) // 2``, likewise for rows), and
   squares outside the array are never tried. ``window=(width, height)`` makes the model skip
   the same squares; None models an unbounded array.
10. **Threat-space search.** Forced wins are found far deeper than the negamax reaches by
    searching only forcing moves: the mover (odd plies) plays only moves that make an attack,
    the opponent only replies to them. It is the negamax of 3 and 5 with these changes: the
    root scans its candidates on the window (0, 1); a move that ends the game is valued as
    there; any other move of the mover that makes no attack, and any move at ply ``tss``, is
    worth 0 (nothing proven); every other move is searched by the node after it (an evasion
    node when it made an attack), never a leaf scan. The first root move whose
    value is above 0 (a proven win) is played at once. Without one, or when a trial brings the
    count to ``tss_trials`` (that trial is not looked at), the negamax starts from its first
    iteration, its trial count going on from there; the killers stay as the threat-space
    search left them. The array needs ``tss`` trial levels.
11. **Lanes.** On a large device several searches run at once, each on its own copy of the
    array (a *lane*), and split the root's moves by square: lane ``k`` of ``lanes`` takes the
    squares whose array coordinates have ``(x + y) % lanes == k`` at the root (the win pass,
    the threat-space search's root and every iteration's), and everything below them. Each
    lane is this search on its share, with the whole trial limit; :mod:`.lanes_model` says how
    their answers make one.

12. **Table of leaf values** (``table``, the devices with block RAM to spare). A leaf is often
    reached twice in one search: the same moves in another order (moves of one side commute)
    make the same position; so do different moves whose forced play ends in the same tiles,
    which this table does not catch (their paths' keys differ). Each leaf position has a
    key, the XOR of a random number per (array square, symbol) of the moves on its path from
    the root (``zobrist_table``); a table of ``2**table`` entries, indexed by the key's low
    bits and checked by the rest, keeps the value of each leaf scanned (the last one at each
    index), and a leaf whose key is there takes that value without a trial. A leaf's value
    depends only on its position and ply (the killer it tries first changes only the trials),
    and a path's length is its ply, so the value is the scan's, but for keys that collide
    (a filled entry's check passes wrongly about once in ``2**(32 - table)`` probes) or a
    symbol that ends up a different tile on two paths. The table is
    emptied at every search's start; a leaf cut short by the trial limit is not kept, and a
    leaf taken from the table sets no killer.
13. **Veto** (``veto`` plies, with ``every_attack``). The negamax looks 3 plies ahead and the
    opponent's forced wins can be longer: in the losses of the 85F's model to a C++ engine at
    full time, most were decided at a move where other moves held against the opponent's
    7-ply threat-space search (docs/measurements.md). So in the last iteration (``depth``)
    every root move whose value would make it the new best, unless it is not above the
    refuted value, is checked first: it is tried again (a trial) and the threat-space search
    of 10 runs after it with the roles turned, the opponent attacking at even plies, from the
    opponent's node at ply 2 on the null window (0, 1), the plies ending at ``veto + 1``. If
    the opponent's value is above 0 (a proven win), the move is worth ``veto + 1 - WIN``
    instead (lost by then at the latest: below every leaf's value, above the losses the
    negamax sees sooner), and the scan goes on, so the next best move gets its chance. The
    veto gives up (the move keeps its value) when its trials reach ``veto_trials`` from its
    start; the trial limit stops the search in it as anywhere. Killers it sets stay. The
    array needs ``veto + 1`` trial levels.

The cost of a choice is counted in trials, exactly as the gateware spends them (each one a TRY
command that places a tile). ``Choice.trials`` reports it. A draw (in the 8x8 variant, no legal
move left) is not a result the array reports: the search plays on into it, finds no legal move
and scores the position 0, which is what a draw is worth.
"""

import random
from contextlib import contextmanager
from dataclasses import dataclass

from fpgatrax.host.rules.position import (
    DELTA,
    FITS,
    SYMBOL_TILES,
    SYMBOLS,
    key_of,
    tile_symbol,
    xy_of,
)

__all__ = ["SearchModel", "Choice", "SearchValues", "candidates_in_order",
           "window_of", "threat_pair", "makes_threat", "holds_attack", "attacks_held", "WIN",
           "MAX_COUNT", "MINE_WEIGHT", "THREAT_WEIGHT", "DOUBLE_PLIES",
           "LEAF_LIMIT", "DEFAULT_DEPTH", "DEFAULT_EXTENSION", "DEFAULT_TSS", "CYCLES_PER_TRIAL",
           "CYCLES_PER_TRIAL_BOTH", "CYCLES_PER_TRIAL_LABELS", "cycles_per_trial",
           "levels_of", "check_lane", "check_attack_settings", "check_table", "tss_trials_for",
           "veto_trials_for", "VETO_SHARE",
           "zobrist_table", "move_key_index", "TABLE_KEY_BITS"]

WIN = 34               # the value of a win at ply 0; |values| never reach WIN + 1 (34: a double
                       # attack at the deepest leaf of the deepest search, WIN // 4 = 8 plies
                       # and one after attacks, still outranks every leaf value)
MAX_COUNT = 15         # the leaf counts squares up to this
MINE_WEIGHT = 2        # the side to move's attack-making squares count double: it moves first
THREAT_WEIGHT = 4      # an opponent's threat outweighs four squares that make a threat
DOUBLE_PLIES = 2       # a double attack at a leaf wins two plies later: a loop closes there
LEAF_LIMIT = 20        # |a leaf's value| at most: below any win (WIN - ply) the search can see
DEFAULT_DEPTH = 3
DEFAULT_EXTENSION = 1  # plies an attack made at or beyond the horizon may extend the search
DEFAULT_TSS = 7        # plies of the threat-space search (the boards with the check evasions)
TSS_SHARE = 4          # the threat-space search gives up at 1/TSS_SHARE of the trial limit
VETO_SHARE = 8         # each veto's threat-space search gives up after 1/VETO_SHARE of it
#: The most cycles one trial of the gateware search takes on average over a whole search, as
#: measured by ``python -m fpgatrax.host.bench.movetime --measure``, with a fifth added: for
#: the current search (killer moves, every negamax trial with the threat passes, check evasions
#: that read the attack's squares) on the controller whose passes start as the last one goes
#: quiet, the highest was 75.0 (median 46.3) on an array that follows one colour per detection
#: pass. The boards' trial limits and the ``model`` player's time follow from it.
CYCLES_PER_TRIAL = 90
#: The same for an array that follows both colours at once (``both_colours``): on the same
#: searches the highest was 62.0 (median 33.3).
CYCLES_PER_TRIAL_BOTH = 75
#: The same for an array that labels its tracks (``labels``, the search with ``every_attack``),
#: one colour per pass: on the same searches the highest was 98.1 (median 52.5).
CYCLES_PER_TRIAL_LABELS = 118


#: The bits of a position's key for the table of leaf values (see 12 in the module docstring).
TABLE_KEY_BITS = 32


def move_key_index(x, y, symbol, width, height):
    """Where the random key of (array square, symbol number) lies in ``zobrist_table``: the
    bits of y, x and the symbol side by side (the gateware's ROM address, with no arithmetic)."""
    return (y << ((width - 1).bit_length() + 2)) | (x << 2) | symbol


def zobrist_table(width, height):
    """The random key of each (square, symbol) of a ``width`` × ``height`` array, at
    ``move_key_index`` (every index of its bits, used or not): a leaf position's key is the XOR
    of its path's moves'. The gateware's ROM holds the same numbers (a generator seeded with
    the array's size)."""
    rng = random.Random(f"fpgatrax leaf table {width}x{height}")
    size = 1 << ((width - 1).bit_length() + (height - 1).bit_length() + 2)
    return [rng.getrandbits(TABLE_KEY_BITS) for _ in range(size)]


def cycles_per_trial(both_colours=False, labels=False):
    """The most cycles per trial (on average over a search) of the array kind (an array that
    labels its tracks has been measured following one colour per pass only)."""
    if labels:
        if both_colours:
            raise ValueError("cycles per trial of an array that labels its tracks and follows "
                             "both colours at once have not been measured")
        return CYCLES_PER_TRIAL_LABELS
    return CYCLES_PER_TRIAL_BOTH if both_colours else CYCLES_PER_TRIAL


def levels_of(depth, extension, tss, veto=0):
    """The trial levels the array needs: one per ply of the deepest search (a veto's is the
    root move's and its own plies)."""
    return max(depth + 1 + extension, tss, 1 + veto)


def tss_trials_for(max_trials: int, tss: int) -> int:
    """The trial count at which a board's threat-space search of ``tss`` plies gives up: a
    ``TSS_SHARE``-th of its trial limit (0 without a limit or a threat-space search)."""
    return max_trials // TSS_SHARE if tss else 0


def veto_trials_for(max_trials: int, veto: int) -> int:
    """The trials a board's veto of ``veto`` plies may spend on one root move before it gives
    up: a ``VETO_SHARE``-th of its trial limit (0 without a limit or a veto)."""
    return max_trials // VETO_SHARE if veto else 0


def check_lane(lane, lanes):
    """Refuse, with a ValueError, a lane that is not one of ``lanes``."""
    if not 0 <= lane < lanes:
        raise ValueError(f"lane {lane} is not one of lanes 0 to {lanes - 1}")


def check_table(table, window):
    """Refuse, with a ValueError, a table of leaf values of ``2**table`` entries that is not
    from 2 to 2**16 entries (0: none) or that has no array window to key its moves by."""
    if not isinstance(table, int) or not (table == 0 or 1 <= table <= 16):
        raise ValueError(f"the table of leaf values has 2**table entries, table from 1 to 16 "
                         f"(0: none), not {table!r}")
    if table and window is None:
        raise ValueError("the table of leaf values keys moves by array square: it needs a window")


def check_attack_settings(evasions, extension, max_trials, tss, tss_trials, every_attack=False,
                          veto=0):
    """Refuse, with a ValueError, settings of the attack searches that do not go together
    (``max_trials``, ``tss_trials`` and ``veto`` 0 for none)."""
    if veto and (not 3 <= veto < WIN - 1 - LEAF_LIMIT or veto % 2 == 0):
        raise ValueError(f"the veto is an odd number of plies from 3 to "
                         f"{(WIN - 2 - LEAF_LIMIT - 1) | 1} (it ends with the opponent's, and "
                         f"a refuted move must rank below every leaf), or 0 for none, not {veto}")
    if veto and not every_attack:
        raise ValueError("the veto needs every attack judged (every_attack=1, or veto=0)")
    if every_attack and not evasions:
        raise ValueError("judging every attack needs the evasions (every_attack=0 without them)")
    if extension < 0:
        raise ValueError("the extension is at least 0 plies")
    if extension and not evasions:
        raise ValueError("an extension needs the evasions (extension=0 without them)")
    if tss and (not 3 <= tss < WIN // 2 or tss % 2 == 0):
        raise ValueError(f"the threat-space search is an odd number of plies from 3 to "
                         f"{(WIN // 2 - 2) | 1} (it ends with the mover's), or 0 for none, "
                         f"not {tss}")
    if tss and not evasions:
        raise ValueError("a threat-space search needs the evasions (tss=0 without them)")
    if tss_trials < 0 or (tss_trials and max_trials and tss_trials >= max_trials):
        raise ValueError(f"the threat-space search's trial limit ({tss_trials}) must lie below "
                         f"the search's ({max_trials})")


class SearchValues:
    """The numbers a search ``depth`` plies deep (``extension`` more after attacks) computes, as
    ranges derived from the constants above: the one place the gateware (``hw/search.py``) takes its
    constants and the shapes of its value registers from (a range is an Amaranth shape:
    ``Shape.cast(range(-33, 34))`` is ``signed(7)``). Raising a constant therefore widens the
    registers instead of letting a value wrap silently, and the constructor refuses, with a
    ValueError, constants under which the search's values would stop meaning what the model says
    they mean.

    The constants are read when the object is made, so the gateware sees the values of the
    module's constants at construction (the tests patch them to check exactly this).

    Attributes
    ----------
    win, max_count, mine_weight, threat_weight, leaf_limit, double_plies, depth, extension : int
        The constants, the depth and the extension.
    inf : int
        ``win + 1``: beyond every value, the bounds of the root's (empty) window and the best
        value of a node before any move.
    value : range
        Every value: a win or a loss at ply 1 … ``depth + 1 + extension + double_plies``
        (``±(win - ply)``), a leaf's value (within ``±leaf_limit``), 0 (a position with no
        legal move), ``±inf``.
    count : range
        One of the leaf's counts of squares, ``0 … max_count``.
    leaf_sum : range
        ``mine_weight * mine - theirs - threat_weight * threats`` over all counts, before it is
        clamped to ``±leaf_limit``.
    """

    def __init__(self, depth=DEFAULT_DEPTH, extension=DEFAULT_EXTENSION):
        self.win, self.max_count = WIN, MAX_COUNT
        self.mine_weight, self.threat_weight = MINE_WEIGHT, THREAT_WEIGHT
        self.leaf_limit, self.double_plies = LEAF_LIMIT, DOUBLE_PLIES
        self.depth, self.extension = depth, extension
        for name in ("win", "max_count", "mine_weight", "threat_weight", "leaf_limit",
                     "double_plies"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < (1 if name == "max_count" else 0):
                raise ValueError(f"{name.upper()} must be a whole number"
                                 f"{' of at least 1' if name == 'max_count' else ''}, "
                                 f"not {value!r}")
        win, count, weight, limit = self.win, self.max_count, self.threat_weight, self.leaf_limit
        if not isinstance(depth, int) or not 1 <= depth <= win // 4:
            raise ValueError(f"depth must be a whole number from 1 to {win // 4}, not {depth!r}")
        if not isinstance(extension, int) or not 0 <= extension <= win // 4:
            raise ValueError(f"extension must be a whole number from 0 to {win // 4}, "
                             f"not {extension!r}")
        # The deepest leaf is valued at ply depth + 1 + extension; a double attack there is the
        # smallest win the negamax sees (the threat-space search's values are only compared
        # with 0).
        last = depth + 1 + extension + self.double_plies
        if limit >= win - last:
            raise ValueError(f"LEAF_LIMIT ({limit}) must stay below the smallest win a search "
                             f"{depth} plies deep, {extension} more after attacks, can see (a "
                             f"double attack at its deepest leaf), WIN - {last} = "
                             f"{win - last}: a leaf's value would outrank a win")
        self.inf = win + 1
        self.value = range(-self.inf, self.inf + 1)
        self.count = range(count + 1)
        self.leaf_sum = range(-(1 + weight) * count, self.mine_weight * count + 1)


def window_of(position, size):
    """The squares (x0, y0, x1, y1) that an array of ``size`` = (width, height) holds once the
    player has centred the tiles of ``position`` in it (on an empty board, the first tile's
    square at the array's centre square)."""
    width, height = size
    bx0, by0, bx1, by1 = position.bbox or (0, 0, 0, 0)
    x0 = bx0 - (width - (bx1 - bx0 + 1)) // 2
    y0 = by0 - (height - (by1 - by0 + 1)) // 2
    return x0, y0, x0 + width - 1, y0 + height - 1


def _inside(key, window):
    if window is None:
        return True
    x, y = xy_of(key)
    return window[0] <= x <= window[2] and window[1] <= y <= window[3]


def threat_pair(position, key, colour, window=None):
    """After a move that placed a tile at ``key``: if the ``colour`` track through it ends in
    two orthogonally adjacent empty squares, both inside ``window`` (an attack: one more tile
    there closes the loop), those two squares (keys), the upper or left one first; else None.
    This is what the array's TRY_THREAT reports for each colour."""
    ends = position.track_ends(key, colour)
    if ends is None:
        return None
    (a, side_a), (b, side_b) = ends
    a, b = a + DELTA[side_a], b + DELTA[side_b]
    (ax, ay), (bx, by) = xy_of(a), xy_of(b)
    if abs(ax - bx) + abs(ay - by) != 1 or not (_inside(a, window) and _inside(b, window)):
        return None
    return (a, b) if (ay, ax) < (by, bx) else (b, a)


def makes_threat(position, key, colour, window=None):
    """Whether the move that placed a tile at ``key`` made a ``colour`` attack
    (:func:`threat_pair`): the count the leaf evaluation keeps."""
    return threat_pair(position, key, colour, window) is not None


def holds_attack(position, colour, window=None):
    """Whether some ``colour`` track ends in two orthogonally adjacent empty squares, both
    inside ``window``: what an array that labels its tracks reports for each colour."""
    return attacks_held(position, colour, window, 1) == 1


def attacks_held(position, colour, window=None, most=2):
    """How many ``colour`` tracks end in two orthogonally adjacent empty squares, both inside
    ``window`` (attacks), counted up to ``most``. Two attacks lie on four different squares
    (after forced play one track of a colour at most enters an empty square), so no tile
    parries both but by its forced play: a *double attack*, which an array that labels its
    tracks reports for each colour besides whether it holds one."""
    found = 0
    frontier = position.frontier
    shift = 4 * colour                # the colour's entering edges in a frontier entry
    for a, entry in frontier.items():
        sides = entry >> shift & 0xF
        if not sides or not _inside(a, window):
            continue
        side = (sides & -sides).bit_length() - 1       # the only one after forced play
        for b in (a + DELTA[1], a + DELTA[2]):         # east, south
            other = frontier.get(b)
            if other is None or not other >> shift & 0xF or not _inside(b, window):
                continue
            ends = position.track_ends(a + DELTA[side], colour)
            if ends is not None and {key + DELTA[d] for key, d in ends} == {a, b}:
                found += 1
                if found == most:
                    return found
    return found


def candidates_in_order(position, window=None):
    """The fitting (key, tile) moves in the search's order: raster order, symbols ``+ / \\``,
    only squares inside ``window`` (x0, y0, x1, y1) when one is given."""
    if not position.tiles:
        origin = key_of(0, 0)
        return [(origin, SYMBOL_TILES["+"][0]), (origin, SYMBOL_TILES["/"][0])]
    return [move for key in sorted(position.frontier) if _inside(key, window)
            for move in _fitting(position, key)]


def _fitting(position, key):
    """The moves on the empty square ``key`` next to a tile: its fitting tiles, symbols in the
    order ``+ / \\`` (none if the square is not in the frontier)."""
    entering = position.frontier.get(key)
    if entering is None:
        return []
    fits = FITS[entering]
    return [(key, t) for pair in SYMBOL_TILES.values() for t in pair if t in fits]


@dataclass
class Choice:
    move: tuple          # (key, tile)
    reason: str          # "win", "threat" (the threat-space search's proven win), "best",
                         # "unfinished" (the trial limit ran out in an iteration that had valued
                         # a move) or "first legal" (it ran out before any)
    value: int           # the chosen move's negamax value (WIN - 1 for a win pass move)
    trials: int          # moves tried (each one a place + resolve + detect on the array)
    depth: int           # plies of the deepest finished iteration (0: none, or the win pass)
    lane_trials: tuple = ()  # with lanes, each lane's trials (``trials`` is their sum)

    @property
    def time_trials(self):
        """The trials that take the search's time: the busiest lane's (lanes run at once)."""
        return max(self.lane_trials, default=self.trials)


class _OutOfBudget(Exception):
    pass


class SearchModel:
    """The search: ``depth`` plies of negamax (at least 1), ``max_trials`` trials at most (None: no
    limit), ``window`` the array's (width, height) or None for an unbounded one, ``extension``
    plies that attacks may extend it by; without ``evasions`` the search ignores attacks (no
    evasion nodes, no extension: the iCE40 boards' search); ``tss`` plies of threat-space search
    (0: none) give up at ``tss_trials`` (None: ``max_trials``); ``every_attack`` judges attacks
    anywhere (see 5 above; it needs ``evasions``); ``table`` keeps a table of ``2**table``
    leaf values (see 12 above; 0: none; it needs a ``window``); ``veto`` plies of the opponent's
    threat-space search check each new best root move of the last iteration (see 13 above; 0:
    none), each giving up after ``veto_trials`` (None: at the trial limit). The array needs
    :func:`levels_of` trial levels. ``lane`` of ``lanes`` searches only its share of the root's
    squares (see 11 above; it needs a ``window``). After :meth:`choose`, ``iterations`` holds the
    best root move and its value of each finished iteration, deepest last."""

    def __init__(self, max_trials=None, window=None, depth=DEFAULT_DEPTH,
                 extension=DEFAULT_EXTENSION, evasions=True, tss=0, tss_trials=None,
                 lane=0, lanes=1, every_attack=False, table=0, veto=0, veto_trials=None):
        if max_trials is not None and max_trials < 1:
            raise ValueError("the trial limit is at least one trial")
        if depth < 1:
            raise ValueError("the search is at least one ply deep")
        check_attack_settings(evasions, extension, max_trials or 0, tss, tss_trials or 0,
                              every_attack, veto)
        check_lane(lane, lanes)
        if lanes > 1 and window is None:
            raise ValueError("lanes split the array's squares: they need a window")
        check_table(table, window)
        self.table = table
        self._zobrist = zobrist_table(*window) if table else None
        self.lane, self.lanes = lane, lanes
        self.iterations = []
        self.max_trials, self.window, self.depth = max_trials, window, depth
        self.extension, self.evasions, self.every_attack = extension, evasions, every_attack
        self.tss, self.tss_trials = tss, tss_trials or max_trials
        self.veto, self.veto_trials = veto, veto_trials or max_trials
        # In the threat-space search, the parity of the attacker's plies (1: odd, the mover's;
        # 0: even, the opponent's in a veto); None in the negamax.
        self._attacker = None
        self._limit = max_trials      # the trial count that stops the search running now
        self._window = None
        self._depth = depth      # the iteration's depth
        self.trials = 0

    def choose(self, position, region=None):
        """The move the player makes on ``position`` (whose side is to move), or None when no
        legal move fits in the window (the player's overflow). ``region`` (x0, y0, x1, y1) is
        where the array lies on the board, if not where centring the tiles puts it
        (``window_of``): a window of a larger game (``player_model``)."""
        self.iterations = []
        order, forced, first_legal = self._forced(position, region)
        if forced is not None or first_legal is None:
            return forced
        choice = Choice(first_legal, "first legal", -WIN - 1, self.trials, 0)
        best = None
        try:
            for depth in range(1, self.depth + 1):
                self._depth = depth
                best, best_value = None, -WIN - 1
                pv = choice.move if choice.depth else None
                for move in self._ordered(position, order, pv):
                    value = self._value(position, move, 1, -WIN - 1, WIN + 1, best_value, None)
                    if value is None or value <= best_value:
                        continue
                    if (self.veto and depth == self.depth and value > self._refuted_value
                            and self._refuted(position, move)):
                        value = self._refuted_value
                        if value <= best_value:
                            continue
                    best, best_value = move, value
                choice = Choice(best, "best", best_value, self.trials, self._depth)
                self.iterations.append((best, best_value))
        except _OutOfBudget:
            if best is not None:
                choice = Choice(best, "unfinished", best_value, self.trials, choice.depth)
            choice.trials = self.trials
        return choice

    def proven_win(self, position):
        """The Choice of a win the side to move can prove, by the win pass or (with ``tss``) the
        threat-space search, or None: what the search finds before its negamax."""
        return self._forced(position)[1]

    def _forced(self, position, region=None):
        """The search up to its negamax: the root's candidates, the win pass's or threat-space
        search's Choice (or None) and the first legal candidate (None: there is none)."""
        mover = position.to_move
        self._window = None
        if self.window is not None:
            self._window = region or window_of(position, self.window)
        order = [move for move in candidates_in_order(position, self._window)
                 if self._owns(move[0])]
        self.trials = 0
        self._killers = {}       # ply -> (square, symbol) of its killer
        self._leaves = {}        # the table of leaf values: index -> (tag, value)
        self._key = 0            # the key of the position searched: its path's moves' XOR
        self._attacker = None
        first_legal = None
        for move in order:                                  # the win pass
            self.trials += 1
            if not position.push(move):
                continue
            won = self._result(position, mover) > 0
            position.undo()
            if won:
                return order, Choice(move, "win", WIN - 1, self.trials, 0), move
            first_legal = first_legal or move
        if first_legal is None or not self.tss:
            return order, None, first_legal
        return order, self._threat_space(position, order), first_legal

    def _owns(self, key):
        """Whether this lane searches the root square ``key``."""
        if self.lanes == 1:
            return True
        x, y = xy_of(key)
        return (x - self._window[0] + y - self._window[1]) % self.lanes == self.lane

    def _threat_space(self, position, order):
        """The threat-space search (see the module docstring): the Choice of the first root
        move proven to win, or None (no proof, or the search gave up at ``tss_trials``)."""
        best = -WIN - 1
        try:
            with self._forcing(1, self.tss, self.tss_trials):
                for move in order:
                    value = self._value(position, move, 1, 0, 1, best, None)
                    if value is not None and value > best:
                        best = value
                        if best > 0:
                            return Choice(move, "threat", best, self.trials, 0)
        except _OutOfBudget:
            pass
        return None

    @contextmanager
    def _forcing(self, attacker, depth, limit):
        """Threat-space mode within the block: the side moving at plies of parity ``attacker``
        plays only moves that make an attack, the plies end at ``depth`` and the trials stop
        at ``limit``; the negamax's depth and limit come back after it."""
        saved = self._attacker, self._depth, self._limit
        self._attacker, self._depth, self._limit = attacker, depth, limit
        try:
            yield
        finally:
            self._attacker, self._depth, self._limit = saved

    @property
    def _refuted_value(self):
        """A root move's value when the veto refutes it: lost at ply ``veto + 1`` at the latest,
        below every leaf's value and above every loss the negamax sees sooner."""
        return self.veto + 1 - WIN

    def _refuted(self, position, move):
        """The veto (see 13 above): whether the opponent proves a win after the root ``move``
        (tried again, a trial) by a threat-space search of ``veto`` plies, giving up after
        ``veto_trials`` trials from its start (not refuted) or at the trial limit (the search
        stops)."""
        mover = position.to_move
        limit = self._limit if self.veto_trials is None else self.trials + self.veto_trials
        if self.max_trials is not None:
            limit = min(limit, self.max_trials)
        placed = False
        try:
            with self._forcing(0, 1 + self.veto, limit):
                placed = self._trial(position, move)
                return placed and self._node(position, 2, 0, 1,
                                             self._attack(position, move[0], mover)) > 0
        except _OutOfBudget:
            if self.max_trials is not None and self.trials >= self.max_trials:
                raise
            return False
        finally:
            if placed:
                position.undo()

    def _trial(self, position, move):
        """Try ``move``: True if it was legal (and is now played), counting the trial."""
        legal = position.push(move)
        self.trials += 1
        if self._limit is not None and self.trials >= self._limit:
            if legal:
                position.undo()
            raise _OutOfBudget
        return legal

    def _killer(self, candidates, ply):
        """The killer of ``ply`` as a move among ``candidates``, or None."""
        killer = self._killers.get(ply)
        if killer is None:
            return None
        key, symbol = killer
        return next((move for move in candidates
                     if move[0] == key and tile_symbol(move[1]) == symbol), None)

    def _remember(self, ply, move):
        self._killers[ply] = move[0], tile_symbol(move[1])

    def _ordered(self, position, candidates, first):
        """The moves to value at a node: ``first`` (if any), then ``candidates``, where
        ``first`` is tried again (a trial) but not valued again."""
        if first is not None:
            yield first
        for move in candidates:
            if move != first:
                yield move
            elif self._trial(position, move):
                position.undo()

    @staticmethod
    def _result(position, mover):
        """+1 if the move just played completed ``mover``'s colour, -1 if only the opponent's,
        0 otherwise (the game goes on, or is drawn)."""
        outcome = position.outcome
        if outcome is None or outcome.winner is None:
            return 0
        return 1 if outcome.winner == mover else -1

    def _value(self, position, move, ply, alpha, beta, best, attacked):
        """The value of ``move`` at ``ply`` for its mover, in a node whose window is (alpha,
        beta), whose best so far is ``best`` and which was under the attack ``attacked`` (the
        pair of squares made by the move before, True with ``every_attack``, or None); None if
        the move is illegal."""
        mover = position.to_move
        if not self._trial(position, move):
            return None
        self._key ^= self._move_key(move)
        try:
            result = self._result(position, mover)
            if result:
                return result * (WIN - ply)
            if self.every_attack:
                if holds_attack(position, 1 - mover, self._window):
                    return ply + 1 - WIN      # the opponent closes a loop next ply
            elif attacked is not None and not any(key in position.tiles for key in attacked):
                return ply + 1 - WIN      # the attack is left alone: it closes next ply
            attack = self._attack(position, move[0], mover)
            if self._attacker is not None and (ply == self._depth or
                                               (ply % 2 == self._attacker and attack is None)):
                return 0          # only the mover's attacks (and the replies) go on
            deeper = ply < self._depth or (attack is not None and
                                           ply < self._depth + self.extension)
            if not deeper:
                return -self._leaf(position, ply + 1)
            # The child's window is (-beta, -max(alpha, best)); it is an evasion node if this
            # move made an attack.
            return -self._node(position, ply + 1, -beta, -max(alpha, best), attack)
        finally:
            self._key ^= self._move_key(move)
            position.undo()

    def _move_key(self, move):
        """The table's random key of ``move`` (its array square and symbol), 0 without one."""
        if not self.table:
            return 0
        x, y = xy_of(move[0])
        return self._zobrist[move_key_index(x - self._window[0], y - self._window[1],
                                            SYMBOLS.index(tile_symbol(move[1])), *self.window)]

    def _attack(self, position, key, mover):
        """The attack the move that placed a tile at ``key`` made for ``mover``: its two
        squares (``threat_pair``), True with ``every_attack`` (their squares are not needed),
        None if it made none (or the search ignores attacks)."""
        if not self.evasions:
            return None
        if self.every_attack:
            return holds_attack(position, mover, self._window) or None
        return threat_pair(position, key, mover, self._window)

    def _makes(self, position, key, colour):
        """The leaf's test of a square: whether ``colour`` has an attack after the move that
        placed a tile at ``key``, made by it or (with ``every_attack``) anywhere."""
        if self.every_attack:
            return holds_attack(position, colour, self._window)
        return makes_threat(position, key, colour, self._window)

    def _node(self, position, ply, alpha, beta, attack):
        """Negamax at ``ply`` (fail-soft): the best value for the side to move, exact if it lies
        inside (alpha, beta). ``attack`` is the attack the move before made (an evasion node),
        or None."""
        best = -WIN - 1
        candidates = candidates_in_order(position, self._window)
        for move in self._ordered(position, candidates, self._killer(candidates, ply)):
            value = self._value(position, move, ply, alpha, beta, best, attack)
            if value is None or value <= best:
                continue
            best = value
            if best >= beta:
                self._remember(ply, move)
                break
        return 0 if best == -WIN - 1 else best

    def _leaf(self, position, ply):
        """The leaf evaluation for the side to move (see the module docstring), from the table
        of leaf values if it holds this position's, into it otherwise."""
        if not self.table:
            return self._scan(position, ply)
        index, tag = self._key & ((1 << self.table) - 1), self._key >> self.table
        kept = self._leaves.get(index)
        if kept is not None and kept[0] == tag:
            return kept[1]
        value = self._scan(position, ply)
        self._leaves[index] = tag, value
        return value

    def _scan(self, position, ply):
        """The leaf scan: every candidate of the side to move tried (see 4 above)."""
        mover = position.to_move
        candidates = candidates_in_order(position, self._window)
        killer = self._killer(candidates, ply)
        if killer is not None and self._trial(position, killer):      # looked at for a win
            won = self._result(position, mover) > 0
            position.undo()
            if won:
                return WIN - ply
        threats, mine, theirs = set(), set(), set()
        double = False
        for move in candidates:
            if not self._trial(position, move):
                continue
            result = self._result(position, mover)
            if not result:
                mine_made, theirs_made = (self._makes(position, move[0], colour)
                                          for colour in (mover, 1 - mover))
                if mine_made:
                    mine.add(move[0])
                if theirs_made:
                    theirs.add(move[0])
                double = double or (self.every_attack and not theirs_made and
                                    attacks_held(position, mover, self._window) == 2)
            position.undo()
            if result > 0:
                self._remember(ply, move)
                return WIN - ply
            if result < 0:
                threats.add(move[0])
        if double:
            return WIN - ply - DOUBLE_PLIES
        mine, theirs, threats = (min(len(squares), MAX_COUNT)
                                 for squares in (mine, theirs, threats))
        value = MINE_WEIGHT * mine - theirs - THREAT_WEIGHT * threats
        return max(-LEAF_LIMIT, min(LEAF_LIMIT, value))
