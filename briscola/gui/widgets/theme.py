"""The colours of the interface: the normal theme and the high-contrast one."""

from __future__ import annotations

from dataclasses import dataclass

Colour = tuple[int, int, int]
Translucent = tuple[int, int, int, int]


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
    #: The two teams (and, in Chiamata, the caller's side and the others), everywhere.
    teams: tuple[Colour, Colour] = ((86, 156, 236), (232, 112, 86))
    #: Seats playing each for themselves, by seat.
    seats: tuple[Colour, ...] = (
        (86, 156, 236),
        (232, 112, 86),
        (120, 200, 120),
        (220, 180, 70),
        (190, 120, 220),
        (90, 200, 200),
    )
    #: A seat on the New game diagram before teams are known.
    seat: Colour = (206, 194, 160)
    #: The dark chip under a name on the table.
    chip: Colour = (12, 24, 18)
    #: Dark, translucent backs under text on the table (alpha given where used).
    shade: Colour = (0, 0, 0)
    #: Speech bubbles: paper, ink, edge.
    paper: Colour = (250, 246, 232)
    ink: Colour = (30, 30, 30)
    edge: Colour = (40, 40, 40)
    #: The dealer's button and its letter.
    token: Colour = (240, 236, 220)
    token_ink: Colour = (20, 20, 20)
    #: The felt behind the hot-seat screen, and the faint ring of the trick area.
    felt: Colour = (10, 26, 18)
    ring: Translucent = (255, 255, 255, 18)


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
    teams=((110, 180, 255), (255, 130, 100)),
    seats=(
        (110, 180, 255),
        (255, 130, 100),
        (130, 240, 130),
        (255, 220, 60),
        (230, 150, 255),
        (90, 240, 240),
    ),
    seat=(255, 255, 255),
    chip=(0, 0, 0),
    paper=(255, 255, 255),
    ink=(0, 0, 0),
    edge=(0, 0, 0),
    token=(255, 255, 255),
    token_ink=(0, 0, 0),
    felt=(0, 0, 0),
    ring=(255, 255, 255, 70),
)
