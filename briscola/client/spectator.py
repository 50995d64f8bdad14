"""A public table watched: the table's session interface for a spectator, at no seat.

:class:`SpectatorSession` is a :class:`~briscola.client.session.RemoteSession` whose view is
the server's spectator's view (seat ``-1``: no hand, no legal move, every card dealt or
drawn face down arriving as None), so the table scene draws a watched table as it draws
any other: the cards played, the piles and their points, the briscola and the stock, the
open signals, whose turn, the names, and every hand face down. It plays nothing: no legal
move, no signal, no next hand to ask for (it goes on with the table by itself, as a demo
does); leaving unwatches. Its messages go through a
:class:`~briscola.client.public.PublicSide` first, which watches the table again after a
dropped connection is back (the server forgets a spectator with its connection).

>>> from briscola.client.connection import NetClient
>>> side = PublicSide(NetClient("ws://127.0.0.1:9", "Ann", reconnect=False))
>>> side.take({"type": "watching", "table": "K7MX2Q"}), side.stage
(True, 'watching')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from briscola.client.connection import Incoming, NetClient
from briscola.client.public import PublicSide
from briscola.client.session import RemoteSession
from briscola.engine import Action, Signal
from briscola.engine.view import SPECTATOR
from briscola.game.session import TableNews

if TYPE_CHECKING:
    from briscola.game.session import TableSession

__all__ = ["SpectatorSession"]


class SpectatorSession(RemoteSession):
    """The table ``side`` watches, once its first ``update`` has come (``backlog``: the
    messages since ``watching``, which ``side`` has already taken)."""

    def __init__(self, client: NetClient, side: PublicSide, backlog: Iterable[Incoming]) -> None:
        self.side = side
        super().__init__(client, backlog)

    def _seat_of(self, client: NetClient) -> int:
        return SPECTATOR

    def _poll(self) -> None:
        for message in self.client.drain():
            self.side.take(message)  # (a reconnection: the side watches the table again)
            self._take(message)

    @property
    def code(self) -> str:
        """The table watched."""
        return self.side.watched or (self.table["table"] if self.table is not None else "")

    # ------------------------------------------------------------------ nothing to play

    @property
    def demo(self) -> bool:
        """Nobody at this screen plays: messages never say "you", and the table goes from
        hand to hand by itself."""
        return True

    @property
    def shown_seat(self) -> int | None:
        return None  # every hand face down

    def plays_here(self, seat: int) -> bool:
        return False

    def legal_actions(self) -> list[Action]:
        return []

    def submit(self, action: Action) -> bool:
        return False

    def send_signal(self, signal: Signal) -> bool:
        return False

    def next_hand(self) -> None:
        """The table shows no more of the hand over: the next deal shows when it comes."""
        if self._phase in ("between", "over"):
            self._asked = "next"

    def rematch(self) -> None:
        self.next_hand()

    def close(self) -> None:
        """Stop watching and close the connection (never waits)."""
        if self.side.stage == "watching":
            self.side.unwatch()
        self.client.close(timeout=0)

    def news(self) -> TableNews:
        return replace(super().news(), watching=True)


if TYPE_CHECKING:
    _CONFORMS: type[TableSession] = SpectatorSession
