"""cocotb testbench of the move search: the gateware chooses what the Python model chooses.

Positions come from real play: games of the search model (with the gateware's depth, trial limit and
array size) against the ``random`` and ``greedy`` bots. For each position where the searcher is to
move, the testbench loads the tiles into the array, centred as the player centres them, starts
the search and compares the chosen move, the win flag and the trial count with
``SearchModel.choose``; a mismatch raises with the game record that reproduces it.

Parameters come from the simulator's environment (set by ``tests/hw/test_search.py``):
``SEARCH_WIDTH``, ``SEARCH_HEIGHT``, ``SEARCH_DEPTH``, ``SEARCH_MAX_TRIALS`` (0: none),
``SEARCH_VARIANT``, ``SEARCH_POSITIONS``, ``SEARCH_SEED``, ``SEARCH_EVASIONS`` (0 or 1,
default 1: the search with or without check evasions and their extension) and ``SEARCH_TSS``,
``SEARCH_TSS_TRIALS`` (the threat-space search's plies and trial limit, default 0: none) and
``SEARCH_LANES`` (default 1; with more, the model is ``LanesModel``) and
``SEARCH_EVERY_ATTACK`` (default 0; 1: the arrays label their tracks and the search judges
every attack) and ``SEARCH_TABLE`` (default 0; N: a table of 2**N leaf values). The figures
(cycles per search, per trial) are printed; with a table, some search must have saved trials
by it, and judging every attack, a double attack at a leaf must have decided some search (its
move or trials differ without).
"""

import os
import random
import statistics
from contextlib import contextmanager

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge, with_timeout

from fpgatrax.host.bots import make_bot
from fpgatrax.host.rules.position import Position, tile_symbol, xy_of
from fpgatrax.host.rules.record import moves_text
from fpgatrax.hw import search_model as one_search
from fpgatrax.hw.array_port import Op, command_layout
from fpgatrax.hw.lanes_model import search_model
from fpgatrax.hw.search import square_layout
from fpgatrax.hw.search_model import DEFAULT_EXTENSION, window_of
from fpgatrax.hw.tiles import Symbol

PARAMS = {name: os.environ[f"SEARCH_{name.upper()}"]
          for name in ("width", "height", "depth", "max_trials", "variant", "positions", "seed")}
WIDTH, HEIGHT, DEPTH = int(PARAMS["width"]), int(PARAMS["height"]), int(PARAMS["depth"])
MAX_TRIALS = int(PARAMS["max_trials"]) or None
EVASIONS = os.environ.get("SEARCH_EVASIONS", "1") == "1"
EXTENSION = DEFAULT_EXTENSION if EVASIONS else 0
TSS = int(os.environ.get("SEARCH_TSS", "0"))
TSS_TRIALS = int(os.environ.get("SEARCH_TSS_TRIALS", "0")) or None
LANES = int(os.environ.get("SEARCH_LANES", "1"))
EVERY_ATTACK = os.environ.get("SEARCH_EVERY_ATTACK", "0") == "1"
TABLE = int(os.environ.get("SEARCH_TABLE", "0"))
VETO = int(os.environ.get("SEARCH_VETO", "0"))
VETO_TRIALS = int(os.environ.get("SEARCH_VETO_TRIALS", "0")) or None


def model(table=TABLE):
    return search_model(LANES, max_trials=MAX_TRIALS, window=(WIDTH, HEIGHT), depth=DEPTH,
                        extension=EXTENSION, evasions=EVASIONS, tss=TSS, tss_trials=TSS_TRIALS,
                        every_attack=EVERY_ATTACK, table=table, veto=VETO,
                        veto_trials=VETO_TRIALS)


@contextmanager
def no_double_attacks():
    """The model as if a leaf never met a double attack (its count of attacks stops at one):
    the choices that differ are those a double attack decided."""
    counted = one_search.attacks_held
    one_search.attacks_held = lambda position, colour, window=None, most=2: counted(
        position, colour, window, 1)
    try:
        yield
    finally:
        one_search.attacks_held = counted


@contextmanager
def counted_refutations():
    """A list whose one count grows by each root move a veto of the model refutes meanwhile."""
    counts = [0]
    refuted = one_search.SearchModel._refuted

    def counting(self, position, move):
        proven = refuted(self, position, move)
        counts[0] += proven
        return proven
    one_search.SearchModel._refuted = counting
    try:
        yield counts
    finally:
        one_search.SearchModel._refuted = refuted


def unsigned(handle):
    return int(handle.value)


def positions_from_play(count, seed, variant):
    """Positions where the search model is to move, from its games against the random and
    greedy bots; with a veto, from its games against itself after four random moves, where
    both sides attack and the veto has moves to refute."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = Position(variant)
        searcher = model()
        bot = make_bot(rng.choice(["random", "greedy"]), seed=rng.randrange(1 << 30))
        me = rng.randrange(2)
        while position.outcome is None and len(found) < count:
            columns, rows = position.size()
            if columns > WIDTH or rows > HEIGHT:
                break
            searching = position.to_move == me or VETO
            if searching and not (VETO and len(position.moves) < 4):
                found.append(position.copy())
                choice = searcher.choose(position)
                if choice is None:
                    break
                move = choice.move
            else:
                legal = position.legal_moves()
                if not legal:
                    break
                move = rng.choice(legal) if VETO else bot.choose(position)
            position.play(move)
    return found


class Harness:
    def __init__(self, dut):
        self.dut = dut
        self.layout = command_layout(WIDTH, HEIGHT, DEPTH + 1 + EXTENSION)
        self.square = square_layout(WIDTH, HEIGHT)

    async def reset(self):
        dut = self.dut
        dut.load__cmd__valid.value = 0
        dut.start.value = 0
        dut.restart.value = 0
        dut.rst.value = 1
        for _ in range(3):
            await RisingEdge(dut.clk)
        dut.rst.value = 0

    async def load(self, op, x=0, y=0, tile=0):
        dut = self.dut
        await FallingEdge(dut.clk)
        dut.load__cmd__payload.value = self.layout.const(
            {"op": op, "x": x, "y": y, "tile": tile}).as_bits()
        dut.load__cmd__valid.value = 1
        # The arrays of several lanes take a command a clock after the last one's done.
        while not unsigned(dut.load__cmd__ready):
            await FallingEdge(dut.clk)
        await RisingEdge(dut.clk)
        dut.load__cmd__valid.value = 0
        await with_timeout(RisingEdge(dut.load__done), 100_000, "ns")

    async def search(self, position, window, timeout_ns):
        dut = self.dut
        await FallingEdge(dut.clk)
        dut.restart.value = 1
        await FallingEdge(dut.clk)
        dut.restart.value = 0
        await self.load(Op.CLEAR)
        for key, tile in position.tiles.items():
            x, y = xy_of(key)
            await self.load(Op.WRITE, x - window[0], y - window[1], tile)
        await FallingEdge(dut.clk)
        dut.colour.value = position.to_move
        dut.start.value = 1
        await FallingEdge(dut.clk)
        dut.start.value = 0
        await with_timeout(RisingEdge(dut.done), timeout_ns, "ns")
        await ReadOnly()
        move = self.square.from_bits(unsigned(dut.move))
        return {"found": bool(unsigned(dut.found)), "win": bool(unsigned(dut.win)),
                "move": (move.x, move.y, Symbol(move.symbol).value),
                "trials": unsigned(dut.trials), "cycles": unsigned(dut.cycles)}


@cocotb.test()
async def search_matches_model(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    harness = Harness(dut)
    await harness.reset()
    positions = positions_from_play(int(PARAMS["positions"]), int(PARAMS["seed"]),
                                    PARAMS["variant"])
    cycles, per_trial, wins, saved, decided, vetoed = [], [], 0, 0, 0, 0
    for index, position in enumerate(positions):
        window = window_of(position, (WIDTH, HEIGHT))
        with counted_refutations() as refutations:
            choice = model().choose(position)
        vetoed += refutations[0]
        if TABLE and choice is not None:
            saved += model(table=0).choose(position).trials > choice.trials
        if EVERY_ATTACK and choice is not None:
            with no_double_attacks():
                other = model().choose(position)
            decided += (other.move, other.trials) != (choice.move, choice.trials)
        want = {"found": choice is not None}
        if choice is not None:
            x, y = xy_of(choice.move[0])
            want.update(win=choice.reason == "win", trials=choice.trials,
                        move=(x - window[0], y - window[1],
                              "+/\\".index(tile_symbol(choice.move[1]))))
        # No trial takes 1,000 clocks: a search that does has lost its way.
        limit = 10 * (1000 * (choice.trials if choice else 1000) + 10_000)
        try:
            got = await harness.search(position, window, limit)
        except cocotb.triggers.SimTimeoutError:
            raise AssertionError(f"position {index}: no answer within {limit // 10} clocks "
                                 f"(the model's: {want})\nrecord: "
                                 f"{' '.join(moves_text(position))}") from None
        if any(got[k] != v for k, v in want.items()):
            record = " ".join(moves_text(position))
            raise AssertionError(
                f"position {index} ({PARAMS['variant']}, {WIDTH}x{HEIGHT}, depth {DEPTH}, "
                f"max_trials {MAX_TRIALS}, tss {TSS} to {TSS_TRIALS} trials, veto {VETO} to "
                f"{VETO_TRIALS}): "
                f"gateware {got}, model {want}\nrecord: {record}")
        cycles.append(got["cycles"])
        per_trial.append(got["cycles"] / max(1, got["trials"]))
        wins += got["win"]
    # With a table, the searches must have taken leaf values from it, or the test shows nothing.
    assert saved or not TABLE, "no search saved a trial by its table of leaf values"
    # Judging every attack, a double attack at a leaf must have decided some search.
    assert decided or not EVERY_ATTACK, "no search was decided by a double attack at a leaf"
    # With a veto, some must have refuted a root move (which changes the trials that follow).
    assert vetoed or not VETO, "no veto refuted a root move"
    dut._log.info(f"{len(positions)} positions agree ({wins} wins taken); cycles per search: "
                  f"median {statistics.median(cycles):.0f}, max {max(cycles)}; cycles per trial: "
                  f"median {statistics.median(per_trial):.1f}")
