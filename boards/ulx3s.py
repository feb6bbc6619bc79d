"""ULX3S (ECP5), in two sizes: the UART on the FTDI chip, the player's clock made by the PLL from
the 25 MHz oscillator, LEDs D0 (thinking), D1 (bad input), D2 (out of room) and D3 (game over).

Both search in lanes (``hw/lanes.py``): several 12×12 arrays, each with its own search, splitting
the root's squares, so that they try that many times the moves of one search in the same time.
The game itself lives in the board keeper's 64×64 block RAM (``hw/keeper.py``), so the arrays
are a window of it: 12×12 holds the whole game while it spans 12 columns and rows (the recorded
human games span 8 at the median, 10 at the 90th percentile: ``docs/figures.md``), and a wider
game is searched around the opponent's last move.

The LFE5U-85F's arrays label their tracks, so its search judges every attack (``every_attack``),
each of its searches keeps a table of 4,096 leaf values in block RAM (``table``), and vetoes each
move about to become its choice by the opponent's 5-ply threat-space search (``veto``): two lanes
at 55 MHz, 39,997 LUT4 of 83,640, 20 DP16KD, Fmax 62.0 MHz (2026-12-06; without the tables 38,854
LUT4, 67.2 MHz at 60). It ran at 60 MHz (Fmax 70.1) until the player's edge move came in, which
left the same logic placed and routed to 58.2, 58.6 and 51.3 MHz (nextpnr seeds 1 to 3), its long
paths mostly routing: at 55 MHz it keeps a ninth in hand. The labels take about a hundred LUT4 per
cell: four such lanes mapped to 98,659 LUT4; three to 52,650 but routed only to 49.0 MHz, and with
the tables and the label's side registered to 57,815 LUT4 with an estimate of 42.5 MHz after
placement; four lanes without labels took 37,844 (Fmax 74.9 MHz, 3.88 M trials per second), three
16×16 lanes with the keeper 47,451 (not routed at 60 MHz in 29 minutes); two labelled 16×16 lanes
without the veto mapped to 70,278 LUT4 (placement stopped unfinished, 2026-12-06). The LFE5U-25F has
two at 70 MHz: 19,859 LUT4 of 24,288, Fmax 81.1 MHz (2026-12-06), 2.52 M trials per second (one
16×16 lane: 1.33 M). router1 routes both (router2 stopped converging on the 25F at 50 MHz;
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


BOARDS = [_ulx3s(ULX3S_85F_Platform, 12, 55, "router1", lanes=2, every_attack=True, table=12,
                 veto=5),
          _ulx3s(ULX3S_25F_Platform, 12, 70, "router1", lanes=2)]
