"""iCEBreaker (iCE40UP5K, 5,280 LUT4): the 8x8 variant on a 9×9 array.

The standard game needs about a 16×16 array, three times what the UP5K holds, so this board plays
the 8x8 variant, whose whole game fits a 9×9 array (8 squares of play and the ring its candidate
moves need on the side the tiles have not reached). The UART is the FTDI's second channel at the
12 MHz oscillator; the status shows on the main board's LEDs (red: bad input, green: thinking)
and on the snap-off PMOD's centre red (overflow) and first green (game over).
"""

from amaranth_boards.icebreaker import ICEBreakerPlatform

from .build import ICEPROG, Board

BOARDS = [Board(
    name="icebreaker", title="iCEBreaker", platform=ICEBreakerPlatform,
    width=9, height=9, variant="8x8", programmer=ICEPROG,
    depth=1,          # a deeper search's trial levels and frames do not fit the UP5K
    leds=(("led", 1), ("led", 0), ("led", 2), ("led", 3)),
    resources=tuple(ICEBreakerPlatform.break_off_pmod),
)]
