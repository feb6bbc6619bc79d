"""A bot as a protocol player: the player's side of ``docs/protocol.md``.

``BotSession.respond`` takes each line the referee sends and returns the bot's answer (or None).
The same session serves a bot in the referee's own process (through a ``FunctionTransport``) and
a bot run as a standalone program on stdin/stdout (``fpgatrax bot NAME``), so any referee can
play it and the referee's program transport is tested against a real child process.
"""

import sys

from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.notation import format_move, parse_move
from fpgatrax.host.rules.position import Position

__all__ = ["BotSession", "serve"]


class BotSession:
    """Keeps the game position between lines. ``-W``/``-B`` (or ``-R``) start a new game at any
    point; ``-T`` is answered with the team code; any other line is the opponent's move.
    ``book`` is an opening, the first moves of every game (a tuple of moves): while the game
    follows it, the session plays its moves instead of asking the bot, so that two players
    given one book play the game from its last position (the strength bench's openings)."""

    def __init__(self, bot, variant="standard", team="PY", book=()):
        plays = getattr(bot, "variants", None)
        if plays is not None and str(variant) not in plays:
            raise UserError(f"this bot plays only {', '.join(plays)} (--variant), not "
                            f"{variant}")
        self.bot = bot
        self.variant = variant
        self.team = team
        self.book = tuple(book)
        self.position = None

    def respond(self, line):
        if line == "-T":
            return self.team
        if line in ("-W", "-B", "-R"):
            self.position = Position(self.variant)
            return self._move() if line == "-W" else None
        if self.position is None:
            raise ValueError(f"got {line!r} before -W or -B")
        self.position.play(parse_move(self.position, line))
        return self._move()

    def _move(self):
        if self.position.outcome is not None:
            return None
        played = tuple(self.position.moves)
        if played == self.book[:len(played)] and len(played) < len(self.book):
            move = self.book[len(played)]
        else:
            move = self.bot.choose(self.position)
        text = format_move(self.position, move)
        self.position.play(move)
        return text


def serve(session, stdin=sys.stdin, stdout=sys.stdout):
    """Answer lines from ``stdin`` on ``stdout`` until end of input. A line the session cannot
    take (an illegal move, a move before any game) is reported on stderr and left unanswered,
    which is how the referee learns of it: by a missing answer."""
    for raw in stdin:
        line = raw.strip("\r\n")
        if not line:
            continue
        try:
            answer = session.respond(line)
        except ValueError as err:
            print(f"fpgatrax bot: ignoring {line!r}: {err}", file=sys.stderr, flush=True)
            continue
        if answer is not None:
            stdout.write(answer + "\n")
            stdout.flush()
