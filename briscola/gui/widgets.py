"""Buttons, choices, toggles and sliders, usable with mouse and keyboard alone.

Labels are callables (usually ``lambda: _("New game")``) so that a language change shows at
once. A :class:`WidgetGroup` keeps focus: Up/Down/Tab move it, Enter/Space activate, Left/Right
change a choice or slider; the focused widget has a visible ring.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

if TYPE_CHECKING:
    from .assets import Assets

Label = Callable[[], str]
Colour = tuple[int, int, int]


@dataclass(frozen=True)
class Theme:
    text: Colour = (244, 238, 222)
    dim: Colour = (170, 180, 170)
    panel: tuple[int, int, int, int] = (10, 30, 20, 200)
    button: Colour = (38, 84, 58)
    button_hover: Colour = (54, 112, 78)
    button_text: Colour = (250, 246, 232)
    disabled: Colour = (70, 80, 74)
    accent: Colour = (236, 190, 72)
    focus: Colour = (255, 214, 90)
    danger: Colour = (200, 70, 60)
    outline: Colour = (12, 28, 18)


THEME = Theme()
HIGH_CONTRAST = Theme(
    text=(255, 255, 255),
    dim=(230, 230, 230),
    panel=(0, 0, 0, 235),
    button=(0, 0, 0),
    button_hover=(40, 40, 40),
    button_text=(255, 255, 255),
    disabled=(90, 90, 90),
    accent=(255, 230, 0),
    focus=(255, 255, 0),
    danger=(255, 90, 90),
    outline=(255, 255, 255),
)


@functools.lru_cache(maxsize=256)
def rounded(
    size: tuple[int, int], colour: tuple[int, int, int, int], radius: int
) -> pygame.Surface:
    """A translucent rounded rectangle, cached (panels are drawn every frame)."""
    panel = pygame.Surface(size, pygame.SRCALPHA)
    pygame.draw.rect(panel, colour, panel.get_rect(), border_radius=radius)
    return panel


def draw_panel(
    surface: pygame.Surface, rect: pygame.Rect, theme: Theme = THEME, radius: int = 14
) -> None:
    """A translucent rounded panel."""
    surface.blit(rounded(rect.size, theme.panel, radius), rect.topleft)


def fit_text(assets: Assets, text: str, size: int, width: int, bold: bool = False) -> int:
    """The largest font size <= ``size`` at which ``text`` fits ``width`` pixels."""
    return assets.fit(text, size, width, bold)


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


class Button(Widget):
    def __init__(
        self,
        label: Label,
        on_click: Callable[[], None],
        rect: pygame.Rect | None = None,
        enabled: bool = True,
        name: str = "",
    ) -> None:
        super().__init__(rect, enabled)
        self.label = label
        self.on_click = on_click
        self.name = name

    def activate(self) -> None:
        if self.enabled:
            self.on_click()

    def draw(self, surface: pygame.Surface, assets: Assets, theme: Theme, focused: bool) -> None:
        colour = theme.button_hover if (self.hover or focused) and self.enabled else theme.button
        if not self.enabled:
            colour = theme.disabled
        radius = max(4, self.rect.height // 4)
        shadow = self.rect.move(0, max(2, self.rect.height // 16))
        pygame.draw.rect(surface, (0, 0, 0), shadow, border_radius=radius)
        pygame.draw.rect(surface, colour, self.rect, border_radius=radius)
        pygame.draw.rect(surface, theme.outline, self.rect, width=1, border_radius=radius)
        size = fit_text(assets, self.label(), int(self.rect.height * 0.45), self.rect.width - 16)
        text_colour = theme.button_text if self.enabled else theme.dim
        text = assets.text(self.label(), size, text_colour, bold=True)
        surface.blit(text, text.get_rect(center=self.rect.center))
        if focused:
            draw_focus(surface, self.rect, theme, radius)


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


class Slider(Widget):
    """A value from 0 to 1 in steps of ``step``."""

    def __init__(
        self,
        label: Label,
        value: float,
        on_change: Callable[[float], None],
        rect: pygame.Rect | None = None,
        step: float = 0.1,
        name: str = "",
    ) -> None:
        super().__init__(rect)
        self.label = label
        self.value = value
        self.on_change = on_change
        self.step_size = step
        self.name = name

    def _track(self) -> pygame.Rect:
        r = self.rect
        width = int(r.width * 0.48)
        return pygame.Rect(r.right - width + 10, r.centery - 4, width - 20, 8)

    def step(self, direction: int) -> bool:
        new = round(min(1.0, max(0.0, self.value + direction * self.step_size)), 3)
        if new != self.value:
            self.value = new
            self.on_change(new)
        return True

    def click(self, pos: tuple[int, int]) -> None:
        track = self._track()
        if track.inflate(0, self.rect.height).collidepoint(pos):
            new = round(min(1.0, max(0.0, (pos[0] - track.x) / max(1, track.width))), 2)
            self.value = new
            self.on_change(new)

    def drag(self, pos: tuple[int, int]) -> None:
        self.click(pos)

    def draw(self, surface: pygame.Surface, assets: Assets, theme: Theme, focused: bool) -> None:
        r = self.rect
        track = self._track()
        label = f"{self.label()}  {round(self.value * 100)}%"
        size = fit_text(assets, label, int(r.height * 0.46), track.x - r.x - 20)
        text = assets.text(label, size, theme.text)
        surface.blit(text, text.get_rect(midleft=(r.x + 8, r.centery)))
        pygame.draw.rect(surface, theme.button, track, border_radius=4)
        filled = track.copy()
        filled.width = int(track.width * self.value)
        pygame.draw.rect(surface, theme.accent, filled, border_radius=4)
        knob = (track.x + filled.width, track.centery)
        pygame.draw.circle(surface, theme.button_text, knob, max(6, r.height // 4))
        if focused:
            draw_focus(surface, r, theme, max(4, r.height // 4))


def draw_focus(surface: pygame.Surface, rect: pygame.Rect, theme: Theme, radius: int) -> None:
    """The keyboard focus ring."""
    pygame.draw.rect(surface, theme.focus, rect.inflate(8, 8), width=3, border_radius=radius + 4)


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
            widget = self.focused
            if widget is None or not widget.enabled:
                return False
            if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self.keyboard_focus = True
                widget.activate()
                return True
            if key in (pygame.K_LEFT, pygame.K_RIGHT):
                self.keyboard_focus = True
                return widget.step(-1 if key == pygame.K_LEFT else 1)
        return False

    def draw(self, surface: pygame.Surface, assets: Assets, theme: Theme) -> None:
        focused = self.focused if self.keyboard_focus else None
        for widget in self.widgets:
            if widget.visible:
                widget.draw(surface, assets, theme, widget is focused)
