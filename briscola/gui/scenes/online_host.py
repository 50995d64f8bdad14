"""Host a table: the embedded server starts in the background, this computer's player opens
the table on it, and the waiting room follows (with the code and the addresses to tell).
The table is kept in the data folder while it is played: a host whose game died opens it
again from Play online (``rejoin``), on the same port, and takes their seat back. When
another program holds that port now, the table opens on another one: announced on the
local network, the guests' games find it there; else the host is told they cannot.

Where the table listens: the App's network options (every interface on port 8765, another
port when that one is taken; ``BRISCOLA_HOST_BIND`` and ``BRISCOLA_HOST_PORT`` change them);
tests pass ``bind`` and ``port``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from briscola.client.flow import OnlineFlow
from briscola.client.sentences import code_text
from briscola.engine import Rules
from briscola.gui.widgets import Button, WidgetGroup
from briscola.gui.widgets.online_page import OnlinePage
from briscola.server.embedded import EmbeddedHost
from briscola.storage import paths
from briscola.storage.seats import HeldSeat
from briscola.text.i18n import _

if TYPE_CHECKING:
    from briscola.gui.scene import Services


class HostScene(OnlinePage):
    """Opens the table ``rules`` with ``seats`` (the server's seat list; seat 0 is the
    host's) and hands over to the waiting room. ``server``: more server settings (tests).
    ``rejoin``: the host's seat at a table kept from a game that died, opened again."""

    def __init__(
        self,
        app: Services,
        rules: Rules | None = None,
        seats: list[dict[str, Any]] | None = None,
        bind: str | None = None,
        port: int | None = None,
        announce: bool = True,
        grace: float = 60.0,
        server: dict[str, Any] | None = None,
        rejoin: HeldSeat | None = None,
        url: str | None = None,
        key: str = "",
    ) -> None:
        super().__init__(app)
        #: A public table opened on the server at ``url`` (no server on this computer).
        self.url, self.key = url, key
        self.rules = rules or Rules.preset("classic2")
        self.seats = seats or [{"kind": "human"}, {"kind": "human"}]
        self.rejoin = rejoin
        network = app.options.network
        if port is None:
            port = network.port if rejoin is None else _port_of(rejoin.url, network.port)
        self.host: EmbeddedHost | None = (
            None
            if url is not None
            else EmbeddedHost(
                network.bind if bind is None else bind,
                port,
                announce=announce and network.lan,
                records=paths.records_dir() / "online",
                grace=grace,
                options=server,
                interfaces=network.mdns_interfaces,
                keep=app.storage.tables_dir,
            )
        )
        self.flow = OnlineFlow(app.settings.player_name or _("Host"), app.storage.seats)
        #: The waiting room has the flow now.
        self.handed = False
        self.back_button = Button(lambda: _("Back"), self.back, name="back")
        self.group = WidgetGroup([self.back_button])
        self.panel = pygame.Rect(0, 0, 1, 1)
        self.message_box = pygame.Rect(0, 0, 1, 1)
        self.say(_("Opening the table…") if rejoin is None else _("Opening your table again…"))

    @property
    def waiting(self) -> bool:
        return self.flow.busy

    def on_enter(self) -> None:
        if self.url is not None:
            self.flow.create(self.url, self.rules, self.seats, public=True, key=self.key or None)
        elif self.host is None:
            return
        elif self.rejoin is not None:
            self.flow.take_back(self.rejoin, self.host)
        else:
            self.flow.host(self.host, self.rules, self.seats)

    def back(self) -> None:
        self.flow.leave()
        self.app.pop()

    def on_exit(self) -> None:
        super().on_exit()
        if not self.handed:
            self.flow.leave()

    def update(self, dt: float) -> None:
        super().update(dt)
        flow = self.flow
        if self.handed or flow.stage in ("idle", "left"):
            return
        was = flow.stage
        stage = flow.poll()
        if stage == "failed" and was != "failed" and flow.problem is not None:
            self.say(code_text(flow.problem.code, flow.problem.detail), bad=True)
        elif stage in ("room", "playing"):
            self.handed = True
            moved = self.moved_note()
            if moved:
                self.app.notify(moved, 12.0)
            self.app.open("waiting_room", mode="replace", flow=flow, host=self.host)

    def moved_note(self) -> str:
        """The table opened again on another port than before (that one is taken): where
        it is now, and whether the guests' games find it there ("" when it did not move)."""
        host, held = self.host, self.rejoin
        if host is None or held is None:
            return ""
        old, new = _port_of(held.url, 0), host.listening_port
        if old in (0, new):
            return ""
        if host.announcer is not None:
            return _(
                "Port {old} is taken by another program: your table is open again on port"
                " {new}, and your friends' games find it on the network."
            ).format(old=old, new=new)
        return _(
            "Port {old} is taken by another program: your table is open again on port {new},"
            " but your friends' games cannot find it there (it is not announced on the"
            " network), so computer players take their seats."
        ).format(old=old, new=new)

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


def _port_of(url: str, default: int) -> int:
    """The port of a ``ws://host:port`` address (``default`` when it names none)."""
    tail = url.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else default
