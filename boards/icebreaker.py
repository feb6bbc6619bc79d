"""iCEBreaker (iCE40UP5K, 5,280 LUT4): the standard game, searched on a 5×5 window.

The whole game lives in the board keeper's 64×64 board (four of the UP5K's 30 block RAMs,
``hw/keeper.py``), and past it the keeper forgets the far end of the game as on every board
(the player never falls silent at 62 columns); the search sees a 5×5 window of it, around the
opponent's last move once the game is wider. Before the keeper, the UP5K played only the 8x8
variant on an 8×8 array (the standard game needs about 16×16 to hold a game, three times what
the UP5K holds); the keeper took the cells of 28 squares of array (2026-12-03: 6×6, 4,881 of
5,280 logic cells), and forgetting, with the 8-bit coordinates it needs, 11 more (6×6 with it
overfilled the UP5K: 6,147 cells; 5×5 takes 5,095). The 8x8 variant remains a build option
(``variant="8x8"`` with ``width=height=8``). The UART is the FTDI's second channel; the status
shows on the main board's LEDs (red: bad input, green: thinking) and on the snap-off PMOD's
centre red (out of room) and first green (game over).

The player runs at 22 MHz from the PLL, which must be ``SB_PLL40_PAD``: the oscillator is on
the PLL's own input pad (pin 35), which feeds nothing else. With forgetting the build reaches
about 26 MHz (its longest path runs from the search's ply through the array's flags into the
player's control; 4×4 at 27 MHz reached 26.9 MHz, on a path from the player's bounding box
through the keeper's sweep; 5×5 at 24 MHz 25.0), so 22 MHz keeps a margin of about 15 %.
Until the controller's faster trials the design with the PLL overfilled the UP5K by 22 to 42
cells (5,302 of 5,280 at 16 MHz), so the board ran at its 12 MHz oscillator; the PLL takes no
logic cell, but synthesis varies by about 1 % with any change.
"""

from amaranth_boards.icebreaker import ICEBreakerPlatform

from fpgatrax.boards.build import ICEPROG, Board

BOARDS = [Board(
    name="icebreaker", title="iCEBreaker", platform=ICEBreakerPlatform,
    # An 8×8 array holds every 8x8 game; the cells a 9×9 one would add are worth more as search
    # depth (with 9×9, even a 1-ply search overfills the UP5K by 1 %). With the leaf's threat
    # count, a third ply overfills it (5,501 of 5,280 LCs); so do the check evasions with a ply
    # of extension after attacks (5,698 LCs), and without it (5,462). Since the controller's
    # faster trials (2026-12-03), a second ply overfills it too (5,362 LCs; 5,311 without the
    # kept neighbourhood), so it searches one ply and its leaf scan (5,177 LCs). With the
    # keeper, 6×6 (4,881 LCs); with forgetting past the keeper's board too, 5×5 (5,095 LCs;
    # 4×4: 4,515).
    width=5, height=5, variant="standard", depth=1, evasions=False, extension=0, tss=0,
    programmer=ICEPROG, clock_mhz=22, pll_pad=True,
    leds=(("led", 1), ("led", 0), ("led", 2), ("led", 3)),
    resources=tuple(ICEBreakerPlatform.break_off_pmod),
)]
