"""Tables on the local network, over mDNS / DNS-SD (the ``zeroconf`` package).

A server announces each waiting room with a free seat as a service of type
:data:`SERVICE_TYPE`; :class:`TableBrowser` lists them for the "Join a table" screen.
TXT records hold only what the join screen shows: the protocol, the table code (the
invitation the host shows on screen anyway), the preset, the seat counts, the host's name
and the scheme. Seat tokens never leave the server. A table in play is announced too, with
``phase=playing`` and no free seat: never listed for joining, it tells its players' games
where it is (:meth:`TableBrowser.in_play`) when its host's game opened it again on another
port.

Both sides take ``interfaces`` (a list of addresses; zeroconf's default is every interface):
tests use ``["127.0.0.1"]`` inside a private network namespace.

>>> LanTable.from_properties("Ann K7MX2Q", "192.168.1.5", 8765, {b"code": b"K7MX2Q",
...     b"proto": b"briscola-net/1", b"preset": b"classic2", b"players": b"2",
...     b"free": b"1", b"host": b"Ann", b"scheme": b"ws"}).url
'ws://192.168.1.5:8765'
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import socket
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from zeroconf import ServiceBrowser, ServiceInfo, ServiceListener, Zeroconf
from zeroconf.asyncio import AsyncZeroconf

from briscola.protocol.wire import CODE_ALPHABET, CODE_LENGTH, PROTOCOL

__all__ = ["SERVICE_TYPE", "LanTable", "TableAnnouncer", "TableBrowser"]

SERVICE_TYPE: Final = "_briscola._tcp.local."


@dataclass(frozen=True)
class LanTable:
    """A table announced on the local network."""

    service: str
    address: str
    port: int
    code: str
    preset: str
    players: int
    free: int
    host: str
    scheme: str = "ws"
    protocol: str = PROTOCOL
    #: A table in play (announced for its own players' games, not to be joined).
    playing: bool = False

    @property
    def url(self) -> str:
        host = f"[{self.address}]" if ":" in self.address else self.address
        return f"{self.scheme}://{host}:{self.port}"

    @property
    def compatible(self) -> bool:
        """The table speaks this client's protocol version."""
        return self.protocol == PROTOCOL

    @classmethod
    def from_properties(
        cls, service: str, address: str, port: int, props: Mapping[bytes, bytes | None]
    ) -> LanTable | None:
        """Read an announcement's TXT records; None when they make no sense."""

        def text(key: str, limit: int = 40) -> str:
            value = props.get(key.encode())
            if value is None:
                return ""
            return value.decode("utf-8", "replace")[:limit]

        code = text("code").upper()
        if len(code) != CODE_LENGTH or any(char not in CODE_ALPHABET for char in code):
            return None
        try:
            players, free = int(text("players")), int(text("free"))
        except ValueError:
            return None
        scheme = text("scheme") or "ws"
        if scheme not in ("ws", "wss") or not 2 <= players <= 6 or not 0 <= free <= players:
            return None
        return cls(
            service=service,
            address=address,
            port=port,
            code=code,
            preset=text("preset"),
            players=players,
            free=free,
            host=text("host", 24),
            scheme=scheme,
            protocol=text("proto"),
            playing=text("phase") == "playing",
        )


def _properties(table: Any, scheme: str) -> dict[str, str]:
    playing = table.phase != "lobby"
    free = 0 if playing else sum(1 for s in table.seats if s.kind == "human" and not s.claimed)
    props = {
        "proto": PROTOCOL,
        "code": table.code,
        "preset": table.rules.name,
        "players": str(table.rules.players),
        "free": str(free),
        "host": table.seats[table.host].name,
        "scheme": scheme,
    }
    if playing:
        props["phase"] = "playing"
    return props


class TableAnnouncer:
    """Announce a server's waiting rooms on the local network (runs on the server's loop).

    ``address`` is the address clients should connect to (announced in the A record);
    ``interfaces`` where mDNS is spoken (None: zeroconf's default, every interface).
    """

    def __init__(
        self,
        server: Any,
        address: str,
        interfaces: Sequence[str] | None = None,
        interval: float = 1.0,
    ) -> None:
        self.server = server
        self.address = address
        self.interfaces = list(interfaces) if interfaces is not None else None
        self.interval = interval
        self._zc: AsyncZeroconf | None = None
        self._task: asyncio.Task[None] | None = None
        self._infos: dict[str, tuple[ServiceInfo, dict[str, str]]] = {}

    async def start(self) -> None:
        if self.interfaces is not None:
            self._zc = AsyncZeroconf(interfaces=self.interfaces)
        else:
            self._zc = AsyncZeroconf()
        self._task = asyncio.create_task(self._loop())

    async def _loop(self) -> None:
        while True:
            with contextlib.suppress(Exception):
                await self.sync()
            await asyncio.sleep(self.interval)

    async def sync(self) -> None:
        """Announce new waiting rooms with a free seat and tables in play, update changed
        ones, withdraw the rest."""
        zc = self._zc
        if zc is None:
            return
        scheme = "wss" if self.server.config.ssl is not None else "ws"
        wanted: dict[str, dict[str, str]] = {}
        for code, table in list(self.server.tables.items()):
            if table.phase != "closed":
                props = _properties(table, scheme)
                if props["free"] != "0" or "phase" in props:
                    wanted[code] = props
        for code in list(self._infos):
            if code not in wanted:
                info, _ = self._infos.pop(code)
                await zc.async_unregister_service(info)
        for code, props in wanted.items():
            old = self._infos.get(code)
            if old is not None and old[1] == props:
                continue
            info = ServiceInfo(
                SERVICE_TYPE,
                f"{_label(props['host'])} {code}.{SERVICE_TYPE}",
                addresses=[socket.inet_pton(_family(self.address), self.address)],
                port=self.server.port,
                properties=props,
                server=f"briscola-{code.lower()}.local.",
            )
            if old is None:
                await zc.async_register_service(info)
            else:
                await zc.async_update_service(info)
            self._infos[code] = (info, props)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._zc is not None:
            await self._zc.async_close()
            self._zc = None
        self._infos.clear()


def _label(name: str) -> str:
    return "".join(char for char in name if char.isalnum() or char == " ")[:24] or "table"


def _family(address: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in address else socket.AF_INET


class _Listener(ServiceListener):
    def __init__(self, names: queue.Queue[tuple[str, bool]]) -> None:
        self.names = names

    def add_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        self.names.put((name, True))

    def update_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        self.names.put((name, True))

    def remove_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        self.names.put((name, False))


class TableBrowser:
    """Find tables on the local network, in background threads: :meth:`tables` returns the
    current list at once (the join screen calls it every frame)."""

    def __init__(self, interfaces: Sequence[str] | None = None) -> None:
        self.interfaces = list(interfaces) if interfaces is not None else None
        self._zc: Zeroconf | None = None
        self._browser: ServiceBrowser | None = None
        self._names: queue.Queue[tuple[str, bool]] = queue.Queue()
        self._found: dict[str, LanTable] = {}
        self._lock = threading.Lock()
        self._resolver: threading.Thread | None = None
        self._stop = threading.Event()

    def start(self) -> TableBrowser:
        zc = Zeroconf(interfaces=self.interfaces) if self.interfaces is not None else Zeroconf()
        self._zc = zc
        self._browser = ServiceBrowser(zc, SERVICE_TYPE, listener=_Listener(self._names))
        self._resolver = threading.Thread(target=self._resolve, name="briscola-lan", daemon=True)
        self._resolver.start()
        return self

    def _resolve(self) -> None:
        while not self._stop.is_set():
            try:
                name, present = self._names.get(timeout=0.5)
            except queue.Empty:
                continue
            if not present:
                with self._lock:
                    self._found.pop(name, None)
                continue
            zc = self._zc
            if zc is None:
                return
            info = ServiceInfo(SERVICE_TYPE, name)
            with contextlib.suppress(Exception):
                if not info.request(zc, 3000):
                    continue
                addresses = info.parsed_addresses()
                if not addresses or info.port is None:
                    continue
                table = LanTable.from_properties(name, addresses[0], info.port, info.properties)
                with self._lock:
                    if table is None:
                        self._found.pop(name, None)
                    else:
                        self._found[name] = table

    def tables(self) -> list[LanTable]:
        """The waiting rooms found so far, by host name (tables in play are left out)."""
        with self._lock:
            found = [table for table in self._found.values() if not table.playing]
        return sorted(found, key=lambda t: (t.host.lower(), t.code))

    def in_play(self, code: str) -> LanTable | None:
        """The table in play with the code ``code``, where it is announced (None: not
        found, or not yet)."""
        with self._lock:
            return next((t for t in self._found.values() if t.playing and t.code == code), None)

    def close(self) -> None:
        self._stop.set()
        if self._browser is not None:
            self._browser.cancel()
        if self._zc is not None:
            self._zc.close()
            self._zc = None
        if self._resolver is not None:
            self._resolver.join(2)
