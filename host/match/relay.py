"""The relay: a player on this machine in games judged by a referee elsewhere.

Trax design competitions ran the referee on a server and let each team's player connect to it;
``fpgatrax relay HOST:PORT PLAYER`` is that connection. It connects to the server as a TCP
client and passes every line of ``docs/protocol.md`` between the server and a local player
(any player spec: a board's serial port, the simulated board, ``cmd:``, a bot), game after
game: ``-W``/``-B`` start a game (a ``cmd:`` program that exited is started again), the
server's moves go to the player and its answers back. It answers ``-T`` itself when given a
team code. It follows each game with the reference engine only to know when the player owes an
answer (none after a move that ends the game) and to report results; the server is the judge.
A server need not pass on the move that beats the player (the project's referee does not), so
a game also ends when the next one starts; one cut off by the connection closing does not
count, and the relay connects again for the rest (a server that closes after beating the
player in the last game looks the same: ``retries`` ends the wait).

When the server goes away (or cannot be reached), the relay says so and connects again after a
pause that doubles from ``backoff[0]`` up to ``backoff[1]`` seconds, giving up after
``retries`` failures in a row (None: never). A player that does not answer within
``answer_time`` is reported and the relay goes on: the server judges the late answer.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass

from fpgatrax.host.link.transport import (
    Disconnected,
    LineTooLong,
    NoAnswer,
    TcpClientTransport,
    Transport,
)
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.notation import NotationError, parse_move
from fpgatrax.host.rules.position import IllegalMove, Position
from fpgatrax.host.rules.record import COLOUR_NAMES

__all__ = ["RelaySettings", "relay", "parse_address"]

# How long the relay waits for a line from the server before looking again (Ctrl-C stays quick).
POLL = 1.0


@dataclass
class RelaySettings:
    """How the relay behaves: see the module docstring."""
    team: str | None = None
    games: int | None = None             # stop after this many games (None: until stopped)
    variant: str = "standard"
    answer_time: float = 60.0
    retries: int | None = None
    backoff: tuple[float, float] = (1.0, 30.0)


class _PlayerGone(Exception):
    """The local player's link failed (the server's failures are Disconnected)."""


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` as (host, port); a UserError says what is wrong."""
    host, _, port = text.rpartition(":")
    try:
        number = int(port)
    except ValueError:
        raise UserError(f"the server is HOST:PORT, as in localhost:5000 (got {text!r})") from None
    if not host or not 0 < number < 65536:
        raise UserError(f"the server is HOST:PORT with a port from 1 to 65535 (got {text!r})")
    return host, number


def relay(address: tuple[str, int], player: Transport, settings: RelaySettings,
          log: Callable[[str], object] = print,
          connect: Callable[[str, int], Transport] = TcpClientTransport,
          sleep: Callable[[float], object] = time.sleep) -> int:
    """Relay games between the server at ``address`` and ``player`` until ``settings.games``
    have been played (or forever); return the number of games played. Raise UserError when
    the server stays out of reach for ``settings.retries`` attempts or the player cannot be
    renewed for a game."""
    host, port = address
    first, most = settings.backoff
    delay, failures = first, 0
    games = _Games(settings.games)
    while not games.done():
        server = connect(host, port)
        try:
            server.connect()
            log(f"relay: connected to {host}:{port}")
            delay, failures = first, 0
            _serve(server, player, settings, log, games)
            continue
        except Disconnected as err:
            games.cut_off(log)
            failures += 1
            if settings.retries is not None and failures > settings.retries:
                tries = f"{failures} attempt{'s' if failures > 1 else ''}"
                raise UserError(f"{err}; gave up after {tries}") from None
            log(f"relay: {err}; connecting again in {delay:g} s")
        finally:
            server.close()
        sleep(delay)
        delay = min(2 * delay, most)
    return games.started


class _Games:
    """The games started so far, the one going on, and how many the relay is to play."""

    def __init__(self, wanted: int | None) -> None:
        self.wanted, self.started = wanted, 0
        self.current: _Game | None = None

    def done(self) -> bool:
        return self.wanted is not None and self.started >= self.wanted and self.current is None

    def cut_off(self, log: Callable[[str], object]) -> None:
        """The connection closed: a game going on is not counted."""
        game = self.current
        if game is not None and not game.finished:
            log(f"relay: game {game.number}: cut off, not counted")
            self.started -= 1
        self.current = None

    def over(self, log: Callable[[str], object]) -> None:
        """The current game is over, seen by the relay or not."""
        game = self.current
        if game is not None:
            if game.finished:
                log(f"relay: game {game.number}: {game.result()}")
            else:
                log(f"relay: game {game.number}: over (its last move did not reach the relay)")
        self.current = None


def _serve(server: Transport, player: Transport, settings: RelaySettings,
           log: Callable[[str], object], games: _Games) -> None:
    """Relay lines on one connection until the games wanted are played. Raise Disconnected
    when the server goes away."""
    while not games.done():
        try:
            line = server.read_line(POLL)
        except NoAnswer:
            continue
        except LineTooLong as err:
            log(f"relay: the server sent {err}; ignored")
            continue
        except Disconnected as err:
            raise Disconnected(f"the server at {server.name} went away ({err})") from None
        if line == "-T" and settings.team:
            server.send_line(settings.team)
            continue
        if line in ("-W", "-B"):
            games.over(log)
            if games.wanted is not None and games.started >= games.wanted:
                return
            games.started += 1
            games.current = _Game(games.started, line, settings.variant)
            log(f"relay: game {games.started}: the player is "
                f"{COLOUR_NAMES[games.current.colour]}")
            note = _renew(player)
            if note:
                log(f"relay: {note}")
        game = games.current
        try:
            _pass_on(server, player, line, game, settings, log)
        except _PlayerGone as err:
            log(f"relay: the player went away ({err}); it is renewed for the next game")
            games.over(log)
            continue
        if game is not None and game.finished:
            games.over(log)


def _renew(player: Transport) -> str | None:
    try:
        return player.new_game()
    except Disconnected as err:
        raise UserError(f"the player cannot play another game: {err}") from None


def _pass_on(server: Transport, player: Transport, line: str, game: "_Game | None",
             settings: RelaySettings, log: Callable[[str], object]) -> None:
    """Send the server's ``line`` to the player and, if it owes an answer, send that back."""
    try:
        if line in ("-W", "-B"):
            player.connect()
            player.discard_input()
        player.send_line(line)
    except Disconnected as err:
        raise _PlayerGone(str(err)) from None
    if line == "-B":
        return
    owed = line in ("-T", "-W") or (game is None or game.opponent_moved(line))
    if not owed:
        return
    try:
        answer = player.read_line(settings.answer_time)
    except NoAnswer:
        log(f"relay: no answer from the player to {line} within {settings.answer_time:g} s")
        return
    except (Disconnected, LineTooLong) as err:
        raise _PlayerGone(str(err)) from None
    server.send_line(answer)
    if game is not None and line != "-T":
        game.player_moved(answer)


class _Game:
    """One game as the relay follows it: the player's colour and the position, when the moves
    parse (a move the engine refuses leaves it untracked: answers are still passed on)."""

    def __init__(self, number: int, start: str, variant: str) -> None:
        self.number, self.colour = number, 0 if start == "-W" else 1
        self.position: Position = Position(variant)
        self.tracked = True

    def _play(self, text: str) -> None:
        if not self.tracked:
            return
        try:
            self.position.play(parse_move(self.position, text))
        except (NotationError, IllegalMove):
            self.tracked = False

    @property
    def finished(self) -> bool:
        """Whether the relay saw the game end."""
        return self.tracked and self.position.outcome is not None

    def opponent_moved(self, text: str) -> bool:
        """Play the server's move; whether the player owes an answer to it."""
        self._play(text)
        return self.position.outcome is None

    def player_moved(self, text: str) -> None:
        self._play(text)

    def result(self) -> str:
        outcome = self.position.outcome
        assert outcome is not None
        if outcome.winner is None:
            return f"a draw on move {outcome.move_number}"
        side = "won" if outcome.winner == self.colour else "lost"
        return f"the player {side} by {outcome.how} on move {outcome.move_number}"
