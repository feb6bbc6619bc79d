"""``fpgatrax relay`` against the project's own referee over TCP: whole games judged by the
referee, the team code, a server that drops mid-game and comes back, one that never does, and
the command's errors."""

import threading
import time

import pytest

from fpgatrax.host.bots import make_bot
from fpgatrax.host.bots.session import BotSession
from fpgatrax.host.cli.main import main
from fpgatrax.host.link.transport import FunctionTransport, NoAnswer, TcpTransport
from fpgatrax.host.match.referee import play_game
from fpgatrax.host.match.relay import POLL, RelaySettings, _pass_on, parse_address, relay
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.position import RED, WHITE


def bot(name, seed):
    return FunctionTransport(name, BotSession(make_bot(name, seed), "standard").respond)


class Relay:
    """The relay in a thread, for the port of a referee on this machine."""

    def __init__(self, port, settings, player=None):
        self.log, self.played, self.error = [], None, None
        self.player = player or bot("greedy", 7)
        self.thread = threading.Thread(target=self._run, args=(port, settings), daemon=True)
        self.thread.start()

    def _run(self, port, settings):
        try:
            self.played = relay(("127.0.0.1", port), self.player, settings, log=self.log.append)
        except UserError as err:
            self.error = err

    def join(self):
        self.thread.join(timeout=60)
        assert not self.thread.is_alive(), f"the relay did not stop: {self.log[-5:]}"


def test_a_relayed_player_plays_whole_games_judged_by_the_referee():
    """Four games, the relayed player white and black in turn; once the referee is gone the
    relay tries once more (``retries=0``) and stops with an error."""
    server = TcpTransport(0, "127.0.0.1")
    relayed = Relay(server.port, RelaySettings(team="AB", retries=0, backoff=(0.01, 0.01)))
    results = []
    with server:
        for number in range(4):
            other = bot("random", number)
            players = (server, other) if number % 2 == 0 else (other, server)
            results.append(play_game(*players, time_limit=10.0, handshake=True))
    relayed.join()
    assert "gave up after 1 attempt" in str(relayed.error)
    for number, result in enumerate(results):
        mine = WHITE if number % 2 == 0 else RED
        assert result.how in ("loop", "line"), result.reason
        assert result.teams[mine] == "AB"
        # The referee does not pass on the opponent's move that beats the relayed player (the
        # last game's end is then the connection closing).
        seen = [f"the player won by {result.how}"]
        if result.winner != mine:
            seen = [f"the player lost by {result.how}",
                    "cut off" if number == 3 else "over (its last move did not reach"]
        assert any(line.startswith(f"relay: game {number + 1}: {text}")
                   for line in relayed.log for text in seen), relayed.log[-5:]


def test_the_relay_reconnects_when_the_server_drops_mid_game():
    first = TcpTransport(0, "127.0.0.1")
    port = first.port
    relayed = Relay(port, RelaySettings(games=1, backoff=(0.05, 0.2)))
    with first:
        first.connect()
        first.send_line("-W")
        first.read_line(10.0)                 # the relayed player's first move, then the drop
    with TcpTransport(port, "127.0.0.1") as second:
        result = play_game(bot("random", 3), second, time_limit=10.0)
    relayed.join()
    assert result.how in ("loop", "line"), result.reason
    assert relayed.played == 1
    text = "\n".join(relayed.log)
    assert "went away" in text and "cut off" in text and text.count("connected to") == 2


def test_a_slow_server_and_a_game_cut_short_are_waited_out_and_logged():
    """The server says nothing for longer than the relay's poll, then plays a game it cuts
    short after two moves (the relay never sees its end) and a whole one: the relay waits, and
    logs the first game as over when the second starts."""
    server = TcpTransport(0, "127.0.0.1")
    relayed = Relay(server.port, RelaySettings(games=2, retries=0, backoff=(0.01, 0.01)))
    with server:
        server.connect()
        time.sleep(1.5 * POLL)
        cut = play_game(server, bot("random", 1), time_limit=10.0, max_moves=2)
        whole = play_game(bot("random", 2), server, time_limit=10.0)
    relayed.join()
    assert cut.how == "unfinished" and whole.how in ("loop", "line"), whole.reason
    assert "relay: game 1: over (its last move did not reach the relay)" in relayed.log
    assert any(line.startswith("relay: game 2: ") for line in relayed.log), relayed.log


def test_a_move_outside_any_game_is_passed_on_and_its_answer_sent_back():
    """Before any ``-W`` or ``-B`` the relay follows no game, and still relays."""
    server, log = Silent(), []
    player = FunctionTransport("player", lambda line: "B1+" if line == "@0+" else None)
    _pass_on(server, player, "@0+", None, RelaySettings(), log.append)
    assert server.sent == ["B1+"] and log == []


def test_the_relay_gives_up_after_its_retries():
    with TcpTransport(0, "127.0.0.1") as closed:
        port = closed.port                    # nobody listens there once it is closed
    pauses, log = [], []
    settings = RelaySettings(retries=2, backoff=(1.0, 1.5))
    with pytest.raises(UserError, match="gave up after 3 attempts"):
        relay(("127.0.0.1", port), bot("greedy", 1), settings, log=log.append,
              sleep=pauses.append)
    assert pauses == [1.0, 1.5] and len(log) == 2 and "connecting again in 1 s" in log[0]


@pytest.mark.parametrize(("text", "message"), [
    ("nohost", "HOST:PORT"), ("host:0", "port from 1"), (":5000", "HOST:PORT"),
    ("host:port", "HOST:PORT")])
def test_a_bad_server_address_is_one_line(text, message):
    with pytest.raises(UserError, match=message):
        parse_address(text)


def test_the_command_refuses_bad_input_in_one_line(capsys):
    assert main(["relay", "nohost", "greedy"]) == 1
    assert main(["relay", "localhost:5000", "tcp:6000"]) == 1
    assert main(["relay", "localhost:5000", "nobody"]) == 1
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 3 and all(line.startswith("fpgatrax relay: error:") for line in errors)


@pytest.mark.parametrize(("text", "address"), [
    ("host:1", ("host", 1)), ("host:65535", ("host", 65535)), ("::1:5000", ("::1", 5000)),
    ("a.example:80", ("a.example", 80))])
def test_a_server_address_is_host_and_the_last_number(text, address):
    assert parse_address(text) == address


def test_a_port_past_65535_is_refused():
    with pytest.raises(UserError, match="port from 1 to 65535"):
        parse_address("host:65536")


def test_the_pause_between_attempts_doubles_up_to_its_most():
    with TcpTransport(0, "127.0.0.1") as closed:
        port = closed.port
    pauses = []
    with pytest.raises(UserError, match="gave up after 5 attempts"):
        relay(("127.0.0.1", port), bot("greedy", 1), RelaySettings(retries=4, backoff=(1, 5)),
              log=[].append, sleep=pauses.append)
    assert pauses == [1, 2, 4, 5]
    with pytest.raises(UserError, match="gave up after 1 attempt$"):
        relay(("127.0.0.1", port), bot("greedy", 1), RelaySettings(retries=0),
              log=[].append, sleep=pauses.append)


class Silent(FunctionTransport):
    """A link that never answers, and notes what it was sent and how long each read was
    allowed to wait."""

    def __init__(self):
        super().__init__("silent", lambda line: None)
        self.sent, self.waits = [], []

    def send_line(self, line):
        self.sent.append(line)

    def read_line(self, timeout=None):
        self.waits.append(timeout)
        raise NoAnswer("nothing")


def test_a_player_that_does_not_answer_in_its_time_is_logged_and_the_relay_goes_on():
    """The relay waits for the player's answer exactly the settings' answer time, then says
    so and goes on to the server's next line, sending nothing on the player's behalf."""
    server, player, log = Silent(), Silent(), []
    _pass_on(server, player, "-W", None, RelaySettings(answer_time=0.25), log.append)
    assert player.sent == ["-W"] and player.waits == [0.25]
    assert log == ["relay: no answer from the player to -W within 0.25 s"]
    assert server.sent == []
