"""The notation of records before 1998 (``host/rules/oldnotation.py``): worked examples from its
definition, every move of random games written and read back, records converted both ways that
replay to the same outcome, and the errors."""

import random

import pytest

from fpgatrax.host.cli.main import main
from fpgatrax.host.rules.notation import NotationError, format_move, parse_move
from fpgatrax.host.rules.oldnotation import format_old_move, parse_old_move
from fpgatrax.host.rules.position import DELTA, SYMBOL_TILES, IllegalMove, Position
from fpgatrax.host.rules.record import parse_record, record_text, replay


def after(*texts):
    position = Position()
    for text in texts:
        position.play(parse_move(position, text))
    return position


# Worked from the definition: after @0/ (white joins its north and west edges, red its east and
# south), a curve east of it takes the red track from the west up (/) or down (\); one west of
# it becomes column A and takes the white track from the east down (/); one above it is 1A.
@pytest.mark.parametrize(("before", "new", "old"), [
    ((), "@0/", "A1C"), ((), "@0+", "A1S"),
    (("@0/",), "B1/", "B1U"), (("@0/",), "B1\\", "B1D"), (("@0/",), "B1+", "B1S"),
    (("@0/",), "@1/", "A1D"), (("@0/",), "A0+", "1AS"), (("@0/",), "A2/", "A2L"),
    (("@0/",), "A2\\", "A2R"),
])
def test_worked_examples(before, new, old):
    position = after(*before)
    move = parse_move(position, new)
    assert format_old_move(position, move) == old
    assert parse_old_move(position, old) == move


def test_a_curve_its_neighbours_fix_is_c():
    """After @0/ B1/ B2/ the square A2 has a red edge to its north (A1's south) and a white one
    to its east (B2's west): only the curve joining red north-west and white east-south fits
    (/), written C."""
    position = after("@0/", "B1/", "B2/")
    square = parse_move(position, "A2+")[0]
    curves = [t for s in "/\\" for t in SYMBOL_TILES[s] if _fits(position, square, t)]
    assert curves == [SYMBOL_TILES["/"][1]]
    assert format_old_move(position, (square, curves[0])) == "A2C"
    assert parse_old_move(position, "A2C") == parse_move(position, "A2/")


def _fits(position, square, tile):
    for d in range(4):
        neighbour = position.tiles.get(square + DELTA[d])
        if neighbour is not None and (neighbour >> ((d + 2) & 3) & 1) != (tile >> d & 1):
            return False
    return True


@pytest.mark.parametrize("variant", ["standard", "8x8", "loop"])
def test_every_move_of_random_games_reads_back(variant):
    rng, kinds = random.Random(variant), set()
    for _ in range(60):
        position = Position(variant)
        while position.outcome is None and position.legal_moves() and len(position.moves) < 50:
            move = rng.choice(position.legal_moves())
            text = format_old_move(position, move)
            assert parse_old_move(position, text) == move, (text, format_move(position, move))
            kinds.add(text[-1])
            kinds.add("swapped" if text[0].isdigit() else "normal")
            position.play(move)
    assert kinds == set("SCUDLR") | {"swapped", "normal"}


def test_records_convert_both_ways_and_replay_alike():
    rng = random.Random(3)
    for _ in range(20):
        position = Position()
        while position.outcome is None and len(position.moves) < 40:
            position.play(rng.choice(position.legal_moves()))
        new = record_text(parse_record("a vs b\n"), replay(parse_record(
            " ".join(format_move(*_before(position, i)) for i in range(len(position.moves))))),
            "new")
        game = replay(parse_record(new))
        old = record_text(parse_record(new), game, "old")
        assert "# notation: old" in old
        again = replay(parse_record(old))
        assert again.summary() == game.summary()
        assert record_text(parse_record(old), again, "new") == new


def _before(position, index):
    """(the position before move ``index`` of ``position``, that move)."""
    replayed = Position(position.variant)
    for move in position.moves[:index]:
        replayed.play(move)
    return replayed, position.moves[index]


@pytest.mark.parametrize(("text", "error", "message"), [
    ("A1", NotationError, "old-notation move"), ("@0/", NotationError, "old-notation move"),
    ("1BS", NotationError, "'1BS': the number comes first only for the square above"),
    ("A0S", NotationError, "old-notation"),
    ("C1C", IllegalMove, "not next to a tile"), ("B1C", IllegalMove, "2 fit here"),
])
def test_bad_moves_say_why(text, error, message):
    with pytest.raises(error, match=message):
        parse_old_move(after("@0/"), text)


def test_the_commands_read_and_write_old_records(tmp_path, capsys):
    source = tmp_path / "game.txt"
    source.write_text("x vs y\n@0/ B1/ B2/ A2/\n")
    converted = tmp_path / "old.txt"
    assert main(["convert", str(source), "-o", str(converted)]) == 0
    assert "# notation: old" in converted.read_text()
    assert main(["replay", str(source)]) == 0
    first = capsys.readouterr().out
    assert main(["replay", str(converted)]) == 0
    assert capsys.readouterr().out == first
    bare = tmp_path / "bare.txt"
    bare.write_text(converted.read_text().replace("# notation: old\n", ""))
    assert main(["replay", str(bare), "--notation", "old"]) == 0
    assert main(["replay", str(bare)]) == 1          # read as the new notation: not moves
    assert "error" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["A1U", "1AS", "1AC", "B1S", "A2C"])
def test_a_first_move_other_than_a1s_or_a1c_is_refused(text):
    with pytest.raises(IllegalMove, match="the first move is A1S or A1C"):
        parse_old_move(Position(), text)
