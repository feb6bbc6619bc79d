"""The board keeper against the reference engine, in cocotb on Verilator (``sim/keeper_tb.py``).

A 16×16 torus, so that games cross its seams and run out of room within a test's moves; a log
of 4 tiles, so that forced play overflows it; the span limits of the 8x8 variant and Mini Trax.
"""

import pytest

from fpgatrax.hw.keeper import BoardKeeper
from fpgatrax.sim import runner

pytestmark = pytest.mark.verilator


@pytest.mark.parametrize(("variant", "log_depth"), [("standard", 256), ("standard", 4),
                                                     ("8x8", 256), ("mini", 256)],
                         ids=["standard", "short-log", "8x8", "mini"])
def test_random_games_against_the_engine(variant, log_depth):
    runner.run(BoardKeeper(16, variant, log_depth), name="board_keeper",
               test_module="fpgatrax.sim.keeper_tb",
               env={"KEEPER_SIZE": "16", "KEEPER_LOG": str(log_depth), "KEEPER_VARIANT": variant,
                    "KEEPER_MOVES": "1500", "KEEPER_SEED": "1"})
