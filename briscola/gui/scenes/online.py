"""Play online: the player's name, then Host a table or Join a table.

The name is the first seat's name of the New game screen (``settings.new_game``), so the
host's table and a local game greet the player the same way.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from briscola.gui.widgets import Button, PrimaryButton, TextInput, WidgetGroup
from briscola.gui.widgets.online_page import OnlinePage
from briscola.protocol.wire import ProtocolError, check_name, spaced_code
from briscola.server.keep import kept_tables
from briscola.storage.seats import HeldSeat
from briscola.text.i18n import _

if TYPE_CHECKING:
    from briscola.gui.scene import Services


class OnlineScene(OnlinePage):
    """The online hub."""

    def __init__(self, app: Services) -> None:
        super().__init__(app)
        self.name = app.settings.player_name
        self.name_input = TextInput(
            self.name, self.set_name, lambda: _("Your name"), name="player_name"
        )
        self.fields = [self.name_input]
        self.host_button = PrimaryButton(lambda: _("Host a table"), self.host, name="host")
        self.join_button = PrimaryButton(lambda: _("Join a table"), self.join, name="join")
        self.public_button = PrimaryButton(lambda: _("Public tables"), self.public, name="public")
        self.back_button = Button(lambda: _("Back"), self.back, name="back")
        #: A seat this computer held at a table and never left (the game was closed).
        self.seat = self.held_seat()
        self.rejoin_button = PrimaryButton(self._rejoin_label, self.rejoin, name="rejoin")
        self.rejoin_button.visible = self.seat is not None
        self.group = WidgetGroup(
            [
                self.rejoin_button,
                self.name_input,
                self.host_button,
                self.join_button,
                self.public_button,
                self.back_button,
            ]
        )
        if self.seat is not None:
            self.group.focus_widget(self.rejoin_button)
        else:
            self.group.focus_widget(self.host_button if self.name else self.name_input)
        self.group.keyboard_focus = True
        self.heading = pygame.Rect(0, 0, 1, 1)
        self.help_box = pygame.Rect(0, 0, 1, 1)
        self.message_box = pygame.Rect(0, 0, 1, 1)

    def set_name(self, text: str) -> None:
        self.name = text
        self.say("")

    def checked_name(self) -> str | None:
        """The name, checked as the server will (a message says what is wrong)."""
        try:
            name = check_name(self.name)
        except ProtocolError:
            self.say(_("Type your name first: letters, digits and spaces (at most 24)."), bad=True)
            self.group.focus_widget(self.name_input)
            return None
        self.app.settings.player_name = name
        self.app.save_settings()
        return name

    def on_resume(self) -> None:
        super().on_resume()
        self.seat = self.held_seat()  # taken back, or gone, meanwhile
        self.rejoin_button.visible = self.seat is not None

    @property
    def tables(self) -> Path:
        return self.app.storage.tables_dir

    def held_seat(self) -> HeldSeat | None:
        """The seat to offer back: a guest's until its host's game has stayed away too long,
        or the host's while this computer still keeps its table (a host who closed the
        table has none to open again)."""
        seat = self.app.storage.seats.saved()
        if seat is None:
            return None
        kept = not seat.hosted or seat.code in kept_tables(self.tables)
        if not kept or seat.gone(time.time()):
            self.app.storage.seats.forget()
            return None
        return seat

    def _rejoin_label(self) -> str:
        code = spaced_code(self.seat.code) if self.seat is not None else ""
        return _("Back to your table {code}").format(code=code)

    def rejoin(self) -> None:
        name = self.checked_name()
        if name is not None and self.seat is not None:
            if self.seat.hosted:  # the table lived in this game: open it again
                self.app.open("online_host", rejoin=self.seat)
            else:
                self.app.open("online_join", player=name, rejoin=self.seat)

    def host(self) -> None:
        if self.checked_name() is not None:
            self.app.open("newgame", online=True)

    def join(self) -> None:
        name = self.checked_name()
        if name is not None:
            self.app.open("online_join", player=name)

    def public(self) -> None:
        """The servers' public sides (a name there is asked on each server)."""
        self.app.open("servers")

    def on_resize(self, size: tuple[int, int]) -> None:
        frame = self.page_frame(size, 620)
        px = self.px
        body = frame.body
        self.panel = body
        x, w = body.x + px(30), body.width - px(60)
        y = body.y + px(24)
        self.heading = pygame.Rect(x, y, w, px(30))
        y = self.heading.bottom + px(8)
        self.name_input.rect = pygame.Rect(x, y, w, px(46))
        y = self.name_input.rect.bottom + px(28)
        for button in (self.host_button, self.join_button, self.public_button):
            button.rect = pygame.Rect(x, y, w, px(52))
            y += px(52) + px(14)
        self.help_box = pygame.Rect(x, y + px(6), w, px(100))
        self.message_box = pygame.Rect(x, self.help_box.bottom + px(6), w, px(60))
        self.back_button.rect = pygame.Rect(body.x, frame.buttons_y, px(210), frame.button_h)
        # A seat to take back: its button beside Back, where the page has room.
        self.rejoin_button.rect = pygame.Rect(
            body.right - px(320), frame.buttons_y, px(320), frame.button_h
        )

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        px = self.px
        self.draw_page(surface, _("Play online"), self.panel)
        self.painter.fit(surface, _("Your name"), self.heading, px(22), theme.accent, bold=True)
        self.painter.paragraph(
            surface,
            _(
                "Host a table on this computer and tell your friends its code, or join a"
                " friend's table: on the same network it is listed, otherwise type the"
                " address and the code the host gives you. Public tables: play with"
                " other people on a server."
            ),
            self.help_box,
            px(17),
            theme.dim,
        )
        self.draw_message(surface, self.message_box)
        self.group.draw(surface, self.app.assets, theme)
