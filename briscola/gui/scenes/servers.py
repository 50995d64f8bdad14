"""Public tables: the servers the player has added (kept in the data folder,
:class:`~briscola.storage.servers.ServerList`) and those found on the local network (hosts
announcing a table); add and remove a server by its address. Choosing one opens its public
side (the ``public`` scene). Private tables by code stay on Join a table, on any server.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import pygame

from briscola.client.flow import address_url
from briscola.client.lookout import LanLookout
from briscola.gui.widgets import Button, PrimaryButton, TextInput, WidgetGroup
from briscola.gui.widgets.online_page import OnlinePage
from briscola.text.i18n import _

if TYPE_CHECKING:
    from briscola.gui.scene import Services

#: Rows of servers shown (added first, then found on the network).
ROWS = 6


class ServersScene(OnlinePage):
    """The servers to choose from; ``lan``: look on the local network (the App's setting
    by default)."""

    def __init__(self, app: Services, lan: bool | None = None) -> None:
        super().__init__(app)
        self.lan = app.options.network.lan if lan is None else lan
        #: The tables on the local network (their servers are listed; started on entering).
        self.lookout = LanLookout(app.options.network.mdns_interfaces)
        #: The rows: (address as shown, ws URL, added by the player).
        self.rows: list[tuple[str, str, bool]] = []
        self.address_input = TextInput(
            "", self.edited, lambda: _("Address, e.g. tables.example.org"), 120, name="address"
        )
        self.address_input.on_enter = self.add
        self.fields = [self.address_input]
        self.add_button = PrimaryButton(lambda: _("Add"), self.add, name="add")
        self.open_buttons = [
            Button(lambda: "", partial(self.choose, index), name=f"server-{index}")
            for index in range(ROWS)
        ]
        self.remove_buttons = [
            Button(lambda: _("Remove"), partial(self.remove, index), name=f"remove-{index}")
            for index in range(ROWS)
        ]
        self.back_button = Button(lambda: _("Back"), self.back, name="back")
        rows = [
            w for pair in zip(self.open_buttons, self.remove_buttons, strict=True) for w in pair
        ]
        self.group = WidgetGroup([*rows, self.address_input, self.add_button, self.back_button])
        self.group.keyboard_focus = True
        self.heading = pygame.Rect(0, 0, 1, 1)
        self.add_heading = pygame.Rect(0, 0, 1, 1)
        self.note_box = pygame.Rect(0, 0, 1, 1)
        self.message_box = pygame.Rect(0, 0, 1, 1)
        self.refresh()
        notice = app.storage.servers.notice
        if notice:
            self.say(notice, bad=True)
        self.group.focus_widget(self.open_buttons[0] if self.rows else self.address_input)

    @property
    def waiting(self) -> bool:
        return self.lan

    # ------------------------------------------------------------------ the list

    def refresh(self) -> None:
        rows: list[tuple[str, str, bool]] = []
        for address in self.app.storage.servers.all():
            try:
                rows.append((address, address_url(address), True))
            except ValueError:
                continue  # (kept by a hand that typed it in the file)
        for table in self.lookout.tables():
            if table.compatible and all(url != table.url for _a, url, _k in rows):
                rows.append((table.host, table.url, False))
        if rows[:ROWS] == self.rows:
            return
        self.rows = rows[:ROWS]
        for index, (opened, removed) in enumerate(
            zip(self.open_buttons, self.remove_buttons, strict=True)
        ):
            opened.visible = index < len(self.rows)
            removed.visible = opened.visible and self.rows[index][2]
            opened.label = partial(self.row_label, index)
        focused = self.group.focused
        if focused is not None and not focused.visible:
            self.group.focus_widget(self.address_input)

    def row_label(self, index: int) -> str:
        if index >= len(self.rows):
            return ""
        shown, _url, added = self.rows[index]
        return shown if added else _("{host} (on this network)").format(host=shown)

    def edited(self, text: str) -> None:
        self.say("")

    def add(self) -> None:
        typed = self.address_input.text.strip()
        try:
            address_url(typed)
        except ValueError:
            self.say(
                _(
                    "That is not a server address: type a name or a number, e.g."
                    " tables.example.org or 192.168.1.5:8765."
                ),
                bad=True,
            )
            return
        servers = self.app.storage.servers
        if typed in servers.all():
            self.say(_("That server is in the list already."))
        elif not servers.add(typed):
            self.say(servers.notice or _("No more servers can be added."), bad=True)
            return
        else:
            self.say("")
        self.address_input.set_text("")
        self.refresh()

    def remove(self, index: int) -> None:
        if index < len(self.rows) and self.rows[index][2]:
            self.app.storage.servers.remove(self.rows[index][0])
            self.refresh()

    def choose(self, index: int) -> None:
        if index < len(self.rows):
            shown, url, _added = self.rows[index]
            self.app.open("public", url=url, address=shown)

    # ------------------------------------------------------------------ the network

    def on_enter(self) -> None:
        if self.lan:
            self.lookout.start()

    def on_exit(self) -> None:
        super().on_exit()
        self.lookout.close()

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.lan:
            self.refresh()

    # ------------------------------------------------------------------ layout

    def on_resize(self, size: tuple[int, int]) -> None:
        frame = self.page_frame(size, 900, scrolls=True)
        px = self.px
        self.panel = body = frame.body
        x, w = body.x + px(24), body.width - px(48)
        self.heading = pygame.Rect(x, body.y + px(14), w, px(30))
        y = self.heading.bottom + px(8)
        remove_w = px(150)
        for opened, removed in zip(self.open_buttons, self.remove_buttons, strict=True):
            opened.rect = pygame.Rect(x, y, w - remove_w - px(12), px(42))
            removed.rect = pygame.Rect(x + w - remove_w, y, remove_w, px(42))
            y += px(48)
        self.note_box = pygame.Rect(x, self.heading.bottom + px(8), w, px(60))
        self.add_heading = pygame.Rect(x, y + px(6), w, px(30))
        y = self.add_heading.bottom + px(6)
        self.address_input.rect = pygame.Rect(x, y, w - px(170), px(44))
        self.add_button.rect = pygame.Rect(x + w - px(158), y, px(158), px(44))
        y += px(52)
        self.message_box = pygame.Rect(x, y, w, max(px(40), body.bottom - y - px(6)))
        self.back_button.rect = pygame.Rect(body.x, frame.buttons_y, px(210), frame.button_h)

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        px = self.px
        self.draw_page(surface, _("Public tables"), self.panel)
        self.painter.fit(surface, _("Servers"), self.heading, px(22), theme.accent, bold=True)
        if not self.rows:
            note = (
                _("Looking for servers on this network… Add a server by its address below.")
                if self.lan
                else _("No servers yet: add one by its address below.")
            )
            self.painter.paragraph(surface, note, self.note_box, px(18), theme.dim)
        self.painter.fit(
            surface, _("Add a server"), self.add_heading, px(20), theme.accent, bold=True
        )
        self.draw_message(surface, self.message_box)
        self.group.draw(surface, self.app.assets, theme)
