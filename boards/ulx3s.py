"""ULX3S (ECP5), in two sizes: the UART on the FTDI chip, the player's clock made by the PLL from
the 25 MHz oscillator, LEDs D0 (thinking), D1 (bad input), D2 (out of room) and D3 (game over).

The LFE5U-85F searches in three lanes (``hw/lanes.py``): three 16×16 arrays, each with its own
search, splitting the root's squares, so that it tries three times the moves of one search in
the same time (2.99 M trials per second at 60 MHz against 1.14 M for one 20×20 search,
``make bench-trials``). 16×16 holds every one of the recorded human games
(``docs/figures.md``). At 60 MHz router1 routes it, slowly (3,911 s for the whole build, 60.4
MHz reached, 2026-12-03: the longest path is inside a lane's search, not between lanes). One
20×20 array at 60 MHz had not routed in 27 minutes on router1 nor in 22 on router2. The
LFE5U-25F holds one 16×16 lane.

At their oscillator's 25 MHz, router2 routed the 25F and router1 the 85F. On the 25F at 50 MHz
router2's overuse grew again after iteration 54; router1 routes it at 70 MHz (80.7 MHz reached,
2026-12-03), as it does the Colorlight's same device (``docs/measurements.md``).
"""

from amaranth_boards.ulx3s import ULX3S_25F_Platform, ULX3S_85F_Platform

from fpgatrax.boards.build import OPENFPGALOADER, Board


def _ulx3s(platform, size, clock_mhz, router, lanes=1):
    return Board(name=f"ulx3s-{platform.device[-3:].lower()}",
                 title=f"ULX3S {platform.device[-3:]}", platform=platform,
                 width=size, height=size, variant="standard", programmer=OPENFPGALOADER,
                 clock_mhz=clock_mhz, lanes=lanes,
                 leds=(("led", 0), ("led", 1), ("led", 2), ("led", 3)), router=router)


BOARDS = [_ulx3s(ULX3S_85F_Platform, 16, 60, "router1", lanes=3),
          _ulx3s(ULX3S_25F_Platform, 16, 70, "router1")]
