"""cocotb testbench of the board keeper: random games of the reference engine on its torus.

The engine (``fpgatrax.host.rules.position``) is the judge. Each game starts at a random square
of the keeper's coordinates, so games cross the seams of its torus; every turn the testbench tries
moves the engine refuses (occupied, not adjacent, colours that do not match, three edges of one
colour, beyond the 8x8 span) and a few legal ones, compares the keeper's flags and bounding box
with the engine's after each TRY and after each DISCARD, then commits the chosen move (moves
from ``array_tb``'s choice, which stretches games towards lines and takes wins). Every few
turns it reads back the tiles and the ring around them. A trial whose tiles would span more
than ``size - 2`` columns or rows, or that places more tiles than the log holds, must be
refused with *out_of_room*. When the move that finds no room lies next to a full side, the
testbench then has the keeper FORGET the far side, as the player does, and tries the move
again: the box, the cut sides and every square read back must be those of the model of what the
keeper holds (``KeeperView``), and a trial on the cut side must find no room. Then the game
starts again.

Parameters (environment): ``KEEPER_SIZE``, ``KEEPER_LOG``, ``KEEPER_VARIANT``, ``KEEPER_MOVES``,
``KEEPER_SEED``.
"""

import collections
import os

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge, with_timeout
from cocotb.utils import get_sim_time

from fpgatrax.host.rules.position import IllegalMove, Position, key_of, tile_symbol, xy_of
from fpgatrax.host.rules.variant import variant_named
from fpgatrax.hw.keeper import KeeperFlags, KeeperOp, keeper_bbox_layout, keeper_command_layout
from fpgatrax.hw.player_model import COORD_BITS, KeeperView
from fpgatrax.hw.tiles import Symbol
from fpgatrax.sim.array_tb import REASON_FLAG, Game, expected_flags, play_games, unsigned

PERIOD_NS = 10      # as array_tb's play_games clocks it
WRAP = 1 << COORD_BITS        # the keeper's coordinates wrap here
REASONS = {**REASON_FLAG, "span more than": "illegal"}


class KeeperDriver:
    """Commands through the keeper's ``cmd`` stream; results read at the ``done`` clock."""

    def __init__(self, dut, size):
        self.dut, self.size = dut, size
        self.layout = keeper_command_layout()
        self.box_layout = keeper_bbox_layout()
        self.cycles = collections.defaultdict(list)

    async def reset(self):
        await FallingEdge(self.dut.clk)
        self.dut.cmd__valid.value = 0
        self.dut.rst.value = 1
        for _ in range(3):
            await RisingEdge(self.dut.clk)
        self.dut.rst.value = 0

    async def command(self, op, x=0, y=0, symbol=Symbol.PLUS, side=0):
        dut = self.dut
        await FallingEdge(dut.clk)
        while not dut.cmd__ready.value:         # after a reset the keeper wipes its RAM first
            await FallingEdge(dut.clk)
        dut.cmd__payload.value = self.layout.const(
            {"op": op, "x": x % WRAP, "y": y % WRAP, "symbol": symbol, "side": side}).as_bits()
        dut.cmd__valid.value = 1
        start = get_sim_time("ns")
        await RisingEdge(dut.clk)
        dut.cmd__valid.value = 0
        await ReadOnly()
        if not dut.done.value:      # COMMIT is done on the clock after it is accepted
            await with_timeout(RisingEdge(dut.done), 10_000_000, "ns")
            await ReadOnly()
        self.cycles[op.name].append(round((get_sim_time("ns") - start) / PERIOD_NS))

    def flags(self):
        value = unsigned(self.dut.flags)
        return {name: bool(value >> field.offset & 1) for name, field in KeeperFlags}

    def bbox(self):
        """(min_x, min_y, span_x, span_y), or None when empty."""
        value = unsigned(self.dut.bbox)
        fields = {name: value >> f.offset & ((1 << f.width) - 1) for name, f in self.box_layout}
        if fields["empty"]:
            return None
        return fields["min_x"], fields["min_y"], fields["span_x"], fields["span_y"]

    def cut(self):
        return {side for side in range(4) if unsigned(self.dut.cut) >> side & 1}


class KeeperGame(Game):
    """One engine game mirrored on the keeper's torus at a random offset."""

    def __init__(self, tb, seed):
        super().__init__(tb, seed)
        self.pos = Position(tb.variant)

    def to_array(self, key):
        x, y = xy_of(key)
        return (x + self.offset[0]) % WRAP, (y + self.offset[1]) % WRAP

    def in_array(self, key):
        """Squares the keeper is asked about: the tiles' box and the ring around it (what the
        player asks), and beyond it only while the torus is roomy enough that a square three
        beyond the box is no square of the other side."""
        if self.pos.bbox is None:
            return True
        x0, y0, x1, y1 = self.pos.bbox
        x, y = xy_of(key)
        return (x0 - 1 <= x <= x1 + 1 and y0 - 1 <= y <= y1 + 1 or
                max(x1 - x0, y1 - y0) + 8 <= self.tb.size)

    def array_tiles(self, pos):
        """The tiles in engine coordinates: the torus has no edge for a track to stop at."""
        return {xy_of(k): t for k, t in pos.tiles.items()}

    def want_box(self, box):
        if box is None:
            return None
        x0, y0, x1, y1 = box
        return (x0 + self.offset[0]) % WRAP, (y0 + self.offset[1]) % WRAP, x1 - x0, y1 - y0

    def check_box(self, pos, what, box=None):
        got, want = self.tb.driver.bbox(), self.want_box(box or pos.bbox)
        if got != want:
            self.fail(f"{what}: bounding box {got} != {want} (min_x, min_y, span_x, span_y)",
                      pos)

    def expect(self, key, symbol):
        """What TRY of ``symbol`` at ``key`` must report: (flags that must be set, flags that
        may be set instead, the position after it or None)."""
        tb, pos = self.tb, self.pos
        after = pos.copy()
        try:
            after.play((key, after.tile_for(key, symbol)))
        except IllegalMove as e:
            reason = next(flag for text, flag in REASONS.items() if text in str(e))
            # Partial forced play of an illegal turn may run out of room first.
            x0, y0, x1, y1 = pos.bbox or (0, 0, 0, 0)
            crowded = max(x1 - x0, y1 - y0) >= tb.size - 8 or tb.log_depth < 32
            return {reason}, ({"out_of_room"} if crowded and reason == "illegal" else None), None
        x0, y0, x1, y1 = after.bbox
        if (max(x1 - x0, y1 - y0) + 1 > tb.size - 2 or
                len(after.placed_last()) > tb.log_depth):
            return {"out_of_room"}, None, None
        span = pos.variant.line_span
        wins = expected_flags(self.array_tiles(after), span or 8)
        if span is None:
            wins["line_white"] = wins["line_red"] = False
        return {name for name, on in wins.items() if on}, None, after

    async def trial(self, key, symbol, what):
        """TRY, check, and return the position after it (None if refused); the trial stays."""
        drv, tb = self.tb.driver, self.tb
        x, y = self.to_array(key)
        want, instead, after = self.expect(key, symbol)
        await drv.command(KeeperOp.TRY, x, y, Symbol.of(symbol))
        got = {name for name, on in drv.flags().items() if on}
        label = f"{what} {symbol} at keeper ({x}, {y})"
        if got != want and not (instead and got == instead):
            self.fail(f"{label}: flags {sorted(got)}, expected {sorted(want)}"
                      + (f" or {sorted(instead)}" if instead else ""))
        for name in got:
            tb.stats[name] += 1
        if after is not None:
            self.check_box(after, f"{label}: after the trial")
            if any(not 0 <= x + self.offset[0] < tb.size for x, _ in map(xy_of, after.tiles)):
                tb.stats["across the seam"] += 1
        return after

    async def discard(self, what):
        await self.tb.driver.command(KeeperOp.DISCARD)
        self.check_box(self.pos, f"discard after {what}")

    async def read_back(self, tiles=None, box=None, ring=2):
        """Every square of the tiles' box (or ``box``) and ``ring`` rings around it, which must
        hold the game's tiles (or ``tiles``)."""
        drv = self.tb.driver
        tiles = self.pos.tiles if tiles is None else tiles
        x0, y0, x1, y1 = box or self.pos.bbox
        for y in range(y0 - ring, y1 + ring + 1):
            for x in range(x0 - ring, x1 + ring + 1):
                key = key_of(x, y)
                await drv.command(KeeperOp.READ, *self.to_array(key))
                want = tiles.get(key, 0)
                if unsigned(self.tb.dut.rdata) != want:
                    self.fail(f"read {self.to_array(key)} gave {unsigned(self.tb.dut.rdata)}, "
                              f"expected {want}")
        self.tb.stats["read backs"] += 1

    async def play(self, moves):
        tb, rng, drv = self.tb, self.rng, self.tb.driver
        await drv.command(KeeperOp.CLEAR)
        self.check_box(self.pos, "clear before a game")
        for x, y in tb.left:                     # the last game's tiles are gone
            await drv.command(KeeperOp.READ, x, y)
            if unsigned(tb.dut.rdata):
                self.fail(f"after CLEAR, ({x}, {y}) still holds {unsigned(tb.dut.rdata)}")
        self.offset = (rng.randrange(tb.size), rng.randrange(tb.size))
        played = 0
        while played < moves and self.pos.outcome is None:
            for _ in range(rng.randrange(3)):
                key, symbol = self.illegal_attempt(self.pos)
                await self.trial(key, symbol, "illegal attempt")
                await self.discard("an illegal attempt")
            legal = self.pos.legal_moves()
            for key, tile in rng.sample(legal, min(len(legal), rng.randrange(3))):
                await self.trial(key, tile_symbol(tile), "other move")
                await self.discard("another move")
            move = self.choose_move()
            if move is None:
                break
            key, tile = move
            text = f"{tile_symbol(tile)} at {xy_of(key)}"
            after = await self.trial(key, tile_symbol(tile), "move")
            if after is None:          # out of room: forget, as the player does, and end the game
                await self.discard("a move out of room")
                await self.forget(move)
                break
            await drv.command(KeeperOp.COMMIT)
            self.pos, played = after, played + 1
            self.record.append(text)
            self.check_box(self.pos, f"commit of {text}")
            if rng.random() < 0.1:
                await self.read_back()
        tb.stats["games"] += 1
        tb.left = {self.to_array(key) for key in self.pos.tiles}
        return max(played, 1)


    async def forget(self, move):
        """The player's steps for a move without room, checked against ``KeeperView``: FORGET
        the far side if the move lies next to a full side, try the move again, commit it if
        it fits; then the box, the cut sides and the squares must be the model's."""
        tb, drv = self.tb, self.tb.driver
        view = KeeperView(self.pos.variant, tb.size, tb.log_depth)
        for played in self.pos.moves:
            view.play(played)
        side = view.side_to_forget(move[0])
        if side is None:
            return
        view.play(move)
        await drv.command(KeeperOp.FORGET, side=side)
        tb.stats["forgotten"] += 1
        x, y = self.to_array(move[0])
        await drv.command(KeeperOp.TRY, x, y, Symbol.of(tile_symbol(move[1])))
        if drv.flags()["out_of_room"]:
            await self.discard_to(view, "a move still out of room")
        else:
            await drv.command(KeeperOp.COMMIT)
        what = f"after forgetting side {'NESW'[side]}"
        self.check_box(self.pos, what, view.box)
        if drv.cut() != view.cut:
            self.fail(f"{what}: cut sides {drv.cut()} != {view.cut}")
        await self.read_back(view.position.tiles, view.box, ring=1)
        for key in set(self.pos.tiles) - set(view.position.tiles):     # the forgotten tiles
            await drv.command(KeeperOp.READ, *self.to_array(key))
            if unsigned(tb.dut.rdata):
                self.fail(f"{what}: the forgotten square {xy_of(key)} still holds a tile")
        # A trial of a square within two of the cut side finds no room, before anything else.
        for key, tile in view.position.candidates():
            if view.near_cut(key):
                await drv.command(KeeperOp.TRY, *self.to_array(key),
                                  Symbol.of(tile_symbol(tile)))
                got = {name for name, on in drv.flags().items() if on}
                if got != {"out_of_room"}:
                    self.fail(f"{what}: {tile_symbol(tile)} at {xy_of(key)}: flags {got}")
                tb.stats["refused on the cut side"] += 1
                await self.discard_to(view, "a trial on the cut side")
                break

    async def discard_to(self, view, what):
        await self.tb.driver.command(KeeperOp.DISCARD)
        self.check_box(self.pos, f"discard after {what}", view.box)


class Bench:
    def __init__(self, dut):
        self.dut = dut
        self.size = self.width = self.height = int(os.environ["KEEPER_SIZE"])
        self.log_depth = int(os.environ["KEEPER_LOG"])
        self.variant = os.environ["KEEPER_VARIANT"]
        self.driver = KeeperDriver(dut, self.size)
        self.stats = collections.Counter()
        self.left = set()        # the squares of the last game's tiles


@cocotb.test()
async def random_games(dut):
    """Random games of the reference engine, flags and box compared after every trial."""
    tb = Bench(dut)
    played = await play_games(dut, tb, KeeperGame, int(os.environ.get("KEEPER_MOVES", "1500")),
                              int(os.environ.get("KEEPER_SEED", "1")))
    # A reset empties the box, and the RAM too: the last game's squares read back empty.
    await tb.driver.reset()
    assert tb.driver.bbox() is None
    for x, y in tb.left:
        await tb.driver.command(KeeperOp.READ, x, y)
        assert not unsigned(dut.rdata), f"after a reset, ({x}, {y}) holds {unsigned(dut.rdata)}"
    needed = ["occupied", "not_adjacent", "mismatch", "illegal", "loop_white", "loop_red",
              "across the seam", "read backs"]
    if variant_named(tb.variant).span_limit is None:       # an 8x8 game never fills 16×16
        needed += ["out_of_room", "forgotten", "refused on the cut side"]
    if tb.variant != "loop":
        needed += ["line_white", "line_red"]
    for name in needed:
        assert tb.stats[name], f"no {name} in {played} moves: the test covers too little"
