"""The one frozen (PyInstaller) build the suite makes, shared by tests/e2e/test_frozen.py and
tests/project/test_release.py through the session fixtures ``source_copy`` and ``onedir`` of
tests/conftest.py: the game is built once per test run.

The build is made from a copy of the source tree (to prove nothing depends on the checkout's
location) with an extra translation catalog (to prove build.spec bundles them).
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

import pytest

from tools import frozen_check

REPO = Path(__file__).resolve().parent.parent

#: A translation catalog the source tree does not have, added to the copy that is built, to
#: check that build.spec bundles ``briscola/locale/**/*.mo`` where the game looks for them.
EXTRA_MO = Path("briscola/locale/zz/LC_MESSAGES/briscola.mo")


def empty_mo() -> bytes:
    """A valid GNU gettext catalog with no messages."""
    return struct.pack("<7I", 0x950412DE, 0, 0, 28, 28, 0, 28)


def in_ci() -> bool:
    return bool(os.environ.get("CI"))


def require(available: bool, what: str) -> None:
    """Skip the test when ``what`` is missing, except under CI (``CI`` set), where the test
    set of tools/system-packages.sh and requirements-dev.txt install everything: a failure."""
    if available:
        return
    if in_ci():
        pytest.fail(f"{what} (CI installs it: tools/system-packages.sh test, requirements-dev.txt)")
    pytest.skip(what)


def make_source_copy(dest: Path) -> Path:
    src = frozen_check.copy_source(dest, REPO)
    mo = src / EXTRA_MO
    mo.parent.mkdir(parents=True, exist_ok=True)
    mo.write_bytes(empty_mo())
    return src
