"""The whole game in block RAM, with the rules exact: the board keeper.

The tile array holds only ``width × height`` squares, every one of them logic, so a game that
outgrows it cannot be judged there. The keeper holds the committed position in one block RAM
of ``size × size`` tiles (4 bits each, as everywhere: the white-edge mask, 0 empty) and applies
the rules of ``docs/rules.md`` to the whole of it, one RAM access per clock: the opponent's
moves, the player's own answer and the candidates a search cannot see are judged here exactly,
while the array searches a window of the board.

**Addressing.** Squares are named by ``coord_bits``-bit coordinates (the player's, wide
enough for any game), and the RAM is a torus under them: a square's address is ``(y mod size) ·
size + (x mod size)``, so the game can wander in any direction. The tiles' bounding box is kept
as its first column and row and its *span* (columns or rows less one); a tile placed next to
the box extends it by one on the side it lies. A trial that would make the tiles span more than
``size - 2`` columns or rows (so that the empty ring around them would overlap itself) is
refused with *out_of_room*: the board is full in that direction.

**Forgetting.** A game wider than that can still be followed in part: FORGET empties the
``size / 4`` columns (or rows) at one side of the box and moves that side of the box in past
them, and marks the side *cut* (``cut``, one bit per side N E S W). The tiles there are gone
from the RAM but not from the game, so the keeper no longer knows what lies beyond a cut side:
it refuses (*out_of_room*, before any other check) any trial that places a tile on the box's
last two columns (or rows) on that side or beyond them, since the neighbours of that tile, or
of the squares its forced play looks at, may be forgotten tiles; and once any side is cut it
judges no
lines (a track that runs into forgotten squares would look like one that ends there). Loops it
still judges, from the tiles it holds. The player forgets only when the game has outgrown the
board (``hw/player.py``); ``hw/player_model.py``'s ``KeeperView`` is the model of it.

**Trials.** There is one trial level: a TRY places its tile and its forced play on top of the
committed position, DISCARD takes them back and COMMIT keeps them. Every tile a trial places
goes into a *log* (a small RAM of addresses), which is both the undo list and the work list of
forced play: each logged tile's four neighbours are examined in turn (their own four
neighbours read, the entering edges counted) and a forced tile is placed and logged there, so
forced play ends when the examination reaches the end of the log. A trial that would place more
tiles than the log holds is refused with *out_of_room*, before the tile that overflows it.

**Wins.** After forced play, the white and the red track through every logged tile are
followed square by square (two clocks a step): a track that comes back to its tile is a loop;
otherwise its two ends are compared with the bounding box (a line joins the outermost columns,
or rows, of a span of at least the variant's ``line_span``). Only tracks through tiles of the
turn can be new, as in the reference engine (``host/rules/position.py``), whose results the
keeper reproduces move for move (``sim/keeper_tb.py``).

Command stream (valid/ready; ``ready`` exactly when idle; ``done`` one clock when finished, from
which the results describe the command):

========== ========================================================================= =========
op         effect                                                                      cycles
========== ========================================================================= =========
CLEAR      empty every square of the box, the log and the box                          2+squares
(reset)    every square emptied, then idle                                             size²
READ       ``rdata`` := the tile at (x, y)                                             3
TRY        ``symbol`` at (x, y), coloured to fit its neighbours (on an empty board:    see above
           its first colouring, ``\\`` a *mismatch*), then forced play and the win
           check; or flag *occupied*, *not_adjacent*, *mismatch*, *illegal* (three
           edges of one colour, or beyond the variant's span limit: then the level
           may hold partial forced play), *out_of_room*. DISCARD or COMMIT follows.
DISCARD    take back the tiles of the trial                                            2 a tile
COMMIT     keep them                                                                   2
FORGET     empty the ``size / 4`` columns or rows at ``side`` of the box, shrink the   size²/4
           box past them, mark ``side`` cut (only between trials)
========== ========================================================================= =========
"""

from amaranth.hdl import Array, Cat, Const, Module, Mux, Signal
from amaranth.lib import data, enum, stream, wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from fpgatrax.host.rules.position import E, N, S, W
from fpgatrax.host.rules.variant import variant_named
from fpgatrax.hw.player_model import COORD_BITS, check_keeper_size
from fpgatrax.hw.tiles import (
    TILE_BITS,
    Symbol,
    first_colouring,
    fits,
    forced_play,
    opposite,
)

__all__ = ["KeeperOp", "KeeperFlags", "keeper_command_layout", "keeper_bbox_layout",
           "BoardKeeper"]

# A step towards side d: N, E, S, W.
STEP_X = (0, 1, 0, -1)
STEP_Y = (-1, 0, 1, 0)


class KeeperOp(enum.Enum, shape=3):
    CLEAR = 0
    READ = 1
    TRY = 2
    DISCARD = 3
    COMMIT = 4
    FORGET = 5


KeeperFlags = data.StructLayout({
    "occupied": 1, "not_adjacent": 1, "mismatch": 1, "illegal": 1, "out_of_room": 1,
    "loop_white": 1, "loop_red": 1, "line_white": 1, "line_red": 1,
})


def _bits(size):
    return (size - 1).bit_length()


def _address(x, y, size):
    """The RAM address of the square (x, y) of the torus."""
    return Cat(x[:_bits(size)], y[:_bits(size)])


def _towards(x, y, side):
    """The square next to (x, y) on ``side`` (N E S W), on the torus."""
    return tuple((at + Array(Const(v, range(-1, 2)) for v in steps)[side])[:len(at)]
                 for at, steps in ((x, STEP_X), (y, STEP_Y)))


def keeper_command_layout(coord_bits=COORD_BITS):
    """The payload of the keeper's ``cmd`` stream: the square, the symbol (TRY) and the side
    (FORGET; N E S W)."""
    return data.StructLayout({"op": KeeperOp, "x": coord_bits, "y": coord_bits,
                              "symbol": Symbol, "side": 2})


def keeper_bbox_layout(coord_bits=COORD_BITS):
    """A bounding box: first column and row, spans (columns, rows less one), and whether there
    are no tiles at all; all modulo ``2 ** coord_bits``."""
    b = coord_bits
    return data.StructLayout({"min_x": b, "min_y": b, "span_x": b, "span_y": b, "empty": 1})


class BoardKeeper(wiring.Component):
    """The committed position of a game on a ``size × size`` torus of block RAM (``size`` a
    power of two), judged by the rules of ``variant``; a trial places at most ``log_depth``
    tiles; squares are named by ``coord_bits``-bit coordinates. Without ``forgetting`` there is
    no FORGET (and no side is ever cut), for a device with no room for its logic.

    Ports
    -----
    cmd : In(stream)
        Commands (:func:`keeper_command_layout`).
    done : Out(1)
        The command has finished (one clock).
    flags : Out(KeeperFlags)
        The last TRY's result.
    bbox : Out(keeper_bbox_layout)
        The bounding box of the tiles, the trial's included.
    cut : Out(4)
        The sides (N E S W) beyond which tiles were forgotten.
    rdata : Out(4)
        The tile the last READ found.
    """

    def __init__(self, size=64, variant="standard", log_depth=256, coord_bits=COORD_BITS,
                 forgetting=True):
        check_keeper_size(size)
        if log_depth < 2:
            raise ValueError("the log holds at least two tiles")
        if coord_bits < _bits(size) + forgetting:
            raise ValueError("the coordinates must be as wide as the RAM's address, and wider "
                             "to forget (a square beyond a cut side must not alias one inside)")
        self.size, self.log_depth, self.coord_bits = size, log_depth, coord_bits
        self.forgetting = forgetting
        self.variant = variant_named(variant)
        super().__init__({
            "cmd": In(stream.Signature(keeper_command_layout(coord_bits))),
            "done": Out(1),
            "flags": Out(KeeperFlags),
            "bbox": Out(keeper_bbox_layout(coord_bits), init={"empty": 1}),
            "cut": Out(4),
            "rdata": Out(TILE_BITS),
        })

    def elaborate(self, platform):
        m = Module()
        size, b = self.size, self.coord_bits
        m.submodules.board = board = Memory(shape=TILE_BITS, depth=size * size, init=[])
        write = board.write_port()
        read = board.read_port(transparent_for=(write,))
        m.submodules.log = log = Memory(shape=2 * b, depth=self.log_depth, init=[])
        log_write, log_read = log.write_port(), log.read_port()
        self._ports = read, write, log_read, log_write

        cmd = Signal.like(self.cmd.payload)
        self._length = Signal(range(self.log_depth + 1))   # tiles in the log
        self._committed = Signal.like(self.bbox)
        m.d.sync += self.done.eq(0)

        with m.FSM(init="WIPE"):
            self._wipe(m)
            with m.State("IDLE"):
                m.d.comb += self.cmd.ready.eq(1)
                with m.If(self.cmd.valid):
                    m.d.sync += cmd.eq(self.cmd.payload)
                    with m.Switch(self.cmd.payload.op):
                        with m.Case(KeeperOp.CLEAR):
                            m.next = "CLEAR"
                        with m.Case(KeeperOp.READ):
                            m.d.comb += read.addr.eq(self._address(self.cmd.payload.x,
                                                                   self.cmd.payload.y))
                            m.next = "READ"
                        with m.Case(KeeperOp.TRY):
                            m.d.sync += self.flags.eq(0)
                            m.next = "TRY"
                        with m.Case(KeeperOp.DISCARD):
                            m.next = "DISCARD"
                        with m.Case(KeeperOp.COMMIT):
                            m.d.sync += [self._committed.eq(self.bbox), self._length.eq(0)]
                            self._finish(m)
                        if self.forgetting:
                            with m.Case(KeeperOp.FORGET):
                                m.next = "FORGET"
            with m.State("READ"):
                m.d.sync += self.rdata.eq(read.data)
                self._finish(m)
            self._clear(m)
            self._discard(m)
            if self.forgetting:
                self._forget(m, cmd)
            self._try(m, cmd)
        return m

    def _address(self, x, y):
        return _address(x, y, self.size)

    def _finish(self, m):
        m.d.sync += self.done.eq(1)
        m.next = "IDLE"

    def _clear(self, m):
        """CLEAR: write 0 to every square of the tiles' box (a trial's included), one a clock.
        No tile lies outside it (the RAM starts empty, DISCARD empties what a trial placed), so
        a new game waits only as long as the last one was wide."""
        _, write, _, _ = self._ports
        box, b = self.bbox, self.coord_bits
        x, y = Signal(b), Signal(b)
        with m.State("CLEAR"):
            m.d.sync += [x.eq(box.min_x), y.eq(box.min_y)]
            with m.If(box.empty):
                self._cleared(m)
            with m.Else():
                m.next = "SWEEP"
        with m.State("SWEEP"):
            m.d.comb += [write.addr.eq(self._address(x, y)), write.data.eq(0), write.en.eq(1)]
            m.d.sync += x.eq(x + 1)
            with m.If((x - box.min_x)[:b] == box.span_x):
                m.d.sync += [x.eq(box.min_x), y.eq(y + 1)]
                with m.If((y - box.min_y)[:b] == box.span_y):
                    self._cleared(m)

    def _wipe(self, m):
        """After a reset, every square is emptied once (``size²`` clocks, not ready): a reset
        clears the box but not the RAM, which may hold a game the box no longer covers."""
        _, write, _, _ = self._ports
        sweep = Signal(range(self.size * self.size))
        with m.State("WIPE"):
            m.d.comb += [write.addr.eq(sweep), write.data.eq(0), write.en.eq(1)]
            m.d.sync += sweep.eq(sweep + 1)
            with m.If(sweep == self.size * self.size - 1):
                self._cleared(m, done=False)

    def _cleared(self, m, done=True):
        empty = Const({"empty": 1}, keeper_bbox_layout(self.coord_bits))
        m.d.sync += [self.bbox.eq(empty), self._committed.eq(empty), self._length.eq(0),
                     self.cut.eq(0)]
        if done:
            self._finish(m)
        else:
            m.next = "IDLE"

    def _discard(self, m):
        """DISCARD: empty the logged squares, last first, and restore the committed box."""
        _, write, log_read, _ = self._ports
        length = self._length
        with m.State("DISCARD"):
            with m.If(length == 0):
                m.d.sync += self.bbox.eq(self._committed)
                self._finish(m)
            with m.Else():
                m.d.comb += log_read.addr.eq(length - 1)
                m.d.sync += length.eq(length - 1)
                m.next = "UNPLACE"
        with m.State("UNPLACE"):
            b = self.coord_bits
            m.d.comb += [write.addr.eq(self._address(log_read.data[:b], log_read.data[b:])),
                         write.data.eq(0), write.en.eq(1)]
            m.next = "DISCARD"

    def _forget(self, m, cmd):
        """FORGET: write 0 to the ``size / 4`` columns (W, E) or rows (N, S) at the box's side
        ``cmd.side``, the whole torus along them, one square a clock; then move that side of
        the box in past them (the committed box too: FORGET comes between trials) and mark it
        cut."""
        _, write, _, _ = self._ports
        size, box, d = self.size, self.bbox, self.size // 4
        line = Signal(self.coord_bits)            # the column or row being emptied
        along = Signal(range(size))
        count = Signal(range(d))
        rows = (cmd.side == N) | (cmd.side == S)
        with m.State("FORGET"):
            first = Array([box.min_y, box.min_x + box.span_x - (d - 1),
                           box.min_y + box.span_y - (d - 1), box.min_x])[cmd.side]
            m.d.sync += [line.eq(first), along.eq(0), count.eq(0)]
            m.next = "FORGET_SWEEP"
        with m.State("FORGET_SWEEP"):
            m.d.comb += [write.addr.eq(Mux(rows, self._address(along, line),
                                           self._address(line, along))),
                         write.data.eq(0), write.en.eq(1)]
            m.d.sync += along.eq(along + 1)
            with m.If(along == size - 1):
                m.d.sync += [line.eq(line + 1), count.eq(count + 1)]
                with m.If(count == d - 1):
                    m.next = "FORGET_DONE"
        with m.State("FORGET_DONE"):
            with m.Switch(cmd.side):
                for side, first, span in ((N, box.min_y, box.span_y), (E, None, box.span_x),
                                          (S, None, box.span_y), (W, box.min_x, box.span_x)):
                    with m.Case(side):
                        m.d.sync += span.eq(span - d)
                        if first is not None:
                            m.d.sync += first.eq(first + d)
            m.d.sync += self.cut.eq(self.cut | (Const(1, 4) << cmd.side))
            m.next = "FORGET_KEEP"
        with m.State("FORGET_KEEP"):
            m.d.sync += self._committed.eq(box)
            self._finish(m)

    # -- TRY ------------------------------------------------------------------------------------

    def _try(self, m, cmd):
        """TRY: GATHER the square's neighbourhood, CHOOSE its colouring, PUT it; forced play
        (FORCE_*) over the log; then the tracks of every logged tile (JUDGE_*, WALK_*)."""
        b = self.coord_bits
        # The square GATHER reads around, and what it read: the square, then N, E, S, W.
        self._cx, self._cy = Signal(b), Signal(b)
        self._near = Array(Signal(TILE_BITS, name=f"near_{d}") for d in range(5))
        self._forcing = Signal()      # GATHER and PUT serve forced play (else the move)
        self._tile = Signal(TILE_BITS)   # the tile PUT places at (cx, cy)
        self._pointer = Signal(range(self.log_depth + 1))   # into the log: forced play, JUDGE
        with m.State("TRY"):
            m.d.sync += [self._cx.eq(cmd.x), self._cy.eq(cmd.y), self._forcing.eq(0),
                         self._pointer.eq(0)]
            m.next = "GATHER"
        self._extend(m)
        self._gather(m)
        self._choose(m, cmd)
        self._put(m)
        self._force(m)
        self._judge(m)

    def _gather(self, m):
        """Read (cx, cy) and its four neighbours, one address a clock, each answer a clock
        later; then CHOOSE (the move) or FORCE_DECIDE (forced play)."""
        read = self._ports[0]
        count = Signal(range(6))
        dx = Array(Const(v, range(-1, 2)) for v in (0, *STEP_X))
        dy = Array(Const(v, range(-1, 2)) for v in (0, *STEP_Y))
        with m.State("GATHER"):
            m.d.comb += read.addr.eq(self._address(self._cx + dx[count], self._cy + dy[count]))
            m.d.sync += count.eq(count + 1)
            with m.If(count > 0):
                m.d.sync += self._near[count - 1].eq(read.data)
            with m.If(count == 5):
                m.d.sync += count.eq(0)
                with m.If(self._forcing):
                    m.next = "FORCE_DECIDE"
                with m.Else():
                    m.next = "CHOOSE"

    def _neighbours(self):
        return [self._near[d + 1] for d in range(4)]

    def _choose(self, m, cmd):
        """The move's colouring, or why it cannot be placed."""
        flags, near = self.flags, self._neighbours()
        first = Array(Const(first_colouring(symbol), TILE_BITS) for symbol in Symbol)[cmd.symbol]
        with m.State("CHOOSE"):
            with m.If(self.bbox.empty):
                with m.If(cmd.symbol == Symbol.BACKSLASH):
                    m.d.sync += flags.mismatch.eq(1)
                    self._finish(m)
                with m.Else():
                    self._put_next(m, first)
            with m.Elif(self._blind):        # it may have forgotten tiles around it
                m.d.sync += flags.out_of_room.eq(1)
                self._finish(m)
            with m.Elif(self._near[0].any()):
                m.d.sync += flags.occupied.eq(1)
                self._finish(m)
            with m.Elif(~Cat(t.any() for t in near).any()):
                m.d.sync += flags.not_adjacent.eq(1)
                self._finish(m)
            with m.Elif(~fits(first, near) & ~fits(~first, near)):
                m.d.sync += flags.mismatch.eq(1)
                self._finish(m)
            with m.Elif(self._beyond_limit()):
                m.d.sync += flags.illegal.eq(1)
                self._finish(m)
            with m.Else():
                self._put_next(m, Mux(fits(first, near), first, ~first))

    def _beyond_limit(self):
        """Whether the move's square makes the tiles span more than the variant allows."""
        limit = self.variant.span_limit
        if limit is None:
            return Const(0)
        (_, span_x, _), (_, span_y, _) = self._grown
        return (span_x >= limit) | (span_y >= limit)

    def _extend(self, m):
        """The box with (cx, cy) in it, per axis: (first square, span, too wide for the torus),
        and whether (cx, cy) lies within two squares of a cut side or beyond (``_blind``),
        registered: (cx, cy) and the box stand still for the five clocks of GATHER before
        CHOOSE or PUT read them, so the comparisons need not share their clock. A square next
        to the box lies one beyond its last square (offset ``span + 1``) or one before its
        first (offset -1)."""
        box, size, cut = self.bbox, self.size, self.cut
        self._grown = []
        self._blind = Signal()
        blind = []
        for first, span, at, low, high in ((box.min_x, box.span_x, self._cx, W, E),
                                           (box.min_y, box.span_y, self._cy, N, S)):
            offset = (at - first)[:len(first)]
            before = offset == (1 << len(first)) - 1
            inside = offset <= span
            new_span = Mux(inside, span, span + 1)
            grown = (Signal.like(first), Signal(len(span) + 1), Signal())
            m.d.sync += [grown[0].eq(Mux(before, at, first)), grown[1].eq(new_span),
                         grown[2].eq(new_span > size - 3)]
            self._grown.append(grown)
            signed = offset.as_signed()       # squares beyond a cut side may lie far out
            blind += [cut[low] & (signed <= 1), cut[high] & (signed >= span - 1)]
        if self.forgetting:
            m.d.sync += self._blind.eq(Cat(blind).any())

    def _put_next(self, m, tile):
        m.d.sync += self._tile.eq(tile)
        m.next = "PUT"

    def _put(self, m):
        """Write the tile at (cx, cy), log it and grow the box; or refuse the trial when the
        box would overlap itself on the torus, the square lies on or beyond a cut side, or the
        log is full."""
        _, write, _, log_write = self._ports
        (first_x, span_x, big_x), (first_y, span_y, big_y) = self._grown
        box, length = self.bbox, self._length
        with m.State("PUT"):
            with m.If(~box.empty & (big_x | big_y | self._blind |
                                    (length == self.log_depth))):
                m.d.sync += self.flags.out_of_room.eq(1)
                self._finish(m)
            with m.Else():
                m.d.comb += [write.addr.eq(self._address(self._cx, self._cy)),
                             write.data.eq(self._tile), write.en.eq(1),
                             log_write.addr.eq(length),
                             log_write.data.eq(Cat(self._cx, self._cy)), log_write.en.eq(1)]
                m.d.sync += length.eq(length + 1)
                with m.If(box.empty):
                    m.d.sync += [box.min_x.eq(self._cx), box.min_y.eq(self._cy),
                                 box.span_x.eq(0), box.span_y.eq(0), box.empty.eq(0)]
                with m.Else():
                    m.d.sync += [box.min_x.eq(first_x), box.span_x.eq(span_x),
                                 box.min_y.eq(first_y), box.span_y.eq(span_y)]
                with m.If(self._forcing):
                    m.next = "FORCE_STEP"
                with m.Else():
                    m.d.sync += self._forcing.eq(1)
                    m.next = "FORCE_NEXT"

    def _force(self, m):
        """Forced play: each logged tile's four neighbours, in log order, are gathered; an empty
        one with two entering edges of one colour takes the tile that joins them (PUT logs it,
        so it is examined in turn), three make the turn illegal."""
        _, _, log_read, _ = self._ports
        b = self.coord_bits
        pointer = self._pointer
        base_x, base_y = Signal(b), Signal(b)
        side = Signal(2)
        near = self._neighbours()
        white_in = Cat(near[d][opposite(d)] for d in range(4))
        occupied = Cat(t.any() for t in near)
        forced, three, tile = forced_play(white_in, occupied & ~white_in, occupied)

        with m.State("FORCE_NEXT"):
            with m.If(pointer == self._length):
                m.d.sync += pointer.eq(0)
                m.next = "JUDGE_NEXT"
            with m.Else():
                m.d.comb += log_read.addr.eq(pointer)
                m.next = "FORCE_LOG"
        with m.State("FORCE_LOG"):
            m.d.sync += [base_x.eq(log_read.data[:b]), base_y.eq(log_read.data[b:]),
                         side.eq(0)]
            m.next = "FORCE_SIDE"
        with m.State("FORCE_SIDE"):
            to_x, to_y = _towards(base_x, base_y, side)
            m.d.sync += [self._cx.eq(to_x), self._cy.eq(to_y)]
            m.next = "GATHER"
        with m.State("FORCE_DECIDE"):
            with m.If(self._near[0].any()):
                m.next = "FORCE_STEP"
            with m.Elif(three):
                m.d.sync += self.flags.illegal.eq(1)
                self._finish(m)
            with m.Elif(forced):
                self._put_next(m, tile)
            with m.Else():
                m.next = "FORCE_STEP"
        with m.State("FORCE_STEP"):
            m.d.sync += side.eq(side + 1)
            with m.If(side == 3):
                m.d.sync += pointer.eq(pointer + 1)
                m.next = "FORCE_NEXT"
            with m.Else():
                m.next = "FORCE_SIDE"

    def _step(self, m, x, y, heading, nx, ny):
        """Ask the RAM for the square beyond (x, y) by ``heading``; WALK_LOOK sees it two
        clocks later, from a register (the RAM's output feeds no decision directly)."""
        read = self._ports[0]
        step_x, step_y = _towards(x, y, heading)
        m.d.comb += read.addr.eq(self._address(step_x, step_y))
        m.d.sync += [nx.eq(step_x), ny.eq(step_y)]
        m.next = "WALK_WAIT"

    def _judge(self, m):
        """The win check: the white, then the red track through each logged tile, followed
        from the tile both ways until it comes back (a loop) or leaves the tiles twice (its two
        ends, checked against the box for a line)."""
        read, _, log_read, _ = self._ports
        b, box, flags = self.coord_bits, self.bbox, self.flags
        pointer = self._pointer
        start_x, start_y, x, y = Signal(b), Signal(b), Signal(b), Signal(b)
        nx, ny = Signal(b), Signal(b)
        colour, leg, heading, back_way = Signal(), Signal(), Signal(2), Signal(2)
        end_side = Signal(4)          # the sides of the box (N E S W) the first end leaves by
        look = Signal(TILE_BITS)      # the tile read a clock ago: the RAM's output, registered
        m.d.sync += look.eq(read.data)
        track = look ^ colour.replicate(TILE_BITS)          # the followed colour's edges

        def leaves_box(side_bits):
            """The box's side (one-hot N E S W) that leaving (x, y) by ``heading`` crosses."""
            return [side_bits[N].eq((heading == N) & (y == box.min_y)),
                    side_bits[E].eq((heading == E) &
                                              ((x - box.min_x)[:b] == box.span_x)),
                    side_bits[S].eq((heading == S) &
                                              ((y - box.min_y)[:b] == box.span_y)),
                    side_bits[W].eq((heading == W) & (x == box.min_x))]

        with m.State("JUDGE_NEXT"):
            with m.If(pointer == self._length):
                self._finish(m)
            with m.Else():
                m.d.comb += log_read.addr.eq(pointer)
                m.d.sync += colour.eq(0)
                m.next = "JUDGE_LOG"
        with m.State("JUDGE_LOG"):
            m.d.sync += [start_x.eq(log_read.data[:b]), start_y.eq(log_read.data[b:])]
            m.next = "WALK_START"
        with m.State("WALK_START"):
            m.d.comb += read.addr.eq(self._address(start_x, start_y))
            m.d.sync += [x.eq(start_x), y.eq(start_y), leg.eq(0)]
            m.next = "WALK_OPEN"
        with m.State("WALK_OPEN"):
            m.next = "WALK_FIRST"
        with m.State("WALK_FIRST"):
            # The track's two edges: the lowest set bit first, the highest on the way back.
            for d in reversed(range(4)):
                with m.If(track[d]):
                    m.d.sync += heading.eq(d)
            for d in range(4):
                with m.If(track[d]):
                    m.d.sync += back_way.eq(d)
            m.next = "WALK_STEP"
        with m.State("WALK_STEP"):
            self._step(m, x, y, heading, nx, ny)
        with m.State("WALK_WAIT"):
            m.next = "WALK_LOOK"
        with m.State("WALK_LOOK"):
            with m.If(look == 0):                # an end: (x, y) leaves by ``heading``
                with m.If(leg == 0):
                    m.d.sync += leaves_box(end_side)
                    m.d.sync += [leg.eq(1), x.eq(start_x), y.eq(start_y), heading.eq(back_way)]
                    m.next = "WALK_STEP"
                with m.Else():
                    m.next = "WALK_LINE"
            with m.Elif((nx == start_x) & (ny == start_y)):
                with m.If(colour):
                    m.d.sync += flags.loop_red.eq(1)
                with m.Else():
                    m.d.sync += flags.loop_white.eq(1)
                m.next = "WALK_DONE"
            with m.Else():
                onward = track & ~(Const(1, 4) << (heading ^ 2))
                turn = Signal(2)
                for d in range(4):
                    with m.If(onward[d]):
                        m.d.comb += turn.eq(d)
                m.d.sync += [x.eq(nx), y.eq(ny), heading.eq(turn)]
                self._step(m, nx, ny, turn, nx, ny)
        with m.State("WALK_LINE"):
            span = self.variant.line_span
            if span is not None:
                last_side = Signal(4)
                m.d.comb += leaves_box(last_side)
                sides = end_side | last_side
                across = ~self.cut.any() & (
                    (sides[W] & sides[E] & (box.span_x >= span - 1)) |
                    (sides[N] & sides[S] & (box.span_y >= span - 1)))
                with m.If(across & colour):
                    m.d.sync += flags.line_red.eq(1)
                with m.Elif(across):
                    m.d.sync += flags.line_white.eq(1)
            m.next = "WALK_DONE"
        with m.State("WALK_DONE"):
            m.d.sync += colour.eq(~colour)
            with m.If(colour):
                m.d.sync += pointer.eq(pointer + 1)
                m.next = "JUDGE_NEXT"
            with m.Else():
                m.next = "WALK_START"
