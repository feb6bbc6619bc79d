"""The referee: plays one game of ``docs/protocol.md`` between two transports and judges it.

The game goes: optionally ``-T`` to each player (its team code is recorded), ``-B`` to black and
``-W`` to white, then each answer is judged with the reference engine and, if the game goes on,
forwarded unchanged to the other player. Every answer must arrive within the time limit by the
player's own clock (wall time, or simulated time for a simulated board) and be a legal move.
The game ends on a win (loop or line), a draw (8x8, no legal move left), a forfeit, or after
``max_moves`` moves if a limit is set.

The record is written as the game goes, one synced line per move with its time, so a match cut
short still leaves a record that ``fpgatrax replay`` reads. A forfeit leaves the offending answer
as a comment and a ``# forfeit: COLOUR REASON`` directive.
"""

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from fpgatrax.host.link.transport import Disconnected, LineTooLong, NoAnswer, Transport
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.notation import NotationError, parse_move
from fpgatrax.host.rules.position import RED, WHITE, IllegalMove, Outcome, Position
from fpgatrax.host.rules.record import COLOUR_NAMES, RecordWriter, Replay
from fpgatrax.host.rules.variant import Variant

__all__ = ["FORFEIT_KINDS", "GameResult", "play_game", "new_record"]

# Why a player can forfeit, in the order result tables list them.
FORFEIT_KINDS = ("late", "malformed", "illegal", "disconnected")


@dataclass
class GameResult:
    """How a game ended. ``how`` is loop, line, draw, forfeit or unfinished; for a forfeit,
    ``forfeit`` is its kind (one of FORFEIT_KINDS) and ``reason`` says what happened."""
    position: Position
    winner: int | None             # WHITE, RED or None
    how: str
    move_number: int
    reason: str = ""
    forfeit: str | None = None
    teams: dict[int, str] = field(default_factory=dict)    # colour -> team code, after -T
    notes: dict[int, str] = field(default_factory=dict)    # colour -> how its link was renewed

    def summary(self) -> str:
        return Replay(self.position, self.winner, self.how, self.move_number,
                      self.reason).summary()


class _Forfeit(Exception):
    def __init__(self, kind: str, reason: str, text: str | None = None) -> None:
        super().__init__(reason)
        self.kind, self.reason, self.text = kind, reason, text


def play_game(white: Transport, black: Transport, variant: str | Variant = "standard",
              time_limit: float = 1.0, record: RecordWriter | None = None,
              handshake: bool = False, max_moves: int | None = None,
              on_move: Callable[[Position, int, str, str], object] | None = None) -> GameResult:
    """Play one game between the transports ``white`` and ``black`` and return its GameResult.

    ``record`` is a ``RecordWriter`` (or None); ``on_move(position, colour, text, timing)`` is
    called after each legal move, for display.
    """
    players = (white, black)
    position = Position(variant)
    teams: dict[int, str] = {}
    notes: dict[int, str] = {}
    colour = WHITE
    try:
        for colour in (WHITE, RED):
            note = _new_game(players[colour])
            if note is not None:
                notes[colour] = note
                _note(record, f"{COLOUR_NAMES[colour]}: {note}")
        if handshake:
            for colour in (WHITE, RED):
                teams[colour] = _ask(players[colour], "-T", time_limit)[0]
                _note(record, f"{COLOUR_NAMES[colour]} team: {teams[colour]}")
        colour = RED
        _send(players[RED], "-B")
        colour = WHITE
        line = "-W"
        while max_moves is None or len(position.moves) < max_moves:
            text, timing = _ask(players[colour], line, time_limit)
            outcome = _judge(position, text)
            if record is not None:
                record.move(text, timing)
            if on_move is not None:
                on_move(position, colour, text, timing)
            if outcome is not None:
                return GameResult(position, outcome.winner, outcome.how, outcome.move_number,
                                  teams=teams, notes=notes)
            colour, line = 1 - colour, text
        _note(record, f"stopped after {max_moves} moves")
        return GameResult(position, None, "unfinished", len(position.moves), teams=teams,
                          notes=notes)
    except _Forfeit as forfeit:
        if forfeit.text is not None:
            _note(record, f"{COLOUR_NAMES[colour]} answered {forfeit.text!r}")
        if record is not None:
            record.forfeit(colour, forfeit.reason)
        return GameResult(position, 1 - colour, "forfeit", len(position.moves) + 1,
                          forfeit.reason, forfeit.kind, teams, notes)


def new_record(path: str | os.PathLike[str], white: str, black: str,
               variant: str | Variant = "standard") -> RecordWriter:
    """A RecordWriter for a game between the players named ``white`` and ``black`` (a player
    spec may hold a '#', which would start a comment in the header line)."""
    return RecordWriter(path, white.replace("#", "_"), black.replace("#", "_"), variant)


def record_paths(directory: str | None) -> Callable[[int], Path] | None:
    """A function giving the record file of game ``number`` in ``directory`` (made if need be;
    the names start with the time, so that runs do not overwrite each other), or None without
    a directory."""
    if not directory:
        return None
    folder = Path(directory)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise UserError(f"cannot create {folder}: {err.strerror}") from None
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return lambda number: folder / f"{stamp}-{number:03d}.txt"


def record_number(name: str) -> int | None:
    """The game's number in the name of a record file that :func:`record_paths` made (None for
    another name): tools that read a run's records pair games by it."""
    stamp, _, number = Path(name).stem.rpartition("-")
    return int(number) if stamp and number.isdigit() else None


def _note(record: RecordWriter | None, text: str) -> None:
    if record is not None:
        record.comment(text)


def _new_game(player: Transport) -> str | None:
    """Let the player's link prepare for a new game (a program that exited is started again);
    a link that cannot be renewed forfeits the game."""
    try:
        return player.new_game()
    except Disconnected as err:
        raise _Forfeit("disconnected", f"disconnected: {err}") from None


def _send(player: Transport, line: str) -> None:
    """Send ``line``, first waiting for the player to be there (a TCP engine connects) and
    dropping anything it sent unasked, such as an answer that came too late for the last game:
    what is read next is an answer to this line."""
    try:
        player.connect()
        player.discard_input()
        player.send_line(line)
    except Disconnected as err:
        raise _Forfeit("disconnected", f"disconnected: {err}") from None


def _ask(player: Transport, line: str, limit: float) -> tuple[str, str]:
    """Send ``line`` and return (answer, timing text), or raise _Forfeit: no answer or a late
    one by the player's clock, a line too long, a closed link."""
    _send(player, line)
    clock = player.clock
    wall_start, start = time.monotonic(), clock.now()
    try:
        text = player.read_line(clock.wall_timeout(limit))
    except NoAnswer:
        raise _Forfeit("late", f"late: no answer to {line} within {limit:g} s") from None
    except LineTooLong as err:
        raise _Forfeit("malformed", f"malformed: {err}") from None
    except Disconnected as err:
        raise _Forfeit("disconnected", f"disconnected: {err}") from None
    elapsed, wall = clock.now() - start, time.monotonic() - wall_start
    timing = f"{elapsed:.3f} s"
    if clock.simulated:
        timing += f" simulated, {wall:.2f} s wall"
    if elapsed > limit:
        raise _Forfeit("late", f"late: {text} after {timing} (limit {limit:g} s)", text)
    return text, timing


def _judge(position: Position, text: str) -> Outcome | None:
    """Play ``text`` on ``position`` and return the outcome, or raise _Forfeit saying why the
    reference engine rejects it."""
    try:
        move = parse_move(position, text)
    except NotationError as err:
        raise _Forfeit("malformed", f"malformed: {err}", text) from None
    except IllegalMove as err:
        raise _Forfeit("illegal", f"illegal move {text}: {err}", text) from None
    try:
        return position.play(move)
    except IllegalMove as err:
        raise _Forfeit("illegal", f"illegal move {text}: {err}", text) from None
