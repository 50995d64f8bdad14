"""Settings labels keep their full size in every language: a long label must not be squeezed
into a smaller font than its neighbours (issue 23, item 10)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest
from guihelp import make_app, start

from briscola.gui.scenes.menu import MenuScene
from briscola.gui.scenes.settings import SettingsScene
from briscola.gui.widgets import Choice, fit_text
from briscola.text.i18n import set_language

pytestmark = pytest.mark.usefixtures("gui_home")


@pytest.mark.parametrize("size", [(1024, 600), (1920, 1080)])
@pytest.mark.parametrize("language", ["en", "it", "es", "de"])
def test_no_settings_label_is_drawn_smaller_than_its_nominal_size(
    size: tuple[int, int], language: str
) -> None:
    app = make_app(size)
    try:
        app.settings.language = language
        set_language(language)
        start(app, MenuScene(app))
        scene = SettingsScene(app)
        app.push(scene)
        app.apply_requests()
        app.step(1 / 60)
        squeezed = []
        for value in vars(scene).values():
            widgets = getattr(value, "widgets", [])
            for widget in widgets:
                if isinstance(widget, Choice) and widget.visible and widget.show_label:
                    nominal = int(widget.rect.height * 0.46)
                    label = widget.label()
                    width = widget.label_box().width
                    if fit_text(app.assets, label, nominal, width, False) < nominal:
                        squeezed.append(label)
        assert not squeezed, f"{language} {size}: squeezed {squeezed}"
    finally:
        set_language("en")
        app.close()
