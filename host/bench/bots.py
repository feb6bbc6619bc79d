"""Benchmark: a small round-robin tournament between the software bots, printed as a table.

The figures say how strong the bots are against each other (score and Elo estimate) and how deep
alphabeta gets in its time, so that the hardware player's strength can be put on the same scale
later. They are figures to read, not pass marks. Run with ``make bench-bots``.
"""

import argparse
import time

from fpgatrax.host.bots import bots_for, make_bot
from fpgatrax.host.bots.session import BotSession
from fpgatrax.host.link.transport import FunctionTransport
from fpgatrax.host.match.tournament import Progress, format_table, round_robin
from fpgatrax.host.rules.variant import VARIANT_NAMES


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m fpgatrax.host.bench.bots",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per pairing and colour")
    parser.add_argument("--variant", choices=VARIANT_NAMES, default="standard")
    parser.add_argument("--think", type=float, default=0.25, help="alphabeta's time per move")
    parser.add_argument("--seed", type=int, default=2015)
    args = parser.parse_args(argv)
    bots = {name: make_bot(name, args.seed + index, think=args.think)
            for index, name in enumerate(bots_for(args.variant))}
    players = {name: FunctionTransport(name, BotSession(bot, args.variant).respond)
               for name, bot in bots.items()}
    start = time.perf_counter()
    table, results = round_robin(players, args.games, progress=Progress(),
                                 variant=args.variant, time_limit=1.0)
    seconds = time.perf_counter() - start
    moves = sum(len(result.position.moves) for _, _, result in results)
    depths = bots["alphabeta"].depths
    print(f"# {len(results)} games ({args.variant}, alphabeta {args.think:g} s per move, "
          f"seed {args.seed}): {moves} moves in {seconds:.0f} s")
    print("# alphabeta's deepest finished search, moves per depth: "
          + ", ".join(f"{depth}: {count}" for depth, count in sorted(depths.items())))
    print(format_table(table))


if __name__ == "__main__":
    main()
