"""Property tests of the reference engine (hypothesis chooses the games)."""

import random

import naive_rules as naive
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fpgatrax.host.rules.columns import column_name
from fpgatrax.host.rules.notation import format_move, parse_move
from fpgatrax.host.rules.position import IllegalMove, Position, xy_of
from fpgatrax.host.rules.record import moves_text, parse_record, replay

seeds = st.integers(min_value=0, max_value=2**32 - 1)
variants = st.sampled_from(["standard", "8x8", "loop", "mini"])


def random_position(seed, variant="standard", plies=40):
    rng = random.Random(seed)
    position = Position(variant)
    for _ in range(rng.randrange(plies)):
        legal = position.legal_moves()
        if not legal or position.outcome:
            break
        position.play(rng.choice(legal))
    return position, rng


@settings(max_examples=60, deadline=None)
@given(seeds, variants)
def test_format_then_parse_gives_the_same_move(seed, variant):
    position, _ = random_position(seed, variant)
    if position.outcome:
        return
    for move in position.candidates():
        assert parse_move(position, format_move(position, move)) == move


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_forced_play_result_does_not_depend_on_fill_order(seed):
    position, rng = random_position(seed)
    if position.outcome:
        return
    board = {xy_of(k): t for k, t in position.tiles.items()}
    for key, tile in position.legal_moves():
        move = (xy_of(key), tile)
        orders = {tuple(sorted(naive.apply(board, move, rng=random.Random(i)).items()))
                  for i in range(3)}
        position.play((key, tile))
        engine = tuple(sorted((xy_of(k), t) for k, t in position.tiles.items()))
        position.undo()
        assert orders == {engine}


@settings(max_examples=60, deadline=None)
@given(seeds, variants)
def test_forced_play_never_grows_the_bounding_box(seed, variant):
    position, rng = random_position(seed, variant)
    for _ in range(20):
        legal = position.legal_moves()
        if not legal or position.outcome:
            break
        key, tile = rng.choice(legal)
        x, y = xy_of(key)
        if position.bbox is None:
            expected = (x, y, x, y)
        else:
            x0, y0, x1, y1 = position.bbox
            expected = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))
        position.play((key, tile))
        xs = [xy_of(k)[0] for k in position.tiles]
        ys = [xy_of(k)[1] for k in position.tiles]
        assert (min(xs), min(ys), max(xs), max(ys)) == expected == position.bbox


@settings(max_examples=60, deadline=None)
@given(seeds, variants)
def test_a_random_game_replays_from_its_record(seed, variant):
    position, _ = random_position(seed, variant, plies=80)
    header = "# variant: " + variant + "\n" if variant != "standard" else ""
    text = "Ann vs Bob\n" + header + "\n".join(moves_text(position)) + "\n"
    record = parse_record(text.replace("\n", "\r\n"))
    result = replay(record)
    assert (record.white, record.black) == ("Ann", "Bob")
    assert result.position.tiles == position.tiles
    if position.outcome:
        assert (result.winner, result.how, result.move_number) == (
            position.outcome.winner, position.outcome.how, position.outcome.move_number)
    else:
        assert result.how == "unfinished" and result.move_number == len(position.moves)


def _state(position):
    return (dict(position.tiles), dict(position.frontier), position.bbox, list(position.moves),
            position.outcome)


@settings(max_examples=40, deadline=None)
@given(seeds, variants)
def test_push_plays_exactly_the_turns_play_plays(seed, variant):
    """``push`` (the searches' fast turn) takes exactly the candidates ``play`` finds legal,
    leaves the same tiles and frontier and the same win (``play`` alone looks for 8x8 draws),
    refuses the rest leaving the position as it was, and ``undo`` takes it back."""
    position, _ = random_position(seed, variant)
    if position.outcome:
        return
    before = _state(position)
    for move in position.candidates():
        reference = position.copy()
        try:
            reference.play(move)
        except IllegalMove:
            assert not position.push(move)
            assert _state(position) == before
            continue
        assert position.push(move)
        assert _state(position)[:4] == _state(reference)[:4]
        drawn = reference.outcome is not None and reference.outcome.how == "draw"
        assert position.outcome == (None if drawn else reference.outcome)
        position.undo()
        assert _state(position) == before


@settings(max_examples=40, deadline=None)
@given(seeds, variants)
def test_a_position_of_its_own_tiles_plays_as_the_game(seed, variant):
    """``Position.of_tiles`` with a game's tiles and moves (a window holding all of it) has the
    game's frontier, box and side to move, and every candidate plays there as in the game."""
    game, _ = random_position(seed, variant)
    if game.outcome:
        return
    window = Position.of_tiles(game.tiles, game.moves, variant)
    assert _state(window) == _state(game)
    assert window.to_move == game.to_move
    for move in game.candidates():
        pushed = game.push(move)
        assert window.push(move) == pushed
        if pushed:
            assert _state(window) == _state(game)
            window.undo()
            game.undo()


@settings(max_examples=30, deadline=None)
@given(seeds, st.integers(min_value=3, max_value=20_000))
def test_a_square_far_from_the_tiles_is_refused_as_such(seed, beyond):
    """A column or a row ``beyond`` past the ring around the tiles, however far (past the
    engine's plane too), is refused as not next to a tile, never with another error."""
    position, _ = random_position(seed)
    if position.bbox is None or position.outcome:
        return
    width, height = position.size()
    far = column_name(width + 1 + beyond)
    for text in (f"{far}1+", f"A{height + 1 + beyond}+", f"{far}{height + 1 + beyond}/"):
        with pytest.raises(IllegalMove, match="not next to a tile"):
            parse_move(position, text)
