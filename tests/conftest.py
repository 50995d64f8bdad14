"""Fixtures the GUI and asset test files share, asked for by name (none is autouse here, so
engine tests load no pygame): ``gui_home`` and ``pygame_running`` (a file makes one its own
with ``pytestmark = pytest.mark.usefixtures(...)``) and ``app``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from briscola.gui.app import App


@pytest.fixture
def gui_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Own settings, statistics and records folder, in English, with no autosave pending;
    English again afterwards."""
    from briscola.gui import autosave, i18n

    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path))
    monkeypatch.setenv("LANGUAGE", "en")
    autosave.clear()
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
        pygame.quit()
