"""The deck picker on the Settings screen: a row of decks, each shown by a few of its cards.

Clicking a deck chooses it; the box in a deck's corner ticks it for the D key, which during a
game cycles through the ticked decks. From the keyboard, Left and Right choose the previous or
next deck and Enter or Space ticks or unticks the chosen one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from briscola.engine import Card
from briscola.gui.widgets import Theme, Widget, rounded
from briscola.text.decks import DeckInfo, face_folder
from briscola.text.i18n import _, current_language

if TYPE_CHECKING:
    from briscola.gui.render.assets import Assets

#: The faces shown for each deck: a coin, a cup, a figure of clubs.
PREVIEW = ("AD", "3C", "KB")
#: How far each card of a tile's fan lies right of the one before, in card widths.
FAN_STEP = 0.42


@dataclass(frozen=True)
class Tile:
    """Where one deck is drawn: its whole box, its cards, its tick box, its caption."""

    deck: str
    box: pygame.Rect
    cards: pygame.Rect
    tick: pygame.Rect
    caption: pygame.Rect


def _card_width(inner_w: float, inner_h: float, caption_h: float) -> int:
    """The widest card whose fan and caption fit a tile's inside."""
    by_width = inner_w / (1 + FAN_STEP * len(PREVIEW))
    by_height = (inner_h - caption_h - 2) / 1.6
    return max(1, int(min(by_width, by_height)))


def tiles_for(rect: pygame.Rect, decks: Sequence[str], scale: float = 1.0) -> list[Tile]:
    """Lay the decks out inside *rect* in the number of rows (1 to 3) that shows the largest
    cards; the tiles are as tall as their cards and caption, centred in *rect*.

    >>> [t.box.width for t in tiles_for(pygame.Rect(0, 0, 500, 200), ["a", "b"])]
    [246, 246]
    >>> area = pygame.Rect(0, 0, 300, 300)
    >>> tiles = tiles_for(area, list("abcdef"))
    >>> len({t.box.y for t in tiles}), all(area.contains(t.box) for t in tiles)
    (2, True)
    """
    if not decks:
        return []
    gap = max(4, round(8 * scale))
    caption_h = max(12, round(22 * scale))

    def layout(rows: int) -> tuple[int, int, int, int]:
        per_row = -(-len(decks) // rows)
        width = (rect.width - (per_row - 1) * gap) // per_row
        height = (rect.height - (rows - 1) * gap) // rows
        return _card_width(width - 2 * gap, height - 2 * gap, caption_h), per_row, width, rows

    card_w, per_row, width, rows = max(layout(rows) for rows in (1, 2, 3))
    card_h = round(card_w * 1.6)
    row_h = (rect.height - (rows - 1) * gap) // rows
    height = min(card_h + caption_h + 2 * gap + 2, row_h)
    top = rect.y + max(0, (rect.height - rows * height - (rows - 1) * gap) // 2)
    out = []
    for index, deck in enumerate(decks):
        row, col = divmod(index, per_row)
        in_row = min(per_row, len(decks) - row * per_row)
        left = rect.centerx - (in_row * width + (in_row - 1) * gap) // 2
        box = pygame.Rect(left + col * (width + gap), top + row * (height + gap), width, height)
        fan_w = round(card_w * (1 + FAN_STEP * len(PREVIEW)))
        cards = pygame.Rect(0, 0, fan_w, card_h)
        cards.midtop = (box.centerx, box.y + gap)
        side = max(10, round(18 * scale))
        tick = pygame.Rect(box.right - side - gap // 2, box.y + gap // 2, side, side)
        caption = pygame.Rect(box.x + gap, cards.bottom + 2, box.width - 2 * gap, caption_h)
        out.append(Tile(deck, box, cards, tick, caption))
    return out


class DeckPicker(Widget):
    """A focusable row of deck previews (see the module's doc)."""

    def __init__(
        self,
        decks: Callable[[], list[DeckInfo]],
        chosen: Callable[[], str],
        ticked: Callable[[], Sequence[str]],
        choose: Callable[[str], None],
        toggle: Callable[[str], None],
        four_colour: Callable[[], bool],
        back: Callable[[], str],
        name: str = "deck_picker",
    ) -> None:
        super().__init__()
        self.decks = decks
        self.chosen = chosen
        self.ticked = ticked
        self.choose = choose
        self.toggle = toggle
        self.four_colour = four_colour
        self.back = back
        self.name = name
        self.scale = 1.0

    def hint_box(self) -> pygame.Rect:
        """The line under the tiles that says which decks D cycles through."""
        height = max(12, round(20 * self.scale))
        return pygame.Rect(self.rect.x, self.rect.bottom - height, self.rect.width, height)

    def tiles(self) -> list[Tile]:
        area = self.rect.copy()
        area.height = max(1, area.height - self.hint_box().height - 4)
        return tiles_for(area, [info.id for info in self.decks()], self.scale)

    # ------------------------------------------------------------------ input

    def step(self, direction: int) -> bool:
        ids = [info.id for info in self.decks()]
        if not ids:
            return False
        current = self.chosen()
        index = ids.index(current) if current in ids else -direction
        self.choose(ids[(index + direction) % len(ids)])
        return True

    def activate(self) -> None:
        self.toggle(self.chosen())

    def click(self, pos: tuple[int, int]) -> None:
        for tile in self.tiles():
            if tile.tick.inflate(8, 8).collidepoint(pos):
                self.toggle(tile.deck)
                return
            if tile.box.collidepoint(pos):
                self.choose(tile.deck)
                return

    # ------------------------------------------------------------------ drawing

    def draw(self, surface: pygame.Surface, assets: Assets, theme: Theme, focused: bool) -> None:
        infos = {info.id: info for info in self.decks()}
        chosen = self.chosen()
        ticked = set(self.ticked())
        language = current_language()
        for tile in self.tiles():
            info = infos[tile.deck]
            selected = tile.deck == chosen
            if selected:
                surface.blit(rounded(tile.box.size, (*theme.accent, 56), 10), tile.box.topleft)
                pygame.draw.rect(surface, theme.accent, tile.box, width=2, border_radius=10)
            self._draw_fan(surface, assets, info, tile.cards)
            self._draw_tick(surface, theme, tile.tick, tile.deck in ticked)
            title = info.title(language)
            colour = theme.accent if selected else theme.text
            size = assets.fit(title, round(tile.caption.height * 0.8), tile.caption.width, selected)
            text = assets.text(title, size, colour, selected)
            surface.blit(text, text.get_rect(midtop=tile.caption.midtop).clamp(tile.box))
        hint = describe(list(infos.values()), list(ticked))
        box = self.hint_box()
        text = assets.text(hint, assets.fit(hint, round(box.height * 0.8), box.width), theme.dim)
        surface.blit(text, text.get_rect(midleft=box.midleft).clamp(self.rect))
        if focused:
            pygame.draw.rect(
                surface, theme.focus, self.rect.inflate(6, 6), width=3, border_radius=12
            )

    def _draw_fan(
        self, surface: pygame.Surface, assets: Assets, info: DeckInfo, rect: pygame.Rect
    ) -> None:
        width = max(1, round(rect.width / (1 + FAN_STEP * len(PREVIEW))))
        style = face_folder(info.id, self.four_colour())
        images = [assets.deck_back(info.id, self.back(), width)]
        images += [assets.card_face(Card.from_code(code), style, width) for code in PREVIEW]
        for index, image in enumerate(images):
            x = rect.x + round(index * width * FAN_STEP)
            surface.blit(image, (x, rect.y))

    @staticmethod
    def _draw_tick(surface: pygame.Surface, theme: Theme, box: pygame.Rect, ticked: bool) -> None:
        pygame.draw.rect(surface, theme.outline, box, border_radius=3)
        pygame.draw.rect(surface, theme.text, box, width=2, border_radius=3)
        if ticked:
            w, h = box.size
            points = [
                (box.x + w * 0.2, box.y + h * 0.52),
                (box.x + w * 0.42, box.y + h * 0.75),
                (box.x + w * 0.82, box.y + h * 0.25),
            ]
            pygame.draw.lines(surface, theme.accent, False, points, max(2, w // 6))


def describe(infos: Sequence[DeckInfo], ticked: Sequence[str]) -> str:
    """A line for screen readers and tooltips: which decks the D key cycles through."""
    language = current_language()
    names = [info.title(language) for info in infos if info.id in set(ticked)]
    return _("D cycles through: {decks}").format(decks=", ".join(names) or _("every deck"))
