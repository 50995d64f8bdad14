"""The colours of the interface: the normal theme and the high-contrast one."""

from __future__ import annotations

from dataclasses import dataclass

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
