"""The checker: does a filled board solve a puzzle, and if not, why not.

It reads the board directly (tiles, their sides, the red track from square to square) and
shares nothing with the SAT encoding of ``solve.py`` but the board's geometry, so that a fault
in the encoding cannot hide a wrong solution: every solution the solver finds is checked here.
"""

from fpgatrax.host.puzzles.board import (
    Puzzle,
    Square,
    end_name,
    neighbour,
    red_sides,
    square_name,
    transform_square,
    transform_tile,
)
from fpgatrax.host.rules.position import TILES

__all__ = ["problems", "red_track"]


def problems(puzzle: Puzzle, board: dict[Square, int]) -> list[str]:
    """Every reason ``board`` (square → tile) does not solve ``puzzle``; empty if it does."""
    found = []
    for square, tile in sorted(puzzle.givens.items()):
        if board.get(square) != tile:
            found.append(f"{square_name(square)} must hold the given tile")
    for square, tile in sorted(board.items()):
        if not puzzle.on_board(square) or tile not in TILES:
            found.append(f"{square_name(square)} is not a tile on the board")
    if found:
        return found
    if puzzle.kind != "loop":
        empty = [square_name(s) for s in puzzle.squares() if s not in board]
        if empty:
            found.append(f"{len(empty)} squares are empty: {', '.join(empty[:8])}"
                         f"{' …' if len(empty) > 8 else ''}")
    for square in sorted(board):
        for side in (1, 2):                      # east and south: each pair of squares once
            other = neighbour(square, side)
            if other in board and (board[square] >> side ^ board[other] >> (side ^ 2)) & 1:
                found.append(f"{square_name(square)} and {square_name(other)} do not match")
    if found:
        return found
    return _KIND_CHECKS[puzzle.kind](puzzle, board)


def red_track(board: dict[Square, int], square: Square, side: int) -> tuple[list[Square], int]:
    """Follow the red track that enters ``square`` by ``side``: the squares it passes, in order,
    and the side of the last one it leaves by (off the tiles, or back where it started)."""
    path = []
    while square in board and square not in path:
        path.append(square)
        a, b = red_sides(board[square])
        side = b if a == side else a
        square = neighbour(square, side)
        side ^= 2
    return path, side ^ 2


def _line(puzzle: Puzzle, board: dict[Square, int]) -> list[str]:
    assert puzzle.ends is not None
    ends = set(puzzle.ends)
    border_red = {(s, d) for s in board for d in red_sides(board[s])
                  if not puzzle.on_board(neighbour(s, d))}
    found = [f"a red track leaves the board at {end_name(end)}, which is not an end"
             for end in sorted(border_red - ends)]
    found += [f"no red track leaves the board at the end {end_name(end)}"
              for end in sorted(ends - border_red)]
    if found:
        return found
    (start, side), goal = puzzle.ends
    path, last = red_track(board, start, side)
    if (path[-1], last) != goal:
        return [f"the red track from {end_name((start, side))} leaves at "
                f"{end_name((path[-1], last))}, not {end_name(goal)}"]
    missed = len(board) - len(path)
    if missed:
        return [f"{missed} squares hold red tracks apart from the line (red loops)"]
    return []


def _loop(puzzle: Puzzle, board: dict[Square, int]) -> list[str]:
    if not board:
        return ["the board is empty"]
    start = min(board)
    side = red_sides(board[start])[0]
    path, last = red_track(board, start, side)
    if neighbour(path[-1], last) != start:
        return [f"the red track through {square_name(start)} is not closed"]
    found = []
    if len(path) != len(board):
        found.append(f"{len(board) - len(path)} tiles are not on the loop through "
                     f"{square_name(start)}")
    crosses = sum(1 for s in board if abs(red_sides(board[s])[0] - red_sides(board[s])[1]) == 2)
    if (crosses, len(board) - crosses) != (puzzle.crosses, puzzle.curves):
        found.append(f"the loop has {crosses} crosses and {len(board) - crosses} curves, not "
                     f"{puzzle.crosses} and {puzzle.curves}")
    return found


def _match(puzzle: Puzzle, board: dict[Square, int]) -> list[str]:
    assert puzzle.symmetry is not None
    found = []
    for square in sorted(board):
        image = transform_square(puzzle.symmetry, square, puzzle.size)
        if board.get(image) != transform_tile(puzzle.symmetry, board[square]):
            found.append(f"{square_name(image)} is not the {puzzle.symmetry} image of "
                         f"{square_name(square)}")
    return found


_KIND_CHECKS = {"line": _line, "loop": _loop, "match": _match}
