"""What a server is told at its start: where it listens, its limits, its clocks."""

from __future__ import annotations

import ipaddress
import ssl
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from briscola.protocol.wire import CODE_ALPHABET, DEFAULT_PORT
from briscola.server.seats import TableConfig

__all__ = ["Network", "ServerConfig", "code_starts", "trusted_networks"]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks(proxies: Sequence[str]) -> tuple[Network, ...]:
    """The proxies whose ``X-Forwarded-For`` is believed (addresses or networks such as
    ``10.0.0.0/8``); raises ``ValueError`` naming a bad one."""
    networks = []
    for proxy in proxies:
        try:
            networks.append(ipaddress.ip_network(proxy.strip(), strict=False))
        except ValueError:
            raise ValueError(f"not an IP address or network: {proxy!r}") from None
    return tuple(networks)


def code_starts(letters: str) -> str:
    """The first characters a process's new table codes may have (``--code-start``, for a
    proxy that routes ``?table=CODE`` by it), upper-cased; raises ``ValueError`` naming
    what is wrong. Empty: any character of the code alphabet."""
    text = letters.strip().upper()
    wrong = sorted({char for char in text if char not in CODE_ALPHABET}, key=text.index)
    if wrong:
        raise ValueError(f"a table code holds only {CODE_ALPHABET}, not {''.join(wrong)!r}")
    return "".join(dict.fromkeys(text))


@dataclass
class ServerConfig:
    """Every limit and timing of the server (``python -m briscola.server --help``)."""

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    ssl: ssl.SSLContext | None = None
    records: Path | None = None
    #: Seconds a dropped player's seat waits before a computer player takes over.
    grace: float = 60.0
    #: Embedded in the host's app: the host leaving closes the table.
    embedded: bool = False
    #: A folder where the tables are kept on disk (:mod:`briscola.server.keep`), rebuilt
    #: from it when the server starts again there (the host's game died); None: in memory.
    keep: Path | None = None
    max_tables: int = 1000
    #: Open tables (waiting rooms included) one address may hold, and waiting rooms.
    max_tables_per_address: int = 32
    max_rooms_per_address: int = 8
    #: Tables one connection may open per minute (it sits at one table at a time).
    creates_per_minute: int = 10
    #: Seconds a waiting room with nobody connected waits for its people.
    room_grace: float = 15.0
    max_connections: int = 2000
    max_per_address: int = 64
    #: Largest frame accepted, in bytes (``websockets``' ``max_size``).
    max_message: int = 16 * 1024
    #: Messages per second per connection, with bursts of ``burst``.
    rate: float = 10.0
    burst: int = 30
    #: Refused (rate-limited) messages in a row before the connection is closed.
    strikes: int = 200
    hello_timeout: float = 10.0
    #: Seconds a connection may stay without a table before it is closed.
    idle_timeout: float = 300.0
    #: Seconds a waiting room may stay untouched before it is closed.
    lobby_timeout: float = 1800.0
    next_hand_timeout: float = 120.0
    #: Failed joins (bad code or token) per address within ``failed_join_window`` seconds.
    failed_joins: int = 10
    failed_join_window: float = 60.0
    ping_interval: float | None = 20.0
    ping_timeout: float | None = 20.0
    bot_threads: int = 2
    #: Computer players think in this many processes (0: in ``bot_threads`` threads).
    bot_processes: int = 0
    bot_time: float = 1.0
    bot_delay: float = 0.0
    #: Seconds a person may take over one move before a computer plays it (None: no limit).
    turn_timeout: float | None = 300.0
    takeover_level: str = "medium"
    #: Every table deals from this seed (tests that compare matches); None: random deals.
    seed: int | None = None
    #: Frames queued for one slow client before it is disconnected.
    outbox_limit: int = 1000
    #: Seconds between sweeps for idle tables.
    sweep_interval: float = 5.0
    #: ``redis://HOST:PORT/N``: keep tables in Redis, shared by every process that names it
    #: (:mod:`briscola.server.shared`); None: in this process's memory.
    redis: str | None = None
    #: Milliseconds a table's lease lasts unless its owner renews it (every third of it).
    lease_ms: int = 3000
    #: Proxies (addresses or networks) whose ``X-Forwarded-For`` header names the client:
    #: the per-address limits count that client, not the proxy. Nobody else's is believed.
    trusted_proxies: tuple[str, ...] = ()
    #: New table codes start with one of these characters (empty: any); several processes
    #: behind a proxy that routes by a code's first character each get their own.
    code_start: str = ""
    #: Seconds of waiting for a quick match before computer players are offered.
    bots_after: float = 30.0

    def __post_init__(self) -> None:
        trusted_networks(self.trusted_proxies)  # a bad one fails here, not at a connection
        self.code_start = code_starts(self.code_start)

    @cached_property
    def trusted(self) -> tuple[Network, ...]:
        """``trusted_proxies`` as networks (raises ``ValueError`` naming a bad one)."""
        return trusted_networks(self.trusted_proxies)

    def table_config(self) -> TableConfig:
        return TableConfig(
            grace=self.grace,
            room_grace=min(self.room_grace, self.grace),
            next_hand_timeout=self.next_hand_timeout,
            bot_delay=self.bot_delay,
            takeover_level=self.takeover_level,
            bot_time=self.bot_time,
            turn_timeout=self.turn_timeout,
            embedded=self.embedded,
            records=self.records,
            seed=self.seed,
        )
