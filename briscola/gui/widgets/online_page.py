"""The base of the online pages (the hub, join, the host's start and the waiting room): text
fields, a message line, and a frame every :data:`~briscola.client.session.POLL` seconds
while the page waits for the network, so that the window rests between messages and still
shows them at once. What the pages show comes from :class:`briscola.client.flow.OnlineFlow`;
they only draw it and feed it clicks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from briscola.client.session import POLL
from briscola.gui.widgets import BLINK_MS
from briscola.gui.widgets.page import FormPage

if TYPE_CHECKING:
    from briscola.gui.scene import Services

__all__ = ["OnlinePage", "waited_text"]


def waited_text(seconds: float) -> str:
    """``1:05`` for a minute and five seconds (``1:02:03`` past an hour)."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


class OnlinePage(FormPage):
    """A page with text fields, a message line and frames every :data:`POLL` seconds while
    it waits for the network."""

    def __init__(self, app: Services) -> None:
        super().__init__(app)
        self.message = ""
        #: The message is an error (drawn in the warning colour).
        self.message_bad = False

    @property
    def waiting(self) -> bool:
        """Network messages are expected: keep looking every :data:`POLL` seconds."""
        return False

    def say(self, text: str, bad: bool = False) -> None:
        self.message = text
        self.message_bad = bad

    def next_frame_in(self) -> float | None:
        due: float | None = POLL if self.waiting else None
        if self._typing is not None:
            blink = (BLINK_MS - pygame.time.get_ticks() % BLINK_MS) / 1000
            due = blink if due is None else min(due, blink)
        return due

    def draw_message(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        if not self.message:
            return
        theme = self.app.theme
        colour = (240, 120, 100) if self.message_bad else theme.text
        self.painter.paragraph(surface, self.message, box, self.px(18), colour, align="center")
