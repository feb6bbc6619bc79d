"""Board targets: every board's design elaborates onto its pins, the cheapest iCE40 target
builds into a bitstream with the YoWASP tools alone and meets timing, and the commands fail
with one clear line.

The real build takes minutes (synthesis, place and route in WebAssembly). The ECP5 boards'
builds take three times as long (8 minutes for the Colorlight on one core), so the suite
synthesizes that family in ``test_gatesim.py`` instead, and ``make bitstreams`` builds them.
"""

import dataclasses
import subprocess

import pytest
from amaranth.build.plat import BuildPlan

from fpgatrax.boards.build import BoardError, BoardTop, board, boards, build, check_timing, program
from fpgatrax.host.cli.main import main

# The cheapest real target (about 75 s on one core).
CI_BOARDS = ["icebreaker"]


@pytest.mark.nextpnr
@pytest.mark.parametrize("name", CI_BOARDS)
def test_bitstream_builds_and_meets_timing(name):
    target = board(name)
    if target.bitstream.exists():
        target.bitstream.unlink()
    figures = build(target, log=lambda line: None)      # raises when timing is not met
    assert target.bitstream.stat().st_size > 10_000
    assert figures["fmax_mhz"] >= figures["clock_mhz"]
    assert 0 < figures["luts"] and 0 < figures["ffs"]


@pytest.mark.parametrize("name", [name for name in boards() if name not in CI_BOARDS])
def test_other_boards_elaborate_onto_their_pins(name):
    # The pins do not depend on the array's size; a small one elaborates in seconds.
    target = dataclasses.replace(board(name), width=8, height=8)
    plan = target.make_platform().build(BoardTop(target), name=name, do_build=False)
    constraints = plan.files[f"{name}.{'pcf' if target.family == 'ice40' else 'lpf'}"]
    ports = ["uart_0__rx__io", "uart_0__tx__io",
             *(f"{resource}_{number}__io" for resource, number in target.leds)]
    for port in ports:
        assert f"{port} " in constraints or f'"{port}"' in constraints, port


def test_timing_check_fails_below_the_clock():
    check_timing("board", fmax_mhz=12.5, clock_mhz=12, log_path="x.tim")
    with pytest.raises(BoardError, match=r"timing not met: Fmax 11\.9 MHz is below the 12 MHz"):
        check_timing("board", fmax_mhz=11.9, clock_mhz=12, log_path="x.tim")


def test_program_without_the_programmer_says_what_to_install(monkeypatch):
    monkeypatch.setenv("PATH", "")
    with pytest.raises(BoardError, match="needs iceprog, which is not installed: sudo apt-get "
                                         "install fpga-icestorm"):
        program(board("icebreaker"))
    with pytest.raises(BoardError, match="needs openFPGALoader.*apt-get install openfpgaloader"):
        program(board("ulx3s-85f"))


def test_unknown_board_is_one_line(capsys):
    assert main(["build", "nosuch"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("fpgatrax build: error: unknown board 'nosuch'; the boards are ")
    assert err.count("\n") == 1


def test_failed_build_is_not_blamed_on_an_earlier_builds_log(monkeypatch, tmp_path):
    # A synthesis that fails writes no nextpnr log; one left by an earlier build that did not
    # fit must not make this failure "does not fit".
    monkeypatch.setattr("fpgatrax.boards.build.ROOT", tmp_path)
    target = dataclasses.replace(board("icebreaker"), width=8, height=8)
    (tmp_path / target.name).mkdir()
    (tmp_path / target.name / f"{target.name}.tim").write_text(
        "ERROR: Failed to expand region (0, 0) |_> (25, 31) of 5321 ICESTORM_LCs\n")

    def fail(self, *args, **kwargs):
        raise subprocess.CalledProcessError(1, "yosys")
    monkeypatch.setattr(BuildPlan, "execute_local", fail)
    with pytest.raises(BoardError, match="icebreaker: the build failed; see the logs"):
        build(target, log=lambda line: None)
