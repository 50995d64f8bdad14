"""A seat at an online table as a game plays it: a :class:`RemoteSession` whose leaving
never waits for the network and knows whether the seat can be taken back.

While the match is under way the server keeps a seat that is left (a computer plays for
it), so the seat kept in the data folder stays, and Play online offers it back; once the
match is over it is forgotten. The host's seat (:class:`HostedSession`) closes the table,
and the host's own server, with it. :meth:`briscola.client.flow.OnlineFlow.session` makes
the right one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from briscola.client.away import TableSearch, host_name
from briscola.client.connection import Incoming, NetClient
from briscola.client.kept import keep_hand
from briscola.client.session import RemoteSession
from briscola.game.session import TableNews
from briscola.storage.seats import HeldSeat, SeatStore
from briscola.text.i18n import _

__all__ = ["Host", "HostedSession", "OnlineSession"]


class Host(Protocol):
    """The host's own server (:class:`briscola.server.embedded.EmbeddedHost`), as the flow
    drives it: started in the background, ``ready`` once it listens or failed (``error``)."""

    ready: threading.Event
    error: str | None

    @property
    def url(self) -> str: ...

    def start(self) -> Host: ...

    def stop(self) -> None: ...


class OnlineSession(RemoteSession):
    """A guest's seat; ``seats`` keeps it while it can be taken back."""

    def __init__(self, client: NetClient, seats: SeatStore, backlog: Iterable[Incoming]) -> None:
        self.held = seats
        self._kept_until: float | None = None
        #: Where the hand under way was kept when the table ended under it, or when the
        #: player gave up waiting for the host's game (None: not kept).
        self.hand_kept: Path | None = None
        #: Looks on the local network for the table while its host's game is away (the
        #: game sets one when the player lets it look for tables there).
        self.search: TableSearch | None = None
        super().__init__(client, backlog)

    @property
    def can_come_back(self) -> bool:
        """Leaving now keeps the seat: the match is under way, so the server lets this
        player take it back (with the token kept in ``seats``) until the match ends."""
        return self.closed is None and self.phase in ("playing", "between")

    def leave_question(self) -> str:
        """What leaving does, asked before the player leaves."""
        if self.can_come_back and self.host_away.until is not None:
            return _(
                "Leave the table? {name}'s game is away: the hand so far is kept among your"
                " recent hands, and Play online offers your seat back while the table can"
                " still come back."
            ).format(name=host_name(self.table))
        if self.can_come_back:
            return _(
                "Leave the table? A computer plays your cards from now on. You can take your"
                " seat back from Play online until the match ends."
            )
        return _("Leave the table? Your seat is given up.")

    def banner(self) -> tuple[str, str] | None:
        """As a remote session's; while the host's game is away the seat kept says until
        when the table can come back (Play online offers it back no later)."""
        shown = super().banner()
        until = self.host_away.until
        if until != self._kept_until and self.closed is None:
            self._kept_until = until
            self._hold(lambda held: replace(held, until=until))
        self._look_for_table()
        return shown

    def _hold(self, change: Callable[[HeldSeat], HeldSeat]) -> None:
        """Change the seat kept (while it is this table's)."""
        held = self.held.saved()
        if held is not None and held.code == self.client.table:
            self.held.remember(change(held))

    def _look_for_table(self) -> None:
        """While the host's game is away, look for the table on the local network: a host
        whose game opened it again on another port announces it there; the client then
        reconnects to that address (and the seat kept says so)."""
        search = self.search
        if search is None:
            return
        if self.host_away.until is None or self.closed is not None:
            search.stop()
            return
        url = search.look(self.client.table or "")
        if url is not None and url != self.client.url:
            self.client.url = url  # the next attempt goes there
            self._hold(lambda held: replace(held, url=url))

    def news(self) -> TableNews:
        """As a remote session's; once the table has ended in the middle of a hand, the
        hand so far is kept among the recent hands (``hand_kept``)."""
        news = super().news()
        if news.ended is not None:
            self.keep_hand(news.ended)
        return news

    def keep_hand(self, reason: str) -> None:
        """Keep the hand under way as this seat saw it (once), stopped for ``reason``
        (:mod:`briscola.client.kept`); the statistics do not count it."""
        if self.hand_kept is None and self.phase == "playing" and self.seat >= 0:
            seen, hand = self._hand_seen, (self._deal, self.hand_number)
            self.hand_kept = keep_hand(
                self.rules, self.seat, seen, self.table, hand, reason, self._updates
            )

    def close(self) -> None:
        if self.host_away.until is not None and self.closed is None:
            self.keep_hand("left")  # gave up waiting for the host's game
        if not self.can_come_back:
            self.held.forget()
        if self.search is not None:
            self.search.stop()
        self.client.leave()
        self.client.close(timeout=0)


class HostedSession(OnlineSession):
    """The host's seat: a remote session on the host's own server, which closes with it."""

    def __init__(
        self, client: NetClient, seats: SeatStore, host: Host, backlog: Iterable[Incoming]
    ) -> None:
        super().__init__(client, seats, backlog)
        self.host = host

    @property
    def can_come_back(self) -> bool:
        """The table lives in this game: leaving closes it for everyone."""
        return False

    def leave_question(self) -> str:
        return _("Leave the table? You host it: the table closes for everyone and the match ends.")

    def close(self) -> None:
        super().close()
        self.host.stop()
