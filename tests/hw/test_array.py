"""The tile array against the reference engine, in cocotb on Verilator (``sim/array_tb.py``).

``make test`` plays 1,500 moves of seeded random games; ``make verify-array`` runs the large
campaign with other seeds (``FPGATRAX_ARRAY_MOVES`` and ``FPGATRAX_ARRAY_SEED``, which the make
target sets).
"""

import os

import pytest

from fpgatrax.hw.array import TileArray
from fpgatrax.sim import runner

pytestmark = pytest.mark.verilator

# Odd, unequal sides catch row/column mix-ups and parity slips; 13 columns and 11 rows leave
# room for lines (a span of 8) with the border within reach. Four trial levels, as the player's
# search nests them.
WIDTH, HEIGHT, LEVELS = 13, 11, 4


# One flag per cell following one colour per pass (the iCE40 boards), or both at once (ECP5).
@pytest.mark.parametrize("both_colours", [False, True], ids=["one-colour", "both-colours"])
def test_random_games_against_the_engine(both_colours):
    runner.run(TileArray(WIDTH, HEIGHT, LEVELS, both_colours), name="tile_array",
               test_module="fpgatrax.sim.array_tb",
               env={"ARRAY_WIDTH": str(WIDTH), "ARRAY_HEIGHT": str(HEIGHT),
                    "ARRAY_LEVELS": str(LEVELS),
                    "ARRAY_MOVES": os.environ.get("FPGATRAX_ARRAY_MOVES", "1500"),
                    "ARRAY_SEED": os.environ.get("FPGATRAX_ARRAY_SEED", "1")})
