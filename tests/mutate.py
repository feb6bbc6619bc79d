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
second run starts afresh. Prints a table of scores, with how many survivors change nothing
but the text inside a string (a message's wording), and writes each package's surviving
mutants, as diffs, to ``build/mutate/NAME/survivors.txt``.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STAGE = ROOT / "build" / "mutate"
FOLDERS = ("host", "hw", "sim", "boards")
FAST = "not verilator and not nextpnr and not formal and not slow"

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
              ["tests/host/match", "tests/host/cli/test_cli.py"], []),
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


def run(name, jobs, log=print):
    """Run mutmut on package ``name``; returns its figures."""
    folder = stage(name)
    mutmut = str(Path(sys.executable).parent / "mutmut")
    started = time.monotonic()
    log(f"{name}: mutmut in {folder} (its output in mutmut.log there)")
    with open(folder / "mutmut.log", "w") as out:
        subprocess.run([mutmut, "run", "--max-children", str(jobs)], cwd=folder, stdout=out,
                       stderr=subprocess.STDOUT, check=False)
        subprocess.run([mutmut, "export-cicd-stats"], cwd=folder, stdout=out,
                       stderr=subprocess.STDOUT, check=False)
    stats_file = folder / "mutants" / "mutmut-cicd-stats.json"
    if not stats_file.exists():
        raise RuntimeError(f"{name}: mutmut wrote no figures; see {folder / 'mutmut.log'}")
    stats = json.loads(stats_file.read_text())
    listing = subprocess.run([mutmut, "results"], cwd=folder, capture_output=True, text=True,
                             check=False).stdout
    survivors = [line.split(":")[0].strip() for line in listing.splitlines()
                 if line.strip().endswith(": survived")]
    diffs = {name: subprocess.run([mutmut, "show", name], cwd=folder, capture_output=True,
                                  text=True, check=False).stdout for name in survivors}
    (folder / "survivors.txt").write_text("".join(diffs.values()))
    detected = stats["killed"] + stats["timeout"]
    counted = stats["total"] - stats["skipped"]
    return {"package": name, "mutants": counted, "killed": stats["killed"],
            "timeout": stats["timeout"], "survived": stats["survived"],
            "no_tests": stats["no_tests"], "suspicious": stats["suspicious"],
            "text_only": sum(map(changes_only_text, diffs.values())),
            "score": detected / counted if counted else 0.0,
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
    args = parser.parse_args(argv)
    unknown = [p for p in args.packages if p not in PACKAGES]
    if unknown or args.jobs < 1:
        parser.error(f"unknown package {', '.join(unknown)}; the packages are "
                     f"{', '.join(PACKAGES)}" if unknown else "--jobs must be at least 1")
    rows = []
    for name in args.packages:
        try:
            rows.append(run(name, args.jobs))
        except RuntimeError as err:
            print(f"error: {err}", file=sys.stderr)
            return 1
    print(f"{'package':8} {'mutants':>8} {'killed':>7} {'timeout':>8} {'survived':>9} "
          f"{'(text)':>7} {'no tests':>9} {'suspicious':>11} {'score':>7} {'seconds':>8}")
    for r in rows:
        print(f"{r['package']:8} {r['mutants']:>8} {r['killed']:>7} {r['timeout']:>8} "
              f"{r['survived']:>9} {r['text_only']:>7} {r['no_tests']:>9} "
              f"{r['suspicious']:>11} {r['score']:>7.1%} {r['seconds']:>8}")
    print("(text): survivors that change only the text inside a string, a message's wording")
    print(f"survivors: {STAGE}/PACKAGE/survivors.txt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
