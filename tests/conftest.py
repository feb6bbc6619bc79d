"""Shared test set-up.

The tests folder is importable (for the naive rules oracle and the other test helpers), and
the slow tiers (gateware in Verilator, bitstreams through nextpnr) are collected first, so that
on two cores they start at once and the quick tests fill the gaps beside them.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

SLOW_MARKS = ("nextpnr", "verilator", "formal", "slow")


def pytest_collection_modifyitems(config, items):
    def slowness(item):
        return next((rank for rank, mark in enumerate(SLOW_MARKS)
                     if item.get_closest_marker(mark)), len(SLOW_MARKS))
    items.sort(key=slowness)     # sort is stable: within a tier, the files' own order
