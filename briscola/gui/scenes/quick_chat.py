"""Quick chat at an online table (the table's menu, Esc, then **Quick chat**): the phrases
and faces of :data:`~briscola.protocol.people.QUICK_CHAT`, each in the player's language,
sent as codes (every other player reads them in theirs); and, for each other person at
the table, **Mute** (their quick chat is no longer shown; again: **Unmute**) and
**Report** (to the server's operator, once). Choosing a phrase goes back to the table.
What the others say is shown at the top of the window (the table's banner).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from briscola.client.chat import phrase_text
from briscola.client.session import RemoteSession
from briscola.gui.scene import Scene
from briscola.gui.widgets import Button, WidgetGroup, draw_dialog
from briscola.gui.widgets.text import TextPainter
from briscola.protocol.people import FACES, PHRASES
from briscola.text.i18n import _

if TYPE_CHECKING:
    from briscola.gui.scene import Services

__all__ = ["QuickChatScene", "people_here"]

#: Phrase buttons in a row.
COLUMNS = 3


def people_here(session: RemoteSession) -> list[tuple[int, str]]:
    """The other people at the table (seat, name): those the player may mute or report."""
    table = session.table
    if table is None:
        return []
    return [
        (entry["seat"], entry["name"])
        for entry in table["seats"]
        if entry["kind"] == "human"
        and entry.get("claimed")
        and entry["name"]
        and entry["seat"] != session.seat
    ]


class QuickChatScene(Scene):
    opaque = False

    def __init__(self, app: Services, table: Scene) -> None:
        super().__init__(app)
        self.table = table
        session = getattr(table, "session", None)
        if not isinstance(session, RemoteSession):
            raise ValueError("quick chat is for an online table")
        self.session = session
        self.phrases = [self._say_button(code) for code in (*PHRASES, *FACES)]
        self.people = people_here(session)
        self.mute_buttons = [self._mute_button(seat, name) for seat, name in self.people]
        self.report_buttons = [self._report_button(seat) for seat, _name in self.people]
        self.back_button = Button(lambda: _("Back to the table"), app.pop, name="back")
        self.group = WidgetGroup(
            [*self.phrases, *self.mute_buttons, *self.report_buttons, self.back_button]
        )
        self.group.keyboard_focus = True
        #: Seats reported from here (their button is greyed).
        self.reported: set[int] = set()
        self.panel = pygame.Rect(0, 0, 10, 10)
        self.name_boxes: list[pygame.Rect] = []
        self.painter = TextPainter(app.assets)

    def _say_button(self, code: str) -> Button:
        return Button(lambda: phrase_text(code) or code, lambda: self.say(code), name=f"say_{code}")

    def _mute_button(self, seat: int, name: str) -> Button:
        def label() -> str:
            return _("Unmute") if not self.session.muted.shows(name) else _("Mute")

        def toggle() -> None:
            self.session.muted.toggle(name)

        return Button(label, toggle, name=f"mute_{seat}")

    def _report_button(self, seat: int) -> Button:
        def label() -> str:
            return _("Reported") if seat in self.reported else _("Report")

        return Button(label, lambda: self.report_seat(seat), name=f"report_{seat}")

    # ------------------------------------------------------------------ actions

    def say(self, code: str) -> None:
        self.session.say(code)
        self.app.pop()

    def report_seat(self, seat: int) -> None:
        if seat in self.reported:
            return
        self.reported.add(seat)
        self.session.report_seat(seat)
        index = [each for each, _name in self.people].index(seat)
        self.report_buttons[index].enabled = False

    # ------------------------------------------------------------------ layout

    def on_resize(self, size: tuple[int, int]) -> None:
        px = self.app.px
        bh, gap, pad = px(38), px(6), px(20)
        width = min(size[0] - px(20), px(640))
        rows = -(-len(PHRASES) // COLUMNS) + 1 + len(self.people) + 1
        height = px(60) + rows * (bh + gap) + pad
        self.panel = pygame.Rect(0, 0, width, height)
        self.panel.center = (size[0] // 2, size[1] // 2)
        inner = width - 2 * pad
        y = self.panel.y + px(60)
        column = (inner - (COLUMNS - 1) * gap) // COLUMNS
        for i, button in enumerate(self.phrases[: len(PHRASES)]):
            row, col = divmod(i, COLUMNS)
            x = self.panel.x + pad + col * (column + gap)
            button.rect = pygame.Rect(x, y + row * (bh + gap), column, bh)
        y += -(-len(PHRASES) // COLUMNS) * (bh + gap)
        face = (inner - (len(FACES) - 1) * gap) // len(FACES)
        for i, button in enumerate(self.phrases[len(PHRASES) :]):
            button.rect = pygame.Rect(self.panel.x + pad + i * (face + gap), y, face, bh)
        y += bh + gap
        self.name_boxes = []
        action = (inner - 2 * gap) // 4
        for mute, report in zip(self.mute_buttons, self.report_buttons, strict=True):
            name_w = inner - 2 * (action + gap)
            self.name_boxes.append(pygame.Rect(self.panel.x + pad, y, name_w, bh))
            mute.rect = pygame.Rect(self.panel.x + pad + name_w + gap, y, action, bh)
            report.rect = pygame.Rect(mute.rect.right + gap, y, action, bh)
            y += bh + gap
        back_w = min(inner, px(280))
        self.back_button.rect = pygame.Rect(self.panel.centerx - back_w // 2, y, back_w, bh)

    # ------------------------------------------------------------------ input and drawing

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()
            return
        if self.group.handle_event(event) and event.type in (
            pygame.MOUSEBUTTONDOWN,
            pygame.KEYDOWN,
        ):
            self.app.audio.play("click", 0.6)

    def next_frame_in(self) -> float | None:
        return None  # still until input

    def report(self) -> dict[str, Any]:
        data = super().report()
        data["people"] = [name for _seat, name in self.people]
        return data

    def draw(self, surface: pygame.Surface) -> None:
        self.painter.begin()
        theme, px = self.app.theme, self.app.px
        draw_dialog(surface, self.panel, self.app.draw_backdrop, theme, max(1, px(2)))
        title = pygame.Rect(self.panel.x + px(20), self.panel.y + px(12), 0, px(40))
        title.width = self.panel.width - px(40)
        self.painter.fit(surface, _("Quick chat"), title, px(28), theme.accent, True, "center")
        for box, (_seat, name) in zip(self.name_boxes, self.people, strict=True):
            self.painter.fit(surface, name, box, px(20), theme.text)
        self.group.draw(surface, self.app.assets, theme)
