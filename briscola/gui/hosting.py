"""Online play's shared parts: the host's embedded server, the texts of the server's errors
and of the connection, and :class:`OnlinePage`, the base of the online scenes (the hub, join,
the host's start and the waiting room).

Nothing here waits on the network: the embedded server starts and stops in a background
thread, and the scenes read what arrived once a frame (``NetClient.incoming``). While a
scene waits for the network it asks for a frame every :data:`POLL` seconds, so that the
window rests between messages and still shows them at once.
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
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from briscola.client.connection import Incoming, NetClient
from briscola.client.session import POLL, RemoteSession
from briscola.gui.widgets import BLINK_MS
from briscola.gui.widgets.page import FormPage
from briscola.protocol.errors import CloseReason
from briscola.protocol.wire import CODE_LENGTH, DEFAULT_PORT
from briscola.storage import paths
from briscola.storage.seats import SeatStore
from briscola.text.i18n import _

if TYPE_CHECKING:
    from briscola.gui.scene import Services
    from briscola.protocol.lan import TableAnnouncer
    from briscola.server import ServerThread

log = logging.getLogger("briscola.online")


#: Seconds between frames while a scene waits for network messages.
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


def address_url(text: str) -> str:
    """A server address as typed (``host``, ``host:port``, ``ws://...``, ``wss://...``) as a
    WebSocket URL. Raises ``ValueError`` for an empty or malformed address.

    >>> address_url("192.168.1.5")
    'ws://192.168.1.5:8765'
    >>> address_url(" tables.example.org:443 ")
    'ws://tables.example.org:443'
    >>> address_url("wss://tables.example.org")
    'wss://tables.example.org'
    """
    text = text.strip()
    if not text:
        raise ValueError("empty address")
    if text.startswith(("ws://", "wss://")):
        rest = text.split("://", 1)[1]
        if not rest or any(char.isspace() for char in rest):
            raise ValueError("malformed address")
        return text
    if "://" in text or any(char.isspace() for char in text):
        raise ValueError("malformed address")
    host, port = text, str(DEFAULT_PORT)
    if text.startswith("["):  # [IPv6]:port
        close = text.find("]")
        if close < 0:
            raise ValueError("malformed address")
        host, tail = text[: close + 1], text[close + 1 :]
        if tail:
            if not tail.startswith(":"):
                raise ValueError("malformed address")
            port = tail[1:]
    elif text.count(":") == 1:
        host, port = text.split(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError("malformed address")
    return f"ws://{host}:{int(port)}"


def saved_name(app: Services) -> str:
    """The name the player gave last (the New game screen's first seat), or empty."""
    data = app.settings.new_game
    if isinstance(data, dict):
        seats = data.get("seats")
        if isinstance(seats, list) and seats and isinstance(seats[0], dict):
            name = seats[0].get("name")
            if isinstance(name, str):
                return name
    return ""


def remember_name(app: Services, name: str) -> None:
    data = dict(app.settings.new_game) if isinstance(app.settings.new_game, dict) else {}
    seats = list(data.get("seats") or [])
    if not seats or not isinstance(seats[0], dict):
        seats[:1] = [{"name": name, "kind": "human"}]
    else:
        seats[0] = {**seats[0], "name": name, "kind": "human"}
    data["seats"] = seats
    app.settings.new_game = data
    app.save_settings()


# ---------------------------------------------------------------------- messages


def error_text(message: Incoming | dict[str, Any]) -> str:
    """A server's ``error``, ``closed`` or ``notice`` message, for the player."""
    data: dict[str, Any] = dict(message)
    code = str(data.get("code") or data.get("reason") or "")
    texts: dict[str, Callable[[], str]] = {
        "version": lambda: _(
            "The table runs another version of the game: both players need the same version."
        ),
        "bad_name": lambda: _(
            "The server refused that name: use letters, digits and spaces (at most 24)."
        ),
        "no_table": lambda: _("There is no table with that code. Check the code and try again."),
        "bad_code": lambda: _(
            "That is not a table code: a code has {n} characters, the letters A to Z but I,"
            " L and O, and the digits 2 to 9."
        ).format(n=CODE_LENGTH),
        "bad_token": lambda: _("Your seat at that table is gone."),
        "match_over": lambda: _("The match you left is over: your seat at that table is closed."),
        "too_many_failed_joins": lambda: _(
            "Too many wrong codes from this computer: wait a minute and try again."
        ),
        "rate_limited": lambda: _("Too many messages at once: slow down a little."),
        "server_full": lambda: _("The server is full: try again later."),
        "table_full": lambda: _("That table is full."),
        "seat_taken": lambda: _("That seat is taken."),
        "started": lambda: _("That game has already started."),
        "bad_rules": lambda: _("The server does not accept these rules."),
        "bad_seats": lambda: _("The server does not accept these seats."),
        "not_host": lambda: _("Only the host can start the game."),
        "not_ready": lambda: _("Every seat open to a friend must be taken and ready."),
        "host_left": lambda: _("The host closed the table."),
        "abandoned": lambda: _("Every other player left: the table is closed."),
        "idle": lambda: _("The table was closed after a long wait."),
        "shutdown": lambda: _("The server closed."),
        "replaced": lambda: _("Your seat was taken up from another window."),
        "timed_out": lambda: _("Your time to move ran out: a computer played that move for you."),
    }
    text = texts.get(code)
    if text is not None:
        return text()
    return _("The server refused: {reason}").format(reason=str(data.get("message", code)))


def connection_text(client: NetClient) -> str:
    """Where a connection stands, for the player (empty when connected)."""
    status = client.status
    if status in ("idle", "connecting"):
        return _("Connecting…")
    if status == "reconnecting":
        return _("Connection lost: reconnecting…")
    if status in ("failed", "closed"):
        return _("Cannot reach the server. Check the address and that the table is open.")
    return ""


# ---------------------------------------------------------------------- the embedded server


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
    ) -> None:
        """``interfaces``: the addresses the table is announced on (None: every one)."""
        self.bind = bind
        self.interfaces = interfaces
        self.port = port
        self.announce = announce
        self.records = records if records is not None else paths.records_dir() / "online"
        self.grace = grace
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
        from briscola.server import ServerConfig, ServerThread

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


class OnlineSession(RemoteSession):
    """A seat at a table on a server, as the window plays it: leaving never waits for the
    network (the connection closes in its own thread). While the match is under way the
    server keeps a seat that is left (a computer plays for it), so the seat kept in ``seats``
    stays, and Play online offers it back; once the match is over it is forgotten."""

    def __init__(self, client: NetClient, seats: SeatStore, backlog: list[Incoming]) -> None:
        super().__init__(client, backlog)
        self.held = seats

    @property
    def can_come_back(self) -> bool:
        """Leaving now keeps the seat: the match is under way, so the server lets this
        player take it back (with the token kept in ``seats``) until the match ends."""
        return self.closed is None and self.phase in ("playing", "between")

    def leave_question(self) -> str:
        """What leaving does, asked before the player leaves."""
        if self.can_come_back:
            return _(
                "Leave the table? A computer plays your cards from now on. You can take your"
                " seat back from Play online until the match ends."
            )
        return _("Leave the table? Your seat is given up.")

    def close(self) -> None:
        if not self.can_come_back:
            self.held.forget()
        self.client.leave()
        self.client.close(timeout=0)


class HostedSession(OnlineSession):
    """The host's seat: a remote session on the embedded server, which closes with it."""

    def __init__(
        self,
        client: NetClient,
        seats: SeatStore,
        host: EmbeddedHost,
        backlog: list[Incoming],
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


# ---------------------------------------------------------------------- the pages


class OnlinePage(FormPage):
    """A page with text fields, a message line and frames every :data:`POLL` seconds while
    it waits for the network."""

    def __init__(self, app: Services) -> None:
        super().__init__(app)
        self.message = ""
        #: The message is an error (drawn in the warning colour).
        self.message_bad = False

    @property
    def waiting(self) -> bool:
        """Network messages are expected: keep looking every :data:`POLL` seconds."""
        return False

    def say(self, text: str, bad: bool = False) -> None:
        self.message = text
        self.message_bad = bad

    def next_frame_in(self) -> float | None:
        due: float | None = POLL if self.waiting else None
        if self._typing is not None:
            blink = (BLINK_MS - pygame.time.get_ticks() % BLINK_MS) / 1000
            due = blink if due is None else min(due, blink)
        return due

    def draw_message(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        if not self.message:
            return
        theme = self.app.theme
        colour = (240, 120, 100) if self.message_bad else theme.text
        self.painter.paragraph(surface, self.message, box, self.px(18), colour, align="center")
