"""One square of the systolic tile array.

A cell holds the tile on its square and talks only to its four neighbours. Everything a Trax
turn needs is local to a square once the neighbours' facing edges are known:

* **Forced play.** An empty square into which two edges of one colour enter must take the
  unique tile joining them; three edges of one colour make the turn illegal. The cell decides
  both from its neighbours in one clock. Two *adjacent* squares forced in the same clock could
  pick disagreeing tiles, so a cell may only fill itself on the clocks of its checkerboard
  parity (``ctl.phase``): a forced chain alternates parity anyway, so chains still advance one
  square per clock, and no two simultaneous fills ever touch.
* **Win detection.** Each cell keeps one flag, *reach*, about its track of colour
  ``ctl.colour``: "this track reaches a seeded end". A tile ORs in the flags its neighbours
  report on the two edges of that track; an *empty* square reports a fixed seed instead of its
  register (``seed_col | seed_row``, set per column and row by the array), which is how a track
  learns what lies beyond its ends. With every empty square seeding, a tile whose flag stays
  clear after convergence lies on a closed loop (``closed``). With only the column just left of
  the tiles in play seeding, a tile in the rightmost column (``end_col``) whose track leaves
  through its east edge with the flag set ends a track joining the outermost left and right
  edges (``line``; the same with rows, ``end_row`` and the south edge). No track is walked
  sequentially: every track advances one square per clock, all at once.
* **Both colours at once.** With ``both_colours`` the cell keeps one flag per colour (white,
  red) instead of one for ``ctl.colour``, so a detection pass follows both colours' tracks in
  the same clocks: the seeds do not depend on the colour, only the edges a flag follows do.
  Every flag output and answer is then two bits wide (white, red). It costs the cell a few
  LUTs and halves the passes of a trial.
* **Threats.** With ``ctl.threat`` set, no empty square seeds and the cell just placed
  (``at``) seeds itself instead, so the flag floods only the placed tile's track. An empty
  square the flooded track enters is one of its two *ends* (``end``), and an end next to the
  other end (``threat``) means one more tile closes the loop: the move made a loop threat.
* **Labels** (with ``label_bits``, the boards with room for them). A threat pass floods one
  track; an attack can be made on any track, by forced play too. So each cell may keep, per
  colour, a *label* instead: during a threat pass (``ctl.threat``) a tile takes the least of its
  own label and its track's neighbours' labels, which starts as its index (an empty square's
  as ``none``, all ones), so every track settles on the least index along it. An empty square
  takes the label of the track entering it: after legal forced play at most one track of each
  colour enters it, so the two ends of a track, and only they, carry the same label, and two
  adjacent empty squares with one label (``threat``, reported by the upper or left one) are the
  ends of a track one tile from a loop: an attack, wherever it is. A cell takes one of its
  track's two neighbours per clock (``ctl.half`` says which), which keeps it to one comparator:
  a label moves at least one square every two clocks, so a pass ends after two quiet clocks.
* **Trial levels.** A tile carries the level it was placed at (committed 0, trial 1 to
  ``levels``), as a thermometer code, so discarding a trial level is one synchronous clear of
  every cell whose level is at least that one. Each level costs a cell one flip-flop: the search
  nests one level per ply it looks ahead.

Everything rare (clearing the board, committing, shifting) is done by the array's controller
through the single-cell write port instead, which keeps the cell small: the array is most of
the player, and every LUT here is multiplied by W×H.

The array drives ``ctl`` (one registered broadcast), the select lines, seeds and line ends, and
wires the neighbour ports; a cell on the border sees an empty square (with the border's seed)
outside the array.
"""

from amaranth.hdl import Cat, Const, Module, Mux, Signal
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

from fpgatrax.hw.tiles import TILE_BITS, forced_play

__all__ = ["cell_state_layout", "control_layout", "neighbour_layout", "Cell"]


def cell_state_layout(levels):
    """What a cell stores: the tile and its trial level, a thermometer code of ``levels`` bits
    (committed ``0…0``, level 1 ``0…01``, level 2 ``0…011``, …)."""
    return data.StructLayout({"tile": TILE_BITS, "level": levels})


def control_layout(levels):
    """The broadcast that the array's controller drives to every cell, registered once."""
    return data.StructLayout({
        "clear": levels,    # empty the cells whose level bit k is set here (k + 1 and above)
        "wdata": TILE_BITS,  # the tile written into the selected cell
        "level": levels,    # thermometer level of written and forced tiles
        "force": 2,         # forced play on for the cells of parity 0, 1
        "resolve": 1,       # forced play in progress (cells report being forced as activity)
        "init": 1,          # hold the reach flags clear (between detection passes)
        "colour": 1,        # the track colour the flags follow: 0 white, 1 red
        "threat": 1,        # flood only from the placed square, and find the track's ends
        "half": 1,          # which of its track's two neighbours a labelling cell looks at
    })

def neighbour_layout(lanes=1, label_bits=0):
    """What a cell sees of one neighbour: whether it holds a tile, the colour of its edge facing
    this cell (1 white, 0 red or empty), and per flooded colour (``lanes``: 1, or 2 for white
    and red at once) its exported reach flag (its seed when empty), whether it is an end of
    the flooded track and (with ``label_bits``) its label."""
    fields = {"occ": 1, "edge": 1, "flag": lanes, "end": lanes}
    if label_bits:
        fields["label"] = data.ArrayLayout(label_bits, lanes)
    return data.StructLayout(fields)


class Cell(wiring.Component):
    """One square. ``parity`` is ``(x + y) & 1`` of its position, fixed at elaboration;
    ``levels`` is the number of trial levels; with ``both_colours`` it follows the white and
    the red tracks at once (``flag``, ``end``, ``line``, ``closed``, ``threat`` are then two
    bits, white then red), else the tracks of ``ctl.colour``. With ``label_bits`` its threat
    passes label tracks instead of flooding one (``index``, below ``2**label_bits - 1``, is its
    label to start with), and ``threat`` reports an attack on any track.

    Ports
    -----
    ctl, sel_x, sel_y, at, seed_col, seed_row, end_col, end_row, nb : In
        The broadcast, the write select of its column (high only on a write clock) and row,
        whether it is the addressed square, its column's and row's seed and line-end lines,
        and its four neighbours indexed by direction (0 N, 1 E, 2 S, 3 W).
    state, occ, flag, end : Out
        Its tile and level, whether it holds a tile, the flag it exports to neighbours, and
        whether it is an end of the flooded track (registered; 0 with labels).
    label : Out
        Per colour followed, its label (with ``label_bits``).
    active, three, line, closed, threat : Out
        Leaves of the array's OR trees, registered (they describe the previous clock's
        state): forced play or flag propagation still changing
        something here; an empty square with three entering edges of one colour; a line
        ends here; a tile whose flag is clear; an end of the flooded track next to its other
        end.
    """

    def __init__(self, parity, levels=2, both_colours=False, index=0, label_bits=0):
        if parity not in (0, 1):
            raise ValueError(f"parity must be 0 or 1, not {parity!r}")
        if label_bits and not 0 <= index < (1 << label_bits) - 1:
            raise ValueError(f"index {index} does not fit below the label {label_bits} bits "
                             f"leave for none")
        self.parity, self.levels, self.both_colours = parity, levels, both_colours
        self.index, self.label_bits = index, label_bits
        lanes = 2 if both_colours else 1
        labels = {"label": Out(data.ArrayLayout(label_bits, lanes))} if label_bits else {}
        super().__init__({
            **labels,
            "ctl": In(control_layout(levels)),
            "sel_x": In(1),
            "sel_y": In(1),
            "at": In(1),
            "seed_col": In(1),
            "seed_row": In(1),
            "end_col": In(1),
            "end_row": In(1),
            "nb": In(data.ArrayLayout(neighbour_layout(lanes, label_bits), 4)),
            "state": Out(cell_state_layout(levels)),
            "occ": Out(1),
            "flag": Out(lanes),
            "end": Out(lanes),
            "active": Out(1),
            "three": Out(1),
            "line": Out(lanes),
            "closed": Out(lanes),
            "threat": Out(lanes),
        })

    def elaborate(self, platform):
        m = Module()
        ctl, tile, level = self.ctl, self.state.tile, self.state.level

        # Every placed tile has two white edges, so one of edges N, E, S is always white.
        m.d.comb += self.occ.eq(tile[0] | tile[1] | tile[2])

        # -- forced play ----------------------------------------------------------------------
        # An empty neighbour's facing tile bit is 0, so ``edge`` alone marks a white entry.
        white_in, red_in = Signal(4), Signal(4)
        m.d.comb += [white_in.eq(Cat(self.nb[d].edge for d in range(4))),
                     red_in.eq(Cat(self.nb[d].occ & ~self.nb[d].edge for d in range(4)))]
        occupied = Cat(self.nb[d].occ for d in range(4))
        forced_any, three, forced_tile = forced_play(white_in, red_in, occupied)
        forced = Signal()
        m.d.comb += forced.eq(~self.occ & forced_any)

        with m.If((ctl.clear & level).any()):
            m.d.sync += self.state.eq(0)
        with m.Elif((self.sel_x & self.sel_y) | (ctl.force[self.parity] & forced)):
            m.d.sync += [tile.eq(Mux(self.sel_x, ctl.wdata, forced_tile)), level.eq(ctl.level)]

        # -- track flags ----------------------------------------------------------------------
        # One flag per colour followed: white and red with ``both_colours``, else
        # ``ctl.colour``'s. The flag of an empty cell is held clear (it exports its seed
        # instead).
        seed = self.seed_col | self.seed_row
        moved = []
        for lane in range(len(self.flag)):
            colour = Const(lane, 1) if self.both_colours else ctl.colour
            moved.append(self._follow(m, lane, colour, seed))
            if self.label_bits:
                moved.append(self._label(m, lane, colour))
            else:
                self._ends(m, lane, colour)
        m.d.sync += [self.active.eq((ctl.resolve & forced) | Cat(moved).any()),
                     self.three.eq(~self.occ & three)]
        return m

    def _follow(self, m, lane, colour, seed):
        """The flag of lane ``lane`` following the tracks of ``colour`` (a constant or
        ``ctl.colour``), with its registered answers; returns whether it rose this clock."""
        ctl, tile = self.ctl, self.state.tile
        on_track = Signal(4, name=f"on_track_{lane}")
        m.d.comb += on_track.eq(tile ^ colour.replicate(4))
        reach, reach_next = Signal(name=f"reach_{lane}"), Signal(name=f"reach_next_{lane}")
        m.d.comb += reach_next.eq(
            ~ctl.init & self.occ &
            (reach | (ctl.threat & self.at & (not self.label_bits)) |
             (on_track & Cat(self.nb[d].flag[lane] for d in range(4))).any()))
        m.d.sync += reach.eq(reach_next)
        m.d.comb += self.flag[lane].eq(Mux(self.occ, reach, seed))
        # The leaves are registered: the OR trees span the whole array, and a leaf computed
        # from the neighbours' tiles in front of them would be the longest path of the design.
        m.d.sync += [
            self.line[lane].eq(reach & ((self.end_col & on_track[1]) |
                                        (self.end_row & on_track[2]))),
            self.closed[lane].eq(self.occ & ~reach),
        ]
        return reach_next & ~reach

    def _entering(self, colour):
        """The sides through which a track of ``colour`` enters this square from a tile."""
        return Cat(self.nb[d].occ & (self.nb[d].edge ^ colour) for d in range(4))

    def _ends(self, m, lane, colour):
        """The threat pass's answers from the flood (without labels): whether this empty square
        is an end of the flooded track (its flag's colour enters from a flagged tile), and
        whether an end is next to it."""
        m.d.sync += [
            self.end[lane].eq(self.ctl.threat & ~self.occ &
                              (self._entering(colour) &
                               Cat(self.nb[d].flag[lane] for d in range(4))).any()),
            self.threat[lane].eq(self.end[lane] &
                                 Cat(self.nb[d].end[lane] for d in range(4)).any()),
        ]

    def _label(self, m, lane, colour):
        """The label of lane ``lane`` (see the module docstring) and its registered answer, an
        attack whose upper or left end square this is; returns whether the label fell."""
        ctl, B = self.ctl, self.label_bits
        none = (1 << B) - 1
        label = self.label[lane]
        # The side it takes a label from this clock, and whether it has one, are registered
        # for each colour (the path from the neighbours' tiles through the side's choice to the
        # comparator was the longest): the tiles are still during detection, and a pass's
        # colour, which may change with its first clock, only picks one of the two.
        sides, tracks = [], []
        for c in range(2):
            # The sides of a tile's track of the colour, or of an empty square's entering
            # track (at most one).
            track = Signal(4, name=f"track_{lane}_{c}")
            m.d.comb += track.eq(Mux(self.occ, self.state.tile ^ Const(c, 1).replicate(4),
                                     self._entering(Const(c, 1))))
            low = Mux(track[0], 0, Mux(track[1], 1, Mux(track[2], 2, 3)))
            high = Mux(track[3], 3, Mux(track[2], 2, Mux(track[1], 1, 0)))
            side, tracked = Signal(2, name=f"side_{lane}_{c}"), Signal(name=f"tracked_{lane}_{c}")
            m.d.sync += [side.eq(Mux(~ctl.half, high, low)), tracked.eq(track.any())]
            sides.append(side)
            tracks.append(tracked)
        side, tracked = Mux(colour, sides[1], sides[0]), Mux(colour, tracks[1], tracks[0])
        offered = Signal(B, name=f"offered_{lane}")
        with m.Switch(side):
            for d in range(4):
                with m.Case(d):
                    m.d.comb += offered.eq(self.nb[d].label[lane])
        falls = Signal(name=f"falls_{lane}")
        m.d.comb += falls.eq(ctl.threat & ~ctl.init & tracked & (offered < label))
        with m.If(ctl.init):
            m.d.sync += label.eq(Mux(self.occ, self.index, none))
        with m.Elif(falls):
            m.d.sync += label.eq(offered)
        east, south = self.nb[1], self.nb[2]
        m.d.sync += self.threat[lane].eq(
            ~self.occ & (label != none) &
            ((~east.occ & (east.label[lane] == label)) |
             (~south.occ & (south.label[lane] == label))))
        return falls

