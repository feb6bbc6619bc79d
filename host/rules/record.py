"""Game records: the plain-text file of a game's moves.

Format (what ``fpgatrax replay`` reads and the referee writes)::

    Alice vs Bob            <- optional first line: WHITE vs BLACK
    # variant: 8x8          <- optional; standard when absent
    @0/ B1+                 <- moves, separated by spaces or newlines
    B2\\   # 0.012 s         <- '#' starts a comment that runs to the end of the line
    # forfeit: black late answer (1.52 s, limit 1 s)

Comments are free text, except three directives: ``# variant: NAME``, ``# notation: old``
(the moves are in the notation of records before 1998, ``oldnotation.py``; ``new``, the
default, is ``notation.py``'s) and ``# forfeit: COLOUR REASON``, the last recording that a
player lost without a legal move (late, malformed, illegal, disconnected). CR LF line ends
are accepted. The writer flushes and syncs every line, so a match that is interrupted still
leaves a record that replays up to its last move.
"""

import os
import re
from dataclasses import dataclass, field
from typing import Self

from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.notation import NotationError, format_move, parse_move
from fpgatrax.host.rules.oldnotation import format_old_move, parse_old_move
from fpgatrax.host.rules.position import IllegalMove, Position
from fpgatrax.host.rules.variant import VARIANT_NAMES, VARIANTS, Variant

__all__ = ["RecordError", "Record", "RecordWriter", "read_record", "parse_record", "replay",
           "record_text", "moves_text", "COLOUR_NAMES", "NOTATIONS"]

COLOUR_NAMES = ("white", "black")
#: The notations a record may be in: each one's (parse, format) of a move on a position.
NOTATIONS = {"new": (parse_move, format_move), "old": (parse_old_move, format_old_move)}
_HEADER = re.compile(r"\s*(.*?)\s+vs\.?\s+(.*?)\s*")
_DIRECTIVE = re.compile(r"\s*(variant|forfeit|notation)\s*:\s*(.*?)\s*", re.IGNORECASE)


class RecordError(UserError):
    """A record that cannot be read or replayed; the message names the line and move."""


@dataclass
class Record:
    white: str | None = None
    black: str | None = None
    variant: str = "standard"
    notation: str = "new"
    moves: list[tuple[str, int]] = field(default_factory=list)   # (text, line number)
    forfeit: tuple[int, str] | None = None                       # (WHITE or RED, reason)


def read_record(path: str | os.PathLike[str]) -> Record:
    try:
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    except OSError as err:
        raise RecordError(f"{path}: {err.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not a text file") from None
    return parse_record(text, name=str(path))


def parse_record(text: str, name: str = "<record>") -> Record:
    record = Record()
    first_content = True
    for number, line in enumerate(text.replace("\r", "").split("\n"), start=1):
        body, _, comment = line.partition("#")
        directive = _DIRECTIVE.fullmatch(comment) if comment else None
        if directive:
            _apply_directive(record, directive, f"{name}:{number}")
        if not body.strip():
            continue
        header = _HEADER.fullmatch(body) if first_content else None
        first_content = False
        if header:
            record.white, record.black = header.groups()
            continue
        for token in body.split():
            record.moves.append((token, number))
    return record


def _apply_directive(record: Record, match: re.Match[str], where: str) -> None:
    kind, value = match.group(1).lower(), match.group(2)
    if kind == "variant":
        if value not in VARIANTS:
            raise RecordError(f"{where}: unknown variant {value!r} ({', '.join(VARIANT_NAMES)})")
        record.variant = value
    elif kind == "notation":
        if value.lower() not in NOTATIONS:
            raise RecordError(f"{where}: the notation is old or new, not {value!r}")
        record.notation = value.lower()
    else:
        colour, _, reason = value.partition(" ")
        if colour.lower() not in COLOUR_NAMES:
            raise RecordError(f"{where}: a forfeit names 'white' or 'black', not {colour!r}")
        record.forfeit = (COLOUR_NAMES.index(colour.lower()), reason.strip())


@dataclass
class Replay:
    position: Position
    winner: int | None    # WHITE, RED or None
    how: str              # loop, line, draw, forfeit, unfinished
    move_number: int      # the move that decided it (for unfinished: moves played)
    reason: str = ""

    def summary(self) -> str:
        if self.how == "unfinished":
            return f"unfinished after {self.move_number} moves"
        if self.how == "draw":
            return f"draw on move {self.move_number} (no legal move left)"
        assert self.winner is not None, "only an unfinished game or a draw has no winner"
        who = COLOUR_NAMES[self.winner]
        if self.how == "forfeit":
            loser = COLOUR_NAMES[1 - self.winner]
            why = f": {self.reason}" if self.reason else ""
            return f"{who} wins by forfeit on move {self.move_number} ({loser}{why})"
        return f"{who} wins by {self.how} on move {self.move_number}"


def replay(record: Record, variant: str | Variant | None = None,
           notation: str | None = None) -> Replay:
    """Play every move of ``record`` (in ``notation``, by default the record's) on a fresh
    position, checking each; return a Replay."""
    position = Position(variant or record.variant)
    parse, _ = NOTATIONS[notation or record.notation]
    for number, (text, line) in enumerate(record.moves, start=1):
        try:
            move = parse(position, text)
            position.play(move)
        except (NotationError, IllegalMove) as err:
            raise RecordError(f"line {line}, move {number} ({text}): {err}") from None
    played = len(position.moves)
    if position.outcome is not None:
        o = position.outcome
        if record.forfeit is not None:
            raise RecordError(f"the record has a forfeit after the game was won on move "
                              f"{o.move_number}")
        return Replay(position, o.winner, o.how, o.move_number)
    if record.forfeit is not None:
        loser, reason = record.forfeit
        return Replay(position, 1 - loser, "forfeit", played + 1, reason)
    return Replay(position, None, "unfinished", played)


class RecordWriter:
    """Writes a record as a game goes, each line flushed and synced to disk at once."""

    def __init__(self, path: str | os.PathLike[str], white: str, black: str,
                 variant: str | Variant = "standard") -> None:
        self._file = open(path, "w", encoding="utf-8", newline="\n")
        self._write(f"{white} vs {black}")
        if str(variant) != "standard":
            self._write(f"# variant: {variant}")

    def _write(self, line: str) -> None:
        self._file.write(line + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def move(self, text: str, note: str = "") -> None:
        self._write(f"{text}  # {note}" if note else text)

    def comment(self, text: str) -> None:
        self._write(f"# {text}")

    def forfeit(self, colour: int, reason: str) -> None:
        self._write(f"# forfeit: {COLOUR_NAMES[colour]} {reason}")

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def moves_text(position: Position, notation: str = "new") -> list[str]:
    """The text of every move of ``position`` in ``notation``, in order (a game's record
    body)."""
    _, write = NOTATIONS[notation]
    replayed = Position(position.variant)
    texts = []
    for move in position.moves:
        texts.append(write(replayed, move))
        replayed.play(move)
    return texts


def record_text(record: Record, game: Replay, notation: str) -> str:
    """``record``, replayed as ``game``, written out again in ``notation``: its header, its
    variant, its moves ten to a line and its forfeit."""
    lines = []
    if record.white or record.black:
        lines.append(f"{record.white} vs {record.black}")
    if game.position.variant.name != "standard":
        lines.append(f"# variant: {game.position.variant}")
    if notation != "new":
        lines.append(f"# notation: {notation}")
    texts = moves_text(game.position, notation)
    lines += [" ".join(texts[i:i + 10]) for i in range(0, len(texts), 10)]
    if record.forfeit is not None:
        colour, reason = record.forfeit
        lines.append(f"# forfeit: {COLOUR_NAMES[colour]} {reason}".rstrip())
    return "\n".join(lines) + "\n"

