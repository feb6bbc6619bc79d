"""The referee against scripted players over real pipes, pseudo-terminals and sockets, and in
full bot games: every way of forfeiting ends the game with the right reason and a record that
replays to the same result."""

import os
import random
import shlex
import socket
import sys
import threading
from pathlib import Path

import pytest
import scripted_player as scripted

from fpgatrax.host.bots import make_bot
from fpgatrax.host.bots.session import BotSession
from fpgatrax.host.link.transport import (
    Disconnected,
    FunctionTransport,
    SerialTransport,
    TcpTransport,
)
from fpgatrax.host.match.players import PlayerOptions, open_player
from fpgatrax.host.match.referee import new_record, play_game
from fpgatrax.host.rules.notation import NotationError, format_move, parse_move, parse_text
from fpgatrax.host.rules.position import RED, WHITE, IllegalMove, Position
from fpgatrax.host.rules.record import read_record, replay

SCRIPT = Path(scripted.__file__)
ROOMY = 10.0     # a time limit no honest answer gets near, however loaded the machine
TIGHT = 0.3      # the limit for tests of late answers (the late player sleeps 2 s)


def scripted_program(behaviour, at):
    """A scripted player run as a child process, already answering (so that its start-up time
    is not charged to its first move)."""
    transport = open_player(f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(SCRIPT))} "
                            f"{behaviour} {at}", PlayerOptions(startup=0))
    transport.send_line("-T")
    assert transport.read_line(60) == "SP"
    return transport


def referee_game(tmp_path, white, black, **options):
    """Play a recorded game; return its result and the record's replay."""
    path = tmp_path / "game.txt"
    with new_record(path, "white player", "black player", options.get("variant", "standard")) \
            as writer:
        result = play_game(white, black, record=writer, **options)
    return result, replay(read_record(path)), path.read_text()


def assert_record_matches(result, replayed):
    assert (replayed.winner, replayed.how, replayed.move_number, replayed.reason) == \
        (result.winner, result.how, result.move_number, result.reason)
    assert replayed.position.moves == result.position.moves


def engine_reason(moves, text):
    """The reference engine's verdict on ``text`` after the ``moves`` of a game."""
    position = Position()
    for move in moves:
        position.play(move)
    try:
        position.check(parse_move(position, text))
    except (NotationError, IllegalMove) as err:
        return str(err)
    raise AssertionError(f"{text} is legal here")


# Each misbehaviour, as white (on its second answer, after a forwarded move) and as black (on its
# first): the forfeit kind, and what the reason must say.
CASES = {
    "late": ("late", lambda moves, line: f"no answer to {line} within {TIGHT:g} s"),
    "silent": ("late", lambda moves, line: f"no answer to {line} within {TIGHT:g} s"),
    "garbage": ("malformed", lambda moves, line: str(_notation_error(scripted.GARBAGE))),
    "illegal": ("illegal", lambda moves, line:
                f"illegal move {scripted.ILLEGAL}: {engine_reason(moves, scripted.ILLEGAL)}"),
    "flood": ("malformed", lambda moves, line: "line longer than"),
    "crash": ("disconnected", lambda moves, line: "exited with status 3"),
    "hangup": ("disconnected", lambda moves, line: "disconnected"),
}


def _notation_error(text):
    with pytest.raises(NotationError) as info:
        parse_text(text)
    return info.value


@pytest.mark.parametrize("colour", [WHITE, RED], ids=["white", "black"])
@pytest.mark.parametrize("behaviour", list(CASES))
def test_forfeits_over_pipes(tmp_path, behaviour, colour):
    kind, expected = CASES[behaviour]
    limit = TIGHT if kind == "late" else ROOMY
    bad = scripted_program(behaviour, 2 if colour == WHITE else 1)
    good = open_player("random", PlayerOptions(seed=7))
    players = (bad, good) if colour == WHITE else (good, bad)
    try:
        result, replayed, text = referee_game(tmp_path, *players, time_limit=limit)
    finally:
        bad.close()
    assert (result.how, result.forfeit, result.winner) == ("forfeit", kind, 1 - colour)
    moves = result.position.moves
    assert len(moves) == (2 if colour == WHITE else 1)
    last_line = "-W" if not moves else format_move(_before_last(moves), moves[-1])
    assert expected(moves, last_line) in result.reason
    assert_record_matches(result, replayed)
    if behaviour in ("garbage", "illegal"):
        offending = scripted.GARBAGE if behaviour == "garbage" else scripted.ILLEGAL
        assert repr(offending) in text


def _before_last(moves):
    position = Position()
    for move in moves[:-1]:
        position.play(move)
    return position


def test_crlf_and_blank_lines_are_accepted(tmp_path):
    player = scripted_program("crlf", 1)
    try:
        result, replayed, _ = referee_game(tmp_path, player, open_player("greedy",
                                           PlayerOptions(seed=2)), time_limit=ROOMY, max_moves=6)
    finally:
        player.close()
    assert result.forfeit is None and len(result.position.moves) >= 2
    assert_record_matches(result, replayed)


def serve_in_thread(player, read_line, write, close):
    """Run a scripted player on one end of a link until it ends or misbehaves fatally."""
    def run():
        try:
            scripted.serve(player, read_line, write)
        except (scripted.Crash, scripted.Hangup, OSError):
            pass
        finally:
            close()
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def pty_player(player, written=None):
    """A SerialTransport on a pseudo-terminal whose other end ``player`` serves; ``written``
    (a threading.Event) is set after each write."""
    master, slave = os.openpty()
    transport = SerialTransport(os.ttyname(slave))
    os.close(slave)
    reader = os.fdopen(master, "rb", buffering=0)

    def write(data):
        os.write(master, data)
        if written is not None:
            written.set()
    serve_in_thread(player, reader.readline, write, reader.close)
    return transport


def tcp_player(player):
    """A TcpTransport with ``player`` connecting to it as a client."""
    transport = TcpTransport(0, "127.0.0.1", accept_timeout=30)
    sock = socket.create_connection(("127.0.0.1", transport.port))
    serve_in_thread(player, sock.makefile("rb").readline, sock.sendall, sock.close)
    return transport


@pytest.mark.parametrize("link", [pty_player, tcp_player], ids=["pty", "tcp"])
@pytest.mark.parametrize("behaviour, kind", [("late", "late"), ("illegal", "illegal"),
                                             ("crash", "disconnected")])
def test_forfeits_over_pty_and_tcp(tmp_path, link, behaviour, kind):
    bad = link(scripted.ScriptedPlayer(behaviour, 2))
    good = open_player("random", PlayerOptions(seed=5))
    with bad:
        result, replayed, _ = referee_game(tmp_path, good, bad,
                                           time_limit=TIGHT if kind == "late" else ROOMY)
    assert (result.how, result.forfeit, result.winner) == ("forfeit", kind, WHITE)
    assert len(result.position.moves) == 3
    assert_record_matches(result, replayed)


@pytest.mark.parametrize("link", [pty_player, tcp_player], ids=["pty", "tcp"])
def test_full_game_over_pty_and_tcp(tmp_path, link):
    """A bot speaking the protocol on the far end of the link plays a whole game."""
    far = link(BotOnLink(make_bot("greedy", seed=3)))
    with far:
        result, replayed, _ = referee_game(tmp_path, far, open_player("random",
                                           PlayerOptions(seed=4)), time_limit=ROOMY)
    assert result.how in ("loop", "line")
    assert_record_matches(result, replayed)


class BotOnLink:
    """A BotSession in the scripted players' ``respond -> bytes`` shape, to serve a link."""

    done = False        # it never leaves by itself

    def __init__(self, bot):
        self.session = BotSession(bot)

    def respond(self, line):
        answer = self.session.respond(line)
        return None if answer is None else answer.encode() + b"\n"


def judge_independently(moves_seen):
    """An ``on_move`` callback that replays every move on a position of its own, checking the
    colour to move and that the referee's position agrees."""
    mine = Position()

    def on_move(position, colour, text, timing):
        assert colour == mine.to_move
        mine.play(parse_move(mine, text))
        assert mine.tiles == position.tiles
        moves_seen.append(text)
    return on_move


def test_bot_program_against_in_process_bot(tmp_path):
    """``fpgatrax bot`` as a real child process plays a full game through the pipe transport."""
    program = open_player(f"cmd:{shlex.quote(sys.executable)} -m fpgatrax.host.cli.main bot random "
                          "--seed 5")
    seen = []
    try:
        result, replayed, _ = referee_game(tmp_path, open_player("greedy", PlayerOptions(seed=6)),
                                           program, time_limit=ROOMY,
                                           on_move=judge_independently(seen))
    finally:
        program.close()
    assert result.how in ("loop", "line") and len(seen) == result.move_number
    assert_record_matches(result, replayed)


@pytest.mark.parametrize("white, black", [("greedy", "random"), ("alphabeta", "greedy"),
                                          ("random", "alphabeta")])
def test_bot_games_judged_move_by_move(tmp_path, white, black):
    options = PlayerOptions(seed=11, depth=2)
    seen = []
    result, replayed, _ = referee_game(tmp_path, open_player(white, options),
                                       open_player(black, options), time_limit=ROOMY,
                                       on_move=judge_independently(seen))
    assert result.how in ("loop", "line") and len(seen) == result.move_number
    assert_record_matches(result, replayed)


def drawn_8x8_game():
    """The moves (as text) of an 8x8 game that ends drawn, found by the engine: random play
    that avoids moves which win for anybody, from a fixed seed."""
    rng = random.Random(8)
    while True:
        position, texts = Position("8x8"), []
        while position.outcome is None:
            quiet = []
            for move in position.legal_moves():
                outcome = position.play(move)
                position.undo()
                if outcome is None or outcome.how == "draw":
                    quiet.append(move)
            move = rng.choice(quiet or position.legal_moves())
            texts.append(format_move(position, move))
            position.play(move)
        if position.outcome.how == "draw":
            return texts


def replaying(texts, colour):
    """An in-process player that answers with its colour's moves of ``texts``."""
    mine = iter(texts[colour::2])
    return FunctionTransport("replayer", lambda line: None if line == "-B" else next(mine))


def test_8x8_draw(tmp_path):
    texts = drawn_8x8_game()
    result, replayed, _ = referee_game(tmp_path, replaying(texts, WHITE), replaying(texts, RED),
                                       variant="8x8", time_limit=ROOMY)
    assert (result.how, result.winner, result.move_number) == ("draw", None, len(texts))
    assert_record_matches(result, replayed)


def test_handshake_records_team_codes(tmp_path):
    white, black = scripted_program("play", 0), open_player("greedy", PlayerOptions(seed=5))
    try:
        result, _, text = referee_game(tmp_path, white, black, time_limit=ROOMY,
                                       handshake=True, max_moves=2)
    finally:
        white.close()
    assert result.teams == {WHITE: "SP", RED: "PY"}
    assert "# white team: SP" in text and "# black team: PY" in text


def test_next_game_after_a_forfeit_starts_clean(tmp_path):
    """A player that forfeited by a late answer is reset by the next game's -W/-B, and the
    answer it sent late is not taken for an answer in the next game."""
    written = threading.Event()
    late = pty_player(scripted.ScriptedPlayer("late", 1), written)
    good = open_player("greedy", PlayerOptions(seed=1))
    with late:
        first = play_game(late, good, time_limit=TIGHT)
        assert written.wait(30)         # the late answer is on its way to the referee
        second = play_game(good, late, time_limit=ROOMY, max_moves=4)
    assert first.forfeit == "late"
    assert second.how == "unfinished" and second.move_number == 4


def test_disconnected_player_forfeits_every_later_game():
    crashed = scripted_program("crash", 1)
    good = open_player("random", PlayerOptions(seed=5))
    try:
        results = [play_game(crashed, good, time_limit=ROOMY) for _ in range(2)]
    finally:
        crashed.close()
    assert [(r.forfeit, r.winner) for r in results] == [("disconnected", RED)] * 2
    # Before the second game the program that died is started again, and the result says so.
    assert results[0].notes == {}
    assert "exited (status 3)" in results[1].notes[WHITE]


def test_a_program_that_leaves_after_its_game_is_started_afresh(tmp_path):
    """An engine that plays its game and exits (as the competitions' clients often do) plays
    every game of a match: the referee starts it again, notes it in the result and the record,
    and the new process plays a whole game."""
    once = scripted_program("once", 2)
    good = open_player("greedy", PlayerOptions(seed=3))
    try:
        # Its second answer is move 3 of a game stopped there; then the program exits.
        first = play_game(once, good, time_limit=ROOMY, max_moves=3)
        result, replayed, text = referee_game(tmp_path, once, good, time_limit=ROOMY,
                                              max_moves=3)
    finally:
        once.close()
    assert (first.how, first.notes) == ("unfinished", {})
    assert (result.how, result.move_number) == ("unfinished", 3)
    assert result.notes[WHITE] == \
        "the program had exited (status 0); started afresh for this game"
    assert "# white: the program had exited (status 0)" in text
    assert_record_matches(result, replayed)


@pytest.mark.parametrize("fresh", [False, True])
def test_a_fresh_process_for_every_game(fresh):
    """An engine that keeps the last game's position after -W answers nonsense in the next
    game, unless the match starts it afresh for every game (``fresh_process``)."""
    spec = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(SCRIPT))} stale 0"
    stale = open_player(spec, PlayerOptions(fresh_process=fresh, startup=0))
    good = open_player("greedy", PlayerOptions(seed=2))
    try:
        results = [play_game(stale, good, time_limit=ROOMY, max_moves=4) for _ in range(2)]
    finally:
        stale.close()
    assert results[0].how == "unfinished"
    if fresh:
        assert (results[1].how, results[1].notes) == \
            ("unfinished", {WHITE: "started afresh for this game"})
    else:
        assert (results[1].forfeit, results[1].notes) == ("illegal", {})


@pytest.mark.parametrize("startup,forfeit", [(0, "late"), (4.0, None)])
def test_a_program_is_given_time_to_start(startup, forfeit):
    """A program that takes longer to start than a move may take is not charged for its start:
    the game's first line waits until it has run ``startup`` seconds."""
    spec = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(SCRIPT))} slowstart 0"
    slow = open_player(spec, PlayerOptions(startup=startup))
    good = open_player("greedy", PlayerOptions(seed=2))
    try:
        result = play_game(slow, good, time_limit=1.0, max_moves=2)
    finally:
        slow.close()
    assert result.forfeit == forfeit


class SteppingClock:
    """A player's own clock, as the simulated board brings one: each reading is ``step``
    seconds after the last, so every answer takes ``step`` seconds of the player's time,
    however long it takes in wall time."""
    simulated = True

    def __init__(self, step):
        self.time, self.step = 0.0, step

    def now(self):
        self.time += self.step
        return self.time

    def wall_timeout(self, limit):
        return 30.0


def test_a_player_is_judged_by_its_own_clock(tmp_path):
    """A slow answer in wall time is in time by the player's clock, and the other way round;
    the record shows both times."""
    slow = pty_player(scripted.ScriptedPlayer("late", 1))
    slow.clock = SteppingClock(0.01)
    with slow:
        result, replayed, text = referee_game(tmp_path, slow, open_player("greedy",
                                              PlayerOptions(seed=1)), time_limit=TIGHT,
                                              max_moves=2)
    assert result.how == "unfinished"
    assert "0.010 s simulated" in text and "s wall" in text
    fast = pty_player(scripted.ScriptedPlayer("play", 0))
    fast.clock = SteppingClock(5.0)
    with fast:
        result, replayed, _ = referee_game(tmp_path, fast, open_player("random"),
                                           time_limit=1.0)
    assert (result.forfeit, result.winner) == ("late", RED)
    assert "5.000 s simulated" in result.reason
    assert_record_matches(result, replayed)


@pytest.mark.parametrize(("step", "late"), [(0.5, False), (0.5 + 2 ** -20, True)])
def test_an_answer_exactly_at_the_limit_is_in_time(step, late):
    """Every answer of white takes ``step`` seconds by its own clock, the limit is 0.5 s: at
    the limit exactly the game goes on, a hair over it is late."""
    white = FunctionTransport("greedy", BotSession(make_bot("greedy", 1), "standard").respond)
    white.clock = SteppingClock(step)
    black = open_player("random", PlayerOptions(seed=2))
    result = play_game(white, black, time_limit=0.5, max_moves=6)
    if late:
        assert (result.forfeit, result.winner) == ("late", RED)
    else:
        assert result.how == "unfinished" and result.forfeit is None


class DeadLink(FunctionTransport):
    """A player whose link is already gone when the referee first writes to it."""

    def __init__(self):
        super().__init__("dead", lambda line: None)

    def send_line(self, text):
        raise Disconnected("the link is dead")


def test_black_dead_at_its_first_line_forfeits_and_white_wins():
    """The -B to black is black's to answer for: a dead link there is black's forfeit."""
    white = open_player("random", PlayerOptions(seed=3))
    result = play_game(white, DeadLink(), time_limit=1.0)
    assert (result.forfeit, result.winner) == ("disconnected", WHITE)
    result = play_game(DeadLink(), open_player("random"), time_limit=1.0)
    assert (result.forfeit, result.winner) == ("disconnected", RED)


def test_player_specs_with_a_hash_make_a_header_that_reads_back(tmp_path):
    """A '#' starts a comment in a record, so a player's name loses it on both sides."""
    path = tmp_path / "game.trx"
    with new_record(path, "cmd:engine #1", "cmd:engine #2") as writer:
        writer.move("@0+")
    record = read_record(path)
    assert (record.white, record.black) == ("cmd:engine _1", "cmd:engine _2")
