"""The player's hand under the mouse and the keyboard: hover, selection, dragging, hotkeys.

:class:`HandInput` turns input events on the shown seat's hand into one call of ``play``
(with the card chosen); it also lifts the hovered card, dims the ones that may not be played
and marks the hinted one (:meth:`HandInput.mark`), so that the painter only reads sprites.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pygame

from briscola.engine import Card
from briscola.gui.render.sprites import CardSprite
from briscola.gui.table.board import Board

#: Pixels the mouse must move, button held, before a press becomes a drag.
DRAG_THRESHOLD = 8


class HandInput:
    """Input on ``board``'s bottom hand; ``play(card)`` plays a card (False when refused)
    and ``settle()`` puts cards back where they belong."""

    def __init__(
        self, board: Board, play: Callable[[Card], bool], settle: Callable[[], None]
    ) -> None:
        self.board = board
        self.play = play
        self.settle = settle
        self.selected = 0
        #: The keyboard moved last: the focus ring shows on the selected card.
        self.keyboard = False
        self.hover: CardSprite | None = None
        self.press: tuple[CardSprite, tuple[int, int], tuple[float, float]] | None = None
        self.hint_card: Card | None = None

    @property
    def dragging(self) -> bool:
        return self.board.held is not None

    def reset(self) -> None:
        """Something happened on the table: the keyboard selection hides (it stays on the
        same place), so that a blind Enter at the next turn plays nothing; an arrow or
        Enter shows it again."""
        self.keyboard = False

    def select(self, card: Card) -> None:
        for i, sprite in enumerate(self.board.my_hand()):
            if sprite.card == card:
                self.selected = i

    def hinted(self) -> CardSprite | None:
        """The hinted card in the hand, if any."""
        if self.hint_card is None:
            return None
        return next((s for s in self.board.my_hand() if s.card == self.hint_card), None)

    def focused(self) -> CardSprite | None:
        """The card the keyboard focus ring is on (None when the mouse was used last)."""
        hand = self.board.my_hand()
        if not self.keyboard or not hand:
            return None
        return hand[min(self.selected, len(hand) - 1)]

    def mark(
        self,
        interactive: bool,
        legal: set[Card],
        accent: tuple[int, int, int],
        instant: bool,
    ) -> None:
        """Lift the hovered (or keyboard-selected) playable card, dim the others that may
        not be played, outline the hinted one in ``accent`` (another colour than the focus
        ring's). ``instant``: no easing (reduce motion)."""
        for i, sprite in enumerate(self.board.my_hand()):
            hovered = interactive and (
                sprite is self.hover or (self.keyboard and i == self.selected)
            )
            target = 1.0 if hovered and sprite.card in legal and not self.dragging else 0.0
            ease = 1.0 if instant else 0.35
            sprite.lift += (target - sprite.lift) * ease
            sprite.dim = bool(interactive and legal and sprite.card not in legal)
            sprite.glow = (
                accent if self.hint_card is not None and sprite.card == self.hint_card else None
            )

    def handle(self, event: pygame.event.Event, legal: list[Card] | None) -> None:
        """An input event; ``legal`` None when the player may not play now."""
        hand = self.board.my_hand()
        if legal is None:
            self.hover = None
            return
        if event.type == pygame.KEYDOWN:
            self._key(event.key, hand)
        elif event.type == pygame.MOUSEMOTION:
            self._motion(event)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            sprite = self.board.card_at(event.pos)
            if sprite is not None and sprite.card in legal:
                self.press = (sprite, event.pos, (event.pos[0] - sprite.x, event.pos[1] - sprite.y))
                self.board.held = None
                self.selected = hand.index(sprite)
            elif sprite is not None and sprite.card is not None:
                self.play(sprite.card)  # a dimmed card: refused, and the table says why
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.press is not None:
            sprite, _start, _grab = self.press
            dragged = self.dragging
            self.press = None
            self.board.held = None
            sprite.air = False
            wanted = not dragged or self.board.over_table(event.pos)
            if wanted and sprite.card is not None and self.play(sprite.card):
                return
            self.settle()

    def _key(self, key: int, hand: list[CardSprite]) -> None:
        if key in (pygame.K_LEFT, pygame.K_RIGHT) and hand:
            current = min(self.selected, len(hand) - 1)
            if not self.keyboard:
                # The first arrow shows the focus where it is (on the card under the mouse,
                # if any); the next ones move it.
                self.keyboard = True
                self.selected = hand.index(self.hover) if self.hover in hand else current
            else:
                step = -1 if key == pygame.K_LEFT else 1
                self.selected = (current + step) % len(hand)
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE) and hand:
            if not self.keyboard:  # nothing was shown selected: show it, play nothing yet
                self.keyboard = True
                self.selected = hand.index(self.hover) if self.hover in hand else self.selected
                return
            card = hand[min(self.selected, len(hand) - 1)].card
            if card is not None:
                self.play(card)
        elif pygame.K_1 <= key <= pygame.K_9:
            index = key - pygame.K_1
            chosen = hand[index].card if index < len(hand) else None
            if chosen is not None:
                self.selected = index
                self.play(chosen)

    def _motion(self, event: pygame.event.Event) -> None:
        self.keyboard = False
        if self.press is not None and event.buttons[0]:
            sprite, start, grab = self.press
            if not self.dragging and math.dist(start, event.pos) > DRAG_THRESHOLD:
                self.board.held = sprite
                sprite.air = True
                self.board.tweener.cancel(sprite)
            if self.dragging:
                sprite.x = event.pos[0] - grab[0]
                sprite.y = event.pos[1] - grab[1]
                sprite.lift = 0
            return
        self.hover = self.board.card_at(event.pos)
