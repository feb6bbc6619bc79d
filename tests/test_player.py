"""The whole player through its UART pins, in cocotb on Verilator (``sim/player_tb.py``):
games judged by the reference engine and matched move for move with the search model, bad
input, and a game that outgrows the array."""

import os

import pytest

from fpgatrax.hw.player import Player
from fpgatrax.sim import runner

DIVISOR = 8              # clocks per bit: a fast link so that the simulation spends its time
CLOCK = 1_000_000        # on thinking (the baud divisor is all that the rates decide)


@pytest.mark.parametrize("width,height,budget,variant,games", [
    pytest.param(11, 11, 2, "standard", 4, id="standard-11x11"),
    pytest.param(8, 8, 1, "loop", 2, id="loop-8x8"),
])
def test_player_through_uart(width, height, budget, variant, games):
    player = Player(width=width, height=height, clk_freq=CLOCK, baud=CLOCK // DIVISOR,
                    budget=budget, variant=variant)
    runner.run(player, name="player", test_module="fpgatrax.sim.player_tb",
               env={"PLAYER_WIDTH": str(width), "PLAYER_HEIGHT": str(height),
                    "PLAYER_BUDGET": str(budget), "PLAYER_VARIANT": variant,
                    "PLAYER_DIVISOR": str(DIVISOR),
                    "PLAYER_GAMES": os.environ.get("FPGATRAX_PLAYER_GAMES", str(games)),
                    "PLAYER_SEED": os.environ.get("FPGATRAX_PLAYER_SEED", "1")})
