"""Property tests of the reference engine (hypothesis chooses the games)."""

import random

import naive_rules as naive
from hypothesis import given, settings
from hypothesis import strategies as st

from fpgatrax.host.rules.notation import format_move, parse_move
from fpgatrax.host.rules.position import Position, xy_of
from fpgatrax.host.rules.record import moves_text, parse_record, replay

seeds = st.integers(min_value=0, max_value=2**32 - 1)
variants = st.sampled_from(["standard", "8x8", "loop"])


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
