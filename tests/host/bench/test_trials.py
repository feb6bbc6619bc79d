"""The trials-per-second benchmark (``make bench-trials``): its figures come from the gateware's
own searches, and its Python rates from the same positions.

The Verilator case shares its compiled search (same array, settings and cap) with the 10×10 case
of ``tests/hw/test_search.py``, on the same worker, so it costs only its simulation.
"""

import dataclasses

import pytest

from fpgatrax.boards.build import board
from fpgatrax.host.bench import trials
from fpgatrax.host.rules.position import Position
from fpgatrax.hw.search_model import SearchModel


def test_percentile_is_the_highest_below_a_hundred_searches():
    few = trials.BoardTrials("b", "", [50.0, 90.0, 70.0], 60_000_000, 1.0, 1.0)
    assert (few.median, few.p99) == (70.0, 90.0)
    many = dataclasses.replace(few, ratios=[float(n) for n in range(1, 201)])
    assert 198 <= many.p99 < 200
    assert many.board_per_s == 60_000_000 / many.median


def test_engine_and_model_rates_count_what_they_did(monkeypatch):
    monkeypatch.setattr(trials, "MIN_SECONDS", 0.0)       # one round of the positions
    position = Position("standard")
    position.play(position.legal_moves()[0])
    clock = iter([0.0, 2.0])
    monkeypatch.setattr(trials.time, "perf_counter", lambda: next(clock))
    # One round over one position: every candidate of the 3x3 ring, each a trial.
    candidates = len(trials.candidates_in_order(position, None))
    assert trials.engine_rate([position], (16, 16)) == candidates / 2.0
    clock = iter([0.0, 4.0])
    monkeypatch.setattr(trials.time, "perf_counter", lambda: next(clock))
    settings = {"max_trials": 50, "depth": 2, "evasions": False, "tss": 0, "tss_trials": 0,
                "lanes": 1, "every_attack": False, "table": 0, "veto": 0, "veto_trials": 0}
    expected = SearchModel(50, (16, 16), 2, 0, False).choose(position).trials
    assert trials.model_rate([position], (16, 16), settings) == expected / 4.0


@pytest.mark.verilator
@pytest.mark.xdist_group("search_harness_10x10_8x8")
def test_table_comes_from_the_gateware_searches(monkeypatch, tmp_path, capsys):
    # The 10x10 case of tests/hw/test_search.py: the 8x8 variant, depth 2, no evasions, 400
    # trials at most per search.
    small = dataclasses.replace(board("hx8k"), name="small", width=10, height=10, variant="8x8")
    monkeypatch.setattr(trials, "boards", lambda: {"small": small})
    searches = []
    measure = trials.measure_board

    def measure_keeping(target, positions, cap):
        result = measure(target, positions, cap)
        searches.append(result)
        return result
    monkeypatch.setattr(trials, "measure_board", measure_keeping)
    page = tmp_path / "page.md"
    page.write_text("# Figures\n<!-- generated: trials -->\nold\n<!-- end generated: trials -->\n")
    trials.main(["--positions", "4", "--trials", "400", "--write", str(page)])
    result, = searches
    assert len(result.ratios) >= 3        # positions with tiles (the empty board is skipped)
    # A trial is at least a PLACE (12 clocks) and a DISCARD; a search's average stays far
    # below the cycles of a whole sweep of the array.
    assert all(20 < ratio < 400 for ratio in result.ratios)
    assert result.clk_freq == small.clk_freq and result.engine_per_s > 0
    row = next(line for line in page.read_text().splitlines() if line.startswith("| small |"))
    assert f"| {result.median:.1f} |" in row and f"| {small.clk_freq / 1e6:g} MHz |" in row
    assert "old" not in page.read_text()
