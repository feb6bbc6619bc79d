"""The ``fpgatrax`` command: one entry point, a subcommand per job.

Each subcommand lives in the module named for what it does and registers itself through a
``register(subparsers)`` function; ``COMMAND_MODULES`` lists them. A user mistake (a bad file, an
illegal move, a port that does not open) is raised as ``UserError`` or one of the engine's own
errors and printed as one line, never as a traceback.
"""

import argparse
import importlib
import sys

from .notation import NotationError
from .position import IllegalMove
from .record import RecordError

__all__ = ["UserError", "main"]

COMMAND_MODULES = ["commands_engine", "commands_match", "commands_build"]


class UserError(Exception):
    """A mistake of the user's, reported as one line and exit status 1."""


def build_parser():
    parser = argparse.ArgumentParser(
        prog="fpgatrax",
        description="A hardware Trax player: reference engine, referee, bots and gateware tools.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(f"{__package__}.{name}").register(subparsers)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        return args.run(args) or 0
    except (UserError, RecordError, NotationError, IllegalMove) as err:
        print(f"fpgatrax {args.command}: error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"fpgatrax {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
