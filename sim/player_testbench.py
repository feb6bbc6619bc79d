"""Running ``sim/player_tb.py`` on a Player of given parameters: shared by the tests and by
``make bench-player``."""

from fpgatrax.hw.player import Player
from fpgatrax.hw.uart import MIN_DIVISOR
from fpgatrax.sim import runner
from fpgatrax.sim.noise_harness import NoisyLink

__all__ = ["DIVISOR", "CLOCK", "SMALL_PLAYER", "player_and_environment", "run_player_testbench",
           "run_noise_testbench"]

# A fast link so that the simulation spends its cycles on thinking; the clock rate itself only
# decides the baud divisor.
DIVISOR = 8
CLOCK = 1_000_000


def player_and_environment(width, height, depth, max_trials, variant, *, games, seed,
                            lanes=1, keeper_size=64, forgetting=True, divisor=DIVISOR,
                            every_attack=False):
    """The Player of these parameters and the ``PLAYER_*`` environment ``sim/player_tb.py``
    reads them from."""
    player = Player(width=width, height=height, clk_freq=CLOCK, baud=CLOCK // divisor,
                    depth=depth, max_trials=max_trials, variant=variant, lanes=lanes,
                    keeper_size=keeper_size, forgetting=forgetting, every_attack=every_attack)
    env = {"PLAYER_WIDTH": str(width), "PLAYER_HEIGHT": str(height),
           "PLAYER_DEPTH": str(depth), "PLAYER_MAX_TRIALS": str(max_trials),
           "PLAYER_VARIANT": variant,
           "PLAYER_DIVISOR": str(divisor), "PLAYER_GAMES": str(games), "PLAYER_SEED": str(seed),
           "PLAYER_LANES": str(lanes), "PLAYER_KEEPER": str(keeper_size),
           "PLAYER_FORGETTING": str(int(forgetting)),
           "PLAYER_EVERY_ATTACK": str(int(every_attack))}
    return player, env


def run_player_testbench(width, height, depth, max_trials, variant, *, games, seed, testcase=None,
                         report=None, lanes=1, keeper_size=64, forgetting=True,
                         every_attack=False):
    """Build the Player (cached) and run the testbench's tests (or one ``testcase``); with
    ``report``, the games test writes its cycles per move there as JSON."""
    player, env = player_and_environment(width, height, depth, max_trials, variant, games=games,
                                          seed=seed, lanes=lanes, keeper_size=keeper_size,
                                          forgetting=forgetting, every_attack=every_attack)
    if report is not None:
        env["PLAYER_REPORT"] = str(report)
    return runner.run(player, name="player", test_module="fpgatrax.sim.player_tb", env=env,
                      testcase=testcase)


# A player for long simulations (a million frames; gate by gate): the iCEBreaker's array, a
# small search and keeper, so that the clocks go to what is being checked.
SMALL_PLAYER = {"width": 6, "height": 6, "depth": 1, "max_trials": 60, "variant": "standard",
                "keeper_size": 32}


def run_noise_testbench(count, *, seed, report=None, log_file=None):
    """``count`` random frames on a player's link, then a game (``sim/noise_tb.py``); the
    player and its build are the same for any ``count`` and ``seed``. With ``report``, the
    testbench writes its figures there as JSON; with ``log_file``, the simulation's output goes
    there instead of to standard output."""
    # The receiver's smallest divisor: a frame in the fewest clocks.
    player, env = player_and_environment(**SMALL_PLAYER, games=1, seed=seed, divisor=MIN_DIVISOR)
    env["NOISE_BYTES"] = str(count)
    if report is not None:
        env["NOISE_REPORT"] = str(report)
    return runner.run(NoisyLink(player), name="noisy_link", test_module="fpgatrax.sim.noise_tb",
                      env=env, log_file=log_file)
