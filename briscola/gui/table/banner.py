"""The table's online part: the connection banner (lost, reconnecting), who is away or
replaced by a computer, and the end of the table (the host left, the server closed): the
player is told and goes back to the menu. A spectator sees "Watching" with who plays and
the configuration, and at the table's end is told and stays until it leaves (Esc).

It reads only the session interface (``news()``, ``take_messages()``), and an online
table's quick chat (``take_said()``): a local table or a replay has nothing to say, and the
banner draws nothing.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

import pygame

from briscola.client.chat import said_text
from briscola.client.kept import ended_text
from briscola.client.online import OnlineSession
from briscola.client.sentences import code_text
from briscola.client.session import RemoteSession
from briscola.gui.widgets import rounded
from briscola.protocol.errors import ErrorCode
from briscola.text.i18n import _
from briscola.text.labels import preset_label

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from briscola.game.session import SessionView
    from briscola.gui.scene import Services

log = logging.getLogger("briscola.online")

BANNER_COLOUR = (150, 40, 32, 250)
NOTE_COLOUR = (12, 20, 14, 240)
#: Seconds a quick chat line stays, and how many show at once (the newest).
CHAT_SECONDS = 6.0
MAX_CHAT = 3


def host_away_text(name: str, until: float | None) -> str:
    """The host's game, where the table lives, is out of reach: whose, and until when the
    table waits for it (the time of day, as the player's clock shows it)."""
    when = time.strftime("%H:%M", time.localtime(until if until is not None else time.time()))
    return _("{name}'s game is away: waiting for it to come back until {time}.").format(
        name=name, time=when
    )


def watching_text(session: SessionView) -> str:
    """A spectator's label: who plays, and the configuration."""
    names = ", ".join(seat.name for seat in session.seats)
    return _("Watching {names} · {table}").format(
        names=names, table=preset_label(session.rules.name)
    )


class TableBanner:
    """Shows what the table has to say beyond its cards (``session.news()``): a lost
    connection, players away or replaced by a computer; at the table's end the player is
    told and goes back to the menu. A table with nothing to say shows nothing."""

    def __init__(self, app: Services, session: SessionView, px: Callable[[float], int]) -> None:
        self.app = app
        self.session = session
        self.px = px
        self.ended = False
        #: The banner's text now (empty: none), for tests and the report.
        self.banner = ""
        self.notes: list[str] = []
        #: Quick chat shown now, with the time (``time.monotonic()``) each line goes.
        self.chat: list[tuple[str, float]] = []

    def update(self) -> None:
        session = self.session
        for message in session.take_messages():
            if message.kind == "notice":
                self.app.notify(code_text(message.code, message.text), 8.0)
            else:
                log.info("the server refused: %s", message)
                if message.code in (ErrorCode.RATE_LIMITED, ErrorCode.CHAT_LIMITED):
                    self.app.notify(code_text(message.code, message.text))
        if isinstance(session, RemoteSession):
            self._people(session)
        if self.ended:
            return
        news = session.news()
        if news.ended is not None and news.watching:
            # A spectator is told and stays, to look at the last trick, until it leaves.
            self.ended = True
            ended = code_text(news.ended, news.ended_message)
            self.banner = _("{ended} Press Esc to leave.").format(ended=ended)
            self.notes = []
            return
        if news.ended is not None:
            self.ended = True
            kept = session.hand_kept if isinstance(session, OnlineSession) else None
            self.app.notify(ended_text(news, kept), 10.0 if kept else 8.0)
            self.app.open("menu", mode="reset")
            return
        self.banner = ""
        if news.connection == "host_away":
            self.banner = host_away_text(news.detail, news.back_by)
        elif news.connection == "reconnecting":
            self.banner = _("Connection lost: reconnecting…")
        elif news.connection in ("failed", "closed"):
            self.banner = _("The connection to the table is lost. Press Esc to leave the table.")
        self.notes = [watching_text(session)] if news.watching else []
        for seat in news.seats:
            if seat.replaced:
                self.notes.append(
                    _("{name} is away: a computer plays until they return.").format(name=seat.name)
                )
            elif seat.away:
                self.notes.append(_("{name} lost the connection: waiting…").format(name=seat.name))
        if news.waiting_host:
            self.notes.append(
                _("Waiting for {name} to start the new match…").format(name=news.waiting_host)
            )
        elif news.waiting:
            self.notes.append(
                _("Waiting for {names} to go on to the next hand…").format(
                    names=", ".join(news.waiting)
                )
            )
        now = time.monotonic()
        self.chat = [(line, until) for line, until in self.chat if until > now]
        self.notes += [line for line, _until in self.chat]

    def _people(self, session: RemoteSession) -> None:
        """Quick chat from the others (muted players' left out), shown for a while among
        the notes (which keep clear of the seats' cards), and reports taken."""
        for said in session.take_said():
            line = said_text(said)
            if line is not None:
                self.chat = [*self.chat, (line, time.monotonic() + CHAT_SECONDS)][-MAX_CHAT:]
        if session.reported:
            session.reported.clear()
            self.app.notify(_("Your report was sent: the server's operator will read it."))

    def draw(
        self, surface: pygame.Surface, top: int, avoid: Sequence[pygame.Rect] = ()
    ) -> list[pygame.Rect]:
        """The banner and the notes, centred from ``top`` down; each goes further down
        until it is clear of ``avoid`` (the other seats' cards and name plates: a note or
        a lost connection stays up for long, and must not hide them). Returns the boxes
        drawn."""
        px = self.px
        assets = self.app.assets
        theme = self.app.theme
        y = top
        lines = ([(self.banner, BANNER_COLOUR, 22)] if self.banner else []) + [
            (note, NOTE_COLOUR, 17) for note in self.notes
        ]
        drawn: list[pygame.Rect] = []
        for text, colour, size in lines:
            image = assets.text(text, px(size), theme.text, bold=colour is BANNER_COLOUR)
            box = image.get_rect().inflate(px(28), px(14))
            box.midtop = (surface.get_width() // 2, y)
            for _tries in range(len(avoid) + 1):
                hit = [rect for rect in avoid if rect.colliderect(box)]
                if not hit:
                    break
                box.top = max(rect.bottom for rect in hit) + px(6)
            surface.blit(rounded(box.size, colour, px(10)), box.topleft)
            surface.blit(image, image.get_rect(center=box.center))
            drawn.append(box)
            y = box.bottom + px(6)
        return drawn
