"""The search in lanes: one or more move searches, each on its own tile array, one answer.

::

    port (the player's control) ──▶ broadcast ──┬──▶ mux ──▶ TileArray 0 ◀── MoveSearch lane 0 ─┐
                                                ├──▶ mux ──▶ TileArray 1 ◀── MoveSearch lane 1 ─┤
                                                └──▶ …                                           │
                                                            the choice among the lanes ◀─────────┘

The array's cells work in parallel within one trial, but a search tries its moves one after
another. A device with room for several arrays therefore runs several searches at once: lane
``k`` of ``lanes`` searches the root squares with ``(x + y) % lanes == k`` (and everything below
them), each lane with the whole trial limit, so that the lanes try ``lanes`` times the moves in
the time of one. :mod:`.lanes_model` gives the rules by which their answers make one, and the
Python twin of all of it.

Every array holds the same committed position: while no search is busy, the controller's
commands (``port``) go to every array at once, on a clock where all of them are ready, so they
stay in step, and the controller sees the results of lane 0's. While a lane's search is busy its
array is its own (an :class:`~.array_port.ArrayMux` per lane, as in a one-lane player).

When the last lane is done, the choice takes two clocks per lane and two more: the offers are
loaded and compared one after another, each step from registers, so the choice adds no long
path between lanes that may lie far apart on the device.

With one lane this is the search, its array and the mux, and nothing else.
"""

from amaranth.hdl import Array, Cat, Const, Module, Mux, ResetInserter, Shape, Signal
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

from fpgatrax.host.rules.variant import LINE_SPAN
from fpgatrax.hw.array import TileArray
from fpgatrax.hw.array_port import ArrayMux, ArrayPort
from fpgatrax.hw.search import MoveSearch, result_layout

__all__ = ["SearchLanes"]

#: The search's ports that the lanes' answer has too.
ANSWER = ("start", "colour", "busy", "done", "found", "win", "move")


class SearchLanes(wiring.Component):
    """``lanes`` move searches, each with a ``width`` × ``height`` :class:`~.array.TileArray`
    (``both_colours`` as there; it labels its tracks for a search with ``every_attack``), with
    the other settings of :class:`~.search.MoveSearch`.

    Ports
    -----
    start, colour, busy, done, found, win, move
        As :class:`~.search.MoveSearch`'s, for the lanes' choice (see :mod:`.lanes_model`).
    trials : Out
        Trials of the last search, summed over the lanes.
    restart : In(1)
        Resets the searches (a new game); the arrays finish their commands.
    cut : In(1)
        The arrays hold a window cut out of a larger game (no line passes: ``TileArray``).
    port : In(ArrayPort)
        The arrays' command port for the controller that loads and keeps the position (its
        ``Out(ArrayPort)`` end connects here), served while no search is busy. With several
        lanes its ``ready`` rises one clock after the ``done`` of the command before (see
        ``_broadcast``), not on that clock as an array's does.
    """

    def __init__(self, width, height, *, lanes=1, both_colours=False, **search):
        if not isinstance(lanes, int) or lanes < 1:
            raise ValueError(f"lanes must be a whole number of at least 1, not {lanes!r}")
        self.width, self.height = width, height
        self.lanes, self.both_colours = lanes, both_colours
        self._searches = [MoveSearch(width, height, lane=k, lanes=lanes, **search)
                          for k in range(lanes)]
        first = self._searches[0]
        self.levels, self.values = first.levels, first.values
        members = first.signature.members
        super().__init__({
            **{name: members[name] for name in ANSWER},
            "trials": Out(Shape.cast(members["trials"].shape).width + (lanes - 1).bit_length()),
            "restart": In(1),
            "cut": In(1),
            "port": In(ArrayPort(width, height, self.levels)),
        })

    def elaborate(self, platform):
        m = Module()
        controllers = []
        for k, search in enumerate(self._searches):
            m.submodules[f"search_{k}"] = ResetInserter(self.restart)(search)
            m.submodules[f"array_{k}"] = array = TileArray(
                self.width, self.height, self.levels, self.both_colours,
                search.variant.line_span or LINE_SPAN, labels=search.every_attack)
            m.submodules[f"array_mux_{k}"] = mux = ArrayMux(self.width, self.height,
                                                            self.levels)
            m.d.comb += [mux.select.eq(search.busy), search.start.eq(self.start),
                         search.colour.eq(self.colour), array.cut.eq(self.cut)]
            wiring.connect(m, search.array, mux.first)
            wiring.connect(m, mux.array, array.port)
            controllers.append(mux.second)
        self._broadcast(m, controllers)
        if self.lanes == 1:
            search = self._searches[0]
            m.d.comb += [getattr(self, name).eq(getattr(search, name))
                         for name in (*ANSWER[2:], "trials")]
        else:
            m.submodules.choice = ResetInserter(self.restart)(self._choice())
        return m

    def _broadcast(self, m, controllers):
        """The controller's commands to every array at once; the results of lane 0's.

        With one lane the controller's port is the mux's. With more, ``ready`` is registered:
        it is high when on the clock before every array was ready and the controller's port
        accepted nothing. An array stops being ready only by accepting a command, and while
        no search is busy it accepts only the controller's, which all arrays accept on the same
        clock; so the registered ``ready`` is never high when some array is not, and the
        arrays' readiness need not cross the device to every array within one clock."""
        if len(controllers) == 1:
            wiring.connect(m, wiring.flipped(self.port), controllers[0])
            return
        cmd = self.port.cmd
        ready = Signal()
        m.d.sync += ready.eq(Cat(c.cmd.ready for c in controllers).all() & ~(cmd.valid & ready))
        m.d.comb += cmd.ready.eq(ready)
        for controller in controllers:
            m.d.comb += [controller.cmd.valid.eq(cmd.valid & ready),
                         controller.cmd.payload.eq(cmd.payload)]
        for name in ArrayPort.RESULTS:
            m.d.comb += getattr(self.port, name).eq(getattr(controllers[0], name))

    def _choice(self):
        """The logic that waits for every lane, then compares their offers one lane at a time
        (the rules of :mod:`.lanes_model`); a new game resets it with the searches. Every step
        starts from registers (the lanes' answers, a summary of them, the offer being judged),
        so that no path runs from one lane through the comparison in one clock."""
        m = Module()
        searches, v = self._searches, self.values
        # The summary: whether any lane won or proved a win, and the deepest iteration
        # every lane with an answer finished.
        won, proven = Signal(), Signal()
        depth = Signal(range(searches[0].depth + 1))
        least = Const(searches[0].depth, depth.shape())
        for s in searches:
            least = Mux(s.found & (s.finished < least), s.finished, least)
        summary = [won.eq(Cat(s.found & s.win for s in searches).any()),
                   proven.eq(Cat(s.found & s.proven for s in searches).any()),
                   depth.eq(least),
                   self.trials.eq(sum(s.trials for s in searches))]
        offer_layout = data.StructLayout({"valid": 1, "result": result_layout(
            self.width, self.height, v)})
        offers = []
        for s in searches:
            offer = Signal(offer_layout)
            at_depth = s.results[(depth - 1).as_unsigned()]
            m.d.comb += [
                offer.valid.eq(Mux(won, s.found & s.win, Mux(proven, s.found & s.proven,
                                                            s.found))),
                offer.result.move.eq(Mux(won | proven | (depth == 0), s.move, at_depth.move)),
                # Proven wins are compared by raster order alone.
                offer.result.value.eq(Mux(won | proven, 0,
                                          Mux(depth == 0, s.value, at_depth.value))),
            ]
            offers.append(offer)

        lane = Signal(range(self.lanes))
        have = Signal()                         # an offer was taken: some lane found a move
        best = Signal(offer_layout.members["result"])
        offer = Signal(offer_layout)            # the offer being judged

        def raster(move):
            return Cat(move.symbol, move.x, move.y)

        better = ~have | (offer.result.value > best.value) | (
            (offer.result.value == best.value) & (raster(offer.result.move) < raster(best.move)))
        m.d.sync += self.done.eq(0)
        with m.FSM():
            with m.State("IDLE"):
                with m.If(self.start):
                    m.next = "SEARCH"
            with m.State("SEARCH"):     # every search is busy from the clock after start
                m.d.comb += self.busy.eq(1)
                with m.If(~Cat(s.busy for s in searches).any()):
                    m.d.sync += [lane.eq(0), have.eq(0)]
                    m.next = "SUMMARY"
            with m.State("SUMMARY"):
                m.d.comb += self.busy.eq(1)
                m.d.sync += summary
                m.next = "LOAD"
            with m.State("LOAD"):
                m.d.comb += self.busy.eq(1)
                m.d.sync += offer.eq(Array(offers)[lane])
                m.next = "JUDGE"
            with m.State("JUDGE"):
                m.d.comb += self.busy.eq(1)
                with m.If(offer.valid & better):
                    m.d.sync += [best.eq(offer.result), have.eq(1)]
                m.d.sync += lane.eq(lane + 1)
                with m.If(lane == self.lanes - 1):
                    m.next = "ANSWER"
                with m.Else():
                    m.next = "LOAD"
            with m.State("ANSWER"):
                m.d.comb += self.busy.eq(1)
                m.d.sync += [self.found.eq(have), self.win.eq(won), self.move.eq(best.move),
                             self.done.eq(1)]
                m.next = "IDLE"
        return m
