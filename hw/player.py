"""The hardware Trax player: UART pins in, UART pins out, a move search in between.

::

    rx ─▶ UARTReceiver ─▶ Protocol ─▶ opponent's move ─┐           ┌─▶ BoardKeeper (the game,
                            │                          ▼           │   block RAM, exact rules)
    tx ◀─ UARTTransmitter ◀─┘◀── my move ◀──────── the player's FSM ┤
                                                                    └─▶ SearchLanes (a window
                                                                        of it in tile arrays)

The game lives in the board keeper (``hw/keeper.py``), whose rules are exact on a ``size ×
size`` torus of block RAM; the tile arrays hold a window of it for the search
(``hw/player_model.py`` is the algorithm's Python model, which the testbench holds the player
to, move for move). The player's turn, after the opponent's move (or ``-W``):

1. **Opponent's move.** Column ``c``, row ``r`` name the square ``(min_x - 1 + c, min_y - 1 +
   r)`` of the game's bounding box before the move (an empty board takes ``@0`` only; the
   player keeps that box itself, from the moves' squares, since forced play never reaches
   beyond them). The keeper tries it; if it refuses it (occupied, not adjacent, colours that do
   not match, an illegal forced play, in 8x8 a span over 8) the trial is discarded,
   ``bad_input`` lights and the line is ignored, the position intact. Otherwise it is
   committed; if it won the game, the player waits for the next game.
2. **Window.** Per axis, tiles of the keeper's box that fit in the array are centred in it; a
   wider game gets a window around the opponent's last move, within the box's ring
   (``player_window``). The
   arrays are cleared and loaded from the keeper, square by square; a window that cuts the game
   runs no line passes (``cut``).
3. **Search** on the arrays: its move, if it found one, in the keeper's squares.
4. **Keeper's pass.** Every square of the keeper's box and its ring, each symbol, is tried in
   the keeper in raster order: the first move that wins is played at once; otherwise the search's
   move if the keeper finds it legal and not losing at once (or every legal move loses), else
   the first legal move that does not lose at once, else the first legal move
   (``keeper_pass``).
5. The move is tried and committed in the keeper, encoded against the game's box before it,
   and sent.

If the keeper has no room for the opponent's move (the tiles would span more than ``size - 2``
columns or rows), the player has it forget the quarter of its board at the far side and tries
again; a move it still has no room for is taken on trust (``hw/player_model.py``, "Past the
keeper's board"), and from then on so is a move the keeper refuses. Either way ``out_of_room``
lights until the next game. The player goes on answering from what the keeper holds until a
move is taken on trust, and from then on (or when the keeper finds no move it may play) with
the *edge move*, which is legal whatever the keeper forgot: a ``+`` just west of the tile of
the move that last reached the game's westmost column, a row the player keeps with the game's
box. A new game may arrive at any moment: the search is reset, the arrays and the keeper
finish any command they are in and are cleared.
"""

from amaranth.hdl import Const, Module, Mux, ResetInserter, Signal
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

from fpgatrax.host.rules.position import E, N, S, W
from fpgatrax.host.rules.variant import variant_named
from fpgatrax.hw.array_port import ArrayPort, Op, command_states, goto
from fpgatrax.hw.keeper import BoardKeeper, KeeperOp, keeper_bbox_layout
from fpgatrax.hw.lanes import SearchLanes
from fpgatrax.hw.player_model import COORD_BITS, KEEPER_LOG, KEEPER_SIZE
from fpgatrax.hw.protocol import Colour, Protocol
from fpgatrax.hw.search_model import DEFAULT_DEPTH, DEFAULT_EXTENSION
from fpgatrax.hw.tiles import Symbol
from fpgatrax.hw.uart import UARTReceiver, UARTTransmitter

__all__ = ["Player", "SIM_PROFILE"]


# Parameters of the simulated board (sim/): an array roomy enough for bot games (which sprawl
# more than human ones), a clock of a typical board, a fast link so that the simulation spends
# its cycles on thinking, and the boards' search with a small trial limit (a board affords about
# 100,000 trials a move; 5,000 keep a simulated move to a few seconds of simulation).
SIM_PROFILE = {"width": 20, "height": 20, "clk_freq": 24_000_000, "baud": 1_500_000,
               "depth": DEFAULT_DEPTH, "max_trials": 5000}


def _keeper_square(bits):
    return data.StructLayout({"x": bits, "y": bits, "symbol": Symbol})


class Player(wiring.Component):
    """A Trax player on two UART pins.

    Parameters
    ----------
    width, height : int
        The tile array's size (the search's window).
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
    veto, veto_trials : int
        Plies of the opponent's threat-space search that checks the last iteration's new best
        root moves (0: none), and the trials each may spend (``MoveSearch``); the array gets
        ``veto + 1`` levels at least.
    max_trials : int
        The search's trials at most (``MoveSearch``; 0: no limit).
    every_attack : bool
        The arrays label their tracks and the search judges every attack (``MoveSearch``).
    table : int
        Each search's table of ``2**table`` leaf values in block RAM (``MoveSearch``; 0: none).
    both_colours : bool
        The array follows both colours in one detection pass (``TileArray``): the same moves in
        fewer clocks, for more LUTs.
    lanes : int
        Searches at once, each on its own array, splitting the root's squares (``SearchLanes``).
    variant : str
        ``standard``, ``8x8`` or ``loop``.
    team : str
        The two-character code sent in answer to ``-T``.
    keeper_size, keeper_log : int
        The keeper's board (squares per side, a power of two) and the tiles a turn may place
        (``BoardKeeper``).
    forgetting : bool
        Past the keeper's board, forget and take moves on trust (the default); without it (a
        device with no room for it), squares are named by the keeper's own coordinates and the
        player stops answering once a move finds no room.

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
    out_of_room : Out(1)
        The game has outgrown the keeper's board, which has forgotten part of it or taken a
        move on trust; the player goes on answering (without ``forgetting``: it has stopped).
    game_over : Out(1)
        The game was won (by either side); the player waits for ``-W``/``-B``.
    move_cycles : Out(32)
        Clocks from the opponent's move (or ``-W``) reaching the player to its answer reaching
        the transmitter, for the last answer.
    """

    def __init__(self, *, width, height, clk_freq, baud=19200, depth=DEFAULT_DEPTH,
                 evasions=True, extension=DEFAULT_EXTENSION, max_trials=0, tss=0, tss_trials=0,
                 both_colours=False, lanes=1, variant="standard", team="FT", every_attack=False,
                 table=0, veto=0, veto_trials=0, keeper_size=KEEPER_SIZE, keeper_log=KEEPER_LOG,
                 forgetting=True):
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
        self.forgetting = forgetting
        # Without forgetting, squares are the keeper's torus coordinates; the notation's
        # numbers reach one more than its side.
        self._bits = COORD_BITS if forgetting else (keeper_size - 1).bit_length()
        self._keeper = BoardKeeper(keeper_size, variant, keeper_log, self._bits, forgetting)
        notation_bits = COORD_BITS if forgetting else keeper_size.bit_length()
        self._protocol = Protocol(team=team, col_bits=notation_bits, row_bits=notation_bits)
        self._search = SearchLanes(width, height, lanes=lanes, both_colours=both_colours,
                                   depth=depth, evasions=evasions, extension=extension,
                                   every_attack=every_attack, table=table,
                                   max_trials=max_trials, tss=tss, tss_trials=tss_trials,
                                   veto=veto, veto_trials=veto_trials, variant=variant)
        super().__init__({
            "rx": In(1, init=1),
            "tx": Out(1, init=1),
            "thinking": Out(1),
            "bad_input": Out(1),
            "out_of_room": Out(1),
            "game_over": Out(1),
            "move_cycles": Out(32),
        })

    def elaborate(self, platform):
        m = Module()
        m.submodules.uart_rx = urx = self._rx
        m.submodules.uart_tx = utx = self._tx
        m.submodules.protocol = proto = self._protocol
        m.submodules.search = search = self._search
        m.submodules.keeper = self._keeper
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
        keeper = self._keeper
        self._counting = Signal()                        # ``move_cycles`` is running
        with ctl.If(self._counting):
            ctl.d.sync += self.move_cycles.eq(self.move_cycles + 1)
        flags = keeper.flags
        self._won = flags.loop_white | flags.loop_red
        if self.variant.line_span is not None:
            self._won = self._won | flags.line_white | flags.line_red
        self._last = Signal(_keeper_square(self._bits))     # the opponent's last move
        # The game's bounding box, for the notation: the keeper's may have forgotten part of it.
        self._game = self._keeper.bbox
        if self.forgetting:
            self._game = Signal(keeper_bbox_layout(self._bits), init={"empty": 1})
        self._including, self._including_mine = Signal(), Signal()
        self._west_row = Signal(self._bits)      # a tile of the game's westmost column
        self._trusted = Signal()                 # a move was taken on trust: edge moves only

        # After a reset the array and the keeper may still be finishing a command; they wait.
        with ctl.FSM(init="CLEAR") as fsm:
            self._command(ctl, "CLEAR", {"op": Op.CLEAR}, goto(ctl, "KEEPER_CLEAR"))
            self._keep(ctl, "KEEPER_CLEAR", {"op": KeeperOp.CLEAR}, goto(ctl, "READY"))

            with ctl.State("READY"):
                with ctl.If(self._in_game & (proto.colour == Colour.WHITE)):
                    self._start_counting(ctl)
                    ctl.next = "WINDOW"
                with ctl.Elif(self._in_game):
                    ctl.next = "AWAIT"

            self._opponent_states(ctl, proto)
            self._window_states(ctl)
            self._search_states(ctl, proto, search)
            self._scan_states(ctl, proto)
            self._my_move_states(ctl, proto)
            self._end_states(ctl, proto)
        if self.forgetting:
            self._game_box(ctl)
        # Registered: an LED's pin may lie far from the FSM.
        ctl.d.sync += self.thinking.eq(~fsm.ongoing("AWAIT") & ~fsm.ongoing("GAME_OVER") &
                                       ~fsm.ongoing("READY"))

    def _command(self, ctl, state, fields, then):
        command_states(ctl, self._own, state, fields, then)

    def _keep(self, ctl, state, fields, then):
        command_states(ctl, self._keeper, state, fields, then)

    def _start_counting(self, ctl):
        ctl.d.sync += [self._counting.eq(1), self.move_cycles.eq(0)]

    def _include(self, ctl, mine):
        """Grow the game's box by the opponent's last move, or by the player's (``mine``);
        without forgetting the game's box is the keeper's, which grows by itself."""
        if self.forgetting:
            ctl.d.comb += [self._including.eq(1), self._including_mine.eq(mine)]

    def _game_box(self, ctl):
        """The game's box, grown by the move ``_include`` names (a move lies in the box or
        next to it): one copy of the logic for every state that includes a move."""
        box = self._game
        square = Mux(self._including_mine, self._chosen.as_value(), self._last.as_value())
        square = data.View(_keeper_square(self._bits), square)
        with ctl.If(self._including & box.empty):
            ctl.d.sync += [box.min_x.eq(square.x), box.min_y.eq(square.y), box.span_x.eq(0),
                           box.span_y.eq(0), box.empty.eq(0), self._west_row.eq(square.y)]
        with ctl.Elif(self._including):
            for first, span, at, west in ((box.min_x, box.span_x, square.x, True),
                                          (box.min_y, box.span_y, square.y, False)):
                offset = (at - first)[:self._bits]
                with ctl.If(offset == span + 1):
                    ctl.d.sync += span.eq(span + 1)
                with ctl.Elif(offset == (1 << self._bits) - 1):
                    ctl.d.sync += [first.eq(at), span.eq(span + 1)]
                    if west:
                        ctl.d.sync += self._west_row.eq(square.y)

    def _opponent_states(self, ctl, proto):
        """Step 1: the opponent's move, located against the game's box, tried in the keeper,
        and committed or refused; when the keeper has no room, FORGET and try again, or take
        it on trust."""
        box, flags, last = self._game, self._keeper.flags, self._last
        theirs = Signal.like(proto.opponent_move.payload)
        opp = proto.opponent_move.payload

        with ctl.State("AWAIT"):
            ctl.d.comb += proto.opponent_move.ready.eq(1)
            with ctl.If(proto.opponent_move.valid):
                self._start_counting(ctl)
                ctl.d.sync += theirs.eq(opp)
                ctl.next = "LOCATE"

        with ctl.State("LOCATE"):
            ctl.d.sync += [last.x.eq(box.min_x - 1 + theirs.col),
                           last.y.eq(box.min_y - 1 + theirs.row), last.symbol.eq(theirs.symbol)]
            with ctl.If(box.empty):
                with ctl.If((theirs.col == 0) & (theirs.row == 0)):
                    ctl.next = "OPPONENT"
                with ctl.Else():
                    ctl.next = "REFUSE"
            with ctl.Elif((theirs.col > box.span_x + 2) | (theirs.row > box.span_y + 2)):
                ctl.next = "REFUSE"
            with ctl.Else():
                ctl.next = "OPPONENT"

        def judge_opponent():
            refused = flags.occupied | flags.not_adjacent | flags.mismatch | flags.illegal
            if self.forgetting:
                # Once the keeper has forgotten part of the game, what it refuses may be legal.
                no_room, room = flags.out_of_room | (refused & self.out_of_room), "ROOM_DROP"
            else:
                no_room, room = flags.out_of_room, "OUT_OF_ROOM"
            with ctl.If(no_room):
                ctl.next = room
            with ctl.Elif(refused):
                ctl.next = "REFUSE"
            with ctl.Else():
                ctl.next = "COMMIT_OPPONENT"

        self._keep(ctl, "OPPONENT", {"op": KeeperOp.TRY, "x": last.x, "y": last.y,
                                     "symbol": last.symbol}, judge_opponent)

        with ctl.State("REFUSE"):
            ctl.d.sync += [self._illegal_seen.eq(1), self._counting.eq(0)]
            ctl.next = "DROP"

        self._keep(ctl, "DROP", {"op": KeeperOp.DISCARD}, goto(ctl, "AWAIT"))

        def after_opponent():
            # COMMIT leaves the flags of the TRY before it.
            self._include(ctl, mine=False)
            with ctl.If(self._won):
                ctl.d.sync += self._counting.eq(0)
                ctl.next = "GAME_OVER"
            with ctl.Else():
                ctl.next = "WINDOW"

        self._keep(ctl, "COMMIT_OPPONENT", {"op": KeeperOp.COMMIT}, after_opponent)
        if self.forgetting:
            self._room_states(ctl)

    def _room_states(self, ctl):
        """The keeper had no room for the opponent's move (or refused it after forgetting):
        the trial dropped, then FORGET the side opposite the move when it lies next to a full
        side of the keeper's box that is not cut (``KeeperView.side_to_forget``) and try
        again; else take it on trust."""
        keeper, last, size = self._keeper, self._last, self._keeper.size
        box, cut = keeper.bbox, keeper.cut
        forget = Signal(2)
        self._keep(ctl, "ROOM_DROP", {"op": KeeperOp.DISCARD}, goto(ctl, "ROOM"))
        with ctl.State("ROOM"):
            ctl.d.sync += self.out_of_room.eq(1)
            ctl.next = "TRUST"
            # In the reverse of KeeperView's order (E W S N), since the last assignment wins.
            for first, span, at, low, high in ((box.min_y, box.span_y, last.y, N, S),
                                               (box.min_x, box.span_x, last.x, W, E)):
                offset = (at - first)[:self._bits]
                full = span >= size - 3
                for beyond, side, opposite in ((offset == (1 << self._bits) - 1, low, high),
                                               (offset == span + 1, high, low)):
                    with ctl.If(beyond & full & ~cut[side]):
                        ctl.d.sync += forget.eq(opposite)
                        ctl.next = "FORGET"
        self._keep(ctl, "FORGET", {"op": KeeperOp.FORGET, "side": forget}, goto(ctl, "OPPONENT"))
        with ctl.State("TRUST"):
            self._include(ctl, mine=False)
            ctl.d.sync += self._trusted.eq(1)
            ctl.next = "WINDOW"
            # Keep forgotten squares between moves on trust and the tiles the keeper holds
            # (``KeeperView.side_to_buffer``; the first side in N E S W order wins).
            d = size // 4
            ox = (last.x - box.min_x)[:self._bits].as_signed()
            oy = (last.y - box.min_y)[:self._bits].as_signed()
            level_x = (ox >= -d) & (ox <= box.span_x + d)
            level_y = (oy >= -d) & (oy <= box.span_y + d)
            for side, near, span in (
                    (W, (ox >= -d) & (ox <= 1) & level_y, box.span_x),
                    (S, (oy >= box.span_y - 1) & (oy <= box.span_y + d) & level_x, box.span_y),
                    (E, (ox >= box.span_x - 1) & (ox <= box.span_x + d) & level_y, box.span_x),
                    (N, (oy >= -d) & (oy <= 1) & level_x, box.span_y)):
                with ctl.If(cut[side] & near & (span >= d + 2)):
                    ctl.d.sync += forget.eq(side)
                    ctl.next = "BUFFER"
        self._keep(ctl, "BUFFER", {"op": KeeperOp.FORGET, "side": forget}, goto(ctl, "WINDOW"))

    def _window_states(self, ctl):
        """Step 2: where the array lies on the keeper's board (``player_window``), and the
        arrays cleared and loaded from the keeper, one square at a time."""
        cols, rows, b = self.width, self.height, self._bits
        box, last = self._keeper.bbox, self._last
        self._origin_x, self._origin_y = Signal(b), Signal(b)
        self._cut = Signal()
        i, j = Signal(range(cols)), Signal(range(rows))

        def first_square(first, span, focus, n):
            """``_axis`` of the model in the keeper's coordinates (modulo its size)."""
            inner = Const(n, b + 2) - 1 - span       # squares to spare (negative: a cut axis)
            offset = (focus - first)[:b]
            if self.forgetting:     # a move taken on trust may lie before the box
                offset = offset.as_signed()
            around = offset - (n - 1) // 2       # signed: unsigned minus a constant
            low, high = -1, span + 2 - n
            clamped = Mux(around < low, low, Mux(around > high, high, around))
            return Mux(span < n, first - (inner >> 1), first + clamped)[:b]

        with ctl.State("WINDOW"):
            ctl.d.sync += [
                self._origin_x.eq(first_square(box.min_x, box.span_x, last.x, cols)),
                self._origin_y.eq(first_square(box.min_y, box.span_y, last.y, rows)),
                self._cut.eq(~box.empty & ((box.span_x >= cols) | (box.span_y >= rows) |
                                           self._keeper.cut.any())),
                i.eq(0), j.eq(0),
            ]
            ctl.next = "LOAD_CLEAR"
            if self.forgetting:
                with ctl.If(self._trusted):      # after a move on trust: the edge move
                    ctl.next = "EDGE"

        self._command(ctl, "LOAD_CLEAR", {"op": Op.CLEAR}, goto(ctl, "LOAD_READ"))

        def after_read():
            with ctl.If(self._keeper.rdata != 0):
                ctl.next = "LOAD_WRITE"
            with ctl.Else():
                ctl.next = "LOAD_NEXT"

        self._keep(ctl, "LOAD_READ", {"op": KeeperOp.READ, "x": self._origin_x + i,
                                      "y": self._origin_y + j}, after_read)
        self._command(ctl, "LOAD_WRITE", {"op": Op.WRITE, "x": i, "y": j,
                                          "tile": self._keeper.rdata}, goto(ctl, "LOAD_NEXT"))
        with ctl.State("LOAD_NEXT"):
            ctl.d.sync += i.eq(Mux(i == cols - 1, 0, i + 1))
            with ctl.If(i == cols - 1):
                ctl.d.sync += j.eq(j + 1)
                with ctl.If(j == rows - 1):
                    ctl.next = "THINK"
                with ctl.Else():
                    ctl.next = "LOAD_READ"
            with ctl.Else():
                ctl.next = "LOAD_READ"

    def _search_states(self, ctl, proto, search):
        """Step 3: the search, and its move in the keeper's squares."""
        self._proposal = Signal(_keeper_square(self._bits))
        self._proposed = Signal()
        ctl.d.comb += search.cut.eq(self._cut)
        with ctl.State("THINK"):
            ctl.d.comb += [search.start.eq(1), search.colour.eq(proto.colour)]
            ctl.next = "SEARCHING"
        with ctl.State("SEARCHING"):
            with ctl.If(search.done):
                ctl.d.sync += [self._proposed.eq(search.found),
                               self._proposal.x.eq(self._origin_x + search.move.x),
                               self._proposal.y.eq(self._origin_y + search.move.y),
                               self._proposal.symbol.eq(search.move.symbol)]
                ctl.next = "SCAN_START"

    def _scan_states(self, ctl, proto):
        """Step 4: the keeper's pass over every square of the box and its ring, each symbol,
        in raster order, and the choice it makes."""
        box, flags = self._keeper.bbox, self._keeper.flags
        layout = _keeper_square(self._bits)
        here, self._chosen = Signal(layout), Signal(layout)
        safe, legal = Signal(layout), Signal(layout)
        has_safe, has_legal, proposal_legal, proposal_loses = Signal(), Signal(), Signal(), Signal()
        white = proto.colour == Colour.WHITE
        lines = self.variant.line_span is not None
        mine = Mux(white, flags.loop_white | (flags.line_white if lines else 0),
                   flags.loop_red | (flags.line_red if lines else 0))
        placed = ~(flags.occupied | flags.not_adjacent | flags.mismatch)
        fits = placed & ~flags.illegal & ~flags.out_of_room
        is_proposal = ((here.x == self._proposal.x) & (here.y == self._proposal.y) &
                       (here.symbol == self._proposal.symbol))

        with ctl.State("SCAN_START"):
            ctl.d.sync += [here.x.eq(box.min_x - 1), here.y.eq(box.min_y - 1),
                           here.symbol.eq(Symbol.PLUS), has_safe.eq(0), has_legal.eq(0),
                           proposal_legal.eq(0), proposal_loses.eq(0)]
            with ctl.If(box.empty):          # the first move of the game: the search's
                ctl.d.sync += self._chosen.eq(self._proposal)
                ctl.next = "MINE"
            with ctl.Else():
                ctl.next = "SCAN_TRY"

        def judge():
            with ctl.If(fits & mine):
                ctl.d.sync += self._chosen.eq(here)
                ctl.next = "SCAN_WON"
            with ctl.Else():
                with ctl.If(fits & ~has_legal):
                    ctl.d.sync += [legal.eq(here), has_legal.eq(1)]
                with ctl.If(fits & ~self._won & ~has_safe):
                    ctl.d.sync += [safe.eq(here), has_safe.eq(1)]
                with ctl.If(is_proposal):
                    ctl.d.sync += [proposal_legal.eq(fits), proposal_loses.eq(self._won)]
                ctl.next = "SCAN_DROP"

        self._keep(ctl, "SCAN_TRY", {"op": KeeperOp.TRY, "x": here.x, "y": here.y,
                                     "symbol": here.symbol}, judge)
        self._keep(ctl, "SCAN_WON", {"op": KeeperOp.DISCARD}, goto(ctl, "MINE"))

        # The next square once its symbols are done, or at once when the first one found it
        # occupied or alone (that does not depend on the symbol).
        square_done = (here.symbol == Symbol.BACKSLASH) | flags.occupied | flags.not_adjacent
        last_x = (box.min_x + box.span_x + 1)[:self._bits]
        last_y = (box.min_y + box.span_y + 1)[:self._bits]

        def step():
            with ctl.If(~square_done):
                ctl.d.sync += here.symbol.eq(here.symbol.as_value() + 1)
                ctl.next = "SCAN_TRY"
            with ctl.Else():
                ctl.d.sync += [here.symbol.eq(Symbol.PLUS), here.x.eq(here.x + 1)]
                ctl.next = "SCAN_TRY"
                with ctl.If(here.x == last_x):
                    ctl.d.sync += [here.x.eq(box.min_x - 1), here.y.eq(here.y + 1)]
                    with ctl.If(here.y == last_y):
                        ctl.next = "SCAN_END"

        self._keep(ctl, "SCAN_DROP", {"op": KeeperOp.DISCARD}, step)

        with ctl.State("SCAN_END"):
            with ctl.If(self._proposed & proposal_legal & (~proposal_loses | ~has_safe)):
                ctl.d.sync += self._chosen.eq(self._proposal)
                ctl.next = "MINE"
            with ctl.Elif(has_safe):
                ctl.d.sync += self._chosen.eq(safe)
                ctl.next = "MINE"
            with ctl.Elif(has_legal):
                ctl.d.sync += self._chosen.eq(legal)
                ctl.next = "MINE"
            with ctl.Else():
                ctl.next = "BLIND" if self.forgetting else "OUT_OF_ROOM"

    def _my_move_states(self, ctl, proto):
        """Step 5: the chosen move tried and committed in the keeper, and sent, encoded
        against the box before it."""
        box, chosen = self._game, self._chosen
        before_x, before_y = Signal(self._bits), Signal(self._bits)
        before_empty = Signal()

        with ctl.State("MINE"):
            ctl.d.sync += [before_x.eq(box.min_x), before_y.eq(box.min_y),
                           before_empty.eq(box.empty)]
            ctl.next = "PLAY"

        self._keep(ctl, "PLAY", {"op": KeeperOp.TRY, "x": chosen.x, "y": chosen.y,
                                 "symbol": chosen.symbol}, goto(ctl, "COMMIT_MINE"))

        def after_mine():
            self._include(ctl, mine=True)
            ctl.d.sync += self.game_over.eq(self._won)
            ctl.next = "SEND"

        self._keep(ctl, "COMMIT_MINE", {"op": KeeperOp.COMMIT}, after_mine)

        if self.forgetting:
            # The edge move (module docstring), which the keeper takes on trust: not played.
            with ctl.State("EDGE"):
                ctl.d.sync += [chosen.x.eq(box.min_x - 1), chosen.y.eq(self._west_row),
                               chosen.symbol.eq(Symbol.PLUS), before_x.eq(box.min_x),
                               before_y.eq(box.min_y), before_empty.eq(0),
                               self._trusted.eq(1), self.out_of_room.eq(1)]
                ctl.next = "EDGE_MINE"
            with ctl.State("EDGE_MINE"):
                self._include(ctl, mine=True)
                ctl.next = "SEND"
            # The keeper has no move the player may play: as blind as after a move on trust.
            with ctl.State("BLIND"):
                ctl.d.sync += self._trusted.eq(1)
                ctl.next = "WINDOW"

        with ctl.State("SEND"):
            mine = proto.my_move
            ctl.d.comb += [
                mine.valid.eq(1),
                mine.payload.col.eq(Mux(before_empty, 0, (chosen.x - before_x + 1)[:self._bits])),
                mine.payload.row.eq(Mux(before_empty, 0, (chosen.y - before_y + 1)[:self._bits])),
                mine.payload.symbol.eq(chosen.symbol),
            ]
            with ctl.If(mine.ready):
                ctl.d.sync += self._counting.eq(0)
                with ctl.If(self.game_over):
                    ctl.next = "GAME_OVER"
                with ctl.Else():
                    ctl.next = "AWAIT"

    def _end_states(self, ctl, proto):
        """Without ``forgetting``, the game outgrew the keeper's board (the opponent's move
        found no room, or no move the player may play did), or the game is over: wait for the
        next game."""
        if not self.forgetting:
            with ctl.State("OUT_OF_ROOM"):
                ctl.d.sync += [self.out_of_room.eq(1), self._counting.eq(0)]
                ctl.next = "GAME_OVER"

        with ctl.State("GAME_OVER"):
            ctl.d.sync += self.game_over.eq(1)
            # Moves after the end belong to no game: taken, dropped and shown as bad input.
            ctl.d.comb += proto.opponent_move.ready.eq(1)
            with ctl.If(proto.opponent_move.valid):
                ctl.d.sync += self._illegal_seen.eq(1)
