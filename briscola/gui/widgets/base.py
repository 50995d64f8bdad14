"""The base of every widget: a focusable rectangle with a label made when drawn."""

from __future__ import annotations

from collections.abc import Callable
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
