"""The move search gateware against its Python model, in cocotb on Verilator
(``sim/search_tb.py``): the same move on positions from real play."""

import os

import pytest

from fpgatrax.sim import runner
from fpgatrax.sim.search_harness import SearchHarness

# A small array and budget keep the simulation short; the window rule is exercised as games
# reach the array's edges.
CASES = [
    pytest.param(9, 9, 2, "standard", 120, id="standard-9x9-budget2"),
    pytest.param(10, 10, 3, "8x8", 60, id="8x8-10x10-budget3"),
    pytest.param(9, 9, 0, "loop", 30, id="loop-9x9-unbounded"),
]


@pytest.mark.parametrize("width,height,budget,variant,positions", CASES)
def test_search_matches_model(width, height, budget, variant, positions):
    count = int(os.environ.get("FPGATRAX_SEARCH_POSITIONS", positions))
    runner.run(SearchHarness(width, height, budget=budget, variant=variant),
               name="search_harness", test_module="fpgatrax.sim.search_tb",
               env={"SEARCH_WIDTH": str(width), "SEARCH_HEIGHT": str(height),
                    "SEARCH_BUDGET": str(budget), "SEARCH_VARIANT": variant,
                    "SEARCH_POSITIONS": str(count),
                    "SEARCH_SEED": os.environ.get("FPGATRAX_SEARCH_SEED", "1")})
