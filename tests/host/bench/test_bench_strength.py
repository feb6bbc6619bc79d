"""The strength benchmark's stand-in for the board: the search model speaking the protocol, judged
by the referee and the reference engine."""

from fpgatrax.host.bench.strength import ModelSession, Opening, main, random_opening
from fpgatrax.host.bots import make_bot
from fpgatrax.host.bots.session import BotSession
from fpgatrax.host.link.transport import FunctionTransport
from fpgatrax.host.match.referee import play_game
from fpgatrax.host.rules.notation import parse_move
from fpgatrax.host.rules.position import RED, WHITE, Position


def _play(session, bot_name, seed, model_colour=WHITE, opening=()):
    session.bot.opening = list(opening)
    model = FunctionTransport("model", session.respond)
    bot = FunctionTransport(bot_name,
                            BotSession(Opening(make_bot(bot_name, seed), opening)).respond)
    players = (model, bot) if model_colour == WHITE else (bot, model)
    return play_game(*players, time_limit=float("inf"))


def test_model_plays_whole_legal_games_with_either_colour():
    session = ModelSession(max_trials=4, window=None)
    for colour in (WHITE, RED):
        result = _play(session, "random", 3, colour)
        assert result.how in ("loop", "line"), result.reason
    assert session.search.overflows == 0


def test_the_same_game_twice_is_played_the_same_way_as_on_the_board():
    # A trial limit that lets the search finish iterations, so its choices depend on its state.
    session = ModelSession(max_trials=3000, window=(16, 16), depth=2)
    first = _play(session, "greedy", 11).position.moves
    second = _play(session, "greedy", 11).position.moves
    assert first == second


def test_game_outgrowing_the_array_goes_unanswered():
    session = ModelSession(max_trials=None, window=(1, 1))
    result = _play(session, "random", 5)
    assert (result.how, result.forfeit, result.winner) == ("forfeit", "late", RED)
    assert session.search.overflows == 1


def test_benchmark_prints_the_table(capsys):
    main(["--games", "1", "--bots", "random", "--max-trials", "1", "--jobs", "1"])
    table = capsys.readouterr().out.splitlines()[-3:]
    assert [row.split()[:3] for row in table] == [["random", "white", "1"],
                                                  ["random", "black", "1"],
                                                  ["random", "both", "2"]]


def test_games_in_parallel_give_the_same_results(capsys):
    def run(jobs):
        main(["--games", "3", "--bots", "random,greedy", "--max-trials", "300", "--jobs", jobs])
        lines = capsys.readouterr().out.splitlines()
        return lines[1], lines[-6:]          # trials per move, and the table
    assert run("1") == run("2")


def test_random_openings_are_legal_unfinished_and_differ_by_seed():
    openings = [random_opening(6, seed) for seed in range(20)]
    for opening in openings:
        position = Position()
        for text in opening:
            position.play(parse_move(position, text))   # raises on an illegal move
        assert len(opening) == 6 and position.outcome is None
    assert random_opening(6, 3) == openings[3]
    assert len({tuple(opening) for opening in openings}) > 10


def test_both_players_follow_the_opening_then_think_for_themselves():
    opening = random_opening(5, 8)
    session = ModelSession(max_trials=2, window=(16, 16))
    for colour in (WHITE, RED):
        searched = len(session.search.trials)
        result = _play(session, "greedy", 4, colour, opening)
        replay = Position()
        for text in opening:
            replay.play(parse_move(replay, text))
        assert result.position.moves[:5] == replay.moves
        # The model searched for each of its own moves after the opening, and only for those.
        own = [ply for ply in range(5, len(result.position.moves)) if ply % 2 == colour]
        assert own and len(session.search.trials) - searched == len(own)
