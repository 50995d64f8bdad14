"""The waiting room of an online table: the code (and, for the host, the addresses to tell),
the seats with their names and who is ready; the host's Start; Ready for a guest; Leave.

Everything comes from the online flow (:class:`briscola.client.flow.OnlineFlow`), looked at
once a frame: the server's description of the table, refusals, the connection. Once the game
has begun the table opens on the flow's session of this seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from briscola.client.away import TableSearch
from briscola.client.flow import OnlineFlow, Problem
from briscola.client.sentences import code_text, connection_text
from briscola.engine import Rules
from briscola.gui.widgets import Button, PrimaryButton, WidgetGroup
from briscola.gui.widgets.online_page import OnlinePage
from briscola.protocol import messages as msg
from briscola.protocol.wire import spaced_code
from briscola.text.i18n import _
from briscola.text.labels import level_label, match_label, preset_label
from briscola.text.signals import signals_mode_label

if TYPE_CHECKING:
    from briscola.gui.scene import Services
    from briscola.server.embedded import EmbeddedHost

READY_COLOUR = (120, 200, 120)
WAIT_COLOUR = (236, 190, 72)


class WaitingRoomScene(OnlinePage):
    """The waiting room of the table ``flow`` is seated at; ``host`` is this computer's own
    server when it hosts the table (its addresses are shown to tell friends)."""

    def __init__(self, app: Services, flow: OnlineFlow, host: EmbeddedHost | None = None) -> None:
        super().__init__(app)
        self.flow = flow
        self.host = host
        #: The table has opened (or the room has closed): nothing more to wait for here.
        self.started = False
        self._problem: Problem | None = flow.problem
        self._status = flow.connection
        self.leave_button = Button(lambda: _("Leave"), self.back, name="leave")
        self.ready_button = PrimaryButton(self.ready_label, self.toggle_ready, name="ready")
        self.start_button = PrimaryButton(lambda: _("Start"), self.start, name="start")
        self.fill_button = Button(
            lambda: _("Start with computers"), self.start_with_bots, name="fill"
        )
        self.group = WidgetGroup(
            [self.ready_button, self.start_button, self.fill_button, self.leave_button]
        )
        hosting = host is not None or flow.created
        self.ready_button.visible = not hosting
        self.start_button.visible = self.fill_button.visible = hosting
        self.group.focus_widget(self.start_button if hosting else self.ready_button)
        self.group.keyboard_focus = True
        self.info_panel = pygame.Rect(0, 0, 1, 1)
        self.seat_panel = pygame.Rect(0, 0, 1, 1)
        self.message_box = pygame.Rect(0, 0, 1, 1)
        self._refresh()

    # ------------------------------------------------------------------ state

    @property
    def waiting(self) -> bool:
        return not self.started

    @property
    def table(self) -> msg.TableInfo | None:
        return self.flow.table

    @property
    def is_host(self) -> bool:
        return self.flow.is_host

    @property
    def code(self) -> str:
        return self.flow.code

    @property
    def ready(self) -> bool:
        return self.flow.ready

    def seats(self) -> list[msg.SeatEntry]:
        return list(self.table["seats"]) if self.table is not None else []

    def ready_label(self) -> str:
        return _("Not ready") if self.ready else _("I'm ready")

    def _open_seats(self) -> tuple[int, int]:
        """Seats open to a person: how many are taken and ready, and how many there are."""
        people = [seat for seat in self.seats() if seat["kind"] == "human"]
        ready = sum(1 for seat in people if seat.get("claimed") and seat.get("ready"))
        return ready, len(people)

    def _refresh(self) -> None:
        ready, people = self._open_seats()
        claimed = [s for s in self.seats() if s["kind"] == "human" and s.get("claimed")]
        self.start_button.enabled = self.table is not None and people > 0 and ready == people
        self.fill_button.enabled = (
            self.table is not None
            and len(claimed) < people
            and all(seat.get("ready") for seat in claimed)
        )

    # ------------------------------------------------------------------ actions

    def toggle_ready(self) -> None:
        self.flow.set_ready(not self.ready)

    def start(self) -> None:
        self.flow.start()

    def start_with_bots(self) -> None:
        self.flow.start(fill_bots=True)

    def back(self) -> None:
        self._leave()
        self.app.pop()

    def _leave(self) -> None:
        if not self.started:
            self.started = True  # nothing more to wait for
            self.flow.leave()

    def on_exit(self) -> None:
        super().on_exit()
        self._leave()

    # ------------------------------------------------------------------ the network

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.started:
            return
        flow = self.flow
        stage = flow.poll()
        if stage == "closed":
            # The table is gone (host left, server closed...): no seat to take back.
            self.started = True
            problem = flow.problem
            if problem is not None:
                self.app.notify(code_text(problem.code, problem.detail), 8.0)
            self.app.open("menu", mode="reset")
            return
        if stage == "playing":
            self.started = True
            session = flow.session(self.app.storage.seats)
            network = self.app.options.network
            if network.lan and self.host is None:  # found again if its host's game moves
                session.search = TableSearch(network.mdns_interfaces)
            self.app.open("table", mode="replace", session=session)
            return
        self._tell()
        self._refresh()

    def _tell(self) -> None:
        """Say what changed: a refusal, or the connection's state."""
        flow = self.flow
        if flow.problem is not self._problem:
            self._problem = flow.problem
            if flow.problem is not None:
                self.say(code_text(flow.problem.code, flow.problem.detail), bad=True)
        status = flow.connection
        if status != self._status:
            self._status = status
            text = connection_text(status)
            self.say(text, bad=bool(text))

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
        host = self.table["host"] if self.table is not None else None
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
            you = seat["seat"] == self.flow.seat
            if seat["kind"] == "bot":
                name = seat["name"] or _("Computer")
                state = _("Computer: {level}").format(level=level_label(str(seat.get("level"))))
                colour = theme.dim
            elif not seat.get("claimed"):
                name = _("Open seat")
                state = _("Waiting for a friend")
                colour = theme.dim
            else:
                name = str(seat["name"])
                if seat["seat"] == host:
                    state = _("Host")
                elif not seat.get("connected"):
                    state = _("Away")
                else:
                    state = _("Ready") if seat.get("ready") else _("Not ready")
                colour = READY_COLOUR if seat.get("ready") else WAIT_COLOUR
            if you:
                name = _("{name} (you)").format(name=name)
            fit(surface, name, name_box, px(21), theme.text, bold=you)
            fit(surface, state, state_box, px(18), colour, align="right")
            y += row
