"""Running ``sim/player_tb.py`` on a Player of given parameters: shared by the tests and by
``make bench-player``."""

from fpgatrax.hw.player import Player
from fpgatrax.sim import runner

__all__ = ["DIVISOR", "CLOCK", "run_player_testbench"]

# A fast link so that the simulation spends its cycles on thinking; the clock rate itself only
# decides the baud divisor.
DIVISOR = 8
CLOCK = 1_000_000


def run_player_testbench(width, height, depth, max_trials, variant, *, games, seed, testcase=None,
                         report=None, lanes=1, keeper_size=64, forgetting=True):
    """Build the Player (cached) and run the testbench's tests (or one ``testcase``); with
    ``report``, the games test writes its cycles per move there as JSON."""
    player = Player(width=width, height=height, clk_freq=CLOCK, baud=CLOCK // DIVISOR,
                    depth=depth, max_trials=max_trials, variant=variant, lanes=lanes,
                    keeper_size=keeper_size, forgetting=forgetting)
    env = {"PLAYER_WIDTH": str(width), "PLAYER_HEIGHT": str(height),
           "PLAYER_DEPTH": str(depth), "PLAYER_MAX_TRIALS": str(max_trials),
           "PLAYER_VARIANT": variant,
           "PLAYER_DIVISOR": str(DIVISOR), "PLAYER_GAMES": str(games), "PLAYER_SEED": str(seed),
           "PLAYER_LANES": str(lanes), "PLAYER_KEEPER": str(keeper_size),
           "PLAYER_FORGETTING": str(int(forgetting))}
    if report is not None:
        env["PLAYER_REPORT"] = str(report)
    return runner.run(player, name="player", test_module="fpgatrax.sim.player_tb", env=env,
                      testcase=testcase)
