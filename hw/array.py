"""The systolic tile array: a W×H grid of :class:`~.cell.Cell` and the controller that drives it.

This is the heart of the player. The search places candidate moves in it thousands of times per
turn, so everything that scales with the board happens in all cells at once, one neighbour step
per clock: forced play, loop and line detection, clearing a trial level. The controller is a
small FSM that sequences those steps and reduces the cells' answers through registered OR trees.

Coordinates and contents
------------------------
Cells are ``x`` in ``0..width-1`` (west to east) and ``y`` in ``0..height-1`` (north to south).
A tile is its white-edge mask (:mod:`.tiles`), ``0`` empty. Every tile carries a *level*: 0 for
the committed position, 1 to ``levels`` (2 unless given) for nested trial levels. The search
places its own move at level 1, each opponent reply at level 2, and so on one level per ply, and
discards a level once it has read the flags; ``COMMIT`` makes every tile committed (after the
chosen move, and after the opponent's move, each tried at level 1 first).

Command port
------------
``cmd`` is a stream (valid/ready) of :func:`command_layout`; ``ready`` is high exactly when the array is
idle. A command is accepted on a clock where ``valid & ready``; ``done`` is high for one clock when
it has finished, and from that clock on every output (flags, bounding box, ``border``,
``rdata``, ``board``, ``cycles``) describes its result. ``ready`` is high on the ``done`` clock
again, so commands may follow back to back. ``cycles`` is the number of clocks from the
accepting edge to the ``done`` edge (``done`` comes ``cycles`` clocks after the command was
accepted). After reset the array is empty and idle.

Fields a command does not use are ignored. ``level`` is a trial level (1 to ``levels``), ``symbol`` a
:class:`~.tiles.Symbol`, ``tile`` a white-edge mask and ``dir`` a :class:`~.tiles.Direction`.

========== ====================================================================== ============
op         effect                                                                   cycles
========== ====================================================================== ============
CLEAR      empty every cell                                                         sweep
WRITE      cell (x, y) := ``tile`` at level 0 (0 empties it); loads positions       5
READ       ``rdata`` := the tile at (x, y) (0 if empty or outside the array)        3
PLACE      put ``symbol`` at (x, y) at ``level``, coloured to fit its neighbours;   12
           or flag *occupied*, *not_adjacent* (also for (x, y) outside the array)
           or *mismatch* (nothing placed). On an empty board any (x, y) takes the
           symbol's first colouring (``/`` or ``+``); ``\\`` is a *mismatch* there.
RESOLVE    forced play at the level of the last PLACE, one ring per clock, until    depth + 5
           nothing is forced (legal) or an empty square has three entering edges
           of one colour (*illegal*; the level then holds partial forced play:
           discard it)
DETECT     loops and lines of both colours (needs a resolved position)              see below
TRY        PLACE, then RESOLVE if placed, then DETECT if legal                       about the sum
TRY_THREAT TRY, then (if legal) whether the placed tile's white and red tracks each     TRY + passes
           end in two adjacent squares of the array (*threat_white*, *threat_red*):
           the move left a loop one tile from closing
DISCARD    empty every cell whose level is ``level`` or more (0 acts as 1)          4
COMMIT     every tile becomes level 0                                               sweep
SHIFT      move the contents one cell towards ``dir``; what leaves the array is     sweep
           lost (``bbox`` and ``border`` tell when that would happen)
========== ====================================================================== ============

DETECT runs up to six passes: loops of white and red, then lines of white and red along each
axis whose span is at least 8 (a pass for an axis with a smaller span is skipped in one clock).
A pass costs 7 clocks plus the number of squares the flag has to travel along the longest track
involved. In the team's random games a TRY took a median of 41 clocks (most positions have no
line passes yet).

CLEAR, COMMIT and SHIFT are rare (once or twice per game move), so the cells have no hardware
for them: the controller *sweeps* the bounding box of the tiles (for SHIFT, widened by one
square on the side the tiles move towards), reading each square's source and writing the
destination through the single-cell port, 4 clocks per square plus 4 (1 on an empty board).
The sweep writes level 0, so shift and clear committed positions only.

Flags
-----
``flags`` holds the result of the last PLACE, RESOLVE, DETECT, TRY or TRY_THREAT; each of these
first clears the flags it can report (TRY, TRY_THREAT and PLACE clear all of them).
*loop_white* etc. are true when that colour has a loop, or a line (a track joining the outermost left and right edges, or top and
bottom, of the tiles in play with a span of at least 8), anywhere on the board: the search
combines them with the rule "if both, the mover wins".

Outputs for the search
----------------------
``bbox`` is the bounding box of the tiles of every level (``empty`` when there are none), in
cell coordinates, and ``border`` is true when a tile touches the array's edge (the game is about
to outgrow the array unless shifted). ``board`` is every cell's tile, cell ``(x, y)`` at bits
``4*(y*width + x)``: for testbenches; synthesis removes it when unused.

TRY_THREAT's two flags are what the search's leaf evaluation counts. It adds two passes to
DETECT, one per colour, each 9 clocks plus the length of the placed tile's track: the flag floods from the placed square alone, the empty squares its track
enters mark themselves as ends, and an end next to an end sets the flag. Ends outside the array
are not seen, so a threat there is not reported.
"""

from amaranth.hdl import Array, Cat, Const, Module, Mux, Signal
from amaranth.lib import data, enum, stream, wiring
from amaranth.lib.wiring import In, Out

from fpgatrax.host.rules.variant import LINE_SPAN
from fpgatrax.hw.cell import Cell, control_layout
from fpgatrax.hw.tiles import TILE_BITS, Direction, Symbol, first_colouring, opposite

__all__ = ["Op", "Flags", "command_layout", "bounding_box_layout", "command_states", "TileArray"]



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
    "threat_white": 1, "threat_red": 1,
})


class _Pass(enum.Enum, shape=2):
    """What the cells' flags A and B are seeded with during a detection pass."""
    LOOP = 0    # A: every empty square (a track not reached is closed)
    LINE_X = 1  # A: just left of the tiles in play, B: just right
    LINE_Y = 2  # A: just above, B: just below
    THREAT = 3  # the placed square only (its track's ends are found)


def _coord_bits(n):
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



def command_states(m, port, done, state, fields, then):
    """Add two states to the FSM being built in ``m``, for a controller of the array: ``state``
    offers one command on ``port`` (the controller's end of a ``cmd`` stream) with the payload
    ``fields``, and ``state + "_WAIT"`` waits for the array's ``done``, then calls ``then()`` to
    choose what comes next."""
    with m.State(state):
        m.d.comb += port.valid.eq(1)
        m.d.comb += [getattr(port.payload, k).eq(v) for k, v in fields.items()]
        with m.If(port.ready):
            m.next = state + "_WAIT"
    with m.State(state + "_WAIT"):
        with m.If(done):
            then()


class TileArray(wiring.Component):
    """A ``width`` × ``height`` array of cells with ``levels`` trial levels and its command
    controller (see the module docstring for the command set, timing and outputs)."""

    def __init__(self, width, height, levels=2):
        for name, value in (("width", width), ("height", height)):
            if not isinstance(value, int) or value < 3:
                raise ValueError(f"{name} must be an integer of at least 3, not {value!r}")
        if not isinstance(levels, int) or levels < 1:
            raise ValueError(f"levels must be an integer of at least 1, not {levels!r}")
        self.width, self.height, self.levels = width, height, levels
        super().__init__({
            "cmd": In(stream.Signature(command_layout(width, height, levels))),
            "done": Out(1),
            "cycles": Out(16),
            "flags": Out(Flags),
            "rdata": Out(TILE_BITS),
            "bbox": Out(bounding_box_layout(width, height)),
            "border": Out(1),
            "board": Out(TILE_BITS * width * height),
        })

    def elaborate(self, platform):
        m = Module()
        W, H = self.width, self.height
        L = self.levels
        cells = [[Cell((x + y) & 1, L) for x in range(W)] for y in range(H)]
        for y in range(H):
            for x in range(W):
                m.submodules[f"cell_{x}_{y}"] = cells[y][x]
        flat = [cells[y][x] for y in range(H) for x in range(W)]

        ctl = Signal(control_layout(L))
        ctl_next = Signal(control_layout(L))
        write, write_next = Signal(), Signal()
        m.d.sync += [ctl.eq(ctl_next), write.eq(write_next)]

        # -- addressing: one cell selected for writing and reading ----------------------------
        ax = Signal(range(-1, W + 1))
        ay = Signal(range(-1, H + 1))
        x_sel = Signal(W)
        y_sel = Signal(H)
        m.d.comb += [x_sel.eq(Cat(ax == x for x in range(W))),
                     y_sel.eq(Cat(ay == y for y in range(H)))]
        read = Signal(TILE_BITS)
        read_any = 0
        for y in range(H):
            row = 0
            for x in range(W):
                row = row | (cells[y][x].state.tile & x_sel[x].replicate(TILE_BITS))
            read_any = read_any | (row & y_sel[y].replicate(TILE_BITS))
        m.d.sync += read.eq(read_any)

        # -- occupancy of columns and rows: bounding box, border, spans, seeds ---------------
        col_occ = Signal(W)
        row_occ = Signal(H)
        m.d.sync += [
            col_occ.eq(Cat(Cat(cells[y][x].occ for y in range(H)).any() for x in range(W))),
            row_occ.eq(Cat(Cat(cells[y][x].occ for x in range(W)).any() for y in range(H))),
        ]
        bbox = self.bbox
        m.d.sync += [
            bbox.empty.eq(~col_occ.any()),
            self.border.eq(col_occ[0] | col_occ[W - 1] | row_occ[0] | row_occ[H - 1]),
        ]
        for occ, low, high in ((col_occ, bbox.min_x, bbox.max_x),
                               (row_occ, bbox.min_y, bbox.max_y)):
            # The last assignment wins: the lowest occupied line for ``low``, the highest for
            # ``high``.
            for i in reversed(range(len(occ))):
                with m.If(occ[i]):
                    m.d.sync += low.eq(i)
            for i in range(len(occ)):
                with m.If(occ[i]):
                    m.d.sync += high.eq(i)
        # Tiles in play are connected, so their columns are contiguous: a span of 8 or more
        # is two occupied columns 7 apart.
        span_x = Cat(col_occ[x] & col_occ[x + LINE_SPAN - 1]
                     for x in range(W - LINE_SPAN + 1)).any()
        span_y = Cat(row_occ[y] & row_occ[y + LINE_SPAN - 1]
                     for y in range(H - LINE_SPAN + 1)).any()

        # Seeds (what an empty square in that column or row reports, indexed from -1 to W or
        # H so that the squares outside the array have one too) and line ends.
        mode = Signal(_Pass)
        seed_col = [Signal(name=f"seed_col_{x + 1}") for x in range(-1, W + 1)]
        seed_row = [Signal(name=f"seed_row_{y + 1}") for y in range(-1, H + 1)]
        end_col = Signal(W)
        end_row = Signal(H)

        def edge_lines(occ, n, seeds, ends, active):
            padded = Cat(Const(0, 1), occ, Const(0, 1))   # padded[i + 1] is line i
            for i in range(-1, n + 1):
                after = padded[i + 2] if i < n else Const(0, 1)
                m.d.sync += seeds[i + 1].eq(active & after & ~padded[i + 1])
            m.d.sync += ends.eq(Cat(active & occ[i] & ~padded[i + 2] for i in range(n)))

        edge_lines(col_occ, W, seed_col, end_col, mode == _Pass.LINE_X)
        edge_lines(row_occ, H, seed_row, end_row, mode == _Pass.LINE_Y)
        with m.If(mode == _Pass.LOOP):
            m.d.sync += [seed.eq(1) for seed in seed_col]

        # -- wiring the cells -----------------------------------------------------------------
        deltas = {Direction.N.value: (0, -1), Direction.E.value: (1, 0),
                  Direction.S.value: (0, 1), Direction.W.value: (-1, 0)}
        for y in range(H):
            for x in range(W):
                cell = cells[y][x]
                m.d.comb += [
                    cell.ctl.eq(ctl),
                    cell.sel_x.eq(x_sel[x] & write),
                    cell.sel_y.eq(y_sel[y]),
                    cell.at.eq(x_sel[x] & y_sel[y]),
                    cell.seed_col.eq(seed_col[x + 1]),
                    cell.seed_row.eq(seed_row[y + 1]),
                    cell.end_col.eq(end_col[x]),
                    cell.end_row.eq(end_row[y]),
                ]
                for d, (dx, dy) in deltas.items():
                    nx, ny = x + dx, y + dy
                    port = cell.nb[d]
                    if 0 <= nx < W and 0 <= ny < H:
                        other = cells[ny][nx]
                        m.d.comb += [
                            port.occ.eq(other.occ),
                            port.edge.eq(other.state.tile[opposite(d)]),
                            port.flag.eq(other.flag),
                            port.end.eq(other.end),
                        ]
                    else:
                        m.d.comb += port.flag.eq(seed_col[nx + 1] | seed_row[ny + 1])
        m.d.comb += self.board.eq(Cat(cell.state.tile for cell in flat))

        # -- registered OR trees over the cells' answers --------------------------------------
        def or_tree(leaf):
            result = Signal()
            m.d.sync += result.eq(Cat(getattr(cell, leaf) for cell in flat).any())
            return result

        active = or_tree("active")
        three = or_tree("three")
        line = or_tree("line")
        closed = or_tree("closed")
        threat = or_tree("threat")

        # -- the controller -------------------------------------------------------------------
        cmd = Signal(command_layout(W, H, L))
        flags = self.flags
        level = Signal(L)          # thermometer level of written and forced tiles
        colour = Signal()
        parity = Signal()          # of the last placed square
        count = Signal(range(8))
        trying = Signal()
        threats = Signal()          # a TRY_THREAT
        gathered = Signal(5 * TILE_BITS)   # own square, then neighbours N, E, S, W
        placed = Signal(TILE_BITS)
        pass_no = Signal(range(9))
        # A sweep visits the destination squares of a rectangle row by row, copying into each
        # the tile at (destination - delta), or 0: CLEAR, COMMIT and SHIFT are sweeps.
        sx, x_first, x_last = (Signal(range(-1, W + 1)) for _ in range(3))
        sy, y_first, y_last = (Signal(range(-1, H + 1)) for _ in range(3))
        step_x, step_y, delta_x, delta_y = (Signal(range(-1, 2)) for _ in range(4))
        zero = Signal()

        m.d.comb += [
            ctl_next.init.eq(1),
            ctl_next.level.eq(level),
            ctl_next.colour.eq(colour),
            ctl_next.threat.eq(mode == _Pass.THREAT),
            ctl_next.wdata.eq(placed),
        ]
        with m.If(~self.cmd.ready):
            m.d.sync += self.cycles.eq(self.cycles + 1)
        m.d.sync += self.done.eq(0)

        def finish():
            m.d.sync += self.done.eq(1)
            m.next = "IDLE"

        def settle():
            m.d.sync += count.eq(0)
            m.next = "SETTLE"

        def start_sweep(move_x, move_y, clear):
            # Destinations from the far side when moving, so that a source is read before it
            # is overwritten; one square beyond the tiles on the side they move towards.
            lo_x, hi_x = bbox.min_x - (move_x < 0), bbox.max_x + (move_x > 0)
            lo_y, hi_y = bbox.min_y - (move_y < 0), bbox.max_y + (move_y > 0)
            first_x, last_x = (hi_x, lo_x) if move_x > 0 else (lo_x, hi_x)
            first_y, last_y = (hi_y, lo_y) if move_y > 0 else (lo_y, hi_y)
            m.d.sync += [
                sx.eq(first_x), x_first.eq(first_x), x_last.eq(last_x),
                sy.eq(first_y), y_first.eq(first_y), y_last.eq(last_y),
                step_x.eq(-1 if move_x > 0 else 1), step_y.eq(-1 if move_y > 0 else 1),
                delta_x.eq(move_x), delta_y.eq(move_y), zero.eq(clear), level.eq(0),
            ]
            with m.If(bbox.empty):
                finish()
            with m.Else():
                m.next = "SWEEP_READ"

        dx = Array(Const(v, range(-1, 2)) for v in (0, 0, 1, 0, -1))
        dy = Array(Const(v, range(-1, 2)) for v in (0, -1, 0, 1, 0))
        own = gathered[:TILE_BITS]
        near = [gathered[TILE_BITS * (d + 1):TILE_BITS * (d + 2)] for d in range(4)]
        near_occ = Cat(t.any() for t in near)
        first = Signal(TILE_BITS)
        with m.Switch(cmd.symbol):
            for symbol in Symbol:
                with m.Case(symbol):
                    m.d.comb += first.eq(first_colouring(symbol))

        def fits(tile):
            return Cat(~near_occ[d] | (tile[d] == near[d][opposite(d)]) for d in range(4)).all()

        with m.FSM():
            with m.State("IDLE"):
                m.d.comb += self.cmd.ready.eq(1)
                with m.If(self.cmd.valid):
                    p = self.cmd.payload
                    m.d.sync += [cmd.eq(p), ax.eq(p.x), ay.eq(p.y), count.eq(0),
                                 self.cycles.eq(1)]
                    with m.Switch(p.op):
                        with m.Case(Op.CLEAR):
                            start_sweep(0, 0, clear=True)
                        with m.Case(Op.WRITE):
                            m.d.sync += [placed.eq(p.tile), level.eq(0)]
                            m.next = "WRITE"
                        with m.Case(Op.READ):
                            m.next = "READ"
                        with m.Case(Op.PLACE, Op.TRY, Op.TRY_THREAT):
                            m.d.sync += [flags.eq(0), trying.eq(p.op != Op.PLACE),
                                         threats.eq(p.op == Op.TRY_THREAT),
                                         level.eq(Cat(p.level > k for k in range(L)))]
                            m.next = "GATHER"
                        with m.Case(Op.RESOLVE):
                            m.next = "RESOLVE"
                        with m.Case(Op.DETECT):
                            m.next = "DETECT"
                        with m.Case(Op.DISCARD):
                            # Level 0 acts as 1: the committed tiles stay.
                            m.d.comb += ctl_next.clear.eq(
                                Cat(p.level <= k + 1 for k in range(L)))
                            settle()
                        with m.Case(Op.COMMIT):
                            start_sweep(0, 0, clear=False)
                        with m.Case(Op.SHIFT):
                            with m.Switch(p.dir):
                                for direction, (move_x, move_y) in deltas.items():
                                    with m.Case(direction):
                                        start_sweep(move_x, move_y, clear=False)
                        with m.Default():
                            finish()

            with m.State("SETTLE"):
                # A change ordered on the previous clock reaches the cells one clock later, the
                # column/row occupancy the next and the bounding box registers the one after.
                m.d.sync += count.eq(count + 1)
                with m.If(count == 2):
                    finish()

            with m.State("WRITE"):
                m.d.comb += write_next.eq(1)
                settle()

            with m.State("READ"):
                with m.If(count == 1):
                    m.d.sync += self.rdata.eq(read)
                    finish()
                m.d.sync += count.eq(count + 1)

            with m.State("SWEEP_READ"):
                m.d.sync += [ax.eq(sx - delta_x), ay.eq(sy - delta_y)]
                m.next = "SWEEP_WAIT"

            with m.State("SWEEP_WAIT"):
                m.next = "SWEEP_TAKE"

            with m.State("SWEEP_TAKE"):
                m.d.sync += [placed.eq(Mux(zero, 0, read)), ax.eq(sx), ay.eq(sy)]
                m.next = "SWEEP_WRITE"

            with m.State("SWEEP_WRITE"):
                m.d.comb += write_next.eq(1)
                with m.If(sx != x_last):
                    m.d.sync += sx.eq(sx + step_x)
                    m.next = "SWEEP_READ"
                with m.Elif(sy != y_last):
                    m.d.sync += [sx.eq(x_first), sy.eq(sy + step_y)]
                    m.next = "SWEEP_READ"
                with m.Else():
                    settle()

            # PLACE: read the square and its four neighbours through the read tree (one
            # address per clock, each answer two clocks later), then choose the colouring.
            with m.State("GATHER"):
                m.d.sync += count.eq(count + 1)
                with m.If(count < 4):
                    m.d.sync += [ax.eq(cmd.x + dx[count + 1]), ay.eq(cmd.y + dy[count + 1])]
                with m.If(count >= 1):
                    m.d.sync += gathered.eq(Cat(gathered[TILE_BITS:], read))
                with m.If(count == 5):
                    m.d.sync += [ax.eq(cmd.x), ay.eq(cmd.y), parity.eq(cmd.x[0] ^ cmd.y[0])]
                    m.next = "CHOOSE"

            with m.State("CHOOSE"):
                with m.If((cmd.x >= W) | (cmd.y >= H)):
                    m.d.sync += flags.not_adjacent.eq(1)
                    finish()
                with m.Elif(bbox.empty):
                    with m.If(cmd.symbol == Symbol.BACKSLASH):
                        m.d.sync += flags.mismatch.eq(1)
                        finish()
                    with m.Else():
                        m.d.sync += placed.eq(first)
                        m.next = "PUT"
                with m.Elif(own.any()):
                    m.d.sync += flags.occupied.eq(1)
                    finish()
                with m.Elif(~near_occ.any()):
                    m.d.sync += flags.not_adjacent.eq(1)
                    finish()
                with m.Elif(fits(first)):
                    m.d.sync += placed.eq(first)
                    m.next = "PUT"
                with m.Elif(fits(~first)):
                    m.d.sync += placed.eq(~first)
                    m.next = "PUT"
                with m.Else():
                    m.d.sync += flags.mismatch.eq(1)
                    finish()

            with m.State("PUT"):
                m.d.comb += write_next.eq(1)
                with m.If(trying):
                    m.next = "RESOLVE"
                with m.Else():
                    settle()

            # Forced play: cells of the placed square's neighbours' parity first, then the
            # parities alternate, one ring per clock.
            with m.State("RESOLVE"):
                m.d.comb += [ctl_next.resolve.eq(1), ctl_next.force.eq(Mux(parity, 0b01, 0b10))]
                m.d.sync += [flags.illegal.eq(0), count.eq(0)]
                m.next = "FORCE"

            with m.State("FORCE"):
                # The trees (registered leaves, registered root) answer for the state of two
                # clocks before: the first answer is for the first clock of forced play.
                m.d.comb += [ctl_next.resolve.eq(1),
                             ctl_next.force.eq(Cat(ctl.force[1], ctl.force[0]))]
                with m.If(count != 2):
                    m.d.sync += count.eq(count + 1)
                with m.Else():
                    with m.If(three):
                        m.d.sync += flags.illegal.eq(1)
                        finish()
                    with m.Elif(~active):
                        with m.If(trying):
                            m.next = "DETECT"
                        with m.Else():
                            finish()

            with m.State("DETECT"):
                m.d.sync += [flags.loop_white.eq(0), flags.loop_red.eq(0),
                             flags.line_white.eq(0), flags.line_red.eq(0), pass_no.eq(0)]
                m.next = "PASS"

            # Passes 0, 1: loops of white, red; 2, 3: lines along x; 4, 5: lines along y;
            # 6, 7 (TRY_THREAT only): threats of white, red.
            with m.State("PASS"):
                m.d.sync += [colour.eq(pass_no[0]), count.eq(0), pass_no.eq(pass_no + 1)]
                with m.Switch(pass_no):
                    with m.Case(0, 1):
                        m.d.sync += mode.eq(_Pass.LOOP)
                        m.next = "INIT"
                    with m.Case(2, 3):
                        m.d.sync += mode.eq(_Pass.LINE_X)
                        with m.If(span_x):
                            m.next = "INIT"
                    with m.Case(4, 5):
                        m.d.sync += mode.eq(_Pass.LINE_Y)
                        with m.If(span_y):
                            m.next = "INIT"
                    with m.Case(6, 7):
                        m.d.sync += mode.eq(_Pass.THREAT)
                        with m.If(threats):
                            m.next = "INIT"
                        with m.Else():
                            finish()
                    with m.Default():
                        finish()

            with m.State("INIT"):
                m.next = "PROPAGATE"

            with m.State("PROPAGATE"):
                # The flags start moving on the second clock here; the activity tree answers
                # two clocks after each step.
                m.d.comb += ctl_next.init.eq(0)
                with m.If(count != 3):
                    m.d.sync += count.eq(count + 1)
                with m.Elif(~active):
                    m.d.sync += count.eq(0)
                    with m.If(mode == _Pass.THREAT):
                        m.next = "ENDS"
                    with m.Else():
                        m.next = "RESULT"

            with m.State("ENDS"):
                # The ends register one clock after the flags settle, the threat leaves the
                # next, the tree's root the one after.
                m.d.comb += ctl_next.init.eq(0)
                m.d.sync += count.eq(count + 1)
                with m.If(count == 1):
                    m.next = "RESULT"

            with m.State("RESULT"):
                with m.If(mode == _Pass.THREAT):
                    with m.If(colour):
                        m.d.sync += flags.threat_red.eq(threat)
                    with m.Else():
                        m.d.sync += flags.threat_white.eq(threat)
                with m.Elif(mode == _Pass.LOOP):
                    with m.If(colour):
                        m.d.sync += flags.loop_red.eq(closed)
                    with m.Else():
                        m.d.sync += flags.loop_white.eq(closed)
                with m.Elif(colour):
                    m.d.sync += flags.line_red.eq(flags.line_red | line)
                with m.Else():
                    m.d.sync += flags.line_white.eq(flags.line_white | line)
                m.next = "PASS"

        return m
