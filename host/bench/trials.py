"""Trials per second: each board's gateware search against the CPU (``make bench-trials``).

A *trial* is one move tried on the array: place, forced play, loop and line detection and the
threat passes (``TRY_THREAT``). For each board this runs the gateware search with the board's
settings (array size, variant, depth, evasions, every attack, threat-space search, table of leaf
values) in Verilator
on positions from play, capped at ``--trials`` trials per search so that the simulation takes
minutes, and
reports the cycles per trial of each search (median and 99th percentile), the board's clock, and
so the board's trials per second. On the same positions, in the same run, it times in Python on
this machine the reference engine doing the same work per trial (play the move with its forced
play and win check, then take it back, for every candidate) and the search's model choosing
(its trials per second), and gives the board's speed as ratios of both: the machine is shared
and noisy, so the ratios are the figures to quote, not the Python rates alone. A board with lanes
(several searches at once, ``hw/lanes.py``) is simulated with all of them: a search's trials are
every lane's, its cycles run until the last lane is done, so an uneven split counts against it.

    python -m fpgatrax.host.bench.trials                  # every board
    python -m fpgatrax.host.bench.trials --board hx8k --positions 20
"""

import argparse
import dataclasses
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from fpgatrax.boards.build import boards
from fpgatrax.host.bench.pages import check_page, write_generated
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.position import Position
from fpgatrax.hw.lanes_model import search_model
from fpgatrax.hw.search_model import (
    DEFAULT_EXTENSION,
    candidates_in_order,
    tss_trials_for,
    veto_trials_for,
    window_of,
)

__all__ = ["BoardTrials", "measure_board", "engine_rate", "model_rate", "main"]

POSITIONS = 40
TRIALS = 2000      # per search: cycles per trial hardly change with the cap, Verilator time does
SEED = 7
MIN_SECONDS = 1.0  # each Python rate is timed over at least this long


@dataclasses.dataclass
class BoardTrials:
    """One board's figures: cycles per trial of each search (gateware), the board's clock, and
    trials per second of the engine and the model in Python on this machine."""
    name: str
    settings: str
    ratios: list
    clk_freq: int
    engine_per_s: float
    model_per_s: float

    @property
    def median(self):
        return statistics.median(self.ratios)

    @property
    def p99(self):
        """The 99th percentile of the cycles per trial of one search (the highest below 100
        searches)."""
        if len(self.ratios) < 100:
            return max(self.ratios)
        return statistics.quantiles(self.ratios, n=100)[98]

    @property
    def board_per_s(self):
        """Trials per second on the board, at the median cycles per trial."""
        return self.clk_freq / self.median


def _settings(target, trials):
    """The search's parameters for a board, capped at ``trials`` trials per search."""
    return {"depth": target.depth, "evasions": target.evasions, "max_trials": trials,
            "tss": target.tss, "tss_trials": tss_trials_for(trials, target.tss),
            "both_colours": target.both_colours, "variant": target.variant,
            "lanes": target.lanes, "every_attack": target.every_attack, "table": target.table,
            "veto": target.veto, "veto_trials": veto_trials_for(trials, target.veto)}


def _positions(moves_lists, variant):
    positions = []
    for moves in moves_lists:
        position = Position(variant)
        for key, tile in moves:
            position.play((key, tile))
        positions.append(position)
    return positions


def engine_rate(positions, window_size):
    """Trials per second of the reference engine: every candidate of every position played
    (with its forced play and win check) and taken back, as the array tries them."""
    done, started = 0, time.perf_counter()
    while True:
        for position in positions:
            for move in candidates_in_order(position, window_of(position, window_size)):
                if position.push(move):
                    position.outcome    # noqa: B018 (the win check is part of a trial)
                    position.undo()
                done += 1
        elapsed = time.perf_counter() - started
        if elapsed >= MIN_SECONDS:
            return done / elapsed


def model_rate(positions, window_size, settings):
    """Trials per second of the search's model choosing on the positions."""
    done, started = 0, time.perf_counter()
    while True:
        for position in positions:
            model = search_model(settings["lanes"], max_trials=settings["max_trials"],
                                 window=window_size, depth=settings["depth"],
                                 extension=DEFAULT_EXTENSION if settings["evasions"] else 0,
                                 evasions=settings["evasions"], tss=settings["tss"],
                                 tss_trials=settings["tss_trials"] or None,
                                 every_attack=settings["every_attack"],
                                 table=settings["table"], veto=settings["veto"],
                                 veto_trials=settings["veto_trials"] or None)
            choice = model.choose(position)
            done += choice.trials if choice else 0
        elapsed = time.perf_counter() - started
        if elapsed >= MIN_SECONDS:
            return done / elapsed


def measure_board(target, positions=POSITIONS, trials=TRIALS, seed=SEED):
    """Run the board's search in Verilator and time the same positions in Python."""
    from fpgatrax.sim import runner
    from fpgatrax.sim.search_harness import SearchHarness

    settings = _settings(target, trials)
    harness = SearchHarness(target.width, target.height, **settings)
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "searches.json"
        runner.run(harness, name="search_harness", test_module="fpgatrax.sim.trial_cycles_tb",
                   env={**harness.testbench_env(positions, seed), "SEARCH_OUT": str(out)})
        searches = json.loads(out.read_text())["searches"]
    window_size = (target.width, target.height)
    played = _positions([search["moves"] for search in searches], target.variant)
    described = f"{target.width}x{target.height}, depth {target.depth}" + (
        f", evasions{' of every attack' if target.every_attack else ''}, TSS {target.tss}"
        if target.tss else "") + (
        ", both colours per pass" if target.both_colours else "") + (
        f", a table of {1 << target.table:,} leaf values" if target.table else "") + (
        f", a {target.veto}-ply veto" if target.veto else "") + (
        f", {target.lanes} lanes" if target.lanes > 1 else "")
    return BoardTrials(
        name=target.name, settings=described,
        ratios=[search["cycles"] / max(1, search["trials"]) for search in searches],
        clk_freq=target.clk_freq, engine_per_s=engine_rate(played, window_size),
        model_per_s=model_rate(played, window_size, settings))


def table(results, positions, trials):
    """The figures as a Markdown table with the command and the settings above it."""
    lines = [
        f"Written by `python -m fpgatrax.host.bench.trials` ({positions} positions from play "
        f"per board, searches capped at {trials:,} trials). *Cycles per trial* is each "
        f"search's cycles over its trials on the gateware (Verilator), median and 99th "
        f"percentile over the searches (with lanes, every lane's trials over the cycles until the "
        f"last lane is done); *board* is the board's clock over the median; "
        f"*engine* and *model* are the reference engine's and the search model's trials per "
        f"second in Python on the machine that ran it, timed on the same positions in the same "
        f"run, so the ratios are the figures to quote.",
        "",
        "| board | search | cycles per trial (median) | 99th pct | clock | board trials/s | "
        "engine trials/s | model trials/s | board ÷ engine | board ÷ model |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r.name} | {r.settings} | {r.median:.1f} | {r.p99:.1f} | "
            f"{r.clk_freq / 1e6:g} MHz | {r.board_per_s / 1e6:.2f} M | "
            f"{r.engine_per_s / 1e3:.0f} k | {r.model_per_s / 1e3:.0f} k | "
            f"{r.board_per_s / r.engine_per_s:.1f} | {r.board_per_s / r.model_per_s:.1f} |")
    return "\n".join(lines)


def main(argv=None):
    known = boards()
    parser = argparse.ArgumentParser(prog="python -m fpgatrax.host.bench.trials",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--board", action="append", choices=list(known), metavar="NAME",
                        help=f"a board to measure (repeatable; default every board: "
                             f"{', '.join(known)})")
    parser.add_argument("--positions", type=int, default=POSITIONS,
                        help=f"positions from play per board (default {POSITIONS})")
    parser.add_argument("--trials", type=int, default=TRIALS,
                        help=f"trials per search at most (default {TRIALS})")
    parser.add_argument("--write", metavar="PAGE",
                        help="also write the table into PAGE (e.g. docs/measurements.md), "
                             "between its markers '<!-- generated: trials -->' and "
                             "'<!-- end generated: trials -->'")
    args = parser.parse_args(argv)
    if args.positions < 1 or args.trials < 4:
        parser.error("at least 1 position and 4 trials per search")
    try:
        if args.write:
            check_page(args.write, "trials")        # before minutes of simulation, not after
    except UserError as err:
        parser.exit(1, f"{parser.prog}: error: {err}\n")
    names = args.board or list(known)
    results = []
    for number, name in enumerate(names, start=1):
        print(f"[{number}/{len(names)}] {name}: the gateware search in Verilator on "
              f"{args.positions} positions (the first run of a size compiles it: minutes), "
              f"then the same positions in Python", file=sys.stderr, flush=True)
        results.append(measure_board(known[name], args.positions, args.trials))
    text = table(results, args.positions, args.trials)
    print(text)
    if args.write:
        try:
            write_generated(args.write, "trials", text)
        except UserError as err:
            parser.exit(1, f"{parser.prog}: error: {err}\n")
        print(f"# wrote the table into {args.write}")


if __name__ == "__main__":
    main()
