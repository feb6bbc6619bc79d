"""The move search: the FSM that drives the tile array to choose the player's move.

It is the gateware twin of :mod:`fpgatrax.host.search_model`, which documents the algorithm and
picks the same move for the same position, budget and array size; read that first. In short:

- a **win pass** tries every candidate (raster order over the tiles' ring, symbols ``+ / \\``)
  at trial level 1 and plays the first that wins for the mover;
- a **safety pass** tries them again; for each legal one that does not complete only the
  opponent's colour it scans every reply at level 2: a reply that wins for the opponent ends the
  scan (*unsafe*); a reply completing only the mover's colour is a *threat*, counted once per
  square. A safe candidate scores ``min(threats, 15) * 256 + LFSR byte``;
- the best score wins (the earliest on ties); with no safe candidate, the first legal one that
  does not lose by itself, else the first legal one; with no legal one at all, ``found`` is low.

Every candidate is one TRY command of the array (place, forced play, loop and line detection),
and every TRY that places a tile counts as one *trial*, the unit the model counts too. Squares
are only ever tried inside the array, so the player centres the tiles before each search (see
``window_of`` in the model) and the model skips the same squares.

The search owns the array's command port while ``busy``; the player multiplexes it. A new game
resets the search (the player wraps it in a ``ResetInserter``), which also restores the tie-break
LFSR's seed, as ``SearchModel.new_game`` does.
"""

from amaranth.hdl import Cat, Const, Module, Mux, Signal
from amaranth.lib import data, stream, wiring
from amaranth.lib.wiring import In, Out

from ..host.position import VARIANTS
from ..host.search_model import LFSR_SEED, LFSR_TAPS, MAX_THREATS
from .array import Flags, Op, bounding_box_layout, command_layout, command_states
from .tiles import Symbol

__all__ = ["MoveSearch", "square_layout"]

LINE_SPAN = 8


def square_layout(width, height):
    """A move in array coordinates: the square and the symbol."""
    return data.StructLayout({
        "x": range(width), "y": range(height), "symbol": Symbol,
    })


class MoveSearch(wiring.Component):
    """Chooses the mover's move on the committed position of a ``width`` × ``height`` array.

    Parameters
    ----------
    width, height : int
        The array's size (the search's coordinates and ring clamping follow it).
    budget : int
        The most safe candidates the safety pass scores (0: no limit). A simulation uses a small
        one; a board can afford thousands.
    variant : str
        ``standard``, ``8x8`` (a trial spanning more than 8 columns or rows is illegal) or
        ``loop`` (lines do not win).

    Ports
    -----
    start : In(1)
        One-clock pulse: search for ``colour`` (0 white, 1 red), which is to move.
    busy, done : Out(1)
        ``busy`` from the clock after ``start`` until ``done``, a one-clock pulse after which
        ``found``, ``move``, ``trials`` and ``reason`` hold the result.
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

    def __init__(self, width, height, *, budget=0, variant="standard"):
        if not isinstance(budget, int) or budget < 0:
            raise ValueError(f"budget must be a whole number (0: no limit), not {budget!r}")
        if variant not in VARIANTS:
            raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
        self.width, self.height = width, height
        self.budget, self.variant = budget, variant
        super().__init__({
            "start": In(1),
            "colour": In(1),
            "busy": Out(1),
            "done": Out(1),
            "found": Out(1),
            "win": Out(1),
            "move": Out(square_layout(width, height)),
            "trials": Out(24),
            "cmd": Out(stream.Signature(command_layout(width, height))),
            "array_done": In(1),
            "flags": In(Flags),
            "bbox": In(bounding_box_layout(width, height)),
        })

    def elaborate(self, platform):
        m = Module()
        W, H = self.width, self.height
        flags, bbox = self.flags, self.bbox

        lfsr = Signal(16, init=LFSR_SEED)
        lfsr_next = Signal(16)
        m.d.comb += lfsr_next.eq((lfsr >> 1) ^ Mux(lfsr[0], LFSR_TAPS, 0))

        mover = Signal()
        x, y = Signal(range(W)), Signal(range(H))
        symbol = Signal(Symbol)
        rx0, rx1 = Signal(range(W)), Signal(range(W))     # the ring scanned at this level
        ry0, ry1 = Signal(range(H)), Signal(range(H))
        # The level-1 candidate and its ring are kept while the replies are scanned.
        cand = Signal(square_layout(W, H))
        cx0, cx1 = Signal(range(W)), Signal(range(W))
        cy0, cy1 = Signal(range(H)), Signal(range(H))
        safety_pass = Signal()
        threats = Signal(range(MAX_THREATS + 1))
        counted = Signal()                       # this reply square's threat is counted
        scored = Signal(range(max(self.budget, 1) + 1))
        best = Signal(square_layout(W, H))
        best_score = Signal(12)
        best_valid = Signal()
        first_legal = Signal(square_layout(W, H))
        first_fair = Signal(square_layout(W, H))
        legal_seen, fair_seen = Signal(), Signal()

        # What the last TRY found, as the search sees it.
        lines = self.variant != "loop"
        white = flags.loop_white | (flags.line_white if lines else 0)
        red = flags.loop_red | (flags.line_red if lines else 0)
        mine = Mux(mover, red, white)
        theirs = Mux(mover, white, red)
        nothing_placed = flags.occupied | flags.not_adjacent
        too_wide = Const(0, 1)
        if self.variant == "8x8":
            too_wide = ((bbox.max_x - bbox.min_x) >= LINE_SPAN) | \
                       ((bbox.max_y - bbox.min_y) >= LINE_SPAN)
        legal = ~flags.illegal & ~too_wide

        def take_here(target):
            return [target.x.eq(x), target.y.eq(y), target.symbol.eq(symbol)]

        m.d.comb += self.busy.eq(1)
        m.d.sync += self.done.eq(0)

        def clamp_low(v):
            return Mux(v == 0, 0, v - 1)

        def clamp_high(v, n):
            return Mux(v == n - 1, n - 1, v + 1)

        def ring_from_bbox(into):
            """Set the ring registers ``into`` from the array's bounding box, one square wider
            on every side within the array; an empty board rings its centre square."""
            x0, x1, y0, y1 = into
            with m.If(bbox.empty):
                m.d.sync += [x0.eq((W - 1) // 2), x1.eq((W - 1) // 2),
                             y0.eq((H - 1) // 2), y1.eq((H - 1) // 2)]
            with m.Else():
                m.d.sync += [x0.eq(clamp_low(bbox.min_x)), x1.eq(clamp_high(bbox.max_x, W)),
                             y0.eq(clamp_low(bbox.min_y)), y1.eq(clamp_high(bbox.max_y, H))]

        def next_square(then, past_end):
            """Go to the next square of the ring (symbol ``+``), or past the ring's end."""
            m.d.sync += symbol.eq(Symbol.PLUS)
            with m.If(x != rx1):
                m.d.sync += x.eq(x + 1)
                m.next = then
            with m.Elif(y != ry1):
                m.d.sync += [x.eq(rx0), y.eq(y + 1)]
                m.next = then
            with m.Else():
                m.next = past_end

        def next_symbol(then, past_end):
            """Go to the next symbol of this square, or on to the next square."""
            with m.If(symbol != Symbol.BACKSLASH):
                m.d.sync += symbol.eq(symbol.as_value() + 1)
                m.next = then
            with m.Else():
                next_square(then, past_end)

        def issue(state, fields, then):
            command_states(m, self.cmd, self.array_done, state, fields, then)

        def start_pass(safety):
            m.d.sync += [x.eq(cx0), y.eq(cy0), symbol.eq(Symbol.PLUS), safety_pass.eq(safety)]
            m.next = "CANDIDATE"

        with m.FSM():
            with m.State("IDLE"):
                m.d.comb += self.busy.eq(0)
                with m.If(self.start):
                    m.d.sync += [mover.eq(self.colour), self.trials.eq(0), scored.eq(0),
                                 best_valid.eq(0), legal_seen.eq(0), fair_seen.eq(0),
                                 self.found.eq(0), self.win.eq(0)]
                    ring_from_bbox((cx0, cx1, cy0, cy1))
                    m.next = "BEGIN"

            with m.State("BEGIN"):
                m.d.sync += [rx0.eq(cx0), rx1.eq(cx1), ry0.eq(cy0), ry1.eq(cy1)]
                start_pass(safety=0)

            # -- level 1: the candidates -----------------------------------------------------
            with m.State("CANDIDATE"):
                budget_spent = (scored == self.budget) if self.budget else 0
                with m.If(safety_pass & budget_spent):
                    m.next = "CHOOSE"
                with m.Else():
                    m.next = "TRY1"

            def judge_candidate():
                with m.If(nothing_placed):
                    next_square("CANDIDATE", "PASS_END")
                with m.Elif(flags.mismatch):
                    next_symbol("CANDIDATE", "PASS_END")
                with m.Else():
                    m.d.sync += self.trials.eq(self.trials + 1)
                    with m.If(~legal):
                        m.next = "DROP1"
                    with m.Elif(~safety_pass):
                        with m.If(mine):
                            m.d.sync += take_here(self.move)
                            m.d.sync += [self.win.eq(1), self.found.eq(1)]
                            m.next = "DROP_WIN"
                        with m.Else():
                            with m.If(~legal_seen):
                                m.d.sync += take_here(first_legal)
                                m.d.sync += legal_seen.eq(1)
                            with m.If(~theirs & ~fair_seen):
                                m.d.sync += take_here(first_fair)
                                m.d.sync += fair_seen.eq(1)
                            m.next = "DROP1"
                    with m.Elif(theirs):
                        m.next = "DROP1"
                    with m.Else():
                        m.d.sync += take_here(cand)
                        m.d.sync += [threats.eq(0), counted.eq(0)]
                        ring_from_bbox((rx0, rx1, ry0, ry1))
                        m.next = "REPLIES"

            issue("TRY1", {"op": Op.TRY, "x": x, "y": y, "symbol": symbol, "level": 1},
                  judge_candidate)
            issue("DROP1", {"op": Op.DISCARD, "level": 1},
                  lambda: next_symbol("CANDIDATE", "PASS_END"))

            def finish():
                m.next = "FINISH"

            issue("DROP_WIN", {"op": Op.DISCARD, "level": 1}, finish)

            with m.State("PASS_END"):
                with m.If(~safety_pass):
                    start_pass(safety=1)
                with m.Else():
                    m.next = "CHOOSE"

            # -- level 2: the replies to the candidate ---------------------------------------
            with m.State("REPLIES"):
                m.d.sync += [x.eq(rx0), y.eq(ry0), symbol.eq(Symbol.PLUS)]
                m.next = "TRY2"

            def next_reply():
                with m.If(symbol == Symbol.BACKSLASH):
                    m.d.sync += counted.eq(0)
                next_symbol("TRY2", "SAFE")

            def judge_reply():
                with m.If(nothing_placed):
                    m.d.sync += counted.eq(0)
                    next_square("TRY2", "SAFE")
                with m.Elif(flags.mismatch):
                    next_reply()
                with m.Else():
                    m.d.sync += self.trials.eq(self.trials + 1)
                    with m.If(legal & theirs):
                        m.next = "UNSAFE"
                    with m.Else():
                        with m.If(legal & mine & ~counted):
                            m.d.sync += [counted.eq(1),
                                         threats.eq(Mux(threats == MAX_THREATS, MAX_THREATS,
                                                        threats + 1))]
                        m.next = "DROP2"

            issue("TRY2", {"op": Op.TRY, "x": x, "y": y, "symbol": symbol, "level": 2},
                  judge_reply)
            issue("DROP2", {"op": Op.DISCARD, "level": 2}, next_reply)

            def back_to_candidates():
                m.d.sync += [x.eq(cand.x), y.eq(cand.y), symbol.eq(cand.symbol),
                             rx0.eq(cx0), rx1.eq(cx1), ry0.eq(cy0), ry1.eq(cy1)]

            with m.State("UNSAFE"):
                back_to_candidates()
                m.next = "DROP1"

            with m.State("SAFE"):
                score = Cat(lfsr_next[:8], threats)
                m.d.sync += [lfsr.eq(lfsr_next), scored.eq(scored + 1)]
                with m.If(~best_valid | (score > best_score)):
                    m.d.sync += [best.eq(cand), best_score.eq(score), best_valid.eq(1)]
                back_to_candidates()
                m.next = "DROP1"

            # -- the choice --------------------------------------------------------------------
            with m.State("CHOOSE"):
                m.d.sync += [self.win.eq(0), self.found.eq(best_valid | fair_seen | legal_seen)]
                with m.If(best_valid):
                    m.d.sync += self.move.eq(best)
                with m.Elif(fair_seen):
                    m.d.sync += self.move.eq(first_fair)
                with m.Else():
                    m.d.sync += self.move.eq(first_legal)
                m.next = "FINISH"

            with m.State("FINISH"):
                m.d.sync += self.done.eq(1)
                m.next = "IDLE"

        return m
