"""An independent, deliberately naive implementation of the rules, used only as a test oracle.

It shares no code with ``fpgatrax.host.rules.position``: it keeps a plain ``{(x, y): tile}`` dict,
rescans the whole bounding box for forced squares (in a caller-chosen order), and finds loops and
lines by walking every track of the finished position from scratch. It is slow and obviously
correct, which is what an oracle should be.
"""

# White-edge masks, bit 0 N, 1 E, 2 S, 3 W: the same encoding as the engine's public interface.
TILES = {"+": (0b0101, 0b1010), "/": (0b1001, 0b0110), "\\": (0b0011, 0b1100)}
STEP = [(0, -1), (1, 0), (0, 1), (-1, 0)]
# The size-limited variants: the most columns or rows the tiles may span, which is also the
# span a winning line needs there (the standard game's lines need 8).
SPAN_LIMITS = {"8x8": 8, "mini": 3}


def edge_white(tile, side):
    return bool(tile >> side & 1)


def entering(board, x, y):
    """(white, red) lists of the sides of empty (x, y) into which a neighbour's edge enters."""
    white, red = [], []
    for side, (dx, dy) in enumerate(STEP):
        t = board.get((x + dx, y + dy))
        if t is not None:
            (white if edge_white(t, (side + 2) % 4) else red).append(side)
    return white, red


def bbox(board):
    xs = [x for x, _ in board]
    ys = [y for _, y in board]
    return min(xs), min(ys), max(xs), max(ys)


def fits(board, x, y, tile):
    white, red = entering(board, x, y)
    return all(edge_white(tile, s) for s in white) and not any(edge_white(tile, s) for s in red)


def resolve(board, rng=None):
    """Fill forced squares until none is left, in random order when ``rng`` is given. Returns
    False on an illegal turn (three edges of one colour into an empty square)."""
    while True:
        x0, y0, x1, y1 = bbox(board)
        forced = []
        for x in range(x0 - 1, x1 + 2):
            for y in range(y0 - 1, y1 + 2):
                if (x, y) in board:
                    continue
                white, red = entering(board, x, y)
                if len(white) >= 3 or len(red) >= 3:
                    return False
                if len(white) == 2:
                    forced.append(((x, y), sum(1 << s for s in white)))
                elif len(red) == 2:
                    forced.append(((x, y), 15 ^ sum(1 << s for s in red)))
        if not forced:
            return True
        square, tile = rng.choice(forced) if rng else forced[0]
        board[square] = tile


def candidate_moves(board):
    if not board:
        return [((0, 0), TILES["/"][0]), ((0, 0), TILES["+"][0])]
    x0, y0, x1, y1 = bbox(board)
    out = []
    for x in range(x0 - 1, x1 + 2):
        for y in range(y0 - 1, y1 + 2):
            if (x, y) in board or not any((x + dx, y + dy) in board for dx, dy in STEP):
                continue
            for pair in TILES.values():
                out.extend(((x, y), t) for t in pair if fits(board, x, y, t))
    return out


def apply(board, move, variant="standard", rng=None):
    """The board after ``move`` and forced play, or None if the turn is illegal."""
    square, tile = move
    after = dict(board)
    after[square] = tile
    if not resolve(after, rng):
        return None
    if variant in SPAN_LIMITS:
        x0, y0, x1, y1 = bbox(after)
        if x1 - x0 >= SPAN_LIMITS[variant] or y1 - y0 >= SPAN_LIMITS[variant]:
            return None
    return after


def legal_moves(board, variant="standard"):
    return [m for m in candidate_moves(board) if apply(board, m, variant) is not None]


def wins(board, variant="standard"):
    """{colour: how} for colour 0 (white) and 1 (red), over every track of the board."""
    found = {}
    x0, y0, x1, y1 = bbox(board)
    for (x, y), tile in board.items():
        for colour in (0, 1):
            mask = tile if colour == 0 else tile ^ 15
            sides = [s for s in range(4) if mask >> s & 1]
            ends, closed = [], False
            for first in sides:
                cx, cy, side = x, y, first
                while True:
                    nx, ny = cx + STEP[side][0], cy + STEP[side][1]
                    if (nx, ny) not in board:
                        ends.append((cx, cy, side))
                        break
                    if (nx, ny) == (x, y):
                        closed = True
                        break
                    back = (side + 2) % 4
                    nmask = board[(nx, ny)] if colour == 0 else board[(nx, ny)] ^ 15
                    side = next(s for s in range(4) if nmask >> s & 1 and s != back)
                    cx, cy = nx, ny
                if closed:
                    break
            if closed:
                found.setdefault(colour, set()).add("loop")
            elif variant != "loop":
                touch = {s for cx, cy, s in ends
                         if (s == 3 and cx == x0) or (s == 1 and cx == x1)
                         or (s == 0 and cy == y0) or (s == 2 and cy == y1)}
                span = SPAN_LIMITS.get(variant, 8)
                if ({1, 3} <= touch and x1 - x0 + 1 >= span) or \
                        ({0, 2} <= touch and y1 - y0 + 1 >= span):
                    found.setdefault(colour, set()).add("line")
    return found


def winner(board, mover, variant="standard"):
    """The winning colour after ``mover`` finished a turn on ``board`` (None if nobody won), and
    the set of ways that colour won."""
    found = wins(board, variant)
    if not found:
        return None, set()
    colour = mover if mover in found else 1 - mover
    return colour, found[colour]


def random_game(rng, variant="standard", max_moves=60):
    """A random legal game as a list of (square, tile) moves, stopping at a win or draw."""
    board, moves = {}, []
    for ply in range(max_moves):
        legal = legal_moves(board, variant)
        if not legal:
            break
        move = rng.choice(legal)
        board = apply(board, move, variant)
        moves.append(move)
        if winner(board, ply & 1, variant)[0] is not None:
            break
    return moves


__all__ = ["TILES", "apply", "legal_moves", "wins", "winner", "random_game", "resolve", "bbox",
           "candidate_moves"]
