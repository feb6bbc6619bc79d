"""Regenerated blocks of the documentation pages: only the text between a pair of markers changes,
and a page that cannot take the block is a one-line UserError that leaves it as it was."""

import os
import re

import pytest

from fpgatrax.host.bench import strength
from fpgatrax.host.bench.pages import (
    check_page,
    end_marker,
    replace_generated,
    start_marker,
    write_generated,
)
from fpgatrax.host.rules.errors import UserError

PAGE = f"""# Measurements

Prose above, with a table:

| a | b |
|---|---|
| 1 | 2 |

{start_marker("boards")}
the old table
{end_marker("boards")}

Prose between the blocks, trailing spaces kept:{"   "}
{start_marker("strength")}
old strength
{end_marker("strength")}
Last line, then an empty one.

"""


def test_only_the_text_between_the_markers_changes():
    new = replace_generated(PAGE, "boards", "| new | table |\n")
    before, _, rest = PAGE.partition(start_marker("boards"))
    _, _, after = rest.partition(end_marker("boards"))
    assert new == (before + start_marker("boards") + "\n| new | table |\n"
                   + end_marker("boards") + after)
    assert "the old table" not in new and "old strength" in new


def test_replacing_twice_is_the_same_as_once():
    once = replace_generated(PAGE, "strength", "figures")
    assert replace_generated(once, "strength", "figures") == once
    assert replace_generated(once, "strength", "old strength") == PAGE


@pytest.mark.parametrize("page, message", [
    (PAGE.replace(start_marker("boards"), ""), "has no '<!-- generated: boards -->'"),
    (PAGE.replace(end_marker("boards"), ""), "has no '<!-- end generated: boards -->'"),
    (PAGE + "\n" + start_marker("boards"), "has 2 copies of '<!-- generated: boards -->'"),
    (PAGE.replace(start_marker("boards"), "@@").replace(end_marker("boards"),
                                                        start_marker("boards"))
     .replace("@@", end_marker("boards")), "comes before"),
])
def test_a_page_without_its_pair_of_markers_is_a_user_error(page, message):
    with pytest.raises(UserError, match=message):
        replace_generated(page, "boards", "new")


def test_a_marker_names_its_block_exactly():
    with pytest.raises(UserError, match="generated: board -->"):
        replace_generated(PAGE, "board", "new")


def test_writing_a_page_keeps_every_other_byte_and_its_mode(tmp_path):
    path = tmp_path / "page.md"
    path.write_bytes(PAGE.replace("\n", "\r\n").encode())
    os.chmod(path, 0o644)
    check_page(path, "strength")
    write_generated(path, "strength", "new figures")
    text = path.read_bytes().decode()
    assert text == replace_generated(PAGE.replace("\n", "\r\n"), "strength", "new figures")
    assert os.stat(path).st_mode & 0o777 == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["page.md"]     # no temporary file left


def test_a_page_that_cannot_take_the_block_is_left_untouched(tmp_path):
    path = tmp_path / "page.md"
    path.write_text("no markers here\n")
    with pytest.raises(UserError, match="page.md has no"):
        write_generated(path, "boards", "new")
    assert path.read_text() == "no markers here\n"
    with pytest.raises(UserError, match="no such file"):
        check_page(tmp_path / "missing.md", "boards")


def test_strength_benchmark_writes_its_table_into_the_page(tmp_path, capsys):
    path = tmp_path / "page.md"
    path.write_text(PAGE)
    strength.main(["--games", "1", "--opponent", "random", "--model", "max_trials=1",
                   "--jobs", "1", "--write", str(path)])
    text = path.read_text()
    block = text.split(start_marker("strength"))[1].split(end_marker("strength"))[0]
    assert "Written by `python -m fpgatrax.host.bench.strength --games 1" in block
    assert "trial limit 1," in block
    assert re.search(r"^\| `random` \| [01]/1 \| [01]/1 \| \d+ % \| \d+–\d+ % \| "
                     r"≥99 %: (not )?met \|$", block, re.MULTILINE)
    assert text.replace(block, "\nold strength\n") == PAGE


def test_strength_benchmark_checks_the_page_before_playing(tmp_path, capsys):
    path = tmp_path / "page.md"
    path.write_text("no markers\n")
    with pytest.raises(SystemExit) as exit:
        strength.main(["--games", "1", "--opponent", "random", "--jobs", "1",
                       "--write", str(path)])
    assert exit.value.code == 1
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1
    assert "has no '<!-- generated: strength -->'" in err
    assert path.read_text() == "no markers\n"
