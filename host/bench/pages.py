"""Measured figures written into the documentation pages, between a pair of markers.

A page (``docs/measurements.md``) holds each regenerated block between two HTML comments, which
Markdown does not show::

    <!-- generated: boards -->
    ...whatever the last run wrote...
    <!-- end generated: boards -->

``write_generated(path, "boards", text)`` replaces what lies between the pair called ``boards``
and nothing else: every byte outside the markers, the markers themselves included, stays as it
was. A page without the pair, or with it twice, or with the end before the start, is a
``UserError`` that says what to add, and the page is left untouched. ``check_page`` asks the same
question before a long benchmark starts, so that a wrong path fails at once, not after minutes.
"""

import os
import tempfile
from pathlib import Path

from fpgatrax.host.rules.errors import UserError

__all__ = ["start_marker", "end_marker", "replace_generated", "check_page", "write_generated"]


def start_marker(name):
    return f"<!-- generated: {name} -->"


def end_marker(name):
    return f"<!-- end generated: {name} -->"


def _span(page, name, where):
    """The (start, end) offsets of the text between the pair of markers called ``name``."""
    start, end = start_marker(name), end_marker(name)
    for marker in (start, end):
        count = page.count(marker)
        if count != 1:
            found = "has no" if count == 0 else f"has {count} copies of"
            raise UserError(f"{where} {found} {marker!r}: a page takes the pair {start!r} ... "
                            f"{end!r} once, around the text to regenerate")
    begin, finish = page.index(start) + len(start), page.index(end)
    if finish < begin:
        raise UserError(f"{where}: {end!r} comes before {start!r}")
    return begin, finish


def replace_generated(page, name, text, where="the page"):
    """``page`` with the text between the markers called ``name`` replaced by ``text`` (on lines
    of its own); raises UserError, naming ``where``, when the markers are not there once each."""
    begin, finish = _span(page, name, where)
    return page[:begin] + "\n" + text.strip("\n") + "\n" + page[finish:]


def _read(path):
    try:
        with open(path, encoding="utf-8", newline="") as page:    # line ends kept as they are
            return page.read()
    except FileNotFoundError:
        raise UserError(f"{path}: no such file (--write names an existing page with "
                        f"markers)") from None
    except OSError as err:
        raise UserError(f"cannot read {path}: {err.strerror}") from None
    except UnicodeDecodeError:
        raise UserError(f"{path}: not a UTF-8 text file") from None


def check_page(path, name):
    """Raise UserError unless ``path`` can take the block called ``name``."""
    _span(_read(path), name, str(path))


def write_generated(path, name, text):
    """Replace the block called ``name`` in the page at ``path`` with ``text``. The page is
    replaced whole (a temporary file renamed over it), so an error never leaves half a page."""
    page = replace_generated(_read(path), name, text, str(path))
    path = Path(path)
    new = None
    try:
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", newline="", dir=path.parent,
                                         prefix=f".{path.name}.", delete=False) as new:
            new.write(page)
        os.chmod(new.name, os.stat(path).st_mode & 0o7777)
        os.replace(new.name, path)
    except OSError as err:
        if new is not None and os.path.exists(new.name):
            os.unlink(new.name)
        raise UserError(f"cannot write {path}: {err.strerror}") from None
