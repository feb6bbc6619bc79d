"""The move search: the FSM that drives the tile array to choose the player's move.

It is the gateware twin of :mod:`fpgatrax.hw.search_model`, which documents the algorithm and
picks the same move for the same position, depth, trial limit and array size; read that first. In
short:

- a **win pass** tries every candidate (raster order over the tiles' ring, symbols ``+ / \\``)
  at trial level 1 and plays the first that wins for the mover;
- otherwise a **negamax** search with alpha-beta pruning looks 1, 2, … ``depth`` plies ahead
  (iterative deepening), ply *k* on trial level *k* of the array, and evaluates the positions at
  its horizon by a **leaf scan** one level deeper, with TRY_THREAT: a win for the side to move
  there, or a value from three counts of squares (the opponent's threats, and the moves that
  leave a loop threat of either colour), or with ``every_attack`` a win two plies later if a
  move leaves the side to move a double attack (the array's double flags);
- every negamax trial reports whether the move made an *attack* (a track one tile from a
  loop) and on which two squares: in a node under a fresh attack (an *evasion node*) a move
  that leaves both squares empty (two READs tell) is lost at once, without a deeper search; a
  move at the horizon that makes an attack is searched ``extension`` plies deeper; with
  ``every_attack`` the array reports whether each colour holds an attack anywhere, and any
  move that leaves the opponent one is lost at once, with no READs;
- with ``tss`` plies of **threat-space search**, the win pass is followed by a negamax that goes
  on only with the mover's attacks and the replies to them, on the null window (0, 1): a root
  move proven to win is played at once; otherwise (or when it reaches ``tss_trials``) the
  deepening starts;
- with ``veto`` plies, each root move that becomes the best of the last iteration is tried again
  and the opponent's threat-space search runs after it (the same mode, the opponent attacking,
  on the null window (0, 1)); a move the opponent proves a win against is worth ``veto + 1 -
  WIN`` instead, below every leaf's value, so the scan goes on to the next best;
- each ply tries one move first: at the root the last iteration's choice, deeper down the
  ply's *killer* (the last move that cut a node off there, or won a leaf); when the trial limit
  runs out, the unfinished iteration's best move so far is played, if it has one.

Every candidate is one command of the array (TRY in the win pass; TRY_THREAT in the negamax: place,
forced play, loop and line detection, then the threat passes), and every one that places a tile
counts as one *trial*, the unit the model counts too; a trial limit stops the search at a trial
count. Squares are only ever tried inside the array, so the player centres the tiles before each
search (see ``window_of`` in the model) and the model skips the same squares. The search drives the
array through its ``array`` port while ``busy``; the player shares the array between it and its own
control (:class:`~.array_port.ArrayMux`, inside :class:`~.lanes.SearchLanes`).

How the FSM is built
--------------------
:meth:`MoveSearch.elaborate` makes the registers and adds the FSM; each piece of the algorithm is
a method that adds its statements:

- **Candidate enumeration** (``_ring_start``, ``_next_square``, ``_next_symbol``): the ring
  of squares a ply scans needs no storage. Whenever the scan moves on, the array holds just the
  ply's position (the move tried last placed nothing, or has been discarded), so the ring
  follows from the array's bounding box: one square wider on every side, within the array.
- **Frame stack** (``_new_frame``, ``_push``, ``_pop``): one *frame* per ply, the square and
  symbol being tried, the ply's alpha, beta and best value, where it is in its move order,
  whether it is a leaf scan, and the attack the move before it made (an evasion node).
  Going one ply deeper pushes the frame; coming back pops it and discards the trial level of the
  move just valued, which removes every deeper level with it. Values are small signed numbers
  (a win at ply *k* is worth ``WIN - k``; their shape comes from
  :class:`~.search_model.SearchValues`), so a frame is a few dozen flip-flops.
- **Move order** (``_remember``, ``_end_first``, ``_advance``): the first move of each ply and
  the killers.
- **Leaf counting** (``_count_square``, ``_leaf_value_of``): the three saturating counts of a leaf
  scan and the clamped value they make.
- **Judging a trial** (``_judge``, ``_evasion_check``, ``_go_on``): what the TRY's flags mean
  for the ply that made it; in an evasion node, first whether the move filled a square of the
  attack.
- **Deepening** (``_idle``, ``_iteration``, ``_end_of_ply``, ``_choose``): the start, a
  ply's end, an iteration's end, and the choice.
"""

from amaranth.hdl import Array, Cat, Const, Module, Mux, Signal
from amaranth.lib import data, wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from fpgatrax.host.rules.variant import variant_named
from fpgatrax.hw.array_port import ArrayPort, Op, attack_layout, command_states, goto
from fpgatrax.hw.search_model import (
    DEFAULT_DEPTH,
    DEFAULT_EXTENSION,
    TABLE_KEY_BITS,
    SearchValues,
    check_attack_settings,
    check_lane,
    check_table,
    levels_of,
    zobrist_table,
)
from fpgatrax.hw.tiles import Symbol

__all__ = ["MoveSearch", "square_layout", "frame_layout", "result_layout", "TRIAL_BITS"]

TRIAL_BITS = 24         # the trial counter: trials of one search


def square_layout(width, height):
    """A move in array coordinates: the square and the symbol."""
    return data.StructLayout({
        "x": range(width), "y": range(height), "symbol": Symbol,
    })


def result_layout(width, height, values):
    """A root move and its value: a finished iteration's best (kept per iteration in lanes)."""
    return data.StructLayout({"move": square_layout(width, height), "value": values.value})


def frame_layout(width, height, values, evasions=True, table=False):
    """What one ply of the search keeps while a deeper ply runs: ``first`` while it tries its
    first move (the root's last choice, or the ply's killer), ``tried_first`` once that move
    has been placed (so the raster scan does not value it again), whether it is a ``leaf``
    scan, whether the move before it made an attack (``attacked``: an evasion node) and
    where (``attack``; a search without ``evasions`` keeps neither), and with a ``table`` of
    leaf values the position's ``key``. ``values`` is the search's
    :class:`~.search_model.SearchValues`."""
    fields = {
        "move": square_layout(width, height),
        "alpha": values.value, "beta": values.value, "best": values.value,
        "first": 1, "tried_first": 1, "leaf": 1,
    }
    if evasions:
        fields.update({"attacked": 1, "attack": attack_layout(width, height)})
    if table:
        fields["key"] = TABLE_KEY_BITS
    return data.StructLayout(fields)


class MoveSearch(wiring.Component):
    """Chooses the mover's move on the committed position of a ``width`` × ``height`` array.

    Parameters
    ----------
    width, height : int
        The array's size (the search's coordinates and ring clamping follow it).
    depth : int
        Plies of negamax.
    evasions : bool
        Whether the search uses the attacks the array reports: check evasions, and extensions
        (the iCE40 boards have no room for them).
    extension : int
        Plies that a move making an attack at or beyond the horizon may extend the search by
        (0 without ``evasions``); the array needs ``depth + 1 + extension`` trial levels
        (``self.levels``).
    every_attack : bool
        The array labels its tracks and reports every attack of each colour
        (``TileArray(labels=True)``): a move that leaves the opponent an attack is lost at once,
        at every ply, and an evasion node reads no squares (5 in the model's docstring).
    max_trials : int
        The most trials a search makes (0: no limit), which bounds its time.
    veto, veto_trials : int
        Plies of the opponent's threat-space search that checks each new best root move of the
        last iteration (0: none; else odd, at least 3; ``every_attack`` only), and the trials
        each one may spend before it gives up (0: up to ``max_trials``). The array needs
        ``veto + 1`` trial levels.
    tss, tss_trials : int
        Plies of the threat-space search before the negamax (0: none; else odd, at least 3:
        it ends with the mover's ply), and the trial count at which it gives up (below
        ``max_trials``; 0: at ``max_trials``, a limit only with one). The array needs ``tss``
        trial levels too.
    variant : str
        ``standard``, ``8x8`` (a trial spanning more than 8 columns or rows is illegal) or
        ``loop`` (lines do not win).
    table : int
        A table of ``2**table`` leaf values in block RAM (0: none), emptied from each search's
        start, an entry a clock, while the win pass runs: a leaf whose position was scanned
        before in the search takes its value without a trial (12 in the model's docstring).
    lane, lanes : int
        With ``lanes`` above 1 the search is lane ``lane`` of a :class:`~.lanes.SearchLanes`:
        at the root it tries only the squares with ``(x + y) % lanes == lane`` (the others are
        passed over in a clock, without a trial), and it reports what the lanes' choice needs
        (the ports below from ``proven`` on).

    The search's constants and the shapes of its values are ``self.values``
    (:class:`~.search_model.SearchValues`), taken from the model when the search is made.

    Ports
    -----
    start : In(1)
        One-clock pulse: search for ``colour`` (0 white, 1 red), which is to move.
    busy, done : Out(1)
        ``busy`` from the clock after ``start`` until ``done``, a one-clock pulse after which
        ``found``, ``move``, ``win`` and ``trials`` hold the result.
    found : Out(1)
        A legal move was found inside the array.
    move : Out(square_layout)
        The chosen move, in array coordinates.
    win : Out(1)
        The chosen move wins (taken by the win pass).
    trials : Out
        Tiles placed by TRY commands during this search: ``TRIAL_BITS`` wide without a trial
        limit, else as wide as the limit (or a whole win pass, if more) needs.
    array : Out(ArrayPort(width, height, depth + 1 + extension))
        The array's command port, which the search drives while ``busy``.
    proven : Out(1)
        The chosen move is the threat-space search's proven win (lanes only).
    value : Out(values.value)
        The chosen move's value: its iteration's (finished or not), or ``-inf`` for the first
        legal move (lanes only).
    finished : Out(range(depth + 1))
        The deepest finished iteration (lanes only).
    results : Out(data.ArrayLayout(result_layout, depth))
        Each finished iteration's best root move and value, the first iteration's at index 0
        (lanes only).
    """

    def __init__(self, width, height, *, depth=DEFAULT_DEPTH, evasions=True,
                 extension=DEFAULT_EXTENSION, max_trials=0, tss=0, tss_trials=0,
                 variant="standard", lane=0, lanes=1, every_attack=False, table=0, veto=0,
                 veto_trials=0):
        check_lane(lane, lanes)
        check_table(table, (width, height))
        self.table = table
        if not isinstance(max_trials, int) or not 0 <= max_trials < 1 << TRIAL_BITS:
            raise ValueError(f"max_trials must be a whole number below 2**{TRIAL_BITS} "
                             f"(0: no limit), not {max_trials!r}")
        check_attack_settings(evasions, extension, max_trials, tss, tss_trials, every_attack, veto)
        self.values = SearchValues(depth, extension)
        self.width, self.height = width, height
        self.depth, self.max_trials, self.variant = depth, max_trials, variant_named(variant)
        self.evasions, self.extension, self.every_attack = evasions, extension, every_attack
        # The evasion nodes keep the attack's squares (READ after each trial) unless the array
        # reports every attack.
        self._squares = evasions and not every_attack
        self.tss, self.tss_trials = tss, (tss_trials or max_trials) if tss else 0
        self.veto, self.veto_trials = veto, (veto_trials or max_trials) if veto else 0
        self.levels = levels_of(depth, extension, tss, veto)
        self.lane, self.lanes = lane, lanes
        # The win pass counts every candidate (three symbols on each square) before the limit
        # is first checked.
        trial_bits = (max(max_trials, 3 * width * height) + 1).bit_length() if max_trials \
            else TRIAL_BITS
        lane_ports = {
            "proven": Out(1),
            "value": Out(self.values.value),
            "finished": Out(range(depth + 1)),
            "results": Out(data.ArrayLayout(result_layout(width, height, self.values), depth)),
        } if lanes > 1 else {}
        super().__init__({
            **lane_ports,
            "start": In(1),
            "colour": In(1),
            "busy": Out(1),
            "done": Out(1),
            "found": Out(1),
            "win": Out(1),
            "move": Out(square_layout(width, height)),
            "trials": Out(trial_bits),
            "array": Out(ArrayPort(width, height, self.levels)),
        })

    def elaborate(self, platform):
        m = Module()
        W, H, v = self.width, self.height, self.values
        P = self.levels                                 # the deepest ply
        square = square_layout(W, H)

        self._mover = Signal()
        self._ply = Signal(range(P + 1))                # the ply (and trial level) being scanned
        # The depth of this iteration (the threat-space search's: its plies).
        self._horizon = Signal(range(1, max(self.depth, self.tss) + 1))
        self._win_pass = Signal()
        self._tss = Signal()                            # the threat-space search runs
        # The veto runs, the value of the root move it checks, and the trial count at which it
        # gives up.
        self._veto = Signal()
        self._veto_value = Signal(v.value)
        self._veto_end = Signal(len(self.trials) + 1)
        self._value = Signal(v.value)                   # the value of the move just searched
        self._best_move = Signal(square)                # this iteration's best root move
        self._best_valid = Signal()
        self._chosen = Signal(square)                   # the last finished iteration's
        self._first_legal = Signal(square)
        self._legal_seen = Signal()
        # The frame stack: the scanning ply's frame, and the frames of plies 1 … P - 1 while a
        # deeper ply runs (ply k's at index k - 1).
        frame = frame_layout(W, H, v, self._squares, bool(self.table))
        self._frame = Signal(frame)
        self._stack = Array(Signal(frame, name=f"frame_{k + 1}") for k in range(P - 1))
        self._move = self._frame.move
        # The killers of plies 2 … P (ply k's at index k - 2), and which are set.
        self._killers = Array(Signal(square, name=f"killer_{k + 2}") for k in range(P - 1))
        self._has_killer = Array(Signal(name=f"has_killer_{k + 2}") for k in range(P - 1))
        # The leaf's counts of squares, and whether this square has been counted in each.
        self._counts = [Signal(v.count, name=name)
                        for name in ("threats", "mine_near", "theirs_near")]
        self._counted = Signal(3)
        # Whether a square of the leaf scan made a double attack (``every_attack``).
        self._double = Signal()
        self._leaf = self._frame.leaf

        self._outcome()
        self._ring(m)
        # TRY_THREAT where the threat flags are used: in the whole negamax with evasions, at
        # the leaf scans otherwise; TRY elsewhere.
        self._try_op = Signal(Op)
        threats = ~self._win_pass if self.evasions else self._leaf
        m.d.comb += self._try_op.eq(Mux(threats, Op.TRY_THREAT, Op.TRY))
        self._leaf_value = self._leaf_value_of(m)
        if self.table:
            self._table_ports(m)
        m.d.comb += self.busy.eq(1)
        m.d.sync += self.done.eq(0)
        with m.FSM():
            self._idle(m)
            if self.table:
                self._probe_states(m)
            self._ring_states(m)
            self._trial_states(m)
            self._result_state(m)
            self._end_of_ply(m)
            self._choose(m)
        return m

    def _idle(self, m):
        """IDLE until ``start``: a new search begins with the win pass at ply 1, with no
        killers, on the root's empty window (in START, once the array has settled)."""
        with m.State("IDLE"):
            m.d.comb += self.busy.eq(0)
            with m.If(self.start):
                m.d.sync += [self._mover.eq(self.colour), self.trials.eq(0), self._ply.eq(1),
                             self._win_pass.eq(1), self._best_valid.eq(0), self._veto.eq(0),
                             self._legal_seen.eq(0), self.found.eq(0), self.win.eq(0)]
                m.d.sync += [flag.eq(0) for flag in self._has_killer]
                if self.lanes > 1:
                    m.d.sync += [self.finished.eq(0), self.proven.eq(0)]
                if self.table:
                    m.d.sync += self._emptying.eq(1)
                m.next = "START"

    # -- what the last TRY found ----------------------------------------------------------------

    def _outcome(self):
        """What the last TRY found, from the point of view of the side that moved at ``ply``
        (the mover at odd plies): ``_mine``/``_theirs`` (that side's, the other's colour
        completed), ``_makes_mine``/``_makes_theirs`` (a loop threat of that colour left: an
        attack, for the move's own colour, whose squares are ``_made_at``),
        whether the move was placed and legal, whether the trial limit is reached, and whether
        it is the ply's first move met again in raster order (``_repeat``)."""
        flags, bbox = self.array.flags, self.array.bbox
        frame, ply = self._frame, self._ply
        lines = self.variant.line_span is not None
        white = flags.loop_white | (flags.line_white if lines else 0)
        red = flags.loop_red | (flags.line_red if lines else 0)
        side = self._mover ^ ~ply[0]
        self._mine = Mux(side, red, white)
        self._theirs = Mux(side, white, red)
        self._makes_mine = Mux(side, flags.threat_red, flags.threat_white)
        self._makes_theirs = Mux(side, flags.threat_white, flags.threat_red)
        self._makes_double = Mux(side, flags.double_red, flags.double_white)
        self._made_at = self.array.attacks[side]
        self._nothing_placed = flags.occupied | flags.not_adjacent
        too_wide = Const(0, 1)
        limit = self.variant.span_limit
        if limit is not None:
            too_wide = ((bbox.max_x - bbox.min_x) >= limit) | ((bbox.max_y - bbox.min_y) >= limit)
        self._legal = ~flags.illegal & ~too_wide
        self._out_of_trials = ((self.trials >= self.max_trials - 1) if self.max_trials
                               else Const(0, 1))
        # The threat-space search gives up at its own count (below the search's limit).
        self._tss_over = ((self._tss & (self.trials >= self.tss_trials - 1)) if self.tss_trials
                          else Const(0, 1))
        self._veto_over = ((self._veto & (self.trials >= self._veto_end - 1)) if self.veto_trials
                           else Const(0, 1))
        # This ply's first move, met again in raster order: valued already (a leaf looks at it
        # only for a win, so it counts it again as any candidate).
        first_move = Mux(ply == 1, self._chosen.as_value(), self._killers[ply - 2].as_value())
        self._repeat = (frame.tried_first & ~frame.first & ~self._leaf &
                        (self._move.as_value() == first_move))

    # -- candidate enumeration ------------------------------------------------------------------

    def _ring(self, m):
        """The ring the current ply scans: the bounding box one square wider on every side
        within the array (an empty board: the centre square), from the bounding box as it is
        (``_ring_now``) and as it was latched (``_ring_at``) when the ply's position was
        last complete and settled in the array. The scan uses the latched ring: after the
        DISCARD of a trial the bounding box takes a few clocks to shrink back, and the scan
        moves on at once."""
        W, H, bbox = self.width, self.height, self.array.bbox

        def clamp_low(v):
            return Mux(v == 0, 0, v - 1)

        def clamp_high(v, n):
            return Mux(v == n - 1, n - 1, v + 1)

        ring = data.StructLayout({"x0": range(W), "x1": range(W), "y0": range(H), "y1": range(H)})
        self._ring_now, self._ring_at = Signal(ring), Signal(ring)
        m.d.comb += [
            self._ring_now.x0.eq(Mux(bbox.empty, (W - 1) // 2, clamp_low(bbox.min_x))),
            self._ring_now.x1.eq(Mux(bbox.empty, (W - 1) // 2, clamp_high(bbox.max_x, W))),
            self._ring_now.y0.eq(Mux(bbox.empty, (H - 1) // 2, clamp_low(bbox.min_y))),
            self._ring_now.y1.eq(Mux(bbox.empty, (H - 1) // 2, clamp_high(bbox.max_y, H))),
        ]

    def _latch_ring(self, m):
        """Latch the ring of the position in the array (which must be the scanning ply's)."""
        m.d.sync += self._ring_at.eq(self._ring_now)

    def _ring_states(self, m):
        """States that wait for the bounding box to settle after a DISCARD, latch the ring of
        the position that is left, and go on: at the search's start, after a POP (back to
        the parent's scan) and after the threat-space search gives up (back to the root)."""
        def latch_then(state, then):
            with m.State(state):
                with m.If(self.array.settled):
                    self._latch_ring(m)
                    then()

        def start():
            self._new_frame(m, -self.values.inf, self.values.inf)
            m.next = "SCAN"
        latch_then("START", start)

        # The states after use the latched ring, from the next clock.
        latch_then("POP_RING", goto(m, "RESULT"))
        if self.veto:
            def veto_given_up():       # back to the root, the move's value as it was
                with m.If(self._ply != 1):
                    m.d.sync += [self._frame.eq(self._stack[0]), self._ply.eq(1)]
                m.d.sync += self._value.eq(0)
                m.next = "RESULT"
            latch_then("VETO_RING", veto_given_up)
        if self.tss:
            latch_then("TSS_RING", goto(m, "NEGAMAX"))
            with m.State("NEGAMAX"):
                self._negamax(m)

    def _ring_start(self, m, now=False):
        """The scan's first candidate: the ring's first square, symbol ``+``; ``now``: of the
        ring being latched on this clock."""
        move, ring = self._move, self._ring_now if now else self._ring_at
        m.d.sync += [move.x.eq(ring.x0), move.y.eq(ring.y0), move.symbol.eq(Symbol.PLUS)]

    def _next_square(self, m):
        """On to the next square of the ring (symbol ``+``), or the ply's end."""
        move = self._move
        m.d.sync += [move.symbol.eq(Symbol.PLUS), self._counted.eq(0)]
        with m.If(move.x != self._ring_at.x1):
            m.d.sync += move.x.eq(move.x + 1)
            m.next = "SCAN"
        with m.Elif(move.y != self._ring_at.y1):
            m.d.sync += [move.x.eq(self._ring_at.x0), move.y.eq(move.y + 1)]
            m.next = "SCAN"
        with m.Else():
            m.next = "END"

    def _next_symbol(self, m):
        """On to the next symbol of this square, or the next square."""
        move = self._move
        with m.If(move.symbol != Symbol.BACKSLASH):
            m.d.sync += move.symbol.eq(move.symbol.as_value() + 1)
            m.next = "SCAN"
        with m.Else():
            self._next_square(m)

    # -- the frame stack ------------------------------------------------------------------------

    def _new_frame(self, m, alpha, beta, killer=None, child=None):
        """Start scanning a ply (on the clock its position is complete in the array), with
        the index of its killer if it has one. A ply below the root gets ``child``: whether it
        is a leaf scan, and whether the move before it made an attack (an evasion node) and
        where."""
        frame = self._frame
        m.d.sync += [frame.alpha.eq(alpha), frame.beta.eq(beta), frame.best.eq(-self.values.inf),
                     frame.tried_first.eq(0), self._counted.eq(0)]
        m.d.sync += [count.eq(0) for count in self._counts]
        m.d.sync += self._double.eq(0)
        leaf, attacked, attack = child or (0, 0, None)
        m.d.sync += frame.leaf.eq(leaf)
        if self._squares:
            m.d.sync += frame.attacked.eq(attacked)
            if attack is not None:
                m.d.sync += frame.attack.eq(attack)
        self._latch_ring(m)
        if killer is None:
            if self.table:
                m.d.sync += frame.key.eq(0)
            m.d.sync += frame.first.eq(0)
            self._ring_start(m, now=True)
            return
        m.d.sync += frame.first.eq(self._has_killer[killer])
        with m.If(self._has_killer[killer]):
            m.d.sync += self._move.eq(self._killers[killer])
        with m.Else():
            self._ring_start(m, now=True)

    def _push(self, m, tried_first):
        """One ply deeper: keep this ply's frame (with ``tried_first`` as it now stands) and
        start the child's, whose window is (-beta, -max(alpha, best)). The child is a leaf scan
        at the horizon, unless the move made an attack and the extension allows one more ply;
        it is an evasion node if the move made an attack. In the veto, the root move's child
        is the opponent's node on the null window (0, 1), and no child is a leaf scan. Returns
        whether the child is a leaf scan."""
        frame, ply, stack = self._frame, self._ply, self._stack
        made, horizon = self._makes_mine, self._horizon
        alpha = -frame.beta
        beta = -Mux(frame.alpha > frame.best, frame.alpha, frame.best)
        if self.evasions:
            deeper = (ply < horizon) | (made & (ply < horizon + self.extension))
            if self.veto:
                deeper |= self._veto
                alpha = Mux(self._veto & (ply == 1), 0, alpha)
                beta = Mux(self._veto & (ply == 1), 1, beta)
            child = (~deeper, made, self._made_at) if self._squares else (~deeper, 0, None)
        else:
            child = (ply >= horizon, 0, None)
        m.d.sync += [stack[ply - 1].eq(frame), stack[ply - 1].tried_first.eq(tried_first),
                     ply.eq(ply + 1)]
        self._new_frame(m, alpha, beta, killer=ply - 1, child=child)
        if self.table:
            m.d.sync += self._frame.key.eq(frame.key ^ self._move_key)
        return child[0]

    def _pop(self, m, child):
        """Back to the parent ply with the value ``child`` of its move for the child's
        side; the parent's trial level (and every deeper one) is discarded next."""
        ply = self._ply
        m.d.sync += [self._value.eq(-child), ply.eq(ply - 1), self._frame.eq(self._stack[ply - 2])]
        m.next = "POP"

    # -- move order -----------------------------------------------------------------------------

    def _remember(self, m):
        """The move just tried becomes its ply's killer."""
        ply = self._ply
        m.d.sync += [self._killers[ply - 2].eq(self._move), self._has_killer[ply - 2].eq(1)]

    def _end_first(self, m):
        """The first move is done with: on to the raster's start."""
        m.d.sync += self._frame.first.eq(0)
        self._ring_start(m)
        m.next = "SCAN"

    def _advance(self, m):
        """On from a tried move: after the first move, to the raster's start."""
        with m.If(self._frame.first):
            self._end_first(m)
        with m.Else():
            self._next_symbol(m)

    # -- leaf counting --------------------------------------------------------------------------

    def _count_square(self, m):
        """Count the square just tried at a leaf in each count it belongs to, once per square
        (a count saturates at ``max_count``)."""
        found = Cat(self._theirs, ~self._theirs & self._makes_mine,
                    ~self._theirs & self._makes_theirs)
        m.d.sync += self._counted.eq(self._counted | found)
        for k, count in enumerate(self._counts):
            with m.If(found[k] & ~self._counted[k] & (count != self.values.max_count)):
                m.d.sync += count.eq(count + 1)
        if self.every_attack:
            with m.If(~self._theirs & ~self._makes_theirs & self._makes_double):
                m.d.sync += self._double.eq(1)

    def _leaf_value_of(self, m):
        """The leaf's value from its counts, ``mine_weight * mine - theirs - threat_weight *
        threats`` kept within ``±leaf_limit``, or a win ``double_plies`` later after a double
        attack."""
        v = self.values
        threats, mine_near, theirs_near = self._counts
        raw = Signal(v.leaf_sum)
        m.d.comb += raw.eq(v.mine_weight * mine_near - theirs_near - v.threat_weight * threats)
        return Mux(self._double, v.win - v.double_plies - self._ply,
                   Mux(raw < -v.leaf_limit, -v.leaf_limit,
                       Mux(raw > v.leaf_limit, v.leaf_limit, raw)))

    # -- judging a trial ------------------------------------------------------------------------

    def _judge(self, m):
        """The TRY of ``move`` at level ``ply`` is done: skip it if it placed nothing, count it
        as a trial otherwise, and decide what it means for its ply."""
        frame, ply, move, win = self._frame, self._ply, self._move, self.values.win
        with m.If(frame.first & (self._nothing_placed | self.array.flags.mismatch)):
            self._end_first(m)                  # the killer is no candidate here
        with m.Elif(self._nothing_placed):
            self._next_square(m)
        with m.Elif(self.array.flags.mismatch):
            self._next_symbol(m)
        with m.Else():
            tried_first = frame.tried_first | frame.first
            m.d.sync += [self.trials.eq(self.trials + 1), frame.tried_first.eq(tried_first)]
            with m.If(self._win_pass):
                with m.If(self._legal & ~self._legal_seen):
                    m.d.sync += [self._first_legal.eq(move), self._legal_seen.eq(1)]
                with m.If(self._legal & self._mine):
                    m.d.sync += [self.move.eq(move), self.win.eq(1), self.found.eq(1)]
                    m.next = "DROP_WIN"
                with m.Else():
                    m.next = "DROP_NEXT"
            with m.Elif(self._tss_over):
                if self.tss:
                    m.next = "TSS_ABORT"
            with m.Elif(self._out_of_trials):
                m.next = "ABORT"
            if self.veto:
                with m.Elif(self._veto_over):
                    m.next = "VETO_ABORT"
            with m.Elif(~self._legal | self._repeat):
                m.next = "DROP_NEXT"
            with m.Elif(self._leaf):
                with m.If(self._mine):
                    with m.If(~frame.first):
                        self._remember(m)
                    self._keep_leaf(m, win - ply)
                    self._pop(m, win - ply)
                with m.Elif(~frame.first):
                    self._count_square(m)
                    m.next = "DROP_NEXT"
                with m.Else():
                    m.next = "DROP_NEXT"
            with m.Elif(self._mine):
                m.d.sync += self._value.eq(win - ply)
                m.next = "DROP_RESULT"
            with m.Elif(self._theirs):
                m.d.sync += self._value.eq(ply - win)
                m.next = "DROP_RESULT"
            if self.every_attack:
                with m.Elif(self._makes_theirs):       # the opponent closes a loop next
                    m.d.sync += self._value.eq(ply + 1 - win)
                    m.next = "DROP_RESULT"
            elif self.evasions:
                with m.Elif(frame.attacked):
                    m.next = "READ_ATTACK"
            with m.Else():
                self._go_on(m, tried_first)

    def _evasion_check(self, m):
        """In an evasion node, after a legal move that ended nothing: READ the attack's two
        squares; if both are still empty, the move left the attack alone and is lost at the
        next ply (``ply + 1 - win``), else it goes on as any move."""
        frame, ply, attack = self._frame, self._ply, self._frame.attack
        rdata = self.array.rdata

        def read(empty):
            def then():
                with m.If(rdata != 0):
                    self._go_on(m, frame.tried_first)
                with m.Else():
                    empty()
            return then

        def read_other():
            m.next = "READ_OTHER"

        def lost():
            m.d.sync += self._value.eq(ply + 1 - self.values.win)
            m.next = "DROP_RESULT"

        command_states(m, self.array, "READ_ATTACK",
                       {"op": Op.READ, "x": attack.x, "y": attack.y}, read(read_other))
        command_states(m, self.array, "READ_OTHER",
                       {"op": Op.READ, "x": attack.x + attack.east,
                        "y": attack.y + ~attack.east}, read(lost))

    def _go_on(self, m, tried_first):
        """A legal move that ended nothing (and, in an evasion node, filled a square of the
        attack): value it 0 if the threat-space search stops there, else search the position
        after it one ply deeper."""
        with m.If(self._tss_ends(self._ply)):
            # The threat-space search goes on only with the mover's attacks (and the
            # replies to them); any other move proves nothing.
            m.d.sync += self._value.eq(0)
            m.next = "DROP_RESULT"
        with m.Else():
            leaf = self._push(m, tried_first)
            m.next = "SCAN"
            if self.table:
                with m.If(leaf):
                    m.next = "PROBE"

    def _tss_ends(self, ply):
        """In the threat-space search, whether the move just tried (legal, ending nothing) is
        worth 0 rather than searched deeper: a move at its last ply, or an attacker's move that
        makes no attack (it proves nothing). The attacker moves at odd plies, in the veto at
        even ones (the opponent's)."""
        ends = Const(0, 1)
        if self.tss:
            ends |= self._tss & ((ply == self._horizon) | (ply[0] & ~self._makes_mine))
        if self.veto:
            ends |= self._veto & ((ply == self.veto + 1) | (~ply[0] & ~self._makes_mine))
        return ends

    def _trial_states(self, m):
        """The array commands: the TRY of each candidate, and the DISCARDs after it."""
        ply, move = self._ply, self._move

        def discard(state, level, then):
            command_states(m, self.array, state, {"op": Op.DISCARD, "level": level}, then,
                           wait=False)

        skip = None
        if self.lanes > 1:      # the root's squares of the other lanes
            foreign = (ply == 1) & ~self._frame.first & \
                (((move.x + move.y) % self.lanes) != self.lane)
            skip = (foreign, lambda: self._next_square(m))
        command_states(m, self.array, "SCAN", {"op": self._try_op, "x": move.x, "y": move.y,
                                               "symbol": move.symbol, "level": ply},
                       lambda: self._judge(m), skip=skip)
        if self._squares:
            self._evasion_check(m)
        discard("DROP_NEXT", ply, lambda: self._advance(m))
        # A move that ends the game, or (after POP) whose subtree is searched: value it.
        discard("DROP_RESULT", ply, goto(m, "RESULT"))
        discard("POP", ply, goto(m, "POP_RING"))
        discard("DROP_WIN", 1, goto(m, "FINISH"))
        discard("ABORT", 1, goto(m, "CHOOSE"))
        if self.tss:
            discard("TSS_ABORT", 1, goto(m, "TSS_RING"))
        if self.veto:
            discard("VETO_ABORT", 1, goto(m, "VETO_RING"))

    # -- the table of leaf values ---------------------------------------------------------------

    def _table_ports(self, m):
        """The ROM of the moves' random keys (read at the square and symbol being tried: the
        child's key is ready when a trial is judged) and the table of leaf values, read and
        written at the scanning ply's key."""
        W, H, bits = self.width, self.height, self.table
        table = zobrist_table(W, H)
        m.submodules.move_keys = keys = Memory(shape=TABLE_KEY_BITS, depth=len(table),
                                               init=table)
        key_read = keys.read_port()
        move = self._move
        m.d.comb += key_read.addr.eq(Cat(move.symbol, move.x, move.y))     # move_key_index
        self._move_key = key_read.data
        entry = data.StructLayout({"kept": 1, "tag": TABLE_KEY_BITS - bits,
                                   "value": self.values.value})
        m.submodules.leaf_values = leaves = Memory(shape=entry, depth=1 << bits, init=[])
        self._leaf_read, self._leaf_write = leaves.read_port(), leaves.write_port()
        # From a search's start, an entry a clock is emptied (``_emptied`` the next one).
        self._emptying, self._emptied = Signal(), Signal(range(1 << bits))
        with m.If(self._emptying):
            m.d.sync += self._emptied.eq(self._emptied + 1)
            with m.If(self._emptied == (1 << bits) - 1):
                m.d.sync += self._emptying.eq(0)
        key = self._frame.key
        m.d.comb += [self._leaf_read.addr.eq(key[:bits]),
                     self._leaf_write.addr.eq(Mux(self._emptying, self._emptied, key[:bits])),
                     self._leaf_write.en.eq(self._emptying),
                     self._leaf_write.data.kept.eq(~self._emptying),
                     self._leaf_write.data.tag.eq(key[bits:])]

    def _keep_leaf(self, m, value):
        """Write the scanning leaf's ``value`` into the table, at its key (never while the
        table is being emptied: no leaf is scanned before its probe), if there is a table."""
        if not self.table:
            return
        m.d.comb += [self._leaf_write.en.eq(1), self._leaf_write.data.value.eq(value)]

    def _probe_states(self, m):
        """PROBE waits until the table is empty and a clock for the read of a new leaf's entry;
        PROBED registers the entry (the block RAM's output is slow, so it goes no further in
        that clock); PROBE_END takes its value if it holds the leaf's key (no trial), else
        starts the leaf's scan."""
        entry = Signal.like(self._leaf_read.data)
        with m.State("PROBE"):
            with m.If(~self._emptying):
                m.next = "PROBED"
        with m.State("PROBED"):
            m.d.sync += entry.eq(self._leaf_read.data)
            m.next = "PROBE_END"
        with m.State("PROBE_END"):
            with m.If(entry.kept & (entry.tag == self._frame.key[self.table:])):
                self._pop(m, entry.value)
            with m.Else():
                m.next = "SCAN"

    # -- values, plies and iterations -----------------------------------------------------------

    def _result_state(self, m):
        """A move's value is known: keep it if it is the ply's best (at the root, remember the
        move), and cut the ply off at beta. With a veto, a root move of the last iteration
        that would become the best is first checked by it (tried again at level 1, the
        opponent's node after it on the null window) and comes back here with the veto's
        answer in ``_value``: below 0 if the opponent proved a win (the move is then worth
        ``refuted``), 0 if not or if the veto gave up (its own value stands)."""
        frame, value = self._frame, self._value
        with m.State("RESULT"):
            if not self.veto:
                self._keep_result(m, value)
                return
            refuted = self.veto + 1 - self.values.win
            with m.If(self._veto & (self._ply == 1)):
                m.d.sync += self._veto.eq(0)
                self._keep_result(m, Mux(value < 0, refuted, self._veto_value))
            with m.Elif((value > frame.best) & (value > refuted) & (self._ply == 1) &
                        (self._horizon == self.depth) & ~self._tss):
                m.d.sync += [self._veto.eq(1), self._veto_value.eq(value),
                             self._veto_end.eq(self.trials + self.veto_trials)]
                m.next = "SCAN"
            with m.Else():
                self._keep_result(m, value)

    def _keep_result(self, m, value):
        """The ply's move is worth ``value``: keep it if it is the ply's best, and cut the ply
        off at beta."""
        frame = self._frame
        with m.If(value > frame.best):
            m.d.sync += frame.best.eq(value)
            with m.If(self._ply == 1):
                m.d.sync += [self._best_move.eq(self._move), self._best_valid.eq(1)]
            with m.If(value >= frame.beta):
                # Only the threat-space search cuts the root off (its win): no killer.
                with m.If(self._ply != 1 if self.tss else 1):
                    self._remember(m)
                m.next = "END"
            with m.Else():
                self._advance(m)
        with m.Else():
            self._advance(m)

    def _iteration(self, m, depth, first):
        """Scan the root again, for an iteration ``depth`` plies deep; every iteration but the
        first starts with the last one's choice."""
        frame, inf = self._frame, self.values.inf
        m.d.sync += [self._horizon.eq(depth), frame.best.eq(-inf), self._best_valid.eq(0),
                     frame.first.eq(not first), frame.tried_first.eq(0)]
        if self.tss:        # the root's window after the threat-space search's
            m.d.sync += [frame.alpha.eq(-inf), frame.beta.eq(inf)]
        if first:
            self._ring_start(m)
        else:
            m.d.sync += self._move.eq(self._best_move)
        m.next = "SCAN"

    def _threat_space(self, m):
        """Start the threat-space search: the root's moves on a null window (0, 1), so that
        the first one proven to win (a value above 0) cuts the root off."""
        frame = self._frame
        m.d.sync += [self._tss.eq(1), self._horizon.eq(self.tss), frame.best.eq(-self.values.inf),
                     frame.alpha.eq(0), frame.beta.eq(1), self._best_valid.eq(0),
                     frame.first.eq(0), frame.tried_first.eq(0)]
        self._ring_start(m)
        m.next = "SCAN"

    def _negamax(self, m):
        """The threat-space search found no win (or gave up): on to the negamax's deepening."""
        frame = self._frame
        m.d.sync += [self._tss.eq(0), self._ply.eq(1), frame.leaf.eq(0)]
        if self._squares:
            m.d.sync += frame.attacked.eq(0)
        self._iteration(m, 1, first=True)

    def _end_of_ply(self, m):
        """A ply's scan is over (or cut off): the win pass gives way to the negamax, the root
        ends an iteration, a leaf returns its counts' value, any other ply its best."""
        ply, horizon, frame = self._ply, self._horizon, self._frame
        with m.State("END"):
            with m.If(self._win_pass):
                with m.If(self._legal_seen):               # on to the searches
                    m.d.sync += self._win_pass.eq(0)
                    if self.tss:
                        self._threat_space(m)
                    else:
                        self._iteration(m, 1, first=True)
                with m.Else():
                    m.next = "CHOOSE"
            with m.Elif(self._tss & (ply == 1) if self.tss else 0):   # the TSS ended
                with m.If(self._best_valid & (frame.best > 0)):
                    m.d.sync += [self.move.eq(self._best_move), self.found.eq(1)]
                    if self.lanes > 1:
                        m.d.sync += self.proven.eq(1)
                    m.next = "FINISH"
                with m.Else():
                    self._negamax(m)
            with m.Elif(ply == 1):                         # an iteration has finished
                m.d.sync += self._chosen.eq(self._best_move)
                if self.lanes > 1:
                    m.d.sync += [self.finished.eq(horizon),
                                 self.results[(horizon - 1).as_unsigned()].move.eq(self._best_move),
                                 self.results[(horizon - 1).as_unsigned()].value.eq(frame.best)]
                with m.If(horizon == self.depth):
                    m.next = "CHOOSE"
                with m.Else():
                    self._iteration(m, horizon + 1, first=False)
            with m.Elif(self._leaf):
                self._keep_leaf(m, self._leaf_value)
                self._pop(m, self._leaf_value)
            with m.Else():
                self._pop(m, Mux(frame.best == -self.values.inf, 0, frame.best))

    def _choose(self, m):
        """The search's answer: this iteration's best root move if it has one, else the last
        finished iteration's (from the second iteration on), else the first legal move."""
        with m.State("CHOOSE"):
            chosen_valid = self._horizon != 1
            m.d.sync += [self.win.eq(0), self.found.eq(self._legal_seen),
                         self.move.eq(Mux(self._best_valid, self._best_move,
                                          Mux(chosen_valid, self._chosen, self._first_legal)))]
            if self.lanes > 1:
                # The root's frame is on the stack while a deeper ply runs (a trial limit).
                root_best = Mux(self._ply == 1, self._frame.best, self._stack[0].best)
                m.d.sync += self.value.eq(
                    Mux(self._best_valid, root_best,
                        Mux(chosen_valid, self.results[(self._horizon - 2).as_unsigned()].value,
                            -self.values.inf)))
            m.next = "FINISH"

        with m.State("FINISH"):
            m.d.sync += self.done.eq(1)
            m.next = "IDLE"
