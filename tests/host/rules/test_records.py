"""Records written back (``record_text``) and their one-line results (``Replay.summary``):
what a record says survives being written in either notation and read again, and a result
names who won, how, and who forfeited and why."""

import random

from fpgatrax.host.rules.perft import perft
from fpgatrax.host.rules.position import Position
from fpgatrax.host.rules.record import (
    COLOUR_NAMES,
    Record,
    Replay,
    moves_text,
    parse_record,
    record_text,
    replay,
)
from fpgatrax.host.rules.variant import VARIANT_NAMES


def _random_game(variant, seed, plies=30):
    rng, position = random.Random(seed), Position(variant)
    while position.outcome is None and len(position.moves) < plies and position.legal_moves():
        position.play(rng.choice(position.legal_moves()))
    return position


def test_a_record_written_back_reads_as_it_was():
    for number, variant in enumerate(VARIANT_NAMES * 3):
        position = _random_game(variant, number)
        forfeit = (number % 2, ["late answer", "illegal move B2/", ""][number % 3])
        record = Record("alice", "bob", variant, "new",
                        [(text, 1) for text in moves_text(position)],
                        forfeit if position.outcome is None else None)
        game = replay(record)
        for notation in ("new", "old"):
            again = parse_record(record_text(record, game, notation))
            assert (again.white, again.black, again.variant, again.notation, again.forfeit) == \
                ("alice", "bob", variant, notation, record.forfeit)
            assert [text for text, _ in again.moves] == moves_text(position, notation)
            assert replay(again).summary() == game.summary()


def test_a_summary_names_the_winner_how_and_the_forfeit():
    position = Position()
    for winner in (0, 1):
        who, loser = COLOUR_NAMES[winner], COLOUR_NAMES[1 - winner]
        forfeit = Replay(position, winner, "forfeit", 7, "late answer").summary()
        assert forfeit.startswith(f"{who} wins by forfeit on move 7") and \
            forfeit.endswith(f"({loser}: late answer)")
        assert Replay(position, winner, "forfeit", 7).summary().endswith(f"({loser})")
        assert Replay(position, winner, "loop", 12).summary() == f"{who} wins by loop on move 12"
    assert Replay(position, None, "draw", 40).summary().startswith("draw on move 40")
    assert Replay(position, None, "unfinished", 3).summary() == "unfinished after 3 moves"


def test_perft_counts_from_the_position_given_and_leaves_it_alone():
    position = _random_game("standard", 5, plies=6)
    before = (dict(position.tiles), list(position.moves))
    assert perft(0, position) == 1
    assert perft(1, position) == len(position.legal_moves()) != perft(1)
    assert (dict(position.tiles), list(position.moves)) == before


def test_a_copy_keeps_the_result():
    position = _random_game("standard", 11, plies=400)
    assert position.outcome is not None
    assert position.copy().outcome == position.outcome
