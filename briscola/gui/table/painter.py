"""The painter: everything the table draws, from the board, the captions and the session.

It only reads. The still layer (the felt, its marks and every card lying still) is cached
and updated where it changes; moving cards and the player's hand are drawn over it, then
the name plates, the information panel, speech bubbles, the banner, the last trick and the
hot-seat privacy screen. A frame is drawn whole or only where it changed
(:mod:`briscola.gui.table.compose`): what the painter draws over the cards it notes in
``footprint``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import pygame

from briscola.engine import PlayerView
from briscola.game.session import SessionView, is_player
from briscola.gui.render.assets import CARD_RATIO
from briscola.gui.render.damage import Chrome, Piece
from briscola.gui.render.sprites import CardRenderer, CardSprite
from briscola.gui.table.board import Board
from briscola.gui.table.compose import Composer, StillLayer
from briscola.gui.table.director import Captions
from briscola.gui.widgets import draw_focus, draw_panel, fit_text, rounded, scaled_px
from briscola.text.i18n import _, current_language
from briscola.text.labels import bid_label

if TYPE_CHECKING:
    from briscola.gui.scene import Services

#: Seconds the turn marker pulses when a turn begins, before it glows steadily.
PULSE_SECONDS = 4.0


@functools.lru_cache(maxsize=8)
def _ring(radius: int, colour: tuple[int, int, int, int]) -> pygame.Surface:
    """The faint ring that marks the trick area."""
    ring = pygame.Surface((radius * 2 + 4, radius * 2 + 4), pygame.SRCALPHA)
    pygame.draw.ellipse(ring, colour, ring.get_rect(), width=2)
    return ring


def table_px(app: Services, value: float) -> int:
    """A design size (for a 720 px high window) in pixels on the table. The UI scale
    setting makes the table's text a quarter larger at most: beyond that, names and
    information would cover the cards (which TableLayout enlarges within the same limits)."""
    return scaled_px(value, min(app.ui_scale, app.size[1] / 720 * 1.25))


class TablePainter:
    """Draws ``board`` and ``captions`` for ``session``."""

    def __init__(
        self,
        app: Services,
        session: SessionView,
        board: Board,
        captions: Captions,
        renderer: CardRenderer,
    ) -> None:
        self.app = app
        self.session = session
        self.board = board
        self.captions = captions
        self.renderer = renderer
        self._pulse_turn: int | None = None  # the turn whose marker pulses (see pulsing)
        self._pulse_since = 0.0
        self.still_layer = StillLayer(app, renderer, self._draw_table_marks)
        self.composer = Composer(renderer, self.still_layer)
        #: Where this frame's chrome was drawn (name plates, panels, bubbles...).
        self.footprint: list[pygame.Rect] = []

    def px(self, value: float) -> int:
        return table_px(self.app, value)

    def mark(self, rect: pygame.Rect) -> pygame.Rect:
        """Note that this frame draws in ``rect`` over the cards; returns it."""
        self.footprint.append(rect.copy())
        return rect

    def marked(self, draw: Callable[[pygame.Surface], object]) -> Chrome:
        """``draw`` as chrome whose footprint is what it notes with :meth:`mark`."""

        def piece(surface: pygame.Surface) -> list[pygame.Rect]:
            self.footprint = []
            draw(surface)
            return self.footprint

        return piece

    def pulsing(self, turn: int | None) -> bool:
        """The turn marker pulses for a while when a turn begins, then glows steadily."""
        t = self.captions.t
        if turn != self._pulse_turn:
            self._pulse_turn, self._pulse_since = turn, t
        return not self.app.settings.reduce_motion and t - self._pulse_since < PULSE_SECONDS

    @property
    def style(self) -> str:
        return self.app.settings.deck_style

    def is_player(self, seat: int) -> bool:
        return is_player(self.session, seat)

    # ------------------------------------------------------------------ cards

    def draw_frame(
        self,
        surface: pygame.Surface,
        moving: set[int],
        focused: CardSprite | None,
        hinted: CardSprite | None,
        chrome: Chrome,
        partial: bool = False,
        pieces: Sequence[Piece] = (),
    ) -> list[pygame.Rect] | None:
        """The still layer, then the cards that move (``moving``: ids of sprites) and the
        viewer's hand, the flying ones on top; the keyboard focus ring on ``focused``, a
        "Hint" tag on ``hinted`` (its outline is the sprite's glow); then ``pieces`` and
        ``chrome``. With
        ``partial``, only where something changed: returns the rectangles drawn (None: the
        whole window)."""
        still: list[tuple[CardSprite, bool]] = []
        live: list[tuple[CardSprite, bool]] = []
        sliding = {id(tween.target) for tween in self.board.tweener.tweens}
        for sprite, casts in self.board.draw_order():
            sprite.moving = id(sprite) in sliding
            (live if sprite.air or id(sprite) in moving else still).append((sprite, casts))
        live = [p for p in live if not p[0].air] + [(s, True) for s, _c in live if s.air]
        self._want_faces(live)
        self.renderer.next_frame(self.captions.t)
        changed = self._update_still(surface.get_size(), still)

        def focus(target: pygame.Surface) -> None:
            if focused is not None:
                radius = max(4, int(focused.w) * 14 // 250)
                draw_focus(target, focused.rect(), self.app.theme, radius)
                self.mark(focused.rect().inflate(10, 10))
            if hinted is not None:
                self._draw_hint_tag(target, hinted)

        def rest(target: pygame.Surface) -> list[pygame.Rect] | None:
            self.footprint = []
            more = chrome(target)
            return None if more is None else self.footprint + more

        over = [("focus", None, self.marked(focus)), *pieces]
        return self.composer.frame(surface, changed, live, rest, partial, over)

    def _want_faces(self, live: list[tuple[CardSprite, bool]]) -> None:
        """Tell the renderer which faces to keep at the widths it rasterises only on
        demand: the player's hand, the briscola, and the cards in flight."""
        board, lay = self.board, self.board.layout
        faces = {(s.card, lay.card_w) for s in board.my_hand() if s.card is not None}
        if board.briscola is not None and board.briscola.card is not None:
            faces.add((board.briscola.card, lay.stock_w))
        keep = {s.card for s, _casts in live if s.card is not None}
        self.renderer.want(faces, keep)

    def draw_cards(
        self,
        surface: pygame.Surface,
        moving: set[int],
        focused: CardSprite | None,
        hinted: CardSprite | None = None,
    ) -> None:
        """The cards alone (a whole frame), for a scene that draws its own chrome."""
        self.draw_frame(surface, moving, focused, hinted, lambda _surface: [])

    def hint_tag(self, sprite: CardSprite) -> tuple[pygame.Surface, pygame.Rect]:
        """The "Hint" tag of a card and where it goes: on the card's top edge, between its
        corner indices (a long word, "Suggerimento", is set smaller)."""
        app = self.app
        px = self.px
        rect = sprite.rect()
        room = int(rect.width * 0.56)  # the corner indices take about a fifth each side
        size = px(14)
        ink = self.tag_colours()[1]
        text = app.assets.text(_("Hint"), size, ink, bold=True)
        while text.get_width() + px(12) > room and size > 9:
            size -= 1
            text = app.assets.text(_("Hint"), size, ink, bold=True)
        tag = text.get_rect().inflate(min(px(12), max(2, room - text.get_width())), px(4))
        tag.center = (rect.centerx, rect.top + px(2))
        if tag.width > room:  # still wider: it sits on the edge, clear of the indices
            tag.midbottom = (rect.centerx, rect.top + max(2, rect.height // 25))
        return text, tag

    def tag_colours(self) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        """The hint tag's fill and its word's colour: the outline's colour on the text's,
        or ink where the theme makes them one (high contrast: the word was white on white,
        an empty tag)."""
        theme = self.app.theme
        return theme.text, theme.outline if theme.outline != theme.text else theme.ink

    def _draw_hint_tag(self, surface: pygame.Surface, sprite: CardSprite) -> None:
        """A small "Hint" tag on the top edge of the hinted card, in the outline's colour."""
        text, tag = self.hint_tag(sprite)
        fill = self.tag_colours()[0]
        pygame.draw.rect(surface, fill, self.mark(tag), border_radius=tag.h // 2)
        surface.blit(text, text.get_rect(center=tag.center))

    def _update_still(
        self, size: tuple[int, int], still: list[tuple[CardSprite, bool]]
    ) -> list[pygame.Rect] | None:
        """The still layer brought up to date with the table, its marks and the cards lying
        still; returns where it changed (None: everywhere)."""
        settings = self.app.settings
        board = self.board
        base = (
            settings.deck_style,
            settings.back,
            settings.table,
            settings.high_contrast,
            current_language(),
            id(board.layout),
            self.renderer.style,
            self.renderer.back,
        )
        marks = (
            len(board.stock),
            board.briscola.card if board.briscola is not None else None,
            board.briscola is not None and board.briscola.air,
            self.session.view().called,
        )
        return self.still_layer.update(size, base, marks, still)

    def _draw_table_marks(self, surface: pygame.Surface) -> list[pygame.Rect]:
        """Soft marks on the felt: the trick area, the stock place and its count; returns
        where the marks that change lie (the count, the caption: the ring stays)."""
        board = self.board
        lay = board.layout
        rules = board.rules
        app = self.app
        cx, cy = lay.centre
        radius = int(lay.trick_w * (1.35 if board.n <= 2 else 1.75))
        ring = _ring(radius, app.theme.ring)
        surface.blit(ring, ring.get_rect(center=(round(cx), round(cy))))
        drawn: list[pygame.Rect] = []
        px = self.px
        theme = app.theme
        if rules.stock_size > 0:
            count = len(board.stock) + (
                1 if board.briscola is not None and rules.turned_briscola else 0
            )
            if count:
                text = app.assets.text(str(count), px(18), theme.text, bold=True)
                pos = (
                    round(lay.stock[0]),
                    round(lay.stock[1] - lay.stock_w * CARD_RATIO * 0.5 - px(14)),
                )
                drawn.append(text.get_rect(center=pos))
                surface.blit(text, drawn[-1])
        elif rules.chiamata and self.session.view().called is not None and board.briscola:
            if board.briscola.air:
                return drawn  # labelled once it lies in its place
            caption = _("Called card")
            size = fit_text(app.assets, caption, px(16), int(lay.stock_w * 1.6))
            text = app.assets.text(caption, size, theme.text, bold=True)
            x, y = lay.stock  # where the called card lies (see Board.targets)
            top = y - lay.stock_w * CARD_RATIO * 0.5 - px(12)
            drawn.append(text.get_rect(center=(round(x), round(top))))
            surface.blit(text, drawn[-1])
        return drawn

    # ------------------------------------------------------------------ names and information

    def seat_colour(self, seat: int, seen: PlayerView) -> tuple[int, int, int]:
        rules = self.board.rules
        theme = self.app.theme
        if rules.teams:
            return theme.teams[rules.side_of(seat)]
        # Chiamata: the sides share a colour once the partner is known, not before (the
        # caller keeps its own: the word "caller" by the name says it).
        if rules.chiamata and self.board.revealed_partner is not None:
            calling = {seen.caller, seen.partner}
            return theme.teams[0 if seat in calling else 1]
        return theme.seats[seat % len(theme.seats)]

    def draw_trick_names(self, surface: pygame.Surface, seen: PlayerView) -> None:
        """Five or six seats: who played each card of the trick, on a tag by it (above the
        upper row, below the lower one) in the colour of the player's name plate."""
        app = self.app
        px = self.px
        names = [seat.name for seat in self.session.seats]
        for seat, sprite in self.board.table:
            if sprite.air:
                continue
            name = _("You") if self.is_player(seat) else names[seat]
            rect = sprite.rect()
            size = fit_text(app.assets, name, px(13), rect.width - px(6), bold=True)
            text = app.assets.text(name, size, app.theme.text, bold=True)
            tag = text.get_rect().inflate(px(10), px(2))
            if sprite.y < self.board.layout.centre[1]:  # the upper row: the tag above it
                tag.midbottom = (rect.centerx, rect.top - px(1))
            else:
                tag.midtop = (rect.centerx, rect.bottom + px(1))
            surface.blit(rounded(tag.size, (*self.app.theme.chip, 225), tag.h // 2), self.mark(tag))
            pygame.draw.rect(
                surface,
                self.seat_colour(seat, seen),
                tag,
                width=max(1, px(2)),
                border_radius=tag.h // 2,
            )
            surface.blit(text, text.get_rect(center=tag.center))

    # ------------------------------------------------------------------ captions and overlays

    def draw_bubbles(
        self, surface: pygame.Surface, panel_up: bool, avoid: pygame.Rect | None = None
    ) -> None:
        """Speech bubbles by the names (not the viewer's while ``panel_up``: the auction
        panel says it, and covers that place); a bubble that would lie under ``avoid``
        (the auction panel, drawn later: a small window cut the Pass bubbles) goes beside
        its name instead, on the side away from the middle."""
        app = self.app
        px = self.px
        board = self.board
        for seat, (label, _until) in self.captions.bubbles.items():
            if seat == board.viewer and panel_up:
                continue
            text = label()
            spot = board.layout.spots[board.screen_index(seat)]
            image = app.assets.text(text, px(18), app.theme.ink, bold=True)
            rect = image.get_rect()
            x, y = spot.label
            cx = min(max(x, rect.width / 2 + px(12)), board.layout.w - rect.width / 2 - px(12))
            cy = y - px(44) if board.screen_index(seat) == 0 else y + px(40)
            rect.center = (round(cx), round(cy))
            if avoid is not None and rect.inflate(px(20), px(12)).colliderect(avoid):
                side = -1 if x < board.layout.w / 2 else 1
                beside = x + side * (px(85) + px(16) + rect.width / 2)
                low, high = rect.width / 2 + px(12), board.layout.w - rect.width / 2 - px(12)
                rect.center = (round(min(max(beside, low), high)), round(y))
            bubble = rect.inflate(px(20), px(12))
            pygame.draw.rect(
                surface, app.theme.paper, self.mark(bubble), border_radius=bubble.h // 2
            )
            pygame.draw.rect(surface, app.theme.edge, bubble, width=1, border_radius=bubble.h // 2)
            surface.blit(image, rect)

    def draw_bids(self, surface: pygame.Surface, top: int) -> None:
        """Chiamata: the auction so far, who bid what in order, in a box at the top left
        below ``top`` (the buttons' row); the latest bids when they do not all fit."""
        bids = self.captions.bids
        if not bids:
            return
        app = self.app
        px = self.px
        theme = app.theme
        board = self.board
        size = px(16)
        line_h = app.assets.font(size).get_linesize()
        # Down to the hand of the seat on the left, and no wider than the room beside the
        # hands at the top.
        box = pygame.Rect(px(10), top, px(190), line_h * 2 + px(12))
        room = pygame.Rect(box.x, box.y, box.w, board.layout.h // 2 - box.y)
        for hand in board.hands:
            for sprite in hand:
                rect = sprite.rect()
                if rect.colliderect(room):
                    if rect.top > box.y + line_h * 3:
                        room.height = min(room.height, rect.top - px(8) - room.y)
                    else:
                        room.width = min(room.width, rect.left - px(8) - room.x)
        box.width = max(px(120), room.width)
        fits = max(1, (room.height - px(12)) // line_h - 1)
        shown = bids[-fits:]
        box.height = line_h * (len(shown) + 1) + px(12)
        surface.blit(rounded(box.size, (*self.app.theme.shade, 140), px(8)), self.mark(box))
        names = [seat.name for seat in self.session.seats]
        title = _("Bids") if len(shown) == len(bids) else _("Bids (latest)")
        lines = [(title, theme.text, True)]
        for seat, bid in shown:
            said = _("Pass") if bid is None else bid_label(bid, self.style)
            who = _("You") if self.is_player(seat) else names[seat]
            colour = theme.dim if bid is None else theme.accent
            lines.append((_("{name}: {bid}").format(name=who, bid=said), colour, False))
        y = box.y + px(6)
        for text, colour, bold in lines:
            fitted = fit_text(app.assets, text, size, box.width - px(14), bold=bold)
            image = app.assets.text(text, fitted, colour, bold=bold)
            surface.blit(image, (box.x + px(7), y))
            y += line_h

    def draw_banner(
        self, surface: pygame.Surface, clear: int, avoid: Sequence[pygame.Rect] = ()
    ) -> pygame.Rect | None:
        """The banner, if one shows, kept below ``clear`` (the buttons' row) and further
        down until clear of ``avoid`` (the other seats' cards and name plates: at 160 % it
        covered the plate and the dealer's button above it); its box."""
        banner = self.captions.banner
        if banner is None:
            return None
        text = banner[0]()
        app = self.app
        px = self.px
        lay = self.board.layout
        size = fit_text(app.assets, text, px(24), int(lay.w * 0.7), bold=True)
        image = app.assets.text(text, size, app.theme.text, bold=True)
        y = lay.centre[1] - lay.trick_w * CARD_RATIO * (0.95 if self.board.n <= 2 else 1.35)
        rect = image.get_rect(center=(round(lay.centre[0]), round(max(px(60), y))))
        back = rect.inflate(px(30), px(14))
        if back.top < clear:
            rect.move_ip(0, clear - back.top)
            back.move_ip(0, clear - back.top)
        for _tries in range(len(avoid)):
            hit = [box for box in avoid if box.colliderect(back.inflate(0, px(6)))]
            if not hit:
                break
            down = max(box.bottom for box in hit) + px(6) - back.top
            rect.move_ip(0, down)
            back.move_ip(0, down)
        draw_panel(surface, self.mark(back), app.theme, radius=back.h // 2)
        surface.blit(image, rect)
        return back

    def draw_last_trick(self, surface: pygame.Surface) -> None:
        seen = self.session.view()
        if not seen.tricks:
            return
        app = self.app
        px = self.px
        trick = seen.tricks[-1]
        lay = self.board.layout
        names = [seat.name for seat in self.session.seats]
        width = lay.trick_w
        gap = px(16)
        panel = pygame.Rect(
            0, 0, len(trick.cards) * (width + gap) + gap * 2, round(width * CARD_RATIO) + px(110)
        )
        panel.center = (round(lay.centre[0]), round(lay.centre[1]))
        # Clear of the player's own name plate below it (up as far as the window allows).
        plate_top = round(lay.spots[0].label[1] - lay.label_h / 2) - px(6)
        panel.bottom = min(panel.bottom, plate_top)
        panel.top = max(panel.top, px(4))
        draw_panel(surface, panel, app.theme)
        if self.is_player(trick.winner):
            title = _("Last trick: you took {points} points").format(points=trick.points)
        else:
            title = _("Last trick: {name} took {points} points").format(
                name=names[trick.winner], points=trick.points
            )
        size = fit_text(app.assets, title, px(20), panel.width - px(20), bold=True)
        text = app.assets.text(title, size, app.theme.text, bold=True)
        surface.blit(text, text.get_rect(midtop=(panel.centerx, panel.y + px(10))))
        x = panel.x + gap * 2
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            face = self.renderer.base(card, width)
            rect = face.get_rect(topleft=(x, panel.y + px(44)))
            surface.blit(face, rect)
            if seat == trick.winner:
                pygame.draw.rect(
                    surface, app.theme.accent, rect.inflate(6, 6), width=3, border_radius=px(8)
                )
            nsize = fit_text(app.assets, names[seat], px(16), width + gap)
            label = app.assets.text(names[seat], nsize, app.theme.text)
            surface.blit(label, label.get_rect(midtop=(rect.centerx, rect.bottom + px(6))))
            x += width + gap

    def draw_privacy(self, surface: pygame.Surface, seat: int) -> None:
        """Hot seat: the whole table covered until ``seat``'s player is ready."""
        app = self.app
        px = self.px
        surface.fill(app.theme.felt)
        app.backdrop.draw(surface, app.settings.table, True)
        title = _("Pass to {name}").format(name=self.session.seats[seat].name)
        w, h = surface.get_size()
        size = fit_text(app.assets, title, px(44), w - px(40), bold=True)
        text = app.assets.text(title, size, app.theme.accent, bold=True)
        surface.blit(text, text.get_rect(center=(w // 2, h // 2 - px(30))))
        hint = _("Click or press a key when ready")
        size = fit_text(app.assets, hint, px(22), w - px(40))
        hint_text = app.assets.text(hint, size, app.theme.text)
        surface.blit(hint_text, hint_text.get_rect(center=(w // 2, h // 2 + px(30))))
