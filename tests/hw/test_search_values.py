# amaranth: UnusedElaboratable=no
"""The search's value widths follow its constants: every number the gateware search computes fits
the shape ``SearchValues`` derives for it, for the constants as they are and for raised ones
(which must either widen the shapes or be refused with a ValueError), and the gateware builds
its registers from exactly those shapes."""

import itertools

import pytest
from amaranth.hdl import Fragment, Shape

from fpgatrax.hw import search_model
from fpgatrax.hw.search import TRIAL_BITS, MoveSearch, frame_layout
from fpgatrax.hw.search_model import SearchValues


def holds(shape, number):
    shape = Shape.cast(shape)
    if shape.signed:
        return -(1 << (shape.width - 1)) <= number < 1 << (shape.width - 1)
    return 0 <= number < 1 << shape.width


def assert_every_value_fits(values):
    """Enumerate what the search computes from the module's constants (not from ``values``)
    and check that the shapes ``values`` gives hold it."""
    win, count = search_model.WIN, search_model.MAX_COUNT
    weight, limit = search_model.THREAT_WEIGHT, search_model.LEAF_LIMIT
    plies = range(1, values.depth + values.extension + 2)
    node_values = {0, win + 1, -(win + 1), *range(-limit, limit + 1),
                   *(win - ply for ply in plies), *(ply - win for ply in plies)}
    for value in node_values:
        assert value in values.value and holds(values.value, value), value
    for n in range(count + 1):
        assert holds(values.count, n), n
    # The leaf's sum is linear in each count: its extremes are at the counts' corners.
    for mine, theirs, threats in itertools.product((0, count), repeat=3):
        total = mine - theirs - weight * threats
        assert total in values.leaf_sum and holds(values.leaf_sum, total), total


@pytest.mark.parametrize("depth", range(1, search_model.WIN // 4 + 1))
@pytest.mark.parametrize("extension", [0, 1])
def test_the_constants_fit(depth, extension):
    assert_every_value_fits(SearchValues(depth, extension))


def test_todays_widths():
    values = SearchValues(3)
    assert Shape.cast(values.value).width == 7 and Shape.cast(values.value).signed
    assert Shape.cast(values.leaf_sum).width == 8 and Shape.cast(values.leaf_sum).signed
    assert Shape.cast(values.count).width == 4 and not Shape.cast(values.count).signed


@pytest.mark.parametrize("name,raised", [
    ("WIN", 200), ("WIN", 64), ("MAX_COUNT", 100), ("MAX_COUNT", 16), ("THREAT_WEIGHT", 50),
    ("LEAF_LIMIT", 26), ("LEAF_LIMIT", 27), ("LEAF_LIMIT", 100),
])
def test_a_raised_constant_widens_or_is_refused(monkeypatch, name, raised):
    monkeypatch.setattr(search_model, name, raised)
    try:
        values = SearchValues(3)
    except ValueError:
        with pytest.raises(ValueError):
            MoveSearch(7, 7, depth=3)
        return
    assert_every_value_fits(values)
    search = MoveSearch(7, 7, depth=3)
    assert getattr(search.values, name.lower()) == raised
    Fragment.get(search, None)      # elaborates with the derived shapes
    assert search._value.shape() == Shape.cast(values.value)
    for field in ("alpha", "beta", "best"):
        assert Shape.cast(frame_layout(7, 7, values)[field].shape) == Shape.cast(values.value)
        assert search._frame[field].shape() == Shape.cast(values.value)
    assert all(count.shape() == Shape.cast(values.count) for count in search._counts)


def test_leaf_limit_below_the_smallest_win(monkeypatch):
    # WIN - (depth + 1 + extension) is the smallest win a search sees: 27 at depth 3 with one
    # ply of extension, 28 without.
    monkeypatch.setattr(search_model, "LEAF_LIMIT", 26)
    SearchValues(3, 1)
    monkeypatch.setattr(search_model, "LEAF_LIMIT", 27)
    SearchValues(3, 0)
    with pytest.raises(ValueError, match="LEAF_LIMIT"):
        SearchValues(3, 1)


def test_trial_limit_fits_the_counter():
    MoveSearch(7, 7, depth=1, max_trials=(1 << TRIAL_BITS) - 1)
    with pytest.raises(ValueError, match="max_trials"):
        MoveSearch(7, 7, depth=1, max_trials=1 << TRIAL_BITS)
