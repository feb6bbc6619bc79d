"""``make gatesim`` on the iCE40 family: the small player synthesized as a board build does,
simulated gate by gate, plays a game through its UART pins answering as the model and as the
RTL, clock for clock (the ECP5 family is in ``make gatesim`` only: its netlist builds slower)."""

import pytest

from fpgatrax.boards import gatesim

pytestmark = pytest.mark.verilator


def test_ice40_netlist_answers_as_the_rtl():
    row = gatesim.gatesim("ice40", games=1, seed=3, log=lambda text: None)
    assert row["results"] and row["moves"] > 0
    assert row["luts"] > 1000 and row["ffs"] > 500            # a netlist, not an empty shell
    assert row["agree"], row


def test_unknown_family_is_one_clear_line(capsys):
    assert gatesim.main(["ice41"]) == 2
    assert "unknown family ice41; the families are ice40, ecp5" in capsys.readouterr().err
