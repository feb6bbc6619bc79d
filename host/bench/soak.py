"""``make soak``: the model player in thousands of games, counting what must never happen.

A player that answers illegally once in a thousand games loses matches, and a thousand games
are more than the test suite plays. This soak plays the hardware search's model (``model``,
at a small trial limit so that games are quick, its first two moves random among those that
do not lose) against every bot in every variant, with both colours, each game with fresh
random choices on both sides, and counts the model's forfeits: illegal, late (on the board's
own clock), malformed or missing answers. They must all be zero. Every game's record is kept
under ``--record`` (``build/soak/`` unless told), so a failure can be replayed.

Usage: ``python -m fpgatrax.host.bench.soak [--games N] [--jobs J] [--model SETTINGS]``.
"""

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

from fpgatrax.host.bots import BOTS
from fpgatrax.host.match.model import parse_settings
from fpgatrax.host.match.players import PlayerOptions
from fpgatrax.host.match.referee import FORFEIT_KINDS
from fpgatrax.host.match.tournament import Entrant, Progress, parallel_round_robin
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.variant import VARIANT_NAMES

__all__ = ["soak_model", "main"]

MODEL = "board=hx8k,max_trials=2000,random_moves=2"
ALPHABETA_DEPTH = 2      # the bot's plies: a soak is about the model's answers, not its rival


def soak_model(games, jobs, settings=MODEL, record=None, progress=None):
    """``games`` games (at least one per variant, bot and colour) of ``model:settings``
    against every bot in every variant, on ``jobs`` processes. Returns one row per variant and
    bot: (variant, bot, games, the model's wins, draws, losses, its forfeits by kind)."""
    pairings = [(variant, bot) for variant in VARIANT_NAMES for bot in BOTS]
    per_colour = max(1, games // (2 * len(pairings)))
    rows = []
    for number, (variant, bot) in enumerate(pairings):
        entrants = [Entrant("model", f"model:{settings}", PlayerOptions(variant=variant)),
                    Entrant(bot, bot, PlayerOptions(variant=variant, depth=ALPHABETA_DEPTH))]
        folder = None if record is None else Path(record) / f"{variant}-{bot}"
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)

        def path(game, folder=folder):
            return folder / f"game{game:05d}.trx"

        def step(done, total, text, before=number * 2 * per_colour, label=f"{variant} vs {bot}"):
            if progress is not None:
                progress(before + done, len(pairings) * 2 * per_colour, f"{label}: {text}")

        table, _ = parallel_round_robin(entrants, per_colour, jobs,
                                        record_path=path if folder else None, progress=step,
                                        variant=variant)
        model = next(standing for standing in table if standing.name == "model")
        rows.append((variant, bot, model.games, model.wins, model.draws, model.losses,
                     Counter(model.forfeits)))
    return rows


def format_rows(rows):
    kinds = " ".join(f"{kind:>12}" for kind in FORFEIT_KINDS)
    lines = [f"{'variant':9} {'bot':10} {'games':>6} {'won':>6} {'drawn':>6} {'lost':>6} "
             f"{kinds}"]
    for variant, bot, games, won, drawn, lost, forfeits in rows:
        counts = " ".join(f"{forfeits[kind]:>12}" for kind in FORFEIT_KINDS)
        lines.append(f"{variant:9} {bot:10} {games:>6} {won:>6} {drawn:>6} {lost:>6} {counts}")
    return "\n".join(lines)


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m fpgatrax.host.bench.soak",
        description="The model player against every bot in every variant, both colours, "
                    "counting its illegal, late, malformed and missing answers (all must be "
                    "zero). Exit status 1 if any.")
    parser.add_argument("--games", type=int, default=10_000, metavar="N",
                        help="games in all (default 10,000)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="J",
                        help="games at once (default: one per CPU)")
    parser.add_argument("--model", default=MODEL, metavar="SETTINGS",
                        help=f"the model's settings, as after model: (default {MODEL})")
    parser.add_argument("--record", default="build/soak", metavar="DIR",
                        help="keep every game's record here (default build/soak)")
    return parser


def main(argv=None):
    args = _parser().parse_args(argv)
    if args.games < 1 or args.jobs < 1:
        print("error: --games and --jobs must be at least 1", file=sys.stderr)
        return 2
    try:
        parse_settings(args.model)
    except UserError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    start = time.monotonic()
    rows = soak_model(args.games, args.jobs, args.model, args.record, Progress())
    print(format_rows(rows))
    games = sum(row[2] for row in rows)
    failures = sum(sum(row[6].values()) for row in rows)
    print(f"{games:,} games of model:{args.model} in {time.monotonic() - start:.0f} s on "
          f"{args.jobs} process(es); the model's forfeits: {failures}; records in "
          f"{args.record}/")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
