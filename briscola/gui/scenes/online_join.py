"""Join a table: the tables found on the local network (updating as they come and go), or an
address and a code typed in. A joined table opens its waiting room.

Tables are looked for over mDNS (:class:`briscola.protocol.lan.TableBrowser`, on the interfaces
of ``BRISCOLA_MDNS_INTERFACES``, every one by default); ``BRISCOLA_NO_LAN=1`` or
``lan=False`` turns the search off.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

import pygame

from briscola.client.connection import NetClient
from briscola.client.flow import OnlineFlow
from briscola.client.lookout import LanLookout
from briscola.client.sentences import code_text
from briscola.gui.widgets import Button, PrimaryButton, TextInput, WidgetGroup
from briscola.gui.widgets.online_page import OnlinePage
from briscola.protocol.errors import ErrorCode
from briscola.protocol.lan import LanTable
from briscola.protocol.wire import CODE_ALPHABET, CODE_LENGTH
from briscola.storage.seats import HeldSeat
from briscola.text.i18n import _, ngettext
from briscola.text.labels import preset_label

if TYPE_CHECKING:
    from briscola.gui.scene import Services

#: Tables listed at most (the first by host name).
MAX_LISTED = 5


def code_problem(typed: str) -> str:
    """What is wrong with a table code as typed, in words a person can act on: which
    characters codes never use (0, 1, I, L and O: they look alike), or how long codes are.

    >>> code_problem("ABC123")
    'Table codes never use “1”: they use the letters A to Z but I, L and O, and the digits 2 to 9.'
    """
    text = "".join(char for char in typed.upper() if char not in " -")
    wrong = sorted({char for char in text if char not in CODE_ALPHABET}, key=text.index)
    if wrong:
        return _(
            "Table codes never use {chars}: they use the letters A to Z but I, L and O,"
            " and the digits 2 to 9."
        ).format(chars=", ".join(f"“{char}”" for char in wrong))
    if not text:
        return _("Type the table code the host gives you ({n} characters).").format(n=CODE_LENGTH)
    return _("A table code has {n} characters; this one has {count}.").format(
        n=CODE_LENGTH, count=len(text)
    )


class JoinScene(OnlinePage):
    """Join as ``player``: a table found on the network, or one by address and code."""

    def __init__(
        self,
        app: Services,
        player: str,
        address: str = "",
        code: str = "",
        lan: bool | None = None,
        rejoin: HeldSeat | None = None,
    ) -> None:
        super().__init__(app)
        self.name = player
        #: A seat kept from an earlier game (online.saved_seat), taken back on entering.
        self.rejoin = rejoin
        #: The join under way takes a held seat back.
        self.rejoining = False
        self.lan = app.options.network.lan if lan is None else lan
        #: The tables on the local network (started on entering, when ``lan``).
        self.lookout = LanLookout(app.options.network.mdns_interfaces)
        self.found: list[LanTable] = []
        #: Tables found on the network that speak another protocol version (not listed).
        self.other_versions = 0
        self.flow = OnlineFlow(player, app.storage.seats)
        #: The waiting room has the flow now.
        self.handed = False
        self.address_input = TextInput(
            address or app.settings.join_address,
            self.edited,
            lambda: _("Address, e.g. 192.168.1.5:8765"),
            120,
            name="address",
        )
        self.code_input = TextInput(
            code, self.edited, lambda: _("Table code"), 9, self.join_typed, name="code"
        )
        self.address_input.on_enter = lambda: self.group.focus_widget(self.code_input)
        self.fields = [self.address_input, self.code_input]
        self.join_button = PrimaryButton(lambda: _("Join"), self.join_typed, name="join")
        self.back_button = Button(lambda: _("Back"), self.back, name="back")
        self.table_buttons = [
            Button(lambda: "", partial(self.join_found, index), name=f"lan-{index}")
            for index in range(MAX_LISTED)
        ]
        for button in self.table_buttons:
            button.visible = False
        self.group = WidgetGroup(
            [
                *self.table_buttons,
                self.address_input,
                self.code_input,
                self.join_button,
                self.back_button,
            ]
        )
        self.group.focus_widget(self.address_input)
        self.group.keyboard_focus = True
        self.lan_panel = pygame.Rect(0, 0, 1, 1)
        self.typed_panel = pygame.Rect(0, 0, 1, 1)
        self.lan_heading = pygame.Rect(0, 0, 1, 1)
        self.lan_note = pygame.Rect(0, 0, 1, 1)
        self.typed_heading = pygame.Rect(0, 0, 1, 1)
        self.message_box = pygame.Rect(0, 0, 1, 1)

    # ------------------------------------------------------------------ the network list

    @property
    def client(self) -> NetClient | None:
        """The connection of the join under way (None: none, or it failed)."""
        return self.flow.client

    @property
    def waiting(self) -> bool:
        return self.lan or self.flow.busy

    def on_enter(self) -> None:
        if self.rejoin is not None:
            self.take_back(self.rejoin)
        if self.lan:
            self.lookout.start()

    def on_exit(self) -> None:
        super().on_exit()
        self.lookout.close()
        if not self.handed:
            self.flow.leave()

    def table_label(self, index: int) -> str:
        if index >= len(self.found):
            return ""
        table = self.found[index]
        free = ngettext("{n} free seat", "{n} free seats", table.free).format(n=table.free)
        return f"{table.host} · {preset_label(table.preset)} · {free}"

    def _refresh_found(self) -> None:
        tables = self.lookout.tables()
        found = [t for t in tables if t.compatible]
        self.other_versions = len(tables) - len(found)
        if found == self.found:
            return
        self.found = found[:MAX_LISTED]
        for index, button in enumerate(self.table_buttons):
            button.visible = index < len(self.found)
            button.label = partial(self.table_label, index)
        focused = self.group.focused
        if focused is not None and not focused.visible:
            self.group.focus_widget(self.address_input)

    # ------------------------------------------------------------------ joining

    def edited(self, text: str) -> None:
        if self.client is None:
            self.say("")

    def join_found(self, index: int) -> None:
        if index < len(self.found) and not self.flow.busy:
            table = self.found[index]
            self.rejoining = False
            self.flow.join(table.url, table.code)
            self._joining(_("Joining…"))

    def join_typed(self) -> None:
        if self.flow.busy:
            return
        self.rejoining = False
        if self.flow.join_typed(self.address_input.text, self.code_input.text):
            self._joining(_("Joining…"))
            return
        problem = self.flow.problem
        if problem is not None and problem.code is ErrorCode.BAD_CODE:
            self.say(code_problem(self.code_input.text), bad=True)
            self.group.focus_widget(self.code_input)
        else:
            self.say(code_text(ErrorCode.BAD_ADDRESS), bad=True)
            self.group.focus_widget(self.address_input)

    def take_back(self, seat: HeldSeat) -> None:
        """Take back a seat held before (the client resumes it with its token)."""
        if not self.flow.busy:
            self.rejoining = True
            self.flow.take_back(seat)
            self._joining(_("Taking your seat back…"))

    def _joining(self, text: str) -> None:
        """Say ``text`` while the join is under way, or why it failed at once."""
        if self.flow.stage == "failed":
            self._failed()
        else:
            self.say(text)

    def _failed(self) -> None:
        """Say why the join failed, in the player's words: a seat taken back whose server
        cannot be reached is most likely at a table whose host's game is closed for now."""
        problem = self.flow.problem
        if problem is None:
            return
        if self.rejoining and problem.code is ErrorCode.UNREACHABLE:
            self.say(
                _(
                    "Your table cannot be reached now: its host's game may be closed."
                    " Try again in a while."
                ),
                bad=True,
            )
        else:
            self.say(code_text(problem.code, problem.detail), bad=True)

    def _follow_moved_table(self) -> None:
        """A seat taken back could not be reached where it was: when its table is announced
        in play at another address (its host's game opened it again on another port), take
        the seat back there."""
        held = self.rejoin
        if held is None or not self.rejoining or self.flow.stage != "failed":
            return
        found = self.lookout.in_play(held.code)
        if found is not None and found.compatible and found.url != held.url:
            self.rejoin = replace(held, url=found.url)
            self.take_back(self.rejoin)

    def update(self, dt: float) -> None:
        super().update(dt)
        self._refresh_found()
        self._follow_moved_table()
        flow = self.flow
        if self.handed or flow.stage != "joining":
            return
        stage = flow.poll()
        if stage == "failed":
            self._failed()
        elif stage in ("room", "playing"):
            typed = flow.typed_address
            if typed and typed != self.app.settings.join_address:
                self.app.settings.join_address = typed
                self.app.save_settings()
            self.handed = True
            self.app.open("waiting_room", mode="replace", flow=flow)

    # ------------------------------------------------------------------ layout

    def on_resize(self, size: tuple[int, int]) -> None:
        frame = self.page_frame(size, 1100, scrolls=True, columns=True)
        px = self.px
        self.lan_panel, self.typed_panel = frame.columns(px(18))
        panel = self.lan_panel
        x, w = panel.x + px(18), panel.width - px(36)
        self.lan_heading = pygame.Rect(x, panel.y + px(12), w, px(32))
        y = self.lan_heading.bottom + px(10)
        for button in self.table_buttons:
            button.rect = pygame.Rect(x, y, w, px(46))
            y += px(54)
        self.lan_note = pygame.Rect(x, self.lan_heading.bottom + px(10), w, px(80))
        panel = self.typed_panel
        x, w = panel.x + px(18), panel.width - px(36)
        self.typed_heading = pygame.Rect(x, panel.y + px(12), w, px(32))
        y = self.typed_heading.bottom + px(10)
        self.address_input.rect = pygame.Rect(x, y, w, px(44))
        y += px(56)
        self.code_input.rect = pygame.Rect(x, y, w, px(44))
        y += px(60)
        self.join_button.rect = pygame.Rect(x + w - px(200), y, px(200), px(46))
        y += px(60)
        self.message_box = pygame.Rect(x, y, w, max(px(40), panel.bottom - y - px(10)))
        self.back_button.rect = pygame.Rect(frame.body.x, frame.buttons_y, px(210), frame.button_h)

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        px = self.px
        self.draw_page(surface, _("Join a table"), self.lan_panel, self.typed_panel)
        self.painter.fit(
            surface, _("On this network"), self.lan_heading, px(24), theme.accent, bold=True
        )
        notes = []
        if not self.found:
            if self.lan:
                notes.append(_("Looking for tables on this network…"))
            elif not self.app.options.network.lan:  # the player's own setting, and only then
                notes.append(_("Looking for tables on the network is turned off."))
        if self.other_versions:
            notes.append(
                ngettext(
                    "{n} table on this network runs another version of Briscola: to play"
                    " together, both computers need the same version.",
                    "{n} tables on this network run another version of Briscola: to play"
                    " together, both computers need the same version.",
                    self.other_versions,
                ).format(n=self.other_versions)
            )
        if notes:
            box = self.lan_note.copy()
            if self.found:  # below the listed tables
                box.y = self.table_buttons[len(self.found) - 1].rect.bottom + px(12)
            box.height = max(box.height, self.lan_panel.bottom - box.y - px(12))
            self.painter.paragraph(surface, "\n".join(notes), box, px(18), theme.dim)
        self.painter.fit(
            surface, _("By address and code"), self.typed_heading, px(24), theme.accent, bold=True
        )
        self.draw_message(surface, self.message_box)
        self.group.draw(surface, self.app.assets, theme)
