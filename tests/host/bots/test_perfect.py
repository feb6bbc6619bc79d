"""Mini Trax solved: the solver against an exhaustive search over the naive rules oracle, the
symmetries against no symmetries, and ``perfect`` never losing a won or drawn position."""

import functools
import random

import naive_rules as naive
import pytest

from fpgatrax.host.bots import make_bot
from fpgatrax.host.bots.perfect import DRAW, LOSS, WIN, MiniSolver, PerfectBot, solve_empty_board
from fpgatrax.host.bots.session import BotSession
from fpgatrax.host.cli.main import main
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.position import Position, xy_of


@functools.cache
def naive_value(board_items, mover):
    """The value for ``mover`` of the naive board (a frozenset of its items), by brute force
    over every legal move: no symmetry, the oracle's own rules."""
    board = dict(board_items)
    best = LOSS
    for move in naive.legal_moves(board, "mini"):
        after = naive.apply(board, move, "mini")
        colour, _ = naive.winner(after, mover, "mini")
        if colour is not None:
            value = WIN if colour == mover else LOSS
        elif not naive.legal_moves(after, "mini"):
            value = DRAW
        else:
            value = -naive_value(frozenset(after.items()), 1 - mover)
        best = max(best, value)
        if best == WIN:
            break
    return best


def test_the_empty_board_value_is_the_same_without_symmetries():
    value, solver = solve_empty_board()
    plain, unfolded = solve_empty_board(symmetries=False)
    assert plain == value and len(unfolded.table) > 4 * len(solver.table)


def test_positions_from_play_match_brute_force_on_the_naive_rules():
    """The solver's value of positions after four to six random moves against an exhaustive
    search of the naive oracle (its own rules, no symmetry, no engine)."""
    rng = random.Random("mini")
    solver = MiniSolver()
    checked = 0
    for _ in range(40):
        position, board = Position("mini"), {}
        for _ in range(rng.randrange(4, 7)):
            moves = position.legal_moves()
            key, tile = rng.choice(moves)
            position.play((key, tile))
            board = naive.apply(board, (xy_of(key), tile), "mini")
            if position.outcome is not None:
                break
        if position.outcome is None:
            assert solver.value(position) == naive_value(frozenset(board.items()),
                                                         position.to_move)
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("rival", ["random", "greedy", "alphabeta"])
def test_perfect_never_loses_and_wins_what_is_won(rival):
    solver = MiniSolver()
    for game in range(12):
        perfect = PerfectBot(seed=game)
        other = make_bot(rival, seed=game, depth=2 if rival == "alphabeta" else None)
        position = Position("mini")
        mine = game % 2
        worst = None
        while position.outcome is None:
            if position.to_move == mine:
                value = solver.value(position)
                worst = value if worst is None else min(worst, value)
                position.play(perfect.choose(position))
            else:
                position.play(other.choose(position))
        assert position.outcome.winner in (mine, None), (rival, game)
        if worst == WIN:
            assert position.outcome.winner == mine


def test_two_perfect_players_draw_and_vary():
    games = set()
    for seed in range(8):
        white, black = PerfectBot(seed), PerfectBot(seed + 100)
        position = Position("mini")
        while position.outcome is None:
            position.play((white if position.to_move == 0 else black).choose(position))
        assert position.outcome.winner is None
        games.add(tuple(position.moves))
    assert len(games) > 1


def test_perfect_refuses_other_variants(capsys):
    with pytest.raises(UserError, match="only Mini Trax"):
        PerfectBot().choose(Position("standard"))
    with pytest.raises(UserError, match="plays only mini"):
        BotSession(PerfectBot(), "8x8")
    assert main(["match", "--white", "perfect", "--black", "random"]) == 1
    assert "this bot plays only mini (--variant), not standard" in capsys.readouterr().err
