"""``fpgatrax puzzle`` end to end: make, show, solve and check through ``cli.main``, with the
files each writes read back, the SVG parsed, and a clear message for each mistake."""

import xml.etree.ElementTree as ET

import pytest

from fpgatrax.host.cli.main import main
from fpgatrax.host.puzzles.board import read_puzzle, red_sides
from fpgatrax.host.puzzles.check import problems
from fpgatrax.host.puzzles.solve import solutions

NS = {"svg": "http://www.w3.org/2000/svg"}


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("kind", ["line", "loop", "match"])
def test_make_solve_and_check_round_trip(capsys, tmp_path, kind):
    made, answer = tmp_path / "p.txt", tmp_path / "a.txt"
    status, _, _ = run(capsys, "puzzle", "make", kind, "--size", 6, "--seed", 7,
                       "-o", made, "--solution", answer)
    assert status == 0
    puzzle = read_puzzle(made)
    assert "--seed 7" in made.read_text()
    assert [sorted(b.items()) for b in solutions(puzzle)] == \
        [sorted(read_puzzle(answer).givens.items())]
    solved = tmp_path / "s.txt"
    status, out, err = run(capsys, "puzzle", "solve", made, "-o", solved)
    assert status == 0 and "the solution is unique" in err
    assert read_puzzle(solved).givens == read_puzzle(answer).givens
    assert out.startswith(f"# a solution of {made}\nkind {kind}\n")
    status, out, _ = run(capsys, "puzzle", "check", made, solved)
    assert status == 0 and out.startswith("solved")


def test_check_prints_each_reason_and_fails(capsys, tmp_path):
    made, answer = tmp_path / "p.txt", tmp_path / "a.txt"
    run(capsys, "puzzle", "make", "line", "--size", 5, "--seed", 3, "-o", made,
        "--solution", answer)
    lines = answer.read_text().splitlines()
    row = lines.index("board") + 3
    lines[row] = " ".join(["." if i == 2 else t for i, t in enumerate(lines[row].split())])
    answer.write_text("\n".join(lines) + "\n")
    status, out, _ = run(capsys, "puzzle", "check", made, answer)
    assert status == 1
    expected = problems(read_puzzle(made), read_puzzle(answer).givens)
    assert out.splitlines() == [f"not solved: {reason}" for reason in expected]
    assert "squares are empty: C3" in out


def test_solve_counts_solutions_and_says_when_there_is_none(capsys, tmp_path):
    many = tmp_path / "many.txt"
    many.write_text("kind loop\nsize 4\ncrosses 0\ncurves 4\n")
    status, out, err = run(capsys, "puzzle", "solve", many, "--all")
    assert status == 0 and "the solution is unique (up to where the loop lies" in err
    lines = tmp_path / "lines.txt"
    lines.write_text("kind line\nsize 4\nends A1W B1N\n")
    status, out, err = run(capsys, "puzzle", "solve", lines, "--all", "--limit", 3)
    assert status == 0 and "at least 3 solutions" in err and out.count("solution ") == 3
    none = tmp_path / "none.txt"
    none.write_text("kind line\nsize 4\nends A1W A3W\n")      # one colour: no path
    status, out, _ = run(capsys, "puzzle", "solve", none)
    assert status == 1 and "no solution" in out


def test_solve_draws_the_solution_as_svg(capsys, tmp_path):
    made = tmp_path / "p.txt"
    run(capsys, "puzzle", "make", "line", "--size", 5, "--seed", 5, "-o", made)
    status, out, _ = run(capsys, "puzzle", "solve", made, "--svg", "-")
    assert status == 0
    root = ET.fromstring(out)
    puzzle = read_puzzle(made)
    board = solutions(puzzle)[0]
    tiles = root.findall(".//svg:g[@class='tile']", NS)
    assert len(tiles) == 25
    given = {g.get("data-square") for g in tiles
             if g.find("svg:rect", NS).get("class") == "face"}
    assert given == {f"{'ABCDE'[c]}{r + 1}" for c, r in puzzle.givens}
    for g in tiles:
        name = g.get("data-square")
        square = ("ABCDE".index(name[0]), int(name[1:]) - 1)
        assert g.get("data-symbol") in "+/\\"
        straight = abs(red_sides(board[square])[0] - red_sides(board[square])[1]) == 2
        assert (g.get("data-symbol") == "+") == straight
    assert len(root.findall(".//svg:path[@class='end']", NS)) == 2


@pytest.mark.parametrize("argv, message", [
    (["puzzle", "solve", "{missing}"], "cannot read puzzle"),
    (["puzzle", "show", "{bad}"], "bad.txt:1: unknown line"),
    (["puzzle", "make", "line", "--size", "40"], "--size must be 3 to 12"),
    (["puzzle", "make", "line", "-o", "{dir}"], "cannot write"),
])
def test_mistakes_are_one_line_not_a_traceback(capsys, tmp_path, argv, message):
    (tmp_path / "bad.txt").write_text("colour red\n")
    names = {"missing": tmp_path / "no.txt", "bad": tmp_path / "bad.txt", "dir": tmp_path}
    status, _, err = run(capsys, *[a.format(**names) for a in argv])
    assert status == 1 and message in err and "Traceback" not in err
    assert err.startswith("fpgatrax puzzle: error:")


def test_show_names_the_squares(capsys, tmp_path):
    made = tmp_path / "p.txt"
    run(capsys, "puzzle", "make", "match", "--size", 4, "--seed", 2, "-o", made)
    status, out, _ = run(capsys, "puzzle", "show", made)
    lines = out.splitlines()
    assert status == 0 and lines[0].startswith("match puzzle, 4×4: a board unchanged by")
    assert lines[1].split() == ["A", "B", "C", "D"]
    assert [line.split()[0] for line in lines[2:]] == ["1", "2", "3", "4"]
    given = read_puzzle(made).givens
    assert sum(token != "." for line in lines[2:] for token in line.split()[1:]) == len(given)
