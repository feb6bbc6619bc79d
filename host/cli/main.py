"""The ``fpgatrax`` command: one entry point, a subcommand per job.

Each subcommand lives in the module named for what it does and registers itself through a
``register(subparsers)`` function; ``COMMAND_MODULES`` lists them. A user mistake (a bad file, an
illegal move, a port that does not open) is raised as a ``UserError`` (``host/rules/errors.py``)
at whatever layer finds it, and printed here as one line, never as a traceback.
"""

import argparse
import importlib
import sys

from fpgatrax.host.rules.errors import UserError

__all__ = ["main"]

COMMAND_MODULES = ["engine", "match", "puzzle", "build"]


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
    except UserError as err:
        print(f"fpgatrax {args.command}: error: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:         # the output's reader stopped early (| head): not an error
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print(f"fpgatrax {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
