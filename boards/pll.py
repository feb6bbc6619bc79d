"""The player's clock: the board's oscillator multiplied by the FPGA's PLL.

The oscillators (12 MHz on the iCE40 boards, 25 MHz on the ECP5 ones) run the player at a
fraction of what its builds reach, and the search's trial budget, hence its strength, grows with
the clock. So every board runs its player from a PLL: :func:`ecp5_pll` and :func:`ice40_pll`
find the dividers that come closest to the clock a board asks for, within the limits of Lattice's
data sheets (the same search as Project Trellis's ``ecppll`` and IceStorm's ``icepll``, which
ship with the YoWASP tools and against which the tests check these), and :class:`PLLClock` puts
the PLL between the oscillator's pin and the ``sync`` domain.

The domain stays in reset until the PLL reports lock (its output is only steady then), through
two flip-flops since the lock comes from another clock. Amaranth's own clock set-up also waits
15 µs after configuration, because an iCE40's block RAM reads zeroes for about 3 µs then; the
player keeps no state in block RAM, so it needs no such wait (a design that does must add it,
and the UP5K has no room for a counter it does not need).
"""

import dataclasses
from fractions import Fraction

from amaranth.hdl import ClockSignal, Elaboratable, Instance, Module, ResetSignal, Signal
from amaranth.lib import io
from amaranth.lib.cdc import FFSynchronizer

__all__ = ["PLLSetting", "PLLError", "ecp5_pll", "ice40_pll", "PLLClock"]

MHZ = 1_000_000


class PLLError(ValueError):
    """A clock that no setting of the PLL can make from the oscillator."""


@dataclasses.dataclass(frozen=True)
class PLLSetting:
    """The dividers of one PLL (``params``, named as the primitive's parameters), the
    oscillator's clock (``input``) and the clock they make (``frequency``), in Hz (exact:
    fractions)."""
    primitive: str
    params: dict
    input: Fraction
    frequency: Fraction

    @property
    def hz(self):
        """The clock as a whole number of Hz (rounded down), what the UART's divisor uses."""
        return int(self.frequency)


def _closest(candidates, target):
    """The first candidate (frequency, params) closest to ``target``, or None."""
    best = None
    for frequency, params in candidates:
        if best is None or abs(frequency - target) < abs(best[0] - target):
            best = frequency, params
    return best


def ecp5_pll(f_in, f_out):
    """The ECP5 ``EHXPLLL`` setting, primary output fed back (``FEEDBK_PATH="CLKOP"``), whose
    clock comes closest to ``f_out`` Hz from an ``f_in`` Hz oscillator. Limits (Lattice's
    TN1263): input 8–400 MHz, phase detector 3.125–400 MHz, VCO 400–800 MHz, output
    3.125–400 MHz."""
    f_in, target = Fraction(f_in), Fraction(f_out)
    if not 8 * MHZ <= f_in <= 400 * MHZ:
        raise PLLError(f"an ECP5 PLL takes 8 to 400 MHz, not {float(f_in) / MHZ:g} MHz")

    def candidates():
        for clki_div in range(1, 129):
            pfd = f_in / clki_div
            if pfd < Fraction(3125, 1000) * MHZ:
                break
            for clkfb_div in range(1, 81):
                frequency = pfd * clkfb_div
                if not Fraction(3125, 1000) * MHZ <= frequency <= 400 * MHZ:
                    continue
                # The output divider that puts the VCO nearest the middle of its range (the
                # faster VCO of two as near).
                vcos = [(abs(frequency * div - 600 * MHZ), -div) for div in range(1, 129)
                        if 400 * MHZ <= frequency * div <= 800 * MHZ]
                if vcos:
                    clkop_div = -min(vcos)[1]
                    yield frequency, {"CLKI_DIV": clki_div, "CLKFB_DIV": clkfb_div,
                                      "CLKOP_DIV": clkop_div,
                                      # The output's phase does not matter to one clock
                                      # domain: Lattice's own zero-phase value.
                                      "CLKOP_CPHASE": clkop_div - 1}

    found = _closest(candidates(), target)
    if found is None:
        raise PLLError(f"no ECP5 PLL setting makes {float(target) / MHZ:g} MHz")
    return PLLSetting("EHXPLLL", found[1], f_in, found[0])


def ice40_pll(f_in, f_out, pad=False):
    """The iCE40 ``SB_PLL40_CORE`` setting (``SB_PLL40_PAD`` with ``pad``: when the oscillator's
    pin is the PLL's own input pad, which then feeds nothing else), ``SIMPLE`` feedback, whose
    clock comes closest to ``f_out`` Hz from an ``f_in`` Hz oscillator:
    ``f_in / (DIVR + 1) * (DIVF + 1) / 2**DIVQ``.
    Limits (Lattice's iCE40 sysCLOCK PLL guide): input 10–133 MHz, phase detector 10–133 MHz,
    VCO 533–1066 MHz, output 16–275 MHz; the loop filter's range follows from the phase
    detector's frequency."""
    f_in, target = Fraction(f_in), Fraction(f_out)
    if not 10 * MHZ <= f_in <= 133 * MHZ:
        raise PLLError(f"an iCE40 PLL takes 10 to 133 MHz, not {float(f_in) / MHZ:g} MHz")

    def candidates():
        for divr in range(16):
            pfd = f_in / (divr + 1)
            if not 10 * MHZ <= pfd <= 133 * MHZ:
                continue
            for divf in range(128):
                vco = pfd * (divf + 1)
                if not 533 * MHZ <= vco <= 1066 * MHZ:
                    continue
                for divq in range(1, 7):
                    frequency = vco / 2 ** divq
                    if 16 * MHZ <= frequency <= 275 * MHZ:
                        yield frequency, {"DIVR": divr, "DIVF": divf, "DIVQ": divq,
                                          "FILTER_RANGE": _filter_range(pfd)}

    found = _closest(candidates(), target)
    if found is None:
        raise PLLError(f"no iCE40 PLL setting makes {float(target) / MHZ:g} MHz")
    return PLLSetting("SB_PLL40_PAD" if pad else "SB_PLL40_CORE", found[1], f_in, found[0])


def _filter_range(pfd):
    """The iCE40 PLL's loop-filter setting for a phase detector at ``pfd`` Hz."""
    for setting, below in enumerate((17, 26, 44, 66, 101), start=1):
        if pfd < below * MHZ:
            return setting
    return 6


class PLLClock(Elaboratable):
    """Drives the clock and reset of the ``sync`` domain (which the design's top module
    defines): clocked by ``setting``'s PLL from the platform's default clock pin, reset until
    the PLL has locked."""

    def __init__(self, setting):
        self.setting = setting

    def elaborate(self, platform):
        m = Module()
        pin = platform.request(platform.default_clk, dir="-")
        if self.setting.primitive == "SB_PLL40_PAD":
            clock_in = pin.io       # the pad feeds the PLL directly, through no buffer
        else:
            m.submodules.clk_buf = clk_buf = io.Buffer("i", pin)
            clock_in = clk_buf.i
        clock, lock = Signal(), Signal()
        m.submodules.pll = self._pll(clock_in, clock, lock)
        # nextpnr derives the output's frequency constraint from the oscillator pin's and the
        # PLL's parameters ("Derived frequency constraint" in its log), so the player is timed
        # at the PLL's clock.
        m.d.comb += ClockSignal("sync").eq(clock)

        locked = Signal()
        m.submodules.lock_sync = FFSynchronizer(lock, locked, o_domain="sync")
        m.d.comb += ResetSignal("sync").eq(~locked)
        return m

    def _pll(self, clock_in, clock_out, lock):
        setting = self.setting
        params = {f"p_{name}": value for name, value in setting.params.items()}
        if setting.primitive == "EHXPLLL":
            return Instance(
                "EHXPLLL", p_FEEDBK_PATH="CLKOP", p_CLKOP_ENABLE="ENABLED", p_CLKOP_FPHASE=0,
                a_FREQUENCY_PIN_CLKI=f"{float(setting.input) / MHZ:g}",
                a_FREQUENCY_PIN_CLKOP=f"{float(setting.frequency) / MHZ:g}",
                # The loop filter's settings that Lattice's tools (and ecppll) give.
                a_ICP_CURRENT="12", a_LPF_RESISTOR="8", a_MFG_ENABLE_FILTEROPAMP="1",
                a_MFG_GMCREF_SEL="2",
                i_CLKI=clock_in, i_CLKFB=clock_out, o_CLKOP=clock_out, o_LOCK=lock,
                i_RST=0, i_STDBY=0, i_PHASESEL0=0, i_PHASESEL1=0, i_PHASEDIR=0, i_PHASESTEP=0,
                i_PHASELOADREG=0, i_PLLWAKESYNC=0, i_ENCLKOP=0, **params)
        clock_port = ("i_PACKAGEPIN" if setting.primitive == "SB_PLL40_PAD"
                      else "i_REFERENCECLK")
        return Instance(
            setting.primitive, p_FEEDBACK_PATH="SIMPLE", **{clock_port: clock_in},
            o_PLLOUTGLOBAL=clock_out, o_LOCK=lock, i_RESETB=1, i_BYPASS=0, **params)
