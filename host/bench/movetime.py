"""Worst-case time per move of each board's player: trials × cycles per trial ÷ clock, and how
deep its search gets within its trial limit.

The search's cost is counted in *trials* (moves tried on the array), and the Python model of the
search counts exactly the trials the gateware spends (``tests/hw/test_search.py`` checks it), so
trial counts over many real positions come from the model at Python speed, with the board's
array size, variant, depth and trial limit. A trial's cycles (place, forced play, loop and line
passes) vary with the position, by about two to one: ``CYCLES_PER_TRIAL`` (in
``hw/search_model.py``; ``CYCLES_PER_TRIAL_BOTH`` for an array that follows both colours at
once, ``CYCLES_PER_TRIAL_LABELS`` for one that labels its tracks) is the highest average
cycles per trial of any one search, measured on the gateware in Verilator by ``--measure``
(minutes), so worst trials × it bounds the worst move from above. The trial limit is derived
from it, so the bound is at most ``MOVE_SECONDS``; the
table shows how often each depth finished within it.

Positions: every position where the player is to move in games of the search model against the
``random`` and ``greedy`` bots (both colours), and in games of random play (which sprawl and so
have the most candidate squares), as long as the tiles fit the array.

    python -m fpgatrax.host.bench.movetime              # the table, from the constant below
    python -m fpgatrax.host.bench.movetime --measure    # re-measure cycles per trial (Verilator)
"""

import argparse
import random
from collections import Counter

from fpgatrax.boards.build import boards
from fpgatrax.host.bots import make_bot
from fpgatrax.host.rules.position import Position
from fpgatrax.hw.search_model import (
    CYCLES_PER_TRIAL,
    CYCLES_PER_TRIAL_BOTH,
    CYCLES_PER_TRIAL_LABELS,
    SearchModel,
)

__all__ = ["worst_trials", "board_profile"]

GAMES = 6
SEED = 7


def _positions(variant, width, height, games, seed):
    """Positions from play whose tiles fit a ``width``×``height`` array."""
    rng = random.Random(seed)
    for game in range(games):
        position = Position(variant)
        opponent = make_bot(["random", "greedy"][game % 2], seed=rng.randrange(1 << 30))
        mover = make_bot("random", seed=rng.randrange(1 << 30))
        model = SearchModel(None, (width, height), depth=1)
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


def worst_trials(variant, width, height, depth, max_trials=0, games=GAMES, seed=SEED):
    """(worst trial count, positions examined, Counter of finished depths) of the search on a
    ``width``×``height`` array."""
    worst = count = 0
    depths = Counter()
    for position in _positions(variant, width, height, games, seed):
        choice = SearchModel(max_trials or None, (width, height), depth).choose(position)
        if choice is not None:
            worst = max(worst, choice.trials)
            depths[choice.depth] += 1
        count += 1
    return worst, count, depths


def board_profile(target, games=GAMES, seed=SEED):
    """(seconds of the worst move found, worst trials, positions, finished depths) for a board
    target."""
    trials, count, depths = worst_trials(target.variant, target.width, target.height,
                                         target.depth, target.max_trials, games, seed)
    return trials * target.cycles_per_trial / target.clk_freq, trials, count, depths


#: The arrays ``--measure`` runs the search on: (what, both_colours, every_attack).
ARRAYS = (("following one colour per pass (CYCLES_PER_TRIAL)", False, False),
          ("following both colours at once (CYCLES_PER_TRIAL_BOTH)", True, False),
          ("labelling its tracks, one colour per pass (CYCLES_PER_TRIAL_LABELS)", False, True))


def measure(width=16, height=16, positions=40, arrays=ARRAYS):
    """Run the search on the gateware (Verilator) and print cycles per trial, on each kind of
    array in ``arrays``."""
    from fpgatrax.sim import runner
    from fpgatrax.sim.search_harness import SearchHarness
    for what, both_colours, every_attack in arrays:
        print(f"the array {what}:", flush=True)
        harness = SearchHarness(width, height, depth=2, max_trials=0,
                                both_colours=both_colours, every_attack=every_attack)
        runner.run(harness, name="search_harness", test_module="fpgatrax.sim.trial_cycles_tb",
                   env=harness.testbench_env(positions, SEED))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m fpgatrax.host.bench.movetime",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES, help="games of each board's size")
    parser.add_argument("--measure", action="store_true",
                        help="measure cycles per trial on the gateware instead (minutes)")
    args = parser.parse_args(argv)
    if args.measure:
        measure()
        return
    print(f"{'board':<12} {'variant':<8} {'array':>6} {'depth':>5} {'trials':>7} "
          f"{'positions':>9} {'worst trials':>12} {'clock MHz':>9} {'worst ms':>8}  "
          f"finished depth: share of moves")
    for target in boards().values():
        seconds, trials, count, depths = board_profile(target, args.games)
        shares = ", ".join(f"{d}: {n / sum(depths.values()):.0%}"
                           for d, n in sorted(depths.items()))
        print(f"{target.name:<12} {target.variant:<8} {target.width}x{target.height:<3} "
              f"{target.depth:>5} {target.max_trials:>7} {count:>9} {trials:>12} "
              f"{target.clk_freq / 1e6:>9g} {seconds * 1e3:>8.1f}  {shares}", flush=True)
    print(f"(at {CYCLES_PER_TRIAL} cycles per trial, {CYCLES_PER_TRIAL_BOTH} on an array "
          f"following both colours at once, {CYCLES_PER_TRIAL_LABELS} on one labelling its "
          f"tracks: the worst measured; see --measure)")


if __name__ == "__main__":
    main()
