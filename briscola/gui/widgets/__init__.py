"""Widgets usable with mouse and keyboard alone, one per module, and the theme.

Labels are callables (usually ``lambda: _("New game")``) so that a language change shows at
once. A :class:`WidgetGroup` keeps focus: Up/Down/Tab move it, Enter/Space activate,
Left/Right change a choice or slider; the focused widget has a visible ring. Everything is
importable from ``briscola.gui.widgets``.
"""

from __future__ import annotations

from briscola.gui.widgets.base import Label, Widget
from briscola.gui.widgets.button import Button
from briscola.gui.widgets.choice import Choice, Toggle
from briscola.gui.widgets.draw import (
    darken,
    draw_dialog,
    draw_focus,
    draw_panel,
    draw_solid_panel,
    fit_text,
    rounded,
    veiled_backdrop_under,
)
from briscola.gui.widgets.group import WidgetGroup
from briscola.gui.widgets.keys import PRESS_KEYS, is_press
from briscola.gui.widgets.option import VALUE_FRACTION, OptionChoice
from briscola.gui.widgets.primary import PrimaryButton
from briscola.gui.widgets.scrollbar import Scrollbar, scroll_keys
from briscola.gui.widgets.slider import Slider
from briscola.gui.widgets.text import (
    MIN_TEXT,
    DrawnText,
    TextPainter,
    draw_title,
    elide_middle,
    fitted_scale,
    scaled_px,
    scaler,
    wrap_text,
)
from briscola.gui.widgets.text_input import BLINK_MS, NAME_LENGTH, TextInput
from briscola.gui.widgets.theme import HIGH_CONTRAST, THEME, Colour, Theme

__all__ = [
    "BLINK_MS",
    "HIGH_CONTRAST",
    "MIN_TEXT",
    "NAME_LENGTH",
    "PRESS_KEYS",
    "THEME",
    "VALUE_FRACTION",
    "Button",
    "Choice",
    "Colour",
    "DrawnText",
    "Label",
    "OptionChoice",
    "PrimaryButton",
    "Scrollbar",
    "Slider",
    "TextInput",
    "TextPainter",
    "Theme",
    "Toggle",
    "Widget",
    "WidgetGroup",
    "darken",
    "draw_dialog",
    "draw_focus",
    "draw_panel",
    "draw_solid_panel",
    "draw_title",
    "elide_middle",
    "fit_text",
    "fitted_scale",
    "is_press",
    "rounded",
    "scaled_px",
    "scaler",
    "scroll_keys",
    "veiled_backdrop_under",
    "wrap_text",
]
