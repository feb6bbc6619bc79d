"""cocotb testbench: the player's link first carries ``NOISE_BYTES`` random frames from the
harness (``sim/noise_harness.py``), then the player plays a whole game against ``greedy``,
every answer judged by the reference engine and matched with the player's model as in
``sim/player_tb.py`` (whose ``PLAYER_*`` parameters this testbench shares). With
``NOISE_REPORT`` set, the figures go there as JSON (``host/bench/soak.py`` reads them): after
the noise, and again with the game's result once it is played.

After the noise: the player's receiver must have delivered every byte, each the byte sent, with
no framing error and no overrun. Whatever the noise left behind (a game it started, half a
line) must not stop a line feed and a ``-W`` or ``-B`` from starting the game.
"""

import json
import os
import random

import cocotb
from cocotb.triggers import ClockCycles

from fpgatrax.host.bots import make_bot
from fpgatrax.sim.noise_harness import ALPHABET
from fpgatrax.sim.player_tb import ENV, PERIOD, play_game, start

COUNT = int(os.environ["NOISE_BYTES"])
SEED = int(ENV["seed"])
FRAME = 10 * int(ENV["divisor"])            # clocks per frame
PROGRESS = 100_000                          # frames between progress lines


def noise(seed, count):
    """The harness's byte stream, replayed in Python (``sim/noise_harness.py``)."""
    out, state, mask = bytearray(), seed, (1 << 32) - 1
    for _ in range(count):
        out.append(ALPHABET[state >> 10 & 31] if state >> 8 & 3 else state & 255)
        state ^= state << 13 & mask
        state ^= state >> 17
        state ^= state << 5 & mask
    return bytes(out)


async def _quiet(dut, link):
    """Wait until the player has been silent and idle for 40 frames' time (it may be answering
    a game the noise started), forgetting what it sent."""
    while True:
        while not link.received.empty():
            link.received.get_nowait()
        await ClockCycles(dut.clk, 40 * FRAME)
        if link.received.empty() and not int(dut.thinking.value):
            return


@cocotb.test()
async def noise_then_a_game(dut):
    link = await start(dut)
    seed = (SEED * 2654435761) % (1 << 32) or 1      # xorshift32 needs non-zero
    dut.seed.value = seed
    dut.noise_count.value = COUNT
    await ClockCycles(dut.clk, 1)                    # the harness loads the seed
    dut.go.value = 1
    while not int(dut.noise_done.value):
        await ClockCycles(dut.clk, min(COUNT + 10, PROGRESS) * FRAME)
        dut._log.info(f"{int(dut.noise_received.value):,} of {COUNT:,} bytes delivered")
    sent = bytes(link.received._queue)
    answers, team_answers = sent.count(b"\n"), sent.count(b"FT\n")
    team_lines = sum(line.rstrip(b"\r") == b"-T" for line in noise(seed, COUNT).split(b"\n"))
    received, wrong = int(dut.noise_received.value), int(dut.noise_wrong.value)
    framing, overruns = int(dut.framing_errors.value), int(dut.overruns.value)
    clocks = int(cocotb.utils.get_sim_time("ns") // PERIOD)
    dut._log.info(f"noise: {received:,} bytes delivered of {COUNT:,} sent, {wrong} different "
                  f"from the byte sent, {framing} framing errors, {overruns} overruns (after "
                  f"{clocks:,} clocks); the player answered {answers} lines of it (the team "
                  f"code {team_answers} times for {team_lines} -T lines, and games the noise "
                  f"started)")
    report = {"sent": COUNT, "received": received, "wrong": wrong, "framing_errors": framing,
              "overruns": overruns, "answers": answers, "team_answers": team_answers,
              "team_lines": team_lines, "clocks": clocks}
    _write(report)
    assert (received, wrong, framing, overruns) == (COUNT, 0, 0, 0)
    # A -T is answered unless another follows before the answer went out: the noise the
    # player saw is the stream this testbench replays.
    assert (team_lines == 0) == (team_answers == 0) and team_answers <= team_lines

    await link.send(b"\n")                  # ends whatever line the noise left half-sent
    await _quiet(dut, link)
    rng = random.Random(SEED)
    me = rng.randrange(2)
    position, result = await play_game(dut, link, me, make_bot("greedy", seed=SEED), rng, [])
    dut._log.info(f"then a game as {'white' if me == 0 else 'black'}: {result} in "
                  f"{len(position.moves)} moves")
    _write(report | {"game": result, "moves": len(position.moves)})


def _write(report):
    """The figures, as JSON, to the file ``NOISE_REPORT`` names, if it is set."""
    if os.environ.get("NOISE_REPORT"):
        with open(os.environ["NOISE_REPORT"], "w") as f:
            json.dump(report, f)
