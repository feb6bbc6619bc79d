"""The loop or line that won, from the engine (``Position.winning_track``) to the pictures:
on finished games of random play, the squares are the winner's whole track and nothing else
(a closed cycle for a loop, a path between opposite sides of the box for a line), ``show``'s
text marks exactly them and the SVG draws exactly their tracks over the gold band."""

import random
import xml.etree.ElementTree as ET

import pytest

from fpgatrax.host.pictures.svg import render_svg
from fpgatrax.host.pictures.text import render_text
from fpgatrax.host.rules.position import DELTA, Position, key_of, xy_of

NS = {"svg": "http://www.w3.org/2000/svg"}


def finished_games(variant, how, count):
    """``count`` finished games of random play in ``variant`` that ended by ``how``."""
    rng, found = random.Random(f"{variant} {how}"), []
    while len(found) < count:
        position = Position(variant)
        while position.outcome is None and position.legal_moves():
            position.play(rng.choice(position.legal_moves()))
        if position.outcome is not None and position.outcome.how == how:
            found.append(position)
    return found


def edges(position, key, colour):
    tile = position.tiles[key]
    mask = tile if colour == 0 else tile ^ 0xF
    return [d for d in range(4) if mask >> d & 1]


@pytest.mark.parametrize(("variant", "how"), [("standard", "loop"), ("standard", "line"),
                                              ("8x8", "line"), ("loop", "loop")])
def test_the_winning_track_is_the_winners_whole_loop_or_line(variant, how):
    for position in finished_games(variant, how, 6):
        won, colour = position.winning_track(), position.outcome.winner
        assert won and won <= set(position.tiles)
        assert won & set(position.placed_last())
        ends = []
        for key in won:
            linked = [key + DELTA[d] for d in edges(position, key, colour)]
            inside = [n for n in linked if n in won]
            # Every neighbour the track runs to is on it; only a line's two ends leave it.
            assert all(n in won or n not in position.tiles for n in linked)
            ends += [(key, d) for d in edges(position, key, colour)
                     if key + DELTA[d] not in position.tiles]
            assert len(inside) + sum(1 for k, _ in ends if k == key) == 2
        x0, y0, x1, y1 = position.bbox
        if how == "loop":
            assert ends == []
        else:
            sides = {d for k, d in ends if (d == 0 and xy_of(k)[1] == y0) or
                     (d == 2 and xy_of(k)[1] == y1) or (d == 1 and xy_of(k)[0] == x1) or
                     (d == 3 and xy_of(k)[0] == x0)}
            assert len(ends) == 2 and sides in ({0, 2}, {1, 3})


def test_a_game_going_on_has_no_winning_track():
    position = Position()
    position.play(position.first_moves()[0])
    assert position.winning_track() == set()


@pytest.mark.parametrize("how", ["loop", "line"])
def test_the_pictures_mark_exactly_the_winning_track(how):
    for position in finished_games("standard", how, 3):
        won = position.winning_track()
        colour = ("white", "red")[position.outcome.winner]
        x0, y0, _, _ = position.bbox
        # Text: a tile is marked '*' exactly when it is on the track.
        header, *rows = render_text(position).splitlines()
        marked = {key_of(x0 - 1 + c, y0 - 1 + r)
                  for r, line in enumerate(rows)
                  for c, cell in enumerate(_cells(line, header)) if cell.endswith("*")}
        assert marked == won
        # SVG: the winning tracks are exactly those tiles', each over a band.
        root = ET.fromstring(render_svg(position))
        winning = [g for g in root.findall("svg:g[@class='tile']", NS)
                   if g.find("svg:path[@class='win-band']", NS) is not None]
        assert len(winning) == len(won)
        for group in winning:
            classes = [p.get("class") for p in group.findall("svg:path", NS)]
            assert f"{colour} win" in classes and classes.count("win-band") == 1


def _cells(line, header):
    """The squares of a text row, cut where the header's column names start."""
    starts = [i for i, ch in enumerate(header) if ch != " " and header[i - 1] == " "]
    return [line[a:b].strip() for a, b in zip(starts, [*starts[1:], None], strict=True)]
