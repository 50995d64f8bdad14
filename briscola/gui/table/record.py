"""Showing a recorded hand through the table's parts: :class:`RecordSession` is a
:class:`~briscola.game.session.SessionView` of one moment of the hand that never moves
(nothing to play: it is only read), and :func:`lay_out_trick` puts every card of that
moment on a :class:`Board` (every hand open, the next trick on the table with its winner
marked). The replay scene draws it with the table's
:class:`~briscola.gui.table.painter.TablePainter`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from briscola.engine import Action, Event, GameState, PlayerView, Rules, Trick, view
from briscola.game.session import NO_NEWS, Message, SeatInfo, SessionView, TableNews
from briscola.gui.render.sprites import CardSprite
from briscola.gui.table.board import Board


class RecordSession:
    """The hand ``state`` as the seat at the bottom (``seat``) knew it: nothing to play."""

    def __init__(self, state: GameState, names: Sequence[str], seat: int = 0) -> None:
        self.state = state
        self._seats = [SeatInfo(name, "bot") for name in names]
        self._seat = seat

    def name_seats(self, names: Sequence[str]) -> None:
        """Show ``names`` on the seats' plates."""
        self._seats = [SeatInfo(name, "bot") for name in names]

    @property
    def rules(self) -> Rules:
        return self.state.rules

    @property
    def seats(self) -> Sequence[SeatInfo]:
        return self._seats

    @property
    def demo(self) -> bool:
        return True

    @property
    def shown_seat(self) -> int | None:
        return self._seat

    @property
    def waiting_for(self) -> int | None:
        return None

    @property
    def to_play(self) -> int | None:
        return None

    @property
    def hand_over(self) -> bool:
        return True

    @property
    def hand_number(self) -> int:
        return 1

    @property
    def standing(self) -> Sequence[int]:
        return ()

    @property
    def dealer(self) -> int:
        return self.state.dealer

    @property
    def can_undo(self) -> bool:
        return False

    def view(self) -> PlayerView:
        return view(self.state, self._seat)

    def new_events(self) -> list[Event]:
        return []

    def plays_here(self, seat: int) -> bool:
        return False

    def legal_actions(self) -> list[Action]:
        return []

    def thinking(self) -> tuple[int, float] | None:
        return None

    def news(self) -> TableNews:
        return NO_NEWS

    def take_messages(self) -> list[Message]:
        return []

    def wake_in(self) -> float | None:
        return None


if TYPE_CHECKING:
    # mypy --strict checks here that a RecordSession is everything the table reads.
    _CONFORMS: type[SessionView] = RecordSession


def lay_out_trick(
    board: Board, state: GameState, trick: Trick | None, glow: tuple[int, int, int]
) -> None:
    """``board`` showing ``state`` (the hand before ``trick``) with every hand open and, when
    given, ``trick`` on the table, its winning card glowing in ``glow``."""
    session = RecordSession(state, ())
    board.open_hands = True
    board.rebuild(session.view(), 0)
    on_table = set(trick.cards) if trick is not None else set()
    board.hands = [
        [CardSprite(card) for card in hand if card not in on_table] for hand in state.hands
    ]
    board.table = []
    if trick is not None:
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            sprite = CardSprite(card)
            sprite.glow = glow if seat == trick.winner else None
            board.table.append((seat, sprite))
    board.settle(0)
