"""The systolic tile array: a W×H grid of :class:`~.cell.Cell` and the controller that drives it.

This is the heart of the player. The search places candidate moves in it thousands of times per
turn, so everything that scales with the board happens in all cells at once, one neighbour step
per clock: forced play, loop and line detection, clearing a trial level. Around the grid sits a
little datapath, built here, and a small FSM that sequences the steps, :mod:`.array_control`;
controllers talk to the array through its command port, :mod:`.array_port`, which documents the
command set, its timing and its results.

Coordinates and contents
------------------------
Cells are ``x`` in ``0..width-1`` (west to east) and ``y`` in ``0..height-1`` (north to south).
A tile is its white-edge mask (:mod:`.tiles`), ``0`` empty. Every tile carries a *level*: 0 for
the committed position, 1 to ``levels`` (2 unless given) for nested trial levels. The search
places its own move at level 1, each opponent reply at level 2, and so on one level per ply, and
discards a level once it has read the flags; ``COMMIT`` makes every tile committed (after the
chosen move, and after the opponent's move, each tried at level 1 first).

The datapath
------------
Each piece is added by its own method of :class:`TileArray`:

- ``_addressing``: one cell selected by (``ax``, ``ay``) for writing, and a registered read
  tree that returns its tile. PLACE reads the square and its neighbours through it, and the
  sweeps copy tiles through it.
- ``_occupancy``: which columns and rows hold a tile, registered; from them the bounding box,
  the border flag and whether the tiles span a line's length along each axis.
- ``_seed_lines``: what an empty square in each column and row reports during a detection pass
  (including the squares just outside the array), and which column and row end a line.
- ``_wire_cells``: the broadcast, selects and seeds to every cell, and each cell's neighbours.
- ``_answers``: the registered OR trees over the cells' answers. The array spans the whole
  board, so an unregistered tree would be the longest path of the design; the controller waits
  the two clocks (leaves, root) instead.

Timing
------
DETECT runs up to six passes: loops of white and red, then lines of white and red along each
axis whose span is at least 8 (a pass for an axis with a smaller span is not run). A pass lasts
4 clocks plus the number of squares the flag has to travel along the longest track involved:
the clock that sees the activity tree quiet takes the pass's answers and starts the next pass,
whose flags the cells clear on the clock after.

TRY_THREAT adds two passes to DETECT, one per colour, each 5 clocks plus the length of the
placed tile's track: the flag floods from the placed square alone, the empty squares its track
enters mark themselves as ends, and an end next to an end sets the flag (its answers come a
clock after the quiet one). Ends outside the array are not seen, so a threat there is not
reported.

With ``labels`` the threat passes label every track instead (:mod:`.cell`): a threat pass then
reports whether its colour has an attack anywhere in the array, made by this move or not, on
its placed tile's track or any other, and whether it has two or more (a double attack: the
cells that report one lie in two columns or two rows), and lasts 5 clocks plus up to twice
the length of the longest track (a label moves a square every one or two clocks, and the pass
ends after two quiet clocks); ``attacks`` is not set. The labels cost each cell a register of
``label_bits(width, height)`` bits per colour followed and a comparator.

With ``both_colours`` every cell keeps a flag per colour, so each pass follows the white and the
red tracks at once and the passes of a colour pair become one: three passes for DETECT, four for
TRY_THREAT, for a few more LUTs per cell.

PLACE gathers the square and its neighbours through the read tree (6 clocks) and writes on the
next; the search tries up to three symbols on a square, discarding each before the next, so the
controller keeps the neighbourhood it gathered and a PLACE of the same square and level after
nothing but DISCARDs of that level chooses from it at once. DISCARD is done on the clock after
it is accepted; its clear reaches the bounding box three clocks later (``settled``).

CLEAR, COMMIT and SHIFT are rare (once or twice per game move), so the cells have no hardware
for them: the controller *sweeps* the bounding box of the tiles (for SHIFT, widened by one
square on the side the tiles move towards), reading each square's source and writing the
destination through the single-cell port, 4 clocks per square plus 5 (2 on an empty board).
The sweep writes level 0, so shift and clear committed positions only.

Outputs
-------
``port`` is the command port (:class:`~.array_port.ArrayPort`, flipped: the array's end).
``board`` is every cell's tile, cell ``(x, y)`` at bits ``4*(y*width + x)``: for testbenches;
synthesis removes it when unused.
"""

from amaranth.hdl import Cat, Const, Module, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from fpgatrax.host.rules.variant import LINE_SPAN
from fpgatrax.hw.array_control import STEPS, ArrayControl, Pass
from fpgatrax.hw.array_port import ArrayPort
from fpgatrax.hw.cell import Cell
from fpgatrax.hw.tiles import TILE_BITS, opposite

__all__ = ["TileArray", "label_bits"]


def label_bits(width, height):
    """The bits of a label: every cell index, and ``none`` (all ones) above them."""
    return (width * height).bit_length()


class TileArray(wiring.Component):
    """A ``width`` × ``height`` array of cells with ``levels`` trial levels and its command
    controller (see :mod:`.array_port` for the command set, timing and results); with
    ``both_colours`` a detection pass follows both colours at once (same results, fewer
    clocks, more LUTs); with ``labels`` the threat passes find every attack (see above).
    ``line_span`` is the span a line needs to win: the variant's (8, or Mini Trax's 3).

    Ports
    -----
    port : In(ArrayPort(width, height, levels))
        The command port; a controller's ``Out(ArrayPort(...))`` connects to it.
    board : Out(TILE_BITS * width * height)
        Every cell's tile, for testbenches.
    cut : In(1)
        The array holds a window cut out of a larger game: no line passes run (a track that
        leaves the window would look like a line between its edges; see ``player_model``).
    """

    #: What carries out the commands. The array's proofs (:mod:`.array_proof`) put a
    #: controller in its place whose outputs the solver chooses freely.
    Controller = ArrayControl

    def __init__(self, width, height, levels=2, both_colours=False, line_span=LINE_SPAN,
                 labels=False):
        for name, value, least in (("width", width, 3), ("height", height, 3),
                                   ("line_span", line_span, 2)):
            if not isinstance(value, int) or value < least:
                raise ValueError(f"{name} must be an integer of at least {least}, not {value!r}")
        if not isinstance(levels, int) or levels < 1:
            raise ValueError(f"levels must be an integer of at least 1, not {levels!r}")
        self.width, self.height, self.levels = width, height, levels
        self.both_colours, self.line_span, self.labels = both_colours, line_span, labels
        super().__init__({
            "port": In(ArrayPort(width, height, levels)),
            "board": Out(TILE_BITS * width * height),
            "cut": In(1),
        })

    def elaborate(self, platform):
        m = Module()
        W, H, L = self.width, self.height, self.levels
        bits = label_bits(W, H) if self.labels else 0
        cells = [[Cell((x + y) & 1, L, self.both_colours, index=y * W + x, label_bits=bits)
                  for x in range(W)] for y in range(H)]
        for y in range(H):
            for x in range(W):
                m.submodules[f"cell_{x}_{y}"] = cells[y][x]

        # The controller carries out the commands; the bounding box and the border flag come
        # from the datapath.
        m.submodules.control = control = self.Controller(W, H, L, self.both_colours, self.labels)
        port = self.port
        wiring.connect(m, wiring.flipped(port.cmd), control.cmd)
        m.d.comb += [port.done.eq(control.done), port.cycles.eq(control.cycles),
                     port.flags.eq(control.flags), port.rdata.eq(control.rdata),
                     port.attacks.eq(control.attacks), port.settled.eq(control.settled),
                     control.bbox.eq(port.bbox)]

        x_sel, y_sel = self._addressing(m, cells, control)
        col_occ, row_occ = self._occupancy(m, cells, control)
        seeds = self._seed_lines(m, col_occ, row_occ, control.mode)
        self._wire_cells(m, cells, control, x_sel, y_sel, seeds)
        self._answers(m, cells, control)
        m.d.comb += self.board.eq(Cat(cell.state.tile for row in cells for cell in row))
        return m

    def _addressing(self, m, cells, control):
        """One-hot column and row selects of (``ax``, ``ay``), and the read tree: the selected
        tile, registered into ``control.read``. Returns the selects."""
        W, H = self.width, self.height
        x_sel = Signal(W)
        y_sel = Signal(H)
        m.d.comb += [x_sel.eq(Cat(control.ax == x for x in range(W))),
                     y_sel.eq(Cat(control.ay == y for y in range(H)))]
        read_any = 0
        for y in range(H):
            row = 0
            for x in range(W):
                row = row | (cells[y][x].state.tile & x_sel[x].replicate(TILE_BITS))
            read_any = read_any | (row & y_sel[y].replicate(TILE_BITS))
        m.d.sync += control.read.eq(read_any)
        return x_sel, y_sel

    def _occupancy(self, m, cells, control):
        """The occupied columns and rows (registered), and from them the bounding box and the
        border flag (registered again) and the spans the line passes need. Returns the
        occupancy (``col_occ``, ``row_occ``)."""
        W, H = self.width, self.height
        col_occ = Signal(W)
        row_occ = Signal(H)
        m.d.sync += [
            col_occ.eq(Cat(Cat(cells[y][x].occ for y in range(H)).any() for x in range(W))),
            row_occ.eq(Cat(Cat(cells[y][x].occ for x in range(W)).any() for y in range(H))),
        ]
        bbox = self.port.bbox
        m.d.sync += [
            bbox.empty.eq(~col_occ.any()),
            self.port.border.eq(col_occ[0] | col_occ[W - 1] | row_occ[0] | row_occ[H - 1]),
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
        # Tiles in play are connected, so their columns are contiguous: a span of at least
        # ``line_span`` (8; Mini Trax's 3) is two occupied columns ``line_span - 1`` apart.
        n = self.line_span
        m.d.comb += [
            control.span_x.eq(~self.cut & Cat(col_occ[x] & col_occ[x + n - 1]
                                              for x in range(W - n + 1)).any()),
            control.span_y.eq(~self.cut & Cat(row_occ[y] & row_occ[y + n - 1]
                                              for y in range(H - n + 1)).any()),
        ]
        return col_occ, row_occ

    def _seed_lines(self, m, col_occ, row_occ, mode):
        """The registered seed lines of the detection pass ``mode``: what an empty square in
        each column and row reports (indexed from -1 to ``width`` or ``height``, offset by one,
        so that the squares outside the array have one too), and which column and row end a
        line. A loop pass seeds every empty square; a line pass along x seeds the column just
        left of the tiles and ends lines in their rightmost column (along y: above, bottom).
        Returns (``seed_col``, ``seed_row``, ``end_col``, ``end_row``)."""
        W, H = self.width, self.height
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

        edge_lines(col_occ, W, seed_col, end_col, mode == Pass.LINE_X)
        edge_lines(row_occ, H, seed_row, end_row, mode == Pass.LINE_Y)
        with m.If(mode == Pass.LOOP):
            m.d.sync += [seed.eq(1) for seed in seed_col]
        return seed_col, seed_row, end_col, end_row

    def _wire_cells(self, m, cells, control, x_sel, y_sel, seeds):
        """Every cell gets the broadcast, its selects, its column's and row's seed and line-end
        lines, and its four neighbours; a cell on the border sees an empty square outside the
        array, reporting that square's seed."""
        W, H = self.width, self.height
        seed_col, seed_row, end_col, end_row = seeds
        for y in range(H):
            for x in range(W):
                cell = cells[y][x]
                m.d.comb += [
                    cell.ctl.eq(control.ctl),
                    cell.sel_x.eq(x_sel[x] & control.write),
                    cell.sel_y.eq(y_sel[y]),
                    cell.at.eq(x_sel[x] & y_sel[y]),
                    cell.seed_col.eq(seed_col[x + 1]),
                    cell.seed_row.eq(seed_row[y + 1]),
                    cell.end_col.eq(end_col[x]),
                    cell.end_row.eq(end_row[y]),
                ]
                for d, (dx, dy) in STEPS.items():
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
                        if self.labels:
                            m.d.comb += port.label.eq(other.label)
                    else:
                        m.d.comb += port.flag.eq(
                            (seed_col[nx + 1] | seed_row[ny + 1]).replicate(len(port.flag)))
                        if self.labels:     # no label: an end outside the array is not seen
                            m.d.comb += port.label.eq(-1)

    def _answers(self, m, cells, control):
        """The registered OR trees over the cells' (registered) answers, one per colour followed
        for those about tracks; where the cells reporting a threat are, or with labels whether
        two or more report one (a double attack)."""
        flat = [cell for row in cells for cell in row]
        for name in ("active", "three", "line", "closed", "threat"):
            answer = getattr(control.answers, name)
            for lane in range(len(answer)):
                m.d.sync += answer[lane].eq(Cat(getattr(cell, name)[lane] for cell in flat).any())
        for lane in range(len(control.answers.threat)):
            cols, rows = self._threat_lines(cells, lane)
            if self.labels:
                # Two cells that report differ in their column or their row.
                m.d.sync += control.answers.double[lane].eq(_two_or_more(cols) |
                                                            _two_or_more(rows))
            else:
                self._attack_at(m, cols, rows, lane, control.attack_at[lane])

    def _threat_lines(self, cells, lane):
        """The columns and the rows in which a cell reports a threat in ``lane``."""
        W, H = self.width, self.height
        return (Cat(Cat(cells[y][x].threat[lane] for y in range(H)).any() for x in range(W)),
                Cat(Cat(cells[y][x].threat[lane] for x in range(W)).any() for y in range(H)))

    def _attack_at(self, m, cols, rows, lane, at):
        """Where the cells reporting a threat in ``lane`` are, from their columns and rows
        (registered, as timely as the OR trees). Without labels those are the two ends of one
        track, so they are adjacent: the first column and row holding one are the upper or
        left square's, and the other square is east of it if two columns hold one."""
        W, H = self.width, self.height
        threat_cols = Signal(W, name=f"threat_cols_{lane}")
        threat_rows = Signal(H, name=f"threat_rows_{lane}")
        m.d.sync += [threat_cols.eq(cols), threat_rows.eq(rows)]
        for i in reversed(range(W)):
            with m.If(threat_cols[i]):
                m.d.comb += at.x.eq(i)
        for i in reversed(range(H)):
            with m.If(threat_rows[i]):
                m.d.comb += at.y.eq(i)
        m.d.comb += at.east.eq(_two_or_more(threat_cols))


def _two_or_more(bits):
    """Whether two or more of ``bits`` are set: some bit set after one before it. (Clearing the
    lowest set bit with ``bits & (bits - 1)`` says the same, but its carry chain beside the
    labels' logic made Yosys 0.70's ABC9 reintegration fail an assertion on the 85F.)"""
    seen = many = Const(0, 1)
    for bit in bits:
        many = many | (seen & bit)
        seen = seen | bit
    return many
