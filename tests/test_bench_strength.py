"""The strength benchmark's stand-in for the board: the search model speaking the protocol, judged
by the referee and the reference engine."""

from fpgatrax.host.bot_session import BotSession
from fpgatrax.host.bots import make_bot
from fpgatrax.host.position import RED, WHITE
from fpgatrax.host.referee import play_game
from fpgatrax.host.transport import FunctionTransport
from fpgatrax.sim.bench_strength import ModelSession, main


def _play(session, bot_name, seed, model_colour=WHITE):
    model = FunctionTransport("model", session.respond)
    bot = FunctionTransport(bot_name, BotSession(make_bot(bot_name, seed)).respond)
    players = (model, bot) if model_colour == WHITE else (bot, model)
    return play_game(*players, time_limit=float("inf"))


def test_model_plays_whole_legal_games_with_either_colour():
    session = ModelSession(budget=4, window=None)
    for colour in (WHITE, RED):
        result = _play(session, "random", 3, colour)
        assert result.how in ("loop", "line"), result.reason
    assert session.bot.overflows == 0


def test_new_game_restarts_the_tie_break_as_the_board_does():
    session = ModelSession(budget=2, window=(16, 16))
    first = _play(session, "greedy", 11).position.moves
    second = _play(session, "greedy", 11).position.moves
    assert first == second


def test_game_outgrowing_the_array_goes_unanswered():
    session = ModelSession(budget=None, window=(1, 1))
    result = _play(session, "random", 5)
    assert (result.how, result.forfeit, result.winner) == ("forfeit", "late", RED)
    assert session.bot.overflows == 1


def test_benchmark_prints_the_table(capsys):
    main(["--games", "1", "--bots", "random", "--budget", "1"])
    table = capsys.readouterr().out.splitlines()[-3:]
    assert [row.split()[:3] for row in table] == [["random", "white", "1"],
                                                  ["random", "black", "1"],
                                                  ["random", "both", "2"]]
