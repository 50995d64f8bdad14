"""The menu over the table (Esc): resume, settings, rules, back to the menu, quit.

At a local table the game waits meanwhile ("Paused"). Online nothing waits: the panel is
the table's menu, and leaving (Main menu, Quit game) first says what it does (a computer
plays the seat; a guest may take it back until the match ends; the host's table closes)
and asks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from briscola.client.online import OnlineSession
from briscola.gui.scene import Scene
from briscola.gui.widgets import Button, PrimaryButton, WidgetGroup, draw_dialog
from briscola.gui.widgets.text import TextPainter
from briscola.text.i18n import _

if TYPE_CHECKING:
    from briscola.gui.scene import Services


class PauseScene(Scene):
    opaque = False

    def __init__(self, app: Services, table: Scene) -> None:
        super().__init__(app)
        self.table = table
        session = getattr(table, "session", None)
        #: The online table's session (None at a local table: the game pauses there).
        self.online = session if isinstance(session, OnlineSession) else None
        online = self.online is not None
        self.buttons = [
            Button(
                (lambda: _("Back to the table")) if online else (lambda: _("Resume")),
                app.pop,
                name="resume",
            ),
            *([Button(lambda: _("Quick chat"), self.chat, name="chat")] if online else []),
            Button(lambda: _("Settings"), self.settings, name="settings"),
            Button(lambda: _("Rules"), self.rules, name="rules"),
            Button(
                (lambda: _("Leave the table")) if online else (lambda: _("Main menu")),
                self.menu,
                name="menu",
            ),
            Button(lambda: _("Quit game"), self.quit, name="quit"),
        ]
        self.group = WidgetGroup(self.buttons)
        self.group.keyboard_focus = True
        #: Leaving asked about (online): what is done on "Leave", None while not asking.
        self.asking: Callable[[], None] | None = None
        self.leave_button = PrimaryButton(lambda: _("Leave"), self.confirm, name="confirm_leave")
        self.stay_button = Button(lambda: _("Stay"), self.cancel, name="stay")
        self.confirm_group = WidgetGroup([self.stay_button, self.leave_button])
        self.confirm_group.keyboard_focus = True
        self._show_confirm(False)
        self.panel = pygame.Rect(0, 0, 10, 10)
        self.question_box = pygame.Rect(0, 0, 1, 1)
        self.painter = TextPainter(app.assets)

    @property
    def title(self) -> str:
        """ "Paused" where the game waits; online nothing waits, and the question to leave
        is titled as the button that asked it (not "Menu")."""
        if self.online is None:
            return _("Paused")
        return _("Leave the table") if self.asking is not None else _("Menu")

    def settings(self) -> None:
        self.app.open("settings")

    def chat(self) -> None:
        """Quick chat, in this menu's place (a phrase chosen goes back to the table)."""
        self.app.open("quick_chat", mode="replace", table=self.table)

    def rules(self) -> None:
        self.app.open("rules")

    def menu(self) -> None:
        self._ask(self._to_menu)

    def quit(self) -> None:
        self._ask(self.app.quit)

    def _ask(self, then: Callable[[], None]) -> None:
        if self.online is None:
            then()
            return
        self.asking = then
        self._show_confirm(True)
        self.confirm_group.focus_widget(self.stay_button)
        self.on_resize(self.app.size)

    def _show_confirm(self, asking: bool) -> None:
        """The question's buttons are there only while it is asked, the menu's otherwise."""
        for button in self.confirm_group.widgets:
            button.visible = asking
        for button in self.buttons:
            button.visible = not asking

    def _to_menu(self) -> None:
        if self.online is not None and self.online.can_come_back:
            self.app.notify(_("You left the table: Play online takes you back to your seat."), 8.0)
        self.app.open("menu", mode="reset")

    def confirm(self) -> None:
        then, self.asking = self.asking, None
        self._show_confirm(False)
        if then is not None:
            then()

    def cancel(self) -> None:
        self.asking = None
        self._show_confirm(False)
        self.on_resize(self.app.size)

    @property
    def active(self) -> WidgetGroup:
        return self.confirm_group if self.asking is not None else self.group

    def on_resize(self, size: tuple[int, int]) -> None:
        px = self.app.px
        bw, bh, gap = px(280), px(44), px(10)
        if self.asking is not None:
            width = min(size[0] - px(20), px(560))
            self.panel = pygame.Rect(0, 0, width, px(300))
            self.panel.center = (size[0] // 2, size[1] // 2)
            self.question_box = pygame.Rect(
                self.panel.x + px(30), self.panel.y + px(70), width - px(60), px(140)
            )
            half = (width - px(60) - gap) // 2
            y = self.panel.bottom - px(24) - bh
            self.stay_button.rect = pygame.Rect(self.panel.x + px(30), y, half, bh)
            self.leave_button.rect = pygame.Rect(self.panel.right - px(30) - half, y, half, bh)
            return
        height = len(self.buttons) * (bh + gap) + px(90)
        self.panel = pygame.Rect(0, 0, bw + px(60), height)
        self.panel.center = (size[0] // 2, size[1] // 2)
        for i, button in enumerate(self.buttons):
            button.rect = pygame.Rect(
                self.panel.centerx - bw // 2, self.panel.y + px(70) + i * (bh + gap), bw, bh
            )

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if self.asking is not None:
                self.cancel()
            else:
                self.app.pop()
            return
        if self.active.handle_event(event) and event.type in (
            pygame.MOUSEBUTTONDOWN,
            pygame.KEYDOWN,
        ):
            self.app.audio.play("click", 0.6)

    def next_frame_in(self) -> float | None:
        return None  # still until input

    def report(self) -> dict[str, Any]:
        data = super().report()  # (only the buttons that can be clicked now are visible)
        data["asking"] = self.asking is not None
        data["title"] = self.title
        return data

    def draw(self, surface: pygame.Surface) -> None:
        self.painter.begin()
        px = self.app.px
        draw_dialog(surface, self.panel, self.app.draw_backdrop, self.app.theme, max(1, px(2)))
        title_box = pygame.Rect(self.panel.x + px(20), self.panel.y + px(14), 0, px(40))
        title_box.width = self.panel.width - px(40)
        theme = self.app.theme
        self.painter.fit(surface, self.title, title_box, px(30), theme.accent, True, "center")
        if self.asking is not None and self.online is not None:
            question = self.online.leave_question()
            self.painter.paragraph(surface, question, self.question_box, px(20), theme.text)
        self.active.draw(surface, self.app.assets, theme)
