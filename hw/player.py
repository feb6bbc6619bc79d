"""The hardware Trax player: UART pins in, UART pins out, a move search in between.

::

    rx ─▶ UARTReceiver ─▶ Protocol ─▶ opponent's move ─┐          ┌─▶ SearchLanes
                            │                          ▼          │  (MoveSearch and
    tx ◀─ UARTTransmitter ◀─┘◀── my move ◀──────── the player's FSM ◀── TileArray per lane)
                                                        │ (command port, shared)
                                                        └─────────────────▶

The FSM and the search share the array's command port (``ArrayPort``): the search drives it
while it is busy, the FSM otherwise (``SearchLanes``, which holds one array per lane and sends
the FSM's commands to all of them).

The player's FSM keeps the game in the array and translates between the notation's relative
coordinates and array cells. Its turn, after the opponent's move (or ``-W``):

1. **Opponent's move.** Column ``c``, row ``r`` name the square ``(min_x - 1 + c, min_y - 1 + r)``
   of the tiles' bounding box before the move (an empty board takes ``@0`` only, at the array's
   centre). The move is tried at trial level 1; if the array refuses it (occupied, not adjacent,
   colours that do not match, an illegal forced play, or in 8x8 a span over 8) the trial is
   discarded, ``bad_input`` lights and the line is ignored, the position intact. Otherwise it is
   committed; if it won the game, the player waits for the next game.
2. **Centre.** The tiles are shifted one cell at a time until the leftmost tile column is at
   ``(width - columns) // 2`` and the top row at ``(height - rows) // 2``; the search model
   assumes exactly this placement (``search_model.window_of``), so gateware and model see the
   same squares.
3. **Search**, then the chosen move is tried at level 1, committed, encoded against the
   bounding box before it, and sent; the tiles are centred again so the opponent's reply, which
   may go one cell beyond them, is inside the array.

A square that lies outside the array (the game has outgrown it) or a search that finds no legal
move inside it raises ``overflow``: the player stops answering rather than answer nonsense,
until the next ``-W``/``-B``. A new game may arrive at any moment: the search is reset, the
array finishes any command it is in and is cleared.
"""

from amaranth.hdl import Const, Module, Mux, ResetInserter, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from fpgatrax.host.rules.variant import variant_named
from fpgatrax.hw.array_port import ArrayPort, Op, command_states, goto
from fpgatrax.hw.lanes import SearchLanes
from fpgatrax.hw.protocol import Colour, Protocol
from fpgatrax.hw.search import square_layout
from fpgatrax.hw.search_model import DEFAULT_DEPTH, DEFAULT_EXTENSION
from fpgatrax.hw.tiles import Direction
from fpgatrax.hw.uart import UARTReceiver, UARTTransmitter

__all__ = ["Player", "SIM_PROFILE"]


# Parameters of the simulated board (sim/): an array roomy enough for bot games (which sprawl
# more than human ones), a clock of a typical board, a fast link so that the simulation spends
# its cycles on thinking, and the boards' search with a small trial limit (a board affords about
# 100,000 trials a move; 5,000 keep a simulated move to a few seconds of simulation).
SIM_PROFILE = {"width": 20, "height": 20, "clk_freq": 24_000_000, "baud": 1_500_000,
               "depth": DEFAULT_DEPTH, "max_trials": 5000}


class Player(wiring.Component):
    """A Trax player on two UART pins.

    Parameters
    ----------
    width, height : int
        The tile array's size.
    clk_freq : int
        The clock, in Hz (for the UART's baud divisor).
    baud : int
        The link's rate (19200 for the competition's referees).
    depth, evasions, extension : int, bool, int
        The search's plies of negamax, whether it uses attacks (check evasions), and its plies
        of extension after attacks (``MoveSearch``); the array gets ``depth + 1 + extension``
        trial levels.
    tss, tss_trials : int
        Plies of the threat-space search before the negamax (0: none), and the trial count at
        which it gives up (``MoveSearch``); the array gets ``tss`` levels at least.
    max_trials : int
        The search's trials at most (``MoveSearch``; 0: no limit).
    both_colours : bool
        The array follows both colours in one detection pass (``TileArray``): the same moves in
        fewer clocks, for more LUTs.
    lanes : int
        Searches at once, each on its own array, splitting the root's squares (``SearchLanes``).
    variant : str
        ``standard``, ``8x8`` or ``loop``.
    team : str
        The two-character code sent in answer to ``-T``.

    Ports
    -----
    rx : In(1)
        UART receive pin (idle high).
    tx : Out(1)
        UART transmit pin.
    thinking : Out(1)
        The player is working on its answer.
    bad_input : Out(1)
        Since the last new game, a line was not understood, a byte's framing was wrong, or the
        opponent's move was illegal (and ignored).
    overflow : Out(1)
        The game has outgrown the array; the player has stopped answering.
    game_over : Out(1)
        The game was won (by either side); the player waits for ``-W``/``-B``.
    move_cycles : Out(32)
        Clocks from the opponent's move (or ``-W``) reaching the player to its answer reaching
        the transmitter, for the last answer.
    """

    def __init__(self, *, width, height, clk_freq, baud=19200, depth=DEFAULT_DEPTH,
                 evasions=True, extension=DEFAULT_EXTENSION, max_trials=0, tss=0, tss_trials=0,
                 both_colours=False, lanes=1, variant="standard", team="FT"):
        variant = variant_named(variant)
        limit = variant.span_limit
        if limit is not None and (width < limit or height < limit):
            raise ValueError(f"the {variant} variant needs an array of at least {limit}×{limit}")
        self.width, self.height = width, height
        self.clk_freq, self.baud = clk_freq, baud
        self.depth, self.max_trials, self.variant, self.team = depth, max_trials, variant, team
        # Submodules are made here so that their parameters are checked at once.
        self._rx = UARTReceiver(clk_freq=clk_freq, baud=baud)
        self._tx = UARTTransmitter(clk_freq=clk_freq, baud=baud)
        self._protocol = Protocol(team=team, col_bits=(width + 1).bit_length(),
                                  row_bits=(height + 1).bit_length())
        self._search = SearchLanes(width, height, lanes=lanes, both_colours=both_colours,
                                   depth=depth, evasions=evasions, extension=extension,
                                   max_trials=max_trials, tss=tss, tss_trials=tss_trials,
                                   variant=variant)
        super().__init__({
            "rx": In(1, init=1),
            "tx": Out(1, init=1),
            "thinking": Out(1),
            "bad_input": Out(1),
            "overflow": Out(1),
            "game_over": Out(1),
            "move_cycles": Out(32),
        })

    def elaborate(self, platform):
        m = Module()
        m.submodules.uart_rx = urx = self._rx
        m.submodules.uart_tx = utx = self._tx
        m.submodules.protocol = proto = self._protocol
        m.submodules.search = search = self._search
        m.d.comb += search.restart.eq(proto.new_game)
        m.d.comb += [urx.rx.eq(self.rx), self.tx.eq(utx.tx)]
        wiring.connect(m, urx.data, proto.rx)
        wiring.connect(m, proto.tx, utx.data)

        # The arrays' command port while the search is idle.
        self._own = ArrayPort(self.width, self.height, self._search.levels).create()
        wiring.connect(m, self._own, search.port)

        # The player's own control restarts with every new game too; ``in_game`` outlives it.
        ctl = Module()
        m.submodules.control = ResetInserter(proto.new_game)(ctl)
        self._in_game = Signal()
        self._illegal_seen = Signal()              # an opponent's move was refused
        self._bad_input(m, urx, proto)
        self._control(ctl, proto, search)
        return m

    def _bad_input(self, m, urx, proto):
        """``bad_input`` and the start of a game. The protocol and the receiver count bad lines
        and frames since power-up; the status shows those since the last new game, and the
        opponent's moves the control refused."""
        bad_lines, bad_frames = Signal.like(proto.bad_input), Signal.like(urx.framing_errors)
        with m.If(proto.new_game):
            m.d.sync += [self._in_game.eq(1), bad_lines.eq(proto.bad_input),
                         bad_frames.eq(urx.framing_errors)]
        m.d.comb += self.bad_input.eq(self._illegal_seen | (proto.bad_input != bad_lines) |
                                      (urx.framing_errors != bad_frames))

    def _control(self, ctl, proto, search):
        """The player's FSM (in the module ``ctl``, which a new game resets): the turn's steps,
        each group of states added by its own method."""
        W, H, own = self.width, self.height, self._own
        self._move = Signal(square_layout(W, H))         # the move being played, in array cells
        self._counting = Signal()                        # ``move_cycles`` is running
        with ctl.If(self._counting):
            ctl.d.sync += self.move_cycles.eq(self.move_cycles + 1)
        # The tiles' extent, and whether the last TRY (or the COMMIT after it) won the game.
        self._columns = own.bbox.max_x - own.bbox.min_x + 1
        self._rows = own.bbox.max_y - own.bbox.min_y + 1
        flags = own.flags
        self._won = flags.loop_white | flags.loop_red
        if self.variant.line_span is not None:
            self._won = self._won | flags.line_white | flags.line_red
        self._answer_next = Signal()                     # after centring: search (1) or wait (0)

        # After a reset the array may still be finishing a command of the search; CLEAR waits.
        with ctl.FSM(init="CLEAR") as fsm:
            self._command(ctl, "CLEAR", {"op": Op.CLEAR}, goto(ctl, "READY"))

            with ctl.State("READY"):
                with ctl.If(self._in_game & (proto.colour == Colour.WHITE)):
                    self._start_counting(ctl)
                    ctl.next = "THINK"
                with ctl.Elif(self._in_game):
                    ctl.next = "AWAIT"

            self._opponent_states(ctl, proto)
            self._centring_states(ctl)
            self._my_move_states(ctl, proto, search)
            self._end_states(ctl, proto)
        ctl.d.comb += self.thinking.eq(fsm.ongoing("THINK") | fsm.ongoing("SEARCHING"))

    def _command(self, ctl, state, fields, then):
        command_states(ctl, self._own, state, fields, then)

    def _start_counting(self, ctl):
        ctl.d.sync += [self._counting.eq(1), self.move_cycles.eq(0)]

    def _opponent_states(self, ctl, proto):
        """Step 1 of the turn: take the opponent's move, find its square in cells (shifting
        the tiles when it lies just off the array), try it, and commit it or refuse it."""
        W, H, move = self.width, self.height, self._move
        bbox, flags = self._own.bbox, self._own.flags
        theirs = Signal.like(proto.opponent_move.payload)
        locating = Signal()                        # shifting to bring the opponent's square in
        self._locating = locating
        opp = proto.opponent_move.payload
        too_wide = Const(0, 1)
        limit = self.variant.span_limit
        if limit is not None:
            too_wide = (self._columns > limit) | (self._rows > limit)

        with ctl.State("AWAIT"):
            # LOCATE needs the bounding box, which a DISCARD just before leaves unsettled.
            settled = self._own.settled
            ctl.d.comb += proto.opponent_move.ready.eq(settled)
            with ctl.If(proto.opponent_move.valid & settled):
                self._start_counting(ctl)
                ctl.d.sync += [theirs.eq(opp), move.symbol.eq(opp.symbol)]
                ctl.next = "LOCATE"

        with ctl.State("LOCATE"):
            # The opponent's square in cells; a square just off one edge of the array is
            # brought in by a shift when the other edge has room.
            x = bbox.min_x - 1 + theirs.col
            y = bbox.min_y - 1 + theirs.row
            ctl.d.sync += [move.x.eq(x), move.y.eq(y)]
            with ctl.If(bbox.empty):
                ctl.d.sync += [move.x.eq((W - 1) // 2), move.y.eq((H - 1) // 2)]
                with ctl.If((theirs.col == 0) & (theirs.row == 0)):
                    ctl.next = "OPPONENT"
                with ctl.Else():
                    ctl.next = "REFUSE"
            with ctl.Elif((theirs.col > self._columns + 1) | (theirs.row > self._rows + 1)):
                ctl.next = "REFUSE"
            for off_edge, room, direction in ((x < 0, bbox.max_x < W - 1, "E"),
                                              (x >= W, bbox.min_x > 0, "W"),
                                              (y < 0, bbox.max_y < H - 1, "S"),
                                              (y >= H, bbox.min_y > 0, "N")):
                with ctl.Elif(off_edge & room):
                    ctl.d.sync += locating.eq(1)
                    ctl.next = f"SHIFT_{direction}"
            with ctl.Elif((x < 0) | (x >= W) | (y < 0) | (y >= H)):
                ctl.next = "OVERFLOW"
            with ctl.Else():
                ctl.next = "OPPONENT"

        def judge_opponent():
            placed = ~(flags.occupied | flags.not_adjacent | flags.mismatch)
            with ctl.If(placed & ~flags.illegal & ~too_wide):
                ctl.next = "COMMIT_OPPONENT"
            with ctl.Else():
                ctl.next = "REFUSE"

        self._command(ctl, "OPPONENT", {"op": Op.TRY, "x": move.x, "y": move.y,
                                        "symbol": move.symbol, "level": 1}, judge_opponent)

        with ctl.State("REFUSE"):
            ctl.d.sync += [self._illegal_seen.eq(1), self._counting.eq(0)]
            ctl.next = "DROP"

        self._command(ctl, "DROP", {"op": Op.DISCARD, "level": 1}, goto(ctl, "AWAIT"))

        def after_opponent():
            # COMMIT leaves the flags of the TRY before it.
            with ctl.If(self._won):
                ctl.d.sync += self._counting.eq(0)
                ctl.next = "GAME_OVER"
            with ctl.Else():
                ctl.d.sync += self._answer_next.eq(1)
                ctl.next = "CENTRE"

        self._command(ctl, "COMMIT_OPPONENT", {"op": Op.COMMIT}, after_opponent)

    def _centring_states(self, ctl):
        """Step 2: shift the tiles one cell at a time until the leftmost tile column is at
        ``(width - columns) // 2`` and the top row at ``(height - rows) // 2``, as the search
        model assumes (``window_of``); then search, or wait for the opponent. The opponent's
        step also shifts through here to bring its square in (``locating``)."""
        bbox = self._own.bbox
        target_x = (self.width - self._columns) >> 1
        target_y = (self.height - self._rows) >> 1
        with ctl.State("CENTRE"):
            with ctl.If(~bbox.empty & (bbox.min_x > target_x)):
                ctl.next = "SHIFT_W"
            with ctl.Elif(~bbox.empty & (bbox.min_x < target_x)):
                ctl.next = "SHIFT_E"
            with ctl.Elif(~bbox.empty & (bbox.min_y > target_y)):
                ctl.next = "SHIFT_N"
            with ctl.Elif(~bbox.empty & (bbox.min_y < target_y)):
                ctl.next = "SHIFT_S"
            with ctl.Elif(self._answer_next):
                ctl.next = "THINK"
            with ctl.Else():
                ctl.next = "AWAIT"

        def after_shift():
            ctl.d.sync += self._locating.eq(0)
            with ctl.If(self._locating):
                ctl.next = "LOCATE"
            with ctl.Else():
                ctl.next = "CENTRE"

        for direction in Direction:
            self._command(ctl, f"SHIFT_{direction.name}", {"op": Op.SHIFT, "dir": direction},
                          after_shift)

    def _my_move_states(self, ctl, proto, search):
        """Step 3: search, try and commit the chosen move, and send it, encoded against the
        bounding box before it."""
        W, H, move, bbox = self.width, self.height, self._move, self._own.bbox
        before_x, before_y = Signal(range(W)), Signal(range(H))   # bbox corner before the move
        before_empty = Signal()
        with ctl.State("THINK"):
            ctl.d.comb += [search.start.eq(1), search.colour.eq(proto.colour)]
            ctl.d.sync += [before_x.eq(bbox.min_x), before_y.eq(bbox.min_y),
                           before_empty.eq(bbox.empty)]
            ctl.next = "SEARCHING"

        with ctl.State("SEARCHING"):
            with ctl.If(search.done):
                ctl.d.sync += move.eq(search.move)
                with ctl.If(search.found):
                    ctl.next = "MINE"
                with ctl.Else():
                    ctl.next = "OVERFLOW"

        self._command(ctl, "MINE", {"op": Op.TRY, "x": move.x, "y": move.y,
                                    "symbol": move.symbol, "level": 1}, goto(ctl, "COMMIT_MINE"))

        def after_mine():
            ctl.d.sync += self.game_over.eq(self._won)
            ctl.next = "SEND"

        self._command(ctl, "COMMIT_MINE", {"op": Op.COMMIT}, after_mine)

        with ctl.State("SEND"):
            mine = proto.my_move
            ctl.d.comb += [
                mine.valid.eq(1),
                mine.payload.col.eq(Mux(before_empty, 0, move.x - before_x + 1)),
                mine.payload.row.eq(Mux(before_empty, 0, move.y - before_y + 1)),
                mine.payload.symbol.eq(move.symbol),
            ]
            with ctl.If(mine.ready):
                ctl.d.sync += self._counting.eq(0)
                with ctl.If(self.game_over):
                    ctl.next = "GAME_OVER"
                with ctl.Else():
                    ctl.d.sync += self._answer_next.eq(0)
                    ctl.next = "CENTRE"

    def _end_states(self, ctl, proto):
        """The game has outgrown the array, or is over: wait for the next game."""
        with ctl.State("OVERFLOW"):
            ctl.d.sync += [self.overflow.eq(1), self._counting.eq(0)]
            ctl.next = "GAME_OVER"

        with ctl.State("GAME_OVER"):
            ctl.d.sync += self.game_over.eq(1)
            # Moves after the end belong to no game: taken, dropped and shown as bad input.
            ctl.d.comb += proto.opponent_move.ready.eq(1)
            with ctl.If(proto.opponent_move.valid):
                ctl.d.sync += self._illegal_seen.eq(1)
