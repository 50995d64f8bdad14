"""Full-window pages (new game, settings, statistics, score): laid out on a 1180 x 720
design, scaled to fit the window and the UI scale."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from briscola.gui.scene import Scene
from briscola.gui.widgets import (
    Scrollbar,
    TextInput,
    TextPainter,
    WidgetGroup,
    draw_panel,
    draw_title,
    fitted_scale,
    is_press,
    scaled_px,
    scroll_keys,
)

if TYPE_CHECKING:
    from briscola.gui.scene import Services

DESIGN = (1180, 720)
#: Design heights of the title band (with the space under it) and of the button row (with
#: the margins around it): the body of a page is what is left.
TITLE_BAND = 12 + 48 + 12
BUTTON_BAND = 14 + 46 + 22
#: Design width of one column of a two-column page shown alone (with its margins).
COLUMN = 0.5


@dataclass(frozen=True)
class PageScale:
    """How a page is drawn: pixels per design pixel, its panels side by side or one under the
    other, and the page's height (taller than the window when it scrolls)."""

    k: float
    stacked: bool
    height: int


def page_scale(app: Services, size: tuple[int, int], max_width: int, columns: bool) -> PageScale:
    """The scale the UI scale setting asks for where the window has room for it: the page as
    designed when it fits; else as wide as the window lets it grow, scrolling; a page of two
    columns puts one under the other when that lets it grow clearly more."""
    w, h = size
    fit = fitted_scale(app, *DESIGN)
    wanted = app.ui_scale
    if wanted <= fit * 1.02:
        return PageScale(fit, False, h)
    wide = max(fit, min(wanted, w / DESIGN[0]))
    body = DESIGN[1] - TITLE_BAND - BUTTON_BAND
    if columns:
        narrow = max(fit, min(wanted, w / (max_width * COLUMN + 2 * 22)))
        if narrow >= wide * 1.15:
            tall = TITLE_BAND + 2 * body + 18 + BUTTON_BAND
            return PageScale(narrow, True, max(h, round(tall * narrow)))
    return PageScale(wide, False, max(h, round(DESIGN[1] * wide)))


@dataclass(frozen=True)
class PageFrame:
    """A title band at the top, the body, and room for a row of buttons at the bottom."""

    title: pygame.Rect
    body: pygame.Rect
    margin: int
    button_h: int
    #: Top of the row of buttons under the body.
    buttons_y: int = 0
    #: The two panels one under the other (a large UI scale in a narrow window).
    stacked: bool = False

    def columns(self, gap: int) -> tuple[pygame.Rect, pygame.Rect]:
        """The body split into two panels ``gap`` apart: side by side, or one under the other
        when the page is stacked."""
        body = self.body
        if self.stacked:
            top_h = (body.height - gap) // 2
            upper = pygame.Rect(body.x, body.y, body.width, top_h)
            lower = pygame.Rect(body.x, upper.bottom + gap, body.width, body.height - top_h - gap)
            return upper, lower
        left_w = (body.width - gap) // 2
        left = pygame.Rect(body.x, body.y, left_w, body.height)
        right = pygame.Rect(left.right + gap, body.y, body.width - left_w - gap, body.height)
        return left, right


class PageScene(Scene):
    """A scene sized in design pixels: ``px(v)`` is ``v`` at the current scale ``k``."""

    def __init__(self, app: Services) -> None:
        super().__init__(app)
        self.k = 1.0
        self.painter = TextPainter(app.assets)
        self.title_box = pygame.Rect(0, 0, 1, 1)
        #: A page taller than the window (a large UI scale) scrolls: how far, and how tall.
        self.page_scroll = 0
        self.page_height = 0
        self.page_scrollbar = Scrollbar()

    def px(self, value: float) -> int:
        return scaled_px(value, self.k)

    def page_frame(
        self, size: tuple[int, int], max_width: int, scrolls: bool = False, columns: bool = False
    ) -> PageFrame:
        """Rescale for ``size`` and lay out the frame (body at most ``max_width`` design
        pixels wide, centred); the title is drawn in ``frame.title``. A page that ``scrolls``
        follows a UI scale larger than fits the window (see :func:`page_scale`), its two
        ``columns`` one under the other when that lets it grow; everything in the frame is
        then moved up by the scroll offset."""
        w, h = size
        if scrolls:
            scale = page_scale(self.app, size, max_width, columns)
        else:
            scale = PageScale(fitted_scale(self.app, *DESIGN), False, h)
        self.k = scale.k
        self.page_height = scale.height
        self.page_scroll = max(0, min(self.page_scroll, self.max_page_scroll))
        px = self.px
        shift = -self.page_scroll
        margin = px(22)
        title = pygame.Rect(0, px(12) + shift, w, px(48))
        width = min(w - 2 * margin, px(max_width * COLUMN if scale.stacked else max_width))
        top = title.bottom + px(12)
        button_h = px(46)
        buttons_y = scale.height + shift - margin - button_h
        bottom = buttons_y - px(14)
        body = pygame.Rect((w - width) // 2, top, width, bottom - top)
        self.title_box = title
        self.page_scrollbar.track = pygame.Rect(w - px(14), px(8), px(8), h - 2 * px(8))
        return PageFrame(title, body, margin, button_h, buttons_y, scale.stacked)

    # ------------------------------------------------------------------ scrolling

    def page_bounds(self) -> pygame.Rect:
        """The whole page, scrolled: the window, or taller when the page scrolls."""
        width, height = self.app.size
        return pygame.Rect(0, -self.page_scroll, width, max(height, self.page_height))

    @property
    def max_page_scroll(self) -> int:
        return max(0, self.page_height - self.app.size[1])

    def scroll_page_to(self, offset: float) -> None:
        """Scroll a page taller than the window (and lay it out again)."""
        offset = round(max(0, min(offset, self.max_page_scroll)))
        if offset != self.page_scroll:
            self.page_scroll = offset
            self.on_resize(self.app.size)

    def page_event(self, event: pygame.event.Event) -> bool:
        """Scroll a page taller than the window with the wheel, Page Up and Page Down or its
        scrollbar. True when the event was used."""
        if self.max_page_scroll <= 0:
            return False
        view = self.app.size[1]
        moved = self.page_scrollbar.handle_event(event, self.page_scroll, view, self.page_height)
        if moved is not None:
            self.scroll_page_to(moved)
            return True
        paging = event.type == pygame.MOUSEWHEEL or (
            event.type == pygame.KEYDOWN and event.key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN)
        )
        delta = scroll_keys(event, self.px(48), round(view * 0.85)) if paging else None
        if delta is None:
            return False
        self.scroll_page_to(self.page_scroll + delta)
        return True

    def show_focus(self, group: WidgetGroup, event: pygame.event.Event) -> None:
        """After a key moved the focus: scroll a page so that the widget with the keyboard
        focus is in the window."""
        widget = group.focused
        if event.type != pygame.KEYDOWN or self.max_page_scroll <= 0 or widget is None:
            return
        h = self.app.size[1]
        room = self.px(16)
        if widget.rect.top < room:
            self.scroll_page_to(self.page_scroll + widget.rect.top - room)
        elif widget.rect.bottom > h - room:
            self.scroll_page_to(self.page_scroll + widget.rect.bottom - h + room)

    def draw_page(self, surface: pygame.Surface, title: str, *panels: pygame.Rect) -> None:
        """Begin a frame: the backdrop, the title and the panels."""
        theme = self.app.theme
        self.painter.begin()
        self.app.draw_backdrop(surface)
        draw_title(self.painter, surface, title, self.title_box, theme.accent)
        for panel in panels:
            draw_panel(surface, panel, theme)
        if self.max_page_scroll > 0:
            self.page_scrollbar.draw(
                surface,
                self.page_scroll,
                surface.get_height(),
                self.page_height,
                theme.dim,
                theme.accent,
            )


class FormPage(PageScene):
    """A page of widgets (``group``) with text fields (``fields``): Escape goes back, a
    focused field takes what is typed, the widgets the rest (a click on a press); the focused
    field shows its caret and gets the system's text input (the on-screen keyboard's area)."""

    def __init__(self, app: Services) -> None:
        super().__init__(app)
        self.group = WidgetGroup()
        self.fields: list[TextInput] = []
        self._typing: TextInput | None = None

    def back(self) -> None:
        self.app.pop()

    def handle_event(self, event: pygame.event.Event) -> None:
        focused = self.group.focused
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.audio.play("click", 0.6)
            self.back()
            return
        if isinstance(focused, TextInput) and focused.visible and focused.handle_input(event):
            return
        if self.page_event(event):
            return  # the page scrolled (a UI scale larger than the window)
        used = self.group.handle_event(event)
        if used and is_press(event) and not isinstance(self.group.focused, TextInput):
            self.app.audio.play("click", 0.6)
        self.show_focus(self.group, event)
        self._update_text_focus()

    def _update_text_focus(self) -> None:
        focused = self.group.focused
        for field_ in self.fields:
            field_.active = field_ is focused and field_.visible
        if isinstance(focused, TextInput) and focused is not self._typing:
            pygame.key.start_text_input()
            pygame.key.set_text_input_rect(focused.rect)
        self._typing = focused if isinstance(focused, TextInput) else None

    def update(self, dt: float) -> None:
        self._update_text_focus()

    def on_exit(self) -> None:
        for field_ in self.fields:
            field_.active = False
