"""Subcommands of the reference engine: ``perft``, ``replay`` and ``convert``."""

import sys
import time
from pathlib import Path

from fpgatrax.host.pictures.text import render_text
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.perft import perft
from fpgatrax.host.rules.position import Position
from fpgatrax.host.rules.record import NOTATIONS, read_record, record_text, replay
from fpgatrax.host.rules.variant import VARIANT_NAMES

__all__ = ["register"]


def register(subparsers):
    p = subparsers.add_parser(
        "perft", help="count legal move sequences (the move generator's self-check)",
        description="Count the legal move sequences of length DEPTH from the empty board. A game "
                    "ends at a win unless --through-wins is given. Depth 5 takes about a second.")
    p.add_argument("depth", type=_depth, help="sequence length, 0 to 8")
    p.add_argument("--variant", choices=VARIANT_NAMES, default="standard")
    p.add_argument("--through-wins", action="store_true",
                   help="keep playing past won positions instead of ending the game there")
    p.add_argument("--divide", action="store_true",
                   help="also print the count under each first move")
    p.set_defaults(run=run_perft)

    p = subparsers.add_parser(
        "replay", help="check a game record move by move and print its outcome",
        description="Replay a game record (moves separated by spaces or newlines, an optional "
                    "'WHITE vs BLACK' first line, '#' comments), checking every move with the "
                    "reference engine. Prints the winner, how (loop, line, forfeit, draw, "
                    "unfinished) and on which move; exits 1 on a bad or illegal record.")
    p.add_argument("record", help="the record file")
    p.add_argument("--variant", choices=VARIANT_NAMES, help="override the record's variant")
    add_notation_option(p)
    p.add_argument("--show", action="store_true", help="print the final position")
    p.set_defaults(run=run_replay)

    p = subparsers.add_parser(
        "convert", help="write a game record in the other notation (old or new)",
        description="Replay a game record, checking every move, and write it in the notation "
                    "of records before 1998 (A1C, B1U, 1AS: docs/notation.md) or in the "
                    "current one (@0/, B1+), to a file or stdout.")
    p.add_argument("record", help="the record file")
    p.add_argument("--to", choices=list(NOTATIONS),
                   help="the notation to write (default: the one the record is not in)")
    add_notation_option(p)
    p.add_argument("--variant", choices=VARIANT_NAMES, help="override the record's variant")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: stdout)")
    p.set_defaults(run=run_convert)


def add_notation_option(p):
    p.add_argument("--notation", choices=list(NOTATIONS),
                   help="the notation the record's moves are in (default: its '# notation:' "
                        "directive, else new)")


def _depth(text):
    import argparse
    try:
        depth = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= depth <= 8:
        raise argparse.ArgumentTypeError("depth must be 0 to 8")
    return depth


def run_perft(args):
    start = time.perf_counter()
    position = Position(args.variant)
    if args.divide:
        from fpgatrax.host.rules.notation import format_move
        for move in position.legal_moves():
            child = position.copy()
            child.play(move)
            count = 0 if child.outcome and not args.through_wins else \
                perft(args.depth - 1, child, args.through_wins)
            print(f"{format_move(position, move)}: {count}")
    total = perft(args.depth, position, args.through_wins)
    seconds = time.perf_counter() - start
    print(total)
    print(f"# {seconds:.2f} s, {total / seconds:,.0f} leaves/s" if seconds > 0 else "",
          file=sys.stderr)


def run_convert(args):
    record = read_record(args.record)
    game = replay(record, args.variant, args.notation)
    source = args.notation or record.notation
    text = record_text(record, game, args.to or ("new" if source == "old" else "old"))
    if not args.output:
        sys.stdout.write(text)
        return
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as err:
        raise UserError(f"cannot write {args.output}: {err.strerror}") from None


def run_replay(args):
    record = read_record(args.record)
    result = replay(record, args.variant, args.notation)
    if record.white or record.black:
        print(f"{record.white} (white) vs {record.black} (black)")
    print(result.summary())
    if args.show:
        print(render_text(result.position, ansi=sys.stdout.isatty()))
