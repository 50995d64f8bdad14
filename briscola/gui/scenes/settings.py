"""The Settings screen: cards, table, animation, sound, display and language.

Every change applies at once: the scene changes ``app.settings`` and calls
``app.settings_changed()``, which saves the file and tells every scene (the table below
this screen included) to redraw with the new look.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from briscola.gui.widgets import (
    VALUE_FRACTION,
    Button,
    Label,
    OptionChoice,
    Slider,
    Theme,
    WidgetGroup,
    is_press,
)
from briscola.gui.widgets.deckpicker import DeckPicker
from briscola.gui.widgets.page import PageScene
from briscola.text.decks import catalogue, deck_info
from briscola.text.i18n import LANGUAGES, _, current_language, system_language

if TYPE_CHECKING:
    from briscola.gui.render.assets import Assets
    from briscola.gui.scene import Services

#: UI scale steps offered (the settings file accepts 0.8 to 1.6).
UI_SCALES = (0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6)
#: Seconds between saves while the volume slider is dragged.
DRAG_SAVE_DELAY = 0.4


def percent(scale: float) -> str:
    return f"{round(scale * 100)}%"


#: The language row's value while ``--lang`` holds (never stored in the settings).
COMMAND_LINE = "--lang"


def language_options(override: str | None = None) -> list[tuple[str, Label]]:
    """The language ``--lang`` set when it holds, Automatic (the system's language), then each
    language in its own language."""
    options: list[tuple[str, Label]] = []
    if override is not None:
        name = LANGUAGES.get(override, override)
        options.append((COMMAND_LINE, lambda: _("{language} (--lang)").format(language=name)))
    options.append(
        ("", lambda: _("Automatic ({language})").format(language=LANGUAGES[system_language()]))
    )
    options += [(code, partial(str, name)) for code, name in LANGUAGES.items()]
    return options


class RowSlider(Slider):
    """A slider whose track lines up with the value boxes of the rows above and below."""

    def _track(self) -> pygame.Rect:
        r = self.rect
        width = int(r.width * VALUE_FRACTION)
        return pygame.Rect(r.right - width + 12, r.centery - 4, width - 24, 8)

    def draw(self, surface: pygame.Surface, assets: Assets, theme: Theme, focused: bool) -> None:
        # Outline the track first so its empty part shows on any panel (high contrast too).
        track = self._track().inflate(2, 2)
        pygame.draw.rect(surface, theme.dim, track, width=1, border_radius=5)
        super().draw(surface, assets, theme, focused)


class SettingsScene(PageScene):
    """All the player's settings, applied live."""

    def __init__(self, app: Services) -> None:
        super().__init__(app)
        settings = app.settings
        off_on: list[tuple[Any, Label]] = [(False, lambda: _("Off")), (True, lambda: _("On"))]

        def choice(
            setting: str, label: Label, options: list[tuple[Any, Label]], **kwargs: Any
        ) -> OptionChoice:
            widget = OptionChoice(
                label,
                options,
                getattr(settings, setting),
                lambda value: self.change(setting, value),
                name=kwargs.pop("name", setting),
                **kwargs,
            )
            self.settings_of[widget] = setting
            return widget

        self.settings_of: dict[OptionChoice, str] = {}

        self.deck = choice(
            "deck",
            lambda: _("Deck"),
            [
                (info.id, partial(lambda info: info.title(current_language()), info))
                for info in catalogue().playable()
            ],
        )
        self.picker = DeckPicker(
            catalogue().playable,
            lambda: settings.deck,
            lambda: settings.deck_cycle,
            lambda deck: self.change("deck", deck),
            self.toggle_cycle,
            lambda: settings.four_colour,
            lambda: settings.back,
        )
        self.four_colour = choice(
            "four_colour",
            lambda: _("Four-colour suits"),
            off_on,
            disabled_text=lambda: _("Not offered by this deck"),
        )
        self.back_choice = choice(
            "back",
            lambda: _("Card back"),
            [
                ("classic", lambda: _("Classic")),
                ("blue", lambda: _("Blue")),
                ("felt", lambda: _("Felt green")),
                ("deck", lambda: _("The deck's own")),
            ],
            name="card_back",
        )
        self.table = choice(
            "table",
            lambda: _("Table"),
            [("felt", lambda: _("Green felt")), ("wood", lambda: _("Wood"))],
        )
        self.high_contrast = choice("high_contrast", lambda: _("High-contrast table"), off_on)
        self.speed = choice(
            "speed",
            lambda: _("Animation speed"),
            [
                ("slow", lambda: _("Slow")),
                ("normal", lambda: _("Normal")),
                ("fast", lambda: _("Fast")),
                ("off", lambda: _("No animation")),
            ],
        )
        self.reduce_motion = choice("reduce_motion", lambda: _("Reduce motion"), off_on)
        self.show_score = choice("show_score", lambda: _("Show the running score"), off_on)
        self.coach_values = choice("coach_values", lambda: _("Card values"), off_on)
        self.memory_aid = choice("memory_aid", lambda: _("Memory aid"), off_on)
        self.sound = choice("sound", lambda: _("Sound"), off_on)
        self.volume = RowSlider(
            lambda: _("Volume"), settings.volume, self.set_volume, step=0.1, name="volume"
        )
        self.fullscreen = choice("fullscreen", lambda: _("Full screen"), off_on)
        self.language = choice(
            "language", lambda: _("Language"), language_options(app.language_override)
        )
        self.ui_scale = choice(
            "ui_scale",
            lambda: _("Text and controls size"),
            [(scale, partial(percent, scale)) for scale in UI_SCALES],
        )
        self.ui_scale.set_value(min(UI_SCALES, key=lambda scale: abs(scale - settings.ui_scale)))
        self.done_button = Button(lambda: _("Back"), self.close, name="back")
        self.look_rows = [
            self.deck,
            self.four_colour,
            self.back_choice,
            self.table,
            self.high_contrast,
        ]
        self.play_rows = [
            self.speed,
            self.reduce_motion,
            self.show_score,
            self.coach_values,
            self.memory_aid,
            self.sound,
            self.volume,
            self.fullscreen,
            self.language,
            self.ui_scale,
        ]
        self.group = WidgetGroup([*self.look_rows, self.picker, *self.play_rows, self.done_button])
        self._save_in: float | None = None
        #: Where the last mouse button event was (the size row's arrows stay under it).
        self._pointer: tuple[int, int] | None = None
        self.left_panel = pygame.Rect(0, 0, 1, 1)
        self.right_panel = pygame.Rect(0, 0, 1, 1)
        self.look_heading = pygame.Rect(0, 0, 1, 1)
        self.play_heading = pygame.Rect(0, 0, 1, 1)
        self.preview_box = pygame.Rect(0, 0, 1, 1)
        self._refresh()

    # ------------------------------------------------------------------ changes

    def widget(self, name: str) -> Any:
        return next(w for w in self.group.widgets if getattr(w, "name", "") == name)

    def change(self, name: str, value: Any) -> None:
        """Set one setting and apply it everywhere."""
        if name == "language":
            if value == COMMAND_LINE:
                return  # what --lang set is not a setting
            self.app.end_language_override()  # the player picked: --lang no longer holds
        arrow = self._arrow_under_pointer() if name == "ui_scale" else None
        setattr(self.app.settings, name, value)
        cycle = self.app.settings.deck_cycle
        if name == "deck" and cycle and value not in cycle:
            self.app.settings.toggle_cycle(value)  # a deck chosen here is one D comes back to
        self._apply()
        if arrow is not None:
            self._keep_under_pointer(arrow)
        if name == "sound" and value:
            self.app.audio.play("click")

    def _arrow_under_pointer(self) -> int | None:
        """Which arrow of the size row the last click was on (0 left, 2 right), if any."""
        if self._pointer is None:
            return None
        parts = self.ui_scale._parts()
        return next((i for i in (0, 2) if parts[i].collidepoint(self._pointer)), None)

    def _keep_under_pointer(self, arrow: int) -> None:
        """The page was laid out at the new size: the arrow clicked goes back under the
        pointer (issue 50: it moved away after each click), by scrolling the page where it
        scrolls, else by moving the pointer onto it."""
        assert self._pointer is not None
        x, y = self._pointer
        rect = self.ui_scale._parts()[arrow]
        if not rect.collidepoint(x, y):
            self.scroll_page_to(self.page_scroll + rect.centery - y)
            rect = self.ui_scale._parts()[arrow]
        if not rect.collidepoint(x, y):
            self._pointer = rect.center
            pygame.mouse.set_pos(rect.center)

    def toggle_cycle(self, deck: str) -> None:
        """Tick or untick a deck for the D key."""
        self.app.settings.toggle_cycle(deck)
        self._apply()

    def set_volume(self, value: float) -> None:
        self.app.settings.volume = value
        self.app.audio.configure(self.app.settings.sound, value)
        if self.group._dragging is self.volume:
            self._save_in = DRAG_SAVE_DELAY  # save once the dragging calms down
        else:
            self._apply()
            self.app.audio.play("click")

    def _apply(self) -> None:
        self._save_in = None
        self.app.settings_changed()
        self._refresh()

    def _refresh(self) -> None:
        settings = self.app.settings
        info = deck_info(settings.deck)
        self.four_colour.enabled = info is not None and info.four_colour is not None
        self.volume.value = settings.volume
        override = self.app.language_override
        self.language.options = language_options(override)
        for widget, setting in self.settings_of.items():
            value = getattr(settings, setting)
            if setting == "ui_scale":
                value = min(UI_SCALES, key=lambda scale: abs(scale - settings.ui_scale))
            if setting == "language" and override is not None:
                value = COMMAND_LINE
            widget.set_value(value)

    def close(self) -> None:
        if self._save_in is not None:
            self._apply()
        self.app.pop()

    # ------------------------------------------------------------------ layout

    def on_resize(self, size: tuple[int, int]) -> None:
        w = size[0]
        frame = self.page_frame(size, 1180, scrolls=True, columns=True)
        px = self.px
        button_h = frame.button_h
        self.left_panel, self.right_panel = frame.columns(px(18))
        pad = px(16)
        row_h, row_gap = px(38), px(9)
        for panel, rows, attr in (
            (self.left_panel, self.look_rows, "look_heading"),
            (self.right_panel, self.play_rows, "play_heading"),
        ):
            x, inner_w = panel.x + pad, panel.width - 2 * pad
            heading = pygame.Rect(x, panel.y + px(10), inner_w, px(32))
            setattr(self, attr, heading)
            y = heading.bottom + px(8)
            for widget in rows:
                widget.rect = pygame.Rect(x, y, inner_w, row_h)
                y += row_h + row_gap
            if panel is self.left_panel:
                self.preview_box = pygame.Rect(x, y + px(6), inner_w, panel.bottom - y - px(16))
                self.picker.rect = self.preview_box
                self.picker.scale = px(100) / 100
        bw = px(210)
        self.done_button.rect = pygame.Rect(w // 2 - bw // 2, frame.buttons_y, bw, button_h)

    def on_settings_changed(self) -> None:
        super().on_settings_changed()
        self._refresh()

    # ------------------------------------------------------------------ events

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.audio.play("click", 0.6)
            self.close()
            return
        if self.page_event(event):
            return  # the page scrolled (a UI scale larger than the window)
        dragging = self.group._dragging is self.volume
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self._pointer = event.pos
        elif event.type == pygame.KEYDOWN:
            self._pointer = None  # a key changed it: the pointer stays where it is
        used = self.group.handle_event(event)
        if used and is_press(event) and self.group.focused is not self.volume:
            self.app.audio.play("click", 0.6)
        self.show_focus(self.group, event)
        if dragging and event.type == pygame.MOUSEBUTTONUP and self._save_in is not None:
            self._apply()

    def update(self, dt: float) -> None:
        if self._save_in is not None:
            self._save_in -= dt
            if self._save_in <= 0:
                self._apply()

    # ------------------------------------------------------------------ drawing

    def next_frame_in(self) -> float | None:
        return self._save_in  # a pending save of a dragged slider, else still

    def draw(self, surface: pygame.Surface) -> None:
        app = self.app
        theme = app.theme
        px = self.px
        painter = self.painter
        self.draw_page(surface, _("Settings"), self.left_panel, self.right_panel)
        painter.fit(surface, _("Cards and table"), self.look_heading, px(24), theme.accent, True)
        painter.fit(
            surface, _("Play, sound and display"), self.play_heading, px(24), theme.accent, True
        )
        self.group.draw(surface, app.assets, theme)
