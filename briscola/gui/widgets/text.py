"""Text on the menu screens: wrapped and fitted into boxes, remembered for the tests;
titles; the scale that fits a design into the window."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import pygame

from briscola.gui.widgets.draw import fit_text
from briscola.gui.widgets.theme import Colour

if TYPE_CHECKING:
    from briscola.gui.render.assets import Assets

#: Smallest font size any menu screen draws (at 1024x600).
MIN_TEXT = 10


class Window(Protocol):
    """What :func:`fitted_scale` reads of the application: the window and the UI scale."""

    @property
    def size(self) -> tuple[int, int]: ...
    @property
    def ui_scale(self) -> float: ...


def fitted_scale(app: Window, design_w: float, design_h: float) -> float:
    """Pixels per design pixel: the App's scale, shrunk so ``design_w`` x ``design_h`` fits."""
    width, height = app.size
    return max(0.3, min(app.ui_scale, width / design_w, height / design_h))


def scaled_px(value: float, scale: float) -> int:
    """The one rule from design sizes to pixels: ``value`` design pixels (for a 720 px high
    window) at ``scale`` pixels per design pixel, at least one pixel. Every screen's
    ``px()`` goes through it; screens differ only in the scale they choose."""
    return max(1, round(value * scale))


def scaler(scale: float) -> Callable[[float], int]:
    """A ``px()`` function for ``scale`` (see :func:`scaled_px`)."""

    def px(value: float) -> int:
        return scaled_px(value, scale)

    return px


def wrap_text(font: pygame.font.Font, text: str, width: int, break_words: bool = True) -> list[str]:
    """``text`` broken into lines no wider than ``width``: a word longer than a line is cut,
    or without ``break_words`` keeps a line of its own."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if font.size(candidate)[0] <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            while break_words and font.size(word)[0] > width and len(word) > 1:
                cut = len(word) - 1
                while cut > 1 and font.size(word[:cut])[0] > width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return lines


@dataclass
class DrawnText:
    """A piece of text as drawn, with the box it had to fit (checked by the tests)."""

    text: str
    size: int
    bold: bool
    box: pygame.Rect
    #: The clipping rectangle when the text was drawn in a scrolled view (else None).
    clip: pygame.Rect | None = None


@dataclass
class TextPainter:
    """Draws text fitted into boxes and remembers what it drew during the last frame."""

    assets: Assets
    drawn: list[DrawnText] = field(default_factory=list)

    def begin(self) -> None:
        self.drawn.clear()

    def fit(
        self,
        surface: pygame.Surface,
        text: str,
        box: pygame.Rect,
        size: int,
        colour: Colour,
        bold: bool = False,
        align: str = "left",
        shadow: bool = False,
    ) -> pygame.Rect:
        """Draw ``text`` on one line inside ``box`` (shrunk to fit), vertically centred."""
        clip = surface.get_clip()
        if not clip.colliderect(box):
            return pygame.Rect(box.topleft, (0, 0))
        size = fit_text(self.assets, text, min(size, max(MIN_TEXT, box.height)), box.width, bold)
        image = self.assets.text(text, size, colour, bold)
        rect = image.get_rect()
        rect.centery = box.centery
        if align == "center":
            rect.centerx = box.centerx
        elif align == "right":
            rect.right = box.right
        else:
            rect.left = box.left
        if shadow:
            dark = self.assets.text(text, size, (0, 0, 0), bold)
            offset = max(1, size // 16)
            surface.blit(dark, rect.move(offset, offset))
        surface.blit(image, rect)
        clipped = None if clip == surface.get_rect() else clip.copy()
        self.drawn.append(DrawnText(text, size, bold, box.copy(), clipped))
        return rect

    def paragraph(
        self,
        surface: pygame.Surface,
        text: str,
        box: pygame.Rect,
        size: int,
        colour: Colour,
        bold: bool = False,
        align: str = "left",
        spacing: float = 1.25,
    ) -> int:
        """Draw ``text`` word-wrapped in ``box`` from the top (lines that do not fit the
        box's height are shrunk first, then cut). Returns the height used."""
        lines, size = self.layout(text, box, size, bold, spacing)
        line_h = round(self.assets.font(size, bold).get_linesize() * spacing / 1.25)
        y = box.top
        for line in lines:
            self.fit(
                surface, line, pygame.Rect(box.x, y, box.width, line_h), size, colour, bold, align
            )
            y += line_h
        return y - box.top

    def layout(
        self, text: str, box: pygame.Rect, size: int, bold: bool = False, spacing: float = 1.25
    ) -> tuple[list[str], int]:
        """The lines and the font size :meth:`paragraph` would use."""
        while True:
            font = self.assets.font(size, bold)
            lines = wrap_text(font, text, box.width)
            line_h = round(font.get_linesize() * spacing / 1.25)
            if len(lines) * line_h <= box.height or size <= MIN_TEXT:
                break
            size -= 1
        fitting = max(1, box.height // max(1, line_h))
        if len(lines) > fitting:
            lines = lines[:fitting]
            last = lines[-1]
            while last and font.size(last + "…")[0] > box.width:
                last = last[:-1]
            lines[-1] = last.rstrip() + "…"
        return lines, size


def draw_title(
    painter: TextPainter, surface: pygame.Surface, text: str, box: pygame.Rect, colour: Colour
) -> None:
    """A screen title: large, bold, with a soft shadow."""
    painter.fit(surface, text, box, box.height, colour, bold=True, align="center", shadow=True)


def elide_middle(font: pygame.font.Font, message: str, field: str, value: str, width: int) -> str:
    """``message`` with ``value`` put in for ``{field}``, the value's middle replaced by "…"
    as far as needed for the line to fit ``width``; a path keeps its file's name whole while
    it can, and the start of the path.

    >>> class Font:  # one pixel per character
    ...     def size(self, text): return (len(text), 1)
    >>> elide_middle(Font(), "Saved to {path}", "path", "/home/me/records/game.json", 30)
    'Saved to /home/me/r…/game.json'
    """
    line = message.format(**{field: value})
    cut = max(value.rfind("/"), value.rfind("\\"))
    name = len(value) - cut if cut > 0 else 0
    keep = len(value)
    while font.size(line)[0] > width and keep > 2:
        keep -= 1
        tail = min(keep - 1, max(name, keep // 2))
        head = keep - tail
        short = value[:head] + "…" + (value[-tail:] if tail else "")
        line = message.format(**{field: short})
    return line
