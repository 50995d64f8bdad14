"""The table's online part: the connection banner (lost, reconnecting), who is away or
replaced by a computer, and the end of the table (the host left, the server closed): the
player is told and goes back to the menu.

It works on any session that has the remote session's extras (``banner()``,
``seat_states()``, ``closed``, ``take_errors()``); a local session has none, and
:meth:`OnlineStatus.of` gives None for it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import pygame

from ..i18n import _
from ..online import POLL, error_text
from ..widgets import rounded

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..app import App
    from .session import TableSession

log = logging.getLogger("briscola.online")

BANNER_COLOUR = (150, 40, 32, 250)
NOTE_COLOUR = (12, 20, 14, 240)


class OnlineStatus:
    """Shows what the network does to the table of ``session`` (a remote session)."""

    def __init__(self, app: App, session: Any, px: Callable[[float], int]) -> None:
        self.app = app
        self.session = session
        self.px = px
        self.ended = False
        #: The banner's text now (empty: none), for tests and the report.
        self.banner = ""
        self.notes: list[str] = []

    @classmethod
    def of(cls, app: App, session: TableSession, px: Callable[[float], int]) -> OnlineStatus | None:
        if not callable(getattr(session, "banner", None)):
            return None
        return cls(app, session, px)

    def next_frame_in(self) -> float:
        """Look at the network a few times a second (the window rests in between)."""
        return POLL

    def update(self) -> None:
        session = self.session
        take_notices = getattr(session, "take_notices", None)
        if callable(take_notices):
            for notice in take_notices():
                self.app.notify(error_text(notice), 8.0)
        for error in session.take_errors():
            log.info("the server refused: %s", error)
            if error.get("code") == "rate_limited":
                self.app.notify(error_text(error))
        if self.ended:
            return
        closed = session.closed
        if closed is not None:
            self.ended = True
            self.app.notify(error_text(closed), 8.0)
            self.app.open("menu", mode="reset")
            return
        self.banner = ""
        shown = session.banner()
        if shown is not None:
            kind = shown[0]
            if kind == "reconnecting":
                self.banner = _("Connection lost: reconnecting…")
            elif kind in ("failed", "closed"):
                self.banner = _(
                    "The connection to the table is lost. Press Esc to leave the table."
                )
        self.notes = []
        for seat in session.seat_states():
            name = str(seat.get("name") or "")
            if seat.get("replaced"):
                self.notes.append(
                    _("{name} is away: a computer plays until they return.").format(name=name)
                )
            elif seat.get("away"):
                self.notes.append(_("{name} lost the connection: waiting…").format(name=name))

    def draw(self, surface: pygame.Surface, top: int) -> None:
        """The banner and the notes, centred from ``top`` down."""
        px = self.px
        assets = self.app.assets
        theme = self.app.theme
        y = top
        lines = ([(self.banner, BANNER_COLOUR, 22)] if self.banner else []) + [
            (note, NOTE_COLOUR, 17) for note in self.notes
        ]
        for text, colour, size in lines:
            image = assets.text(text, px(size), theme.text, bold=colour is BANNER_COLOUR)
            box = image.get_rect().inflate(px(28), px(14))
            box.midtop = (surface.get_width() // 2, y)
            surface.blit(rounded(box.size, colour, px(10)), box.topleft)
            surface.blit(image, image.get_rect(center=box.center))
            y = box.bottom + px(6)
