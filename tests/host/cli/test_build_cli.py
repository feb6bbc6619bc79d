"""``fpgatrax build --table --write PAGE``: the board table from the last builds' figures goes
between the page's markers, and nothing else of the page changes; a page without markers or a
board never built is a one-line error that leaves the page as it was. No bitstream is built:
the figures are stand-ins."""

import pytest

from fpgatrax.host.bench.pages import end_marker, start_marker
from fpgatrax.host.cli import build as build_cli
from fpgatrax.host.cli.main import main

pytest.importorskip("fpgatrax.boards.build")

PAGE = (f"# Boards\n\nSome prose.\n\n{start_marker('boards')}\nold table\n"
        f"{end_marker('boards')}\n\nMore prose.\n")
FIGURES = {"luts": 1234, "ffs": 567, "fmax_mhz": 45.67, "build_s": 89}


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_table_is_written_between_the_markers(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(build_cli, "figures", lambda target: FIGURES)
    page = tmp_path / "page.md"
    page.write_text(PAGE)
    status, out, err = run(capsys, "build", "--table", "--write", str(page))
    assert (status, err) == (0, "")
    text = page.read_text()
    before, rest = text.split(start_marker("boards"))
    block, after = rest.split(end_marker("boards"))
    assert before + start_marker("boards") == PAGE.split("\nold table")[0]
    assert after == "\n\nMore prose.\n"
    assert f"`fpgatrax build --table --write {page}`" in block
    rows = [line for line in block.splitlines() if line.startswith("| ")]
    assert rows[0].startswith("| board | device |")
    assert len(rows) == 1 + len(build_cli.boards())
    assert all("| 1234 | 567 |" in row and "45.7 MHz" in row for row in rows[1:])
    # The search column names a board's table of leaf values, and only where it has one.
    assert [f"table {1 << b.table:,}" in row for b, row in
            zip(build_cli.boards().values(), rows[1:], strict=True)] == [
        bool(b.table) for b in build_cli.boards().values()]
    assert block.strip().endswith(build_cli.board_table(list(build_cli.boards().values())))
    assert "wrote the board table" in out


def test_a_board_never_built_leaves_the_page_alone(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(build_cli, "figures",
                        lambda target: None if target.name == "hx8k" else FIGURES)
    page = tmp_path / "page.md"
    page.write_text(PAGE)
    status, _, err = run(capsys, "build", "--table", "--write", str(page))
    assert status == 1 and len(err.strip().splitlines()) == 1
    assert "no figures for hx8k" in err and "was not written" in err
    assert page.read_text() == PAGE


@pytest.mark.parametrize("content, message", [
    ("no markers\n", "has no '<!-- generated: boards -->'"),
    (None, "no such file"),
])
def test_a_page_that_cannot_take_the_table_is_a_one_line_error(capsys, tmp_path, monkeypatch,
                                                               content, message):
    monkeypatch.setattr(build_cli, "figures", lambda target: FIGURES)
    page = tmp_path / "page.md"
    if content is not None:
        page.write_text(content)
    status, out, err = run(capsys, "build", "--table", "--write", str(page))
    assert status == 1 and message in err
    assert err.startswith("fpgatrax build: error: ") and len(err.strip().splitlines()) == 1
    assert out == ""                            # checked before anything else is done
    assert (page.read_text() if content is not None else None) == content


@pytest.mark.parametrize("variant", ["mini", "8x8"])
def test_a_variant_build_is_its_own_target(variant, monkeypatch, capsys, tmp_path):
    """``build NAME --variant V`` builds NAME-V, apart from the board's own files, with an array
    no larger than the variant's games can use; it prints that target's table row."""
    built = []
    monkeypatch.setattr(build_cli, "build", lambda target, log: built.append(target))
    monkeypatch.setattr(build_cli, "figures", lambda target: FIGURES)
    status, out, _ = run(capsys, "build", "icebreaker", "hx8k", "colorlight", "--variant",
                         variant)
    assert status == 0
    own = build_cli.boards()
    for target in built:
        board = own[target.name.rsplit("-", 1)[0]]
        assert target.name == f"{board.name}-{variant}" and target.variant == variant
        assert target.bitstream.parent.name == target.name
        extra = 2 if board.family == "ice40" else 3        # the ECP5 boards: a Yosys bug
        side = min(board.width, {"mini": 3, "8x8": 8}[variant] + extra)
        assert (target.width, target.height) == (side, side)
        assert f"| {board.title} ({variant}) |" in out
    assert len(built) == 3
    status, _, err = run(capsys, "build", "--variant", variant, "--write",
                         str(tmp_path / "page.md"))
    assert status == 1 and "build a --variant without it" in err
