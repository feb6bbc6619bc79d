"""cocotb testbench of the tile array: random games of the reference engine, move by move.

The engine (``fpgatrax.host.rules.position``) is the judge. Every turn the testbench tries the
move in the array and compares every cell, the bounding box, the border flag and every result
flag with the engine; it also tries engine-illegal moves (occupied, not adjacent, colours that
do not match, three edges of one colour) and checks that the array flags them and that
discarding the trial restores the committed position; it plays replies at the deeper trial
levels, nested as the search nests them (a reply, a reply to that, … up to the array's last
level); it reloads positions through WRITE, reads cells back, and shifts the board whenever the game
touches the array's border (and sometimes at random), mirroring the offset. Move choice mixes
random moves, moves that end the game (for either colour) and moves that stretch the tiles
towards a line, so that loops and lines of both colours actually occur.

A mismatch raises with the game record that reproduces it (notation moves, via
``format_move``, with the shifts as comments) and the seed. Parameters come from the
environment of the simulator process (set by ``tests/hw/test_array.py``): ``ARRAY_WIDTH``,
``ARRAY_HEIGHT``, ``ARRAY_LEVELS``, ``ARRAY_MOVES`` (how many moves to play in all),
``ARRAY_SEED``, and ``ARRAY_LABELS`` (1: the array labels tracks, and TRY_THREAT reports
every attack in it).
"""

import collections
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge, with_timeout

from fpgatrax.host.pictures.text import render_text
from fpgatrax.host.rules.notation import format_move
from fpgatrax.host.rules.position import (
    SYMBOL_TILES,
    IllegalMove,
    Position,
    key_of,
    tile_symbol,
    xy_of,
)
from fpgatrax.hw.array_port import (
    Flags,
    Op,
    attack_layout,
    bounding_box_layout,
    command_layout,
)
from fpgatrax.hw.tiles import Direction, Symbol

WHITE, RED = 0, 1
STEP = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}
REASON_FLAG = {"occupied": "occupied", "not next to": "not_adjacent",
               "do not match": "mismatch", "first move": "mismatch", "three edges": "illegal"}


def walk_track(tiles, square, colour, seen):
    """The ends (last tile, side it leaves by) of the ``colour`` track through ``square`` on
    ``tiles`` ({(x, y): mask}), or None if it is closed; the tiles it passes go into ``seen``."""
    ends = []
    mask = tiles[square] ^ (0xF if colour else 0)
    for start in (d for d in range(4) if mask >> d & 1):
        here, d = square, start
        while True:
            seen.add(here)
            nxt = (here[0] + STEP[d][0], here[1] + STEP[d][1])
            if nxt not in tiles:
                ends.append((here, d))
                break
            if nxt == square:
                return None
            edges = (tiles[nxt] ^ (0xF if colour else 0)) & ~(1 << ((d + 2) & 3))
            d = edges.bit_length() - 1
            here = nxt
    return ends


def track_results(tiles, line_span=8):
    """{(colour, "loop" | "line")} of the tracks on ``tiles`` ({(x, y): mask}): an independent
    walk along every track, for the flags the engine's Outcome does not report separately; a
    line spans at least ``line_span`` columns or rows (Mini Trax's: 3)."""
    if not tiles:
        return set()
    xs = [x for x, _ in tiles]
    ys = [y for _, y in tiles]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    found = set()
    for colour in (WHITE, RED):
        seen = set()
        for square in tiles:
            if square in seen:
                continue
            ends = walk_track(tiles, square, colour, seen)
            if ends is None:
                found.add((colour, "loop"))
                continue
            sides = set()
            for (x, y), d in ends:
                if (d, x, y) in ((3, x0, y), (1, x1, y), (0, x, y0), (2, x, y1)):
                    sides.add(d)
            if ({1, 3} <= sides and x1 - x0 + 1 >= line_span) or \
                    ({0, 2} <= sides and y1 - y0 + 1 >= line_span):
                found.add((colour, "line"))
    return found


def expected_flags(tiles, line_span=8):
    wins = track_results(tiles, line_span)
    return {"loop_white": (WHITE, "loop") in wins, "loop_red": (RED, "loop") in wins,
            "line_white": (WHITE, "line") in wins, "line_red": (RED, "line") in wins}


def expected_threats(tiles, square, width, height):
    """TRY_THREAT's flags for the tile at ``square``, and each flagged colour's squares: its
    track of that colour ends in two orthogonally adjacent empty squares, both inside the
    ``width`` × ``height`` array. Returns ({flag: bool}, {colour: (x, y, east)}), where (x,
    y) is the upper or left square and ``east`` whether the other lies east of it."""
    flags, attacks = {}, {}
    for colour, name in ((WHITE, "threat_white"), (RED, "threat_red")):
        ends = walk_track(tiles, square, colour, set())
        flags[name] = False
        if ends is not None:
            a, b = sorted(((x + STEP[d][0], y + STEP[d][1]) for (x, y), d in ends),
                          key=lambda xy: (xy[1], xy[0]))
            flags[name] = (abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 and
                           all(0 <= x < width and 0 <= y < height for x, y in (a, b)))
            if flags[name]:
                attacks[colour] = (a[0], a[1], b[0] == a[0] + 1)
    return flags, attacks


def attacks_anywhere(tiles, width, height):
    """TRY_THREAT's flags for an array with labels: whether some track of each colour, any
    one, ends in two orthogonally adjacent empty squares, both inside the ``width`` ×
    ``height`` array, and whether two or more do (a double attack)."""
    flags = {}
    for colour, name in ((WHITE, "white"), (RED, "red")):
        seen, count = set(), 0
        for square in tiles:
            ends = None if square in seen else walk_track(tiles, square, colour, seen)
            if ends is None:
                continue
            (a, b) = ((x + STEP[d][0], y + STEP[d][1]) for (x, y), d in ends)
            count += (abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 and
                      all(0 <= x < width and 0 <= y < height for x, y in (a, b)))
        flags[f"threat_{name}"], flags[f"double_{name}"] = count >= 1, count >= 2
    return flags


def unsigned(handle):
    value = handle.value
    return value.to_unsigned() if hasattr(value, "to_unsigned") else int(value)


class Mismatch(AssertionError):
    pass


class ArrayDriver:
    """Commands through the array's ``port`` (its ``cmd`` stream); results decoded at the
    ``done`` clock. cocotb sees the port's members flattened: ``port__cmd__valid``,
    ``port__done``, ``port__flags`` and so on."""

    def __init__(self, dut, width, height, levels):
        self.dut, self.width, self.height = dut, width, height
        self.layout = command_layout(width, height, levels)
        self.bbox_layout = bounding_box_layout(width, height)
        self.cycles = collections.defaultdict(list)

    async def reset(self):
        self.dut.port__cmd__valid.value = 0
        self.dut.rst.value = 1
        for _ in range(3):
            await RisingEdge(self.dut.clk)
        self.dut.rst.value = 0

    async def command(self, op, x=0, y=0, symbol=Symbol.PLUS, tile=0, dir=Direction.N, level=0):
        dut = self.dut
        await FallingEdge(dut.clk)
        dut.port__cmd__payload.value = self.layout.const(
            {"op": op, "x": x, "y": y, "symbol": symbol, "tile": tile, "dir": dir,
             "level": level}).as_bits()
        dut.port__cmd__valid.value = 1
        await RisingEdge(dut.clk)
        dut.port__cmd__valid.value = 0
        await ReadOnly()
        if not dut.port__done.value:     # a DISCARD is done on the clock after it is accepted
            await with_timeout(RisingEdge(dut.port__done), 2_000_000, "ns")
            await ReadOnly()
        cycles = unsigned(dut.port__cycles)
        self.cycles[op.name].append(cycles)
        return cycles

    async def settle(self):
        """Wait until the tiles and the bounding box describe the last command (DISCARD is done
        before they do)."""
        while not self.dut.port__settled.value:
            await RisingEdge(self.dut.clk)
            await ReadOnly()

    def flags(self):
        value = unsigned(self.dut.port__flags)
        return {name: bool(value >> field.offset & 1) for name, field in Flags}

    def board(self):
        value = unsigned(self.dut.board)
        tiles = {}
        for i in range(self.width * self.height):
            tile = value >> (4 * i) & 0xF
            if tile:
                tiles[(i % self.width, i // self.width)] = tile
        return tiles

    def attacks(self):
        """The ``attacks`` result: {colour: (x, y, east)} for both colours."""
        layout = attack_layout(self.width, self.height)
        value = unsigned(self.dut.port__attacks)
        found = {}
        for colour in (WHITE, RED):
            bits = value >> (colour * layout.size)
            x, y, east = (bits >> layout[name].offset & ((1 << layout[name].width) - 1)
                          for name in ("x", "y", "east"))
            found[colour] = (x, y, bool(east))
        return found

    def bbox(self):
        value = unsigned(self.dut.port__bbox)
        fields = {name: value >> f.offset & ((1 << f.width) - 1)
                  for name, f in self.bbox_layout}
        if fields["empty"]:
            return None
        return fields["min_x"], fields["min_y"], fields["max_x"], fields["max_y"]


class Game:
    """One engine game mirrored in the array at an offset, with its record for reports."""

    def __init__(self, tb, seed):
        self.tb, self.seed = tb, seed
        self.rng = random.Random(seed)
        self.pos = Position("standard")
        self.offset = (0, 0)
        self.record = []

    # -- coordinates ----------------------------------------------------------------------

    def to_array(self, key):
        x, y = xy_of(key)
        return x + self.offset[0], y + self.offset[1]

    def in_array(self, key):
        x, y = self.to_array(key)
        return 0 <= x < self.tb.width and 0 <= y < self.tb.height

    def array_tiles(self, pos):
        return {self.to_array(k): t for k, t in pos.tiles.items()}

    # -- checks ---------------------------------------------------------------------------

    def fail(self, what, pos=None):
        pos = pos or self.pos
        raise Mismatch(
            f"{what}\nseed {self.seed}, array {self.tb.width}x{self.tb.height}, offset "
            f"{self.offset}\ngame record that reproduces it:\n" + "\n".join(self.record) +
            "\nexpected position:\n" + render_text(pos))

    def check_board(self, pos, what):
        drv = self.tb.driver
        got, want = drv.board(), self.array_tiles(pos)
        if got != want:
            diff = sorted(set(got.items()) ^ set(want.items()))
            self.fail(f"{what}: board differs at {diff} (array, expected)", pos)
        if pos.bbox is None:
            want_box = None
        else:
            x0, y0, x1, y1 = pos.bbox
            want_box = (x0 + self.offset[0], y0 + self.offset[1],
                        x1 + self.offset[0], y1 + self.offset[1])
        if drv.bbox() != want_box:
            self.fail(f"{what}: bounding box {drv.bbox()} != {want_box}", pos)
        border = want_box is not None and (
            want_box[0] == 0 or want_box[1] == 0 or want_box[2] == self.tb.width - 1 or
            want_box[3] == self.tb.height - 1)
        if bool(unsigned(self.tb.dut.port__border)) != border:
            self.fail(f"{what}: border flag {unsigned(self.tb.dut.port__border)} != {border}", pos)

    def check_flags(self, want, what, pos=None):
        got = self.tb.driver.flags()
        full = {name: False for name, _ in Flags}
        full.update(want)
        if got != full:
            diff = {k: (got[k], full[k]) for k in full if got[k] != full[k]}
            self.fail(f"{what}: flags differ (array, expected): {diff}", pos)

    # -- operations -----------------------------------------------------------------------

    async def try_move(self, key, symbol, level, pos, what):
        """TRY ``symbol`` at ``key`` on top of ``pos`` (whose tiles the array holds) at
        ``level``; check flags and board against the engine. Returns the position after the
        move, or None if it was illegal."""
        drv, tb = self.tb.driver, self.tb
        x, y = self.to_array(key)
        after = pos.copy()
        try:
            move = (key, after.tile_for(key, symbol))
            after.play(move)
            reason = None
        except IllegalMove as e:
            reason = next(flag for text, flag in REASON_FLAG.items() if text in str(e))
        coordinates = (x, y)
        separate = self.rng.random() < 0.15
        if separate:
            await drv.command(Op.PLACE, *coordinates, symbol=Symbol.of(symbol), level=level)
            placed = not any(drv.flags().values())
            if placed:
                await drv.command(Op.RESOLVE)
                if not drv.flags()["illegal"]:
                    await drv.command(Op.DETECT)
        threats = not separate and self.rng.random() < 0.5
        if not separate:
            await drv.command(Op.TRY_THREAT if threats else Op.TRY, *coordinates,
                              symbol=Symbol.of(symbol), level=level)
        label = f"{what} {symbol} at array ({x}, {y}) level {level}"
        if reason is not None:
            self.check_flags({reason: True}, label, pos)
            tb.stats[f"illegal {reason}"] += 1
            return None
        flags = expected_flags(self.array_tiles(after))
        if threats and tb.labels:
            found = attacks_anywhere(self.array_tiles(after), tb.width, tb.height)
            placed, _ = expected_threats(self.array_tiles(after), (x, y), tb.width, tb.height)
            for name, value in found.items():
                tb.stats[name] += value
                if name.startswith("threat"):
                    tb.stats["attacks off the placed tile's tracks"] += (value and
                                                                         not placed[name])
            self.check_flags({**flags, **found}, label, after)
        elif threats:
            found, attacks = expected_threats(self.array_tiles(after), (x, y), tb.width,
                                              tb.height)
            for name, value in found.items():
                tb.stats[name] += value
            self.check_flags({**flags, **found}, label, after)
            got = drv.attacks()
            for colour, where in attacks.items():
                if got[colour] != where:
                    self.fail(f"{label}: attack of colour {colour} at {got[colour]} in the "
                              f"array, {where} expected", after)
        else:
            self.check_flags(flags, label, after)
        self.check_board(after, label)
        self.tally(after, flags)
        return after

    def tally(self, after, flags):
        stats = self.tb.stats
        for name, value in flags.items():
            stats[name] += value
        if (flags["loop_white"] or flags["line_white"]) and (flags["loop_red"] or
                                                             flags["line_red"]):
            stats["both colours"] += 1
        if after.outcome is not None and after.outcome.winner != (len(after.moves) - 1) & 1:
            stats["win for the opponent"] += 1
        key = after.moves[-1][0]
        x, y = self.to_array(key)
        if x in (0, self.tb.width - 1) or y in (0, self.tb.height - 1):
            stats["moves on the border"] += 1

    async def discard(self, level, pos, what):
        await self.tb.driver.command(Op.DISCARD, level=level)
        await self.tb.driver.settle()
        self.check_board(pos, f"{what}: discard level {level}")

    async def shift(self, direction):
        dx, dy = STEP[direction.value]
        await self.tb.driver.command(Op.SHIFT, dir=direction)
        self.offset = (self.offset[0] + dx, self.offset[1] + dy)
        self.record.append(f"# shift {direction.name}")
        self.tb.stats["shifts"] += 1
        self.check_board(self.pos, f"shift {direction.name}")

    async def reload(self):
        """Load the committed position again through CLEAR and WRITE."""
        drv = self.tb.driver
        await drv.command(Op.CLEAR)
        self.check_board(Position("standard"), "clear")
        for (x, y), tile in self.array_tiles(self.pos).items():
            await drv.command(Op.WRITE, x, y, tile=tile)
        self.check_board(self.pos, "reload through WRITE")
        self.tb.stats["reloads"] += 1

    async def read_back(self):
        drv = self.tb.driver
        x, y = self.rng.randrange(self.tb.width), self.rng.randrange(self.tb.height)
        await drv.command(Op.READ, x, y)
        want = self.array_tiles(self.pos).get((x, y), 0)
        if unsigned(self.tb.dut.port__rdata) != want:
            self.fail(f"read ({x}, {y}) gave {unsigned(self.tb.dut.port__rdata)}, expected {want}")

    # -- move choice ----------------------------------------------------------------------

    def illegal_attempt(self, pos):
        """(key, symbol) of a move the engine refuses, of a random kind."""
        rng = self.rng
        if not pos.tiles:
            return key_of(0, 0), "\\"
        kinds = []
        tiles = list(pos.tiles)
        kinds.append(lambda: (rng.choice(tiles), rng.choice("+/\\")))
        legal = set(pos.legal_moves())
        candidates = set(pos.candidates())
        three = [(k, tile_symbol(t)) for k, t in candidates
                 if (k, t) not in legal and self.in_array(k)]
        if three:
            # Rare in random play, so taken at once when there is one.
            if rng.random() < 0.5:
                return rng.choice(three)
            kinds.append(lambda: rng.choice(three))
        clash = [(k, s) for k in pos.frontier for s in "+/\\" if self.in_array(k) and
                 not any((k, t) in candidates for t in SYMBOL_TILES[s])]
        if clash:
            kinds.append(lambda: rng.choice(clash))
        x0, y0, x1, y1 = pos.bbox
        far = [key_of(x, y) for x in range(x0 - 3, x1 + 4) for y in range(y0 - 3, y1 + 4)
               if key_of(x, y) not in pos.tiles and key_of(x, y) not in pos.frontier and
               self.in_array(key_of(x, y))]
        if far:
            kinds.append(lambda: (rng.choice(far), rng.choice("+/\\")))
        return rng.choice(kinds)()

    def choose_move(self):
        """Mostly moves that keep the game going and stretch it (random games otherwise end
        in a small loop long before a line is possible); a line whenever one is on; sometimes
        any move that ends the game, for either colour."""
        rng, pos = self.rng, self.pos
        legal = [m for m in pos.legal_moves() if self.in_array(m[0])]
        if not legal:
            return None
        ending, lines = [], []
        for m in legal:
            pos.play(m)
            if pos.outcome is not None:
                ending.append(m)
                if any(how == "line" for _, how in track_results(self.array_tiles(pos))):
                    lines.append(m)
            pos.undo()
        if lines and rng.random() < 0.9:
            return rng.choice(lines)
        if ending and rng.random() < 0.05:
            return rng.choice(ending)
        quiet = [m for m in legal if m not in ending] or legal
        if pos.bbox is not None and rng.random() < 0.5:
            x0, y0, x1, y1 = pos.bbox
            stretch = [m for m in quiet if not (x0 <= xy_of(m[0])[0] <= x1 and
                                                y0 <= xy_of(m[0])[1] <= y1)]
            if stretch:
                return rng.choice(stretch)
        return rng.choice(quiet)

    def shift_choice(self):
        """A direction to shift in, or None: away from a touched border when there is room,
        sometimes at random."""
        drv, rng = self.tb.driver, self.rng
        box = drv.bbox()
        if box is None:
            return None
        x0, y0, x1, y1 = box
        room = {Direction.E: x1 < self.tb.width - 1, Direction.W: x0 > 0,
                Direction.S: y1 < self.tb.height - 1, Direction.N: y0 > 0}
        last_x, last_y = self.tb.width - 1, self.tb.height - 1
        away = [d for d, touching in ((Direction.E, x0 == 0), (Direction.W, x1 == last_x),
                                      (Direction.S, y0 == 0), (Direction.N, y1 == last_y))
                if touching and room[d]]
        if away and rng.random() < 0.7:
            return rng.choice(away)
        if rng.random() < 0.05:
            possible = [d for d, ok in room.items() if ok]
            return rng.choice(possible) if possible else None
        return None

    # -- a whole game ---------------------------------------------------------------------

    async def play(self, moves):
        tb, rng, drv = self.tb, self.rng, self.tb.driver
        await drv.command(Op.CLEAR)
        self.check_board(self.pos, "clear before a game")
        self.offset = (rng.randrange(tb.width), rng.randrange(tb.height))
        played = 0
        while played < moves and self.pos.outcome is None:
            direction = self.shift_choice()
            if direction is not None:
                await self.shift(direction)
            if rng.random() < 0.25:
                key, symbol = self.illegal_attempt(self.pos)
                await self.try_move(key, symbol, 1, self.pos, "illegal attempt")
                await self.discard(1, self.pos, "after an illegal attempt")
            move = self.choose_move()
            if move is None:
                tb.stats["games that outgrew the array"] += 1
                break
            text = format_move(self.pos, move)
            after = await self.try_move(move[0], tile_symbol(move[1]), 1, self.pos, text)
            if after is None:
                self.fail(f"{text}: the array refused a legal move")
            if after.outcome is None and rng.random() < 0.3:
                await self.reply(after, text)
            if rng.random() < 0.1:
                await self.discard(1, self.pos, text)
                await self.try_move(move[0], tile_symbol(move[1]), 1, self.pos, text)
            await drv.command(Op.COMMIT)
            self.pos.play(move)
            self.record.append(text)
            self.check_board(self.pos, f"commit {text}")
            played += 1
            if rng.random() < 0.03:
                await self.reload()
            if rng.random() < 0.1:
                await self.read_back()
        return played

    async def reply(self, after, text, level=2):
        """A reply (legal or not) at ``level`` on top of the tried moves, and often a reply to
        it one level deeper, up to the array's last level; each level is discarded after."""
        rng = self.rng
        if rng.random() < 0.3:
            key, symbol = self.illegal_attempt(after)
        else:
            options = [m for m in after.candidates() if self.in_array(m[0])]
            if not options:
                return
            key, tile = rng.choice(options)
            symbol = tile_symbol(tile)
        deeper = await self.try_move(key, symbol, level, after, f"reply to {text}:")
        self.tb.stats[f"replies at level {level}"] += 1
        if (deeper is not None and deeper.outcome is None and level < self.tb.levels
                and rng.random() < 0.6):
            await self.reply(deeper, text, level + 1)
        await self.discard(level, after, f"reply to {text}")


class Bench:
    def __init__(self, dut):
        self.dut = dut
        self.width = int(os.environ["ARRAY_WIDTH"])
        self.height = int(os.environ["ARRAY_HEIGHT"])
        self.levels = int(os.environ["ARRAY_LEVELS"])
        self.labels = os.environ.get("ARRAY_LABELS") == "1"
        self.driver = ArrayDriver(dut, self.width, self.height, self.levels)
        self.stats = collections.Counter()


async def play_games(dut, tb, game_class, moves, seed):
    """Start the clock (10 ns) and reset, then play games of ``game_class(tb, seed)`` until
    ``moves`` moves are played; log what happened (``tb.stats``) and the cycles of each
    command (``tb.driver.cycles``). Returns the moves played."""
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    await tb.driver.reset()
    played, games = 0, 0
    while played < moves:
        played += await game_class(tb, seed * 100_003 + games).play(moves - played)
        games += 1
    summary = ", ".join(f"{k}: {v}" for k, v in sorted(tb.stats.items()))
    dut._log.info(f"{played} moves in {games} games; {summary}")
    for op, values in sorted(tb.driver.cycles.items()):
        values = sorted(values)
        dut._log.info(f"cycles {op}: median {values[len(values) // 2]}, max {values[-1]}, "
                      f"n {len(values)}")
    return played


@cocotb.test()
async def random_games(dut):
    """Random games of the reference engine, every cell and flag compared after every move."""
    tb = Bench(dut)
    played = await play_games(dut, tb, Game, int(os.environ.get("ARRAY_MOVES", "2000")),
                              int(os.environ.get("ARRAY_SEED", "1")))
    for needed in ("loop_white", "loop_red", "line_white", "line_red", "both colours",
                   "threat_white", "threat_red",
                   "win for the opponent", "illegal illegal", "illegal occupied",
                   "illegal not_adjacent", "illegal mismatch", "shifts", "moves on the border",
                   "reloads", *(f"replies at level {k}" for k in range(2, tb.levels + 1)),
                   *(["attacks off the placed tile's tracks", "double_white", "double_red"]
                     if tb.labels else [])):
        assert tb.stats[needed], f"no {needed} in {played} moves: the test covers too little"
