"""Worst-case time per move of each board's player: trials × cycles per trial ÷ clock.

The search's cost is counted in *trials* (moves tried on the array), and the Python model of the
search counts exactly the trials the gateware spends (``tests/test_search.py`` checks it), so
the worst trial count over many real positions comes from the model at Python speed, with the
board's array size, variant and budget. A trial's cycles (place, forced play, loop and line
passes) vary with the position, by about two to one: :data:`CYCLES_PER_TRIAL` is the highest
average cycles per trial of any one search, measured on the gateware in Verilator by
``--measure`` (minutes), so worst trials × it bounds the worst move from above.

Positions: every position where the player is to move in games of the search model against the
``random`` and ``greedy`` bots (both colours), and in games of random play (which sprawl and so
have the most candidate squares), as long as the tiles fit the array.

    python -m fpgatrax.boards.movetime              # the table, from the constant below
    python -m fpgatrax.boards.movetime --measure    # re-measure cycles per trial (Verilator)
"""

import argparse
import random

from ..host.bots import make_bot
from ..host.position import Position
from ..host.search_model import SearchModel
from .build import boards

__all__ = ["CYCLES_PER_TRIAL", "worst_trials", "worst_move_seconds"]

#: The highest average cycles per trial of one search, rounded up, measured by ``--measure``:
#: 36 searches on a 16×16 standard array with no budget gave a median of 56.4 and a highest of
#: 112.8 (the longest search: 518,368 cycles for 4,772 trials). Line passes along long tracks
#: make the difference; using the highest with the worst trial count overestimates a little.
CYCLES_PER_TRIAL = 115

GAMES = 24
SEED = 7


def _positions(variant, width, height, games, seed):
    """Positions from play whose tiles fit a ``width``×``height`` array."""
    rng = random.Random(seed)
    for game in range(games):
        position = Position(variant)
        opponent = make_bot(["random", "greedy"][game % 2], seed=rng.randrange(1 << 30))
        mover = make_bot("random", seed=rng.randrange(1 << 30))
        model = SearchModel(None, window=(width, height))
        me = (game // 2) % 2
        random_play = game % 3 == 2         # both sides random: sprawling positions
        while position.outcome is None and position.legal_moves():
            columns, rows = position.size()
            if columns > width or rows > height:
                break
            if position.to_move == me or random_play:
                yield position
            player = mover if random_play else (model if position.to_move == me else opponent)
            if player is model:
                choice = model.choose(position)
                if choice is None:
                    break
                move = choice.move
            else:
                move = player.choose(position)
            position.play(move)


def worst_trials(variant, width, height, budget=0, games=GAMES, seed=SEED):
    """(worst trial count, positions examined) of the search on a ``width``×``height`` array."""
    worst = count = 0
    for position in _positions(variant, width, height, games, seed):
        choice = SearchModel(budget or None, window=(width, height)).choose(position)
        if choice is not None:
            worst = max(worst, choice.trials)
        count += 1
    return worst, count


def worst_move_seconds(target, games=GAMES, seed=SEED):
    """(seconds, worst trials, positions) for a board target."""
    trials, count = worst_trials(target.variant, target.width, target.height, target.budget,
                                 games, seed)
    return trials * CYCLES_PER_TRIAL / target.clk_freq, trials, count


def measure(width=16, height=16, positions=40):
    """Run the search on the gateware (Verilator) and print cycles per trial."""
    from ..sim import runner
    from ..sim.search_harness import SearchHarness
    runner.run(SearchHarness(width, height, budget=0), name="search_harness",
               test_module="fpgatrax.boards.trial_cycles_tb",
               env={"SEARCH_WIDTH": str(width), "SEARCH_HEIGHT": str(height),
                    "SEARCH_BUDGET": "0", "SEARCH_VARIANT": "standard",
                    "SEARCH_POSITIONS": str(positions), "SEARCH_SEED": str(SEED)})


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m fpgatrax.boards.movetime",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES, help="games of each board's size")
    parser.add_argument("--measure", action="store_true",
                        help="measure cycles per trial on the gateware instead (minutes)")
    args = parser.parse_args(argv)
    if args.measure:
        measure()
        return
    print(f"{'board':<12} {'variant':<8} {'array':>6} {'budget':>6} {'positions':>9} "
          f"{'worst trials':>12} {'clock MHz':>9} {'worst ms':>8}")
    for target in boards().values():
        seconds, trials, count = worst_move_seconds(target, args.games)
        print(f"{target.name:<12} {target.variant:<8} {target.width}x{target.height:<3} "
              f"{target.budget or 'none':>6} {count:>9} {trials:>12} "
              f"{target.clk_freq / 1e6:>9g} {seconds * 1e3:>8.1f}", flush=True)
    print(f"(at {CYCLES_PER_TRIAL} cycles per trial, the worst measured; see --measure)")


if __name__ == "__main__":
    main()
