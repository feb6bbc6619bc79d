"""The whole player through its UART pins, in cocotb on Verilator (``sim/player_tb.py``):
games judged by the reference engine and matched move for move with the player's model, bad
input, games that outgrow the array three times over and then the keeper's board, and random
frames on the link before a game (``sim/noise_tb.py``)."""

import os

import pytest

from fpgatrax.sim.player_testbench import run_noise_testbench, run_player_testbench

pytestmark = pytest.mark.verilator


# The second player searches in two lanes (two arrays kept in step by the player's commands,
# as on the 25F boards) whose arrays label their tracks (every attack, as the 85F's one lane
# does), on a keeper of 32×32 that a widened game outgrows; the third has a 6×6 array without
# forgetting (the build option that saves a UP5K about a thousand cells: the iCEBreaker before
# it forgot); the fourth plays Mini Trax on a 5×5 array, searched in full.
# (The first one's keeper cannot hold three of its arrays: its games are not widened.)
@pytest.mark.parametrize(
    "width,height,depth,max_trials,variant,games,lanes,keeper,forgetting,every_attack", [
        pytest.param(11, 11, 2, 300, "standard", 4, 1, 32, True, False, id="standard-11x11"),
        pytest.param(8, 8, 1, 60, "loop", 2, 2, 32, True, True,
                     id="loop-8x8-2-lanes-every-attack"),
        pytest.param(6, 6, 1, 60, "standard", 2, 1, 32, False, False,
                     id="standard-6x6-no-forgetting"),
        pytest.param(5, 5, 3, 0, "mini", 3, 1, 32, True, False, id="mini-5x5"),
    ])
def test_player_through_uart(width, height, depth, max_trials, variant, games, lanes, keeper,
                             forgetting, every_attack):
    run_player_testbench(width, height, depth, max_trials, variant,
                         games=int(os.environ.get("FPGATRAX_PLAYER_GAMES", games)),
                         seed=int(os.environ.get("FPGATRAX_PLAYER_SEED", 1)), lanes=lanes,
                         keeper_size=keeper, forgetting=forgetting, every_attack=every_attack)


def test_random_frames_then_a_game():
    """20,000 random frames on the link (the soak sends a million), each delivered intact by the
    player's receiver, then a game matched move for move with the model (``sim/noise_tb.py``)."""
    run_noise_testbench(20_000, seed=int(os.environ.get("FPGATRAX_PLAYER_SEED", 1)))
