"""The leaf counter: it leaves the search's choice alone, and finds a leaf met twice exactly
where two moves lead to one position."""

from threat_proofs import positions_from_play

from fpgatrax.host.bench.leaves import LeafCounter
from fpgatrax.hw.search_model import SearchModel


def merged_root_moves(position):
    """How many legal moves that end nothing lead to a position (tiles) another one before
    them leads to: forced play can make two moves one."""
    seen, merged = set(), 0
    for move in position.legal_moves():
        position.play(move)
        if position.outcome is None:
            tiles = frozenset(position.tiles.items())
            merged += tiles in seen
            seen.add(tiles)
        position.undo()
    return merged


def test_leaf_counts_and_transpositions():
    merges = shares = 0
    for index, position in enumerate(positions_from_play(8, 11)[2:]):
        for depth in (1, 3) if index < 3 else (1,):       # depth 3 takes seconds
            # Depth 1 without the extension: each leaf is the position after one root move.
            settings = (None, (12, 12), depth, depth - 1, depth > 1)
            counter = LeafCounter(*settings)
            choice = counter.choose(position)
            assert choice == SearchModel(*settings).choose(position)
            if choice.reason == "win":
                continue
            assert counter.repeated_trials <= counter.leaf_trials <= choice.trials
            assert counter.leaf_trials > choice.trials / 2
            if depth == 1:
                merged = merged_root_moves(position)
                assert (counter.repeated_trials > 0) == (merged > 0)
                merges += merged > 0
            else:
                shares += counter.repeated_trials > 0
    assert merges and shares
