"""The simulated board as a referee or a serial tool sees it: the real Player gateware, built with
Verilator into the pty harness, spoken to through its pseudo-terminal.

The games use the 8x8 variant, whose games always fit the simulation profile's array, so a whole
game can be played to its end; the reference engine judges every answer. The first run builds
the board (a minute or two); later runs reuse the build under ``build/board/``.
"""

import signal
import subprocess
import sys
import time

import pytest
import serial

from fpgatrax.host.match.players import PlayerOptions, open_player
from fpgatrax.host.match.referee import play_game
from fpgatrax.host.rules.position import RED, WHITE
from fpgatrax.sim.board import BoardProcess, SimulatedBoard, board_parameters, build_board

pytestmark = [pytest.mark.verilator, pytest.mark.xdist_group("sim_board")]

VARIANT = "8x8"
# A smaller trial limit than the profile's: these tests are about the board, not its play.
MAX_TRIALS = 1500
# The serial frame: start bit, 8 data bits, stop bit.
FRAME_BITS = 10


@pytest.fixture(scope="module")
def program():
    return build_board(board_parameters(variant=VARIANT, overrides={"max_trials": MAX_TRIALS}))


def test_team_code_through_the_pty(program):
    board = BoardProcess(program)
    try:
        with serial.Serial(board.pty, 19200, timeout=10) as port:
            port.write(b"-T\n")
            assert port.readline() == b"FT\n"
            # Bytes that are no protocol line light bad_input and get no answer.
            port.write(b"hello\n")
            port.timeout = 0.5
            assert port.readline() == b""
            assert "bad_input" in board.status()["leds"]
    finally:
        board.stop()


def _game(program, board_colour, **options):
    """Play the board against greedy with the board as ``board_colour``; return the result,
    the moves as (colour, text, timing) and the board's answer statistics."""
    board = SimulatedBoard(program, report=None)
    bot = open_player("greedy", PlayerOptions(variant=VARIANT, seed=2015))
    moves = []
    try:
        players = (board, bot) if board_colour == WHITE else (bot, board)
        result = play_game(*players, variant=VARIANT, handshake=True,
                           on_move=lambda position, colour, text, timing:
                           moves.append((colour, text, timing)), **options)
    finally:
        board.close()
        bot.close()
    return result, moves, board.stats


@pytest.mark.parametrize("board_colour", [WHITE, RED], ids=["board-white", "board-black"])
def test_whole_game_against_greedy(program, board_colour):
    result, moves, stats = _game(program, board_colour, time_limit=1.0)
    assert result.teams[board_colour] == "FT"
    assert not (result.how == "forfeit" and result.winner != board_colour), result.reason
    assert result.how in ("loop", "line", "draw", "forfeit")
    # Each answer's simulated time covers at least the line's and the answer's serial frames;
    # the player's own count (line decoded to answer encoded) lies within it.
    answered = ["-W"] + [text for _, text, _ in moves]
    board_moves = [(answered[index], text, timing)
                   for index, (colour, text, timing) in enumerate(moves) if colour == board_colour]
    assert len(stats.cycles) == 1 + len(board_moves)            # -T, then the moves
    assert stats.cycles[0] >= FRAME_BITS * program.divisor * len("-T\nFT\n")
    for (line, answer, timing), cycles, move_cycles in zip(board_moves, stats.cycles[1:],
                                                            stats.move_cycles[1:], strict=True):
        assert "simulated" in timing
        assert cycles >= FRAME_BITS * program.divisor * (len(line) + 1 + len(answer) + 1)
        assert 0 < move_cycles < cycles


def test_time_limit_is_judged_in_simulated_time(program):
    # A limit well above the first answer's simulated time but below its wall time is kept...
    limit = 0.01                        # 240,000 cycles at 24 MHz: seconds of simulation
    result, moves, stats = _game(program, WHITE, time_limit=limit, max_moves=1)
    if stats.wall <= limit:
        pytest.skip("the simulation answered within the limit in wall time too")
    assert result.how == "unfinished", result.reason
    assert len(moves) == 1
    # ... and a limit shorter than the serial frames of -W makes the board late.
    tiny = FRAME_BITS * program.divisor / program.clk_freq
    result, moves, stats = _game(program, WHITE, time_limit=tiny, max_moves=1)
    assert (result.how, result.forfeit, result.winner) == ("forfeit", "late", RED)
    assert moves == []


def test_simulator_ends_with_its_parent(program):
    code = ("import sys, time\n"
            "from fpgatrax.sim.board import BoardProcess, BoardProgram\n"
            f"board = BoardProcess(BoardProgram({str(program.path)!r}, {program.clk_freq}, "
            f"{program.divisor}))\n"
            "print(board.pid, flush=True)\n"
            "time.sleep(60)\n")
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        pid = int(parent.stdout.readline())
        assert _alive(pid)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        parent.stdout.close()
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid)


def _alive(pid):
    """Whether ``pid`` runs (a zombie waiting for its reaper counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False
