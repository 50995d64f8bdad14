"""The App's notices (a saved record, a report sent, a table moved to another port), drawn
over every scene: stacked at the top centre, each on a nearly opaque panel, wrapped to a
readable width so that a long one (or a long language) never leaves the window. A click on
one puts it away (:class:`NoticeBoard`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import pygame

from briscola.gui.render.assets import Assets
from briscola.gui.widgets.text import wrap_text
from briscola.gui.widgets.theme import Theme

#: The widest a notice's lines run, in design pixels (a line of 70 to 90 characters).
NOTICE_WIDTH = 820


def draw_notices(
    surface: pygame.Surface,
    texts: Sequence[str],
    assets: Assets,
    theme: Theme,
    px: Callable[[float], int],
) -> list[pygame.Rect]:
    """``texts`` (the newest last), one panel each, from the top of ``surface`` down;
    returns the panels' rectangles, in the order of ``texts``."""
    size = px(18)
    font = assets.font(size)
    width = min(surface.get_width() - px(48), px(NOTICE_WIDTH))
    y = px(10)
    panels: list[pygame.Rect] = []
    for notice in texts:
        lines = [assets.text(line, size, theme.text) for line in wrap_text(font, notice, width)]
        box = pygame.Rect(
            0, 0, max(t.get_width() for t in lines), sum(t.get_height() for t in lines)
        )
        rect = box.inflate(px(24), px(12))
        rect.midtop = (surface.get_width() // 2, y)
        panel = pygame.Surface(rect.size, pygame.SRCALPHA)
        # Nearly opaque: a notice over a page title reads as a layer, not as a text clash.
        pygame.draw.rect(panel, (0, 0, 0, 232), panel.get_rect(), border_radius=8)
        surface.blit(panel, rect)
        top = rect.y + px(6)
        for text in lines:
            surface.blit(text, text.get_rect(midtop=(rect.centerx, top)))
            top += text.get_height()
        y = rect.bottom + px(6)
        panels.append(rect)
    return panels


@dataclass
class Notice:
    text: str
    until: float  # time.monotonic() when it goes


class NoticeBoard:
    """The App's notices: the newest three are shown until they expire, and a click on one
    puts it away and goes no further (a button under the notice, which the player could not
    see, is not pressed, nor by the button's release)."""

    def __init__(self) -> None:
        self._notices: list[Notice] = []
        #: The notices the last frame showed, and where.
        self._panels: list[tuple[Notice, pygame.Rect]] = []
        self._swallow_release = False

    def add(self, text: str, seconds: float) -> None:
        self._notices.append(Notice(text, time.monotonic() + seconds))

    def __iter__(self) -> Iterator[Notice]:
        return iter(self._notices)

    def __bool__(self) -> bool:
        return bool(self._notices)

    @property
    def panels(self) -> list[pygame.Rect]:
        """Where the last frame showed its notices."""
        return [panel for _, panel in self._panels]

    def next_expiry(self) -> float | None:
        """Seconds until a notice goes (None: there is none)."""
        if not self._notices:
            return None
        return max(0.0, min(n.until for n in self._notices) - time.monotonic())

    def draw(
        self, surface: pygame.Surface, assets: Assets, theme: Theme, px: Callable[[float], int]
    ) -> None:
        now = time.monotonic()
        self._notices = [n for n in self._notices if n.until > now]
        shown = self._notices[-3:]
        panels = draw_notices(surface, [n.text for n in shown], assets, theme, px)
        self._panels = list(zip(shown, panels, strict=True))

    def clicked(self, event: pygame.event.Event) -> bool:
        """``event`` (in the surface's pixels) put a notice away and is used up."""
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self._swallow_release:
            self._swallow_release = False
            return True
        if event.type != pygame.MOUSEBUTTONDOWN or event.button != 1:
            return False
        for notice, panel in self._panels:
            if panel.collidepoint(event.pos):
                self._notices = [n for n in self._notices if n is not notice]
                self._panels = []
                self._swallow_release = True
                return True
        return False
