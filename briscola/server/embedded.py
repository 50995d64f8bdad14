"""The host's own server: a :class:`~briscola.server.thread.ServerThread` started and stopped in
the background for a game that hosts a table, announced on the local network, closed at exit.

Nothing here waits: :meth:`EmbeddedHost.start` returns at once (``ready`` is set once the
server listens, or failed: ``error``), :meth:`EmbeddedHost.stop` closes it in a thread of
its own, and the game waits a little for those at exit, so that the guests hear that the
host closed the table. The online flow (:class:`briscola.client.flow.OnlineFlow`) is handed
one and drives it; the GUI only makes it, with the player's network options.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import ipaddress
import logging
import socket
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from briscola.protocol.errors import CloseReason
from briscola.protocol.wire import DEFAULT_PORT

if TYPE_CHECKING:
    from briscola.protocol.lan import TableAnnouncer
    from briscola.server.thread import ServerThread

__all__ = ["EmbeddedHost", "local_addresses"]

log = logging.getLogger("briscola.online")


def local_addresses() -> list[str]:
    """This computer's IPv4 addresses others on the network can reach (no loopback unless
    there is nothing else), best first. Asks no server: a UDP socket "connected" to a public
    address only picks the route."""
    found: list[str] = []
    with contextlib.suppress(OSError):
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: nothing is sent
            found.append(probe.getsockname()[0])
        finally:
            probe.close()
    with contextlib.suppress(OSError):
        for address in socket.gethostbyname_ex(socket.gethostname())[2]:
            if address not in found:
                found.append(address)
    usable = [a for a in found if not ipaddress.ip_address(a).is_loopback and a != "0.0.0.0"]
    return usable or ["127.0.0.1"]


class EmbeddedHost:
    """The host's own server, on its own thread: started and stopped in the background.

    ``bind`` is the address to listen on (``0.0.0.0``: every interface, for real play;
    tests use ``127.0.0.1``), ``port`` the port (0: any free one; :data:`DEFAULT_PORT` falls
    back to any free one when taken). With ``announce`` the waiting room is announced on
    the local network (see :mod:`briscola.protocol.lan`).
    """

    def __init__(
        self,
        bind: str = "0.0.0.0",
        port: int = DEFAULT_PORT,
        announce: bool = True,
        records: Path | None = None,
        grace: float = 60.0,
        options: dict[str, Any] | None = None,
        interfaces: list[str] | None = None,
        keep: Path | None = None,
    ) -> None:
        """``interfaces``: the addresses the table is announced on (None: every one).
        ``keep``: the folder where the table is kept while it is played (the game passes
        one in its data folder): a host whose game died starts a server there again and
        the table comes back (:mod:`briscola.server.keep`)."""
        self.bind = bind
        self.interfaces = interfaces
        self.port = port
        self.announce = announce
        #: Where the hands played are kept (None: nowhere; the game passes its records folder).
        self.records = records
        self.grace = grace
        self.keep = keep
        #: More of the server's settings (:class:`briscola.server.ServerConfig` fields).
        self.options = dict(options or {})
        self.server: ServerThread | None = None
        self.announcer: TableAnnouncer | None = None
        self.error: str | None = None
        self.ready = threading.Event()
        self._stopped = False
        self._lock = threading.Lock()

    def start(self) -> EmbeddedHost:
        """Start the server in the background (``ready`` is set once it listens or failed)."""
        threading.Thread(target=self._start, name="briscola-host", daemon=True).start()
        return self

    def _start(self) -> None:
        from briscola.server.app import ServerConfig
        from briscola.server.thread import ServerThread

        try:
            ports = [self.port] if self.port == 0 else [self.port, 0]
            server = None
            for index, port in enumerate(ports):
                config = ServerConfig(
                    host=self.bind,
                    port=port,
                    embedded=True,
                    records=self.records,
                    grace=self.grace,
                    keep=self.keep,
                    **self.options,
                )
                try:
                    server = ServerThread(config).start()
                    break
                except OSError:
                    if index == len(ports) - 1:
                        raise
            assert server is not None
            announcer = self._announce(server) if self.announce else None
            # Published only now: a stop() while the server was starting or being announced
            # leaves the closing to this thread (never a coroutine left unrun on a loop
            # that stopped, never an announcement left behind).
            with self._lock:
                stop = self._stopped
                if not stop:
                    self.server, self.announcer = server, announcer
            if stop:
                _close(server, announcer)
        except Exception as exc:  # shown to the player, never raised
            log.exception("cannot open the table")
            self.error = str(exc) or type(exc).__name__
        finally:
            self.ready.set()

    def _announce(self, server: ServerThread) -> TableAnnouncer | None:
        """Announce the table on the local network (None: it works unannounced)."""
        from briscola.protocol.lan import TableAnnouncer

        addresses = self.addresses()
        interfaces = self.interfaces
        address = addresses[0]
        if interfaces is not None and address not in interfaces:
            address = interfaces[0]
        announcer = TableAnnouncer(server.server, address, interfaces, interval=0.5)
        try:
            asyncio.run_coroutine_threadsafe(announcer.start(), server.loop).result(15)
        except Exception:  # the table works unannounced
            log.exception("cannot announce the table on the local network")
            return None
        return announcer

    @property
    def listening_port(self) -> int:
        return self.server.server.port if self.server is not None else self.port

    @property
    def url(self) -> str:
        """Where this computer's own client connects."""
        host = "127.0.0.1" if self.bind in ("0.0.0.0", "") else self.bind
        return f"ws://{host}:{self.listening_port}"

    def addresses(self) -> list[str]:
        """The addresses friends type to join (``address:port``)."""
        return local_addresses() if self.bind in ("0.0.0.0", "") else [self.bind]

    def stop(self) -> None:
        """Stop announcing and close the server, in the background (returns at once)."""
        with self._lock:
            self._stopped = True
            server, announcer = self.server, self.announcer
            self.server = self.announcer = None
        if server is None:
            return  # not started, or still starting: the starting thread closes it
        thread = threading.Thread(
            target=_close, args=(server, announcer), name="briscola-host-stop", daemon=True
        )
        thread.start()
        _stopping.append(thread)


def _close(server: ServerThread, announcer: TableAnnouncer | None) -> None:
    """Stop announcing the table, then close the server, telling the players."""
    if announcer is not None:
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(announcer.stop(), server.loop).result(10)
    server.stop(CloseReason.HOST_LEFT, "the host closed the table")


#: Embedded servers closing in the background: the game waits for them a little at exit,
#: so that the guests hear that the host closed the table.
_stopping: list[threading.Thread] = []


@atexit.register
def _finish_stopping(limit: float = 5.0) -> None:
    deadline = time.monotonic() + limit
    for thread in _stopping:
        thread.join(max(0.0, deadline - time.monotonic()))
