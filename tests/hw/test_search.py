"""The move search gateware against its Python model, in cocotb on Verilator
(``sim/search_tb.py``): the same move on positions from real play."""

import os

import pytest

from fpgatrax.sim import runner
from fpgatrax.sim.search_harness import SearchHarness

pytestmark = pytest.mark.verilator

# Small arrays and trial limits keep the simulation short; the window rule is exercised as games
# reach the array's edges, the trial limit when it cuts searches short, and every depth the boards
# use, with the check evasions (the ECP5 boards) and without them (the iCE40 boards).
# The threat-space search runs in the first case (it gives up at 1,000 trials, so both of its
# ends are met: a proof, and the negamax after giving up) and, unbounded, in the third.
# The first case is the 25F boards' search (attacks on the placed tile's tracks, their squares
# read in evasion nodes), here on an array that follows both colours at once (a mode no board
# builds, so that it is tested somewhere); the last two the 85F's search, the fourth in two
# lanes (the 85F has one: the lanes' choice between labelled searches is tested here), the
# fifth in one, as on the 85F.
CASES = [
    pytest.param(9, 9, 3, True, 3000, (7, 1000), "standard", 24, True, 1, False, 0, 1,
                 (0, 0), id="standard-9x9-depth3-max3000-tss7-both-colours"),
    # The trials benchmark's test compiles the same search: on one worker, it reuses this build.
    pytest.param(10, 10, 2, False, 400, (0, 0), "8x8", 60, False, 1, False, 0, 1,
                 (0, 0), id="8x8-10x10-depth2-max400-no-evasions",
                 marks=pytest.mark.xdist_group("search_harness_10x10_8x8")),
    pytest.param(9, 9, 1, True, 0, (5, 0), "loop", 40, False, 1, False, 0, 1,
                 (0, 0), id="loop-9x9-depth1-unbounded-tss5"),
    # The 85F's search in two lanes whose arrays label their tracks (every attack), with tables
    # of 64 leaf values. The trial limit cuts most searches short, so that the lanes finish
    # different depths and every rule of their choice is met, but not all: positions recur in
    # a whole search (moves of one side commute), entries are overwritten, and the table's
    # hits, misses and tag check all change the trials (the testbench requires that some
    # search saved trials by its table). Seed 2 makes games in which a double attack at a leaf
    # decides a search (the testbench requires one). Its veto is in the next case: at this
    # trial limit the last iteration, where the veto runs, is seldom reached.
    pytest.param(9, 9, 3, True, 5000, (7, 300), "standard", 12, False, 2, True, 6, 2, (0, 0),
                 id="standard-9x9-depth3-max5000-tss7-2-lanes-every-attack-table64"),
    # The 85F's veto (5 plies), in one lane as on the 85F, on a 1-ply search, whose one
    # iteration is the last: positions of the model's games against itself (the testbench
    # requires a veto that refutes a root move). Giving up at 300 trials, the vetoes meet all of
    # their ends: seed 2's 12 searches run 76, of which 14 refute a move and 40 give up.
    pytest.param(9, 9, 1, True, 3000, (7, 300), "standard", 12, False, 1, True, 0, 2, (5, 300),
                 id="standard-9x9-depth1-max3000-tss7-every-attack-veto5"),
]


@pytest.mark.parametrize(
    "width,height,depth,evasions,max_trials,tss,variant,positions,both_colours,lanes,"
    "every_attack,table,seed,veto", CASES)
def test_search_matches_model(width, height, depth, evasions, max_trials, tss, variant,
                              positions, both_colours, lanes, every_attack, table, seed, veto):
    count = int(os.environ.get("FPGATRAX_SEARCH_POSITIONS", positions))
    plies, tss_trials = tss
    harness = SearchHarness(width, height, depth=depth, evasions=evasions,
                            max_trials=max_trials, tss=plies, tss_trials=tss_trials,
                            both_colours=both_colours, variant=variant, lanes=lanes,
                            every_attack=every_attack, table=table, veto=veto[0],
                            veto_trials=veto[1])
    runner.run(harness, name="search_harness", test_module="fpgatrax.sim.search_tb",
               env=harness.testbench_env(count, os.environ.get("FPGATRAX_SEARCH_SEED", str(seed))))
