"""Game records and the engine's command line, run as a user runs them (a real subprocess)."""

import subprocess
import sys

import pytest
from known_games import LINE_GAME, LOOP_GAME

from fpgatrax.host.rules.record import RecordError, parse_record, read_record, replay


def fpgatrax(*args):
    return subprocess.run([sys.executable, "-m", "fpgatrax.host.cli.main", *args],
                          capture_output=True, text=True, timeout=120)


def test_record_format_header_comments_crlf():
    record = parse_record("Ann vs Bob\r\n# a comment\r\n@0/ B1\\ # trailing\r\n\r\nA2\\\r\n")
    assert (record.white, record.black) == ("Ann", "Bob")
    assert [m for m, _ in record.moves] == ["@0/", "B1\\", "A2\\"]
    assert [line for _, line in record.moves] == [3, 3, 5]


def test_record_without_header():
    assert parse_record(LOOP_GAME).white is None


def test_forfeit_directive():
    result = replay(parse_record("@0/ B1+\n# forfeit: white late answer (1.5 s)\n"))
    assert (result.winner, result.how, result.move_number) == (1, "forfeit", 3)
    assert "late answer" in result.summary()


def test_variant_directive():
    assert replay(parse_record("# variant: loop\n" + LINE_GAME)).how == "unfinished"
    with pytest.raises(RecordError, match="unknown variant"):
        parse_record("# variant: huge\n@0/")


def test_bad_record_names_line_and_move(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("A vs B\n@0/\nB1+ Q7/\n")
    with pytest.raises(RecordError, match=r"line 3, move 3 \(Q7/\): the square is not next"):
        replay(read_record(path))


def test_cli_replay_prints_outcome_and_board(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("Ann vs Bob\n" + LOOP_GAME + "\n")
    run = fpgatrax("replay", str(path), "--show")
    assert run.returncode == 0
    assert "black wins by loop on move 3" in run.stdout
    lines = run.stdout.splitlines()
    assert lines[2].split() == ["@", "A", "B", "C"]           # columns of the empty ring too
    assert [line.split()[0] for line in lines[3:]] == ["0", "1", "2", "3"]


@pytest.mark.parametrize("content,message", [
    ("@0/ B1+ Q7/", "line 1, move 3 (Q7/): the square is not next to a tile"),
    ("@0/ A1+", "move 2 (A1+): the square is occupied"),
    ("@0/ B1\\ A2\\ A3+", "the game is already over"),
    ("@0/ B1+ B2/ A2\\", "colours do not match"),
    ("@0/\nB1+ A01/", "line 2, move 3 (A01/): 'A01/': the row has a leading zero"),
    ("# forfeit: purple late", "forfeit names 'white' or 'black'"),
])
def test_cli_errors_are_one_line(tmp_path, content, message):
    path = tmp_path / "game.txt"
    path.write_text(content)
    run = fpgatrax("replay", str(path))
    assert run.returncode == 1
    assert message in run.stderr
    assert "Traceback" not in run.stderr and len(run.stderr.splitlines()) == 1


def test_cli_missing_file_and_bad_arguments(tmp_path):
    run = fpgatrax("replay", str(tmp_path / "none.txt"))
    assert run.returncode == 1 and "No such file" in run.stderr and "Traceback" not in run.stderr
    run = fpgatrax("perft", "lots")
    assert run.returncode == 2 and "not a whole number" in run.stderr


def test_cli_perft():
    run = fpgatrax("perft", "3")
    assert run.returncode == 0 and run.stdout.split()[0] == "432"
