"""Watching a public table: the way in. ``app.open("watch", url=..., code=..., name=...)``
connects to the server at ``url`` as ``name``, asks to watch the table ``code`` and, once
the server has sent the table as it is, shows it (the table scene, on a
:class:`~briscola.client.spectator.SpectatorSession`: every hand face down, nothing to
play; Esc or Leave goes back here's caller). Until then this page says what it waits for,
or why the table cannot be watched (no public table has that code, too many watch it, the
server is out of reach), with Back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from briscola.client.connection import Incoming, NetClient
from briscola.client.public import PublicSide
from briscola.client.sentences import code_text, connection_text
from briscola.client.spectator import SpectatorSession
from briscola.gui.widgets import Button, WidgetGroup
from briscola.gui.widgets.online_page import OnlinePage
from briscola.protocol.errors import ProtocolError
from briscola.protocol.wire import normalize_code, spaced_code
from briscola.text.i18n import _

if TYPE_CHECKING:
    from briscola.gui.scene import Services


class WatchScene(OnlinePage):
    """Connects to ``url`` as ``name`` and watches the table ``code``."""

    def __init__(self, app: Services, url: str, code: str, name: str) -> None:
        super().__init__(app)
        self.code = code.strip().upper()
        self.client: NetClient | None = None
        self.side: PublicSide | None = None
        #: What came since ``watching``: the session's first messages.
        self.backlog: list[Incoming] = []
        self.done = False
        self.back_button = Button(lambda: _("Back"), self.back, name="back")
        self.group = WidgetGroup([self.back_button])
        self.group.keyboard_focus = True
        self.box = pygame.Rect(0, 0, 1, 1)
        try:
            self.code = normalize_code(code)
            self.client = NetClient(url, name, table=self.code)
        except ProtocolError as exc:  # (a code that cannot be one)
            self.done = True
            self.say(code_text(exc.code, str(exc)), bad=True)
            return
        except ValueError:  # (an address that is none)
            self.done = True
            self.say(_("A server address starts with ws:// or wss://."), bad=True)
            return
        self.side = PublicSide(self.client.start())
        self.side.watch(self.code)
        self.say(_("Connecting…"))

    @property
    def waiting(self) -> bool:
        return not self.done

    def back(self) -> None:
        self._stop()
        self.app.pop()

    def _stop(self) -> None:
        if not self.done:
            self.done = True
            if self.client is not None:
                self.client.close(timeout=0)

    def on_exit(self) -> None:
        super().on_exit()
        self._stop()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.back()
            return
        self.group.handle_event(event)

    # ------------------------------------------------------------------ the network

    def update(self, dt: float) -> None:
        super().update(dt)
        side, client = self.side, self.client
        if self.done or side is None or client is None:
            return
        for message in client.drain():
            side.take(message)
            if side.stage == "watching":
                self.backlog.append(message)
            self._tell(message)
        if self.done:
            return
        if any(message["type"] == "update" for message in self.backlog):
            self.done = True  # the table is the client's from here on
            session = SpectatorSession(client, side, self.backlog)
            self.app.open("table", mode="replace", session=session)
        elif side.stage == "watching":
            self.say(_("Waiting for the game to begin…"))

    def _tell(self, message: Incoming) -> None:
        """A refusal, the table's end before it was shown, or the connection's state."""
        data: dict[str, Any] = dict(message)
        if message["type"] == "error":
            self._stop()
            self.say(code_text(data["code"], data.get("message", "")), bad=True)
        elif message["type"] == "closed":
            self._stop()
            self.say(code_text(data["reason"], data.get("message", "")), bad=True)
        elif message["type"] == "status":
            text = connection_text(data["status"])
            if data["status"] in ("failed", "closed"):
                self._stop()
            # (connected: no sentence, and nothing wrong yet: a refusal may follow)
            self.say(text, bad=data["status"] in ("failed", "closed", "reconnecting"))

    # ------------------------------------------------------------------ layout and drawing

    def on_resize(self, size: tuple[int, int]) -> None:
        frame = self.page_frame(size, 760)
        px = self.px
        body = frame.body
        self.box = pygame.Rect(body.x, body.y, body.width, min(body.height, px(220)))
        self.back_button.rect = pygame.Rect(body.x, frame.buttons_y, px(180), frame.button_h)

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_page(surface, _("Watch a table"), self.box)
        px = self.px
        theme = self.app.theme
        inner = self.box.inflate(-px(40), -px(28))
        line = pygame.Rect(inner.x, inner.y, inner.width, px(30))
        self.painter.fit(surface, _("Table code"), line, px(20), theme.dim, align="center")
        line.y += px(34)
        line.height = px(56)
        shown = spaced_code(self.code) if self.code else "?"
        self.painter.fit(surface, shown, line, px(48), theme.accent, True, "center")
        self.draw_message(surface, pygame.Rect(inner.x, line.bottom + px(16), inner.width, px(70)))
        self.group.draw(surface, self.app.assets, theme)

    def report(self) -> dict[str, Any]:
        data = super().report()
        data["message"] = self.message
        return data
