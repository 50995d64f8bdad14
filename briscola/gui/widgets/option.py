"""A choice that says why it is unavailable, optionally without its label."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pygame

from briscola.gui.widgets.base import Label
from briscola.gui.widgets.choice import Choice
from briscola.text.i18n import _

#: Share of a labelled row taken by its value box.
VALUE_FRACTION = 0.58


class OptionChoice(Choice):
    """A :class:`Choice` that says why it is unavailable, optionally without a label."""

    def __init__(
        self,
        label: Label,
        options: Sequence[tuple[Any, Label]],
        value: Any,
        on_change: Callable[[Any], None],
        disabled_text: Label | None = None,
        show_label: bool = True,
        name: str = "",
    ) -> None:
        super().__init__(label, options, value, on_change, name=name)
        self.disabled_text = disabled_text or (lambda: _("Not available"))
        self.show_label = show_label

    def set_options(self, options: Sequence[tuple[Any, Label]], value: Any) -> None:
        self.options = list(options)
        self.index = 0
        self.set_value(value)

    def _parts(self) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
        r = self.rect
        value_w = int(r.width * VALUE_FRACTION) if self.show_label else r.width
        arrow = min(r.height, value_w // 5)
        value = pygame.Rect(r.right - value_w, r.y, value_w, r.height)
        left = pygame.Rect(value.x, r.y, arrow, r.height)
        right = pygame.Rect(value.right - arrow, r.y, arrow, r.height)
        return left, value, right

    def shown(self) -> str:
        return super().shown() if self.enabled else self.disabled_text()
