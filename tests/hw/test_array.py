"""The tile array against the reference engine, in cocotb on Verilator (``sim/array_tb.py``).

``make test`` plays 700 moves of seeded random games; ``make verify-array`` runs the large
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


# One flag per cell following one colour per pass (the boards), or both at once; threat passes
# that flood the placed tile's tracks (the iCE40 and 25F boards), or label every track (85F).
@pytest.mark.parametrize("both_colours, labels", [(False, False), (True, False), (False, True)],
                         ids=["one-colour", "both-colours", "labels"])
def test_random_games_against_the_engine(both_colours, labels):
    runner.run(TileArray(WIDTH, HEIGHT, LEVELS, both_colours, labels=labels), name="tile_array",
               test_module="fpgatrax.sim.array_tb",
               env={"ARRAY_WIDTH": str(WIDTH), "ARRAY_HEIGHT": str(HEIGHT),
                    "ARRAY_LEVELS": str(LEVELS), "ARRAY_LABELS": str(int(labels)),
                    "ARRAY_MOVES": os.environ.get("FPGATRAX_ARRAY_MOVES", "700"),
                    "ARRAY_SEED": os.environ.get("FPGATRAX_ARRAY_SEED", "1")})
