"""The player's move on games larger than its array (``hw/player_model.py``), checked with the
reference engine on positions from play: the window's placement, the array's view of it, and
the keeper's promises (always legal, a win whenever one exists anywhere, the search's move
kept when it is sound, never a loss at once while another move holds, the keeper's room)."""

import random

import pytest
from threat_proofs import positions_from_play

from fpgatrax.host.rules.position import Position, xy_of
from fpgatrax.hw.player_model import PlayerModel, keeper_pass, player_window, window_position
from fpgatrax.hw.search_model import SearchModel, window_of

POSITIONS = [p for p in positions_from_play(140, seed=15) if p.tiles]
SIZES = [(6, 6), (8, 5), (20, 20)]


def outcome_of(position, move):
    """The Outcome after ``move``, judged by ``play`` (the engine's full check), or
    "illegal"."""
    after = position.copy()
    try:
        return after.play(move)
    except Exception:      # noqa: BLE001 (IllegalMove and nothing else is expected)
        return "illegal"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_window_holds_the_game_or_lies_around_the_last_move(size):
    width, height = size
    for position in POSITIONS:
        (x0, y0, x1, y1), cut = player_window(position, size)
        assert (x1 - x0 + 1, y1 - y0 + 1) == size
        bx0, by0, bx1, by1 = position.bbox
        fits = bx1 - bx0 + 1 <= width and by1 - by0 + 1 <= height
        assert cut == (not fits)
        if fits:
            assert (x0, y0, x1, y1) == window_of(position, size)
            continue
        fx, fy = xy_of(position.moves[-1][0])
        assert x0 <= fx <= x1 and y0 <= fy <= y1
        for first, last, lo, hi, n in ((x0, x1, bx0, bx1, width), (y0, y1, by0, by1, height)):
            if hi - lo + 1 > n:     # a cut axis stays within the tiles and their ring
                assert lo - 1 <= first and last <= hi + 1


def test_the_array_sees_the_windows_tiles_with_the_games_turn():
    for position in POSITIONS:
        window, cut = player_window(position, (6, 6))
        seen = window_position(position, window, cut)
        x0, y0, x1, y1 = window
        inside = {k: t for k, t in position.tiles.items()
                  if x0 <= xy_of(k)[0] <= x1 and y0 <= xy_of(k)[1] <= y1}
        assert seen.tiles == inside
        assert seen.to_move == position.to_move
        # Its frontier is what the engine builds when those tiles are played: every empty
        # square next to one, with the edges entering it.
        for key, entering in seen.frontier.items():
            assert key not in inside
            assert entering == position.frontier.get(key, entering) & entering
        if cut:
            assert seen.variant.line_span is None


def test_a_whole_game_gives_the_same_position_back():
    for position in POSITIONS:
        again = Position.of_tiles(position.tiles, position.moves)
        assert (again.tiles, again.frontier, again.bbox, again.to_move) == (
            position.tiles, position.frontier, position.bbox, position.to_move)


@pytest.mark.parametrize("seed", range(3))
def test_the_keeper_pass_keeps_its_promises(seed):
    rng = random.Random(seed)
    for position in POSITIONS:
        legal = position.legal_moves()
        results = {move: outcome_of(position, move) for move in legal}
        mover = position.to_move
        wins = [m for m, o in results.items() if o is not None and o.winner == mover]
        safe = [m for m, o in results.items() if o is None]
        proposal = rng.choice([*legal, *position.candidates(), None])
        before = dict(position.tiles)
        move, reason, _ = keeper_pass(position, proposal)
        assert position.tiles == before
        assert move in results, f"{move} is not legal"
        if wins:
            assert move in wins and reason == "win"
        elif proposal in safe:
            assert move == proposal and reason == "search"
        elif safe:
            assert move in safe


def test_the_keeper_has_no_room_beyond_its_board():
    for position in POSITIONS:
        x0, y0, x1, y1 = position.bbox
        size = max(x1 - x0, y1 - y0) + 3      # the tiles fit, with one more column or row
        move, _, _ = keeper_pass(position, None, keeper_size=size)
        if move is None:
            continue
        after = position.copy()
        after.play(move)
        ax0, ay0, ax1, ay1 = after.bbox
        assert max(ax1 - ax0, ay1 - ay0) + 1 <= size - 2


def stretching_move(position, rng):
    """A random legal move that ends nothing, most often one that widens the tiles' box."""
    quiet = [m for m in position.legal_moves() if outcome_of(position, m) is None]
    if not quiet:
        return position.legal_moves()[0]
    x0, y0, x1, y1 = position.bbox
    wider = [m for m in quiet if not (x0 <= xy_of(m[0])[0] <= x1 and y0 <= xy_of(m[0])[1] <= y1)]
    return rng.choice(wider if wider and rng.random() < 0.8 else quiet)


def test_games_three_arrays_wide_get_a_legal_answer_every_turn():
    """A 5×5 array chooses on every position of games that both sides stretch (the game goes
    on with the stretching move, so it grows to three arrays and more): every answer is legal,
    none is missing, and a win is taken whenever the whole board has one."""
    rng = random.Random(5)
    widest, cut, wins = 0, 0, 0
    for _ in range(3):
        position = Position()
        position.play(position.first_moves()[rng.randrange(2)])
        player = PlayerModel(SearchModel(max_trials=200, window=(5, 5), depth=1), (5, 5))
        while position.outcome is None and len(position.moves) < 60:
            choice = player.choose(position)
            assert choice.move is not None
            outcome = outcome_of(position, choice.move)
            assert outcome != "illegal"
            mover = position.to_move
            if any(o is not None and o.winner == mover
                   for o in map(lambda m: outcome_of(position, m), position.legal_moves())):
                assert outcome is not None and outcome.winner == mover
                wins += 1
            cut += choice.cut
            position.play(stretching_move(position, rng))
            widest = max(widest, *position.size())
    assert widest >= 15 and cut >= 50 and wins >= 5
