"""Type-check the typed packages under their real names: ``python tests/typecheck.py [MYPY ARGS]``.

The repository's folders are installed with a setuptools package-dir mapping (``host/`` is
``fpgatrax.host`` and so on), which mypy cannot see through the editable install's import hook.
This script makes a tree of symlinks, ``build/typecheck/fpgatrax/{host,hw,sim,boards}``, pointing
at the real folders, where the ``[tool.mypy]`` settings of ``pyproject.toml`` (``mypy_path``,
``packages``) find the packages, then runs mypy from the repository's root with this Python and
passes its exit status on. Paths in mypy's messages are given as the real files'
(``host/rules/position.py``), not as the symlinks'.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREE = Path("build", "typecheck", "fpgatrax")
FOLDERS = ("host", "hw", "sim", "boards")


def make_tree() -> None:
    """Create or repair the symlinks (relative, so that the tree survives a moved checkout)."""
    tree = ROOT / TREE
    tree.mkdir(parents=True, exist_ok=True)
    for folder in FOLDERS:
        link, target = tree / folder, os.path.join(*[os.pardir] * len(TREE.parts), folder)
        if link.is_symlink() and os.readlink(link) == target:
            continue
        # Made beside and renamed over, so that two checks started at once cannot collide.
        temporary = tree / f".{folder}.{os.getpid()}"
        temporary.symlink_to(target, target_is_directory=True)
        os.replace(temporary, link)


def main(argv: list[str]) -> int:
    make_tree()
    mypy = subprocess.run([sys.executable, "-m", "mypy", *argv], cwd=ROOT,
                          stdout=subprocess.PIPE, text=True, check=False)
    prefix = f"{TREE.as_posix()}/"
    for line in mypy.stdout.splitlines():
        print(line.removeprefix(prefix))
    return mypy.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
