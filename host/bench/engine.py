"""Benchmark of the reference engine (``make bench-engine``): perft leaves per second at depths
5 and 6, and positions per second of random play. Prints figures; asserts nothing."""

import argparse
import random
import time

from fpgatrax.host.rules.perft import perft
from fpgatrax.host.rules.position import Position


def bench_perft(depth):
    start = time.perf_counter()
    leaves = perft(depth)
    seconds = time.perf_counter() - start
    print(f"perft({depth}) = {leaves:>10,}  {seconds:7.2f} s  {leaves / seconds:>10,.0f} leaves/s",
          flush=True)


def bench_random_play(games, seed=1):
    rng = random.Random(seed)
    positions = 0
    start = time.perf_counter()
    for _ in range(games):
        position = Position()
        while position.outcome is None:
            legal = position.legal_moves()
            if not legal:
                break
            position.play(rng.choice(legal))
            positions += 1
    seconds = time.perf_counter() - start
    print(f"random play: {games} games, {positions:,} positions  {seconds:7.2f} s  "
          f"{positions / seconds:>10,.0f} positions/s (each: legal moves + play + win check)")


def main():
    parser = argparse.ArgumentParser(description="Reference engine speed figures.")
    parser.add_argument("--depth", type=int, default=6, help="deepest perft (default 6)")
    parser.add_argument("--games", type=int, default=300, help="random games (default 300)")
    args = parser.parse_args()
    for depth in range(5, args.depth + 1):
        bench_perft(depth)
    bench_random_play(args.games)


if __name__ == "__main__":
    main()
