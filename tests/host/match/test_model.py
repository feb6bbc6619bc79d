"""The ``model`` player: the board's search at Python speed, judged by the board's time."""

import inspect
import subprocess
import sys
from dataclasses import replace

import pytest
from threat_proofs import attacker_proves, positions_from_play

from fpgatrax.boards.build import board
from fpgatrax.host.bench.strength import game_shapes
from fpgatrax.host.bots import make_bot
from fpgatrax.host.bots.basic import lets_opponent_win
from fpgatrax.host.bots.session import BotSession
from fpgatrax.host.link.transport import FunctionTransport
from fpgatrax.host.match.model import (
    ModelBot,
    ModelSession,
    ModelSettings,
    SearchStats,
    loses,
    open_model,
    parse_settings,
    proof_search,
)
from fpgatrax.host.match.players import PlayerOptions, open_player
from fpgatrax.host.match.referee import play_game
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.notation import parse_move
from fpgatrax.host.rules.position import RED, WHITE, Position
from fpgatrax.hw.player import Player
from fpgatrax.hw.player_model import PlayerModel, keeper_cycles
from fpgatrax.hw.search_model import CYCLES_PER_TRIAL, TSS_SHARE, SearchModel

SMALL = ModelSettings(depth=2, max_trials=300, width=16, height=16, clock=12e6)


def game(session, opponent="greedy", seed=1, colour=WHITE):
    model = FunctionTransport("model", session.respond)
    model.clock = session.clock
    other = FunctionTransport(opponent, BotSession(make_bot(opponent, seed)).respond)
    players = (model, other) if colour == WHITE else (other, model)
    return play_game(*players, time_limit=1.0)


def test_settings_of_a_board_and_over_it():
    hx8k = board("hx8k")
    settings = parse_settings("board=hx8k")
    assert (settings.depth, settings.max_trials, settings.width, settings.height,
            settings.clock, settings.evasions, settings.extension, settings.tss) == (
        hx8k.depth, hx8k.max_trials, hx8k.width, hx8k.height, hx8k.clk_freq, hx8k.evasions,
        hx8k.extension, hx8k.tss)
    # Without the evasions there is no extension and no threat-space search, unless one was
    # asked for (an error).
    assert (parse_settings("evasions=0").extension, parse_settings("evasions=0").tss) == (0, 0)
    # The 85F judges every attack (its arrays label their tracks); the 25F boards do not, and
    # neither does a search without the evasions.
    assert parse_settings("").every_attack == board("ulx3s-85f").every_attack == 1
    assert "evasions of every attack" in parse_settings("").describe()
    assert parse_settings("board=ulx3s-25f").every_attack == 0
    assert parse_settings("evasions=0").every_attack == 0
    assert parse_settings("board=ulx3s-25f,every_attack=1,lanes=1").search().every_attack
    assert not parse_settings("every_attack=0,lanes=1").search().every_attack
    # The 85F's search keeps a table of leaf values, as many entries as its board says, and so
    # does each lane's when it is given more.
    assert parse_settings("").table == board("ulx3s-85f").table > 0
    assert parse_settings("").search().table == board("ulx3s-85f").table
    assert parse_settings("lanes=2").search().lanes[1].table == board("ulx3s-85f").table
    assert "a table of 1,024 leaf values" in parse_settings("table=10").describe()
    assert parse_settings("table=0,lanes=1").search().table == 0
    # The 85F vetoes its new best root moves; without every attack there is no veto, unless
    # one was asked for (an error).
    assert parse_settings("").veto == board("ulx3s-85f").veto == 5
    assert parse_settings("").search().veto == 5
    assert parse_settings("").search().veto_trials == board("ulx3s-85f").max_trials // 8
    assert parse_settings("lanes=2").search().lanes[1].veto == 5
    assert "vetoed by the opponent's 5-ply threat-space search" in parse_settings("").describe()
    assert parse_settings("board=ulx3s-25f").veto == parse_settings("every_attack=0").veto == 0
    with pytest.raises(UserError, match="the veto needs every attack"):
        parse_settings("every_attack=0,veto=5")
    with pytest.raises(UserError, match="the veto is an odd number"):
        parse_settings("veto=4")
    ulx3s = parse_settings("tss=5")
    assert (ulx3s.tss, ulx3s.tss_trials) == (5, board("ulx3s-85f").max_trials // 4)
    assert "5-ply threat-space search" in ulx3s.describe()
    assert parse_settings("").board == "ulx3s-85f"
    assert parse_settings("").lanes == board("ulx3s-85f").lanes
    ulx3s = board("ulx3s-85f")
    assert (f"2 lanes, each with a {ulx3s.width}x{ulx3s.height} array"
            in parse_settings("lanes=2").describe())
    changed = parse_settings("board=hx8k,depth=1,width=30,clock=48e6,seed=4")
    assert (changed.depth, changed.width, changed.height, changed.clock, changed.seed) == \
        (1, 30, hx8k.height, 48e6, 4)
    assert changed.describe().startswith("hx8k with clock, depth, width changed:")
    own = parse_settings("depth=2,max_trials=9,width=5,height=6,clock=1e6")
    assert own == ModelSettings(2, 9, 5, 6, 1e6)


def test_a_search_with_its_own_trial_limit_keeps_the_threat_searchs_share():
    """``search(N)`` (the loss reports' budget) searches to N trials, the board's search to
    its own limit; with a threat-space search each keeps its share for it."""
    settings = parse_settings("board=hx8k,lanes=1,evasions=1,tss=3")
    assert (settings.search().max_trials, settings.search().tss_trials) == \
        (settings.max_trials, settings.tss_trials)
    budget = settings.search(8 * settings.max_trials)
    assert (budget.max_trials, budget.tss_trials) == \
        (8 * settings.max_trials, 8 * settings.max_trials // TSS_SHARE)


def test_the_models_team_code_is_the_gateware_players_unless_told():
    assert ModelSession(SMALL).respond("-T") == \
        inspect.signature(Player).parameters["team"].default
    assert ModelSession(SMALL, team="XY").respond("-T") == "XY"


def player_of(settings):
    """The board's move in Python, as the model plays it."""
    return PlayerModel(SearchModel(settings.max_trials, (settings.width, settings.height),
                                   settings.depth, settings.extension, True, settings.tss,
                                   settings.tss_trials),
                       (settings.width, settings.height), keeper_size=settings.keeper)


@pytest.mark.parametrize("size", [16, 4], ids=["16x16", "4x4"])
def test_it_plays_the_players_moves_in_whole_legal_games(size):
    """Every move of the model's is the player's choice on that position (the search on the
    whole game in a 16×16 array; on a 4×4 array, on windows of games that outgrow it)."""
    settings = replace(SMALL, width=size, height=size)
    session = ModelSession(settings)
    for colour in (WHITE, RED):
        searched = len(session.stats.trials)
        result = game(session, "random", 3, colour)
        assert result.how in ("loop", "line"), result.reason
        replayed = Position()
        for ply, move in enumerate(result.position.moves):
            if ply % 2 == colour:
                assert player_of(settings).choose(replayed).move == move
            replayed.play(move)
        assert len(session.stats.trials) > searched


def test_an_answer_takes_the_boards_time():
    """The search's trials, loading the window and the keeper's pass, and the line bytes."""
    session = ModelSession(SMALL)
    session.respond("-B")
    answer = session.respond("@0+")
    position = Position()
    position.play(parse_move(position, "@0+"))
    choice = player_of(SMALL).choose(position)
    line_bytes = len("@0+\n") + len(answer) + 1
    assert session.stats.trials == [choice.search.trials]
    assert session.clock.now() == pytest.approx(
        (choice.search.trials * CYCLES_PER_TRIAL + keeper_cycles(choice, (16, 16))) / 12e6 +
        line_bytes * 10 / 19200)


def test_with_lanes_an_answer_takes_the_busiest_lanes_time():
    """Lanes search at once: the answer takes the trials of the lane that tried the most, not
    the sum of all of them."""
    settings = replace(SMALL, lanes=3)
    session = ModelSession(settings)
    session.respond("-B")
    before = session.clock.now()
    answer = session.respond("@0+")
    position = Position()
    position.play(parse_move(position, "@0+"))
    player = PlayerModel(settings.search(), (16, 16))
    choice = player.choose(position)
    assert session.stats.trials == [choice.search.trials]
    assert choice.search.time_trials < choice.search.trials
    line_bytes = len("@0+\n") + len(answer) + 1
    assert session.clock.now() - before == pytest.approx(
        (choice.search.time_trials * CYCLES_PER_TRIAL + keeper_cycles(choice, (16, 16))) / 12e6
        + line_bytes * 10 / 19200)


class Widener:
    """A bot for loop Trax that widens the tiles eastwards with moves that end nothing and
    leave the other side no win at once."""

    def choose(self, position):
        def score(move):
            position.play(move)
            try:
                if position.outcome is not None:
                    return (False, False, 0)
                mover = position.to_move
                safe = not any(outcome is not None and outcome.winner == mover
                               for outcome in (position.copy().play(reply)
                                               for reply in position.legal_moves()))
                return (True, safe, position.bbox[2])
            finally:
                position.undo()
        return max(position.legal_moves(), key=score)


def test_a_game_outgrowing_the_keeper_is_played_on():
    """A 3×3 array plays on however wide the game grows, and past the keeper's room (16×16:
    14 columns) too, its keeper forgetting the far end (the game is stopped at 50 moves)."""
    session = ModelSession(replace(SMALL, width=3, height=3, keeper=16), variant="loop")
    model = FunctionTransport("model", session.respond)
    model.clock = session.clock
    other = FunctionTransport("widener", BotSession(Widener(), "loop").respond)
    # The widener is judged by the wall clock, and grows slower with the game.
    result = play_game(other, model, variant="loop", time_limit=60.0, max_moves=50)
    assert result.how != "forfeit" and session.stats.overflows == 0
    assert result.position.size()[0] > 20


def test_without_forgetting_a_game_outgrowing_the_keeper_goes_unanswered():
    """As the iCEBreaker: once the keeper (16×16: 14 columns) has no room for a move, the
    board, and the model, stop answering."""
    settings = replace(SMALL, width=3, height=3, keeper=16, forgetting=False)
    session = ModelSession(settings, variant="loop")
    model = FunctionTransport("model", session.respond)
    model.clock = session.clock
    other = FunctionTransport("widener", BotSession(Widener(), "loop").respond)
    result = play_game(other, model, variant="loop", time_limit=1.0)
    assert (result.how, result.forfeit, result.winner) == ("forfeit", "late", WHITE)
    assert session.stats.overflows == 1
    assert result.position.size()[0] > 14
    assert len(session.stats.trials) >= 6


def first_moves(settings, seeds, plies=4):
    """The model's moves in the first ``plies`` plies of a game against greedy, per seed."""
    found = []
    for seed in seeds:
        result = game(ModelSession(replace(settings, seed=seed)), "greedy", 1)
        found.append(tuple(result.position.moves[:plies]))
    return found


def test_random_first_moves_differ_by_seed_and_never_lose_at_once():
    settings = replace(SMALL, random_moves=2)
    openings = first_moves(settings, range(12))
    assert len(set(openings)) > 6
    assert len(set(first_moves(SMALL, range(4)))) == 1       # without them: one game
    for opening in openings:
        position = Position()
        for ply, move in enumerate(opening):
            if ply % 2 == WHITE:
                assert not lets_opponent_win(position, move, WHITE)
            position.play(move)


def test_numbered_openings_differ_against_a_deterministic_opponent():
    """The strength bench numbers its games (``opening``): against an opponent that answers
    the same moves the same way (greedy with one seed: the same number gives the same game),
    games 0 to 11 must all begin differently, as positions (moves that place the same tiles,
    moved, are one opening), although one random move as white leaves only two openings: more
    random moves are drawn where needed (but none when none is asked for)."""
    settings = replace(SMALL, random_moves=1, seed=5)

    def opening(number, colour):
        result = game(ModelSession(replace(settings, opening=number)), "greedy", 1, colour)
        return game_shapes(result.position.moves[:10], "standard")

    for colour in (WHITE, RED):
        openings = [opening(number, colour) for number in range(12)]
        assert len(set(openings)) == 12, colour
        assert opening(7, colour) == openings[7]
    settings = replace(settings, random_moves=0)            # none asked for: none drawn
    assert opening(3, WHITE) == opening(4, WHITE)


def test_random_moves_never_make_one_position_twice():
    """After a '+' tile, a '+' above it and one below it make one position, moved: the random
    moves the openings draw give each position once, and every position a legal move makes
    (none loses this early)."""
    position = Position()
    position.play(position.first_moves()[1])
    made = {game_shapes([*position.moves, move], "standard")
            for move in position.legal_moves()}
    drawn = set()
    for number in range(2 * len(made)):
        bot = ModelBot(replace(SMALL, random_moves=1, opening=number), SearchStats(),
                       lambda cycles: 0.0)
        drawn.add(bot._random_move(position))
    shapes = {game_shapes([*position.moves, move], "standard") for move in drawn}
    assert len(shapes) == len(drawn) < len(position.legal_moves())
    assert shapes == made


def test_a_move_loses_when_the_opponent_then_proves_a_win():
    """The bench's random moves are drawn among those ``loses`` keeps, held to plain AND/OR
    search (3 plies here, no trial limit): a move is lost exactly when it completes only the
    opponent's colour or the opponent then proves a win."""
    refuter = proof_search(3, None)
    verdicts = []
    for position in positions_from_play(10, 8):
        me = position.to_move
        for move in position.legal_moves():
            position.play(move)
            outcome = position.outcome
            expected = (outcome.winner not in (None, me) if outcome is not None
                        else attacker_proves(position, 1, 3))
            position.undo()
            assert position.push(move)
            assert loses(position, refuter) == expected, move
            verdicts.append(expected)
    assert 0 < sum(verdicts) < len(verdicts)      # both kinds of move were met


def test_model_is_a_player_spec_and_a_bot_command():
    transport = open_model("depth=1,max_trials=50", seed=1)
    transport.send_line("-W")
    assert transport.read_line(1) in ("@0+", "@0/")
    transport = open_player("model:board=icebreaker", PlayerOptions(variant="8x8"))
    assert "icebreaker" in transport.name
    done = subprocess.run([sys.executable, "-m", "fpgatrax.host.cli.main", "bot",
                           "model:depth=1,max_trials=50"], input="-B\n@0/\n",
                          capture_output=True, text=True, timeout=60)
    position = Position()
    position.play(parse_move(position, "@0/"))
    position.play(parse_move(position, done.stdout.strip()))     # a legal answer
