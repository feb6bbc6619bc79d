"""Colorlight 5A-75B v7.0 (LFE5U-25F): the standard game, searched in two lanes of 12×12.

A cheap LED-panel receiver card. Its UART is the one amaranth-boards defines on connector J19:
transmit on the DATA_LED- pin (the board's only LED, which therefore flickers with the answers)
and receive on the KEY+ pin; connect a 3.3 V USB serial adapter there. With no LED left, the
status outputs go to the first pins of HUB75 connector J1 (buffered outputs): pin 1 thinking,
2 bad input, 3 out of room, 5 game over (4 is ground); an LED with a resistor on each shows them.
The player is the ULX3S 25F's (same device, ``boards/ulx3s.py``): two 12×12 lanes over the
keeper's 64×64 board. Clock: the 25 MHz oscillator, multiplied by the PLL to 70 MHz.
nextpnr's router2 stopped converging on it after the controller's faster trials (2026-12-03:
overuse back up from 1,677 to 2,309 wires between iterations 13 and 24), router1 routes it.
The array follows one colour per detection pass: with both, router1 did not finish (36,000
arcs left after 20 minutes).
"""

from amaranth.build import Attrs
from amaranth_boards.colorlight_5a75b_r7_0 import Colorlight_5A75B_R70Platform
from amaranth_boards.resources import LEDResources

from fpgatrax.boards.build import OPENFPGALOADER, Board

BOARDS = [Board(
    name="colorlight", title="Colorlight 5A-75B", platform=Colorlight_5A75B_R70Platform,
    width=12, height=12, lanes=2, variant="standard", programmer=OPENFPGALOADER, clock_mhz=70,
    leds=(("led", 1), ("led", 2), ("led", 3), ("led", 4)),
    resources=tuple(LEDResources(pins={1: "1", 2: "2", 3: "3", 4: "5"}, conn=("j", 1),
                                 attrs=Attrs(IO_TYPE="LVCMOS33"))),
    router="router1",
)]
