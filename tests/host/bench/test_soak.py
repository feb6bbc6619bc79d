"""The soak of ``make soak``: it plays what it says and counts the model's forfeits, and judges
the UART soak by its figures."""

import json
import random
import sys

import pytest

from fpgatrax.host.bench import soak
from fpgatrax.host.bots import bots_for, make_bot
from fpgatrax.host.bots.session import BotSession
from fpgatrax.host.link.transport import FunctionTransport, NoAnswer
from fpgatrax.host.match.model import ModelSession
from fpgatrax.host.rules.notation import NotationError, parse_text
from fpgatrax.host.rules.variant import VARIANT_NAMES
from fpgatrax.sim import board as board_module
from fpgatrax.sim import player_testbench

QUICK = "board=hx8k,max_trials=300,random_moves=2"


def test_every_variant_and_bot_with_both_colours_and_no_forfeit(tmp_path):
    pairs = [(variant, bot) for variant in VARIANT_NAMES for bot in bots_for(variant)]
    assert ("mini", "perfect") in pairs and ("standard", "perfect") not in pairs
    rows = soak.soak_model(len(pairs) * 2, 1, QUICK, tmp_path)
    assert [(row[0], row[1]) for row in rows] == [(v, f"model vs {b}") for v, b in pairs]
    for row, (variant, bot) in zip(rows, pairs, strict=True):
        games, distinct, won, drawn, lost, forfeits = row[2:]
        assert games == 2 and won + drawn + lost == games and 1 <= distinct <= games
        assert not forfeits, (variant, bot, forfeits)
        assert len(list((tmp_path / f"{variant}-{bot}").glob("*.trx"))) == games
    # The same table again from the records alone, as for a soak stopped before its end.
    again = {row[:2]: row[2:7] for row in soak.summarize(tmp_path)}
    assert again == {row[:2]: row[2:7] for row in rows}


def test_a_stopped_soak_is_judged_from_its_records(tmp_path, capsys):
    folder = tmp_path / "standard-greedy"
    folder.mkdir()
    (folder / "game00001.trx").write_text("model vs greedy\n@0+ B1+\n# forfeit: white late: "
                                          "B2/ after 1.5 s (limit 1 s)\n")
    (folder / "game00002.trx").write_text("greedy vs model\n@0+ B1+\n")
    assert soak.main(["--summarize", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "2 games recorded" in out and "the model's forfeits: 1" in out
    row = next(line.split() for line in out.splitlines() if line.startswith("standard"))
    assert row[4:9] == ["2", "2", "0", "1", "1"] and row[9] == "1"   # games .. lost, late
    assert soak.main(["--summarize", str(tmp_path / "standard-greedy")]) == 2
    assert "no model soak records" in capsys.readouterr().err


def test_a_model_that_answers_illegally_fails_the_soak(monkeypatch, tmp_path, capsys):
    """The soak would notice: a model whose answers after the first are a tile far away."""
    honest = ModelSession.respond

    def rogue(self, line):
        answer = honest(self, line)
        return "Z26+" if answer is not None and line not in ("-W", "-B") else answer

    monkeypatch.setattr(ModelSession, "respond", rogue)
    games = 2 * sum(len(bots_for(variant)) for variant in VARIANT_NAMES)   # one per colour
    code = soak.main(["--games", str(games), "--board-games", "0", "--uart-bytes", "0",
                      "--jobs", "1", "--model", QUICK, "--record", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1
    forfeits = int(out.rsplit("a failed UART soak): ", 1)[1].split(";")[0])
    assert forfeits == games


def test_bad_settings_are_one_clear_line(capsys):
    assert soak.main(["--model", "depth=x"]) == 2
    assert "depth must be a number" in capsys.readouterr().err
    assert soak.main(["--variants", "mini,giant"]) == 2
    assert "unknown variant 'giant'" in capsys.readouterr().err


def test_the_soak_can_play_some_variants_only(tmp_path):
    rows = soak.soak_model(2, 1, QUICK, tmp_path, variants=["mini"])
    assert [row[1] for row in rows] == [f"model vs {bot}" for bot in bots_for("mini")]
    assert {row[0] for row in rows} == {"mini"}


class BoardStandIn(FunctionTransport):
    """A board stand-in for the simulated board's soak: raw bytes become lines, and a line the
    greedy bot cannot take is dropped, as the board drops bad input; ``chatty`` answers noise."""

    def __init__(self, chatty=False):
        self.session = BotSession(make_bot("greedy", 1), "standard")
        super().__init__("stand-in", self._answer)
        self.chatty = chatty

    def _answer(self, line):
        try:
            return self.session.respond(line)
        except ValueError:
            return "noise?" if self.chatty else None

    def send_raw(self, data):
        for line in data.split(b"\n")[:-1]:
            self.send_line(line.decode("latin-1"))


def test_board_soak_plays_cut_and_whole_games_and_counts_answers_to_noise(monkeypatch):
    monkeypatch.setattr(board_module, "open_board", lambda *args, **kwargs: BoardStandIn())
    row, answered = soak.soak_board(9, seed=7)
    assert row[:2] == ("standard", "sim vs alphabeta") and row[2] == 9 and answered == 0
    assert 1 <= row[3] <= 9 and sum(row[4:7]) == 9 and not row[7]
    assert row[5] >= 1          # some games were cut short (unfinished: neither won nor lost)
    monkeypatch.setattr(board_module, "open_board",
                        lambda *args, **kwargs: BoardStandIn(chatty=True))
    assert soak.soak_board(2, seed=7)[1] == 2


def _noise_stand_in(lost=0, game=True):
    """A stand-in for the UART noise simulation that writes the report it would, ``lost``
    bytes short, with or without the game played after the noise."""

    def run(count, *, seed, report, log_file):
        figures = {"sent": count, "received": count - lost, "wrong": 0, "framing_errors": 0,
                   "overruns": 0, "answers": 3, "team_answers": 1, "team_lines": 1,
                   "clocks": 46 * count}
        log_file.write_text(f"{count - lost:,} of {count:,} bytes delivered\n")
        if game:
            figures |= {"game": "won", "moves": 31}
        report.write_text(json.dumps(figures))
    return run


def test_uart_soak_passes_only_with_every_byte_and_the_game(monkeypatch, tmp_path, capsys):
    for lost, game, code in ((0, True, 0), (1, True, 1), (0, False, 1)):
        monkeypatch.setattr(player_testbench, "run_noise_testbench", _noise_stand_in(lost, game))
        assert soak.main(["--games", "0", "--board-games", "0", "--uart-bytes", "5000",
                          "--record", str(tmp_path)]) == code
        out = capsys.readouterr().out
        assert f"5,000 random bytes sent, {5000 - lost:,} delivered" in out
        assert ("passed" if code == 0 else "FAILED") in out


def test_uart_soak_without_figures_fails(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(player_testbench, "run_noise_testbench",
                        lambda count, **kwargs: sys.exit(1))
    assert soak.main(["--games", "0", "--board-games", "0", "--uart-bytes", "5000",
                      "--record", str(tmp_path)]) == 1
    assert "ended without figures" in capsys.readouterr().out


def test_the_noise_before_a_game_holds_no_whole_move():
    """A board in a game cut short may rightly answer a whole move, so the noise's move line
    cut short must never parse as one (it was once ``B2/``)."""

    class Recorder:
        def __init__(self):
            self.lines = []

        def send_raw(self, data):
            self.lines += data.split(b"\n")[:-1]

        def read_line(self, timeout):
            raise NoAnswer("quiet")

    for seed in range(200):
        board = Recorder()
        assert soak._noise(board, random.Random(seed)) == 0
        short = board.lines[-1].decode()
        with pytest.raises(NotationError):
            parse_text(short)
