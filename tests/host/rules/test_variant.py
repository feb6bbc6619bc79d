"""The variants as one type: the engine asks the variant, never its name."""

import pytest

from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.notation import parse_move
from fpgatrax.host.rules.position import IllegalMove, Position
from fpgatrax.host.rules.variant import LINE_SPAN, VARIANT_NAMES, VARIANTS, Variant, variant_named


def test_names_round_trip():
    assert VARIANT_NAMES == ("standard", "8x8", "loop", "mini")
    for name in VARIANT_NAMES:
        assert str(variant_named(name)) == name
        assert variant_named(variant_named(name)) is VARIANTS[name]


def test_an_unknown_name_is_a_user_error_naming_the_choices():
    with pytest.raises(UserError, match="standard, 8x8, loop, mini"):
        variant_named("supertrax")


def test_fields_carry_the_rules():
    assert VARIANTS["standard"] == Variant("standard", span_limit=None, line_span=LINE_SPAN)
    assert VARIANTS["8x8"].span_limit == 8 and VARIANTS["8x8"].line_span == LINE_SPAN
    assert VARIANTS["loop"].line_span is None
    assert VARIANTS["mini"] == Variant("mini", span_limit=3, line_span=3)


def play(position, moves):
    for text in moves.split():
        position.play(parse_move(position, text))
    return position


def test_the_engine_follows_any_span_limit():
    # A made-up variant limited to 3 columns: the engine must use the limit it is given, not 8.
    narrow = Variant("narrow", span_limit=3, line_span=None)
    position = play(Position(narrow), "@0+ B1+ C1+")
    with pytest.raises(IllegalMove, match="more than 3 columns"):
        position.play(parse_move(position, "D1+"))
    assert play(Position("standard"), "@0+ B1+ C1+ D1+").outcome is None


def test_the_engine_follows_the_line_span():
    # Lines of a made-up variant need only 4 columns: @0+ B1+ C1+ D1+ spans 4 with one red track
    # from the left edge to the right edge.
    short = Variant("short", span_limit=None, line_span=4)
    outcome = play(Position(short), "@0+ B1+ C1+ D1+").outcome
    assert (outcome.how, outcome.move_number) == ("line", 4)
