"""iCE40-HX8K breakout board (iCE40HX8K, 7,680 LUT4): the standard game, searched on an 8×8 window.

The whole game lives in the board keeper's 64×64 board (``hw/keeper.py``, four of the HX8K's 32
block RAMs); the search sees an 8×8 window of it, the whole game while it fits (the recorded
human games span 8 columns at the median, 10 at the 90th percentile: ``docs/figures.md``),
else the squares around the opponent's last move. With the keeper a 10×10 array overfilled the
HX8K (8,602 of 7,680 logic cells, 2026-12-03); 8×8 takes 6,548. Before the keeper it had 10×10
(an 11×11 array overfilled it by 11 % with the leaf's threat count). The UART is the FTDI's
second channel; the status shows on LEDs D2 (thinking), D3 (bad input), D4 (out of room) and D5
(game over). The PLL makes the player's 54 MHz clock from the 12 MHz oscillator: at most 90 % of
the Fmax its builds reach (63.5 MHz at 60 MHz, and 62.7 and 59.1 MHz with two versions of the
player's edge move, 2026-12-05: 60 MHz left no margin; at 54 MHz with the edge move, 65.3, and
61.5 with the leaf's *mine* doubled, 2026-12-06). Its 2-ply search finishes far inside the trial
limit, so the lower clock costs it no strength."""

from amaranth_boards.ice40_hx8k_b_evn import ICE40HX8KBEVNPlatform

from fpgatrax.boards.build import ICEPROG, Board

BOARDS = [Board(
    name="hx8k", title="iCE40-HX8K breakout", platform=ICE40HX8KBEVNPlatform,
    width=8, height=8, variant="standard", programmer=ICEPROG, clock_mhz=54,
    depth=2,          # a third ply overfilled even the 11×11 player without the threat count
    evasions=False,   # the check evasions with a ply of extension after attacks overfilled
    extension=0,      # it (7,964 LCs of 7,680); the threat-space search needs them
    tss=0,
    leds=(("led", 0), ("led", 1), ("led", 2), ("led", 3)),
)]
