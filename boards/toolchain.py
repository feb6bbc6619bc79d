"""The YoWASP synthesis and place-and-route tools from PyPI, and the figures read from their files.

Shared by the board builds (``boards/build.py``) and the size reports (``host/bench/``). YoWASP
Yosys stops printing after ABC, so figures are read from the JSON files the tools write, never
from their output.
"""

import json
import pathlib
import subprocess
import sys

__all__ = ["tool", "run_logged", "cell_counts", "achieved_fmax", "does_not_fit"]


def tool(name):
    """A YoWASP tool of the running Python's environment, whether or not it is on PATH."""
    return str(pathlib.Path(sys.executable).parent / name)


def cell_counts(stat_json, top="top"):
    """(LUT4s, flip-flops) of module ``top`` in a Yosys ``stat -json`` file, iCE40 or ECP5."""
    cells = json.loads(pathlib.Path(stat_json).read_text())["modules"]["\\" + top]
    cells = cells["num_cells_by_type"]
    luts = sum(n for t, n in cells.items() if t in ("SB_LUT4", "LUT4"))
    ffs = sum(n for t, n in cells.items() if t.startswith(("SB_DFF", "TRELLIS_FF")))
    return luts, ffs


def achieved_fmax(report_json):
    """The lowest Fmax, in MHz, over the clocks of a nextpnr ``--report`` file."""
    report = json.loads(pathlib.Path(report_json).read_text())
    return min(clock["achieved"] for clock in report["fmax"].values())


def does_not_fit(nextpnr_log):
    """Whether a failed nextpnr run (its log's text) ran out of logic cells."""
    return "Failed to expand region" in nextpnr_log or "Unable to place" in nextpnr_log


def run_logged(argv, cwd, log):
    """Run ``argv`` in ``cwd`` with its output in the file ``log`` there; raise if it fails."""
    with open(cwd / log, "w") as out:
        subprocess.run(argv, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, check=True)
