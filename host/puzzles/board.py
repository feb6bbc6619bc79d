"""A solo puzzle and its file: the board's squares and sides, the three kinds, the text format.

A puzzle is played on a square board of ``size`` × ``size`` squares named like spreadsheet
cells, column letter then row number, ``A1`` at the top left. A tile on it is the rules engine's
white-edge mask (``fpgatrax.host.rules.position``), written as its symbol and the colour of its
north edge (``+w``, ``/r``, ``\\w`` …), as the text pictures of positions write it. The kinds
(``docs/puzzles.md`` states them in full):

- ``line``: fill the board so that one red track joins the two marked ends on the border and
  no other red track exists (so the red line passes through every square);
- ``loop``: place tiles that make one closed red loop with exactly ``crosses`` straight tiles
  (where the white track crosses it) and ``curves`` curved ones, and no other tile;
- ``match``: fill the board so that the whole pattern, colours included, is unchanged by the
  puzzle's ``symmetry``.
"""

from dataclasses import dataclass, field
from pathlib import Path

from fpgatrax.host.rules.columns import column_name, column_number
from fpgatrax.host.rules.errors import UserError
from fpgatrax.host.rules.position import TILES, E, N, S, W, tile_symbol
from fpgatrax.host.rules.symmetry import turn_point, turn_tile

__all__ = [
    "KINDS", "SYMMETRIES", "Square", "End", "Puzzle", "PuzzleError", "square_name", "end_name",
    "neighbour", "transform_square", "transform_tile", "red_sides", "tile_with_red", "tile_token",
    "parse_puzzle", "read_puzzle", "format_puzzle", "is_puzzle_file",
]

KINDS = ("line", "loop", "match")
SIDE_LETTERS = "NESW"
#: (column, row) from the top-left square, both from 0.
Square = tuple[int, int]
#: A track end on the border: the square and the side it leaves the board by.
End = tuple[Square, int]
_STEP = {N: (0, -1), E: (1, 0), S: (0, 1), W: (-1, 0)}

#: The symmetries a match puzzle may ask for (``rotate-270`` asks what ``rotate-90`` does).
SYMMETRIES = ("rotate-90", "rotate-180", "left-right", "top-bottom", "diagonal", "antidiagonal")


class PuzzleError(UserError):
    """A puzzle file that cannot be read, or a puzzle that does not make sense."""


@dataclass
class Puzzle:
    """One puzzle: its kind, the board's size, the tiles given (square → tile) and the kind's
    own data (``ends`` for a line, ``crosses`` and ``curves`` for a loop, ``symmetry`` for a
    match)."""
    kind: str
    size: int = 8
    givens: dict[Square, int] = field(default_factory=dict)
    ends: tuple[End, End] | None = None
    crosses: int | None = None
    curves: int | None = None
    symmetry: str | None = None

    def squares(self) -> list[Square]:
        return [(c, r) for r in range(self.size) for c in range(self.size)]

    def on_board(self, square: Square) -> bool:
        c, r = square
        return 0 <= c < self.size and 0 <= r < self.size

    def with_board(self, tiles: dict[Square, int]) -> "Puzzle":
        """The same puzzle with ``tiles`` as its board (a solution written as a puzzle file)."""
        return Puzzle(self.kind, self.size, dict(tiles), self.ends, self.crosses, self.curves,
                      self.symmetry)


def square_name(square: Square) -> str:
    c, r = square
    return f"{column_name(c + 1)}{r + 1}"


def end_name(end: End) -> str:
    square, side = end
    return square_name(square) + SIDE_LETTERS[side]


def neighbour(square: Square, side: int) -> Square:
    dc, dr = _STEP[side]
    return square[0] + dc, square[1] + dr


def transform_square(symmetry: str, square: Square, size: int) -> Square:
    """Where ``square`` of a ``size`` board goes under ``symmetry`` (about the board's centre:
    twice each coordinate from it, turned, then back)."""
    x, y = turn_point(symmetry, 2 * square[0] - size + 1, 2 * square[1] - size + 1)
    return (x + size - 1) // 2, (y + size - 1) // 2


#: The tile as it looks after a symmetry: the colour of each side moves with the side.
transform_tile = turn_tile


def red_sides(tile: int) -> tuple[int, int]:
    """The two sides of ``tile`` its red track joins."""
    a, b = (d for d in range(4) if not tile >> d & 1)
    return a, b


def tile_with_red(a: int, b: int) -> int:
    """The tile whose red track joins sides ``a`` and ``b``."""
    return 0xF & ~(1 << a | 1 << b)


_TOKENS = {tile_symbol(t) + ("w" if t & 1 else "r"): t for t in TILES}


def tile_token(tile: int) -> str:
    return tile_symbol(tile) + ("w" if tile & 1 else "r")


# -- the file -------------------------------------------------------------------------------------

def is_puzzle_file(path: str | Path) -> bool:
    """Whether the file at ``path`` is meant as a puzzle: its first line that is not a comment
    starts with ``kind`` (a game record's never does)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            for raw in file:
                line = raw.split("#", 1)[0].strip()
                if line:
                    return line.split()[0] == "kind"
    except OSError:
        return False
    return False


def read_puzzle(path: str | Path) -> Puzzle:
    """The puzzle in the file at ``path``; a PuzzleError names the file and line of a mistake."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise PuzzleError(f"cannot read puzzle {path}: {err}") from None
    return parse_puzzle(text, str(path))


def parse_puzzle(text: str, source: str = "puzzle") -> Puzzle:
    """Parse the text format of ``docs/puzzles.md``: ``key value`` lines, then ``board`` and
    one line of ``size`` tokens per row."""
    fields: dict[str, tuple[int, str]] = {}
    rows: list[tuple[int, list[str]]] = []
    in_board = False
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if in_board:
            rows.append((number, line.split()))
            continue
        key, _, value = line.partition(" ")
        if key == "board":
            in_board = True
        elif key in ("kind", "size", "ends", "crosses", "curves", "symmetry"):
            if key in fields:
                raise PuzzleError(f"{source}:{number}: '{key}' is given twice")
            fields[key] = (number, value.strip())
        else:
            raise PuzzleError(f"{source}:{number}: unknown line {raw.strip()!r} (expected kind, "
                              "size, ends, crosses, curves, symmetry or board)")

    def need(key: str) -> tuple[int, str]:
        if key not in fields:
            raise PuzzleError(f"{source}: a {kind} puzzle needs a '{key}' line")
        return fields[key]

    kind = fields.get("kind", (0, ""))[1]
    if kind not in KINDS:
        raise PuzzleError(f"{source}: 'kind' must be one of {', '.join(KINDS)}, not {kind!r}")
    size = _number(source, *fields.get("size", (0, "8")), least=2, most=26)
    puzzle = Puzzle(kind, size)
    if kind == "line":
        number, value = need("ends")
        ends = tuple(_end(source, number, token, size) for token in value.split())
        if len(ends) != 2 or ends[0] == ends[1]:
            raise PuzzleError(f"{source}:{number}: a line needs two different ends, "
                              "like 'ends A1N H8S'")
        puzzle.ends = (ends[0], ends[1])
    elif kind == "loop":
        puzzle.crosses = _number(source, *need("crosses"), least=0, most=size * size)
        puzzle.curves = _number(source, *need("curves"), least=0, most=size * size)
        if puzzle.crosses + puzzle.curves < 4:
            raise PuzzleError(f"{source}: a loop has at least 4 tiles")
    else:
        number, value = need("symmetry")
        if value not in SYMMETRIES:
            raise PuzzleError(f"{source}:{number}: 'symmetry' must be one of "
                              f"{', '.join(SYMMETRIES)}, not {value!r}")
        puzzle.symmetry = value
    for key in fields:
        if key not in ("kind", "size", *_KIND_FIELDS[kind]):
            raise PuzzleError(f"{source}:{fields[key][0]}: a {kind} puzzle has no '{key}'")
    if in_board:
        puzzle.givens = _board(source, rows, size)
    return puzzle


_KIND_FIELDS = {"line": ("ends",), "loop": ("crosses", "curves"), "match": ("symmetry",)}


def _number(source: str, line: int, text: str, least: int, most: int) -> int:
    if not text.isdigit() or not least <= int(text) <= most:
        raise PuzzleError(f"{source}:{line}: expected a whole number from {least} to {most}, "
                          f"not {text!r}")
    return int(text)


def _end(source: str, line: int, token: str, size: int) -> End:
    name, side_letter = token[:-1], token[-1:].upper()
    square = _square(name)
    if square is None or side_letter not in SIDE_LETTERS:
        raise PuzzleError(f"{source}:{line}: {token!r} is not an end: a square and the side the "
                          "track leaves by, like A1N or H8E")
    side = SIDE_LETTERS.index(side_letter)
    c, r = neighbour(square, side)
    if not 0 <= square[0] < size or not 0 <= square[1] < size or (0 <= c < size and
                                                                   0 <= r < size):
        raise PuzzleError(f"{source}:{line}: {token} does not leave the {size}×{size} board")
    return square, side


def _square(name: str) -> Square | None:
    letters = name.rstrip("0123456789")
    digits = name[len(letters):]
    if not letters.isalpha() or not letters.isupper() or not digits.isdigit() or digits[0] == "0":
        return None
    return column_number(letters) - 1, int(digits) - 1


def _board(source: str, rows: list[tuple[int, list[str]]], size: int) -> dict[Square, int]:
    if len(rows) != size:
        raise PuzzleError(f"{source}: the board has {len(rows)} rows, not {size}")
    tiles = {}
    for r, (number, tokens) in enumerate(rows):
        if len(tokens) != size:
            raise PuzzleError(f"{source}:{number}: row {r + 1} has {len(tokens)} squares, "
                              f"not {size}")
        for c, token in enumerate(tokens):
            if token == ".":
                continue
            if token not in _TOKENS:
                raise PuzzleError(f"{source}:{number}: {token!r} is not a tile: write a symbol "
                                  "(+ / \\) and its north edge's colour (w or r), or '.'")
            tiles[c, r] = _TOKENS[token]
    return tiles


def format_puzzle(puzzle: Puzzle, comment: str = "") -> str:
    """The puzzle as the text ``parse_puzzle`` reads."""
    lines = [f"# {line}" for line in comment.splitlines()]
    lines += [f"kind {puzzle.kind}", f"size {puzzle.size}"]
    if puzzle.ends is not None:
        lines.append("ends " + " ".join(end_name(end) for end in puzzle.ends))
    if puzzle.crosses is not None:
        lines += [f"crosses {puzzle.crosses}", f"curves {puzzle.curves}"]
    if puzzle.symmetry is not None:
        lines.append(f"symmetry {puzzle.symmetry}")
    lines.append("board")
    for r in range(puzzle.size):
        tokens = (tile_token(puzzle.givens[c, r]) if (c, r) in puzzle.givens else "."
                  for c in range(puzzle.size))
        lines.append(" ".join(token.ljust(2) for token in tokens).rstrip())
    return "\n".join(lines) + "\n"
