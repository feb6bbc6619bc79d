"""Mutation testing (``make mutate``): ``python tests/mutate.py [--jobs J] [PACKAGE ...]``.

A test suite is only as good as the bugs it catches. mutmut (PyPI, 3.x) makes *mutants*: copies
of the code with one small change each (a comparison flipped, a constant moved by one, an
``and`` made ``or``, a returned value replaced, a keyword argument dropped...), and runs the
tests that cover the changed function against each. A mutant that makes a test fail is
*killed*; one that no test notices *survived*, and marks a place where a real bug could hide.

Packages (``PACKAGES``): the rules engine, the referee and match code, and the search model,
each with the fast tests that may notice a change in it. The score of a package is the share
of its mutants killed (a mutant that makes the tests hang past mutmut's time limit counts as
killed: the suite notices); mutants that no test even runs count against it.

mutmut assumes a package lives in a folder of its name; here ``host/`` is ``fpgatrax.host`` (a
setuptools package-dir mapping). So each package runs in a staged copy,
``build/mutate/NAME/``: ``fpgatrax/{host,hw,sim,boards}`` and ``tests/`` copied from the
checkout, and a ``pyproject.toml`` with the package's mutmut settings. The checkout itself is
never changed, so a run that is killed leaves nothing behind but the staged copy, and a
second run starts afresh. ``--sample N`` tests a seeded random sample of N mutants per package
(all are made, and the tests' coverage measured, first) and gives the score with its 95 %
interval (Wilson), in a fraction of the time. Prints a table of scores, with how many
survivors change nothing but the text inside a string (a message's wording), and writes each
package's surviving mutants, as diffs, to ``build/mutate/NAME/survivors.txt``.
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from fpgatrax.host.bench.strength import wilson_interval

ROOT = Path(__file__).resolve().parent.parent
STAGE = ROOT / "build" / "mutate"
FOLDERS = ("host", "hw", "sim", "boards")
FAST = "not verilator and not nextpnr and not formal and not slow"
# mutmut stops a mutant's tests after (their measured time + 1 s) times this, doubled, of CPU
# time (not wall time, so a loaded machine does not make time-outs): 15 by default, which makes
# each mutant that loops forever (in the referee's relay, say) cost half an hour.
TIMEOUT_MULTIPLIER = 4

# name: (the folder mutmut copies, the files in it to mutate, the tests that may notice, tests
# left out). Every mutant that survives runs all the tests covering its function, so the
# slowest tests are left out where others cover the same ground: the oracle's random 8x8 games
# (a third of the rules' test time; the standard and loop games and the variant tests stay),
# and the search against plain minimax at depth 2 (two fifths of the search's; depth 1 stays,
# and the trial and choice checks at depth 2).
PACKAGES = {
    "rules": ("fpgatrax/host/rules", ["fpgatrax/host/rules/*"],
              ["tests/host/rules", "tests/host/cli/test_records_cli.py", "tests/host/pictures",
               "tests/host/match/test_referee.py"],
              ["tests/host/rules/test_engine_differential.py::"
               "test_random_games_match_the_oracle[8x8]"]),
    "match": ("fpgatrax/host/match", ["fpgatrax/host/match/*"],
              ["tests/host/match", "tests/host/cli/test_cli.py",
               "tests/host/link/test_transport.py"], []),
    "search": ("fpgatrax/hw", ["fpgatrax/hw/search_model.py"],
               ["tests/hw/test_search_model.py", "tests/hw/test_search_values.py",
                "tests/hw/test_lanes_model.py", "tests/hw/test_player_model.py"],
               [f"tests/hw/test_search_model.py::test_pruned_search_chooses_as_plain_minimax"
                f"[2-10-{evasions}]" for evasions in (True, False)]),
}


def _toml_list(items):
    return "[" + ", ".join(json.dumps(str(item)) for item in items) + "]"


def stage(name):
    """A fresh staged copy for package ``name``; returns its folder."""
    folder = STAGE / name
    shutil.rmtree(folder, ignore_errors=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in FOLDERS:
        shutil.copytree(ROOT / package, folder / "fpgatrax" / package, ignore=ignore)
    shutil.copytree(ROOT / "tests", folder / "tests", ignore=ignore)
    source, only, tests, left_out = PACKAGES[name]
    deselect = [arg for test in left_out for arg in ("--deselect", test)]
    (folder / "pyproject.toml").write_text(f"""\
[tool.mutmut]
source_paths = {_toml_list([source])}
only_mutate = {_toml_list(only)}
also_copy = ["fpgatrax"]
timeout_multiplier = {TIMEOUT_MULTIPLIER}
pytest_add_cli_args = {_toml_list(["-p", "no:xdist", "-p", "no:cacheprovider", "-m", FAST,
                                    *deselect])}
pytest_add_cli_args_test_selection = {_toml_list(tests)}

[tool.pytest.ini_options]
testpaths = ["tests"]
markers = ["verilator", "nextpnr", "formal", "slow", "xdist_group(name)"]
filterwarnings = ["error"]
""")
    return folder


_STRING = re.compile(r"""(?:[rbf]*)("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')""")


def changes_only_text(diff):
    """Whether a mutant's diff (``mutmut show``) changes nothing but the text inside string
    literals: a message's wording, not what the code does."""
    removed = [line[1:] for line in diff.splitlines()
               if line.startswith("-") and not line.startswith("---")]
    added = [line[1:] for line in diff.splitlines()
             if line.startswith("+") and not line.startswith("+++")]
    return (bool(removed) and len(removed) == len(added)
            and [_STRING.sub('""', line) for line in removed]
            == [_STRING.sub('""', line) for line in added])


def statuses(mutmut, folder):
    """Every mutant of the staged package and what became of it (killed, survived, no tests,
    timeout, suspicious, skipped, not checked...), from ``mutmut results --all true``."""
    listing = subprocess.run([mutmut, "results", "--all", "true"], cwd=folder,
                             capture_output=True, text=True, check=False).stdout
    return dict(line.strip().rsplit(": ", 1) for line in listing.splitlines() if ": " in line)


def run(name, jobs, sample=None, seed=2015, log=print):
    """Run mutmut on package ``name``, on all its mutants or on a random ``sample`` of them;
    returns its figures."""
    folder = stage(name)
    mutmut = str(Path(sys.executable).parent / "mutmut")
    started = time.monotonic()
    log(f"{name}: mutmut in {folder} (its output in mutmut.log there)")
    with open(folder / "mutmut.log", "w") as out:
        chosen = []
        if sample is not None:
            # Mutants and the tests' coverage are made first (a name that matches no mutant
            # stops mutmut right after), then the sample is drawn from their names.
            subprocess.run([mutmut, "run", "--max-children", str(jobs), "no mutant is named so"],
                           cwd=folder, stdout=out, stderr=subprocess.STDOUT, check=False)
            names = sorted(statuses(mutmut, folder))
            chosen = random.Random(seed).sample(names, min(sample, len(names)))
        subprocess.run([mutmut, "run", "--max-children", str(jobs), *chosen], cwd=folder,
                       stdout=out, stderr=subprocess.STDOUT, check=False)
    found = statuses(mutmut, folder)
    if not found:
        raise RuntimeError(f"{name}: mutmut made no mutants; see {folder / 'mutmut.log'}")
    counted = {key: status for key, status in found.items()
               if (not chosen or key in chosen) and status != "skipped"}
    tally = Counter(counted.values())
    diffs = {key: subprocess.run([mutmut, "show", key], cwd=folder, capture_output=True,
                                 text=True, check=False).stdout
             for key, status in counted.items() if status == "survived"}
    (folder / "survivors.txt").write_text("".join(diffs.values()))
    detected = tally["killed"] + tally["timeout"]
    return {"package": name, "mutants": len(found), "tested": len(counted),
            "killed": tally["killed"], "timeout": tally["timeout"],
            "survived": tally["survived"], "no_tests": tally["no tests"],
            "other": len(counted) - detected - tally["survived"] - tally["no tests"],
            "text_only": sum(map(changes_only_text, diffs.values())),
            "score": detected / len(counted) if counted else 0.0,
            "interval": wilson_interval(detected, len(counted)),
            "seconds": round(time.monotonic() - started)}


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python tests/mutate.py",
        description="Mutation testing with mutmut, package by package, in staged copies under "
                    "build/mutate/ (the checkout is never changed); prints each package's "
                    "score, the share of its mutants that the tests notice.")
    parser.add_argument("packages", nargs="*", default=list(PACKAGES), metavar="PACKAGE",
                        help=f"the packages ({', '.join(PACKAGES)}; default: all)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="J",
                        help="mutants tested at once (default: one per CPU)")
    parser.add_argument("--sample", type=int, metavar="N",
                        help="test a random sample of N mutants per package (seeded): a score "
                             "with its 95 %% interval in a fraction of the time (default: all)")
    parser.add_argument("--seed", type=int, default=2015, metavar="S",
                        help="the sample's seed (default 2015)")
    args = parser.parse_args(argv)
    unknown = [p for p in args.packages if p not in PACKAGES]
    if unknown or args.jobs < 1 or (args.sample is not None and args.sample < 1):
        parser.error(f"unknown package {', '.join(unknown)}; the packages are "
                     f"{', '.join(PACKAGES)}" if unknown else
                     "--jobs and --sample must be at least 1")
    rows = []
    for name in args.packages:
        try:
            rows.append(run(name, args.jobs, args.sample, args.seed))
        except RuntimeError as err:
            print(f"error: {err}", file=sys.stderr)
            return 1
    print(f"{'package':8} {'mutants':>8} {'tested':>7} {'killed':>7} {'timeout':>8} "
          f"{'survived':>9} {'(text)':>7} {'no tests':>9} {'other':>6} {'score':>7} "
          f"{'(95 % interval)':>16} {'seconds':>8}")
    for r in rows:
        low, high = r["interval"]
        print(f"{r['package']:8} {r['mutants']:>8} {r['tested']:>7} {r['killed']:>7} "
              f"{r['timeout']:>8} {r['survived']:>9} {r['text_only']:>7} {r['no_tests']:>9} "
              f"{r['other']:>6} {r['score']:>7.1%} {f'({low:.0%} to {high:.0%})':>16} "
              f"{r['seconds']:>8}")
    print("(text): survivors that change only the text inside a string, a message's wording; "
          "other: suspicious, segfaults, not checked")
    print(f"survivors: {STAGE}/PACKAGE/survivors.txt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
