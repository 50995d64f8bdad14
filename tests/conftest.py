"""Fixtures the GUI and asset test files share, asked for by name (none is autouse here, so
engine tests load no pygame): ``gui_home`` and ``pygame_running`` (a file makes one its own
with ``pytestmark = pytest.mark.usefixtures(...)``) and ``app``; and the frozen build that
tests/e2e/test_frozen.py and tests/project/test_release.py share, ``source_copy`` and
``onedir`` (made once a session, tests/frozenhelp.py)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from briscola.gui.app import App
    from tools.frozen_check import Build


@pytest.fixture
def gui_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Own settings, statistics and records folder, in English, with no autosave pending;
    English again afterwards."""
    from briscola.storage.autosave import Autosave
    from briscola.text import i18n

    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path))
    monkeypatch.setenv("LANGUAGE", "en")
    Autosave().clear()
    yield tmp_path
    i18n.set_language("en")


@pytest.fixture
def app() -> Iterator[App]:
    """A turbo App in a 1280x720 window, closed after the test."""
    from guihelp import make_app

    made = make_app((1280, 720))
    yield made
    made.close()


@pytest.fixture(scope="module")
def pygame_running() -> Iterator[None]:
    """pygame initialised for the test file, shut down after it."""
    import pygame

    pygame.init()
    try:
        yield
    finally:
        gc.collect()  # the file's windows and surfaces go while SDL runs (pygame-ce 3601)
        pygame.quit()


@pytest.fixture(scope="session")
def source_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the source tree to freeze (tests/frozenhelp.py), for the whole session."""
    from frozenhelp import make_source_copy, require

    from tools import frozen_check

    require(frozen_check.pyinstaller_available(), "PyInstaller is not installed")
    return make_source_copy(tmp_path_factory.mktemp("frozen") / "src")


@pytest.fixture(scope="session")
def onedir(source_copy: Path) -> Build:
    """The onedir build of ``source_copy``: built once, for every test that needs it."""
    from tools import frozen_check

    out = source_copy.parent
    return frozen_check.build(out / "dist", out / "work", source=source_copy)
