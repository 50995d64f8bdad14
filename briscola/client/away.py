"""The host's game away: a table hosted in a player's game (``hosted`` in the server's
``welcome``) lives and dies with that game. While a guest's client cannot reach it, the
guest is told whose game is away and until when the table waits for it (:data:`HOST_WAIT`
after it went); then the table has ended for the guest (``host_gone``) rather than a
reconnection that never ends. The host whose game died and starts again brings the table
back in the meantime (:mod:`briscola.server.keep`), and the client, still reconnecting,
resumes the seat.

>>> now = [100.0]
>>> away = HostAway(wait=300.0, clock=lambda: now[0], wall=lambda: 1_000.0 + now[0])
>>> away.look(lost=True), away.over
(1400.0, False)
>>> now[0] = 400.0
>>> away.look(lost=True), away.over
(1400.0, True)
>>> away.look(lost=False), away.over
(None, False)
"""

from __future__ import annotations

import time
from collections.abc import Callable

from briscola.protocol import messages as msg
from briscola.protocol.wire import HOST_WAIT

__all__ = ["HOST_WAIT", "HostAway", "host_name"]


def host_name(table: msg.TableInfo | None) -> str:
    """The name of the table's host ("?" when not known)."""
    host = table["host"] if table is not None else None
    entries = table["seats"] if table is not None else []
    return next((e["name"] for e in entries if e["seat"] == host), "") or "?"


class HostAway:
    """How long the host's game has been out of reach (``clock``: seconds that only go on;
    ``wall``: the time of day, for the player)."""

    def __init__(
        self,
        wait: float = HOST_WAIT,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.wait = wait
        self.clock = clock
        self.wall = wall
        self._since: float | None = None
        #: While away: the time of day (``time.time()``) the table is given up at.
        self.until: float | None = None

    def look(self, lost: bool) -> float | None:
        """The host's game is out of reach now (``lost``) or not: the time of day the
        table is given up at while it is, None once it is back."""
        if not lost:
            self._since = self.until = None
        elif self._since is None:
            self._since = self.clock()
            self.until = self.wall() + self.wait
        return self.until

    @property
    def over(self) -> bool:
        """The host's game stayed away too long: the table has ended."""
        return self._since is not None and self.clock() - self._since >= self.wait
