"""The SVG picture: well-formed XML, one tile element per tile in play, each track joining the
edges the reference engine says it joins, and coordinates that name the squares."""

import random
import re
import xml.etree.ElementTree as ET

import pytest

from fpgatrax.host.pictures.svg import render_svg
from fpgatrax.host.rules.notation import parse_text
from fpgatrax.host.rules.position import Position, key_of, tile_symbol

NS = {"svg": "http://www.w3.org/2000/svg"}


def random_position(variant, seed, moves):
    rng = random.Random(seed)
    position = Position(variant)
    while len(position.moves) < moves:
        move = rng.choice(position.legal_moves())
        position.play(move)
        if position.outcome is not None:
            break
    return position


def edges_joined(path, face):
    """The sides (0 N, 1 E, 2 S, 3 W) whose midpoints the path ``d`` starts and ends at."""
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", path.get("d"))]
    x, y, size = (float(face.get(k)) for k in ("x", "y", "width"))
    sides = set()
    for px, py in ((numbers[0], numbers[1]), (numbers[-2], numbers[-1])):
        u, v = (px - x) / size, (py - y) / size
        midpoints = {(0.5, 0.0): 0, (1.0, 0.5): 1, (0.5, 1.0): 2, (0.0, 0.5): 3}
        sides.add(midpoints[(round(u, 2), round(v, 2))])
    return sides


def track_of(group, colour):
    """A tile's ``colour`` track (its class is the colour, then ``win`` on a winning track)."""
    return next(path for path in group.findall("svg:path", NS)
                if path.get("class").split()[0] == colour)


def label_at(root, cls, axis, centre):
    """The text of the ``cls`` label whose ``axis`` coordinate is nearest ``centre``."""
    labels = root.findall(f"svg:text[@class='{cls}']", NS)
    return min(labels, key=lambda t: abs(float(t.get(axis)) - centre)).text


@pytest.mark.parametrize("variant, seed, moves", [("standard", 1, 30), ("standard", 2, 12),
                                                  ("8x8", 3, 25), ("loop", 4, 40)])
def test_svg_draws_every_tile_with_its_tracks(variant, seed, moves):
    position = random_position(variant, seed, moves)
    root = ET.fromstring(render_svg(position))
    tiles = root.findall("svg:g[@class='tile']", NS)
    assert len(tiles) == len(position.tiles)
    x0, y0, x1, y1 = position.bbox
    assert len(root.findall("svg:rect[@class='empty']", NS)) == \
        (x1 - x0 + 3) * (y1 - y0 + 3) - len(position.tiles)
    assert len(root.findall("svg:rect[@class='last-move']", NS)) == len(position.placed_last())
    drawn = set()
    for group in tiles:
        column, row, _ = parse_text(group.get("data-square") + "+")
        key = key_of(x0 - 1 + column, y0 - 1 + row)
        tile = position.tiles[key]
        drawn.add(key)
        assert group.get("data-symbol") == tile_symbol(tile)
        face = group.find("svg:rect[@class='face']", NS)
        for colour, mask in (("white", tile), ("red", tile ^ 0xF)):
            path = track_of(group, colour)
            assert edges_joined(path, face) == {side for side in range(4) if mask >> side & 1}
        size = float(face.get("width"))
        square = group.get("data-square")
        assert label_at(root, "column", "x", float(face.get("x")) + size / 2) + \
            label_at(root, "row", "y", float(face.get("y")) + size / 2) == square
    assert drawn == set(position.tiles)


def test_svg_of_the_empty_board_shows_the_first_square():
    root = ET.fromstring(render_svg(Position()))
    assert root.findall("svg:g[@class='tile']", NS) == []
    assert len(root.findall("svg:rect[@class='empty']", NS)) == 1
    assert [t.text for t in root.findall("svg:text", NS)] == ["@", "0"]
