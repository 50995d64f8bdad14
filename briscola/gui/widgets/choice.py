"""A choice among options (Left/Right or the arrows change it) and an on/off toggle."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import pygame

from briscola.gui.widgets.base import Label, Widget
from briscola.gui.widgets.draw import draw_focus, fit_text
from briscola.gui.widgets.theme import Theme

if TYPE_CHECKING:
    from briscola.gui.render.assets import Assets


class Choice(Widget):
    """A labelled value chosen from options with Left/Right or by clicking the arrows."""

    def __init__(
        self,
        label: Label,
        options: Sequence[tuple[Any, Label]],
        value: Any,
        on_change: Callable[[Any], None],
        rect: pygame.Rect | None = None,
        name: str = "",
    ) -> None:
        super().__init__(rect)
        self.label = label
        self.options = list(options)
        self.on_change = on_change
        self.name = name
        self.show_label = True
        values = [v for v, _ in self.options]
        self.index = values.index(value) if value in values else 0

    @property
    def value(self) -> Any:
        return self.options[self.index][0]

    def set_value(self, value: Any) -> None:
        values = [v for v, _ in self.options]
        if value in values:
            self.index = values.index(value)

    def step(self, direction: int) -> bool:
        if not self.enabled or len(self.options) < 2:
            return False
        self.index = (self.index + direction) % len(self.options)
        self.on_change(self.value)
        return True

    def activate(self) -> None:
        self.step(1)

    def click(self, pos: tuple[int, int]) -> None:
        left, _value, _right = self._parts()
        self.step(-1 if left.collidepoint(pos) else 1)

    def _parts(self) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
        r = self.rect
        value_w = int(r.width * 0.48)
        arrow = r.height
        value = pygame.Rect(r.right - value_w, r.y, value_w, r.height)
        left = pygame.Rect(value.x, r.y, arrow, r.height)
        right = pygame.Rect(value.right - arrow, r.y, arrow, r.height)
        return left, value, right

    def label_box(self) -> pygame.Rect:
        """Where the label is drawn (the layout tests check that it fits)."""
        value = self._parts()[1]
        return pygame.Rect(
            self.rect.x + 8, self.rect.y, value.x - self.rect.x - 20, self.rect.height
        )

    def value_box(self) -> pygame.Rect:
        """Where the value is drawn, between the arrows."""
        left, value, _right = self._parts()
        return value.inflate(-2 * left.width, 0)

    def shown(self) -> str:
        """The value's text."""
        return self.options[self.index][1]()

    def draw(self, surface: pygame.Surface, assets: Assets, theme: Theme, focused: bool) -> None:
        r = self.rect
        left, value, right = self._parts()
        if self.show_label:
            box = self.label_box()
            label = self.label()
            size = fit_text(assets, label, int(r.height * 0.46), box.width)
            text = assets.text(label, size, theme.text if self.enabled else theme.dim)
            surface.blit(text, text.get_rect(midleft=box.midleft))
        radius = max(4, r.height // 4)
        if self.enabled:
            fill = theme.button_hover if self.hover or focused else theme.button
        else:
            fill = theme.disabled
        pygame.draw.rect(surface, fill, value, border_radius=radius)
        pygame.draw.rect(surface, theme.outline, value, width=1, border_radius=radius)
        shown = self.shown()
        inner = self.value_box()
        size = fit_text(assets, shown, int(r.height * 0.44), inner.width, bold=self.enabled)
        colour = theme.button_text if self.enabled else theme.dim
        vtext = assets.text(shown, size, colour, bold=self.enabled)
        surface.blit(vtext, vtext.get_rect(center=value.center))
        if len(self.options) > 1 and self.enabled:
            for rect, direction in ((left, -1), (right, 1)):
                cx, cy = rect.center
                s = rect.height * 0.15
                points = [
                    (cx - s * direction, cy - s * 1.4),
                    (cx + s * direction, cy),
                    (cx - s * direction, cy + s * 1.4),
                ]
                pygame.draw.polygon(surface, theme.accent, points)
        if focused:
            draw_focus(surface, r, theme, radius)


class Toggle(Choice):
    def __init__(
        self,
        label: Label,
        value: bool,
        on_change: Callable[[Any], None],
        on_text: Label,
        off_text: Label,
        rect: pygame.Rect | None = None,
        name: str = "",
    ) -> None:
        super().__init__(label, [(False, off_text), (True, on_text)], value, on_change, rect, name)
