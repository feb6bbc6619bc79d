"""The rules of ``docs/rules.md`` and ``docs/notation.md``, case by case. Expected results are
worked out from the rules by hand (the small games below are explained move by move) or taken
from the naive oracle."""

import random
import re

import naive_rules as naive
import pytest
from known_games import LINE_GAME, LOOP_GAME

from fpgatrax.host.rules.columns import column_name, column_number
from fpgatrax.host.rules.notation import NotationError, format_move, parse_move, parse_text
from fpgatrax.host.rules.position import RED, WHITE, IllegalMove, Position, key_of, xy_of

VARIANTS = ["standard", "8x8", "loop", "mini"]


def play(texts, variant="standard"):
    position = Position(variant)
    for text in texts.split():
        position.play(parse_move(position, text))
    return position


def error_of(texts, variant="standard"):
    *before, last = texts.split()
    position = play(" ".join(before), variant)
    with pytest.raises((IllegalMove, NotationError)) as info:
        position.play(parse_move(position, last))
    return str(info.value)


# -- first move ----------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_first_move_is_at_0_slash_or_plus(variant):
    for text in ("@0/", "@0+"):
        assert len(play(text, variant).tiles) == 1
    for text in ("@0\\", "A1/", "@1+", "B0/"):
        assert "first move" in error_of(text, variant)


def test_first_moves_colour_white_top_and_left():
    # @0/ : white joins top and left; @0+ : white runs top to bottom (docs/rules.md).
    assert list(play("@0/").tiles.values()) == [0b1001]
    assert list(play("@0+").tiles.values()) == [0b0101]


@pytest.mark.parametrize("variant", VARIANTS)
def test_second_moves_are_the_twelve_of_the_spec(variant):
    position = play("@0/", variant)
    texts = sorted(format_move(position, m) for m in position.legal_moves())
    expected = sorted(f"{sq}{s}" for sq in ("@1", "A0", "A2", "B1") for s in "+/\\")
    assert texts == expected


# -- placement -----------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_occupied_square(variant):
    assert "occupied" in error_of("@0/ A1+", variant)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("text", ["C1+", "A3/", "@0+", "B2\\", "@2/"])
def test_square_not_next_to_a_tile(variant, text):
    # After @0/ the only tile is A1: C1 and A3 are two squares away, the others diagonal.
    assert "not next to a tile" in error_of("@0/ " + text, variant)


@pytest.mark.parametrize("variant", VARIANTS)
def test_colours_must_match(variant):
    # @0/ puts A1 = white N,W / red S,E. B1+ must show red west: white N,S. B2/ below it must
    # show white north: white N,W, red S,E. Square A2 then has red entering from the north (A1)
    # and white from the east (B2): a \ tile joins N-E or S-W, so either colouring of \ puts the
    # same colour on N and E: it cannot match.
    assert "colours do not match" in error_of("@0/ B1+ B2/ A2\\", variant)
    assert len(play("@0/ B1+ B2/ A2/", variant).tiles) == 4


@pytest.mark.parametrize("variant", VARIANTS)
def test_forced_tile_example_of_the_spec(variant):
    # docs/notation.md: @0/, B1+, B2\ forces a tile at A2: red from A1's south and red from B2's
    # west enter A2, so A2 is the tile joining N and E in red, a \ with white S,W.
    position = play("@0/ B1+ B2\\", variant)
    assert len(position.tiles) == 4
    x0, y0 = position.bbox[:2]
    assert position.tiles[key_of(x0, y0 + 1)] == 0b1100


def test_three_edges_of_one_colour_make_the_turn_illegal():
    # Find, with the naive oracle, fitting moves whose forced play is illegal; the engine must
    # refuse each with the rule's reason and leave the position untouched.
    rng = random.Random("three-edges")
    found = games = 0
    while found < 20:
        games += 1
        assert games <= 200, f"only {found} illegal forced plays in 200 games"
        board, position = {}, Position()
        for _ in range(40):
            fitting = naive.candidate_moves(board)
            for move in fitting:
                if naive.apply(board, move) is None:
                    before = dict(position.tiles)
                    with pytest.raises(IllegalMove, match="three edges of one colour"):
                        position.play((key_of(*move[0]), move[1]))
                    assert position.tiles == before
                    found += 1
            legal = naive.legal_moves(board)
            move = rng.choice(legal)
            board = naive.apply(board, move)
            position.play((key_of(*move[0]), move[1]))
            if position.outcome:
                break


def test_8x8_refuses_a_ninth_column_or_row():
    # A row of + tiles: @0+ then B1+ ... makes a red line at 8 columns, so grow a white-free
    # zigzag instead: find with the oracle 8x8 positions where a move is legal in the standard
    # game but illegal in 8x8; the engine must say why.
    rng = random.Random("8x8")
    found = 0
    for _ in range(200):
        board, position = {}, Position("8x8")
        for _ in range(60):
            legal = naive.legal_moves(board, "8x8")
            for move in naive.legal_moves(board):
                if move not in legal:
                    with pytest.raises(IllegalMove, match="span more than 8"):
                        position.check((key_of(*move[0]), move[1]))
                    found += 1
            if not legal:
                break
            move = rng.choice(legal)
            board = naive.apply(board, move, "8x8")
            position.play((key_of(*move[0]), move[1]))
            if position.outcome:
                break
        if found >= 10:
            return
    pytest.fail(f"only {found} span-limited moves found")


# -- winning -------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_loop_wins_even_for_the_opponent(variant):
    position = play(LOOP_GAME, variant)
    assert (position.outcome.winner, position.outcome.how, position.outcome.move_number) == \
        (RED, "loop", 3)


@pytest.mark.parametrize("variant", ["standard", "8x8"])
def test_line_needs_eight_columns(variant):
    assert play(LINE_GAME.rsplit(" ", 1)[0], variant).outcome is None
    position = play(LINE_GAME, variant)
    assert (position.outcome.winner, position.outcome.how, position.outcome.move_number) == \
        (RED, "line", 8)


def test_loop_trax_ignores_lines():
    assert play(LINE_GAME, "loop").outcome is None


def test_vertical_line():
    # The same line turned a quarter: @0+ runs white north-south; A2+ ... A8+ continue it.
    position = play("@0+ A2+ A3+ A4+ A5+ A6+ A7+ A8+")
    assert (position.outcome.winner, position.outcome.how) == (WHITE, "line")


def test_both_colours_at_once_the_mover_wins():
    # Play quiet random games; whenever a move completes both colours (by the naive oracle),
    # play it: the mover must win.
    rng = random.Random("both")
    found = 0
    for _ in range(400):
        position = Position()
        for ply in range(80):
            quiet, both = [], []
            for move in position.legal_moves():
                if position.play(move) is None:
                    quiet.append(move)
                elif len(naive.wins({xy_of(k): t for k, t in position.tiles.items()})) == 2:
                    both.append(move)
                position.undo()
            if both:
                assert position.play(rng.choice(both)).winner == ply & 1
                found += 1
                break
            if not quiet:
                break
            position.play(rng.choice(quiet))
        if found >= 3:
            return
    pytest.fail("no position found where a move completes both colours")


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_move_after_the_game_is_over(variant):
    assert "already over" in error_of(LOOP_GAME + " A3+", variant)


def test_undo_restores_the_position():
    position = play("@0/ B1+")
    tiles, frontier, bbox = dict(position.tiles), dict(position.frontier), position.bbox
    position.play(parse_move(position, "B2\\"))
    position.undo()
    assert (position.tiles, position.frontier, position.bbox) == (tiles, frontier, bbox)


# -- notation ------------------------------------------------------------------------------------

@pytest.mark.parametrize("number,name", [(0, "@"), (1, "A"), (26, "Z"), (27, "AA"), (52, "AZ"),
                                         (53, "BA"), (702, "ZZ"), (703, "AAA")])
def test_bijective_base_26_columns(number, name):
    assert column_name(number) == name and column_number(name) == number


@pytest.mark.parametrize("text,expected", [("@0+", (0, 0, "+")), ("B1/", (2, 1, "/")),
                                           ("C12\\", (3, 12, "\\")), ("AA3+", (27, 3, "+"))])
def test_parse_text(text, expected):
    assert parse_text(text) == expected


@pytest.mark.parametrize("text,why", [("", "empty"), ("A1", "ends with"), ("1A/", "starts with"),
                                      ("A/", "expected"), ("A01/", "leading zero"),
                                      ("@A1/", "'@' is a column"), ("a1/", "starts with"),
                                      ("A1x", "not a tile symbol"), ("A 1/", "expected")])
def test_malformed_moves_say_what_is_wrong(text, why):
    with pytest.raises(NotationError, match=why):
        parse_text(text)


def test_coordinates_shift_after_a_move_at_column_at_or_row_0():
    # After @0/ the tile is A1; a tile placed at @1 becomes the new column A and the old tile B1.
    position = play("@0/ @1+")
    x0, y0 = position.bbox[:2]
    first = position.moves[0][0]
    assert xy_of(first) == (x0 + 1, y0)
    assert format_move(position, (first, 0b1001)) == "B1/"
    position = play("@0/ A0+")
    assert format_move(position, (position.moves[0][0], 0b1001)) == "A2/"


def test_an_illegal_move_names_the_square_where_three_edges_meet():
    """The message names the square in the notation of the position before the move: read
    back with the notation, it is the square forced play stopped at."""
    rng, named = random.Random(8), 0
    while named < 5:
        position = Position()
        while position.outcome is None and named < 5:
            for key in sorted(position.frontier):
                for symbol in "+/\\":
                    try:
                        tile = position.tile_for(key, symbol)
                        position.check((key, tile))
                    except IllegalMove as err:
                        found = re.search(r"enter square (\S+)$", str(err))
                        if found:
                            named += 1
                            col, row, _ = parse_text(found[1] + "+")
                            x0, y0 = position.bbox[:2]
                            assert (x0 - 1 + col, y0 - 1 + row) == \
                                position._forced_play_conflict(key, tile)
            position.play(rng.choice(position.legal_moves()))
