"""A one-line text field."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from briscola.gui.widgets.base import Label, Widget
from briscola.gui.widgets.draw import draw_focus, fit_text
from briscola.gui.widgets.theme import Theme

if TYPE_CHECKING:
    from briscola.gui.render.assets import Assets

#: Longest name a player may type.
NAME_LENGTH = 16
#: Milliseconds the text caret stays on, then off.
BLINK_MS = 530


class TextInput(Widget):
    """A one-line text field: type when it has the focus (click it, or Tab/arrows to it).

    Left/Right move the caret, Home/End jump, Backspace/Delete erase; Enter moves on.
    Text arrives as ``TEXTINPUT`` events, so accents and other layouts work.
    """

    def __init__(
        self,
        text: str,
        on_change: Callable[[str], None],
        placeholder: Label,
        max_length: int = NAME_LENGTH,
        on_enter: Callable[[], None] | None = None,
        name: str = "",
    ) -> None:
        super().__init__()
        self.text = text[:max_length]
        self.cursor = len(self.text)
        self.on_change = on_change
        self.placeholder = placeholder
        self.max_length = max_length
        self.on_enter = on_enter
        self.name = name
        self.active = False  # has the focus (drawn with a caret)

    # editing
    def insert(self, text: str) -> None:
        text = "".join(ch for ch in text if ch.isprintable())
        room = self.max_length - len(self.text)
        if not text or room <= 0:
            return
        text = text[:room]
        self.text = self.text[: self.cursor] + text + self.text[self.cursor :]
        self.cursor += len(text)
        self.on_change(self.text)

    def backspace(self) -> None:
        if self.cursor > 0:
            self.text = self.text[: self.cursor - 1] + self.text[self.cursor :]
            self.cursor -= 1
            self.on_change(self.text)

    def delete(self) -> None:
        if self.cursor < len(self.text):
            self.text = self.text[: self.cursor] + self.text[self.cursor + 1 :]
            self.on_change(self.text)

    def set_text(self, text: str) -> None:
        self.text = text[: self.max_length]
        self.cursor = len(self.text)

    def step(self, direction: int) -> bool:
        self.cursor = max(0, min(len(self.text), self.cursor + direction))
        return True

    def activate(self) -> None:
        if self.on_enter is not None:
            self.on_enter()

    def handle_input(self, event: pygame.event.Event) -> bool:
        """Typing while focused; True if the event was used."""
        if event.type == pygame.TEXTINPUT:
            self.insert(event.text)
            return True
        if event.type != pygame.KEYDOWN:
            return False
        key = event.key
        if key == pygame.K_BACKSPACE:
            if event.mod & pygame.KMOD_CTRL:
                self.set_text("")
                self.on_change(self.text)
            else:
                self.backspace()
            return True
        if key == pygame.K_DELETE:
            self.delete()
            return True
        if key == pygame.K_HOME:
            self.cursor = 0
            return True
        if key == pygame.K_END:
            self.cursor = len(self.text)
            return True
        # Space arrives as TEXTINPUT: do not let the widget group treat it as a press.
        return bool(key == pygame.K_SPACE)

    def font_size(self, assets: Assets) -> int:
        shown = self.text or self.placeholder()
        return fit_text(assets, shown, int(self.rect.height * 0.46), self.text_box().width)

    def text_box(self) -> pygame.Rect:
        pad = max(6, self.rect.height // 4)
        return self.rect.inflate(-2 * pad, 0)

    def click(self, pos: tuple[int, int]) -> None:
        # Put the caret where clicked (the group has already given this field the focus).
        self.cursor = len(self.text)

    def draw(self, surface: pygame.Surface, assets: Assets, theme: Theme, focused: bool) -> None:
        r = self.rect
        radius = max(4, r.height // 4)
        field_colour = (0, 0, 0, 150) if not self.active else (0, 0, 0, 200)
        back = pygame.Surface(r.size, pygame.SRCALPHA)
        pygame.draw.rect(back, field_colour, back.get_rect(), border_radius=radius)
        surface.blit(back, r)
        border = theme.accent if self.active else (theme.dim if self.hover else theme.outline)
        pygame.draw.rect(surface, border, r, width=2 if self.active else 1, border_radius=radius)
        box = self.text_box()
        size = self.font_size(assets)
        if self.text:
            image = assets.text(self.text, size, theme.text, bold=True)
        else:
            image = assets.text(self.placeholder(), size, theme.dim)
        rect = image.get_rect(midleft=box.midleft)
        surface.blit(image, rect)
        if self.active and (pygame.time.get_ticks() // BLINK_MS) % 2 == 0:
            x = box.x + assets.font(size, True).size(self.text[: self.cursor])[0]
            if not self.text:
                x = box.x
            top, bottom = r.centery - size * 0.6, r.centery + size * 0.6
            pygame.draw.line(surface, theme.accent, (x + 1, top), (x + 1, bottom), 2)
        if focused:
            draw_focus(surface, r, theme, radius)
