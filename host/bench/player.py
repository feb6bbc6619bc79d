"""``make bench-player``: cycles per move of the gateware player, and what they mean in time.

Plays benchmark games of the whole Player (through its UART pins, in Verilator) against the
``random`` and ``greedy`` bots, both colours, with the simulated board's search (the boards'
depth, a small trial limit: a board's trial limit would take an hour of simulation), and prints
the median and worst cycles per move and the time they take at board clock rates. The
count is the player's own ``move_cycles``: from the opponent's move reaching the player to its
answer reaching the transmitter (the serial line's own time is not included: 3.1 ms for a
6-byte line at 19200 baud).
"""

import argparse
import json
import statistics
import tempfile
from pathlib import Path

from fpgatrax.hw.player import SIM_PROFILE
from fpgatrax.sim.player_testbench import run_player_testbench

CLOCKS_MHZ = (12, 24, 48)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=16, help="array side (default 16)")
    parser.add_argument("--depth", type=int, default=SIM_PROFILE["depth"],
                        help=f"search depth (default {SIM_PROFILE['depth']})")
    parser.add_argument("--max-trials", type=int, default=SIM_PROFILE["max_trials"],
                        help="the search's trial limit, trials per move (default "
                             f"{SIM_PROFILE['max_trials']}, as the simulated board; 0: none)")
    parser.add_argument("--games", type=int, default=4, help="games (default 4)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(f"Simulating {args.games} games of a {args.size}x{args.size} player, depth "
          f"{args.depth}, trial limit "
          f"{args.max_trials or 'none'} (Verilator; the first run builds the model, a few minutes)",
          flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "player.json"
        run_player_testbench(args.size, args.size, args.depth, args.max_trials, "standard",
                             games=args.games,
                             seed=args.seed, testcase="games_against_bots", report=report)
        data = json.loads(report.read_text())
    cycles = data["cycles"]
    median, worst = statistics.median(cycles), max(cycles)
    print(f"games: {', '.join(data['results'])}; {len(cycles)} moves")
    print(f"cycles per move: median {median:,.0f}, worst {worst:,}")
    ratios = [c / bound for c, bound in zip(cycles, data["model_cycles"], strict=True) if bound]
    print(f"against the model's time (the strength bench's clocks: trials at the most cycles "
          f"per trial, the keeper at its bounds): median {statistics.median(ratios):.2f}, "
          f"most {max(ratios):.2f} of it")
    print(f"{'clock':>8} {'median':>10} {'worst':>10}")
    for mhz in CLOCKS_MHZ:
        print(f"{mhz:>5} MHz {median / mhz / 1000:>8.2f} ms {worst / mhz / 1000:>8.2f} ms")


if __name__ == "__main__":
    main()
