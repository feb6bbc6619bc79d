"""ULX3S (ECP5), in two sizes: the UART on the FTDI chip, the player's clock made by the PLL from
the 25 MHz oscillator, LEDs D0 (thinking), D1 (bad input), D2 (out of room) and D3 (game over).

The game itself lives in the board keeper's 64×64 block RAM (``hw/keeper.py``), so the arrays
are a window of it: one holds the whole game and the empty ring around it, where every move is
made, while the game spans two columns and rows fewer than the array's side, and a wider game
is searched around the opponent's last move. The recorded human games span 8 at the median, 10
at the 90th percentile and 14 at the 99th (``docs/figures.md``).

The LFE5U-85F searches one 14×14 array that labels its tracks, so its search judges every
attack (``every_attack``), keeps a table of 4,096 leaf values in block RAM (``table``), and
vetoes each move about to become its choice by the opponent's 5-ply threat-space search
(``veto``): 27,043 LUT4 of 83,640, Fmax 60.7 MHz at 55 MHz (2026-12-07). Until then it had two
labelled 12×12 lanes (``hw/lanes.py``: arrays with a search each, splitting the root's squares;
39,997 LUT4, Fmax 62.0 MHz), twice the trials a move; the one search on the wider window won
more of its games (``docs/measurements.md``, "Where the long games are lost"): the 12×12 window
loses the ring once a game spans 11 or 12, where many of the lanes' lost games were decided.
The labels take about a hundred LUT4 a cell: one labelled 16×16 lane (39,075 LUT4) did not
route at 55 MHz in 58 minutes of router1, two labelled 14×14 lanes placed at an estimated 36 MHz
(57,493 LUT4), three 12×12 routed to 49.0 MHz; four unlabelled 12×12 lanes took 37,844 (Fmax
74.9 MHz, 3.88 M trials per second). The LFE5U-25F has two unlabelled 12×12 lanes at 70 MHz:
19,951 LUT4 of 24,288, Fmax 77.2 MHz (2026-12-06), 2.52 M trials per second (one 16×16 lane:
1.33 M). router1 routes both (router2 stopped converging on the 25F at 50 MHz;
``docs/measurements.md``).
"""

from amaranth_boards.ulx3s import ULX3S_25F_Platform, ULX3S_85F_Platform

from fpgatrax.boards.build import OPENFPGALOADER, Board


def _ulx3s(platform, size, clock_mhz, router, lanes=1, every_attack=False, table=0, veto=0):
    return Board(name=f"ulx3s-{platform.device[-3:].lower()}",
                 title=f"ULX3S {platform.device[-3:]}", platform=platform,
                 width=size, height=size, variant="standard", programmer=OPENFPGALOADER,
                 clock_mhz=clock_mhz, lanes=lanes, every_attack=every_attack, table=table,
                 veto=veto,
                 leds=(("led", 0), ("led", 1), ("led", 2), ("led", 3)), router=router)


BOARDS = [_ulx3s(ULX3S_85F_Platform, 14, 55, "router1", every_attack=True, table=12, veto=5),
          _ulx3s(ULX3S_25F_Platform, 12, 70, "router1", lanes=2)]
