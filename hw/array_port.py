"""The tile array's command port: what a controller of the array sends and what it gets back.

:class:`ArrayPort` is the port as a controller sees it (declare ``Out(ArrayPort(...))``); the
array itself (:class:`~.array.TileArray`) has the flipped end, ``port``, and one
``wiring.connect`` joins the two. :class:`ArrayMux` lets two controllers share one array (the
player's own control and the search; a testbench's loader and the search), and
:func:`command_states` is the FSM states that send one command and wait for it.

Command stream
--------------
``cmd`` is a stream (valid/ready) of :func:`command_layout`; ``ready`` is high exactly when the
array is idle. A command is accepted on a clock where ``valid & ready``; ``done`` is high for one
clock when it has finished, and from that clock on every result (``flags``, ``bbox``,
``border``, ``rdata``, ``cycles``, and the array's testbench-only ``board``) describes its
outcome, but for DISCARD: the search discards after every trial and needs no bounding box
then, so DISCARD is done as soon as it has ordered the clear, and the tiles, ``bbox`` and
``border`` describe it when ``settled`` is high (three clocks later; CLEAR, COMMIT and SHIFT
wait for it themselves). ``ready`` is high on the ``done`` clock again, so commands may follow
back to back. ``done`` comes ``cycles`` clocks after the clock that accepted the command.
After reset the array is empty and idle.

Fields a command does not use are ignored. ``level`` is a trial level (1 to ``levels``),
``symbol`` a :class:`~.tiles.Symbol`, ``tile`` a white-edge mask and ``dir`` a
:class:`~.tiles.Direction`.

========== ====================================================================== ============
op         effect                                                                   cycles
========== ====================================================================== ============
CLEAR      empty every cell                                                         sweep
WRITE      cell (x, y) := ``tile`` at level 0 (0 empties it); loads positions       5
READ       ``rdata`` := the tile at (x, y) (0 if empty or outside the array)        3
PLACE      put ``symbol`` at (x, y) at ``level``, coloured to fit its neighbours;   10 (5)
           or flag *occupied*, *not_adjacent* (also for (x, y) outside the array)
           or *mismatch* (nothing placed). On an empty board any (x, y) takes the
           symbol's first colouring (``/`` or ``+``); ``\\`` is a *mismatch* there.
           (5: the same square and level as the last PLACE, with only DISCARDs of
           that level, READs and DETECTs since)
RESOLVE    forced play at the level of the last PLACE, one ring per clock, until    depth + 5
           nothing is forced (legal) or an empty square has three entering edges
           of one colour (*illegal*; the level then holds partial forced play:
           discard it)
DETECT     loops and lines of both colours (needs a resolved position)              see array
TRY        PLACE, then RESOLVE if placed, then DETECT if legal                       about the sum
TRY_THREAT TRY, then (if legal) whether the placed tile's white and red tracks each     TRY + passes
           end in two adjacent squares of the array (*threat_white*, *threat_red*):
           the move left a loop one tile from closing (an *attack*), and where
           (``attacks``)
DISCARD    empty every cell whose level is ``level`` or more (0 acts as 1)          1
COMMIT     every tile becomes level 0                                               sweep
SHIFT      move the contents one cell towards ``dir``; what leaves the array is     sweep
           lost (``bbox`` and ``border`` tell when that would happen)
========== ====================================================================== ============

The cycles of DETECT, TRY_THREAT's passes and the sweeps are explained in :mod:`.array`.

Results
-------
``flags`` holds the result of the last PLACE, RESOLVE, DETECT, TRY or TRY_THREAT; each of these
first clears the flags it can report (TRY, TRY_THREAT and PLACE clear all of them).
*loop_white* etc. are true when that colour has a loop, or a line (a track joining the outermost
left and right edges, or top and bottom, of the tiles in play with a span of at least 8),
anywhere on the board: the search combines them with the rule "if both, the mover wins".
TRY_THREAT's two flags are what the search's leaf evaluation counts; ends outside the array are
not seen, so a threat there is not reported. On an array that labels its tracks (``labels``)
they say instead whether that colour holds an attack anywhere in the array, on any track,
*double_white* and *double_red* whether it holds two or more (a *double attack*), and
``attacks`` is not set (nor, without labels, the double flags). ``attacks[c]`` (0 white, 1
red) says where colour ``c``'s two squares are, valid while its flag is set
(:func:`attack_layout`): the search's evasion nodes try only those squares.

``bbox`` is the bounding box of the tiles of every level (``empty`` when there are none), in
cell coordinates, and ``border`` is true when a tile touches the array's edge (the game is about
to outgrow the array unless shifted). ``rdata`` is the tile the last READ found.
"""

from amaranth.hdl import Const, Module
from amaranth.lib import data, enum, stream, wiring
from amaranth.lib.wiring import In, Out

from fpgatrax.hw.tiles import TILE_BITS, Direction, Symbol

__all__ = ["Op", "Flags", "command_layout", "bounding_box_layout", "attack_layout", "ArrayPort",
           "ArrayMux", "command_states", "goto"]


class Op(enum.Enum, shape=4):
    CLEAR = 0
    WRITE = 1
    READ = 2
    PLACE = 3
    RESOLVE = 4
    DETECT = 5
    TRY = 6
    DISCARD = 7
    COMMIT = 8
    SHIFT = 9
    TRY_THREAT = 10


Flags = data.StructLayout({
    "occupied": 1, "not_adjacent": 1, "mismatch": 1, "illegal": 1,
    "loop_white": 1, "loop_red": 1, "line_white": 1, "line_red": 1,
    "threat_white": 1, "threat_red": 1, "double_white": 1, "double_red": 1,
})


def _coord_bits(n):
    """Bits of a cell coordinate ``0 … n - 1``."""
    return max(1, (n - 1).bit_length())


def command_layout(width, height, levels=2):
    """The payload of the ``cmd`` stream for an array of this size and number of trial levels."""
    return data.StructLayout({
        "op": Op,
        "x": _coord_bits(width),
        "y": _coord_bits(height),
        "symbol": Symbol,
        "tile": TILE_BITS,
        "dir": Direction,
        "level": range(levels + 1),
    })


def bounding_box_layout(width, height):
    return data.StructLayout({
        "empty": 1,
        "min_x": _coord_bits(width), "min_y": _coord_bits(height),
        "max_x": _coord_bits(width), "max_y": _coord_bits(height),
    })


def attack_layout(width, height):
    """The two squares of an attack, which are adjacent: (``x``, ``y``) is the upper or left
    one, and the other is east of it if ``east``, else south of it."""
    return data.StructLayout({"x": _coord_bits(width), "y": _coord_bits(height), "east": 1})


class ArrayPort(wiring.Signature):
    """The command port of a ``width`` × ``height`` array with ``levels`` trial levels, from
    the controller's side: the ``cmd`` stream out, the results in (see the module docstring).

    Members
    -------
    cmd : Out(stream.Signature(command_layout(width, height, levels)))
    done : In(1)
    cycles : In(16)
    flags : In(Flags)
    rdata : In(TILE_BITS)
    bbox : In(bounding_box_layout(width, height))
    border : In(1)
    settled : In(1)
    attacks : In(data.ArrayLayout(attack_layout(width, height), 2))
    """

    #: The members that carry results, from the array to its controllers.
    RESULTS = ("done", "cycles", "flags", "rdata", "bbox", "border", "settled", "attacks")

    def __init__(self, width, height, levels=2):
        self.width, self.height, self.levels = width, height, levels
        super().__init__({
            "cmd": Out(stream.Signature(command_layout(width, height, levels))),
            "done": In(1),
            "cycles": In(16),
            "flags": In(Flags),
            "rdata": In(TILE_BITS),
            "bbox": In(bounding_box_layout(width, height)),
            "border": In(1),
            "settled": In(1),
            "attacks": In(data.ArrayLayout(attack_layout(width, height), 2)),
        })

    def __eq__(self, other):
        return (type(other) is ArrayPort and
                (self.width, self.height, self.levels) ==
                (other.width, other.height, other.levels))

    def __hash__(self):
        return hash((ArrayPort, self.width, self.height, self.levels))

    def __repr__(self):
        return f"ArrayPort({self.width}, {self.height}, {self.levels})"


class ArrayMux(wiring.Component):
    """Two controllers sharing one array: ``first`` drives the array's commands while
    ``select`` is high, ``second`` otherwise. Both always see every result, so a controller
    that is not selected still sees ``done`` (which its wait states ignore: it sends nothing)
    and the bounding box (which the search reads on the clock it starts, before it is
    selected). The unselected controller's ``cmd.ready`` is low.

    Join each controller's ``Out(ArrayPort)`` to ``first`` or ``second``, and ``array`` to the
    array's ``port``, each with one ``wiring.connect``.
    """

    def __init__(self, width, height, levels=2):
        port = ArrayPort(width, height, levels)
        super().__init__({
            "select": In(1),
            "first": In(port),
            "second": In(port),
            "array": Out(port),
        })

    def elaborate(self, platform):
        m = Module()
        cmd = self.array.cmd

        def take(controller):
            m.d.comb += [cmd.valid.eq(controller.cmd.valid),
                         cmd.payload.eq(controller.cmd.payload),
                         controller.cmd.ready.eq(cmd.ready)]

        with m.If(self.select):
            take(self.first)
        with m.Else():
            take(self.second)
        for name in ArrayPort.RESULTS:
            result = getattr(self.array, name)
            m.d.comb += [getattr(self.first, name).eq(result),
                         getattr(self.second, name).eq(result)]
        return m


def command_states(m, array, state, fields, then, wait=True, skip=None):
    """Add two states to the FSM being built in ``m``, for a controller of the array: ``state``
    offers one command on ``array`` (the controller's ``Out(ArrayPort)`` end) with the payload
    ``fields``, and ``state + "_WAIT"`` waits for the array's ``done``, then calls ``then()`` to
    choose what comes next. Without ``wait`` there is no second state: ``then()`` is called on
    the clock the command is accepted (for DISCARD, which is done on the next clock, when the
    array is idle again and its ``done`` pulse over before any wait for a later command's).
    ``skip``, a pair (condition, then): on a clock of ``state`` where the condition holds, no
    command is offered and the pair's ``then()`` chooses what comes next."""
    cmd = array.cmd
    with m.State(state):
        offer = Const(1, 1)
        if skip is not None:
            condition, passed = skip
            offer = ~condition
            with m.If(condition):
                passed()
        m.d.comb += cmd.valid.eq(offer)
        m.d.comb += [getattr(cmd.payload, k).eq(v) for k, v in fields.items()]
        with m.If(cmd.ready & offer):
            if wait:
                m.next = state + "_WAIT"
            else:
                then()
    if wait:
        with m.State(state + "_WAIT"):
            with m.If(array.done):
                then()


def goto(m, state):
    """A ``then`` for :func:`command_states` (and other states that choose what comes next):
    go to ``state``."""
    def then():
        m.next = state
    return then
