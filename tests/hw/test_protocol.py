# amaranth: UnusedElaboratable=no
# (the tests of refused parameters construct components whose __init__ raises; Amaranth would
# warn, at garbage collection, that those half-made objects were never elaborated)
"""The gateware protocol handler against a plain-Python model of ``docs/protocol.md`` that parses
moves with the reference notation, on random byte streams; its stream rules; and the whole path
from the receive pin to the transmit pin."""

import random

import pytest
from amaranth import Elaboratable, Module
from stream_testbench import get, idle, put, run
from test_notation import SYMBOLS, expected_decode
from test_uart import BAUD, Waveform, bytes_sent

from fpgatrax.host.rules.columns import column_name
from fpgatrax.hw.notation import MoveLayout, Symbol
from fpgatrax.hw.protocol import Colour, Protocol
from fpgatrax.hw.uart import UARTReceiver, UARTTransmitter

TEAM = "FT"


def model(data, max_line, col_bits=10, row_bits=10):
    """What the protocol must make of the received bytes ``data``: the list of events
    (``("new", colour)``, ``("move", (col, row, symbol))``, ``("team",)``) and the number of
    bad lines."""
    events, bad, line = [], 0, bytearray()
    for byte in data:
        if byte == 0x0d:
            continue
        if byte != 0x0a:
            line.append(byte)
            continue
        if not line:
            continue
        text, line = bytes(line), bytearray()
        move = expected_decode(text.decode("latin-1"), col_bits, row_bits)
        if len(text) > max_line:
            bad += 1
        elif text == b"-T":
            events.append(("team",))
        elif text in (b"-W", b"-B", b"-R"):
            events.append(("new", Colour.WHITE if text == b"-W" else Colour.RED))
        elif move is None:
            bad += 1
        else:
            events.append(("move", move))
    return events, bad


def random_move(rng):
    return f"{column_name(rng.choice([rng.randrange(30), rng.randrange(1100)]))}" \
           f"{rng.choice([rng.randrange(20), rng.randrange(1100)])}{rng.choice(SYMBOLS)}"


def random_stream(rng, lines=250):
    """Bytes a confused or hostile referee might send: moves, commands, CR LF and stray CRs,
    empty lines, truncated lines, overlong lines, near-commands and random garbage."""
    out = []
    for _ in range(lines):
        kind = rng.choice(["move"] * 6 + ["command"] * 3 + ["empty", "truncated", "overlong",
                                                            "near", "garbage"])
        if kind == "move":
            text = random_move(rng)
        elif kind == "command":
            text = rng.choice(["-W", "-B", "-R", "-T"])
        elif kind == "empty":
            text = ""
        elif kind == "truncated":          # no line end: it joins the next line
            out.append(random_move(rng)[:rng.randrange(1, 4)].encode())
            continue
        elif kind == "overlong":
            text = random_move(rng) + "+" * rng.randrange(1, 8)
            text = rng.choice([text, "A" * rng.randrange(4, 12) + "1+"])
        elif kind == "near":
            text = rng.choice(["-", "--", "-WW", "-w", "-X", "W", "-W ", " -T", "-TT", "-0"])
        else:
            out.append(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 10))))
            continue
        if text and rng.random() < 0.2:
            i = rng.randrange(len(text) + 1)
            text = text[:i] + "\r" + text[i:]
        out.append(text.encode("latin-1") + rng.choice([b"\n", b"\n", b"\r\n", b"\r\r\n"]))
    return b"".join(out)


def observe(dut, data, rng=None, gap=lambda: 0):
    """Feed ``data`` to the protocol; return the events it produced, in order, and its final
    bad-input count. Every event is taken as soon as it is offered."""
    events, result = [], {}

    async def writer(ctx):
        for byte in data:
            await idle(ctx, gap())
            await put(ctx, dut.rx, byte)
        await idle(ctx, 10)
        result["bad"] = ctx.get(dut.bad_input)

    async def monitor(ctx):
        ctx.set(dut.opponent_move.ready, 1)
        ctx.set(dut.tx.ready, 1)
        line = bytearray()
        while True:
            _, _, new, colour, move_valid, move, tx_valid, tx = await ctx.tick().sample(
                dut.new_game, dut.colour, dut.opponent_move.valid, dut.opponent_move.payload,
                dut.tx.valid, dut.tx.payload)
            if new:
                events.append(("new", colour))
            if move_valid:
                events.append(("move", (move.col, move.row, Symbol(move.symbol).value)))
            if tx_valid:
                if not line:
                    events.append(("team",))
                line.append(tx)
                if tx == 0x0a:
                    assert line == f"{TEAM}\n".encode()
                    line = bytearray()

    run(dut, writer, background=[monitor])
    return events, result["bad"]


@pytest.mark.parametrize("max_line,seed", [(8, 0), (8, 1), (5, 2)])
def test_random_streams_against_model(max_line, seed):
    rng = random.Random(f"protocol {max_line} {seed}")
    data = random_stream(rng)
    dut = Protocol(team=TEAM, max_line=max_line)
    events, bad = observe(dut, data, gap=lambda: rng.choice([0, 0, 0, 1, 3]))
    expected_events, expected_bad = model(data, max_line)
    assert events == expected_events
    assert bad == min(expected_bad, 255)
    # The stream must exercise every kind of event, or this test could not fail.
    kinds = {event[0] for event in expected_events}
    assert kinds == {"new", "move", "team"} and expected_bad > 20


def test_new_game_mid_game_and_moves_out_of_turn():
    """A move waits until the player takes it; another move meanwhile is bad input; a new game
    withdraws the waiting move."""
    dut = Protocol(team=TEAM)
    seen = {}

    async def testbench(ctx):
        async def send(text):
            for byte in text.encode():
                await put(ctx, dut.rx, byte)
            await idle(ctx, 3)

        await send("-W\nA1+\n")                 # nobody takes the move yet
        assert ctx.get(dut.colour) == Colour.WHITE
        await send("B2/\r\n")
        seen["bad after second move"] = ctx.get(dut.bad_input)
        seen["waiting"] = ctx.get(dut.opponent_move.payload)
        await send("-R\n")
        seen["colour"] = ctx.get(dut.colour)
        seen["withdrawn"] = not ctx.get(dut.opponent_move.valid)
        await send("C3\\\n")
        move = await get(ctx, dut.opponent_move)
        seen["after new game"] = (move.col, move.row, Symbol(move.symbol).value)

    run(dut, testbench)
    assert seen["bad after second move"] == 1
    waiting = seen["waiting"]
    assert (waiting.col, waiting.row, Symbol(waiting.symbol).value) == expected_decode(
        "A1+", 10, 10)
    assert seen["colour"] == Colour.RED and seen["withdrawn"]
    assert seen["after new game"] == expected_decode("C3\\", 10, 10)


def test_my_moves_and_team_answers_are_whole_lines():
    """The player's moves go out in order, each as its notation and LF; team answers slot in
    between lines, never inside one, whatever the transmitter's back-pressure."""
    rng = random.Random("send")
    moves = [(rng.randrange(800), rng.randrange(1000), rng.randrange(3)) for _ in range(40)]
    requests = 12
    dut = Protocol(team=TEAM)
    layout = MoveLayout()
    sent = bytearray()

    async def player(ctx):
        for col, row, symbol in moves:
            await idle(ctx, rng.randrange(40))
            await put(ctx, dut.my_move, layout.const(
                {"col": col, "row": row, "symbol": Symbol(symbol)}))
        await idle(ctx, 500)                # for the last line to go out

    async def referee(ctx):
        for _ in range(requests):
            await idle(ctx, rng.randrange(200))
            for byte in b"-T\n":
                await put(ctx, dut.rx, byte)

    async def transmitter(ctx):
        while True:
            await idle(ctx, rng.choice([0, 0, 2, 7]))
            sent.append(await get(ctx, dut.tx))

    run(dut, player, referee, background=[transmitter])
    lines = sent.decode("ascii").split("\n")
    assert lines[-1] == ""                  # every line ended
    move_lines = [line for line in lines[:-1] if line != TEAM]
    assert move_lines == [f"{column_name(c)}{r}{SYMBOLS[s]}" for c, r, s in moves]
    # Requests that arrive while an answer is still owed share that answer.
    assert 1 <= lines.count(TEAM) <= requests


@pytest.mark.parametrize("team,max_line,message", [
    ("F", 8, "two printable"), ("FTX", 8, "two printable"), ("F ", 8, "two printable"),
    ("FT", 2, "at least 3"), ("FT", "8", "at least 3"),
])
def test_refuses_bad_parameters(team, max_line, message):
    with pytest.raises(ValueError, match=message):
        Protocol(team=team, max_line=max_line)


class SerialProtocol(Elaboratable):
    """The protocol between a UART receiver and transmitter, as the player wires them."""

    def __init__(self, divisor):
        self.rx = UARTReceiver(clk_freq=divisor * BAUD, baud=BAUD)
        self.tx = UARTTransmitter(clk_freq=divisor * BAUD, baud=BAUD)
        self.protocol = Protocol(team=TEAM)

    def elaborate(self, platform):
        from amaranth.lib.wiring import connect
        m = Module()
        m.submodules.rx, m.submodules.tx = self.rx, self.tx
        m.submodules.protocol = self.protocol
        connect(m, self.rx.data, self.protocol.rx)
        connect(m, self.protocol.tx, self.tx.data)
        return m


def test_through_the_pins():
    """Lines in on the receive pin become events; the team code and a move come out on the
    transmit pin as whole LF-terminated lines."""
    divisor = 6
    dut = SerialProtocol(divisor)
    line = Waveform(divisor)
    line.hold(1, 2)
    for byte in b"-T\r\n-B\nAA10/\r\n":
        line.frame(byte)
    line.hold(1, 2)
    events, levels = [], []

    async def referee(ctx):
        ctx.set(dut.protocol.opponent_move.ready, 1)
        for level in line.levels:
            ctx.set(dut.rx.rx, level)
            _, _, new, colour, valid, move = await ctx.tick().sample(
                dut.protocol.new_game, dut.protocol.colour, dut.protocol.opponent_move.valid,
                dut.protocol.opponent_move.payload)
            if new:
                events.append(("new", colour))
            if valid:
                events.append(("move", (move.col, move.row, Symbol(move.symbol).value)))
        await put(ctx, dut.protocol.my_move, MoveLayout().const(
            {"col": 28, "row": 11, "symbol": Symbol.SLASH}))
        await idle(ctx, 12 * 10 * divisor)

    async def monitor(ctx):
        while True:
            _, _, level = await ctx.tick().sample(dut.tx.tx)
            levels.append(level)

    run(dut, referee, background=[monitor])
    assert events == [("new", Colour.RED), ("move", expected_decode("AA10/", 10, 10))]
    assert bytes(bytes_sent(levels, divisor)) == f"{TEAM}\n{column_name(28)}11/\n".encode()
