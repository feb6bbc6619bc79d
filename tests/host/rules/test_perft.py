"""Perft against the reference figures of ``docs/figures.md``, and the through-wins count against
the naive oracle (an independent move generator)."""

import naive_rules as naive
import pytest

from fpgatrax.host.rules.perft import perft
from fpgatrax.host.rules.position import Position

SPEC_FIGURES = {1: 2, 2: 24, 3: 432, 4: 9568, 5: 246888}


@pytest.mark.parametrize("depth", sorted(SPEC_FIGURES))
def test_perft_matches_the_spec(depth):
    assert perft(depth) == SPEC_FIGURES[depth]


def naive_perft(board, depth, variant):
    if depth == 0:
        return 1
    return sum(naive_perft(naive.apply(board, m, variant), depth - 1, variant)
               for m in naive.legal_moves(board, variant))


@pytest.mark.parametrize("variant", ["standard", "8x8"])
def test_perft_through_wins_matches_the_oracle(variant):
    assert perft(4, Position(variant), through_wins=True) == naive_perft({}, 4, variant)
