"""Records: written back (``record_text``) or as a game goes (``RecordWriter``), what a record
says survives being read again (``read_record``, ``parse_record``), errors name the file and
line, and a one-line result (``Replay.summary``) names who won, how, and who forfeited and
why."""

import random
import re

import pytest

from fpgatrax.host.rules.perft import perft
from fpgatrax.host.rules.position import RED, Position, xy_of
from fpgatrax.host.rules.record import (
    COLOUR_NAMES,
    Record,
    RecordError,
    RecordWriter,
    Replay,
    moves_text,
    parse_record,
    read_record,
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
            text = record_text(record, game, notation)
            # The defaults (standard, new notation) go without a line; no line ends in a blank.
            lines = text.splitlines()
            assert any(line.startswith("# variant:") for line in lines) == (variant != "standard")
            assert any(line.startswith("# notation:") for line in lines) == (notation != "new")
            assert all(line == line.rstrip() for line in lines)
            again = parse_record(text)
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


def test_a_record_written_as_a_game_goes_reads_back(tmp_path):
    """``RecordWriter``'s file (UTF-8 names, a variant, moves with and without notes, a
    forfeit) reads back through ``read_record`` as written, on any platform's line ends."""
    position = _random_game("8x8", 3, plies=9)
    texts = moves_text(position)
    path = tmp_path / "game.trx"
    with RecordWriter(path, "Åsa", "Örjan", "8x8") as writer:
        for number, text in enumerate(texts):
            writer.move(text, note=f"{number} s" if number % 2 else "")
        writer.comment("the referee's note")
        writer.forfeit(1, "late answer")
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[:2] == ["Åsa vs Örjan", "# variant: 8x8"]
    assert lines[2:4] == [texts[0], f"{texts[1]}  # 1 s"]
    for data in (path.read_bytes(), path.read_bytes().replace(b"\n", b"\r\n")):
        path.write_bytes(data)
        record = read_record(path)
        assert (record.white, record.black, record.variant, record.forfeit) == \
            ("Åsa", "Örjan", "8x8", (1, "late answer"))
        assert [text for text, _ in record.moves] == texts
        assert [line for _, line in record.moves] == list(range(3, 3 + len(texts)))


def test_a_record_names_its_file_and_line_in_every_error(tmp_path):
    missing = tmp_path / "missing.trx"
    with pytest.raises(RecordError, match=f"^{re.escape(str(missing))}: "):
        read_record(missing)
    binary = tmp_path / "binary.trx"
    binary.write_bytes(b"\xff\xfe\x00\x81")
    with pytest.raises(RecordError, match=f"^{re.escape(str(binary))}: not a text file$"):
        read_record(binary)
    for directive, complaint in (("variant: huge", "unknown variant 'huge'"),
                                 ("notation: ancient", "the notation is old or new"),
                                 ("forfeit: nobody", "a forfeit names 'white' or 'black'")):
        path = tmp_path / "bad.trx"
        path.write_text(f"a vs b\n@0+\n# {directive}\n", encoding="utf-8")
        with pytest.raises(RecordError, match=f"^{re.escape(str(path))}:3: {complaint}"):
            read_record(path)


def test_only_the_first_line_with_content_can_be_the_header():
    record = parse_record("\n# a comment\n@0+ B1/\nalice vs bob\n")
    assert (record.white, record.black) == (None, None)
    assert [text for text, _ in record.moves] == ["@0+", "B1/", "alice", "vs", "bob"]


def test_the_size_is_the_span_of_the_tiles():
    assert Position().size() == (0, 0)
    for seed in range(6):
        position = _random_game("standard", seed, plies=25)
        xs, ys = zip(*map(xy_of, position.tiles), strict=True)
        assert position.size() == (max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


def test_a_forfeit_without_a_reason_ends_its_line_at_the_colour():
    record = Record("alice", "bob", "standard", "new", [("@0+", 2)], (RED, ""))
    assert record_text(record, replay(record), "new").splitlines()[-1] == "# forfeit: black"
