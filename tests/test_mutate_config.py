"""``make mutate``'s settings (``tests/mutate.py``): every package's code and tests exist under
the names the staged copy gives them, so a renamed folder cannot silently drop out of the
mutation run, and the staged settings are what mutmut reads."""

import importlib.util
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("mutate", ROOT / "tests" / "mutate.py")
mutate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mutate)


def _real(staged):
    """A staged path (``fpgatrax/host/rules``) as the checkout's (``host/rules``)."""
    return ROOT / staged.removeprefix("fpgatrax/")


def test_every_package_names_code_and_tests_that_exist():
    for source, only, tests, left_out in mutate.PACKAGES.values():
        assert _real(source).is_dir()
        for pattern in only:
            assert list(ROOT.glob(pattern.removeprefix("fpgatrax/"))), pattern
        for test in tests:
            assert (ROOT / test).exists(), test
        for test in left_out:
            assert (ROOT / test.split("::")[0]).exists(), test


def test_the_staged_copy_holds_the_package_and_its_settings(monkeypatch, tmp_path):
    monkeypatch.setattr(mutate, "STAGE", tmp_path)
    folder = mutate.stage("search")
    settings = tomllib.loads((folder / "pyproject.toml").read_text())["tool"]["mutmut"]
    assert settings["source_paths"] == ["fpgatrax/hw"]
    assert settings["only_mutate"] == ["fpgatrax/hw/search_model.py"]
    assert (folder / "fpgatrax/hw/search_model.py").read_text() == \
        (ROOT / "hw/search_model.py").read_text()
    assert (folder / "tests/hw/test_search_model.py").exists()
    assert not list(folder.rglob("__pycache__"))


def test_a_survivor_that_changes_only_a_message_is_told_apart():
    text = '--- a.py\n+++ a.py\n@@ -1 +1 @@\n-    raise E("the square is taken")\n' \
           '+    raise E("XXthe square is takenXX")\n'
    code = '--- a.py\n+++ a.py\n@@ -1 +1 @@\n-    if col > w + 2 or row > h:\n' \
           '+    if col > w + 2 and row > h:\n'
    string_swap = "-    return key, 'a'\n+    return None, 'b'\n"
    assert mutate.changes_only_text(text)
    assert not mutate.changes_only_text(code)
    assert not mutate.changes_only_text(string_swap)
