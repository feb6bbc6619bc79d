"""Subcommands for playing: ``match``, ``tournament``, ``relay``, ``show`` and ``bot``."""

import argparse
import sys
import threading
from pathlib import Path

from fpgatrax.host.bots import BOTS, bots_for, make_bot
from fpgatrax.host.bots.session import BotSession, serve
from fpgatrax.host.cli.engine import add_notation_option
from fpgatrax.host.link.transport import TcpTransport
from fpgatrax.host.match.model import ModelSession, parse_settings
from fpgatrax.host.match.players import SPEC_HELP, PlayerOptions, open_player
from fpgatrax.host.match.referee import new_record, play_game, record_paths
from fpgatrax.host.match.relay import RelaySettings, parse_address, relay
from fpgatrax.host.match.tournament import (
    Entrant,
    Progress,
    format_table,
    parallel_round_robin,
    round_robin,
    write_results,
)
from fpgatrax.host.pictures.svg import render_svg
from fpgatrax.host.pictures.text import render_text
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.position import RED, WHITE
from fpgatrax.host.rules.record import COLOUR_NAMES, read_record, replay
from fpgatrax.host.rules.variant import VARIANT_NAMES

__all__ = ["register", "at_least"]


def register(subparsers):
    p = subparsers.add_parser(
        "match", help="play games between two players and judge them",
        description="Play games between two players, judging every answer with the reference "
                    "engine: a late, malformed or illegal answer, or a lost connection, forfeits "
                    "the game. The board is printed after each move. A player SPEC is "
                    f"{SPEC_HELP}.",
        epilog="examples: fpgatrax match --white alphabeta --black greedy; "
               "fpgatrax match --white /dev/ttyUSB0 --black 'cmd:fpgatrax bot greedy' "
               "--games 10 --record games/")
    p.add_argument("--white", required=True, metavar="SPEC", help="the player who moves first")
    p.add_argument("--black", required=True, metavar="SPEC", help="the other player")
    p.add_argument("--games", type=_positive, default=1, metavar="N",
                   help="number of games, colours kept (default 1)")
    p.add_argument("--quiet", action="store_true", help="print moves and results, not boards")
    p.add_argument("--web", type=_port, nargs="?", const=8000, metavar="PORT",
                   help="show the games live on a web page at http://127.0.0.1:PORT/ "
                        "(default port 8000), left up after the match until Ctrl-C")
    _add_game_options(p)
    p.set_defaults(run=run_match)

    p = subparsers.add_parser(
        "watch", help="show the game records of a folder on a web page, live",
        description="Serve a web page showing the game records in RECORD-DIR (its *.txt "
                    "files): the board as an SVG picture, the move list, the players and the "
                    "result with the winning track, stepping through any game move by move. "
                    "The folder is read again twice a second, so the page follows a match "
                    "that writes its records there (match --record DIR) without a reload. "
                    "A puzzle file there (fpgatrax puzzle) is shown too: its board, then its "
                    "solution.")
    p.add_argument("folder", metavar="RECORD-DIR", help="the folder of records")
    p.add_argument("--port", type=_port, default=8000, help="the page's port (default 8000)")
    p.set_defaults(run=run_watch)

    p = subparsers.add_parser(
        "tournament", help="round robin between players, with a result table",
        description="Every pair of players meets, each with both colours, N times (--games) "
                    "per colour; then a table gives wins, draws, losses, score, an Elo estimate "
                    "with its 95 % interval and each player's forfeits by reason; with "
                    "--record, the games also go to a CSV file and the table and games to a "
                    f"JSON file beside the records. A player SPEC is {SPEC_HELP}.")
    p.add_argument("players", nargs="*", metavar="SPEC",
                   help="the players (default: every bot that plays the variant: "
                        f"{' '.join(bots_for('standard'))}; perfect too in mini)")
    p.add_argument("--games", type=_positive, default=2, metavar="N",
                   help="games per pairing and colour (default 2)")
    p.add_argument("--jobs", type=_positive, default=1, metavar="J",
                   help="games at once, each in a process of its own that opens its own "
                        "players (bots, cmd:, model, sim; default 1)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="play the games on the Dask cluster whose scheduler is at ADDRESS "
                        "(tcp://HOST:8786; the optional fpgatrax[cluster]), as --jobs does")
    _add_game_options(p)
    p.set_defaults(run=run_tournament)

    p = subparsers.add_parser(
        "relay", help="play a local player in games judged by a server elsewhere, over TCP",
        description="Connect to a referee or competition server at HOST:PORT as a TCP client "
                    "and relay every protocol line between it and a local PLAYER, game after "
                    "game; the server is the judge. When the server goes away or cannot be "
                    "reached, connect again after a pause that doubles from 1 s to 30 s. A "
                    f"PLAYER is {SPEC_HELP} (not tcp:).",
        epilog="examples: fpgatrax relay trax.example.org:5000 /dev/ttyUSB0 -T 42; "
               "fpgatrax relay localhost:5000 sim --games 2")
    p.add_argument("server", metavar="HOST:PORT", help="the server to connect to")
    p.add_argument("player", metavar="PLAYER", help="the local player")
    p.add_argument("-T", "--team", metavar="CODE",
                   help="answer the server's -T with this team code (default: the player "
                        "answers it)")
    p.add_argument("--games", type=_positive, metavar="N",
                   help="stop after N games (default: relay until interrupted)")
    p.add_argument("--answer-time", type=_seconds, default=60.0, metavar="S",
                   help="how long to wait for the player's answer before reporting it "
                        "(default 60; the server keeps its own time limit)")
    p.add_argument("--retries", type=at_least(0), metavar="N",
                   help="give up after N failed connections in a row (default: never)")
    p.add_argument("--variant", choices=VARIANT_NAMES, default="standard",
                   help="rules the games are played by (default standard)")
    p.add_argument("--baud", type=_positive, default=19200, metavar="B",
                   help="serial baud rate (default 19200)")
    _add_bot_options(p)
    p.set_defaults(run=run_relay)

    p = subparsers.add_parser(
        "show", help="draw the position of a game record, as text or SVG",
        description="Replay a game record (checking every move) and show the position after "
                    "move N (default: the last), as text with notation coordinates, or as an "
                    "SVG picture with --svg.")
    p.add_argument("record", help="the record file")
    p.add_argument("--move", type=_positive, metavar="N", help="show the position after move N")
    p.add_argument("--svg", metavar="FILE", help="write an SVG picture to FILE ('-': stdout)")
    p.add_argument("--variant", choices=VARIANT_NAMES, help="override the record's variant")
    add_notation_option(p)
    p.set_defaults(run=run_show)

    p = subparsers.add_parser(
        "bot", help="run a software bot as a protocol player on stdin/stdout",
        description="Run a bot as a standalone player of the competition protocol on "
                    "stdin/stdout, so that any referee can play it, e.g. "
                    "fpgatrax match --white 'cmd:fpgatrax bot greedy' --black random. "
                    "'model' (or model:board=NAME, model:depth=D,max_trials=N,...) is the "
                    "hardware player's search at Python speed; it answers as soon as it has "
                    "chosen, so a referee's clock times Python, not the board.")
    p.add_argument("name", metavar="NAME",
                   help=f"which bot: {', '.join(BOTS)} or model[:SETTINGS]")
    p.add_argument("--variant", choices=VARIANT_NAMES, default="standard")
    p.add_argument("--team", default="PY", help="the answer to -T (default PY)")
    _add_bot_options(p)
    p.set_defaults(run=run_bot)


def _add_bot_options(p):
    p.add_argument("--seed", type=int, help="seed of the bots' random choices (default: random)")
    p.add_argument("--think", type=_seconds, metavar="S",
                   help="alphabeta's thinking time per move (default 0.25 s)")
    p.add_argument("--depth", type=_positive, metavar="N",
                   help="alphabeta searches N plies deep; without --think it takes the time "
                        "that needs, which makes games reproducible")


def _add_game_options(p):
    p.add_argument("--variant", choices=VARIANT_NAMES, default="standard",
                   help="rules (default standard)")
    p.add_argument("--time", type=_seconds, default=1.0, metavar="S",
                   help="time limit per answer in seconds (default 1)")
    p.add_argument("--baud", type=_positive, default=19200, metavar="B",
                   help="serial baud rate (default 19200)")
    p.add_argument("--record", metavar="DIR", help="write one record file per game into DIR")
    p.add_argument("--handshake", action="store_true",
                   help="send -T before each game and record the team codes")
    p.add_argument("--max-moves", type=_positive, metavar="N",
                   help="stop a game after N moves, unfinished (default: no limit)")
    p.add_argument("--fresh-process", action="store_true",
                   help="start every cmd: program afresh for each game, for engines that keep "
                        "the last game's state (one that exits after a game is restarted "
                        "anyway)")
    p.add_argument("--startup", type=_non_negative, default=2.0, metavar="S",
                   help="seconds a cmd: program has, once started, before a game's first line "
                        "goes to it, so that its start is not charged to its first answer "
                        "(default 2)")
    _add_bot_options(p)


def at_least(least):
    """An argparse type: a whole number of at least ``least``."""
    def whole_number(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}")
        return value
    return whole_number


_positive = at_least(1)


def _seconds(text, at_least_zero=False):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (value >= 0 if at_least_zero else value > 0):
        raise argparse.ArgumentTypeError("must be at least 0" if at_least_zero
                                         else "must be more than 0")
    return value


def _non_negative(text):
    return _seconds(text, at_least_zero=True)


def _options(args, index):
    """The PlayerOptions of the ``index``-th player: each bot gets its own seed."""
    seed = None if args.seed is None else args.seed + index
    return PlayerOptions(args.variant, args.baud, seed, args.think, args.depth,
                         args.fresh_process, startup=args.startup)


def _game_options(args):
    return dict(variant=args.variant, time_limit=args.time, handshake=args.handshake,
                max_moves=args.max_moves)


def _open_all(specs, args):
    """Open every player (in order), or none: a failure closes those already open."""
    players = []
    try:
        for index, spec in enumerate(specs):
            players.append(open_player(spec, _options(args, index)))
            if isinstance(players[-1], TcpTransport):
                print(f"{spec}: waiting for the engine to connect to TCP port "
                      f"{players[-1].port}", file=sys.stderr)
    except BaseException:
        _close_all(players)
        raise
    return players


def _close_all(players):
    for transport in players:
        transport.close()


def run_relay(args):
    address = parse_address(args.server)
    if args.player.partition(":")[0] == "tcp":
        raise UserError("the relay's player is local: a tcp: player would wait for a "
                        "connection of its own")
    options = PlayerOptions(args.variant, args.baud, args.seed, args.think, args.depth)
    player = open_player(args.player, options)
    settings = RelaySettings(team=args.team, games=args.games, variant=args.variant,
                             answer_time=args.answer_time, retries=args.retries)
    try:
        played = relay(address, player, settings, log=lambda text: print(text, flush=True))
    finally:
        player.close()
    print(f"relay: {played} game{'s' if played != 1 else ''} played")


def _port(text):
    port = at_least(0)(text)
    if port > 65535:
        raise argparse.ArgumentTypeError("a port is 0 to 65535")
    return port


def _live_view(port):
    """The live view's games and its running server on ``port``."""
    try:        # imported on use: aiohttp is the optional fpgatrax[web]
        from fpgatrax.host.match.live import LiveGames, LiveServer
    except ModuleNotFoundError as missing:
        raise UserError(f"the live view is not installed (no module {missing.name!r}): "
                        "pip install 'fpgatrax[web]'") from None
    games = LiveGames()
    server = LiveServer(games, port).start()
    print(f"live view: {server.url}", flush=True)
    return games, server


def run_watch(args):
    from fpgatrax.host.match.live import watch_folder
    folder = Path(args.folder)
    if not folder.is_dir():
        raise UserError(f"{folder} is not a folder")
    games, server = _live_view(args.port)
    try:
        watch_folder(folder, games, threading.Event())
    finally:
        server.stop()


def run_match(args):
    if args.white == args.black and args.white.partition(":")[0] not in (*BOTS, "cmd"):
        raise UserError(f"white and black are the same player {args.white!r}")
    record_path = record_paths(args.record)
    live, server = _live_view(args.web) if args.web is not None else (None, None)
    players = _open_all([args.white, args.black], args)
    ansi = sys.stdout.isatty()
    tally = {WHITE: 0, RED: 0, None: 0}
    game = 0

    def show(position, colour, text, timing):
        print(f"{len(position.moves)}. {COLOUR_NAMES[colour]} {text}  ({timing})")
        if not args.quiet:
            print(render_text(position, ansi=ansi) + "\n")
        if live is not None:
            live.move(game, text, timing)

    try:
        for number in range(1, args.games + 1):
            if args.games > 1:
                print(f"game {number} of {args.games}")
            path = record_path(number) if record_path else None
            writer = new_record(path, args.white, args.black, args.variant) if path else None
            if live is not None:
                game = live.start(args.white, args.black, args.variant)
            try:
                result = play_game(*players, record=writer, on_move=show, **_game_options(args))
            finally:
                if writer is not None:
                    writer.close()
            if live is not None:
                live.finish(game, result.summary())
            for colour, note in result.notes.items():
                print(f"{COLOUR_NAMES[colour]}: {note}")
            for colour, code in result.teams.items():
                print(f"{COLOUR_NAMES[colour]} team code: {code}")
            print(result.summary())
            if path:
                print(f"record: {path}")
            tally[result.winner] += 1
    finally:
        _close_all(players)
    if args.games > 1:
        print(f"{args.white} (white) {tally[WHITE]} wins, {args.black} (black) {tally[RED]} "
              f"wins, {tally[None]} drawn or unfinished")
    if server is not None:
        print(f"live view: {server.url} stays up until Ctrl-C", flush=True)
        try:
            threading.Event().wait()
        finally:
            server.stop()


def run_tournament(args):
    args.players = args.players or bots_for(args.variant)
    if len(args.players) < 2:
        raise UserError("a tournament needs at least two players")
    if len(set(args.players)) != len(args.players):
        raise UserError("each player may be named once")
    record_path = record_paths(args.record)
    if args.jobs > 1 or args.cluster:
        alone = [s for s in args.players if s.partition(":")[0] not in (*BOTS, "cmd", "model",
                                                                         "sim")]
        if alone:
            raise UserError(f"--jobs needs players that every game can open for itself (bots, "
                            f"cmd:, model, sim), not {', '.join(alone)}")
        entrants = [Entrant(spec, spec, _options(args, index))
                    for index, spec in enumerate(args.players)]
        table, results = parallel_round_robin(entrants, args.games, args.jobs, record_path,
                                              Progress(), args.cluster, **_game_options(args))
    else:
        players = _open_all(args.players, args)
        try:
            named = dict(zip(args.players, players, strict=True))
            table, results = round_robin(named, args.games, record_path, Progress(),
                                         **_game_options(args))
        finally:
            _close_all(players)
    print(format_table(table))
    if record_path is not None:
        first = Path(record_path(1))
        stem = first.with_name(first.name.removesuffix("-001.txt"))
        for path in write_results(stem, table, results):
            print(f"results: {path}")


def run_show(args):
    record = read_record(args.record)
    if args.move is not None:
        if args.move > len(record.moves):
            raise UserError(f"the record has {len(record.moves)} moves, not {args.move}")
        record.moves = record.moves[:args.move]
        record.forfeit = None
    result = replay(record, args.variant, args.notation)
    if args.svg == "-":
        sys.stdout.write(render_svg(result.position))
        return
    if args.svg:
        try:
            Path(args.svg).write_text(render_svg(result.position), encoding="utf-8")
        except OSError as err:
            raise UserError(f"cannot write {args.svg}: {err.strerror}") from None
    else:
        print(render_text(result.position, ansi=sys.stdout.isatty()))
    print(result.summary())


def run_bot(args):
    kind, _, settings = args.name.partition(":")
    if kind == "model":
        session = ModelSession(parse_settings(settings, seed=args.seed), args.variant,
                               team=args.team)
    elif args.name in BOTS:
        session = BotSession(make_bot(args.name, args.seed, args.think, args.depth),
                             args.variant, args.team)
    else:
        raise UserError(f"unknown bot {args.name!r}: give {', '.join(BOTS)} or model")
    serve(session)
