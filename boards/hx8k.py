"""iCE40-HX8K breakout board (iCE40HX8K, 7,680 LUT4): the standard game on a 10×10 array.

The largest array the HX8K holds with room to route: games whose tiles span at most 9 columns
and 9 rows (the recorded human games span 8 at the median, 10 at the 90th percentile:
``docs/figures.md``); a longer game goes on in the board keeper's 64×64 board, the array then
searching a window of it (``hw/keeper.py``). With the
leaf's threat count an 11×11 array overfilled it by 11 %. The UART is the FTDI's second channel;
the status shows on LEDs D2 (thinking), D3 (bad input), D4 (out of room) and D5 (game over). The
PLL makes the player's 60 MHz clock from the 12 MHz oscillator (the build reached 77.2 MHz).
"""

from amaranth_boards.ice40_hx8k_b_evn import ICE40HX8KBEVNPlatform

from fpgatrax.boards.build import ICEPROG, Board

BOARDS = [Board(
    name="hx8k", title="iCE40-HX8K breakout", platform=ICE40HX8KBEVNPlatform,
    width=10, height=10, variant="standard", programmer=ICEPROG, clock_mhz=60,
    depth=2,          # a third ply overfilled even the 11×11 player without the threat count
    evasions=False,   # the check evasions with a ply of extension after attacks overfilled
    extension=0,      # it (7,964 LCs of 7,680); the threat-space search needs them
    tss=0,
    leds=(("led", 0), ("led", 1), ("led", 2), ("led", 3)),
)]
