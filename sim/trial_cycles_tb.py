"""cocotb module of ``python -m fpgatrax.host.bench.movetime --measure``: cycles per trial of the
gateware search, which turns the model's trial counts into time on a board.

It reuses the search testbench's harness and positions (``sim/search_tb.py``, parameters from
the same ``SEARCH_*`` environment) and prints, over the positions, the median and the highest
average cycles per trial of one search, and the most cycles any search took.
"""

import statistics

import cocotb
from cocotb.clock import Clock

from fpgatrax.hw.search_model import window_of
from fpgatrax.sim.search_tb import HEIGHT, PARAMS, WIDTH, Harness, positions_from_play


@cocotb.test()
async def cycles_per_trial(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    harness = Harness(dut)
    await harness.reset()
    ratios, cycles, trials = [], [], []
    for position in positions_from_play(int(PARAMS["positions"]), int(PARAMS["seed"]),
                                        PARAMS["variant"]):
        if not position.tiles:
            continue
        got = await harness.search(position, window_of(position, (WIDTH, HEIGHT)), 10**12)
        cycles.append(got["cycles"])
        trials.append(got["trials"])
        ratios.append(got["cycles"] / max(1, got["trials"]))
    worst = max(range(len(cycles)), key=cycles.__getitem__)
    print(f"{len(ratios)} searches on a {WIDTH}x{HEIGHT} array: cycles per trial median "
          f"{statistics.median(ratios):.1f}, highest {max(ratios):.1f}; the longest search "
          f"{cycles[worst]} cycles for {trials[worst]} trials", flush=True)
