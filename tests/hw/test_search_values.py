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
from fpgatrax.hw.search_model import SearchModel, SearchValues


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
    mine_weight = search_model.MINE_WEIGHT
    plies = range(1, values.depth + values.extension + values.double_plies + 2)
    node_values = {0, win + 1, -(win + 1), *range(-limit, limit + 1),
                   *(win - ply for ply in plies), *(ply - win for ply in plies)}
    for value in node_values:
        assert value in values.value and holds(values.value, value), value
    for n in range(count + 1):
        assert holds(values.count, n), n
    # The leaf's sum is linear in each count: its extremes are at the counts' corners.
    for mine, theirs, threats in itertools.product((0, count), repeat=3):
        total = mine_weight * mine - theirs - weight * threats
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
    ("MINE_WEIGHT", 9), ("DOUBLE_PLIES", 5), ("DOUBLE_PLIES", 9),
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
    # WIN - (depth + 1 + extension + DOUBLE_PLIES), a double attack at the deepest leaf, is
    # the smallest win a search sees: 27 at depth 3 with one ply of extension, 28 without.
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


def test_the_ranges_are_no_wider_than_what_the_search_computes():
    """Each range's ends are numbers the search computes (so no register is a bit wider than
    it must be): ±(WIN + 1) for the values (the root window's bounds), the leaf's extreme
    sums, the largest count."""
    values = SearchValues(3, 1)
    win, count = search_model.WIN, search_model.MAX_COUNT
    weight, mine_weight = search_model.THREAT_WEIGHT, search_model.MINE_WEIGHT
    assert values.inf == win + 1
    assert (values.value[0], values.value[-1]) == (-values.inf, values.inf)
    sums = [mine_weight * mine - theirs - weight * threats
            for mine, theirs, threats in itertools.product((0, count), repeat=3)]
    assert (values.leaf_sum[0], values.leaf_sum[-1]) == (min(sums), max(sums))
    assert values.count[-1] == count


@pytest.mark.parametrize("name,refused,accepted", [
    ("WIN", [-1, 2.5], [0]), ("MAX_COUNT", [0, -1], [1]), ("THREAT_WEIGHT", [-1], [0]),
    ("MINE_WEIGHT", [-1, 1.5], [0]), ("DOUBLE_PLIES", [-1], [0]),
    ("LEAF_LIMIT", [-1, "7"], [0]),
])
def test_a_constant_out_of_its_range_is_refused_by_name(monkeypatch, name, refused, accepted):
    for value in refused:
        monkeypatch.setattr(search_model, name, value)
        with pytest.raises(ValueError, match=f"{name} must be a whole number"
                                             f"{' of at least 1' if name == 'MAX_COUNT' else ''}"
                                             f", not {value!r}"):
            SearchValues(1, 0)
    for value in accepted:
        monkeypatch.setattr(search_model, name, value)
        if name == "WIN":               # no leaf fits below a win of 0: refused for that
            with pytest.raises(ValueError, match="depth|LEAF_LIMIT"):
                SearchValues(1, 0)
        else:
            assert getattr(SearchValues(1, 0), name.lower()) == value


def test_depth_and_extension_are_refused_past_their_bounds():
    top = search_model.WIN // 4
    SearchValues(top, 0)
    SearchValues(1, top)
    for depth in (0, top + 1, 2.0):
        with pytest.raises(ValueError, match=f"depth must be a whole number from 1 to {top}, "
                                             f"not {depth!r}"):
            SearchValues(depth, 0)
    for extension in (-1, top + 1, 1.0):
        with pytest.raises(ValueError, match=f"extension must be a whole number from 0 to "
                                             f"{top}, not {extension!r}"):
            SearchValues(1, extension)


def test_the_search_refuses_a_threat_search_share_as_large_as_its_own_limit():
    """The threat-space search's trials are part of the move's; a share of all of them or
    more is refused when the search is made, and any share below them, or without a limit,
    is taken."""
    for share in (100, 150):
        with pytest.raises(ValueError, match=rf"limit \({share}\) must lie below the search's "
                                             r"\(100\)"):
            SearchModel(100, tss=3, tss_trials=share)
    assert SearchModel(100, tss=3, tss_trials=99).tss_trials == 99
    assert SearchModel(None, tss=3, tss_trials=5000).tss_trials == 5000


def test_a_threat_search_too_deep_is_refused_naming_the_deepest_allowed():
    def accepted(plies):
        try:
            SearchModel(tss=plies)
        except ValueError:
            return False
        return True

    deepest = max(plies for plies in range(3, 200, 2) if accepted(plies))
    assert not accepted(deepest + 2) and not accepted(deepest - 1)
    with pytest.raises(ValueError, match=f"odd number of plies from 3 to {deepest} "):
        SearchModel(tss=deepest + 2)
