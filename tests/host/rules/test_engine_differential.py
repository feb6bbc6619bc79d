"""The reference engine against the naive oracle, move by move, on random games of every variant.

Wins are rare in uniformly random play, so the games mix random moves with moves that win for
the mover or for the opponent; the test also checks that loops, lines and opponent wins actually
occurred, so a broken generator cannot make it pass vacuously.
"""

import random
from collections import Counter

import naive_rules as naive
import pytest

from fpgatrax.host.rules.position import IllegalMove, Position, key_of, xy_of


def engine_moves(position):
    return sorted((xy_of(k), t) for k, t in position.legal_moves())


def board_of(position):
    return {xy_of(k): t for k, t in position.tiles.items()}


def pick(rng, position, ply, target, axis, lines_first=True):
    """Before ply ``target`` a random move that does not end the game, often one that widens the
    tiles along ``axis`` so that lines become possible; from then on a winning move (a line when
    there is one and ``lines_first``, else a loop when there is one) whenever there is one."""
    quiet, ending, lines, widening = [], [], [], []
    for move in position.legal_moves():
        outcome = position.play(move)
        if outcome:
            (lines if outcome.how == "line" else ending).append(move)
        else:
            quiet.append(move)
            if position.size()[axis] > 1 + (ply + 1) // 3:
                widening.append(move)
        position.undo()
    if ply >= target or not quiet:
        if lines or ending:
            return rng.choice((lines or ending) if lines_first else (ending or lines))
    if widening and rng.random() < 0.7:
        return rng.choice(widening)
    return rng.choice(quiet or ending)


@pytest.mark.parametrize("variant", ["standard", "8x8", "loop", "mini"])
def test_random_games_match_the_oracle(variant):
    rng = random.Random(f"differential-{variant}")
    seen = Counter()
    for game in range(25):
        position, board = Position(variant), {}
        target = rng.randrange(8, 60) if variant != "mini" else rng.randrange(1, 5)
        axis = rng.randrange(2)
        for ply in range(120):
            legal = naive.legal_moves(board, variant)
            assert engine_moves(position) == sorted(legal), f"game {game} ply {ply}: legal moves"
            candidates = sorted((xy_of(k), t) for k, t in position.candidates())
            for move in candidates:
                if move not in legal:            # every illegal candidate is refused, unchanged
                    before = board_of(position)
                    with pytest.raises(IllegalMove):
                        position.play((key_of(*move[0]), move[1]))
                    assert board_of(position) == before
                    seen["illegal"] += 1
            if not legal:
                assert position.outcome is not None and position.outcome.how == "draw"
                seen["draw"] += 1
                break
            # On Mini Trax's 3 × 3 area games are short and lines come so easily that loops
            # must be preferred too.
            key, tile = pick(rng, position, ply, target, axis,
                             lines_first=variant != "mini" or game % 2 == 0)
            move = (xy_of(key), tile)
            board = naive.apply(board, move, variant)
            outcome = position.play((key_of(*move[0]), move[1]))
            assert board_of(position) == board, f"game {game} ply {ply}: tiles"
            colour, ways = naive.winner(board, ply & 1, variant)
            if colour is None:
                assert outcome is None or outcome.how == "draw"
                continue
            assert outcome is not None and outcome.winner == colour and outcome.how in ways
            seen[outcome.how] += 1
            seen["opponent" if colour != ply & 1 else "mover"] += 1
            seen[f"colour{colour}"] += 1
            seen["both"] += len(naive.wins(board, variant)) == 2
            break
    assert seen["illegal"] > 0 and seen["loop"] > 0 and seen["mover"] > 0
    assert seen["opponent"] > 0 and seen["colour0"] > 0 and seen["colour1"] > 0
    if variant != "loop":
        assert seen["line"] > 0
    if variant == "standard":
        assert seen["both"] > 0
    if variant == "loop":
        assert seen["line"] == 0
    if variant in ("8x8", "mini"):
        assert seen["draw"] > 0
