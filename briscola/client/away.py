"""The host's game away: a table hosted in a player's game (``hosted`` in the server's
``welcome``) lives and dies with that game. While a guest's client cannot reach it, the
guest is told whose game is away and until when the table waits for it (:data:`HOST_WAIT`
after it went); then the table has ended for the guest (``host_gone``) rather than a
reconnection that never ends. The host whose game died and starts again brings the table
back in the meantime (:mod:`briscola.server.keep`), and the client, still reconnecting,
resumes the seat; when its old port was taken it opens the table on another and announces
it on the local network, where :class:`TableSearch` finds it for the guest's game.

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
from typing import TYPE_CHECKING, Protocol

from briscola.protocol import messages as msg
from briscola.protocol.wire import HOST_WAIT

if TYPE_CHECKING:
    from briscola.protocol.lan import LanTable

__all__ = ["HOST_WAIT", "HostAway", "TableSearch", "host_name", "seat_states"]


def host_name(table: msg.TableInfo | None) -> str:
    """The name of the table's host ("?" when not known)."""
    host = table["host"] if table is not None else None
    entries = table["seats"] if table is not None else []
    return next((e["name"] for e in entries if e["seat"] == host), "") or "?"


def seat_states(table: msg.TableInfo | None) -> list[dict[str, object]]:
    """Per seat of ``table``: ``connected``, ``away`` (dropped, within the grace period)
    and ``replaced`` (a computer plays for the absent person)."""
    if table is None:
        return []
    return [
        {
            "seat": entry["seat"],
            "name": entry["name"],
            "connected": entry.get("connected"),
            "away": entry.get("away"),
            "replaced": entry.get("replaced"),
        }
        for entry in table["seats"]
    ]


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


class Lookout(Protocol):
    """What :class:`TableSearch` needs of :class:`briscola.client.lookout.LanLookout`."""

    def start(self) -> Lookout: ...

    def in_play(self, code: str) -> LanTable | None: ...

    def close(self) -> None: ...


def _lan_lookout(interfaces: list[str] | None) -> Lookout:
    from briscola.client.lookout import LanLookout  # (zeroconf: only when looked for)

    return LanLookout(interfaces)


class TableSearch:
    """Looks on the local network for a table in play while its host's game is away: a host
    whose game opened the table again on another port (its own was taken) announces it
    there (:mod:`briscola.protocol.lan`), and the guest's game reconnects to it. The look-out
    starts in the background on the first look and stops with :meth:`stop`; ``interfaces``:
    where mDNS is spoken (None: every interface)."""

    def __init__(
        self,
        interfaces: list[str] | None = None,
        lookout: Callable[[list[str] | None], Lookout] = _lan_lookout,
    ) -> None:
        self.interfaces = interfaces
        self._make = lookout
        self._lookout: Lookout | None = None

    def look(self, code: str) -> str | None:
        """The address (``ws://host:port``) where the table ``code`` is announced now, or
        None (not found yet; the first look starts the search)."""
        if self._lookout is None:
            self._lookout = self._make(self.interfaces).start()
        found = self._lookout.in_play(code)
        return found.url if found is not None and found.compatible else None

    def stop(self) -> None:
        """Stop looking (the table is back, or over); a later look starts again."""
        lookout, self._lookout = self._lookout, None
        if lookout is not None:
            lookout.close()
