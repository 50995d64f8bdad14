"""The player's key on a server: shown as its code (to type on another computer: the
clipboard is used when there is one), a code typed from another computer taken in (a
mistyped one refused), and a new name (the server says how long to wait between two).
"""

from __future__ import annotations

import contextlib
import time
from typing import TYPE_CHECKING, Any

import pygame

from briscola.client.connection import Incoming
from briscola.client.identity import Identities, KeyCodeError, name_problem, signed_in
from briscola.client.public import PublicSide
from briscola.client.sentences import code_text
from briscola.gui.widgets import Button, PrimaryButton, TextInput, WidgetGroup
from briscola.gui.widgets.online_page import OnlinePage
from briscola.protocol import people
from briscola.protocol.errors import ErrorCode
from briscola.text.i18n import _, ngettext

if TYPE_CHECKING:
    from briscola.gui.scene import Services

#: The longest key code typed (``BK1-`` and 55 characters in groups of five, some spaces).
CODE_CHARS = 90


class PublicKeyScene(OnlinePage):
    """The key kept for the server at ``url``; ``side``: its lobby's connection."""

    def __init__(self, app: Services, url: str, side: PublicSide, rename_at: float = 0.0) -> None:
        super().__init__(app)
        self.url, self.side = url, side
        #: When the server lets the player rename (``time.monotonic()``).
        self.rename_at = rename_at
        self.identities = Identities(app.storage.keys)
        self.shown_code = ""
        self.code_input = TextInput(
            "", self.edited, lambda: _("A key code: BK1-…"), CODE_CHARS, self.import_code,
            name="key_code",
        )  # fmt: skip
        self.rename_input = TextInput(
            "", self.edited, lambda: _("A new name"), on_enter=self.rename, name="new_name"
        )
        self.fields = [self.code_input, self.rename_input]
        self.show_button = PrimaryButton(lambda: _("Show my key"), self.show, name="show_key")
        self.import_button = Button(lambda: _("Use this key"), self.import_code, name="import")
        self.rename_button = Button(lambda: _("Rename"), self.rename, name="rename")
        self.back_button = Button(lambda: _("Back"), self.back, name="back")
        self.group = WidgetGroup(
            [
                self.show_button, self.code_input, self.import_button, self.rename_input,
                self.rename_button, self.back_button,
            ]
        )  # fmt: skip
        self.group.focus_widget(self.show_button)
        self.group.keyboard_focus = True
        self.boxes: dict[str, pygame.Rect] = {}
        self.message_box = pygame.Rect(0, 0, 1, 1)

    @property
    def waiting(self) -> bool:
        return self.side.client is not None

    def edited(self, text: str) -> None:
        self.say("")

    def show(self) -> None:
        code = self.identities.export(self.url)
        if code is None:
            self.say(_("No key is kept for this server yet: sign in first."), bad=True)
            return
        self.shown_code = code
        copied = False
        with contextlib.suppress(Exception):  # (pygame.scrap may be missing or unusable)
            pygame.scrap.put_text(code)
            copied = True
        self.say(
            _("Copied. Keep this code private: whoever has it plays as you.")
            if copied
            else _("Keep this code private: whoever has it plays as you.")
        )

    def import_code(self) -> None:
        try:
            key = self.identities.import_(self.url, self.code_input.text)
        except KeyCodeError as exc:
            why = (
                _("it is mistyped: check it character by character")
                if "mistyped" in str(exc)
                else _("a key code is BK1- and 55 letters and digits: copy all of it")
            )
            self.say(_("That key code cannot be used: {why}.").format(why=why), bad=True)
            return
        self.code_input.set_text("")
        self.shown_code = ""
        client = self.side.client
        if client is not None:
            client.identify(key)
        self.say(_("Signing in with that key…"))

    def rename(self) -> None:
        name = self.rename_input.text.strip()
        problem = name_problem(name)
        if problem is not None:
            self.say(problem, bad=True)
            return
        if self.side.client is not None:
            self.side.client.rename(name)
            self.say(_("Asking the server…"))

    def take_other(self, message: Incoming) -> None:
        client = self.side.client
        data: dict[str, Any] = dict(message)
        if data["type"] == "identity" and client is not None:
            signed_in(client, self.identities, message)  # type: ignore[arg-type]
            self.rename_at = time.monotonic() + float(data.get("rename_in", 0))
            self.say(_("You are {name} on this server.").format(name=data["name"]))
            self.rename_input.set_text("")
        elif data["type"] == "error" and data.get("ref") in people.CLIENT_TYPES:
            text = code_text(data["code"], data["message"])
            if data["code"] == ErrorCode.RENAME_WAIT:
                text += " " + self.rename_wait()
            self.say(text, bad=True)

    def rename_wait(self) -> str:
        """How long until the player may rename, in words."""
        seconds = max(60.0, self.rename_at - time.monotonic())
        hours = round(seconds / 3600)
        if hours >= 1:
            when = ngettext("{n} hour", "{n} hours", hours).format(n=hours)
        else:
            minutes = max(1, round(seconds / 60))
            when = ngettext("{n} minute", "{n} minutes", minutes).format(n=minutes)
        return _("You can change it again in {time}.").format(time=when)

    def update(self, dt: float) -> None:
        super().update(dt)
        self.side.poll(self.take_other)

    # ------------------------------------------------------------------ layout

    def on_resize(self, size: tuple[int, int]) -> None:
        frame = self.page_frame(size, 1000, scrolls=True)
        px = self.px
        self.panel = body = frame.body
        x, w = body.x + px(24), body.width - px(48)
        y = body.y + px(12)
        button_w = px(220)
        self.boxes["export"] = pygame.Rect(x, y, w, px(28))
        y += px(34)
        self.show_button.rect = pygame.Rect(x, y, button_w, px(44))
        self.boxes["code"] = pygame.Rect(x, y + px(50), w, px(30))
        y += px(92)
        self.boxes["import"] = pygame.Rect(x, y, w, px(28))
        y += px(34)
        self.code_input.rect = pygame.Rect(x, y, w - button_w - px(12), px(44))
        self.import_button.rect = pygame.Rect(x + w - button_w, y, button_w, px(44))
        y += px(60)
        self.boxes["rename"] = pygame.Rect(x, y, w, px(28))
        y += px(34)
        self.rename_input.rect = pygame.Rect(x, y, w - button_w - px(12), px(44))
        self.rename_button.rect = pygame.Rect(x + w - button_w, y, button_w, px(44))
        y += px(54)
        self.message_box = pygame.Rect(x, y, w, max(px(36), body.bottom - y - px(6)))
        self.back_button.rect = pygame.Rect(body.x, frame.buttons_y, px(210), frame.button_h)

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        px = self.px
        self.draw_page(surface, _("Your key"), self.panel)
        headings = {
            "export": _("Play as yourself on another computer: show your key's code"),
            "import": _("Type the code of a key from another computer"),
            "rename": _("Change your name (now and then: the server says when)"),
        }
        for part, text in headings.items():
            self.painter.fit(surface, text, self.boxes[part], px(20), theme.accent, bold=True)
        if self.shown_code:
            self.painter.fit(surface, self.shown_code, self.boxes["code"], px(20), theme.text)
        self.draw_message(surface, self.message_box)
        self.group.draw(surface, self.app.assets, theme)
