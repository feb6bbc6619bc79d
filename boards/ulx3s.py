"""ULX3S (ECP5), in two sizes: the UART on the FTDI chip, the player's clock made by the PLL from
the 25 MHz oscillator, LEDs D0 (thinking), D1 (bad input), D2 (overflow) and D3 (game over).

The LFE5U-85F has a 20×20 array, beyond any recorded game (with the leaf's threat count, 32×32
and 24×24 left the router congested after 40 and 25 minutes); the LFE5U-25F holds 16×16, which
still holds every one of the recorded human games (``docs/figures.md``).

At their oscillator's 25 MHz, router2 routed the 25F and router1 the 85F (router2's overuse grew
again there after 40 to 60 iterations). On the 25F at 50 MHz router2's overuse grew again after
iteration 54; router1 routes it at 70 MHz (80.7 MHz reached, 2026-12-03), as it does the
Colorlight's same device. On the 85F at 60 MHz router1 crawled (91,500 of 104,105 arcs left
after 27 minutes), so it is on router2 (``docs/measurements.md``).
"""

from amaranth_boards.ulx3s import ULX3S_25F_Platform, ULX3S_85F_Platform

from fpgatrax.boards.build import OPENFPGALOADER, Board


def _ulx3s(platform, size, clock_mhz, router):
    return Board(name=f"ulx3s-{platform.device[-3:].lower()}",
                 title=f"ULX3S {platform.device[-3:]}", platform=platform,
                 width=size, height=size, variant="standard", programmer=OPENFPGALOADER,
                 clock_mhz=clock_mhz,
                 leds=(("led", 0), ("led", 1), ("led", 2), ("led", 3)), router=router)


BOARDS = [_ulx3s(ULX3S_85F_Platform, 20, 60, "router2"),
          _ulx3s(ULX3S_25F_Platform, 16, 70, "router1")]
