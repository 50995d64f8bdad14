"""The Rules screen: every configuration the game offers, scrollable, with card pictures."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

import pygame

from briscola.engine import Card
from briscola.gui.render.assets import card_size
from briscola.gui.render.segni import signal_icon
from briscola.gui.scene import Scene
from briscola.gui.widgets import (
    MIN_TEXT,
    Button,
    Scrollbar,
    TextPainter,
    Theme,
    WidgetGroup,
    draw_focus,
    draw_panel,
    draw_title,
    fit_text,
    fitted_scale,
    is_press,
    scaled_px,
    scaler,
    scroll_keys,
    wrap_text,
)
from briscola.text.i18n import _
from briscola.text.names import suit_title, uses_french_names
from briscola.text.rules import BLOCKS, CARD_ROWS, ROW_CARDS
from briscola.text.signals import SIGNAL_GESTURES

if TYPE_CHECKING:
    from briscola.gui.render.assets import Assets
    from briscola.gui.scene import Services

Colour = tuple[int, int, int]

#: Height of a contents entry and the gap under it, at UI scale 1 (the column grows with the
#: scale as far as every entry still fits above the Back button).
ENTRY_H, ENTRY_GAP = 35, 3

# ---------------------------------------------------------------------- the rules screen


@dataclass
class Item:
    """One laid-out block of the rules text."""

    kind: str
    text: str
    y: int
    height: int
    lines: list[str] = field(default_factory=list)
    size: int = 16


class SectionButton(Button):
    """An entry of the contents column: left-aligned, highlighted when its section shows."""

    current = False

    def pad(self) -> int:
        return max(8, self.rect.height // 3)

    def lines(self, assets: Assets) -> tuple[list[str], int]:
        """The label on one line, or on two when one line would need too small a font."""
        label = self.label()
        width = self.rect.width - 2 * self.pad()
        nominal = int(self.rect.height * 0.42)
        size = fit_text(assets, label, nominal, width, bold=True)
        if size >= nominal * 0.8 or " " not in label:
            return [label], size
        size = max(MIN_TEXT, min(size, int(self.rect.height * 0.36)))
        lines = wrap_text(assets.font(size, True), label, width)
        while len(lines) > 2 and size > MIN_TEXT:
            size -= 1
            lines = wrap_text(assets.font(size, True), label, width)
        widest = max(lines, key=lambda line: assets.font(size, True).size(line)[0])
        return lines[:2], fit_text(assets, widest, size, width, bold=True)

    def draw(self, surface: pygame.Surface, assets: Assets, theme: Theme, focused: bool) -> None:
        radius = max(4, self.rect.height // 4)
        if self.current or self.hover or focused:
            colour = theme.button_hover if (self.hover or focused) else theme.button
            pygame.draw.rect(surface, colour, self.rect, border_radius=radius)
        if self.current:
            bar = pygame.Rect(self.rect.x, self.rect.y + 4, 4, self.rect.height - 8)
            pygame.draw.rect(surface, theme.accent, bar, border_radius=2)
        pad = self.pad()
        lines, size = self.lines(assets)
        colour = theme.accent if self.current else theme.text
        line_h = assets.font(size, self.current).get_linesize()
        y = self.rect.centery - line_h * len(lines) // 2
        for line in lines:
            text = assets.text(line, size, colour, bold=self.current)
            surface.blit(text, text.get_rect(midleft=(self.rect.x + pad, y + line_h // 2)))
            y += line_h
        if focused:
            draw_focus(surface, self.rect, theme, radius)


class RulesScene(Scene):
    """The rules of every configuration, with a contents column and a scrollbar."""

    def __init__(self, app: Services) -> None:
        super().__init__(app)
        self.painter = TextPainter(app.assets)
        self.scroll = 0.0
        self.target = 0.0
        self.items: list[Item] = []
        self.content_h = 0
        self.view = pygame.Rect(0, 0, 10, 10)
        self.panel = pygame.Rect(0, 0, 10, 10)
        self.scrollbar = Scrollbar()
        self.k = 1.0
        self.text_k = 1.0
        self.card_w = 50
        self.sections: list[tuple[int, str]] = [
            (i, text) for i, (kind, text) in enumerate(BLOCKS) if kind == "section"
        ]
        self.section_buttons: list[SectionButton] = []
        for index, (_block, text) in enumerate(self.sections):
            button = SectionButton(
                partial(_, text),
                partial(self.jump, index),
                name=f"section-{index}",
            )
            self.section_buttons.append(button)
        self.back_button = Button(lambda: _("Back"), self.back, name="back")
        self.group = WidgetGroup([*self.section_buttons, self.back_button])
        self.group.focus_widget(self.back_button)
        self.title_box = pygame.Rect(0, 0, 10, 10)
        self.side_panel = pygame.Rect(0, 0, 10, 10)
        self._block_items: dict[int, Item] = {}

    # ------------------------------------------------------------------ actions

    def px(self, value: float) -> int:
        return scaled_px(value, self.k)

    def back(self) -> None:
        self.app.pop()

    def jump(self, index: int) -> None:
        """Scroll to section ``index``."""
        block = self.sections[index][0]
        for item in self.items:
            if item is self._block_items.get(block):
                self.set_target(item.y - self.px(6))
                return

    def set_target(self, value: float, instant: bool = False) -> None:
        self.target = max(0.0, min(float(self.max_scroll), value))
        if instant or self.app.settings.reduce_motion or self.app.settings.speed_factor == 0:
            self.scroll = self.target

    @property
    def max_scroll(self) -> int:
        return max(0, self.content_h - self.view.height)

    def current_section(self) -> int:
        """Index of the section at the top of the view."""
        current = 0
        top = self.scroll + self.px(12)
        for index, (block, _text) in enumerate(self.sections):
            item = self._block_items.get(block)
            if item is not None and item.y <= top:
                current = index
        return current

    # ------------------------------------------------------------------ layout

    def on_resize(self, size: tuple[int, int]) -> None:
        w, h = size
        self.k = fitted_scale(self.app, 1100, 720)
        # The text scrolls, so it may grow with the UI scale beyond what fits the screen's
        # frame (by up to 40 %); the frame, the contents and the buttons keep ``k``.
        self.text_k = max(self.k, min(self.app.ui_scale, self.k * 1.4))
        px = self.px
        margin = px(24)
        self.title_box = pygame.Rect(0, px(14), w, px(48))
        top = self.title_box.bottom + px(14)
        bottom = h - margin
        total_w = min(w - 2 * margin, px(1140))
        left = (w - total_w) // 2
        # Contents column with the Back button under it: it grows with the UI scale like the
        # text, as far as its entries fit its height and it keeps to a third of the width.
        needed = 14 + len(self.section_buttons) * (ENTRY_H + ENTRY_GAP) + 12 + 56
        grow = min(self.text_k / self.k, (bottom - top) / px(needed), total_w / 3 / px(270))
        side = self.k * max(1.0, grow)

        spx = scaler(side)
        side_w = spx(270)
        gap = px(18)
        bh, bgap = spx(ENTRY_H), spx(ENTRY_GAP)
        y = top + spx(14)
        for button in self.section_buttons:
            button.rect = pygame.Rect(left + spx(10), y, side_w - spx(20), bh)
            y += bh + bgap
        self.back_button.rect = pygame.Rect(
            left + spx(10), bottom - spx(56), side_w - spx(20), spx(46)
        )
        self.side_panel = pygame.Rect(left, top, side_w, bottom - top)
        self.panel = pygame.Rect(left + side_w + gap, top, total_w - side_w - gap, bottom - top)
        pad = px(28)
        self.view = pygame.Rect(
            self.panel.x + pad,
            self.panel.y + px(10),
            self.panel.width - pad - px(40),
            self.panel.height - px(20),
        )
        self.scrollbar.track = pygame.Rect(
            self.panel.right - px(22), self.panel.y + px(14), px(10), self.panel.height - px(28)
        )
        old_max = self.max_scroll
        fraction = self.scroll / old_max if old_max else 0.0
        self._layout_text()
        self.set_target(fraction * self.max_scroll, instant=True)

    def text_px(self, value: float) -> int:
        """A design size in the scrolling text, in pixels."""
        return scaled_px(value, self.text_k)

    def _layout_text(self) -> None:
        px = self.text_px
        width = self.view.width
        assets = self.app.assets
        self.items = []
        self._block_items = {}
        self.card_w = min(px(62), (width - 9 * px(8)) // 10)
        y = px(8)
        for index, (kind, text) in enumerate(BLOCKS):
            shown = _(text)
            if kind == "section":
                y += px(26) if index else 0
                size = px(30)
                lines = wrap_text(assets.font(size, True), shown, width)
                height = len(lines) * assets.font(size, True).get_linesize() + px(10)
            elif kind == "heading":
                y += px(12)
                size = px(22)
                lines = wrap_text(assets.font(size, True), shown, width)
                height = len(lines) * assets.font(size, True).get_linesize() + px(4)
            elif kind.startswith("signal-"):  # a signal's face, meaning and gesture
                size = px(19)
                gesture = _(SIGNAL_GESTURES[kind[7:]])
                lines = [shown, *wrap_text(assets.font(px(16)), gesture, width - px(72))]
                height = max(px(56), px(8) + len(lines) * assets.font(size).get_linesize())
            elif kind in CARD_ROWS:
                size = px(15)
                lines = [shown]
                card_h = card_size(self.card_w)[1]
                height = px(10) + card_h + px(6) + px(24) + assets.font(size).get_linesize()
                height += px(10)
            else:
                size = px(19)
                indent = px(26) if kind == "bullet" else 0
                lines = wrap_text(assets.font(size), shown, width - indent)
                height = len(lines) * assets.font(size).get_linesize() + px(10)
            item = Item(kind, shown, y, height, lines, size)
            self.items.append(item)
            self._block_items[index] = item
            y += height
        # Room after the end so that a jump puts even the last section at the top.
        last = self._block_items[self.sections[-1][0]].y if self.sections else 0
        self.content_h = max(y + px(40), last - px(6) + self.view.height)

    # ------------------------------------------------------------------ events

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.audio.play("click", 0.6)
            self.back()
            return
        moved = self.scrollbar.handle_event(event, self.scroll, self.view.height, self.content_h)
        if moved is not None:
            self.set_target(moved, instant=self.scrollbar.dragging)
            return
        # Arrows, pages and the wheel scroll the text; Tab moves between the contents.
        delta = scroll_keys(event, self.px(48), round(self.view.height * 0.9))
        if delta is not None:
            self.set_target(self.target + delta)
            return
        if self.group.handle_event(event) and is_press(event):
            self.app.audio.play("click", 0.6)

    def update(self, dt: float) -> None:
        if abs(self.target - self.scroll) < 0.5:
            self.scroll = self.target
        else:
            self.scroll += (self.target - self.scroll) * min(1.0, dt * 14)
        current = self.current_section()
        for index, button in enumerate(self.section_buttons):
            button.current = index == current

    # ------------------------------------------------------------------ drawing

    def next_frame_in(self) -> float | None:
        return 0.0 if self.scroll != self.target else None

    def draw(self, surface: pygame.Surface) -> None:
        app = self.app
        theme = app.theme
        self.painter.begin()
        app.draw_backdrop(surface)
        draw_title(self.painter, surface, _("Rules"), self.title_box, theme.accent)
        draw_panel(surface, self.side_panel, theme)
        draw_panel(surface, self.panel, theme)
        self.group.draw(surface, app.assets, theme)
        clip = surface.get_clip()
        surface.set_clip(self.view)
        top = round(self.scroll)
        for item in self.items:
            y = self.view.y + item.y - top
            if y > self.view.bottom or y + item.height < self.view.top:
                continue
            self._draw_item(surface, item, y)
        surface.set_clip(clip)
        self._draw_fades(surface)
        colour = theme.dim
        self.scrollbar.draw(
            surface, self.scroll, self.view.height, self.content_h, colour, theme.accent
        )

    def _draw_fades(self, surface: pygame.Surface) -> None:
        """Soft edges where text scrolls in and out of view."""
        height = self.px(18)
        for edge, visible in ((0, self.scroll > 1), (1, self.scroll < self.max_scroll - 1)):
            if not visible:
                continue
            fade = pygame.Surface((self.view.width, height), pygame.SRCALPHA)
            r, g, b, a = self.app.theme.panel
            for row in range(height):
                t = row / height if edge else 1 - row / height
                pygame.draw.line(
                    fade, (r, g, b, int(a * t * 0.9)), (0, row), (fade.get_width(), row)
                )
            y = self.view.bottom - height if edge else self.view.top
            surface.blit(fade, (self.view.x, y))

    def _draw_item(self, surface: pygame.Surface, item: Item, y: int) -> None:
        theme = self.app.theme
        assets = self.app.assets
        px = self.text_px
        x, width = self.view.x, self.view.width
        if item.kind in CARD_ROWS:
            self._draw_cards(surface, item, y)
            return
        if item.kind.startswith("signal-"):
            surface.blit(signal_icon(item.kind[7:], px(48)), (x + px(6), y + px(2)))
            line_h = assets.font(item.size).get_linesize()
            for i, line in enumerate(item.lines):
                box = pygame.Rect(x + px(66), y + i * line_h, width - px(66), line_h)
                self.painter.fit(
                    surface,
                    line,
                    box,
                    item.size if i == 0 else px(16),
                    theme.text if i == 0 else theme.dim,
                    i == 0,
                )
            return
        bold = item.kind in ("section", "heading")
        colour = theme.accent if item.kind == "section" else theme.text
        font = assets.font(item.size, bold)
        line_h = font.get_linesize()
        indent = 0
        if item.kind == "bullet":
            indent = px(26)
            cy = y + line_h // 2 + 1
            pygame.draw.circle(surface, theme.accent, (x + px(9), cy), max(2, px(4)))
        for i, line in enumerate(item.lines):
            box = pygame.Rect(x + indent, y + i * line_h, width - indent, line_h)
            self.painter.fit(surface, line, box, item.size, colour, bold)
        if item.kind == "section":
            rule_y = y + len(item.lines) * line_h + px(2)
            pygame.draw.line(
                surface, theme.accent, (x, rule_y), (x + min(width, px(120)), rule_y), 2
            )

    def _draw_cards(self, surface: pygame.Surface, item: Item, y: int) -> None:
        app = self.app
        theme = app.theme
        px = self.text_px
        codes = ROW_CARDS[item.kind]
        width = self.card_w
        gap = px(8) if item.kind != "swap" else px(60)
        total = len(codes) * width + (len(codes) - 1) * gap
        x = self.view.x + max(0, (self.view.width - total) // 2)
        top = y + px(10)
        card_h = card_size(width)[1]
        style = app.settings.deck_style
        label_h = px(24)
        # One size for the whole row, the one the longest caption fits at.
        captions = [self._card_caption(item.kind, Card.from_code(code)) for code in codes]
        caption_size = min(
            (fit_text(app.assets, c, px(18), width + gap, bold=True) for c in captions if c),
            default=px(18),
        )
        for i, code in enumerate(codes):
            card = Card.from_code(code)
            cx = x + i * (width + gap)
            shadow = app.assets.shadow(width)
            surface.blit(
                shadow, shadow.get_rect(center=(cx + width // 2 + px(2), top + card_h // 2 + px(3)))
            )
            surface.blit(app.assets.card_face(card, style, width), (cx, top))
            caption = self._card_caption(item.kind, card)
            if caption:
                box = pygame.Rect(cx - gap // 2, top + card_h + px(4), width + gap, label_h)
                self.painter.fit(
                    surface, caption, box, caption_size, theme.accent, bold=True, align="center"
                )
        if item.kind == "swap":
            self._draw_swap_arrow(surface, x + width, top + card_h // 2, gap)
        caption_y = top + card_h + px(6) + label_h
        box = pygame.Rect(
            self.view.x, caption_y, self.view.width, app.assets.font(item.size).get_linesize()
        )
        self.painter.fit(surface, item.text, box, item.size, theme.dim, align="center")

    def _card_caption(self, kind: str, card: Card) -> str:
        if kind == "points":
            return str(card.points)
        if kind == "suits":
            return suit_name(card, self.app.settings.deck)
        return ""

    def _draw_swap_arrow(self, surface: pygame.Surface, x: int, y: int, gap: int) -> None:
        colour = self.app.theme.accent
        px = self.text_px
        left, right = x + px(10), x + gap - px(10)
        for dy, start, end in ((-px(8), left, right), (px(8), right, left)):
            pygame.draw.line(surface, colour, (start, y + dy), (end, y + dy), max(2, px(3)))
            direction = 1 if end > start else -1
            head = [
                (end, y + dy),
                (end - direction * px(9), y + dy - px(6)),
                (end - direction * px(9), y + dy + px(6)),
            ]
            pygame.draw.polygon(surface, colour, head)


def suit_name(card: Card, deck: str) -> str:
    """The name of ``card``'s suit as a caption, in the deck style shown."""
    own = suit_title(card.suit, deck)  # a deck whose manifest names its suits
    if own is not None:
        return own
    if uses_french_names(deck):
        names = (_("Diamonds"), _("Hearts"), _("Spades"), _("Clubs"))
    else:
        names = (_("Coins"), _("Cups"), _("Swords"), _("Batons"))
    return names[card.suit]
