"""The boards' PLL settings, checked against the PLL tools of Project Trellis and IceStorm
(``yowasp-ecppll``, ``yowasp-icepll``, shipped with the YoWASP nextpnr packages): the same
dividers and the same clock for a sweep of requested clocks, and every board's clock inside its
device's limits."""

import dataclasses
import re
import subprocess

import pytest

from fpgatrax.boards.build import BoardTop, board, boards
from fpgatrax.boards.pll import PLLError, ecp5_pll, ice40_pll
from fpgatrax.boards.toolchain import tool

MHZ = 1_000_000

# Requested clocks: the boards' own, round ones, and ones no divider makes exactly (icepll
# does not keep to the iCE40 output's 16 MHz floor, which these settings do: no request at it).
ECP5_SWEEP = [25, 33.3, 46, 48, 50, 55, 60, 62.5, 65, 70, 77, 100, 133]
ICE40_SWEEP = [17, 19, 20, 22.5, 24, 25, 30, 33, 40, 48, 60, 64, 75, 100]


def _ecppll(f_in, f_out, scratch):
    # ecppll prints the dividers and writes its Verilog to a file (in ``scratch``).
    out = subprocess.run([tool("yowasp-ecppll"), "-i", f"{f_in:g}", "-o", f"{f_out:g}",
                          "-f", "pll.v"], cwd=scratch, capture_output=True, text=True,
                         check=True).stdout

    def number(label):
        return float(re.search(rf"{label}: ([0-9.]+)", out).group(1))
    return ({"CLKI_DIV": number("Refclk divisor"), "CLKFB_DIV": number("Feedback divisor"),
             "CLKOP_DIV": number("clkout0 divisor")}, number("clkout0 frequency"))


def _icepll(f_in, f_out):
    out = subprocess.run([tool("yowasp-icepll"), "-i", f"{f_in:g}", "-o", f"{f_out:g}"],
                         capture_output=True, text=True, check=True).stdout
    params = {name: int(re.search(rf"{name}: +([0-9]+)", out).group(1))
              for name in ("DIVR", "DIVF", "DIVQ", "FILTER_RANGE")}
    return params, float(re.search(r"F_PLLOUT: +([0-9.]+) MHz \(achieved\)", out).group(1))


@pytest.mark.parametrize("f_out", ECP5_SWEEP)
def test_ecp5_setting_is_ecppll_s(f_out, tmp_path):
    setting = ecp5_pll(25 * MHZ, f_out * MHZ)
    params, frequency = _ecppll(25, f_out, tmp_path)
    assert {name: setting.params[name] for name in params} == params
    assert float(setting.frequency) / MHZ == pytest.approx(frequency, abs=1e-3)
    assert setting.params["CLKOP_CPHASE"] == setting.params["CLKOP_DIV"] - 1


@pytest.mark.parametrize("f_in,f_out", [(12, f) for f in ICE40_SWEEP] + [(100, 60), (33, 50)])
def test_ice40_setting_is_icepll_s(f_in, f_out):
    setting = ice40_pll(f_in * MHZ, f_out * MHZ)
    params, frequency = _icepll(f_in, f_out)
    assert setting.params == params
    assert float(setting.frequency) / MHZ == pytest.approx(frequency, abs=1e-3)


@pytest.mark.parametrize("make,f_in,message", [
    (ecp5_pll, 5 * MHZ, "an ECP5 PLL takes 8 to 400 MHz, not 5 MHz"),
    (ice40_pll, 8 * MHZ, "an iCE40 PLL takes 10 to 133 MHz, not 8 MHz"),
])
def test_oscillator_out_of_range_is_refused(make, f_in, message):
    with pytest.raises(PLLError, match=message):
        make(f_in, 60 * MHZ)


PLL_BOARDS = list(boards())


def test_pad_pll_has_the_core_pll_s_dividers():
    core, pad = ice40_pll(12 * MHZ, 27 * MHZ), ice40_pll(12 * MHZ, 27 * MHZ, pad=True)
    assert (core.primitive, pad.primitive) == ("SB_PLL40_CORE", "SB_PLL40_PAD")
    assert pad.params == core.params and pad.frequency == core.frequency


@pytest.mark.parametrize("name", PLL_BOARDS)
def test_board_clock_is_its_plls_and_drives_the_player(name):
    target = board(name)
    setting = target.pll
    assert target.clk_freq == int(setting.frequency)
    assert abs(setting.frequency - target.clock_mhz * MHZ) < MHZ
    assert target.clk_freq > target.oscillator_hz


@pytest.mark.parametrize("name", PLL_BOARDS)
def test_board_design_holds_its_pll(name):
    # The PLL does not depend on the array's size; a small one elaborates in seconds.
    target = dataclasses.replace(board(name), width=8, height=8)
    top = BoardTop(target)
    plan = target.make_platform().build(top, name=name, do_build=False)
    rtlil = plan.files[f"{name}.il"]
    setting = target.pll
    # The player's baud divisor and trial budget follow the PLL's clock, not the oscillator's.
    assert top.player.clk_freq == target.clk_freq
    assert f"cell \\{setting.primitive} " in rtlil
    if target.family == "ice40":
        # A PLL on its own input pad takes the pin itself; any other, the pin's input buffer.
        pll_cell = rtlil[rtlil.index(f"cell \\{setting.primitive} "):]
        pll_cell = pll_cell[:pll_cell.index("\n  end")]
        clock_port = "PACKAGEPIN" if target.pll_pad else "REFERENCECLK"
        assert f"connect \\{clock_port} " in pll_cell
    for param, value in setting.params.items():
        assert f"parameter \\{param} {value}" in rtlil, param
    # nextpnr derives the player's clock constraint from the oscillator pin's.
    constraints = plan.files[f"{name}.{'pcf' if target.family == 'ice40' else 'lpf'}"]
    frequencies = [line for line in constraints.splitlines()
                   if line.startswith(("set_frequency", "FREQUENCY"))]
    assert len(frequencies) == 1
    assert (f"{target.oscillator_hz / MHZ:.1f}" in frequencies[0] or
            f"{target.oscillator_hz:.1f} HZ" in frequencies[0])
