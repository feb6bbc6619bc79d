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
  leave a loop threat of either colour);
- each ply tries one move first: at the root the last iteration's choice, deeper down the
  ply's *killer* (the last move that cut a node off there, or won a leaf); when the trial limit runs
  out, the unfinished iteration's best move so far is played, if it has one.

The recursion is a stack of *frames*, one per ply: the square and symbol being tried, the
ply's alpha, beta and best value, and where it is in its move order. Going one ply deeper
pushes the frame; coming back pops it and discards the trial level of the move just valued,
which removes every deeper level with it. The
ring of squares a ply scans needs no storage: whenever the scan moves on, the array holds just
the ply's position (the move tried last placed nothing, or has been discarded), so the ring
follows from the array's bounding box. Values are small signed numbers (a win at ply *k* is worth
``WIN - k``), so a frame is a few dozen flip-flops.

Every candidate is one TRY command of the array (place, forced play, loop and line detection;
TRY_THREAT at a leaf, which adds the threat passes), and every one that places a tile counts as
one *trial*, the unit the model counts too; a trial limit
stops the search at a trial count. Squares are only ever tried inside the array, so the player
centres the tiles before each search (see ``window_of`` in the model) and the model skips the
same squares. The search owns the array's command port while ``busy``; the player multiplexes
it.
"""

from amaranth.hdl import Array, Cat, Const, Module, Mux, Signal, signed
from amaranth.lib import data, stream, wiring
from amaranth.lib.wiring import In, Out

from fpgatrax.host.rules.variant import variant_named
from fpgatrax.hw.array import Flags, Op, bounding_box_layout, command_layout, command_states
from fpgatrax.hw.search_model import DEFAULT_DEPTH, LEAF_LIMIT, MAX_COUNT, THREAT_WEIGHT, WIN
from fpgatrax.hw.tiles import Symbol

__all__ = ["MoveSearch", "square_layout"]

INF = WIN + 1           # beyond every value: the empty window's bounds
VALUE = signed(7)       # -INF … INF


def square_layout(width, height):
    """A move in array coordinates: the square and the symbol."""
    return data.StructLayout({
        "x": range(width), "y": range(height), "symbol": Symbol,
    })


def _frame_layout(width, height):
    """What one ply of the search keeps while a deeper ply runs: ``first`` while it tries its
    first move (the root's last choice, or the ply's killer), ``tried_first`` once that move
    has been placed (so the raster scan does not value it again)."""
    return data.StructLayout({
        "move": square_layout(width, height),
        "alpha": VALUE, "beta": VALUE, "best": VALUE,
        "first": 1, "tried_first": 1,
    })


class MoveSearch(wiring.Component):
    """Chooses the mover's move on the committed position of a ``width`` × ``height`` array.

    Parameters
    ----------
    width, height : int
        The array's size (the search's coordinates and ring clamping follow it).
    depth : int
        Plies of negamax; the array needs ``depth + 1`` trial levels (``self.levels``).
    max_trials : int
        The most trials a search makes (0: no limit), which bounds its time.
    variant : str
        ``standard``, ``8x8`` (a trial spanning more than 8 columns or rows is illegal) or
        ``loop`` (lines do not win).

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
    trials : Out(24)
        Tiles placed by TRY commands during this search.
    cmd, array_done, flags, bbox
        The array's command port and the outputs the search reads (see ``TileArray``).
    """

    def __init__(self, width, height, *, depth=DEFAULT_DEPTH, max_trials=0, variant="standard"):
        if not isinstance(max_trials, int) or max_trials < 0:
            raise ValueError(f"max_trials must be a whole number (0: no limit), not {max_trials!r}")
        if not isinstance(depth, int) or not 1 <= depth <= WIN // 4:
            raise ValueError(f"depth must be a whole number from 1 to {WIN // 4}, not {depth!r}")
        self.width, self.height = width, height
        self.depth, self.max_trials, self.variant = depth, max_trials, variant_named(variant)
        self.levels = depth + 1
        super().__init__({
            "start": In(1),
            "colour": In(1),
            "busy": Out(1),
            "done": Out(1),
            "found": Out(1),
            "win": Out(1),
            "move": Out(square_layout(width, height)),
            "trials": Out(24),
            "cmd": Out(stream.Signature(command_layout(width, height, self.levels))),
            "array_done": In(1),
            "flags": In(Flags),
            "bbox": In(bounding_box_layout(width, height)),
        })

    def elaborate(self, platform):
        m = Module()
        W, H, D = self.width, self.height, self.depth
        flags, bbox = self.flags, self.bbox

        mover = Signal()
        ply = Signal(range(D + 2))                  # the ply (and trial level) being scanned
        horizon = Signal(range(1, D + 1))           # the depth of this iteration
        frame = Signal(_frame_layout(W, H))         # that ply's frame
        # The frames of plies 1 … D while a deeper ply runs (ply k's at index k - 1).
        stack = Array(Signal(_frame_layout(W, H), name=f"frame_{k + 1}") for k in range(D))
        move = frame.move
        win_pass = Signal()
        value = Signal(VALUE)                       # the value of the move just searched
        # The leaf's counts of squares, and whether this square has been counted in each.
        threats, mine_near, theirs_near = (Signal(range(MAX_COUNT + 1), name=name)
                                           for name in ("threats", "mine_near", "theirs_near"))
        counted = Signal(3)                         # threats, mine_near, theirs_near
        best_move = Signal(square_layout(W, H))      # this iteration's best root move
        best_valid = Signal()
        chosen = Signal(square_layout(W, H))         # the last finished iteration's
        # The killers of plies 2 … D + 1 (ply k's at index k - 2), and which are set.
        killers = Array(Signal(square_layout(W, H), name=f"killer_{k + 2}") for k in range(D))
        has_killer = Array(Signal(name=f"has_killer_{k + 2}") for k in range(D))
        first_legal = Signal(square_layout(W, H))
        legal_seen = Signal()
        leaf = ply == horizon + 1

        # What the last TRY found, from the point of view of the side that moved at ``ply``
        # (the mover at odd plies).
        lines = self.variant.line_span is not None
        white = flags.loop_white | (flags.line_white if lines else 0)
        red = flags.loop_red | (flags.line_red if lines else 0)
        side = mover ^ ~ply[0]
        mine = Mux(side, red, white)
        theirs = Mux(side, white, red)
        makes_mine = Mux(side, flags.threat_red, flags.threat_white)
        makes_theirs = Mux(side, flags.threat_white, flags.threat_red)
        try_op = Signal(Op)
        m.d.comb += try_op.eq(Mux(leaf, Op.TRY_THREAT, Op.TRY))
        leaf_value = Signal(signed(8))
        m.d.comb += leaf_value.eq(mine_near - theirs_near - THREAT_WEIGHT * threats)
        nothing_placed = flags.occupied | flags.not_adjacent
        too_wide = Const(0, 1)
        limit = self.variant.span_limit
        if limit is not None:
            too_wide = ((bbox.max_x - bbox.min_x) >= limit) | ((bbox.max_y - bbox.min_y) >= limit)
        legal = ~flags.illegal & ~too_wide
        out_of_trials = (self.trials >= self.max_trials - 1) if self.max_trials else Const(0, 1)
        # ``chosen`` holds a finished iteration's choice from the second iteration on.
        chosen_valid = horizon != 1
        # This ply's first move, met again in raster order: valued already (a leaf looks at it
        # only for a win, so it counts it again as any candidate).
        first_move = Mux(ply == 1, chosen.as_value(), killers[ply - 2].as_value())
        repeat = frame.tried_first & ~frame.first & ~leaf & (move.as_value() == first_move)

        m.d.comb += self.busy.eq(1)
        m.d.sync += self.done.eq(0)

        def clamp_low(v):
            return Mux(v == 0, 0, v - 1)

        def clamp_high(v, n):
            return Mux(v == n - 1, n - 1, v + 1)

        # The ring the current ply scans: the bounding box one square wider on every side
        # within the array (an empty board: the centre square). Valid whenever the array holds
        # the ply's own position, which is whenever the scan moves on.
        x0 = Mux(bbox.empty, (W - 1) // 2, clamp_low(bbox.min_x))
        x1 = Mux(bbox.empty, (W - 1) // 2, clamp_high(bbox.max_x, W))
        y0 = Mux(bbox.empty, (H - 1) // 2, clamp_low(bbox.min_y))
        y1 = Mux(bbox.empty, (H - 1) // 2, clamp_high(bbox.max_y, H))

        def ring_start():
            """The scan's first candidate: the ring's first square, symbol ``+``."""
            m.d.sync += [move.x.eq(x0), move.y.eq(y0), move.symbol.eq(Symbol.PLUS)]

        def new_frame(alpha, beta, killer=None):
            """Start scanning a ply (on the clock its position is complete in the array), with
            the index of its killer if it has one."""
            m.d.sync += [frame.alpha.eq(alpha), frame.beta.eq(beta), frame.best.eq(-INF),
                         frame.tried_first.eq(0), threats.eq(0), mine_near.eq(0),
                         theirs_near.eq(0), counted.eq(0)]
            if killer is None:
                m.d.sync += frame.first.eq(0)
                ring_start()
            else:
                m.d.sync += frame.first.eq(has_killer[killer])
                with m.If(has_killer[killer]):
                    m.d.sync += move.eq(killers[killer])
                with m.Else():
                    ring_start()

        def remember():
            """The move just tried becomes its ply's killer."""
            m.d.sync += [killers[ply - 2].eq(move), has_killer[ply - 2].eq(1)]

        def end_first():
            """The first move is done with: on to the raster's start."""
            m.d.sync += frame.first.eq(0)
            ring_start()
            m.next = "SCAN"

        def next_square():
            """On to the next square of the ring (symbol ``+``), or the ply's end."""
            m.d.sync += [move.symbol.eq(Symbol.PLUS), counted.eq(0)]
            with m.If(move.x != x1):
                m.d.sync += move.x.eq(move.x + 1)
                m.next = "SCAN"
            with m.Elif(move.y != y1):
                m.d.sync += [move.x.eq(x0), move.y.eq(move.y + 1)]
                m.next = "SCAN"
            with m.Else():
                m.next = "END"

        def next_symbol():
            """On to the next symbol of this square, or the next square."""
            with m.If(move.symbol != Symbol.BACKSLASH):
                m.d.sync += move.symbol.eq(move.symbol.as_value() + 1)
                m.next = "SCAN"
            with m.Else():
                next_square()

        def pop(child):
            """Back to the parent ply with the value ``child`` of its move for the child's
            side; the parent's trial level (and every deeper one) is discarded next."""
            m.d.sync += [value.eq(-child), ply.eq(ply - 1), frame.eq(stack[ply - 2])]
            m.next = "POP"

        def issue(state, fields, then):
            command_states(m, self.cmd, self.array_done, state, fields, then)

        with m.FSM():
            with m.State("IDLE"):
                m.d.comb += self.busy.eq(0)
                with m.If(self.start):
                    m.d.sync += [mover.eq(self.colour), self.trials.eq(0), ply.eq(1),
                                 win_pass.eq(1), best_valid.eq(0), legal_seen.eq(0),
                                 self.found.eq(0), self.win.eq(0)]
                    m.d.sync += [flag.eq(0) for flag in has_killer]
                    new_frame(-INF, INF)
                    m.next = "SCAN"

            def judge():
                with m.If(frame.first & (nothing_placed | flags.mismatch)):
                    end_first()                  # the killer is no candidate here
                with m.Elif(nothing_placed):
                    next_square()
                with m.Elif(flags.mismatch):
                    next_symbol()
                with m.Else():
                    tried_first = frame.tried_first | frame.first
                    m.d.sync += [self.trials.eq(self.trials + 1),
                                 frame.tried_first.eq(tried_first)]
                    with m.If(win_pass):
                        with m.If(legal & ~legal_seen):
                            m.d.sync += [first_legal.eq(move), legal_seen.eq(1)]
                        with m.If(legal & mine):
                            m.d.sync += [self.move.eq(move), self.win.eq(1), self.found.eq(1)]
                            m.next = "DROP_WIN"
                        with m.Else():
                            m.next = "DROP_NEXT"
                    with m.Elif(out_of_trials):
                        m.next = "ABORT"
                    with m.Elif(~legal | repeat):
                        m.next = "DROP_NEXT"
                    with m.Elif(leaf):
                        with m.If(mine):
                            with m.If(~frame.first):
                                remember()
                            pop(WIN - ply)
                        with m.Elif(~frame.first):       # count this square
                            found = Cat(theirs, ~theirs & makes_mine, ~theirs & makes_theirs)
                            m.d.sync += counted.eq(counted | found)
                            for k, count in enumerate((threats, mine_near, theirs_near)):
                                with m.If(found[k] & ~counted[k] & (count != MAX_COUNT)):
                                    m.d.sync += count.eq(count + 1)
                            m.next = "DROP_NEXT"
                        with m.Else():
                            m.next = "DROP_NEXT"
                    with m.Elif(mine):
                        m.d.sync += value.eq(WIN - ply)
                        m.next = "DROP_RESULT"
                    with m.Elif(theirs):
                        m.d.sync += value.eq(ply - WIN)
                        m.next = "DROP_RESULT"
                    with m.Else():                   # one ply deeper
                        m.d.sync += [stack[ply - 1].eq(frame),
                                     stack[ply - 1].tried_first.eq(tried_first), ply.eq(ply + 1)]
                        new_frame(-frame.beta, -Mux(frame.alpha > frame.best,
                                                     frame.alpha, frame.best), killer=ply - 1)
                        m.next = "SCAN"

            def go(state):
                def then():
                    m.next = state
                return then

            def advance():
                """On from a tried move: after the first move, to the raster's start."""
                with m.If(frame.first):
                    end_first()
                with m.Else():
                    next_symbol()

            issue("SCAN", {"op": try_op, "x": move.x, "y": move.y, "symbol": move.symbol,
                           "level": ply}, judge)
            issue("DROP_NEXT", {"op": Op.DISCARD, "level": ply}, advance)
            # A move that ends the game, or (after POP) whose subtree is searched: value it.
            issue("DROP_RESULT", {"op": Op.DISCARD, "level": ply}, go("RESULT"))
            issue("POP", {"op": Op.DISCARD, "level": ply}, go("RESULT"))
            issue("DROP_WIN", {"op": Op.DISCARD, "level": 1}, go("FINISH"))
            issue("ABORT", {"op": Op.DISCARD, "level": 1}, go("CHOOSE"))

            with m.State("RESULT"):
                with m.If(value > frame.best):
                    m.d.sync += frame.best.eq(value)
                    with m.If(ply == 1):
                        m.d.sync += [best_move.eq(move), best_valid.eq(1)]
                    with m.If(value >= frame.beta):
                        remember()
                        m.next = "END"
                    with m.Else():
                        advance()
                with m.Else():
                    advance()

            def iteration(depth, first):
                """Scan the root again, for an iteration ``depth`` plies deep; every iteration
                but the first starts with the last one's choice."""
                m.d.sync += [horizon.eq(depth), frame.best.eq(-INF), best_valid.eq(0),
                             frame.first.eq(not first), frame.tried_first.eq(0)]
                if first:
                    ring_start()
                else:
                    m.d.sync += move.eq(best_move)
                m.next = "SCAN"

            with m.State("END"):
                with m.If(win_pass):
                    with m.If(legal_seen):               # on to the negamax
                        m.d.sync += win_pass.eq(0)
                        iteration(1, first=True)
                    with m.Else():
                        m.next = "CHOOSE"
                with m.Elif(ply == 1):                   # an iteration has finished
                    m.d.sync += chosen.eq(best_move)
                    with m.If(horizon == D):
                        m.next = "CHOOSE"
                    with m.Else():
                        iteration(horizon + 1, first=False)
                with m.Elif(leaf):
                    pop(Mux(leaf_value < -LEAF_LIMIT, -LEAF_LIMIT,
                            Mux(leaf_value > LEAF_LIMIT, LEAF_LIMIT, leaf_value)))
                with m.Else():
                    pop(Mux(frame.best == -INF, 0, frame.best))

            with m.State("CHOOSE"):
                m.d.sync += [self.win.eq(0), self.found.eq(legal_seen),
                             self.move.eq(Mux(best_valid, best_move,
                                              Mux(chosen_valid, chosen, first_legal)))]
                m.next = "FINISH"

            with m.State("FINISH"):
                m.d.sync += self.done.eq(1)
                m.next = "IDLE"

        return m
