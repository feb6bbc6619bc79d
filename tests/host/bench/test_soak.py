"""The soak of ``make soak``: it plays what it says and counts the model's forfeits."""

from fpgatrax.host.bench import soak
from fpgatrax.host.bots import BOTS
from fpgatrax.host.match.model import ModelSession
from fpgatrax.host.rules.variant import VARIANT_NAMES

QUICK = "board=hx8k,max_trials=300,random_moves=2"


def test_every_variant_and_bot_with_both_colours_and_no_forfeit(tmp_path):
    rows = soak.soak_model(len(VARIANT_NAMES) * len(BOTS) * 2, 1, QUICK, tmp_path)
    assert [(row[0], row[1]) for row in rows] == [(v, b) for v in VARIANT_NAMES for b in BOTS]
    for variant, bot, games, won, drawn, lost, forfeits in rows:
        assert games == 2 and won + drawn + lost == games
        assert not forfeits, (variant, bot, forfeits)
        assert len(list((tmp_path / f"{variant}-{bot}").glob("*.trx"))) == games


def test_a_model_that_answers_illegally_fails_the_soak(monkeypatch, tmp_path, capsys):
    """The soak would notice: a model whose answers after the first are a tile far away."""
    honest = ModelSession.respond

    def rogue(self, line):
        answer = honest(self, line)
        return "Z26+" if answer is not None and line not in ("-W", "-B") else answer

    monkeypatch.setattr(ModelSession, "respond", rogue)
    code = soak.main(["--games", "18", "--jobs", "1", "--model", QUICK,
                      "--record", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1
    forfeits = int(out.rsplit("the model's forfeits: ", 1)[1].split(";")[0])
    assert forfeits == 18


def test_bad_settings_are_one_clear_line(capsys):
    assert soak.main(["--model", "depth=x"]) == 2
    assert "depth must be a number" in capsys.readouterr().err
