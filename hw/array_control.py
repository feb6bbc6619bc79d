"""The tile array's controller: the FSM that turns one command into clocks of the cells.

:class:`~.array.TileArray` is a grid of cells plus a little datapath around it (a read tree, the
occupancy of columns and rows, the seed lines, registered OR trees over the cells' answers);
this is the rest. It accepts the commands of :mod:`.array_port`, drives the cells through a
registered broadcast (``ctl``, and ``write`` with the address ``ax``, ``ay``), chooses what the
seed lines carry during a detection pass (``mode``) and reads the datapath's answers back. Every
answer is registered in the datapath, so the FSM waits a fixed number of clocks after each step
before it believes one; the comments at those states say why that number.

The FSM has one group of states per kind of command, each added by its own method:

- ``_decode``: IDLE, which accepts a command and starts the group that carries it out
  (DISCARD is carried out there: it only orders the clear);
- ``_settle``: waiting for a change to reach the bounding box (WRITE, PLACE, sweeps);
- ``_sweep``: CLEAR, COMMIT and SHIFT, which copy the bounding box square by square through the
  single-cell port (the cells have no hardware for these rare commands);
- ``_access``: WRITE and READ, through the single-cell port;
- ``_place``: PLACE's gather of the square and its neighbours (or the neighbourhood kept from
  the last PLACE there), choice of colouring and write;
- ``_resolve``: forced play, one ring per clock;
- ``_detect``: the passes of DETECT and TRY_THREAT, each started on the clock the last one ends.
"""

from amaranth.hdl import Array, Cat, Const, Module, Mux, Signal
from amaranth.lib import data, enum, stream, wiring
from amaranth.lib.wiring import In, Out

from fpgatrax.hw.array_port import (
    Flags,
    Op,
    attack_layout,
    bounding_box_layout,
    command_layout,
)
from fpgatrax.hw.cell import control_layout
from fpgatrax.hw.tiles import TILE_BITS, Direction, Symbol, first_colouring, fits

__all__ = ["Pass", "answers_layout", "grid_outputs", "STEPS", "ArrayControl"]


class Pass(enum.Enum, shape=2):
    """What the cells' flags are seeded with during a detection pass."""
    LOOP = 0    # every empty square (a track not reached is closed)
    LINE_X = 1  # just left of the tiles in play, and their rightmost column ends lines
    LINE_Y = 2  # just above, and their bottom row ends lines
    THREAT = 3  # the placed square only (its track's ends are found)


def answers_layout(lanes=1):
    """The registered OR trees over the cells' answers (:class:`~.cell.Cell` documents each),
    those about tracks one per colour followed (``lanes``: 1, or 2 for white and red); ``double``
    (arrays with labels) is whether two cells or more report a threat."""
    return data.StructLayout({"active": 1, "three": 1, "line": lanes, "closed": lanes,
                              "threat": lanes, "double": lanes})

def grid_outputs(width, height, levels):
    """The controller's outputs that drive the grid, as signature members: the broadcast, the
    write and its address, the detection pass. The array's proofs drive the same from free
    inputs (:mod:`.array_proof`)."""
    return {"ctl": Out(control_layout(levels)), "write": Out(1),
            "ax": Out(range(-1, width + 1)), "ay": Out(range(-1, height + 1)),
            "mode": Out(Pass)}


#: One step towards each direction, (dx, dy), by the direction's value (its neighbour index).
STEPS = {Direction.N.value: (0, -1), Direction.E.value: (1, 0),
         Direction.S.value: (0, 1), Direction.W.value: (-1, 0)}


class ArrayControl(wiring.Component):
    """The command FSM of a ``width`` × ``height`` array with ``levels`` trial levels, whose
    cells follow both colours in one detection pass if ``both_colours``, and label tracks in
    their threat passes if ``labels``.

    Ports
    -----
    cmd, done, cycles, flags, rdata
        The array's command stream and the results the FSM produces (see :mod:`.array_port`).
    bbox : In
        The array's bounding box (the sweeps cover it; PLACE on an empty board ignores the
        neighbours).
    settled : Out(1)
        No change to the tiles is still on its way to ``bbox`` (DISCARD finishes before its
        change has arrived there; the sweeps wait for this).
    span_x, span_y : In(1)
        The tiles span at least a line's length along x, along y (a line pass is worthwhile).
    read : In(TILE_BITS)
        The tile at (``ax``, ``ay``), registered: it answers for the address of the clock
        before.
    answers : In(answers_layout(lanes))
        The OR trees, two clocks behind the cells (registered leaves and root).
    attack_at : In(ArrayLayout(attack_layout(width, height), lanes))
        Where the cells that report a threat are, per colour followed, as timely as
        ``answers``.
    attacks : Out
        The array's ``attacks`` result: ``attack_at`` as each colour's threat pass ended.
    ctl : Out(control_layout(levels))
        The registered broadcast to every cell.
    write : Out(1)
        Registered: the cell at (``ax``, ``ay``) takes ``ctl.wdata`` at ``ctl.level``.
    ax, ay : Out
        The addressed cell, for reading and writing (-1 and ``width``/``height`` are outside).
    mode : Out(Pass)
        What the seed lines carry in the current detection pass.
    """

    def __init__(self, width, height, levels, both_colours=False, labels=False):
        self.width, self.height, self.levels = width, height, levels
        self.both_colours, self.labels = both_colours, labels
        lanes = 2 if both_colours else 1
        super().__init__({
            "cmd": In(stream.Signature(command_layout(width, height, levels))),
            "done": Out(1),
            "cycles": Out(16),
            "flags": Out(Flags),
            "rdata": Out(TILE_BITS),
            "bbox": In(bounding_box_layout(width, height)),
            "settled": Out(1),
            "span_x": In(1),
            "span_y": In(1),
            "read": In(TILE_BITS),
            "answers": In(answers_layout(lanes)),
            "attack_at": In(data.ArrayLayout(attack_layout(width, height), lanes)),
            "attacks": Out(data.ArrayLayout(attack_layout(width, height), 2)),
            **grid_outputs(width, height, levels),
        })

    def elaborate(self, platform):
        m = Module()
        W, H, L = self.width, self.height, self.levels
        # The broadcast is registered: what the states below set here reaches the cells on the
        # next clock.
        self._ctl_next = ctl_next = Signal(control_layout(L))
        self._write_next = Signal()
        m.d.sync += [self.ctl.eq(ctl_next), self.write.eq(self._write_next)]

        # Registers that several groups of states share.
        self._cmd = Signal(command_layout(W, H, L))   # the command being carried out
        self._level = Signal(L)         # thermometer level of written and forced tiles
        self._colour = Signal()         # of the track a detection pass follows
        self._count = Signal(range(8))  # clocks within a state
        self._placed = Signal(TILE_BITS)   # the tile the next write puts down
        self._parity = Signal()         # of the placed square: which cells force first
        self._trying = Signal()         # PLACE goes on to RESOLVE and DETECT (TRY, TRY_THREAT)
        self._threats = Signal()        # and DETECT to the threat passes (TRY_THREAT)
        self._pass_no = Signal(range(9))   # the first detection pass that may run next
        # The neighbourhood PLACE gathered last is still the array's, and for which square
        # and level (see ``_place``).
        self._kept = Signal()
        self._kept_at = Signal(data.StructLayout({"x": range(W), "y": range(H),
                                                  "level": len(self.cmd.payload.level)}))
        self._sweep_at = _SweepRegisters(W, H)
        m.d.comb += [
            ctl_next.init.eq(1),
            ctl_next.level.eq(self._level),
            ctl_next.colour.eq(self._colour),
            ctl_next.threat.eq(self.mode == Pass.THREAT),
            ctl_next.wdata.eq(self._placed),
            ctl_next.half.eq(~self.ctl.half),
        ]
        with m.If(~self.cmd.ready):
            m.d.sync += self.cycles.eq(self.cycles + 1)
        # A change ordered on a clock reaches the cells on the next, the column/row occupancy
        # the one after and the bounding box registers the one after that.
        changing = Signal(3)
        m.d.sync += changing.eq(Cat(self._write_next | ctl_next.clear.any() |
                                    ctl_next.force.any(), changing[:2]))
        m.d.comb += self.settled.eq(~changing.any())
        self._changing = changing
        m.d.sync += self.done.eq(0)

        # The command's symbol's first colouring (the other is its complement).
        self._first = Signal(TILE_BITS)
        with m.Switch(self._cmd.symbol):
            for symbol in Symbol:
                with m.Case(symbol):
                    m.d.comb += self._first.eq(first_colouring(symbol))

        self._following = self._following_pass(m)
        with m.FSM():
            self._decode(m)
            self._settle(m)
            self._access(m)
            self._sweep(m)
            self._place(m)
            self._resolve(m)
            ended = self._detect(m)
        self._end_pass(m, ended)
        return m

    # -- shared steps ---------------------------------------------------------------------------

    def _finish(self, m):
        """The command is done: pulse ``done`` and accept the next."""
        m.d.sync += self.done.eq(1)
        m.next = "IDLE"

    def _wait_for_bbox(self, m):
        """Finish once the change ordered on this clock has reached the bounding box."""
        m.next = "SETTLE"

    def _settle(self, m):
        """SETTLE: the end of every command that changes tiles but reports no flags, except
        DISCARD (the search discards after every trial, and needs no bounding box then)."""
        with m.State("SETTLE"):
            # ``bbox`` is up to date on the ``done`` clock if no change was ordered on this
            # one (there is none here) or on the two before.
            with m.If(~self._changing[:2].any()):
                self._finish(m)

    # -- IDLE: accept a command -----------------------------------------------------------------

    def _decode(self, m):
        L, p = self.levels, self.cmd.payload
        with m.State("IDLE"):
            m.d.comb += self.cmd.ready.eq(1)
            with m.If(self.cmd.valid):
                m.d.sync += [self._cmd.eq(p), self.ax.eq(p.x), self.ay.eq(p.y),
                             self._count.eq(0), self.cycles.eq(1)]
                with m.If(p.op.as_value().matches(Op.CLEAR, Op.WRITE, Op.RESOLVE, Op.COMMIT,
                                                  Op.SHIFT)):
                    m.d.sync += self._kept.eq(0)   # these change the tiles
                with m.Switch(p.op):
                    with m.Case(Op.CLEAR, Op.COMMIT, Op.SHIFT):
                        m.next = "SWEEP_START"
                    with m.Case(Op.WRITE):
                        m.d.sync += [self._placed.eq(p.tile), self._level.eq(0)]
                        m.next = "WRITE"
                    with m.Case(Op.READ):
                        m.next = "READ"
                    with m.Case(Op.PLACE, Op.TRY, Op.TRY_THREAT):
                        m.d.sync += [self.flags.eq(0), self._trying.eq(p.op != Op.PLACE),
                                     self._threats.eq(p.op == Op.TRY_THREAT),
                                     self._level.eq(Cat(p.level > k for k in range(L))),
                                     self._parity.eq(p.x[0] ^ p.y[0]),
                                     self._kept_at.x.eq(p.x), self._kept_at.y.eq(p.y),
                                     self._kept_at.level.eq(p.level)]
                        with m.If(self._kept & (self._kept_at.x == p.x) & (self._kept_at.y == p.y)
                                  & (self._kept_at.level == p.level)):
                            m.next = "CHOOSE"
                        with m.Else():
                            m.d.sync += self._kept.eq(0)
                            m.next = "GATHER"
                    with m.Case(Op.RESOLVE):
                        m.next = "RESOLVE"
                    with m.Case(Op.DETECT):
                        self._first_pass(m)
                    with m.Case(Op.DISCARD):
                        with m.If(p.level != self._kept_at.level):
                            m.d.sync += self._kept.eq(0)
                        # Level 0 acts as 1: the committed tiles stay.
                        m.d.comb += self._ctl_next.clear.eq(
                            Cat(p.level <= k + 1 for k in range(L)))
                        self._finish(m)
                    with m.Default():
                        self._finish(m)

    # -- CLEAR, COMMIT, SHIFT: the sweep --------------------------------------------------------

    def _start_sweep(self, m, move_x, move_y, clear):
        """Start a sweep, which visits the destination squares of a rectangle row by row,
        copying into each the tile at (destination - (move_x, move_y)), or 0 if ``clear``.

        The rectangle is the bounding box, one square wider on the side the tiles move
        towards; destinations go from the far side when moving, so that a source is read
        before it is overwritten. The sweep writes level 0: it shifts and clears committed
        positions only.
        """
        bbox = self.bbox
        lo_x, hi_x = bbox.min_x - (move_x < 0), bbox.max_x + (move_x > 0)
        lo_y, hi_y = bbox.min_y - (move_y < 0), bbox.max_y + (move_y > 0)
        first_x, last_x = (hi_x, lo_x) if move_x > 0 else (lo_x, hi_x)
        first_y, last_y = (hi_y, lo_y) if move_y > 0 else (lo_y, hi_y)
        s = self._sweep_at
        m.d.sync += [
            s.x.eq(first_x), s.x_first.eq(first_x), s.x_last.eq(last_x),
            s.y.eq(first_y), s.y_first.eq(first_y), s.y_last.eq(last_y),
            s.step_x.eq(-1 if move_x > 0 else 1), s.step_y.eq(-1 if move_y > 0 else 1),
            s.delta_x.eq(move_x), s.delta_y.eq(move_y), s.zero.eq(clear), self._level.eq(0),
        ]
        with m.If(bbox.empty):
            self._finish(m)
        with m.Else():
            m.next = "SWEEP_READ"

    def _sweep(self, m):
        """SWEEP_START waits until the bounding box is up to date (a DISCARD may have just
        finished), then starts the command's sweep. Each square costs 4 clocks: address the
        source, wait for the read tree, take the tile and address the destination, write."""
        s, cmd = self._sweep_at, self._cmd
        with m.State("SWEEP_START"):
            with m.If(self.settled):
                with m.Switch(cmd.op):
                    with m.Case(Op.CLEAR):
                        self._start_sweep(m, 0, 0, clear=True)
                    with m.Case(Op.COMMIT):
                        self._start_sweep(m, 0, 0, clear=False)
                    with m.Case(Op.SHIFT):
                        with m.Switch(cmd.dir):
                            for direction, (move_x, move_y) in STEPS.items():
                                with m.Case(direction):
                                    self._start_sweep(m, move_x, move_y, clear=False)

        with m.State("SWEEP_READ"):
            m.d.sync += [self.ax.eq(s.x - s.delta_x), self.ay.eq(s.y - s.delta_y)]
            m.next = "SWEEP_WAIT"

        with m.State("SWEEP_WAIT"):
            m.next = "SWEEP_TAKE"

        with m.State("SWEEP_TAKE"):
            m.d.sync += [self._placed.eq(Mux(s.zero, 0, self.read)), self.ax.eq(s.x),
                         self.ay.eq(s.y)]
            m.next = "SWEEP_WRITE"

        with m.State("SWEEP_WRITE"):
            m.d.comb += self._write_next.eq(1)
            with m.If(s.x != s.x_last):
                m.d.sync += s.x.eq(s.x + s.step_x)
                m.next = "SWEEP_READ"
            with m.Elif(s.y != s.y_last):
                m.d.sync += [s.x.eq(s.x_first), s.y.eq(s.y + s.step_y)]
                m.next = "SWEEP_READ"
            with m.Else():
                self._wait_for_bbox(m)

    # -- WRITE, READ ----------------------------------------------------------------------------

    def _access(self, m):
        """WRITE and READ, through the single-cell port; a READ's answer comes two clocks after
        its address (the address register, then the read tree's)."""
        with m.State("WRITE"):
            m.d.comb += self._write_next.eq(1)
            self._wait_for_bbox(m)

        with m.State("READ"):
            with m.If(self._count == 1):
                m.d.sync += self.rdata.eq(self.read)
                self._finish(m)
            m.d.sync += self._count.eq(self._count + 1)

    # -- PLACE ----------------------------------------------------------------------------------

    def _place(self, m):
        """PLACE: read the square and its four neighbours through the read tree (GATHER: one
        address per clock, each answer a clock later), choose the colouring that fits them and
        write it (CHOOSE); TRY and TRY_THREAT go on to RESOLVE.

        The search tries up to three symbols on each square, discarding each trial before the
        next, so the neighbourhood it gathered is *kept*: a PLACE or TRY of the same square at
        the same level, with nothing but READs, DETECTs and DISCARDs of that level in between,
        chooses at once from it (CHOOSE)."""
        W, H = self.width, self.height
        cmd, flags, count = self._cmd, self.flags, self._count
        gathered = Signal(5 * TILE_BITS)   # own square, then neighbours N, E, S, W
        dx = Array(Const(v, range(-1, 2)) for v in (0, 0, 1, 0, -1))
        dy = Array(Const(v, range(-1, 2)) for v in (0, -1, 0, 1, 0))
        own = gathered[:TILE_BITS]
        near = [gathered[TILE_BITS * (d + 1):TILE_BITS * (d + 2)] for d in range(4)]
        near_occ = Cat(t.any() for t in near)
        empty = Signal()     # the board was empty: kept too, as after a DISCARD ``bbox`` lags
        first = self._first

        def put(tile):
            m.d.comb += [self._ctl_next.wdata.eq(tile), self._write_next.eq(1)]
            with m.If(self._trying):
                m.next = "RESOLVE"
            with m.Else():
                self._wait_for_bbox(m)

        with m.State("GATHER"):
            m.d.sync += count.eq(count + 1)
            with m.If(count < 4):
                m.d.sync += [self.ax.eq(cmd.x + dx[count + 1]), self.ay.eq(cmd.y + dy[count + 1])]
            for slot in range(5):
                with m.If(count == slot + 1):
                    m.d.sync += gathered[TILE_BITS * slot:TILE_BITS * (slot + 1)].eq(self.read)
            with m.If(count == 4):
                # The write after the choice goes to the square itself.
                m.d.sync += [self.ax.eq(cmd.x), self.ay.eq(cmd.y)]
            with m.If(count == 5):
                m.d.sync += [self._kept.eq(1), empty.eq(self.bbox.empty)]
                m.next = "CHOOSE"

        with m.State("CHOOSE"):
            with m.If((cmd.x >= W) | (cmd.y >= H)):
                m.d.sync += flags.not_adjacent.eq(1)
                self._finish(m)
            with m.Elif(empty):
                with m.If(cmd.symbol == Symbol.BACKSLASH):
                    m.d.sync += flags.mismatch.eq(1)
                    self._finish(m)
                with m.Else():
                    put(first)
            with m.Elif(own.any()):
                m.d.sync += flags.occupied.eq(1)
                self._finish(m)
            with m.Elif(~near_occ.any()):
                m.d.sync += flags.not_adjacent.eq(1)
                self._finish(m)
            with m.Elif(fits(first, near)):
                put(first)
            with m.Elif(fits(~first, near)):
                put(~first)
            with m.Else():
                m.d.sync += flags.mismatch.eq(1)
                self._finish(m)

    # -- RESOLVE --------------------------------------------------------------------------------

    def _resolve(self, m):
        """Forced play: the cells of the placed square's neighbours' parity first, then the
        parities alternate, one ring per clock, until the activity tree says nothing changed."""
        ctl, ctl_next, count = self.ctl, self._ctl_next, self._count
        with m.State("RESOLVE"):
            m.d.comb += [ctl_next.resolve.eq(1),
                         ctl_next.force.eq(Mux(self._parity, 0b01, 0b10))]
            m.d.sync += [self.flags.illegal.eq(0), count.eq(0)]
            m.next = "FORCE"

        with m.State("FORCE"):
            # The trees (registered leaves, registered root) answer for the state of two
            # clocks before: the first answer is for the first clock of forced play.
            m.d.comb += [ctl_next.resolve.eq(1),
                         ctl_next.force.eq(Cat(ctl.force[1], ctl.force[0]))]
            with m.If(count != 2):
                m.d.sync += count.eq(count + 1)
            with m.Else():
                with m.If(self.answers.three):
                    m.d.sync += self.flags.illegal.eq(1)
                    self._finish(m)
                with m.Elif(~self.answers.active):
                    with m.If(self._trying):
                        self._first_pass(m)
                    with m.Else():
                        self._finish(m)

    # -- DETECT and TRY_THREAT's passes ---------------------------------------------------------

    def _detect(self, m):
        """Passes 0, 1: loops of white, red; 2, 3: lines along x; 4, 5: lines along y (each
        skipped when the tiles' span is too short for a line); 6, 7 (TRY_THREAT only): threats
        of white, red. With ``both_colours`` the cells follow both colours in one pass, so only
        the even passes run. A pass lets the flags flow from their seeds until the activity
        tree is quiet (PROPAGATE); the clock that sees it quiet takes the trees' answers into
        the flags and starts the next pass, whose flags the cells clear on the clock after
        (a threat pass's answers come a clock later, in ENDS). Returns the strobe of a pass's
        end, which :meth:`_end_pass` acts on."""
        answers, count = self.answers, self._count
        ended = Signal()     # a pass ends on this clock: take its answers, start the next
        # Labels move on every other clock at worst: a labelling pass is quiet after two quiet
        # clocks in a row.
        quiet_before = Signal()
        m.d.sync += quiet_before.eq(~answers.active)
        quiet = ~answers.active
        if self.labels:
            quiet &= quiet_before | (self.mode != Pass.THREAT)
        with m.State("PROPAGATE"):
            # The flags start moving on the second clock here; the activity tree answers
            # two clocks after each step.
            m.d.comb += self._ctl_next.init.eq(0)
            with m.If(count != 3):
                m.d.sync += count.eq(count + 1)
            with m.Elif(quiet):
                with m.If(self.mode == Pass.THREAT):
                    m.next = "ENDS"
                with m.Else():
                    m.d.comb += ended.eq(1)
                    self._after_pass(m)

        with m.State("ENDS"):
            # The ends register one clock after the flags settle, the threat leaves the
            # next and the trees' roots the one after: a clock after the quiet one.
            m.d.comb += ended.eq(1)
            self._after_pass(m)
        return ended

    def _end_pass(self, m, ended):
        """On the clock a pass ends (``ended``, outside the FSM so that its two states share
        the logic): its answers into the flags, the cells' flags cleared on the next clock,
        and the next pass worth running started, or the command done after the last."""
        with m.If(ended):
            self._take_results(m)
            m.d.comb += self._ctl_next.init.eq(1)
            with m.If(self._following == 8):
                m.d.sync += self.done.eq(1)
            with m.Else():
                self._start_pass(m, self._following)

    def _after_pass(self, m):
        """The state after a pass ends (see :meth:`_end_pass`)."""
        with m.If(self._following == 8):
            m.next = "IDLE"
        with m.Else():
            m.next = "PROPAGATE"

    def _following_pass(self, m):
        """The first pass numbered ``_pass_no`` or more that is worth running (see
        :meth:`_detect`); 8 if none is."""
        runs, following = Signal(8), Signal(range(9))
        both = self.both_colours
        m.d.comb += [runs.eq(Cat(1, not both, self.span_x, self.span_x & (not both),
                                 self.span_y, self.span_y & (not both),
                                 self._threats, self._threats & (not both))),
                     following.eq(8)]
        for number in reversed(range(8)):
            with m.If(runs[number] & (self._pass_no <= number)):
                m.d.comb += following.eq(number)
        return following

    def _first_pass(self, m):
        """Clear the flags DETECT reports and start its first pass, loops (of white if one
        colour at a time); the cells' flags are held clear on the next clock, as on every
        clock outside PROPAGATE."""
        flags = self.flags
        m.d.sync += [flags.loop_white.eq(0), flags.loop_red.eq(0),
                     flags.line_white.eq(0), flags.line_red.eq(0)]
        self._start_pass(m, 0)
        m.next = "PROPAGATE"

    def _start_pass(self, m, number):
        """Start pass ``number``: its seeds and colour reach the cells with the clearing of
        their flags, and PROPAGATE lets them flow from the clock after (the caller goes
        there)."""
        m.d.sync += [self.mode.eq(number >> 1), self._colour.eq(number & 1),
                     self._pass_no.eq(number + 1), self._count.eq(0)]

    def _take_results(self, m):
        """The trees' answers for the pass that just ended into the flags: each lane's belong
        to its colour, white and red with both colours, else the pass's colour."""
        for lane in range(len(self.answers.closed)):
            self._take_result(m, self.mode, lane if self.both_colours else self._colour, lane)

    def _take_result(self, m, mode, colour, lane):
        """RESULT for one lane of the pass: its trees' answers into ``colour``'s flags (and,
        after a threat pass, where its attack is); ``colour`` is the lane's (0 white, 1 red)
        or the register of the pass's."""
        flags, answers = self.flags, self.answers
        named = {"threat": (flags.threat_white, flags.threat_red),
                 "double": (flags.double_white, flags.double_red),
                 "loop": (flags.loop_white, flags.loop_red),
                 "line": (flags.line_white, flags.line_red)}
        with m.If(mode == Pass.THREAT):
            if not self.labels:
                m.d.sync += self.attacks[colour].eq(self.attack_at[lane])
            self._set_flag(m, named["threat"], colour, answers.threat[lane])
            if self.labels:
                self._set_flag(m, named["double"], colour, answers.double[lane])
        with m.Elif(mode == Pass.LOOP):
            self._set_flag(m, named["loop"], colour, answers.closed[lane])
        with m.Else():
            white, red = named["line"]
            self._set_flag(m, named["line"], colour,
                           Mux(colour, red, white) | answers.line[lane])

    @staticmethod
    def _set_flag(m, pair, colour, value):
        """Set the flag of ``colour`` among ``pair`` (white, red) to ``value``."""
        if isinstance(colour, int):
            m.d.sync += pair[colour].eq(value)
            return
        with m.If(colour):
            m.d.sync += pair[1].eq(value)
        with m.Else():
            m.d.sync += pair[0].eq(value)


class _SweepRegisters:
    """Where a sweep is: its destination (x, y), its rectangle's first and last columns and
    rows in the order visited, the step between destinations, the offset of each source from
    its destination, and whether it writes zeros (CLEAR)."""

    def __init__(self, width, height):
        def registers(shape, *names):
            return (Signal(shape, name=f"sweep_{name}") for name in names)

        self.x, self.x_first, self.x_last = registers(range(-1, width + 1), "x", "first_x",
                                                      "last_x")
        self.y, self.y_first, self.y_last = registers(range(-1, height + 1), "y", "first_y",
                                                      "last_y")
        self.step_x, self.step_y, self.delta_x, self.delta_y = registers(
            range(-1, 2), "step_x", "step_y", "delta_x", "delta_y")
        self.zero = Signal(name="sweep_zero")
