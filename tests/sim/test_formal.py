"""The gateware's proofs (``hw/*_proof.py``) through SymbiYosys, as ``make formal`` runs them.

The fast proofs run here, each to its verdict: a property must hold, and a control (a harness
with a known flaw) must fail, which shows that the proof's assumptions leave the runs that
would break the property possible. ``make formal`` runs the long ones too.
"""

import pytest

from fpgatrax.sim.formal import PROOFS, main, run_proof

FAST = [proof for proof in PROOFS if proof.fast]


def test_every_property_has_a_control_beside_it():
    """Each component's proofs include one that must fail."""
    components = {proof.name.split("-")[0] for proof in PROOFS}
    controls = {proof.name.split("-")[0] for proof in PROOFS if proof.expect == "fail"}
    assert components == controls


@pytest.mark.formal
@pytest.mark.parametrize("proof", FAST, ids=[proof.name for proof in FAST])
def test_proof_ends_as_expected(proof):
    outcome = run_proof(proof)
    assert outcome.status == proof.expect, (outcome.workdir / "sby.log").read_text()[-3000:]


def test_list_names_every_proof_and_its_kind(capsys):
    assert main(["--list"]) == 0
    out = capsys.readouterr().out
    for proof in PROOFS:
        line = next(line for line in out.splitlines() if line.startswith(proof.name + " "))
        assert ("unbounded" if proof.mode == "prove" else f"{proof.depth} clocks") in line
        assert ("must fail" in line) == (proof.expect == "fail")


def test_unknown_proof_is_a_clear_error(capsys):
    assert main(["no-such-proof"]) == 2
    err = capsys.readouterr().err
    assert "no proof called no-such-proof" in err and "cell" in err
