"""cocotb module of the cycles-per-trial benchmarks (``python -m fpgatrax.host.bench.movetime
--measure`` and ``python -m fpgatrax.host.bench.trials``): cycles per trial of the gateware
search, which turns the model's trial counts into time on a board.

It reuses the search testbench's harness and positions (``sim/search_tb.py``, parameters from
the same ``SEARCH_*`` environment) and prints, over the positions, the median and the highest
average cycles per trial of one search, and the most cycles any search took. With
``SEARCH_OUT`` set it also writes each search (the position's moves, its cycles and trials) to
that JSON file, for the benchmark to time the same positions in Python.
"""

import json
import os
import statistics

import cocotb
from cocotb.clock import Clock

from fpgatrax.hw.search_model import window_of
from fpgatrax.sim.search_tb import HEIGHT, MAX_TRIALS, PARAMS, WIDTH, Harness, positions_from_play


@cocotb.test()
async def cycles_per_trial(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    harness = Harness(dut)
    await harness.reset()
    searches = []
    for position in positions_from_play(int(PARAMS["positions"]), int(PARAMS["seed"]),
                                        PARAMS["variant"]):
        if not position.tiles:
            continue
        got = await harness.search(position, window_of(position, (WIDTH, HEIGHT)), 10**12)
        searches.append({"moves": position.moves, "cycles": got["cycles"],
                         "trials": got["trials"]})
    ratios = [search["cycles"] / max(1, search["trials"]) for search in searches]
    worst = max(searches, key=lambda search: search["cycles"])
    print(f"{len(ratios)} searches on a {WIDTH}x{HEIGHT} array"
          f"{f' of at most {MAX_TRIALS} trials' if MAX_TRIALS else ''}: cycles per trial median "
          f"{statistics.median(ratios):.1f}, highest {max(ratios):.1f}; the longest search "
          f"{worst['cycles']} cycles for {worst['trials']} trials", flush=True)
    if os.environ.get("SEARCH_OUT"):
        with open(os.environ["SEARCH_OUT"], "w") as out:
            json.dump({"searches": searches}, out)
