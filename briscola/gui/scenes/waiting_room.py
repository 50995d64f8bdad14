"""The waiting room of an online table: the code (and, for the host, the addresses to tell),
the seats with their names and who is ready; the host's Start; Ready for a guest; Leave.

Everything comes from the server's ``table`` messages, read once a frame from the client's
queue. The first ``update`` means the game has begun: the table opens on a
:class:`~briscola.client.session.RemoteSession` of this seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from briscola.client.connection import Incoming, NetClient
from briscola.client.session import RemoteSession
from briscola.engine import Rules
from briscola.gui.hosting import (
    EmbeddedHost,
    HostedSession,
    OnlinePage,
    OnlineSession,
    connection_text,
    error_text,
)
from briscola.gui.widgets import Button, PrimaryButton, WidgetGroup
from briscola.protocol import messages as msg
from briscola.protocol.wire import spaced_code
from briscola.text.i18n import _
from briscola.text.labels import level_label, match_label, preset_label
from briscola.text.signals import signals_mode_label

if TYPE_CHECKING:
    from briscola.gui.scene import Services

READY_COLOUR = (120, 200, 120)
WAIT_COLOUR = (236, 190, 72)


class WaitingRoomScene(OnlinePage):
    """Seats and readiness of the table ``client`` sits at; ``host`` is the embedded server
    when this computer hosts it; ``backlog``: messages already taken from the client."""

    def __init__(
        self,
        app: Services,
        client: NetClient,
        host: EmbeddedHost | None = None,
        backlog: list[Incoming] | None = None,
    ) -> None:
        super().__init__(app)
        self.client = client
        self.host = host
        self.messages: list[Incoming] = []
        self.table: msg.TableInfo | None = None
        self.ready = False
        self.started = False
        self.leave_button = Button(lambda: _("Leave"), self.back, name="leave")
        self.ready_button = PrimaryButton(self.ready_label, self.toggle_ready, name="ready")
        self.start_button = PrimaryButton(lambda: _("Start"), self.start, name="start")
        self.fill_button = Button(
            lambda: _("Start with computers"), self.start_with_bots, name="fill"
        )
        self.group = WidgetGroup(
            [self.ready_button, self.start_button, self.fill_button, self.leave_button]
        )
        self.ready_button.visible = host is None
        self.start_button.visible = self.fill_button.visible = host is not None
        self.group.focus_widget(self.start_button if host is not None else self.ready_button)
        self.group.keyboard_focus = True
        self.info_panel = pygame.Rect(0, 0, 1, 1)
        self.seat_panel = pygame.Rect(0, 0, 1, 1)
        self.message_box = pygame.Rect(0, 0, 1, 1)
        for message in backlog or ():
            self._take(message)
        self._refresh()

    # ------------------------------------------------------------------ state

    @property
    def waiting(self) -> bool:
        return not self.started

    @property
    def is_host(self) -> bool:
        table = self.table
        return table is not None and table.get("host") == self.client.seat

    @property
    def code(self) -> str:
        return str(self.table["table"]) if self.table is not None else (self.client.table or "")

    def seats(self) -> list[msg.SeatEntry]:
        return list(self.table["seats"]) if self.table is not None else []

    def ready_label(self) -> str:
        return _("Not ready") if self.ready else _("I'm ready")

    def _open_seats(self) -> tuple[int, int]:
        """Seats open to a person: how many are taken and ready, and how many there are."""
        people = [seat for seat in self.seats() if seat["kind"] == "human"]
        ready = sum(1 for seat in people if seat["claimed"] and seat["ready"])
        return ready, len(people)

    def _refresh(self) -> None:
        ready, people = self._open_seats()
        claimed = [seat for seat in self.seats() if seat["kind"] == "human" and seat["claimed"]]
        self.start_button.enabled = self.table is not None and people > 0 and ready == people
        self.fill_button.enabled = (
            self.table is not None
            and len(claimed) < people
            and all(seat["ready"] for seat in claimed)
        )

    # ------------------------------------------------------------------ actions

    def toggle_ready(self) -> None:
        self.ready = not self.ready
        self.client.ready(self.ready)

    def start(self) -> None:
        self.client.start_game()

    def start_with_bots(self) -> None:
        self.client.start_game(fill_bots=True)

    def back(self) -> None:
        self._leave()
        self.app.pop()

    def _leave(self) -> None:
        if self.started:
            return
        self.started = True  # nothing more to wait for
        self.app.storage.seats.forget()
        self.client.leave()
        self.client.close(timeout=0)
        if self.host is not None:
            self.host.stop()

    def on_exit(self) -> None:
        super().on_exit()
        self._leave()

    # ------------------------------------------------------------------ messages

    def _take(self, message: Incoming) -> None:
        if message["type"] == "table":
            self.table = message
            for seat in message["seats"]:
                if seat["seat"] == self.client.seat:
                    self.ready = bool(seat.get("ready"))
        elif message["type"] == "error":
            self.say(error_text(message), bad=True)
            return
        elif message["type"] == "status":
            text = connection_text(self.client)
            self.say(text, bad=bool(text))
            return
        if message["type"] in ("table", "update", "joined"):
            self.messages.append(message)

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.started:
            return
        # The first update may have come with ``joined`` already (taking a seat back in a
        # game under way): then the table opens now, whatever else arrives.
        begun = any(message.get("type") == "update" for message in self.messages)
        for message in self.client.drain():
            kind = message.get("type")
            if begun:  # the table's session takes what came after the first update
                self.messages.append(message)
                continue
            if kind == "closed":
                self.started = True
                # The table is gone (host left, server closed...): no seat to take back.
                self.app.storage.seats.forget()
                self.client.close(timeout=0)
                if self.host is not None:
                    self.host.stop()
                self.app.notify(error_text(message), 8.0)
                self.app.open("menu", mode="reset")
                return
            self._take(message)
            begun = kind == "update"
        if begun:
            self._begin()
            return
        self._refresh()

    def _begin(self) -> None:
        """The game has begun: the table, on this seat's remote session."""
        self.started = True
        first = next(i for i, m in enumerate(self.messages) if m.get("type") == "update")
        backlog = [m for m in self.messages[:first] if m.get("type") == "table"]
        backlog += self.messages[first:]
        session: RemoteSession
        if self.host is not None:
            session = HostedSession(self.client, self.app.storage.seats, self.host, backlog)
        else:
            session = OnlineSession(self.client, self.app.storage.seats, backlog)
        self.app.open("table", mode="replace", session=session)

    # ------------------------------------------------------------------ layout

    def on_resize(self, size: tuple[int, int]) -> None:
        frame = self.page_frame(size, 1100, scrolls=True, columns=True)
        px = self.px
        self.info_panel, self.seat_panel = frame.columns(px(18))
        body = frame.body
        by, bh = frame.buttons_y, frame.button_h
        bw = px(230)
        self.leave_button.rect = pygame.Rect(body.x, by, px(180), bh)
        self.start_button.rect = pygame.Rect(body.right - bw, by, bw, bh)
        self.ready_button.rect = self.start_button.rect.copy()
        self.fill_button.rect = pygame.Rect(body.right - 2 * bw - px(14), by, bw, bh)
        panel = self.info_panel
        self.message_box = pygame.Rect(
            panel.x + px(16), panel.bottom - px(70), panel.width - px(32), px(60)
        )

    # ------------------------------------------------------------------ drawing

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_page(surface, _("Waiting room"), self.info_panel, self.seat_panel)
        self._draw_info(surface)
        self._draw_seats(surface)
        self.draw_message(surface, self.message_box)
        self.group.draw(surface, self.app.assets, self.app.theme)

    def _draw_info(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        px = self.px
        fit = self.painter.fit
        panel = self.info_panel
        x, w = panel.x + px(20), panel.width - px(40)
        y = panel.y + px(14)
        fit(surface, _("Table code"), pygame.Rect(x, y, w, px(28)), px(22), theme.dim)
        y += px(30)
        shown = spaced_code(self.code)
        fit(surface, shown, pygame.Rect(x, y, w, px(64)), px(58), theme.accent, bold=True)
        y += px(72)
        if self.host is not None:
            port = self.host.listening_port
            addresses = ", ".join(f"{address}:{port}" for address in self.host.addresses())
            used = self.painter.paragraph(
                surface,
                _("Friends join with this code at: {addresses}").format(addresses=addresses),
                pygame.Rect(x, y, w, px(72)),
                px(18),
                theme.text,
            )
            y += used + px(12)
        else:
            used = self.painter.paragraph(
                surface,
                _("The host starts the game once everybody is ready."),
                pygame.Rect(x, y, w, px(50)),
                px(18),
                theme.text,
            )
            y += used + px(12)
        if self.table is not None:
            rules = Rules.from_dict(self.table["rules"])
            lines = [preset_label(rules.name), match_label(str(rules.match))]
            if rules.signals != "off":  # everyone should know before the game starts
                mode = signals_mode_label(rules.signals)
                lines.append(_("Partner signals: {mode}").format(mode=mode))
            for line in lines:
                fit(surface, line, pygame.Rect(x, y, w, px(26)), px(19), theme.dim)
                y += px(28)
        if self.host is not None:
            room = pygame.Rect(x, y + px(14), w, self.message_box.top - y - px(20))
            if room.height > px(40):
                self.painter.paragraph(
                    surface,
                    _(
                        "On their computer: Play online, then Join a table. On this network"
                        " the table is listed; otherwise they type the address and the code."
                    ),
                    room,
                    px(17),
                    theme.dim,
                )

    def _draw_seats(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        px = self.px
        fit = self.painter.fit
        panel = self.seat_panel
        x, w = panel.x + px(20), panel.width - px(40)
        y = panel.y + px(14)
        fit(surface, _("Seats"), pygame.Rect(x, y, w, px(30)), px(24), theme.accent, bold=True)
        y += px(40)
        seats = self.seats()
        row = min(px(56), (panel.bottom - y - px(10)) // max(1, len(seats)))
        host = self.table.get("host") if self.table is not None else None
        for seat in seats:
            box = pygame.Rect(x, y, w, row - px(6))
            badge = pygame.Rect(box.x, box.y, box.height, box.height).inflate(-px(8), -px(8))
            pygame.draw.circle(surface, (206, 194, 160), badge.center, badge.width // 2)
            digit = round(badge.height * 0.62)  # the digit's ink stays inside its circle
            fit(surface, str(seat["seat"] + 1), badge, digit, (20, 24, 20), True, "center")
            name_box = pygame.Rect(badge.right + px(12), box.y, int(w * 0.5), box.height)
            state_box = pygame.Rect(
                name_box.right + px(8), box.y, box.right - name_box.right - px(8), box.height
            )
            you = seat["seat"] == self.client.seat
            if seat["kind"] == "bot":
                name = seat["name"] or _("Computer")
                state = _("Computer: {level}").format(level=level_label(str(seat["level"])))
                colour = theme.dim
            elif not seat["claimed"]:
                name = _("Open seat")
                state = _("Waiting for a friend")
                colour = theme.dim
            else:
                name = str(seat["name"])
                if seat["seat"] == host:
                    state = _("Host")
                elif not seat["connected"]:
                    state = _("Away")
                else:
                    state = _("Ready") if seat["ready"] else _("Not ready")
                colour = READY_COLOUR if seat["ready"] else WAIT_COLOUR
            if you:
                name = _("{name} (you)").format(name=name)
            fit(surface, name, name_box, px(21), theme.text, bold=you)
            fit(surface, state, state_box, px(18), colour, align="right")
            y += row
