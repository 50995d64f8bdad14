"""A group of widgets with one keyboard focus."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame

from briscola.gui.render.damage import Piece
from briscola.gui.widgets.base import Widget
from briscola.gui.widgets.slider import Slider
from briscola.gui.widgets.theme import Theme

if TYPE_CHECKING:
    from briscola.gui.render.assets import Assets


class WidgetGroup:
    """Widgets with one keyboard focus; routes mouse and key events to them."""

    def __init__(self, widgets: Sequence[Widget] = ()) -> None:
        self.widgets: list[Widget] = list(widgets)
        self.focus = 0
        self.keyboard_focus = False  # show the ring once the keyboard is used
        self._dragging: Slider | None = None

    def add(self, widget: Widget) -> Widget:
        self.widgets.append(widget)
        return widget

    def _focusable(self) -> list[int]:
        return [i for i, w in enumerate(self.widgets) if w.visible and w.enabled and w.focusable]

    @property
    def focused(self) -> Widget | None:
        if 0 <= self.focus < len(self.widgets):
            return self.widgets[self.focus]
        return None

    def move_focus(self, direction: int) -> None:
        order = self._focusable()
        if not order:
            return
        if self.focus not in order:
            self.focus = order[0]
            return
        self.focus = order[(order.index(self.focus) + direction) % len(order)]

    def focus_widget(self, widget: Widget) -> None:
        if widget in self.widgets:
            self.focus = self.widgets.index(widget)

    def handle_event(self, event: pygame.event.Event) -> bool:
        """True if a widget used the event."""
        if event.type == pygame.MOUSEMOTION:
            for widget in self.widgets:
                widget.hover = widget.visible and widget.rect.collidepoint(event.pos)
            if self._dragging is not None and event.buttons[0]:
                self._dragging.drag(event.pos)
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for i, widget in enumerate(self.widgets):
                if widget.visible and widget.enabled and widget.rect.collidepoint(event.pos):
                    self.focus = i
                    self.keyboard_focus = False
                    if isinstance(widget, Slider):
                        self._dragging = widget
                    widget.click(event.pos)
                    return True
            return False
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self._dragging = None
            return False
        if event.type == pygame.KEYDOWN:
            key = event.key
            forward = key in (pygame.K_DOWN, pygame.K_TAB) and not (
                key == pygame.K_TAB and event.mod & pygame.KMOD_SHIFT
            )
            backward = key == pygame.K_UP or (key == pygame.K_TAB and event.mod & pygame.KMOD_SHIFT)
            if forward or backward:
                # The first key shows where the focus is (the ring was hidden) rather than
                # moving it past the default choice unseen.
                shown = not self.keyboard_focus and self.focus in self._focusable()
                self.keyboard_focus = True
                if shown:
                    return True
                self.move_focus(1 if forward else -1)
                return True
            current = self.focused
            if current is None or not current.enabled:
                return False
            if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self.keyboard_focus = True
                current.activate()
                return True
            if key in (pygame.K_LEFT, pygame.K_RIGHT):
                self.keyboard_focus = True
                return current.step(-1 if key == pygame.K_LEFT else 1)
        return False

    def draw(self, surface: pygame.Surface, assets: Assets, theme: Theme) -> None:
        for _name, _look, draw in self.pieces(assets, theme):
            draw(surface)

    def pieces(self, assets: Assets, theme: Theme, name: str = "") -> list[Piece]:
        """The shown widgets, each as a name (``name`` and its place in the group), its
        look and what draws it and says where (for a frame drawn only where it changed)."""
        focused = self.focused if self.keyboard_focus else None
        pieces: list[Piece] = []
        for index, widget in enumerate(self.widgets):
            if widget.visible:
                on = widget is focused

                def draw(
                    surface: pygame.Surface, widget: Widget = widget, on: bool = on
                ) -> list[pygame.Rect]:
                    widget.draw(surface, assets, theme, on)
                    return [widget.bounds()]

                pieces.append(((name, index), widget.look(on), draw))
        return pieces
