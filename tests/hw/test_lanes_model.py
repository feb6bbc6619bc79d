"""The lanes' model against one search: splitting the root's squares among lanes changes how
the moves are found, not what the search can prove or what the best value is."""

import pytest
from threat_proofs import positions_from_play

from fpgatrax.hw.lanes_model import LanesModel, raster_key, search_model
from fpgatrax.hw.search_model import SearchModel, candidates_in_order, window_of

WINDOW = (12, 12)


def positions():
    """Positions from play with two tiles or more: the four squares around a lone tile have
    only two sums of coordinates, which leave a lane without a square (of two lanes, or of
    three)."""
    return [p for p in positions_from_play(30, 5)[2::3] if len(p.tiles) > 1]


@pytest.mark.parametrize("lanes", [2, 3])
def test_lanes_split_the_root_squares_between_them(lanes):
    """Every root candidate is searched by exactly one lane, and every lane has some."""
    for position in positions():
        window = window_of(position, WINDOW)
        owners = {}
        for lane in range(lanes):
            model = SearchModel(depth=1, window=WINDOW, lane=lane, lanes=lanes)
            model.choose(position)
            for move in candidates_in_order(position, window):
                if model._owns(move[0]):
                    assert move not in owners
                    owners[move] = lane
        assert set(owners) == set(candidates_in_order(position, window))
        # Neighbouring squares go to different lanes, so every lane has a share.
        assert set(owners.values()) == set(range(lanes))


@pytest.mark.parametrize("lanes,depth", [(2, 1), (3, 1), (3, 2)])
def test_unlimited_lanes_find_the_value_of_one_search(lanes, depth):
    """Without a trial limit every lane finishes every iteration, so the best of the lanes'
    exact bests is the one search's best value; a win is the one search's win (the first in
    raster order), and the trials add up lane by lane."""
    for position in positions():
        one = SearchModel(depth=depth, window=WINDOW).choose(position)
        many = LanesModel(lanes, depth=depth, window=WINDOW).choose(position)
        assert (many.reason == "win") == (one.reason == "win")
        if one.reason == "win":
            assert many.move == one.move
        else:
            assert (many.value, many.depth) == (one.value, depth)
        assert many.trials == sum(many.lane_trials)
        assert many.time_trials == max(many.lane_trials) < many.trials


def test_a_proven_win_is_the_first_in_raster_order():
    """The threat-space search, unlimited, proves a root move whichever lane holds it: the
    lanes play the first proven move in raster order, as one search plays the first proven
    in its candidate order (which is raster order)."""
    proofs = 0
    for position in positions_from_play(24, 21)[3::2]:
        one = SearchModel(depth=1, tss=5, window=WINDOW).choose(position)
        many = LanesModel(3, depth=1, tss=5, window=WINDOW).choose(position)
        assert many.reason == one.reason or "threat" not in (one.reason, many.reason)
        if one.reason == "threat":
            proofs += 1
            assert many.move == one.move
    assert proofs >= 2


def test_lanes_compare_at_the_depth_all_finished():
    """With a trial limit the lanes finish different depths: the choice is the best of the
    lanes' results at the shallowest of them, ties to the first in raster order."""
    seen = set()
    for position in positions():
        model = LanesModel(3, max_trials=900, depth=3, window=WINDOW)
        choice = model.choose(position)
        if choice.reason in ("win", "threat"):
            continue
        answers = [(lane.choose(position), lane.iterations) for lane in model.lanes]
        found = [(c, it) for c, it in answers if c is not None]
        depth = min(c.depth for c, _ in found)
        seen.add(len({c.depth for c, _ in found}) > 1)
        offers = ([it[depth - 1] for _, it in found] if depth else
                  [(c.move, c.value) for c, _ in found])
        best = max(value for _, value in offers)
        first = min((move for move, value in offers if value == best), key=raster_key)
        assert (choice.move, choice.value, choice.depth) == (first, best, depth)
    assert seen == {True, False}     # lanes that finished different depths, and the same


def test_settings_that_do_not_go_together_are_refused():
    with pytest.raises(ValueError, match="lane 3 is not one of lanes 0 to 2"):
        SearchModel(window=WINDOW, lane=3, lanes=3)
    with pytest.raises(ValueError, match="need a window"):
        SearchModel(lane=0, lanes=2)
    with pytest.raises(ValueError, match="at least two"):
        LanesModel(1, window=WINDOW)
    assert isinstance(search_model(1, window=WINDOW), SearchModel)
