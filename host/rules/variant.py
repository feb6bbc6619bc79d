"""The variants of Trax as one type: what limits the tiles and what wins.

Every rule that differs between variants is a field here, so code asks the variant a question
(``variant.span_limit``, ``variant.line_span``) instead of comparing its name. The variants
(see ``docs/rules.md``):

- ``standard``: the unlimited board of the competitions; a loop wins, and a line wins once the
  tiles span at least ``LINE_SPAN`` columns or rows;
- ``8x8``: the tiles may never span more than 8 columns or rows (a move that would is
  illegal) and a position with no legal move left is a draw; loops and lines win;
- ``loop``: the unlimited board where only loops win;
- ``mini``: Mini Trax, the 8x8 variant's rules on a 3 × 3 area: the tiles may never span more
  than 3 columns or rows, a line wins when it joins opposite sides of that area (it spans 3),
  and a position with no legal move left is a draw.
"""

from dataclasses import dataclass

from fpgatrax.host.rules.errors import UserError

__all__ = ["LINE_SPAN", "Variant", "VARIANTS", "VARIANT_NAMES", "variant_named"]

#: A line wins only when the tiles in play span at least this many columns (or rows).
LINE_SPAN = 8


@dataclass(frozen=True)
class Variant:
    """One set of rules. ``str(variant)`` is its name, as written in records and options."""
    name: str
    #: The most columns or rows the tiles may ever span, or None for an unlimited board. A
    #: limited board also draws when no legal move is left.
    span_limit: int | None
    #: The span a line needs to win, or None where lines do not win (only loops do).
    line_span: int | None

    def __str__(self) -> str:
        return self.name


VARIANTS: dict[str, Variant] = {v.name: v for v in (
    Variant("standard", span_limit=None, line_span=LINE_SPAN),
    Variant("8x8", span_limit=8, line_span=LINE_SPAN),
    Variant("loop", span_limit=None, line_span=None),
    Variant("mini", span_limit=3, line_span=3),
)}
VARIANT_NAMES: tuple[str, ...] = tuple(VARIANTS)


def variant_named(variant: "str | Variant") -> Variant:
    """The variant called ``variant`` (a Variant is returned as it is); a UserError names the
    choices for an unknown name."""
    if isinstance(variant, Variant):
        return variant
    try:
        return VARIANTS[variant]
    except KeyError:
        raise UserError(f"unknown variant {variant!r}; choose one of "
                        f"{', '.join(VARIANT_NAMES)}") from None
