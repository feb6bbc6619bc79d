"""cocotb testbench of the whole player, through its two UART pins, bit by bit.

The testbench is the referee: it sends ``-W``/``-B`` and the opponent's moves as serial frames
on ``rx``, decodes the player's frames on ``tx``, and judges every answer with the reference
engine. Beyond legality it checks that every answer is the move the player's model chooses
(``PlayerModel`` over ``SearchModel``, or ``LanesModel`` with lanes, with the player's depth,
trial limit, array size and keeper), so the player's translation between notation and the
keeper's squares, its window, its search and the keeper's pass are all checked at once.

Parameters come from the simulator's environment (``tests/hw/test_player.py``): ``PLAYER_WIDTH``,
``PLAYER_HEIGHT``, ``PLAYER_DEPTH``, ``PLAYER_MAX_TRIALS``, ``PLAYER_VARIANT``,
``PLAYER_DIVISOR`` (clocks per bit), ``PLAYER_GAMES``, ``PLAYER_SEED``, ``PLAYER_LANES``
(default 1), ``PLAYER_KEEPER`` (the keeper's size, default 64) and ``PLAYER_FORGETTING`` (1,
the default, or 0 for a player that goes silent past the keeper's board) and
``PLAYER_EVERY_ATTACK`` (0, the default, or 1: arrays that label their tracks, a search that
judges every attack). Cycles per move are
logged, and written as JSON to the file ``PLAYER_REPORT`` names, if it is set, with the clocks
the model gives the board for each move (``host/bench/player.py`` reads it).
"""

import json
import os
import random
import statistics
from collections import Counter

import cocotb
from cocotb.clock import Clock
from cocotb.queue import Queue
from cocotb.triggers import ClockCycles, FallingEdge, SimTimeoutError, Timer, with_timeout

from fpgatrax.host.bots import make_bot
from fpgatrax.host.rules.notation import NotationError, format_move, parse_move
from fpgatrax.host.rules.position import IllegalMove, Position, xy_of
from fpgatrax.host.rules.record import moves_text
from fpgatrax.host.rules.variant import variant_named
from fpgatrax.hw.lanes_model import search_model
from fpgatrax.hw.player_model import PlayerModel, board_cycles, player_window
from fpgatrax.hw.search_model import CYCLES_PER_TRIAL

ENV = {k: os.environ[f"PLAYER_{k.upper()}"]
       for k in ("width", "height", "depth", "max_trials", "variant", "divisor", "games", "seed")}
WIDTH, HEIGHT = int(ENV["width"]), int(ENV["height"])
DEPTH, MAX_TRIALS = int(ENV["depth"]), int(ENV["max_trials"]) or None
VARIANT = ENV["variant"]
LANES = int(os.environ.get("PLAYER_LANES", "1"))
KEEPER = int(os.environ.get("PLAYER_KEEPER", "64"))
FORGETTING = os.environ.get("PLAYER_FORGETTING", "1") == "1"
EVERY_ATTACK = os.environ.get("PLAYER_EVERY_ATTACK", "0") == "1"
PERIOD = 10                                   # ns per clock
BIT = int(ENV["divisor"]) * PERIOD            # ns per bit
ANSWER_TIMEOUT = 20_000_000 * PERIOD          # far more than any search at these trial limits


def model_of_player():
    """The player's move, in Python."""
    search = search_model(LANES, max_trials=MAX_TRIALS, window=(WIDTH, HEIGHT), depth=DEPTH,
                          every_attack=EVERY_ATTACK)
    return PlayerModel(search, (WIDTH, HEIGHT), keeper_size=KEEPER, forgetting=FORGETTING)


class Link:
    """The referee's end of the serial line."""

    def __init__(self, dut):
        self.dut = dut
        self.received = Queue()
        dut.rx.value = 1
        cocotb.start_soon(self._receive())

    async def _receive(self):
        dut = self.dut
        while True:
            await FallingEdge(dut.tx)
            await Timer(BIT + BIT // 2, "ns")
            byte = 0
            for i in range(8):
                byte |= int(dut.tx.value) << i
                await Timer(BIT, "ns")
            assert int(dut.tx.value) == 1, "the player sent a frame without a stop bit"
            self.received.put_nowait(byte)

    async def send(self, data):
        for byte in data:
            bits = [0] + [byte >> i & 1 for i in range(8)] + [1]
            for bit in bits:
                self.dut.rx.value = bit
                await Timer(BIT, "ns")

    async def line(self, timeout=ANSWER_TIMEOUT):
        """The next line the player sends (without its LF); a CR in it is an error."""
        text = bytearray()
        while True:
            byte = await with_timeout(self.received.get(), timeout, "ns")
            if byte == 0x0A:
                return text.decode("ascii")
            text.append(byte)

    async def silent(self, clocks):
        """Nothing arrives for ``clocks`` clocks."""
        await ClockCycles(self.dut.clk, clocks)
        assert self.received.empty(), f"unexpected bytes {self.received._queue!r}"


async def start(dut):
    cocotb.start_soon(Clock(dut.clk, PERIOD, unit="ns").start())
    link = Link(dut)
    dut.rst.value = 1
    await ClockCycles(dut.clk, 3)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 3)
    return link


def fail(message, position):
    raise AssertionError(f"{message}\nrecord: {' '.join(moves_text(position))}")


async def expect_answer(dut, link, position, model, cycles, reasons=None):
    """Read the player's move, judge it and compare it with the model's choice, and the
    ``out_of_room`` light with the model's keeper; play it, adding the model's reason for it
    to ``reasons`` (if given). Return False, after checking that the player went silent, when
    the model has no move it may play either."""
    choice = model.choose(position)
    if reasons is not None:
        reasons[choice.reason] += 1
    if choice.move is None:
        await link.silent(2_000_000)
        assert int(dut.out_of_room.value) == 1 and int(dut.game_over.value) == 1
        return False
    try:
        text = await link.line()
    except SimTimeoutError:
        status = {k: int(getattr(dut, k).value)
                  for k in ("thinking", "bad_input", "out_of_room", "game_over")}
        fail(f"no answer from the player (status {status})", position)
    try:
        move = parse_move(position, text)
        position.check(move)
    except (NotationError, IllegalMove) as err:
        fail(f"the player answered {text!r}: {err}", position)
    if choice.move != move:
        fail(f"the player answered {text}, the model chooses "
             f"{format_move(position, choice.move)} ({choice.reason})", position)
    view = model.view(position)
    if int(dut.out_of_room.value) != bool(view.cut or view.blind):
        fail(f"out_of_room is {int(dut.out_of_room.value)}; the model's keeper has cut sides "
             f"{sorted(view.cut)} and took {view.blind} moves on trust", position)
    cycles.append((int(dut.move_cycles.value),
                   board_cycles(choice, (WIDTH, HEIGHT), CYCLES_PER_TRIAL)))
    position.play(move)
    return True


async def play_game(dut, link, me, opponent, rng, cycles):
    """One game: the player has colour ``me``; the testbench plays ``opponent`` (a bot)."""
    position, model = Position(VARIANT), model_of_player()
    await link.send(b"-W\n" if me == 0 else b"-B\n")
    while position.outcome is None:
        if position.to_move == me:
            if not await expect_answer(dut, link, position, model, cycles):
                return position, "out of room"
        else:
            legal = position.legal_moves()
            if not legal:
                break
            move = opponent.choose(position)
            text = format_move(position, move)
            position.play(move)
            await link.send(text.encode() + (b"\r\n" if rng.random() < 0.3 else b"\n"))
    await link.silent(2000)                    # nothing after the end of a game
    assert int(dut.game_over.value) == (position.outcome is not None and
                                        position.outcome.winner is not None)
    assert int(dut.bad_input.value) == 0
    o = position.outcome
    return position, ("draw" if o is None or o.winner is None else
                      "won" if o.winner == me else "lost")


@cocotb.test()
async def games_against_bots(dut):
    """Full games, both colours, against ``random`` and the win-taking ``greedy``."""
    link = await start(dut)
    rng = random.Random(int(ENV["seed"]))
    cycles, results = [], []
    await link.send(b"-T\n")
    assert await link.line(timeout=100_000 * PERIOD) == "FT"
    for game in range(int(ENV["games"])):
        me = game & 1
        bot = make_bot(["random", "greedy"][game // 2 % 2], seed=rng.randrange(1 << 30))
        position, result = await play_game(dut, link, me, bot, rng, cycles)
        results.append(result)
    measured = [c for c, _ in cycles]
    dut._log.info(f"games: {results}; cycles per move: median {statistics.median(measured):.0f}, "
                  f"max {max(measured)} over {len(cycles)} moves")
    if os.environ.get("PLAYER_REPORT"):
        with open(os.environ["PLAYER_REPORT"], "w") as f:
            json.dump({"results": results, "cycles": measured,
                       "model_cycles": [bound for _, bound in cycles]}, f)


@cocotb.test()
async def bad_input_is_survived(dut):
    """Garbage, truncated and overlong lines, an illegal move and -W/-B mid-game."""
    link = await start(dut)
    rng = random.Random(int(ENV["seed"]) + 1)
    cycles = []
    await link.send(bytes(rng.randrange(256) for _ in range(40)) + b"\n")
    await link.send(b"-B\n")                       # a new game resets whatever came before
    position, model = Position(VARIANT), model_of_player()
    bot = make_bot("random", seed=rng.randrange(1 << 30))
    for ply in range(12):
        if position.outcome is not None:
            break
        if position.to_move == 1:
            await expect_answer(dut, link, position, model, cycles)
            continue
        # Before the real move: a line of noise, an overlong line, a truncated move line
        # (joined by the next LF into garbage), and an illegal move; none may be answered.
        await link.send(b"B1\n" + b"A1234567890/\n" + b"\r\n\n")
        if position.tiles:                                    # an occupied square
            illegal = format_move(position, next(iter(position.tiles.items())))
        else:
            illegal = "A1/"                                   # a first move must be @0
        await link.send(illegal.encode() + b"\n")
        await link.silent(20 * 10 * int(ENV["divisor"]))
        assert int(dut.bad_input.value) == 1
        move = bot.choose(position)
        text = format_move(position, move)
        position.play(move)
        await link.send(text.encode() + b"\n")
        if ply == 6:
            break
    # -W in the middle of a game: a new game, the player moves first on an empty board.
    await link.send(b"-W\n")
    position, model = Position(VARIANT), model_of_player()
    await expect_answer(dut, link, position, model, cycles)
    assert int(dut.bad_input.value) == 0


def gives_a_win(position):
    """Whether the side to move has a move that wins at once."""
    mover = position.to_move
    for move in position.legal_moves():
        outcome = position.play(move)
        position.undo()
        if outcome is not None and outcome.winner == mover:
            return True
    return False


def far_from_window(position, move):
    """Columns between ``move`` and the window the player searched for its last move (the
    window is re-centred on the opponent's move: this one lies that far outside the old)."""
    player_move = position.moves[-1]
    position.undo()
    (x0, _, x1, _), _ = player_window(position, (WIDTH, HEIGHT))
    position.push(player_move)
    x = xy_of(move[0])[0]
    return max(x0 - x, x - x1, 0)


@cocotb.test()
async def wide_games_are_played_on(dut):
    """Games that outgrow the array three times over, and then the keeper's board, are played
    on, move for move with the model, whose keeper forgets and takes moves on trust as the
    player's must (``out_of_room`` lit from the first such move); without forgetting, the
    player must fall silent with ``out_of_room`` lit once the game outgrows the keeper's board,
    and the game ends there. With forgetting, the player must have answered with the edge move
    (``hw/player_model.py``) at some turn. The testbench widens the
    tiles at both ends in turn, so that its moves land at least an array's width outside the
    window the player last searched, with moves that end nothing and leave the player no win at
    once, starting a new game if the player wins first (or, when no such move is left, with
    whatever move ends it, which may be a loop or line anywhere), until a game spans a quarter
    of the keeper's board more than it holds. Not run in the 8x8 variant, which cannot widen,
    nor when the keeper cannot hold three arrays' width."""
    if variant_named(VARIANT).span_limit is not None or 3 * WIDTH > KEEPER - 2:
        return      # the 8x8 variant cannot widen; a keeper too small to hold three arrays
    link = await start(dut)
    rng = random.Random(int(ENV["seed"]) + 2)
    cycles, widest, far, forgot, trusted, reasons = [], 0, 0, 0, 0, Counter()
    goal = KEEPER - 2 + KEEPER // 4 + 2
    for _ in range(10):
        await link.send(b"-B\n")
        position, model = Position(VARIANT), model_of_player()
        while position.outcome is None:
            if position.to_move == 1:
                answered = await expect_answer(dut, link, position, model, cycles, reasons)
                if not answered or position.size()[0] >= goal:
                    break
                continue
            x0, _, x1, _ = position.bbox if position.tiles else (0, 0, 0, 0)
            east = len(position.moves) // 2 % 2 == 0
            quiet = []
            for move in position.legal_moves():
                x = xy_of(move[0])[0]
                reach = x - x1 if east else x0 - x
                if position.play(move) is None:
                    quiet.append((not gives_a_win(position), reach, rng.random(), move))
                position.undo()
            move = max(quiet)[-1] if quiet else position.legal_moves()[0]
            if len(position.moves) > 1 and far_from_window(position, move) >= WIDTH:
                far += 1
            text = format_move(position, move)
            position.play(move)
            widest = max(widest, position.size()[0])
            await link.send(text.encode() + b"\n")
            if not FORGETTING and max(position.size()) > KEEPER - 2:
                await expect_answer(dut, link, position, model, cycles)    # silent
                break
        view = model.view(position)
        forgot, trusted = forgot + len(view.cut), trusted + view.blind
        if not FORGETTING and view.full and widest >= 3 * WIDTH and far >= 5:
            dut._log.info(f"widest {widest} columns; {far} moves far outside the window; "
                          "silent once the keeper's board was outgrown")
            return
        if widest >= goal and far >= 5 and forgot and trusted and reasons["edge"]:
            dut._log.info(f"widest {widest} columns; {far} moves an array's width outside the "
                          f"player's last window; sides forgotten {forgot}, moves taken on "
                          f"trust {trusted}; answers by reason {dict(reasons)}")
            return
    raise AssertionError(f"no game outgrew the keeper by a quarter (widest {widest} columns, "
                         f"{far} moves far outside the window, sides forgotten {forgot}, moves "
                         f"taken on trust {trusted}, answers by reason {dict(reasons)})")
