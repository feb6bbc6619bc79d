"""``make gatesim`` on the ECP5 family: the small player synthesized as a board build does,
simulated gate by gate (with the project's models of the block RAM and the multiplier), plays a
game through its UART pins answering as the model and as the RTL, clock for clock. The iCE40
family is in ``make gatesim``; the suite builds an iCE40 bitstream instead
(``test_bitstreams.py``), so each family's synthesis runs in the suite."""

import pytest

from fpgatrax.boards import gatesim

pytestmark = pytest.mark.verilator


def test_ecp5_netlist_answers_as_the_rtl():
    row = gatesim.gatesim("ecp5", games=1, seed=3, log=lambda text: None)
    assert row["results"] and row["moves"] > 0
    assert row["luts"] > 1000 and row["ffs"] > 500            # a netlist, not an empty shell
    assert row["agree"], row


def test_unknown_family_is_one_clear_line(capsys):
    assert gatesim.main(["ice41"]) == 2
    assert "unknown family ice41; the families are ice40, ecp5" in capsys.readouterr().err
