"""One client connection as the server keeps it: its outgoing queue, rate limit and place
at a table. A connection of another server process (``--redis``: a player connected there,
at a table driven here) is one too, with no WebSocket: its frames go out through Redis."""

from __future__ import annotations

import asyncio
import ipaddress
import itertools
import logging
import time
from collections import deque
from collections.abc import Sequence
from typing import Final

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers

from briscola.protocol import messages as msg
from briscola.protocol.errors import ErrorCode
from briscola.protocol.wire import encode
from briscola.server.config import Network, ServerConfig
from briscola.server.seats import Seat
from briscola.server.tables import Table

__all__ = [
    "CLOSE_ABUSE",
    "CLOSE_IDLE",
    "CLOSE_PROTOCOL",
    "CLOSE_REPLACED",
    "Conn",
    "address_of",
]

log = logging.getLogger("briscola.server")

#: Close codes of the application range (4000-4999) the server uses.
CLOSE_PROTOCOL: Final = 4000
CLOSE_ABUSE: Final = 4008
CLOSE_IDLE: Final = 4001
CLOSE_REPLACED: Final = 4002

_serials = itertools.count(1)


class Conn:
    """One client connection: its outgoing queue, rate limit and place at a table."""

    def __init__(self, ws: ServerConnection | None, address: str, config: ServerConfig) -> None:
        self.ws = ws
        self.address = address
        self.config = config
        self.name = ""
        #: The player, once identified: the SHA-256 of its key (:mod:`.people`; never sent).
        self.player_id: str | None = None
        self.table: Table | None = None
        self.seat: Seat | None = None
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.tokens = float(config.burst)
        self.stamp = time.monotonic()
        self.strikes = 0
        self.dropped = False
        #: Tells this connection's tables from another's (caps per connection).
        self.serial = next(_serials)
        #: When this connection opened its recent tables (``creates_per_minute``).
        self.created: deque[float] = deque()
        #: How the connection is closed once its outbox is sent (code, reason).
        self.close_with: tuple[int, str] = (1000, "")
        #: ``--redis``: the process that drives this connection's table, when not this one;
        #: the table and seat token it was given (to follow the table to another process).
        self.remote: str | None = None
        self.remote_code: str | None = None
        self.remote_token: str | None = None
        #: Its table's process went away and the table is being found again: messages sent
        #: meanwhile wait in ``held`` (the seat is resumed and sent the position first).
        self.rescuing = False
        #: Messages that came during a rescue: passed on, in order, once the seat is back.
        self.held: list[msg.ClientMessage] = []
        #: ``--redis``: what goes before each message relayed to ``remote`` (made once).
        self.relay_head = ""
        #: The public side (briscola.server.lobby): the table watched, the quick-match
        #: configurations waited for, the lobby's filter while the lobby is watched.
        self.watching: Table | None = None
        self.queued: tuple[str, ...] = ()
        self.lobby: tuple[str, ...] | None = None

    def post(self, text: str) -> None:
        if self.dropped:
            return
        if self.outbox.qsize() >= self.config.outbox_limit:
            self.dropped = True
            log.warning("%s: too slow to read, disconnected", self.address)
            self.outbox.put_nowait(None)
            return
        self.outbox.put_nowait(text)

    def error(
        self, code: ErrorCode, message: str, ref: object = None, protocol: str | None = None
    ) -> None:
        self.post(encode(msg.error(code, message, ref, protocol)))

    def allow(self) -> bool:
        """Token bucket: ``rate`` messages per second, bursts of ``burst``."""
        now = time.monotonic()
        self.tokens = min(
            float(self.config.burst), self.tokens + (now - self.stamp) * self.config.rate
        )
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.strikes = 0
            return True
        self.strikes += 1
        return False

    async def write_loop(self) -> None:
        assert self.ws is not None
        while True:
            text = await self.outbox.get()
            if text is None:
                if self.dropped:
                    await self.ws.close(CLOSE_ABUSE, "too slow to read")
                else:
                    await self.ws.close(*self.close_with)
                return
            try:
                await self.ws.send(text)
            except UnicodeEncodeError:  # never sent: one bad frame must not cost the connection
                log.exception("%s: a frame could not be encoded", self.address)


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def address_of(
    ws: ServerConnection, headers: Headers | None = None, trusted: Sequence[Network] = ()
) -> str:
    """The client's IP address (what the per-address limits count). Behind a proxy of
    ``trusted`` (``--trusted-proxy``), the address that proxy saw: the rightmost entry of
    ``X-Forwarded-For`` that is not itself a trusted proxy. The header of anyone else is
    ignored, as is an entry that is not an address (the peer counts then)."""
    remote = ws.remote_address
    peer = str(remote[0]) if isinstance(remote, tuple) and remote else str(remote)
    if not trusted or headers is None:
        return peer
    found = _ip(peer)
    if found is None or not any(found in network for network in trusted):
        return peer
    hops = [hop for value in headers.get_all("X-Forwarded-For") for hop in value.split(",")]
    address = peer
    for hop in reversed(hops):
        found = _ip(hop)
        if found is None:
            return address  # not written by a proxy of ours: stop at the last one that was
        address = str(found)
        if not any(found in network for network in trusted):
            return address
    return address
