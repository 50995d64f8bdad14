"""The Settings screen's language row says the language in effect: with ``--lang`` it names
that language (not "Automatic (English)") until the player picks one (issue 15, item 10)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from guihelp import make_app, start

from briscola.gui.app import App
from briscola.gui.scenes import settings as settings_scene
from briscola.gui.scenes.settings import COMMAND_LINE, SettingsScene
from briscola.text import i18n


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(i18n, "system_language", lambda: "en")
    monkeypatch.setattr(settings_scene, "system_language", lambda: "en")
    yield tmp_path / "home"
    i18n.set_language("en")


def settings_with(lang: str | None) -> tuple[App, SettingsScene]:
    app = make_app((1024, 600), lang=lang)
    scene = SettingsScene(app)
    start(app, scene)
    return app, scene


@pytest.mark.parametrize(
    ("lang", "shown"),
    [
        ("de", "Deutsch (per --lang)"),
        ("it", "Italiano (da --lang)"),
        ("es", "Español (por --lang)"),
        ("en", "English (--lang)"),
    ],
)
def test_the_language_row_names_the_language_lang_set(lang: str, shown: str) -> None:
    app, scene = settings_with(lang)
    assert app.settings.language == ""  # the stored setting is still Automatic
    assert i18n.current_language() == lang
    assert scene.language.value == COMMAND_LINE
    assert scene.language.shown() == shown
    app.close()


def test_without_lang_the_row_shows_the_setting() -> None:
    app, scene = settings_with(None)
    assert scene.language.value == ""
    assert scene.language.shown() == "Automatic (English)"
    assert all(value != COMMAND_LINE for value, _label in scene.language.options)
    app.close()


def test_picking_a_language_ends_lang_and_the_row_follows() -> None:
    app, scene = settings_with("de")
    scene.language.step(1)  # from "Deutsch (per --lang)" to Automatic
    assert app.language_override is None
    assert app.settings.language == ""
    assert i18n.current_language() == "en"  # what Automatic means here
    assert scene.language.shown() == "Automatic (English)"
    assert all(value != COMMAND_LINE for value, _label in scene.language.options)
    scene.language.step(1)
    assert app.settings.language == "en" and scene.language.shown() == "English"
    app.close()


def test_other_settings_leave_lang_and_its_row_alone() -> None:
    app, scene = settings_with("it")
    scene.sound.step(1)
    assert i18n.current_language() == "it"
    assert scene.language.shown() == "Italiano (da --lang)"
    app.close()
