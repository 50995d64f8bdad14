"""Quick match on a server's public side: the player picks the configurations to play, waits
(how many wait for each, how long this player has waited, live), cancels; after a while the
server offers computer players for the empty seats (such a table is not rated). Once seated,
the table opens on the public side's session.
"""

from __future__ import annotations

import time
from functools import partial
from typing import TYPE_CHECKING

import pygame

from briscola.client.public import PublicSide
from briscola.client.sentences import code_text
from briscola.gui.widgets import Button, PrimaryButton, Toggle, WidgetGroup
from briscola.gui.widgets.online_page import OnlinePage, waited_text
from briscola.protocol.lobby import QUICK_PRESETS
from briscola.text.i18n import _, ngettext
from briscola.text.labels import preset_label

if TYPE_CHECKING:
    from briscola.gui.scene import Services


def waiting_text(count: int, counted_in: bool) -> str:
    """How many wait for a configuration, as the page says it: the server counts this
    player among those waiting for the configurations it chose.

    >>> waiting_text(1, True), waiting_text(3, True), waiting_text(2, False)
    ('only you', 'you and 2 others', '2 waiting')
    """
    if not counted_in:
        return ngettext("{n} waiting", "{n} waiting", count).format(n=count)
    others = max(count - 1, 0)
    if others == 0:
        return _("only you")
    return ngettext("you and {n} other", "you and {n} others", others).format(n=others)


class QuickMatchScene(OnlinePage):
    """Quick match on the connection of ``side`` (the lobby's)."""

    def __init__(self, app: Services, side: PublicSide) -> None:
        super().__init__(app)
        self.side = side
        self.chosen: dict[str, bool] = {name: name == "classic2" for name in QUICK_PRESETS}
        self.toggles = [
            Toggle(
                partial(preset_label, name),
                self.chosen[name],
                partial(self.pick, name),
                lambda: _("Yes"),
                lambda: _("No"),
                name=f"quick-{name}",
            )
            for name in QUICK_PRESETS
        ]
        #: When this player began to wait (None: not waiting).
        self.since: float | None = None
        #: The table has opened: nothing more to do here.
        self.handed = False
        self.wait_button = PrimaryButton(self.wait_label, self.toggle_wait, name="wait")
        self.bots_button = Button(
            lambda: _("Play with computer players"), self.with_bots, name="bots"
        )
        self.bots_button.visible = False
        self.back_button = Button(lambda: _("Back"), self.back, name="back")
        self.group = WidgetGroup(
            [*self.toggles, self.wait_button, self.bots_button, self.back_button]
        )
        self.group.focus_widget(self.wait_button)
        self.group.keyboard_focus = True
        self.rows: list[pygame.Rect] = []
        self.heading = pygame.Rect(0, 0, 1, 1)
        self.status_box = pygame.Rect(0, 0, 1, 1)
        self.message_box = pygame.Rect(0, 0, 1, 1)

    @property
    def waiting(self) -> bool:
        return not self.handed

    @property
    def queued(self) -> bool:
        return self.side.stage == "queued"

    def pick(self, name: str, value: object) -> None:
        self.chosen[name] = bool(value)
        if self.queued:
            self._queue()

    def wait_label(self) -> str:
        return _("Cancel") if self.since is not None else _("Find players")

    def toggle_wait(self) -> None:
        if self.side.client is None:
            return
        if self.since is not None:
            self.side.unqueue()
            self.since = None
            self.say(_("You stopped waiting."))
        else:
            self._queue()

    def _queue(self) -> None:
        presets = [name for name, on in self.chosen.items() if on]
        if not presets:
            self.say(_("Choose at least one game to play."), bad=True)
            return
        self.side.queue(presets)
        if self.since is None:
            self.since = time.monotonic()
        self.say("")

    def with_bots(self) -> None:
        wait = self.side.wait
        if wait is not None and wait["bots"] and wait["presets"]:
            self.side.accept_bots(wait["presets"][0])
            self.say(_("Opening a table with computer players…"))

    def back(self) -> None:
        if self.since is not None and self.side.client is not None:
            self.side.unqueue()
        self.since = None
        self.app.pop()

    def on_exit(self) -> None:
        super().on_exit()
        if self.since is not None and not self.handed and self.side.client is not None:
            self.side.unqueue()

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.handed:
            return
        self.side.poll()
        for refusal in self.side.refused:
            self.say(code_text(refusal["code"], refusal["message"]), bad=True)
            self.since = None
        self.side.refused.clear()
        wait = self.side.wait
        self.bots_button.visible = bool(
            self.queued and self.since is not None and wait is not None and wait["bots"]
        )
        if self.side.playing:
            self.handed = True
            session = self.side.session(self.app.storage.seats)
            self.app.open("table", mode="replace", session=session)

    # ------------------------------------------------------------------ layout

    def on_resize(self, size: tuple[int, int]) -> None:
        frame = self.page_frame(size, 900, scrolls=True)
        px = self.px
        self.panel = body = frame.body
        x, w = body.x + px(24), body.width - px(48)
        self.heading = pygame.Rect(x, body.y + px(12), w, px(30))
        y = self.heading.bottom + px(8)
        self.rows = []
        for toggle in self.toggles:
            toggle.rect = pygame.Rect(x, y, w - px(200), px(42))
            self.rows.append(pygame.Rect(x + w - px(190), y, px(190), px(42)))
            y += px(48)
        self.status_box = pygame.Rect(x, y + px(4), w, px(56))
        y = self.status_box.bottom + px(4)
        self.message_box = pygame.Rect(x, y, w, max(px(36), body.bottom - y - px(6)))
        self.back_button.rect = pygame.Rect(body.x, frame.buttons_y, px(210), frame.button_h)
        self.wait_button.rect = pygame.Rect(
            body.right - px(240), frame.buttons_y, px(240), frame.button_h
        )
        self.bots_button.rect = pygame.Rect(
            self.back_button.rect.right + px(16),
            frame.buttons_y,
            self.wait_button.rect.x - self.back_button.rect.right - px(32),
            frame.button_h,
        )

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        px = self.px
        self.draw_page(surface, _("Quick match"), self.panel)
        self.painter.fit(
            surface, _("The games you would play"), self.heading, px(22), theme.accent, bold=True
        )
        wait = self.side.wait
        counts = wait["waiting"] if wait is not None and self.queued else {}
        mine = set(wait["presets"]) if wait is not None else set()
        for name, box in zip(QUICK_PRESETS, self.rows, strict=True):
            if name in counts:
                self.painter.fit(
                    surface, waiting_text(counts[name], name in mine), box, px(18), theme.dim
                )
        if self.since is not None:
            lines = [
                _("Looking for players… you have waited {time}.").format(
                    time=waited_text(time.monotonic() - self.since)
                )
            ]
            if self.bots_button.visible:
                lines.append(
                    _(
                        "Nobody else yet: play now with computer players"
                        " (such a table is not rated)."
                    )
                )
            self.painter.paragraph(surface, "\n".join(lines), self.status_box, px(18), theme.text)
        self.draw_message(surface, self.message_box)
        self.group.draw(surface, self.app.assets, theme)
