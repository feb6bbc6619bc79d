"""The gateware notation decoder and encoder against the reference notation
(``fpgatrax.host.rules.notation``), on every small move and on many generated texts."""

import random

import pytest
from stream_testbench import get, idle, put, run

from fpgatrax.host.rules.columns import column_name
from fpgatrax.host.rules.notation import NotationError, parse_text
from fpgatrax.hw.notation import MoveLayout, NotationDecoder, NotationEncoder, Symbol

SYMBOLS = "+/\\"

# (col_bits, row_bits): the default, and a narrow one whose limits are easy to reach.
WIDTHS = [(10, 10), (5, 4)]


def expected_decode(text, col_bits, row_bits):
    """What the decoder must say about ``text``: the reference's (col, row, symbol) or None for
    an error; numbers too wide for the decoder are errors too."""
    try:
        col, row, symbol = parse_text(text)
    except NotationError:
        return None
    if col >= 1 << col_bits or row >= 1 << row_bits:
        return None
    return col, row, SYMBOLS.index(symbol)


def mutations(text, rng):
    """``text`` with one character deleted, inserted, replaced or duplicated."""
    alphabet = "@AZ[a09+/\\-\r x"
    i = rng.randrange(len(text) + 1)
    c = rng.choice(alphabet)
    return rng.choice([
        text[:i] + c + text[i:],
        text[:i] + c + text[i + 1:],
        text[:i] + text[i + 1:],
        text[:i] + text[i:i + 1] + text[i:],
    ])


def decoder_texts(col_bits, row_bits, rng):
    """Every move with small coordinates, the extremes of both widths, random large moves, their
    mutations, leading zeros, '@' among letters, and random garbage."""
    cols = list(range(30)) + [51, 52, 53, 675, 676, 677, 701, 702, 703, 704]
    cols += [(1 << col_bits) + d for d in (-2, -1, 0, 1)] + [rng.randrange(1 << col_bits + 1)
                                                              for _ in range(20)]
    rows = list(range(12)) + [99, 100, (1 << row_bits) - 1, 1 << row_bits]
    rows += [rng.randrange(1 << row_bits + 1) for _ in range(10)]
    moves = [f"{column_name(c)}{r}{s}" for c in cols for r in rows for s in SYMBOLS
             if c < 30 and r < 12 or rng.random() < 0.1]
    texts = moves + [mutations(rng.choice(moves), rng) for _ in range(500)]
    texts += ["", "@", "A", "A1", "@0", "0+", "+", "A01+", "A00+", "@00/", "B007\\", "A@1+",
              "@A1+", "@@0+", "A1++", "a1+", "A1-", "-W", "-T", "AAAAAAAAAAAAA1+", "A1+\r"]
    garbage = "@AZ[`az0189:+/\\-\r \x00\xff\xc1"
    texts += ["".join(rng.choice(garbage) for _ in range(rng.randrange(1, 8)))
              for _ in range(300)]
    return texts


@pytest.mark.parametrize("col_bits,row_bits", WIDTHS)
def test_decoder_agrees_with_reference(col_bits, row_bits):
    rng = random.Random(f"decoder {col_bits} {row_bits}")
    texts = decoder_texts(col_bits, row_bits, rng)
    dut = NotationDecoder(col_bits=col_bits, row_bits=row_bits)
    results = []

    async def writer(ctx):
        for text in texts:
            for byte in (text + "\n").encode("latin-1"):
                await put(ctx, dut.chars, byte)

    async def reader(ctx):
        for _ in texts:
            # A slow reader now and then: the decoder must hold its result and wait.
            await idle(ctx, rng.choice([1, 1, 1, 5]))
            result = await get(ctx, dut.move)
            if result.error:
                results.append(None)
            else:
                move = result.move
                results.append((move.col, move.row, Symbol(move.symbol).value))

    run(dut, writer, reader)
    assert len(results) == len(texts)
    for text, got in zip(texts, results, strict=True):
        assert got == expected_decode(text, col_bits, row_bits), repr(text)
    # The texts must exercise both answers, or this test could not fail.
    assert sum(r is None for r in results) > 300
    assert sum(r is not None for r in results) > 1000


def encoder_moves(col_bits, row_bits, rng):
    small = [(c, r, s) for c in range(min(60, 1 << col_bits))
             for r in range(min(12, 1 << row_bits)) for s in range(3) if (c + r + s) % 3 == 0]
    extremes = [(c, r, rng.randrange(3)) for c in (0, 1, 26, 27, 702, 703, (1 << col_bits) - 1)
                for r in (0, 9, 10, 99, 100, (1 << row_bits) - 1)
                if c < 1 << col_bits and r < 1 << row_bits]
    randoms = [(rng.randrange(1 << col_bits), rng.randrange(1 << row_bits), rng.randrange(3))
               for _ in range(100)]
    return small + extremes + randoms


@pytest.mark.parametrize("col_bits,row_bits", WIDTHS)
def test_encoder_agrees_with_reference(col_bits, row_bits):
    rng = random.Random(f"encoder {col_bits} {row_bits}")
    moves = encoder_moves(col_bits, row_bits, rng)
    dut = NotationEncoder(col_bits=col_bits, row_bits=row_bits)
    layout = MoveLayout(col_bits, row_bits)
    lines = []

    async def writer(ctx):
        for col, row, symbol in moves:
            await put(ctx, dut.move, layout.const({"col": col, "row": row,
                                                   "symbol": Symbol(symbol)}))

    async def reader(ctx):
        for _ in moves:
            line = bytearray()
            while not line.endswith(b"\n"):
                # Back-pressure now and then: the encoder must hold each character.
                if rng.random() < 0.2:
                    await idle(ctx, rng.randrange(1, 4))
                line.append(await get(ctx, dut.chars))
            lines.append(line.decode("ascii"))

    run(dut, writer, reader)
    assert lines == [f"{column_name(c)}{r}{SYMBOLS[s]}\n" for c, r, s in moves]
