"""The player's move on games larger than its array (``hw/player_model.py``), checked with the
reference engine on positions from play: the window's placement, the array's view of it, the
keeper's promises (always legal, a win whenever one exists anywhere, the search's move kept
when it is sound, never a loss at once while another move holds, the keeper's room), and games
that outgrow the keeper's board (what it forgets, the moves it takes on trust, answers still
legal)."""

import random

import pytest
from threat_proofs import positions_from_play

from fpgatrax.host.bench.room import stretching_move, widening_move
from fpgatrax.host.rules.position import E, N, Position, S, W, xy_of
from fpgatrax.hw.player_model import (
    KeeperView,
    PlayerModel,
    edge_move,
    keeper_pass,
    player_window,
    window_position,
)
from fpgatrax.hw.search_model import SearchModel, window_of

POSITIONS = [p for p in positions_from_play(140, seed=15) if p.tiles]
SIZES = [(6, 6), (8, 5), (20, 20)]


def view_of(position, size=64):
    """What a keeper of ``size`` holds after the moves of ``position``."""
    view = KeeperView(position.variant, size)
    for move in position.moves:
        view.play(move)
    return view


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
        move, reason, _ = keeper_pass(view_of(position), proposal)
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
        move, _, _ = keeper_pass(view_of(position, size), None)
        if move is None:
            continue
        after = position.copy()
        after.play(move)
        ax0, ay0, ax1, ay1 = after.bbox
        assert max(ax1 - ax0, ay1 - ay0) + 1 <= size - 2


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


def test_a_keeper_that_holds_the_game_holds_it_exactly():
    for position in POSITIONS:
        view = view_of(position)
        assert (view.position.tiles, view.position.outcome, view.box, view.cut, view.blind) == (
            position.tiles, position.outcome, position.bbox, set(), 0)


@pytest.mark.parametrize("stretch", [widening_move, stretching_move],
                         ids=["east-west", "every-way"])
def test_past_its_board_the_keeper_holds_part_of_the_game(stretch):
    """Games stretched to three times a 32×32 keeper's room (both ends in turn, or every way):
    at every turn the keeper's box lies within the game's and spans no more than the board
    holds, every tile it holds is the game's, each cut side is one the game reaches beyond, no
    line is judged once a side is cut,
    and sides get forgotten and moves taken on trust; and every answer is legal, the edge moves
    after the first move on trust included, of which there are many."""
    rng = random.Random(7)
    size, exact, forgot, trusted, edges = 32, 0, 0, 0, 0
    for _ in range(2):
        position = Position()
        position.play(position.first_moves()[rng.randrange(2)])
        player = PlayerModel(SearchModel(max_trials=100, window=(5, 5), depth=1), (5, 5),
                             keeper_size=size)
        while position.outcome is None and max(position.size()) < 3 * (size - 2):
            view = player.view(position)
            x0, y0, x1, y1 = view.box
            gx0, gy0, gx1, gy1 = position.bbox
            assert gx0 <= x0 <= x1 <= gx1 and gy0 <= y0 <= y1 <= gy1
            assert max(x1 - x0, y1 - y0) <= size - 3
            beyond = {N: gy0 < y0, E: gx1 > x1, S: gy1 > y1, W: gx0 < x0}
            assert all(beyond[side] for side in view.cut)
            if view.cut:
                assert view.position.variant.line_span is None
            inside = {k: t for k, t in position.tiles.items()
                      if x0 <= xy_of(k)[0] <= x1 and y0 <= xy_of(k)[1] <= y1}
            assert view.position.tiles.items() <= inside.items()     # it only loses tiles
            choice = player.choose(position)
            assert outcome_of(position, choice.move) != "illegal"
            exact += view.position.tiles == inside
            edges += choice.reason == "edge"
            position.play(stretch(position, rng))
        forgot, trusted = forgot + len(view.cut), trusted + view.blind
    assert exact >= 150 and forgot >= 2 and trusted >= 20 and edges >= 20


def test_the_edge_move_is_legal_whatever_the_board():
    """The edge move is legal on every position of random games, each a column west of the
    game's box, next to the tile of the move that last reached its westmost column."""
    rng = random.Random(11)
    tried = 0
    for _ in range(100):
        position = Position()
        position.play(rng.choice(position.first_moves()))
        while position.outcome is None and len(position.moves) < 80:
            key, tile = edge_move(position)
            x, y = xy_of(key)
            reached = [xy_of(k) for k, _ in position.moves if xy_of(k)[0] == x + 1]
            assert x + 1 == position.bbox[0] and reached and reached[0][1] == y
            assert outcome_of(position, (key, tile)) != "illegal"
            tried += 1
            position.play(rng.choice(position.legal_moves()))
    assert tried >= 1500
