"""The App's notices: a long one (the table moved to another port, in German) is wrapped
inside the window at its smallest size, never drawn off its edges."""

from __future__ import annotations

from typing import Any

import pygame
import pytest
from guihelp import make_app
from layoutcheck import check_scene

from briscola.gui.scenes.menu import MenuScene
from briscola.gui.widgets.notices import NOTICE_WIDTH

pytestmark = pytest.mark.usefixtures("gui_home")

LONG = (
    "Port 8765 ist von einem anderen Programm belegt: Dein Tisch ist wieder auf Port 46049 "
    "offen, aber die Spiele deiner Freunde finden ihn dort nicht (er wird im Netzwerk nicht "
    "angekündigt), also übernehmen Computerspieler ihre Plätze."
)


@pytest.mark.parametrize("size", [(1024, 600), (1920, 1080)])
def test_a_long_notice_is_wrapped_inside_the_window(size: tuple[int, int]) -> None:
    app = make_app(size)
    try:
        app.reset_to(MenuScene(app))
        app.notify(LONG)
        app.notify("Saved.")
        app.step(1 / 60)
        assert check_scene(app) == []  # (the notices' text is checked with the scene's)
        texts: list[str] = []
        draw = app.assets.text

        def text(line: str, *args: Any, **kwargs: Any) -> pygame.Surface:
            texts.append(line)
            return draw(line, *args, **kwargs)

        app.assets.text = text  # type: ignore[method-assign]
        app._draw_notices(app.screen)
        assert len(texts) > 2 and " ".join(texts[:-1]) == LONG  # wrapped, whole
        width = app.assets.font(app.px(18)).size
        assert max(width(line)[0] for line in texts) <= app.px(NOTICE_WIDTH)
    finally:
        app.close()


def test_a_click_on_a_notice_puts_it_away_and_presses_nothing_under_it() -> None:
    """A notice over the table's buttons: the click that dismisses it (and its release)
    never reaches the scene; the next click does."""
    app = make_app((1024, 600))
    try:
        app.reset_to(MenuScene(app))
        app.notify("Saved.")
        app.notify(LONG)
        app.step(1 / 60)
        panels = app.notices.panels
        assert len(panels) == 2
        got: list[int] = []
        scene = app.scene
        assert scene is not None
        scene.handle_event = lambda event: got.append(event.type)  # type: ignore[method-assign]
        down = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=panels[1].center, button=1)
        up = pygame.event.Event(pygame.MOUSEBUTTONUP, pos=panels[1].center, button=1)
        app._handle(down)
        app._handle(up)
        assert got == []
        assert [n.text for n in app.notices] == ["Saved."]  # the one clicked went
        app.step(1 / 60)
        assert len(app.notices.panels) == 1
        elsewhere = (panels[0].centerx, app.screen.get_height() - 20)
        app._handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=elsewhere, button=1))
        assert got == [pygame.MOUSEBUTTONDOWN]
        assert [n.text for n in app.notices] == ["Saved."]
    finally:
        app.close()
