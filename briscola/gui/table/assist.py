"""What the table offers a learning player: explained hints, each card's expected points,
the memory aid and undo.

:class:`Assist` is one part of the table scene, fed the session and the board:

* **Hint** (H or the Hint button): the coach's best card glows and one sentence says why
  (:mod:`.coach`, computed in the background from the seat's :class:`PlayerView` only);
* **Values** (Settings, off by default): each card of the hand shows the points the coach
  expects the player's side to end with after it, during the player's turns;
* **Memory aid** (Settings, off by default; M or the Memory button): the cards played so
  far by suit and the points each side has taken, from what the seat has seen;
* **Undo** (U, Ctrl+Z or the Undo button), where the session allows it
  (``session.can_undo``: games against the computer only).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING

import pygame

from briscola.coach import BidAdvice, advise_bid
from briscola.engine import Card, PlayerView, Suit
from briscola.game.lesson import Teaching
from briscola.game.session import TableSession
from briscola.gui.table.board import Board
from briscola.gui.table.coach import Advice, TableCoach, make_note, place, turn_key
from briscola.gui.table.hand_input import HandInput
from briscola.gui.table.hud import hand_boxes, plate_boxes
from briscola.gui.widgets import Button, WidgetGroup, draw_panel
from briscola.text.coachtext import bid_text, reason_text
from briscola.text.i18n import _, decimal
from briscola.text.names import card_label, suit_name, suit_title

if TYPE_CHECKING:
    from briscola.gui.scene import Services

#: Seconds a turbo frame waits for the coach's hint (see Assist.update).
TURBO_WAIT = 10.0


def played_by_suit(seen: PlayerView) -> dict[Suit, list[Card]]:
    """Every card the seat has seen played (finished tricks and the table), by suit,
    strongest first."""
    cards = [card for trick in seen.tricks for card in trick.cards]
    cards += [card for _seat, card in seen.table]
    out: dict[Suit, list[Card]] = {suit: [] for suit in Suit}
    for card in cards:
        out[card.suit].append(card)
    for suit in out:
        out[suit].sort(key=lambda c: (-c.points, -int(c.rank)))
    return out


def points_taken(seen: PlayerView) -> list[tuple[tuple[int, ...], int]]:
    """The points each side (each seat in Chiamata) has taken in the finished tricks."""
    rules = seen.rules
    groups = list(rules.sides) if rules.sides else [(s,) for s in range(rules.players)]
    return [
        (group, sum(trick.points for trick in seen.tricks if trick.winner in group))
        for group in groups
    ]


def moved_this_hand(seen: PlayerView) -> bool:
    """The seat of ``seen`` has made a move in this hand (what an undo takes back)."""
    seat = seen.seat
    return (
        any(bidder == seat for bidder, _bid in seen.bids)
        or any(record.seat == seat for record in seen.swaps)
        or any(player == seat for player, _card in seen.table)
        or any(seat in trick.seats for trick in seen.tricks)
    )


class Assist:
    """The hint, values overlay, memory aid and undo of a table (see the module docstring).
    ``undone()`` is called after an undo so that the table redraws the position."""

    def __init__(
        self,
        app: Services,
        session: TableSession,
        board: Board,
        hand: HandInput,
        px: Callable[[float], int],
        undone: Callable[[], None],
    ) -> None:
        self.app = app
        self.session = session
        self.board = board
        self.hand = hand
        self.px = px
        self.undone = undone
        self.coach = TableCoach()
        #: The turn whose hint the player asked for.
        self.hint_turn: Hashable | None = None
        #: The auction turn whose bid (or call) the player asked for, and the advice.
        self._bid: tuple[Hashable, BidAdvice] | None = None
        self._hint_shown: Hashable | None = None
        self.memory_open = False
        self.undo_button = Button(lambda: _("Undo"), self.undo, name="undo")
        #: Where the card values were drawn last (card, badge), for the layout tests.
        self.value_boxes: list[tuple[Card, pygame.Rect]] = []
        self.memory_button = Button(lambda: _("Memory"), self.toggle_memory, name="memory")
        self.buttons = WidgetGroup([self.undo_button, self.memory_button])
        self._awaiting = False
        #: Where the last frame drew the hint, the caption and the memory aid.
        self.boxes: dict[str, pygame.Rect] = {}
        self._places: dict[Hashable, pygame.Rect] = {}
        #: The lesson's caption as of the last moment the table stood still (made again
        #: at each frame drawn while it stands still: the language may change).
        self.caption: tuple[str, str] | None = None
        self._settled = False

    # ------------------------------------------------------------------ state

    def turn(self) -> Hashable:
        return turn_key(self.session.view(), self.session.hand_number)

    def advice(self) -> Advice | None:
        """The coach's advice for the turn shown now, once computed."""
        return self.coach.advice(self.turn()) if self._awaiting else None

    def bid_turn(self, seen: PlayerView) -> Hashable:
        """What identifies a turn to bid or call."""
        return ("bid", self.session.hand_number, seen.phase, len(seen.bids))

    def ask_bid_hint(self, seen: PlayerView) -> BidAdvice:
        """The player asked for a hint on its bid or call (``seen``: its turn to)."""
        advice = advise_bid(seen)  # a few additions: no need for the background
        self._bid = (self.bid_turn(seen), advice)
        return advice

    def hint_text(self) -> str | None:
        """The hint's sentence, while the player's turn it was asked for lasts."""
        if not self._awaiting:
            return None
        if self._bid is not None:
            seen = self.session.view()
            if seen.phase in ("auction", "call") and self._bid[0] == self.bid_turn(seen):
                return bid_text(self._bid[1], self.app.settings.deck_style)
        if self.hint_turn != self.turn():
            return None
        advice = self.coach.advice(self.hint_turn)
        if advice is None:
            if self.coach.pending(self.hint_turn):
                return _("The coach is thinking…")
            return None
        return reason_text(advice.reason, self.app.settings.deck_style)

    def values(self) -> dict[Card, float]:
        """Each card's expected points, when the setting is on and they are known."""
        if not self.app.settings.coach_values or isinstance(self.session, Teaching):
            return {}  # (the lesson's own suggestions are not the search's)
        advice = self.advice()
        return dict(advice.assessment.values) if advice is not None else {}

    @property
    def can_undo(self) -> bool:
        """Undo does something now: the player is to move and has a move of this hand to
        take back (a bid, the call, a swap or a card; in every configuration alike)."""
        return self._awaiting and self.session.can_undo and moved_this_hand(self.session.view())

    # ------------------------------------------------------------------ actions

    def ask_hint(self, seen: PlayerView) -> None:
        """The player asked for a hint on ``seen`` (its turn): assess it in the background."""
        key = turn_key(seen, self.session.hand_number)
        self.hint_turn = key
        self._hint_shown = None
        self.coach.request(seen, key)

    def toggle_memory(self) -> None:
        self.memory_open = not self.memory_open and self.app.settings.memory_aid

    def undo(self) -> None:
        if self.can_undo and self.session.undo():
            self.hint_turn = None
            self.hand.hint_card = None
            self.hand.reset()
            self.undone()

    def update(self, awaiting: bool, settled: bool = True) -> None:
        """Once a frame; ``awaiting``: the player at the screen is to play now; ``settled``:
        no card is moving, so the lesson's caption may speak of the position reached (not
        while the cards it speaks of are still being dealt or gathered)."""
        self._awaiting = awaiting
        self._settled = settled
        self._refresh_buttons()
        if not self.app.settings.memory_aid:
            self.memory_open = False
        if not awaiting:
            return
        seen = self.session.view()
        key = turn_key(seen, self.session.hand_number)
        turbo = self.app.options.turbo
        if self.app.settings.coach_values:
            self.coach.request(seen, key)
            if turbo:
                self.coach.wait(key, TURBO_WAIT)  # as for the hint, below
        if isinstance(self.session, Teaching) and self.hint_turn != key:
            self.hand.hint_card = self.session.suggested()
        if self.hint_turn == key and self._hint_shown != key:
            if turbo:
                # Turbo (tests, smoke runs): frames do not outrun the coach, as they do not
                # outrun the computer players (a frame loop that never sleeps would starve
                # the coach's thread of Python's lock).
                self.coach.wait(key, TURBO_WAIT)
            advice = self.coach.advice(key)
            if advice is not None:
                self._hint_shown = key
                self.hand.hint_card = advice.best
                self.hand.select(advice.best)

    def next_frame_in(self) -> float | None:
        """Frames while an assessment the player waits for is running."""
        wanted = self.hint_turn is not None or self.app.settings.coach_values
        return 0.1 if self._awaiting and wanted and self.coach.pending(self.turn()) else None

    def close(self) -> None:
        self.coach.close()

    # ------------------------------------------------------------------ input

    def hotkey(self, event: pygame.event.Event) -> bool:
        """U or Ctrl+Z: undo; M: the memory aid. True when the key was one of them."""
        if event.type != pygame.KEYDOWN:
            return False
        ctrl = bool(event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META))
        if event.key == pygame.K_u or (event.key == pygame.K_z and ctrl):
            self.undo()
            return True
        if event.key == pygame.K_m and self.app.settings.memory_aid:
            self.toggle_memory()
            return True
        return False

    def handle_event(self, event: pygame.event.Event) -> bool:
        self._refresh_buttons()
        return self.buttons.handle_event(event)

    def covers(self, pos: tuple[int, int]) -> bool:
        return any(b.visible and b.rect.collidepoint(pos) for b in self.buttons.widgets)

    # ------------------------------------------------------------------ drawing

    def lay_out(self, right_of: pygame.Rect) -> None:
        """The buttons in the HUD's row, after ``right_of`` (the row's last button)."""
        px = self.px
        font = self.app.assets.font(int(right_of.height * 0.45), True)
        x = right_of.right + px(8)
        for button in self.buttons.widgets:
            assert isinstance(button, Button)
            width = max(px(70), font.size(button.label())[0] + px(24))
            button.rect = pygame.Rect(x, right_of.y, width, right_of.height)
            x += width + px(8)

    def _refresh_buttons(self) -> None:
        self.undo_button.visible = self.session.can_undo
        self.undo_button.enabled = self.can_undo
        self.memory_button.visible = self.app.settings.memory_aid

    def draw(self, surface: pygame.Surface, avoid: tuple[pygame.Rect, ...] = ()) -> None:
        """Buttons, values, the lesson's caption, the hint and the memory aid; the boxes keep
        clear of the cards and of ``avoid`` (the auction panel)."""
        app = self.app
        self._refresh_buttons()
        for button in self.buttons.widgets:
            if button.visible:
                button.draw(surface, app.assets, app.theme, False)
        self._draw_values(surface)
        self.boxes = {}
        if self._settled and isinstance(self.session, Teaching):
            self.caption = self.session.caption(app.settings.deck_style)
        showing_caption = self.caption is not None and not self.session.hand_over
        text = self.hint_text()
        if not (showing_caption or text is not None or self.memory_open):
            return  # no box to place: the obstacles are not worked out (every frame)
        # Each box goes where it covers no card, no name and no other box.
        obstacles = self._obstacles() + [rect.inflate(self.px(8), self.px(8)) for rect in avoid]
        if self.caption is not None and showing_caption:
            # (once the hand is over, the score screen has the lesson's last word)
            box = self._draw_caption(surface, self.caption, obstacles)
            self.boxes["caption"] = box
            obstacles.append(box.inflate(self.px(16), self.px(16)))
        if text is not None:
            self.boxes["hint"] = self._draw_hint(surface, text, obstacles)
            obstacles.append(self.boxes["hint"])
        if self.memory_open:
            self.boxes["memory"] = self.draw_memory(surface, obstacles)

    def _obstacles(self) -> list[pygame.Rect]:
        """What a box must not cover: every card but the player's hand (with room for the
        labels under piles), where the other hands lie at their largest, the names, and the
        match information at the top right."""
        px = self.px
        lay = self.board.layout
        hand = self.board.my_hand()
        mine = {id(sprite) for sprite in hand}
        rects = [
            sprite.rect().inflate(px(12), px(36))
            for sprite, _face in self.board.draw_order()
            if id(sprite) not in mine
        ]
        # The player's hand, a raised card included.
        rects += [sprite.rect().inflate(px(12), px(12)).move(0, -px(20)) for sprite in hand]
        rects += [sprite.rect().inflate(px(12), px(12)) for sprite in hand]
        rects += [box.inflate(px(12), px(12)) for box in hand_boxes(lay)]
        for spot in lay.spots:  # where the trick's cards land
            slot = pygame.Rect(0, 0, lay.trick_w + px(16), round(lay.trick_w * 1.6) + px(16))
            slot.center = (round(spot.trick[0]), round(spot.trick[1]))
            rects.append(slot)
        rects += plate_boxes(lay, px(140), px(8))
        rects.append(pygame.Rect(lay.w - px(260), 0, px(260), px(124)))
        return rects

    def _place(
        self,
        size: tuple[int, int],
        spots: list[tuple[str, tuple[int, int]]],
        obstacles: list[pygame.Rect],
        screen: pygame.Rect,
    ) -> pygame.Rect:
        """:func:`place`, remembered while nothing on the table moves (a frame's search over
        the whole window takes a millisecond or two)."""
        key = (size, tuple(spots), tuple(tuple(r) for r in obstacles), tuple(screen))
        found = self._places.get(key)
        if found is None:
            if len(self._places) > 32:
                self._places.clear()
            found = self._places[key] = place(size, spots, obstacles, screen, self.px(20))
        return found.copy()

    def _hud_bottom(self) -> int:
        return max(button.rect.bottom for button in self.buttons.widgets)

    def _draw_hint(
        self, surface: pygame.Surface, text: str, obstacles: list[pygame.Rect]
    ) -> pygame.Rect:
        """The hint's sentence beside the player's hand (bottom left, else bottom right,
        else above the hand, else under the buttons)."""
        px = self.px
        lay = self.board.layout
        rects = [sprite.rect() for sprite in self.board.my_hand()]
        hand = rects[0].unionall(rects[1:]) if rects else pygame.Rect(lay.w // 3, lay.h, 0, 0)
        width = max(px(240), min(px(520), hand.left - px(24)))
        theme = self.app.theme
        note = make_note(
            self.app.assets, max(13, px(18)), text, theme, width, px(12), _("Hint"), True
        )
        bottom = lay.h - px(10)
        spots = [
            ("bottomleft", (px(10), bottom)),
            ("bottomleft", (hand.right + px(14), bottom)),
            ("midbottom", (hand.centerx, hand.top - lay.label_h * 2)),
            ("topleft", (px(10), self._hud_bottom() + px(10))),
        ]
        box = self._place(note.size, spots, obstacles, surface.get_rect())
        note.draw(surface, box, theme)
        return box

    def _draw_caption(
        self, surface: pygame.Surface, caption: tuple[str, str], obstacles: list[pygame.Rect]
    ) -> pygame.Rect:
        """The lesson's caption, at the right under the match information (else at the left
        under the buttons)."""
        title, text = caption
        px = self.px
        lay = self.board.layout
        width = max(px(300), min(px(520), round(lay.w * 0.33)))
        theme = self.app.theme
        note = make_note(self.app.assets, max(14, px(18)), text, theme, width, px(12), title, True)
        spots = [
            ("topright", (lay.w - px(10), px(132))),
            ("topleft", (px(10), self._hud_bottom() + px(10))),
        ]
        box = self._place(note.size, spots, obstacles, surface.get_rect())
        note.draw(surface, box, theme)
        return box

    def _draw_values(self, surface: pygame.Surface) -> None:
        values = self.values()
        if not values:
            return
        theme = self.app.theme
        # The hint's card stands out, and with it any card the hint would call about as good
        # (a figure a little above the hint's is the search's noise, not a better card).
        advice = self.advice()
        found = advice.assessment if advice is not None else None
        px = self.px
        size = max(13, px(17))
        self.value_boxes = []
        for sprite in self.board.my_hand():
            if sprite.card is None or sprite.card not in values:
                continue
            points = values[sprite.card]
            top = found is not None and found.about_as_good(sprite.card)
            colour = theme.accent if top else theme.text
            image = self.app.assets.text(decimal(points), size, colour, True)
            rect = sprite.rect()
            # In the card's bottom left corner: the figure's face is in the upper middle,
            # the corner indices top left and bottom right, the next card covers the right.
            back = image.get_rect().inflate(px(12), px(4))
            back.bottomleft = (rect.left + px(5), rect.bottom - px(8))
            chip = image.get_rect(center=back.center)
            draw_panel(surface, back, theme, back.height // 2)
            surface.blit(image, chip)
            self.value_boxes.append((sprite.card, back))

    def memory_lines(self) -> list[tuple[str, str]]:
        """The memory aid's rows: (label, content), from the shown seat's view."""
        seen = self.session.view()
        style = self.app.settings.deck_style
        rows: list[tuple[str, str]] = []
        for suit, cards in played_by_suit(seen).items():
            title = suit_title(suit, style) or suit_name(suit, style).capitalize()
            if suit is seen.trump:
                title = _("{suit} (trump)").format(suit=title)
            rows.append((title, " ".join(card_label(c, style) for c in cards) or "–"))
        names = [seat.name for seat in self.session.seats]
        for group, points in points_taken(seen):
            who = " & ".join(names[s] for s in group)
            rows.append((who, _("{points} points").format(points=points)))
        return rows

    def draw_memory(self, surface: pygame.Surface, obstacles: list[pygame.Rect]) -> pygame.Rect:
        """The memory aid: at the top right under the match information, else at the left
        under the buttons, else at the bottom right."""
        app = self.app
        theme = app.theme
        px = self.px
        size = max(13, px(17))
        font = app.assets.font(size)
        bold = app.assets.font(size, True)
        rows = self.memory_lines()
        suits = len(Suit)
        label_w = max(bold.size(label)[0] for label, _text in rows)
        text_w = max(font.size(text)[0] for _label, text in rows)
        step = font.get_linesize()
        pad = px(12)
        heading = _("Cards played")
        taken = _("Points taken")
        width = max(label_w + text_w + px(16), bold.size(heading)[0]) + 2 * pad
        height = (len(rows) + 2) * step + px(8) + 2 * pad
        w, h = surface.get_size()
        spots = [
            ("topright", (w - px(10), px(132))),
            ("topleft", (px(10), self._hud_bottom() + px(10))),
            ("bottomright", (w - px(10), h - px(10))),
        ]
        box = self._place((width, height), spots, obstacles, surface.get_rect())
        draw_panel(surface, box, theme, pad)
        x, y = box.x + pad, box.y + pad
        for i, (label, text) in enumerate(rows):
            if i == 0 or i == suits:
                title = heading if i == 0 else taken
                surface.blit(app.assets.text(title, size, theme.accent, True), (x, y))
                y += step + (px(8) if i else 0)
            surface.blit(app.assets.text(label, size, theme.dim, True), (x, y))
            surface.blit(app.assets.text(text, size, theme.text), (x + label_w + px(16), y))
            y += step
        return box
