"""The software bots, checked against the reference engine: they win when they can, do not hand
the opponent a win when they need not, leave the position as they found it, are reproducible
from a seed, and speak the protocol."""

import io
import random

import pytest

from fpgatrax.host.bots import BOTS, make_bot
from fpgatrax.host.bots.alphabeta import AlphaBetaBot, tracks
from fpgatrax.host.bots.session import BotSession, serve
from fpgatrax.host.rules.notation import format_move, parse_move
from fpgatrax.host.rules.position import RED, WHITE, Position


def winner_after(position, move):
    outcome = position.play(move)
    position.undo()
    return None if outcome is None else outcome.winner


def opponent_can_win_after(position, move):
    """Brute force: does ``move`` lose at once, or leave the opponent a winning reply?"""
    me = position.to_move
    outcome = position.play(move)
    try:
        if outcome is not None:
            return outcome.winner == 1 - me
        for reply in position.legal_moves():
            if winner_after(position, reply) == 1 - me:
                return True
        return False
    finally:
        position.undo()


def random_positions(variant, seed, count):
    """Positions from random games (each game cut at a random length), with the game going on."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = Position(variant)
        stop = rng.randrange(4, 40)
        while position.outcome is None and len(position.moves) < stop:
            move = rng.choice(position.legal_moves())
            if winner_after(position, move) is None:
                position.play(move)
            elif len(position.moves) > 6:
                break
        if position.outcome is None and len(position.moves) > 3:
            found.append(position)
    return found


def positions_with(variant, seed, count, wanted):
    """Positions (from random play) for which ``wanted(position, legal moves)`` is true."""
    found = []
    attempt = seed
    while len(found) < count:
        for position in random_positions(variant, attempt, 10):
            if wanted(position, position.legal_moves()):
                found.append(position)
        attempt += 1000
    return found[:count]


def has_a_win_and_more(position, moves):
    wins = [m for m in moves if winner_after(position, m) == position.to_move]
    return 0 < len(wins) < len(moves)


def has_safe_and_unsafe_moves(position, moves):
    unsafe = [opponent_can_win_after(position, m) for m in moves]
    return any(unsafe) and not all(unsafe)


SEARCHERS = [("greedy", {}), ("alphabeta", {"depth": 2})]


@pytest.mark.parametrize("variant", ["standard", "loop"])
@pytest.mark.parametrize("name, options", SEARCHERS, ids=[n for n, _ in SEARCHERS])
def test_bots_take_a_winning_move(name, options, variant):
    for index, position in enumerate(positions_with(variant, 1, 6, has_a_win_and_more)):
        move = make_bot(name, seed=index, **options).choose(position)
        assert winner_after(position, move) == position.to_move


@pytest.mark.parametrize("name, options", SEARCHERS, ids=[n for n, _ in SEARCHERS])
def test_bots_do_not_let_the_opponent_win_at_once(name, options):
    for index, position in enumerate(positions_with("standard", 2, 5, has_safe_and_unsafe_moves)):
        move = make_bot(name, seed=index, **options).choose(position)
        assert not opponent_can_win_after(position, move)


def snapshot(position):
    return (dict(position.tiles), dict(position.frontier), position.bbox, list(position.moves),
            position.outcome)


def variant_of(name):
    """A variant the bot plays: 8x8 unless it plays only some (perfect: Mini Trax)."""
    return getattr(BOTS[name], "variants", ("8x8",))[0]


@pytest.mark.parametrize("name", list(BOTS))
def test_bots_leave_the_position_unchanged_and_choose_legal_moves(name):
    bot = make_bot(name, seed=3, think=0.05)       # alphabeta runs out of time mid-search
    for position in random_positions(variant_of(name), 5, 5):
        before = snapshot(position)
        move = bot.choose(position)
        assert snapshot(position) == before
        assert move in position.legal_moves()


def self_play(name, seed, variant="standard"):
    white, black = make_bot(name, seed, depth=2), make_bot(name, seed + 1, depth=2)
    position = Position(variant)
    while position.outcome is None and len(position.moves) < 30:
        position.play((white, black)[position.to_move].choose(position))
    return position.moves


@pytest.mark.parametrize("name", list(BOTS))
def test_bots_are_reproducible_from_a_seed(name):
    variant = "mini" if variant_of(name) == "mini" else "standard"
    assert self_play(name, 21, variant) == self_play(name, 21, variant)


def test_tracks_have_two_ends_each():
    """Every colour's entry edges into empty squares are the ends of its open tracks, two per
    track; and a track's ends enter different squares (two in one square would be forced)."""
    for position in random_positions("standard", 9, 8):
        for colour in (WHITE, RED):
            ends = sum(bin(entry >> (4 * colour) & 0xF).count("1")
                       for entry in position.frontier.values())
            found = tracks(position, colour)
            assert 2 * len(found) == ends
            assert all(distance >= 1 for distance, _ in found)


def test_session_speaks_the_protocol():
    session = BotSession(make_bot("random", seed=1), team="XY")
    assert session.respond("-T") == "XY"
    referee = Position()
    first = session.respond("-W")
    referee.play(parse_move(referee, first))
    reply = format_move(referee, referee.legal_moves()[0])
    referee.play(parse_move(referee, reply))
    answer = session.respond(reply)
    referee.play(parse_move(referee, answer))          # legal, or this raises
    assert session.respond("-B") is None               # a new game, mid-game
    fresh = Position()
    opening = format_move(fresh, fresh.legal_moves()[1])
    fresh.play(parse_move(fresh, opening))
    fresh.play(parse_move(fresh, session.respond(opening)))
    assert session.respond("-R") is None


def test_serve_answers_lines_and_reports_bad_ones(capsys):
    out = io.StringIO()
    serve(BotSession(make_bot("greedy", seed=2)), io.StringIO("B2/\n-T\r\n\n-W\n"), out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "PY"
    Position().play(parse_move(Position(), lines[1]))
    assert len(lines) == 2
    assert "ignoring 'B2/'" in capsys.readouterr().err


def test_alphabeta_out_of_time_plays_its_deepest_finished_search():
    """Thinking time by an injected clock: one that never moves lets every search finish, as
    with no time limit; one that jumps past the thinking time after twenty reads cuts
    the searches short, and the bot still plays a legal move of a finished depth."""
    def jumping_clock():
        reads = iter(range(10 ** 9))
        return lambda: 0.0 if next(reads) < 20 else 1e9

    unlimited = AlphaBetaBot(seed=1, think=0, depth=3)
    frozen = AlphaBetaBot(seed=1, think=1.0, depth=3, clock=lambda: 0.0)
    jumping = AlphaBetaBot(seed=1, think=1.0, depth=3)
    for position in random_positions("standard", 4, 8):
        # Copies: a search leaves the position's candidates in another order, which the
        # seeded shuffle then makes a different one.
        assert frozen.choose(position.copy()) == unlimited.choose(position.copy())
        jumping.clock = jumping_clock()
        assert jumping.choose(position) in position.legal_moves()
    assert frozen.depths == unlimited.depths
    assert sum(d * n for d, n in jumping.depths.items()) < \
        sum(d * n for d, n in unlimited.depths.items())


def test_a_session_plays_its_book_while_the_game_follows_it():
    """The book's moves come first, without asking the bot; once the book ends, or the game
    leaves it (the opponent plays another move), the bot chooses."""
    class FirstLegal:
        asked, chosen = 0, None

        def choose(self, position):
            self.asked += 1
            self.chosen = position.legal_moves()[0]
            return self.chosen

    def play(session, referee, move):
        """The opponent's ``move``; the session's answer, played too."""
        answer = session.respond(format_move(referee, move))
        referee.play(move)
        referee.play(parse_move(referee, answer))

    position = Position()
    book = []
    for _ in range(4):
        book.append(position.legal_moves()[-1])       # not what FirstLegal would play
        position.play(book[-1])
    for left in (False, True):
        bot = FirstLegal()
        session, referee = BotSession(bot, book=tuple(book)), Position()
        referee.play(parse_move(referee, session.respond("-W")))
        assert referee.moves == book[:1]
        if left:
            other = referee.legal_moves()[0]
            assert other != book[1]
            play(session, referee, other)
        else:
            play(session, referee, book[1])
            assert referee.moves == book[:3] and bot.asked == 0
            play(session, referee, book[3])
        assert referee.moves[-1] == bot.chosen and bot.asked == 1
