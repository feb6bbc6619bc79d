"""The playing subcommands end to end: match, tournament, show and bot, through ``cli.main`` and
as a real ``fpgatrax bot`` process, checked against the reference engine's replay."""

import json
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from fpgatrax.host.cli.main import main
from fpgatrax.host.rules.notation import parse_move
from fpgatrax.host.rules.position import Position
from fpgatrax.host.rules.record import read_record, replay


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_match_prints_moves_and_result_and_writes_records(capsys, tmp_path):
    status, out, _ = run(capsys, "match", "--white", "greedy", "--black", "random", "--seed",
                         "4", "--games", "2", "--record", str(tmp_path))
    assert status == 0
    records = sorted(tmp_path.iterdir())
    assert len(records) == 2
    results = [replay(read_record(path)) for path in records]
    for result in results:
        assert result.summary() in out
    assert read_record(records[0]).white == "greedy"
    assert "  @  A" in out                       # the board, with its coordinates
    wins = sum(result.winner == 0 for result in results)
    assert f"greedy (white) {wins} wins" in out


def test_match_against_a_bot_program(capsys, tmp_path):
    program = f"cmd:{shlex.quote(sys.executable)} -m fpgatrax.host.cli.main bot greedy --seed 1"
    status, out, _ = run(capsys, "match", "--white", "random", "--black", program, "--time",
                         "10", "--quiet", "--handshake", "--record", str(tmp_path))
    assert status == 0
    (record,) = tmp_path.iterdir()
    result = replay(read_record(record))
    assert result.how in ("loop", "line") and result.summary() in out
    assert "black team code: PY" in out


@pytest.mark.parametrize("argv, message", [
    (["match", "--white", "sim:speed=9", "--black", "random"], "unknown parameter 'speed'"),
    (["match", "--white", "chess", "--black", "random"], "unknown player 'chess'"),
    (["match", "--white", "tcp:1", "--black", "tcp:1"], "same player"),
    (["tournament", "random"], "at least two players"),
    (["tournament", "random", "random"], "named once"),
])
def test_user_mistakes_are_one_line_errors(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 1
    assert message in err and len(err.strip().splitlines()) == 1


def test_tournament_table(capsys, tmp_path):
    status, out, err = run(capsys, "tournament", "random", "greedy", "--games", "1", "--seed",
                           "3", "--record", str(tmp_path))
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("player") and "illegal" in lines[0]
    rows = {line.split()[0]: line.split() for line in lines[1:]}
    records = [read_record(path) for path in sorted(tmp_path.glob("*.txt"))]
    assert len(records) == 2
    for name in ("random", "greedy"):
        wins = sum(replay(r).winner == (0 if r.white == name else 1) for r in records)
        assert rows[name][1:3] == ["2", str(wins)]
    assert "game 2/2" in err                      # progress, as lines when not on a terminal
    # Beside the records: a CSV row per game and the table as JSON, named as the records.
    (table,), (games,) = tmp_path.glob("*-standings.json"), tmp_path.glob("*-results.csv")
    assert table.name.removesuffix("-standings.json") == games.name.removesuffix("-results.csv")
    assert len(games.read_text().splitlines()) == 1 + len(records)
    assert {s["player"] for s in json.loads(table.read_text())["standings"]} == {"random",
                                                                                  "greedy"}


def test_show_text_svg_and_move(capsys, tmp_path):
    record = tmp_path / "game.txt"
    record.write_text("a vs b\n@0/ B1+ B2\\\n")
    status, out, _ = run(capsys, "show", str(record), "--move", "2")
    assert status == 0 and "unfinished after 2 moves" in out and "+" in out
    svg = tmp_path / "game.svg"
    status, out, _ = run(capsys, "show", str(record), "--svg", str(svg))
    assert status == 0
    root = ET.parse(svg).getroot()
    tiles = root.findall("{http://www.w3.org/2000/svg}g[@class='tile']")
    assert len(tiles) == len(replay(read_record(record)).position.tiles)
    status, _, err = run(capsys, "show", str(record), "--move", "9")
    assert status == 1 and "has 3 moves" in err


def test_bot_command_is_a_protocol_player():
    answer = subprocess.run([sys.executable, "-m", "fpgatrax.host.cli.main", "bot", "alphabeta",
                             "--team", "AB", "--depth", "1"], input="-T\n-W\n",
                            capture_output=True, text=True, timeout=120)
    team, move = answer.stdout.splitlines()
    assert team == "AB"
    Position().play(parse_move(Position(), move))
