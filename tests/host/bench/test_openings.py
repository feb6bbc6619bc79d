"""The strength bench's openings: drawn for both sides, reproducible from their seed, each a
position of its own, none handing the next player a win the threat-space rules prove."""

import pytest
from threat_proofs import attacker_proves

from fpgatrax.host.bench.openings import draw_openings
from fpgatrax.host.bench.strength import game_shapes
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.position import Position


def test_openings_are_reproducible_and_differ_as_positions():
    openings = draw_openings(10, 3, seed=4)
    assert draw_openings(10, 3, seed=4) == openings
    assert draw_openings(10, 3, seed=5) != openings
    assert all(len(opening) == 3 for opening in openings)
    finals = {game_shapes(opening, "standard")[-1] for opening in openings}
    assert len(finals) == len(openings)


def loses(position, move):
    """Whether ``move`` lets the other side prove a win by the oracle's 3 plies."""
    position.play(move)
    try:
        return position.outcome is not None or attacker_proves(position, 1, 3)
    finally:
        position.undo()


def test_no_ply_of_an_opening_lets_the_other_side_prove_a_win():
    """Held to plain AND/OR search by the threat-space rules (3 plies) over every legal move:
    no ply of an opening lets the side after it prove a win, where some legal moves would."""
    losing_choices = 0
    for opening in draw_openings(6, 4, seed=9):
        position = Position()
        for move in opening:
            assert not loses(position, move)
            losing_choices += any(loses(position, other) for other in position.legal_moves())
            position.play(move)
    assert losing_choices > 0


def test_no_opening_ends_the_game_though_some_of_its_plies_could():
    """In Mini Trax a line spans 3 squares, so a few plies can end a game: no opening does."""
    def ends(position, move):
        outcome = position.play(move)
        position.undo()
        return outcome is not None

    could_end = 0
    for opening in draw_openings(8, 6, seed=3, variant="mini"):
        position = Position("mini")
        for move in opening:
            could_end += any(ends(position, other) for other in position.legal_moves())
            assert not ends(position, move), position.moves
            position.play(move)
    assert could_end > 0


def test_more_openings_than_positions_is_one_clear_error():
    firsts = len(Position().first_moves())
    assert len(draw_openings(firsts, 1, seed=0)) == firsts
    with pytest.raises(UserError, match=f"fewer than {firsts + 1} positions that differ"):
        draw_openings(firsts + 1, 1, seed=0)
