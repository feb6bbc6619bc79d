"""``make soak``: the player in thousands of games, counting what must never happen.

A player that answers illegally once in a thousand games loses matches, and a thousand games
are more than the test suite plays. Two soaks, each counting the player's forfeits: illegal,
late (on the board's own clock), malformed or missing answers. They must all be zero. Every
game's record is kept under ``--record`` (``build/soak/`` unless told), so a failure can be
replayed.

- **The model** (``model``, the hardware search at Python speed, at a small trial limit so
  that games are quick) against every bot in every variant, with both colours. The model is
  deterministic; the bots are seeded afresh each game, so the games differ, and the table
  says how many of each pairing's did. (The model's random first moves, ``random_moves``,
  would vary its own side too, but each costs a proof search per candidate: three fifths of
  the soak's time, profiled.)
- **The simulated board** (``sim``: the player's gateware in Verilator, behind its
  pseudo-terminal) against ``alphabeta``, colours alternating, on one link for all its games.
  Before each game the link carries noise the board must ignore without a word: random bytes
  (any but the line ends) ended by a line feed, and a move line cut short. A third of the
  games are stopped after a few moves, so that the next game's ``-W`` or ``-B`` comes in the
  middle of one.
- **The link**: a million random frames on the simulated player's ``rx`` pin, made inside the
  simulation (``sim/noise_harness.py``), every one of which its receiver must deliver intact,
  with no framing error or overrun; then a whole game, each answer checked by the reference
  engine and the player's model (``sim/noise_tb.py``).

Usage: ``python -m fpgatrax.host.bench.soak [--games N] [--board-games M] [--uart-bytes B]
[--jobs J] ...``.
"""

import argparse
import json
import os
import random
import re
import sys
import threading
import time
from collections import Counter
from pathlib import Path

from fpgatrax.host.bots import bots_for
from fpgatrax.host.link.transport import NoAnswer
from fpgatrax.host.match.model import parse_settings
from fpgatrax.host.match.players import PlayerOptions, open_player
from fpgatrax.host.match.referee import FORFEIT_KINDS, new_record, play_game
from fpgatrax.host.match.tournament import Entrant, Progress, parallel_round_robin
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.position import RED, WHITE
from fpgatrax.host.rules.record import RecordError, read_record, replay
from fpgatrax.host.rules.variant import VARIANT_NAMES, variant_named

__all__ = ["soak_model", "soak_board", "soak_uart", "main"]

MODEL = "board=hx8k,max_trials=2000"
ALPHABETA_DEPTH = 2      # the bot's plies: a soak is about the model's answers, not its rival


def soak_model(games, jobs, settings=MODEL, record=None, progress=None, variants=VARIANT_NAMES):
    """At least ``games`` games (one per variant, bot and colour at least) of ``model:settings``
    against every bot of every variant of ``variants`` (``bots_for``), on ``jobs`` processes.
    Returns one row per variant and bot: (variant, "model vs BOT", games, how many of them
    differ (as move sequences, with colours), the model's wins, draws (and games cut short),
    losses, its forfeits by kind)."""
    pairings = [(variant, bot) for variant in variants for bot in bots_for(variant)]
    per_colour = max(1, -(-games // (2 * len(pairings))))    # at least ``games`` in all
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

        _, results = parallel_round_robin(entrants, per_colour, jobs,
                                          record_path=path if folder else None, progress=step,
                                          variant=variant)
        rows.append(_row(variant, f"model vs {bot}",
                         [(WHITE if white == "model" else RED, result.winner,
                           result.position.moves, result.forfeit)
                          for white, _, result in results]))
    return rows


def _row(variant, pairing, games):
    """A row of the soak's table from ``games``, each (the player's colour, the winner (None:
    drawn or cut short), the moves, the kind of forfeit or None): how many games, how many
    differ (by colour and moves), won, drawn, lost, and the player's forfeits by kind."""
    results, forfeits = Counter(), Counter()
    for mine, winner, _, forfeit in games:
        results["won" if winner == mine else "lost" if winner is not None else "drawn"] += 1
        if forfeit is not None and winner != mine:
            forfeits[forfeit] += 1
    distinct = len({(mine, tuple(moves)) for mine, _, moves, _ in games})
    return (variant, pairing, len(games), distinct, results["won"], results["drawn"],
            results["lost"], forfeits)


def summarize(folder):
    """The model soak's rows (as :func:`soak_model` returns them) rebuilt from the records it
    kept in ``folder`` (a subfolder per variant and bot), so that a soak stopped before its
    table can still be judged. The records are replayed by the engine: a game's result is
    what its moves and its forfeit line say."""
    rows = []
    for sub in sorted(Path(folder).iterdir()):
        files = sorted(sub.glob("*.trx")) if sub.is_dir() else []
        if not files:
            continue
        games = []
        for path in files:
            record = read_record(path)
            game = replay(record)
            # A forfeit's reason starts with its kind ("late: ...").
            forfeit = None if record.forfeit is None else record.forfeit[1].split(":")[0]
            games.append((WHITE if record.white == "model" else RED, game.winner,
                          game.position.moves, forfeit))
        variant, bot = sub.name.split("-", 1)       # soak_model's folders: VARIANT-BOT
        rows.append(_row(variant, f"model vs {bot}", games))
    return rows


def soak_board(games, settings="", seed=2015, record=None, progress=None):
    """``games`` games of the simulated board (``sim:settings``) against ``alphabeta`` on one
    link, with noise before each and a third cut short (see the module docstring). Returns a
    row as :func:`soak_model`'s, and the noises the board answered (it must answer none)."""
    from fpgatrax.sim.board import open_board  # imported on use: Verilator, fpgatrax[sim]
    rng = random.Random(seed)
    board = open_board(settings, PlayerOptions(), report=None)
    if record is not None:
        Path(record).mkdir(parents=True, exist_ok=True)
    played, answered = [], 0
    try:
        for number in range(games):
            if progress is not None:
                progress(number, games, "sim vs alphabeta")
            answered += _noise(board, rng)
            colour = number % 2
            rival = open_player("alphabeta", PlayerOptions(seed=rng.randrange(1 << 30),
                                                           depth=ALPHABETA_DEPTH))
            players = (board, rival) if colour == 0 else (rival, board)
            names = ("sim", "alphabeta") if colour == 0 else ("alphabeta", "sim")
            writer = None
            if record is not None:
                writer = new_record(Path(record) / f"sim-game{number:03d}.trx", *names,
                                    "standard")
            cut = rng.randint(2, 12) if rng.random() < 1 / 3 else None
            try:
                result = play_game(*players, record=writer, max_moves=cut)
            finally:
                rival.close()
                if writer is not None:
                    writer.close()
            played.append((colour, result.winner, result.position.moves, result.forfeit))
        if progress is not None:
            progress(games, games, "done")
    finally:
        board.close()
    return _row("standard", "sim vs alphabeta", played), answered


def _noise(board, rng):
    """Noise on the link before a game: random bytes but line ends, then a line feed, and a
    move line cut short. Returns 1 if the board answered any of it, else 0."""
    junk = bytes(rng.choice([b for b in range(256) if b not in b"\r\n"])
                 for _ in range(rng.randint(1, 40)))
    board.send_raw(junk + b"\n")
    board.send_raw(rng.choice([b"@0", b"A1", b"B2", b"-", b"@"]) + b"\n")
    try:
        board.read_line(0.5)
    except NoAnswer:
        return 0
    return 1


def soak_uart(count, folder, seed=2015, progress=None):
    """``count`` random frames on the simulated player's link, then a game (see the module
    docstring). Returns the testbench's figures (``sent``, ``received``, ``wrong``,
    ``framing_errors``, ``overruns``, ``answers``, ``team_answers``, ``team_lines``,
    ``clocks``; ``game`` and ``moves`` once the game was played) and whether it passed. The
    simulation's log goes to ``folder/uart-noise.log``."""
    from fpgatrax.sim.player_testbench import run_noise_testbench  # Verilator, fpgatrax[sim]
    folder = Path(folder).resolve()          # the simulation runs in its own folder
    folder.mkdir(parents=True, exist_ok=True)
    report, log = folder / "uart-noise.json", folder / "uart-noise.log"
    report.unlink(missing_ok=True)
    log.unlink(missing_ok=True)
    finished = threading.Event()

    def watch():            # the testbench logs its progress; the bar follows the log
        shown = None
        while not finished.wait(2):
            if progress is not None and log.exists():
                counts = re.findall(r"([\d,]+) of [\d,]+ bytes delivered", log.read_text())
                if counts and counts[-1] != shown:
                    shown = counts[-1]
                    progress(int(shown.replace(",", "")), count, "UART noise")

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        run_noise_testbench(count, seed=seed, report=report, log_file=log)
    except SystemExit:      # cocotb's runner exits when the simulator fails: the report tells
        pass
    finally:
        finished.set()
        watcher.join()
    figures = json.loads(report.read_text()) if report.exists() else {}
    passed = ("game" in figures and figures["received"] == count
              and figures["wrong"] == figures["framing_errors"] == figures["overruns"] == 0)
    if progress is not None:
        progress(count, count, "done")
    return figures, passed


def format_uart(figures, passed):
    if not figures:
        return "UART noise: the simulation ended without figures (see uart-noise.log)"
    game = (f"then a game: {figures['game']} in {figures['moves']} moves" if "game" in figures
            else "then the game failed (see uart-noise.log)")
    return (f"UART noise: {figures['sent']:,} random bytes sent, {figures['received']:,} "
            f"delivered, {figures['wrong']} of them wrong, {figures['framing_errors']} framing "
            f"errors, {figures['overruns']} overruns; {figures['answers']} lines answered (the "
            f"team code {figures['team_answers']} times for {figures['team_lines']} -T lines, "
            f"and games the noise started), {figures['clocks']:,} clocks; {game}: "
            f"{'passed' if passed else 'FAILED'}")


def format_rows(rows):
    kinds = " ".join(f"{kind:>12}" for kind in FORFEIT_KINDS)
    lines = [f"{'variant':9} {'pairing':19} {'games':>6} {'differ':>6} {'won':>6} {'drawn':>6} "
             f"{'lost':>6} {kinds}"]
    for variant, pairing, games, distinct, won, drawn, lost, forfeits in rows:
        counts = " ".join(f"{forfeits[kind]:>12}" for kind in FORFEIT_KINDS)
        lines.append(f"{variant:9} {pairing:19} {games:>6} {distinct:>6} {won:>6} {drawn:>6} "
                     f"{lost:>6} {counts}")
    return "\n".join(lines)


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m fpgatrax.host.bench.soak",
        description="The model player against every bot in every variant, both colours, "
                    "then the simulated board against alphabeta with noise on the link, "
                    "counting illegal, late, malformed and missing answers and answers to "
                    "noise (all must be zero), then a million random bytes on the simulated "
                    "player's link and a game (every byte delivered intact). Exit status 1 "
                    "if anything failed.")
    parser.add_argument("--games", type=int, default=10_000, metavar="N",
                        help="the model's games in all (default 10,000; 0: none)")
    parser.add_argument("--board-games", type=int, default=20, metavar="M",
                        help="the simulated board's games (default 20; 0: none)")
    parser.add_argument("--uart-bytes", type=int, default=1_000_000, metavar="B",
                        help="random bytes on the simulated player's link before its game "
                             "(default 1,000,000, about 5 minutes; 0: none)")
    parser.add_argument("--board", default="", metavar="SETTINGS",
                        help="the simulated board's parameters, as after sim: (default: "
                             "its simulation profile)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="J",
                        help="games at once (default: one per CPU)")
    parser.add_argument("--variants", default=",".join(VARIANT_NAMES), metavar="V,V",
                        help="the variants of the model's games, comma-separated (default: all, "
                             f"{','.join(VARIANT_NAMES)})")
    parser.add_argument("--model", default=MODEL, metavar="SETTINGS",
                        help=f"the model's settings, as after model: (default {MODEL})")
    parser.add_argument("--record", default="build/soak", metavar="DIR",
                        help="keep every game's record here (default build/soak)")
    parser.add_argument("--summarize", metavar="DIR",
                        help="play nothing: the model soak's table from the records it kept in "
                             "DIR (a soak stopped before its end, say), exit status 1 if the "
                             "model forfeited any game")
    return parser


def main(argv=None):
    args = _parser().parse_args(argv)
    if min(args.games, args.board_games, args.uart_bytes) < 0 or args.jobs < 1:
        print("error: --games, --board-games and --uart-bytes must be at least 0, --jobs at "
              "least 1",
              file=sys.stderr)
        return 2
    try:
        parse_settings(args.model)
        variants = [variant_named(name).name for name in args.variants.split(",")]
    except UserError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if args.summarize is not None:
        try:
            rows = summarize(args.summarize)
        except (OSError, RecordError) as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
        if not rows:
            print(f"error: no model soak records under {args.summarize}", file=sys.stderr)
            return 2
        print(format_rows(rows))
        failures = sum(sum(row[7].values()) for row in rows)
        print(f"{sum(row[2] for row in rows):,} games recorded in {args.summarize}; the "
              f"model's forfeits: {failures}")
        return 1 if failures else 0
    start = time.monotonic()
    rows, answered = [], 0
    if args.games:
        rows = soak_model(args.games, args.jobs, args.model, args.record, Progress(), variants)
    if args.board_games:
        row, answered = soak_board(args.board_games, args.board, record=args.record,
                                   progress=Progress())
        rows.append(row)
    uart_failed = 0
    if args.uart_bytes:
        figures, passed = soak_uart(args.uart_bytes, args.record, progress=Progress(unit="byte"))
        uart_failed = 0 if passed else 1
    if rows:
        print(format_rows(rows))
    if args.uart_bytes:
        print(format_uart(figures, passed))
    failures = sum(sum(row[7].values()) for row in rows) + answered + uart_failed
    print(f"{sum(row[2] for row in rows):,} games in {time.monotonic() - start:.0f} s "
          f"(the model: model:{args.model} on {args.jobs} process(es); the simulated board: "
          f"{args.board_games} games, noise answered {answered} times); failures (forfeits, "
          f"answers to noise, a failed UART soak): {failures}; records in {args.record}/")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
