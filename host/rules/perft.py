"""Perft: the number of legal move sequences of a given length, the standard self-check of a
move generator.

A game ends when a turn wins, so by default a sequence stops counting at a won position: that is
what reproduces the reference figures of ``docs/figures.md`` (2, 24, 432, 9,568, 246,888,
7,209,480). ``through_wins=True`` lets play go on past wins instead, which gives 9,760 at depth 4:
the text of §6 says play continues, but its figures are those of games that end at a win."""

from fpgatrax.host.rules.position import Position

__all__ = ["perft"]


def perft(depth: int, position: Position | None = None, through_wins: bool = False) -> int:
    """Count the legal move sequences of length ``depth`` from ``position`` (default: empty
    standard board). Every legal (square, symbol) move counts once."""
    position = Position() if position is None else position.copy()
    if depth == 0:
        return 1
    return _perft(position, depth, through_wins)


def _perft(position: Position, depth: int, through_wins: bool) -> int:
    if depth == 1:
        return position.count_legal_moves()
    total = 0
    for move in position.legal_moves():
        position._make(*move)
        position.moves.append(move)
        if through_wins or position._judge() is None:
            total += _perft(position, depth - 1, through_wins)
        position.moves.pop()
        position._unmake()
    return total
