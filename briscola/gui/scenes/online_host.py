"""Host a table: the embedded server starts in the background, this computer's player opens
the table on it, and the waiting room follows (with the code and the addresses to tell).

Where the table listens: the App's network options (every interface on port 8765, another
port when that one is taken; ``BRISCOLA_HOST_BIND`` and ``BRISCOLA_HOST_PORT`` change them);
tests pass ``bind`` and ``port``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from briscola.client.connection import Incoming, NetClient
from briscola.engine import Rules
from briscola.gui.hosting import (
    EmbeddedHost,
    OnlinePage,
    error_text,
    saved_name,
)
from briscola.gui.widgets import Button, WidgetGroup
from briscola.text.i18n import _

if TYPE_CHECKING:
    from briscola.gui.scene import Services


class HostScene(OnlinePage):
    """Opens the table ``rules`` with ``seats`` (the server's seat list; seat 0 is the
    host's) and hands over to the waiting room. ``server``: more server settings (tests)."""

    def __init__(
        self,
        app: Services,
        rules: Rules,
        seats: list[dict[str, Any]],
        bind: str | None = None,
        port: int | None = None,
        announce: bool = True,
        grace: float = 60.0,
        server: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(app)
        self.rules = rules
        self.seats = seats
        network = app.options.network
        self.host = EmbeddedHost(
            network.bind if bind is None else bind,
            network.port if port is None else port,
            announce=announce and network.lan,
            grace=grace,
            options=server,
            interfaces=network.mdns_interfaces,
        )
        self.client: NetClient | None = None
        self.backlog: list[Incoming] = []
        self.done = False
        self.back_button = Button(lambda: _("Back"), self.back, name="back")
        self.group = WidgetGroup([self.back_button])
        self.panel = pygame.Rect(0, 0, 1, 1)
        self.message_box = pygame.Rect(0, 0, 1, 1)
        self.say(_("Opening the table…"))

    @property
    def waiting(self) -> bool:
        return not self.done

    def on_enter(self) -> None:
        self.host.start()

    def back(self) -> None:
        self._give_up()
        self.app.pop()

    def _give_up(self) -> None:
        self.done = True
        if self.client is not None:
            client, self.client = self.client, None
            client.leave()
            client.close(timeout=0)
        self.host.stop()

    def on_exit(self) -> None:
        super().on_exit()
        if not self.done:
            self._give_up()

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.done:
            return
        if self.client is None:
            if not self.host.ready.is_set():
                return
            if self.host.error is not None:
                self.done = True
                self.say(
                    _("Cannot open a table on this computer: {reason}").format(
                        reason=self.host.error
                    ),
                    bad=True,
                )
                return
            name = saved_name(self.app) or _("Host")
            self.client = NetClient(self.host.url, name).start()
            self.client.create(self.rules, self.seats)
            return
        for message in self.client.drain():
            kind = message.get("type")
            if not self.done and (
                kind == "error" or (kind == "status" and message.get("status") == "failed")
            ):
                self.done = True
                self.say(error_text(message), bad=True)
                return
            self.backlog.append(message)  # after "joined" too: the waiting room reads them
            self.done = self.done or kind == "joined"
        if self.done:
            self.app.open(
                "waiting_room",
                mode="replace",
                client=self.client,
                host=self.host,
                backlog=self.backlog,
            )

    def on_resize(self, size: tuple[int, int]) -> None:
        frame = self.page_frame(size, 620)
        px = self.px
        self.panel = frame.body
        self.message_box = frame.body.inflate(-px(60), -px(60))
        self.back_button.rect = pygame.Rect(frame.body.x, frame.buttons_y, px(210), frame.button_h)

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_page(surface, _("Host a table"), self.panel)
        self.draw_message(surface, self.message_box)
        self.group.draw(surface, self.app.assets, self.app.theme)
