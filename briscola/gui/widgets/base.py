"""The base of every widget: a focusable rectangle with a label made when drawn."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING

import pygame

from briscola.gui.widgets.theme import Theme

if TYPE_CHECKING:
    from briscola.gui.render.assets import Assets

Label = Callable[[], str]


class Widget:
    """Something focusable with a rectangle."""

    focusable = True

    def __init__(self, rect: pygame.Rect | None = None, enabled: bool = True) -> None:
        self.rect = rect or pygame.Rect(0, 0, 10, 10)
        self.enabled = enabled
        self.hover = False
        self.visible = True

    def activate(self) -> None:
        """Enter/Space or click."""

    def step(self, direction: int) -> bool:
        """Left/Right: change the value. True if handled."""
        return False

    def click(self, pos: tuple[int, int]) -> None:
        self.activate()

    def draw(self, surface: pygame.Surface, assets: Assets, theme: Theme, focused: bool) -> None:
        raise NotImplementedError

    def look(self, focused: bool) -> Hashable | None:
        """Everything the drawing depends on besides the theme (equal looks draw equal
        pixels); None when it cannot say (drawn again every frame)."""
        return None

    def bounds(self) -> pygame.Rect:
        """Where the drawing lies: the rectangle, with room for a shadow and the focus ring."""
        return self.rect.inflate(12, 12 + self.rect.height // 8)
