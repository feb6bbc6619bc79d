"""Where the hardware search lost its games: the move that lost each one, and whether it could
have held there.

Reads the game records that ``python -m fpgatrax.host.bench.strength --record DIR`` keeps. For
every game the model lost, it replays the model's moves after the opening (``--skip-plies``,
the plies that were not the search's) and finds the first after which the opponent proves a
win (at once, or by a threat-space search of ``--plies`` plies within ``--trials`` trials that
sees attacks anywhere, as the 85F's does: ``proof_search`` and ``loses`` in
``host/match/model.py``). There it counts the model's
legal moves that *hold* (after which the opponent proves none), and asks whether the board's
search, and the same search with ``--budget`` trials (a board that many times faster), would
have played one of them.

A loss with holding moves at that point is a mistake of the search in place; one with none was
decided earlier, by the opponent's move before it: either an *attack* (the opponent then holds
a track one tile from a loop), the start of a forcing sequence longer than the proof search
sees, or a *quiet* move (no attack) after which every reply loses: a threat, which a search
whose attacker only attacks does not try. The split says whether the search needs a better
judgement at its horizon, a longer view of forcing play, or a view of quiet threats.

Where moves held and the board's search lost, its choice's depth and value say why: a depth
below the board's means its last iteration did not finish (the veto checks only the last), a
value of ``veto + 1 - WIN`` (-28 on the 85F) that the veto refuted every move it checked (the
choice is then the first of them; between lanes, the first in raster order), any other value
that the veto saw no win for the opponent.

    python -m fpgatrax.host.bench.losses games/          # the records of a bench run
"""

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from fpgatrax.host.match.model import DEFAULT_BOARD, loses, parse_settings, proof_search
from fpgatrax.host.match.tournament import Progress
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.notation import parse_move
from fpgatrax.host.rules.position import RED, WHITE, Position
from fpgatrax.host.rules.record import RecordError, read_record, replay
from fpgatrax.hw.search_model import candidates_in_order, holds_attack, window_of

__all__ = ["Loss", "BOOK_PLIES", "first_lost_move", "record_games", "records_parser",
           "check_skip"]

PROG = "python -m fpgatrax.host.bench.losses"
#: The plies that are not the search's with the bench's defaults: a 4-ply opening against the
#: bots, the model's first two moves drawn at random against engines.
BOOK_PLIES = 4


@dataclass
class Loss:
    """A lost game: the first of the model's moves after which it was lost (its number in the
    game, from 1), its legal moves there, those that held, whether each search held (and the
    board's choice's depth and value), and whether the opponent's move before it made an
    attack (see the module's docstring)."""
    name: str
    moves: int
    lost_at: int | None = None
    legal: int = 0
    held: int = 0
    board_holds: bool = False
    board_depth: int = 0
    board_value: int = 0
    budget_holds: bool = False
    reply_attacks: bool = False


def first_lost_move(moves, colour, refuter, skip=BOOK_PLIES):
    """The position before ``colour``'s first move past ply ``skip`` after which it is lost by
    ``refuter``'s judgement, and that move's number; (None, None) if there is none."""
    position = Position()
    for number, move in enumerate(moves, 1):
        if position.to_move == colour and number > skip:
            before = position.copy()
            if position.push(move) and loses(position, refuter):
                return before, number
        position.play(move)
    return None, None


def _analyse(name, moves, colour, settings, budget, refuter, skip):
    loss = Loss(name, len(moves))
    before, number = first_lost_move(moves, colour, refuter, skip)
    if before is None:
        return loss
    window = window_of(before, (settings.width, settings.height))
    held = []
    for move in candidates_in_order(before, window):
        if before.push(move):
            loss.legal += 1
            if not loses(before, refuter):
                held.append(move)
    loss.lost_at, loss.held = number, len(held)
    loss.reply_attacks = holds_attack(before, 1 - colour)
    board, faster = (search.choose(before.copy())
                     for search in (settings.search(), settings.search(budget)))
    loss.board_holds = board is not None and board.move in held
    loss.budget_holds = faster is not None and faster.move in held
    if board is not None:
        loss.board_depth, loss.board_value = board.depth, board.value
    return loss


def record_games(directory):
    """(name, moves, the model's colour, how it ended, the opponent's name) of every game record
    in ``directory`` that the model played (the strength bench's ``--record``)."""
    paths = sorted(Path(directory).glob("*.txt"))
    if not paths:
        raise UserError(f"no records (*.txt) in {directory}: make them with "
                        f"python -m fpgatrax.host.bench.strength --record {directory}")
    for path in paths:
        try:
            record = read_record(path)
            result = replay(record)
        except RecordError as err:
            raise UserError(str(err)) from None
        names = (record.white or "", record.black or "")
        if not any(name.startswith("model") for name in names):
            continue
        position = Position(record.variant)
        moves = []
        for text, _ in record.moves:
            moves.append(parse_move(position, text))
            position.play(moves[-1])
        colour = WHITE if names[0].startswith("model") else RED
        yield path.name, moves, colour, result, names[1 - colour]


def _lost_games(directory):
    """(name, moves, the model's colour) of every game in ``directory`` that the model lost."""
    for name, moves, colour, result, _ in record_games(directory):
        if result.winner == 1 - colour and result.how != "forfeit":
            yield name, moves, colour


def records_parser(prog, doc):
    """The command line of a tool that reads a strength run's records: the folder, the board's
    settings and the plies that were not the search's."""
    parser = argparse.ArgumentParser(prog=prog, description=doc.split("\n\n")[0])
    parser.add_argument("records", help="a folder of game records from the strength bench")
    parser.add_argument("--model", default="", metavar="SETTINGS",
                        help=f"the board's settings, as in a model: spec (default: the "
                             f"{DEFAULT_BOARD}'s, as the bench's)")
    parser.add_argument("--skip-plies", type=int, default=BOOK_PLIES, metavar="P",
                        help=f"the first P plies are not the search's: the run's "
                             f"--opening-plies against bots, twice its --random-moves against "
                             f"engines (default {BOOK_PLIES}, both the bench's defaults)")
    return parser


def check_skip(skip_plies):
    """Refuse, with a UserError, a negative ``--skip-plies``."""
    if skip_plies < 0:
        raise UserError("--skip-plies is at least 0")


def main(argv=None):
    parser = records_parser(PROG, __doc__)
    parser.add_argument("--plies", type=int, default=7,
                        help="plies of the opponent's threat-space search (default 7)")
    parser.add_argument("--trials", type=int, default=30_000,
                        help="its trial limit per position (default 30,000)")
    parser.add_argument("--budget", type=int, default=10,
                        help="the faster board: this many times the trial limit (default 10)")
    args = parser.parse_args(argv)
    try:
        settings = parse_settings(args.model)
        if args.plies < 3 or args.plies % 2 == 0 or args.trials < 1 or args.budget < 1:
            raise UserError("--plies is odd and at least 3; --trials and --budget at least 1")
        check_skip(args.skip_plies)
        games = list(_lost_games(args.records))
    except UserError as err:
        parser.exit(1, f"{PROG}: error: {err}\n")
    refuter = proof_search(args.plies, args.trials, every_attack=True)
    budget = settings.max_trials * args.budget
    progress = Progress()
    losses = []
    for done, (name, moves, colour) in enumerate(games, 1):
        progress(done - 1, len(games), name)
        losses.append(_analyse(name, moves, colour, settings, budget, refuter, args.skip_plies))
    progress(len(games), len(games), "")
    print(f"# {len(losses)} lost games in {args.records}; the model: {settings.describe()}; "
          f"the opponent's proofs: {args.plies}-ply threat-space search of every attack, "
          f"{args.trials:,} trials; the model's moves after ply {args.skip_plies}")
    print(f"{'game':28} {'moves':>5} {'lost at':>7} {'held':>9}  board  depth  value  "
          f"{args.budget}x trials  reply before")
    for loss in losses:
        if loss.lost_at is None:
            print(f"{loss.name:28} {loss.moves:5} {'-':>7}  (no move proven lost)")
            continue
        print(f"{loss.name:28} {loss.moves:5} {loss.lost_at:7} {loss.held:4} of {loss.legal:<3}"
              f"  {'held' if loss.board_holds else 'lost':5}  {loss.board_depth:5}  "
              f"{loss.board_value:5}  {'held' if loss.budget_holds else 'lost':9}  "
              f"{'attack' if loss.reply_attacks else 'quiet'}")
    found = [loss for loss in losses if loss.lost_at is not None]
    mendable = [loss for loss in found if loss.held]
    earlier = [loss for loss in found if not loss.held]
    quiet = sum(not loss.reply_attacks for loss in earlier)
    print(f"# {len(found)} of {len(losses)} losses proven at a move; {len(mendable)} of them with "
          f"moves that held there (the board's search held {sum(x.board_holds for x in found)}, "
          f"{args.budget}x its trials {sum(x.budget_holds for x in found)}); the rest, "
          f"{len(earlier)}, were decided earlier, {len(earlier) - quiet} by an attack of the "
          f"opponent's and {quiet} by a quiet move")


if __name__ == "__main__":
    sys.exit(main())
