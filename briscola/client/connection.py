"""The network client: an asyncio WebSocket connection in a background thread.

The window never waits on the network: :meth:`NetClient.submit` (and its helpers) only
queue a message, and everything the server sends lands in :attr:`NetClient.incoming`, a
thread-safe queue the GUI drains once a frame: each one a typed message of
:mod:`briscola.protocol.messages`, read by its codec (a frame that is no message arrives as an
``error`` with code ``malformed_from_server``; a message type this client does not know is
left out, as the protocol asks). Alongside them the queue carries a :class:`StatusNote`
(``{"type": "status", "status": ..., "detail": ...}``) when the connection changes
(``connecting``, ``connected``, ``reconnecting``, ``closed``, ``failed``).

A dropped connection is retried with exponential backoff and jitter; once the client holds
a seat (the ``joined`` message gave it a token) it takes the seat back with ``resume``.
``wss://`` addresses use TLS (the system's certificate authorities, or ``cafile``).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import random
import secrets
import ssl
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Final, Literal, TypedDict

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from briscola.engine import Action, Rules, Signal
from briscola.protocol import fairness as fair
from briscola.protocol import messages as msg
from briscola.protocol import people
from briscola.protocol.errors import CloseReason, ErrorCode, ProtocolError
from briscola.protocol.wire import check_name, encode, normalize_code, table_url

__all__ = ["ConnectionStatus", "Incoming", "NetClient", "StatusNote"]

ConnectionStatus = Literal["idle", "connecting", "connected", "reconnecting", "closed", "failed"]


class StatusNote(TypedDict):
    """The connection changed (this client's own note, never on the wire)."""

    type: Literal["status"]
    status: ConnectionStatus
    detail: str


#: What :attr:`NetClient.incoming` holds: the server's messages and the client's notes.
Incoming = msg.ServerMessage | StatusNote

#: ``closed`` reasons after which the seat is gone (every reason: a closed table is over).
_SEAT_GONE: Final = frozenset(CloseReason)
#: Errors after which the seat is gone.
_SEAT_LOST: Final = frozenset({ErrorCode.BAD_TOKEN, ErrorCode.MATCH_OVER})
#: Errors after which connecting again cannot help.
_FATAL: Final = frozenset({ErrorCode.BANNED})


class NetClient:
    """One player's connection to a server, run in its own thread.

    >>> client = NetClient("ws://127.0.0.1:9", "Ann", reconnect=False)
    >>> client.status
    'idle'
    """

    def __init__(
        self,
        url: str,
        name: str,
        *,
        reconnect: bool = True,
        cafile: str | None = None,
        ssl_context: ssl.SSLContext | None = None,
        backoff: float = 0.25,
        max_backoff: float = 10.0,
        open_timeout: float = 10.0,
        ping_interval: float | None = 10.0,
        ping_timeout: float | None = 20.0,
        max_size: int = 1 << 20,
        table: str | None = None,
    ) -> None:
        if not url.startswith(("ws://", "wss://")):
            raise ValueError(f"a server address starts with ws:// or wss://, got {url!r}")
        self.url = url
        self.name = check_name(name)
        self.reconnect = reconnect
        if ssl_context is None and cafile is not None:
            ssl_context = ssl.create_default_context(cafile=cafile)
        self.ssl_context = ssl_context
        self.backoff = backoff
        self.max_backoff = max_backoff
        self._jitter = random.Random()  # its own: a network thread leaves the global one alone
        self.open_timeout = open_timeout
        self.ping_interval = ping_interval
        self.ping_timeout = ping_timeout
        self.max_size = max_size
        #: Everything the server sent, plus ``status`` notes, in order.
        self.incoming: queue.Queue[Incoming] = queue.Queue()
        self.status: ConnectionStatus = "idle"
        self.detail = ""
        #: The seat held (from ``joined``): table code, seat number and the token to resume.
        self.table: str | None = None
        self.seat: int | None = None
        self.token: str | None = None
        #: The table this client is for (``table``: the code it will join), named in the
        #: address of every connection (``?table=CODE``) so that a proxy in front of
        #: several server processes can send it to the one holding the table.
        self.route = None if table is None else normalize_code(table)
        self.reconnects = 0
        #: The server runs in the host's game (``hosted`` in its ``welcome``).
        self.hosted = False
        #: The player's key on this server (:meth:`identify`: sent after every ``hello``),
        #: the name to register it with (until the server knows it), and the name the
        #: server's ``identity`` gave (None until then).
        self.key: str | None = None
        self.register: str | None = None
        self.identity: str | None = None
        self._connected_once = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._outbox: asyncio.Queue[str] | None = None
        self._stop: asyncio.Event | None = None
        self._ws: ClientConnection | None = None
        self._thread: threading.Thread | None = None
        self._started = threading.Event()
        self._lock = threading.Lock()
        self._early: list[str] = []
        #: Deals no one can choose (docs/fairness.md): the commitment received for each
        #: deal of the table before it was dealt, and the value sent for each commitment.
        self.commits: dict[int, str] = {}
        self.fair_values: dict[str, bytes] = {}
        self._joined: msg.Joined | None = None

    # ------------------------------------------------------------------ the thread

    def start(self) -> NetClient:
        """Start the network thread (returns at once)."""
        if self._thread is not None:
            raise RuntimeError("the client was already started")
        self._thread = threading.Thread(target=self._run, name="briscola-net", daemon=True)
        self._thread.start()
        self._started.wait(5)
        return self

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._main(loop))
        finally:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    def close(self, timeout: float = 5.0) -> None:
        """Close the connection and stop the thread (the seat stays until the grace
        period ends; send :meth:`leave` first to give it up)."""
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(stop.set)
        if self._thread is not None:
            self._thread.join(timeout)

    def kill(self) -> None:
        """Drop the connection abruptly, as a crash or a cable pulled would (tests)."""
        loop = self._loop
        if loop is None:
            return

        def abort() -> None:
            ws = self._ws
            if ws is not None and ws.transport is not None:
                ws.transport.abort()

        loop.call_soon_threadsafe(abort)

    # ------------------------------------------------------------------ sending

    def submit(self, message: msg.ClientMessage) -> None:
        """Queue a message for the server (thread-safe, never blocks). Messages sent while
        the connection is down go out once it is back."""
        text = encode(message)
        with self._lock:
            loop, outbox = self._loop, self._outbox
            if loop is None or outbox is None:
                self._early.append(text)
                return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(outbox.put_nowait, text)

    def create(
        self, rules: Rules, seats: Sequence[Mapping[str, object]] | None = None, seat: int = 0
    ) -> None:
        """Open a table: ``seats`` such as ``[{"kind": "human"}, {"kind": "bot",
        "level": "hard"}]`` (all open to people when None); this player sits at ``seat``."""
        self.submit(msg.create(rules.to_dict(), seats, seat))

    def join(self, code: str, seat: int | None = None) -> None:
        if self.route is None:
            with contextlib.suppress(ProtocolError):  # the server answers a bad code
                self.route = normalize_code(code)
        self.submit(msg.join(code, seat))

    def ready(self, ready: bool = True) -> None:
        self.submit(msg.ready(ready))

    def start_game(self, fill_bots: bool = False) -> None:
        self.submit(msg.start(fill_bots))

    def act(self, action: Action, moves: int | None = None) -> None:
        """Play ``action``; with ``moves`` (from the view's update) a stale move is refused."""
        self.submit(msg.act(action.to_json(), moves))

    def signal(self, signal: Signal) -> None:
        """Make a partner signal (not a move: no ``moves``; the server judges it)."""
        self.submit(msg.act(signal.to_json()))

    def next_hand(self) -> None:
        self.submit(msg.next_hand())

    def leave(self) -> None:
        """Give the seat up for good."""
        self.submit(msg.leave())
        self.token = None

    def identify(self, key: str, name: str | None = None) -> None:
        """Say who this player is on this server, now and after every reconnection
        (``name``: to register a key the server does not know yet); ``identity`` answers."""
        self.key, self.register = key, name
        if self.status == "connected":
            self.submit(people.identify(key, name))

    def rename(self, name: str) -> None:
        self.submit(people.rename(name))

    def chat(self, say: str) -> None:
        """Send a quick chat code (:data:`briscola.protocol.people.QUICK_CHAT`)."""
        self.submit(people.chat(say))

    def report(self, seat: int, reason: str = "other") -> None:
        self.submit(people.report(seat, reason))

    def leaderboard(self, family: str, count: int = 20) -> None:
        """Ask for ``family``'s top ``count`` and this player's place (``leaderboard``)."""
        self.submit(people.leaderboard(family, count))

    def rating_history(self, family: str) -> None:
        """Ask for this player's rating after each rated hand (``rating_history``)."""
        self.submit(people.rating_history(family))

    # ------------------------------------------------------------------ the loop

    def _note(self, status: ConnectionStatus, detail: str = "") -> None:
        self.status = status
        self.detail = detail
        self.incoming.put(StatusNote(type="status", status=status, detail=detail))

    async def _main(self, loop: asyncio.AbstractEventLoop) -> None:
        stop = asyncio.Event()
        outbox: asyncio.Queue[str] = asyncio.Queue()
        with self._lock:
            self._loop, self._stop, self._outbox = loop, stop, outbox
            for text in self._early:
                outbox.put_nowait(text)
            self._early.clear()
        self._started.set()
        attempt = 0
        fatal = False
        while not stop.is_set():
            self._note("connecting" if attempt == 0 and self.reconnects == 0 else "reconnecting")
            try:
                fatal = await self._connection(stop, outbox)
                attempt = 0
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as exc:
                self.detail = _describe(exc)
            except InvalidURI as exc:
                self._note("failed", str(exc))
                return
            if fatal or stop.is_set() or not self.reconnect:
                break
            self.reconnects += 1
            delay = min(self.max_backoff, self.backoff * 2**attempt)
            delay *= self._jitter.uniform(0.5, 1.0)
            attempt = min(attempt + 1, 16)
            self._note("reconnecting", self.detail)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), delay)
        if self.status != "failed":
            # Never reached the server and gave up: that is a failure, not a goodbye.
            given_up = not stop.is_set() and not self._connected_once
            self._note("failed" if given_up else "closed", self.detail)

    async def _connection(self, stop: asyncio.Event, outbox: asyncio.Queue[str]) -> bool:
        """One connection, from hello to its end. True when retrying cannot help."""
        async with connect(
            table_url(self.url, self.table or self.route),
            ssl=self.ssl_context if self.url.startswith("wss://") else None,
            open_timeout=self.open_timeout,
            ping_interval=self.ping_interval,
            ping_timeout=self.ping_timeout,
            max_size=self.max_size,
            compression=None,
            proxy=None,
        ) as ws:
            self._ws = ws
            await ws.send(encode(msg.hello(self.name)))
            welcome = _decode(await asyncio.wait_for(ws.recv(), self.open_timeout))
            if welcome is None or welcome["type"] != "welcome":
                if welcome is not None:
                    self.incoming.put(welcome)
                said = welcome.get("message") if welcome and welcome["type"] == "error" else None
                self._note("failed", said or "refused by the server")
                return True
            self.hosted = welcome.get("hosted") is True
            if self.key is not None:  # (before a resume: the seat shows the player's name)
                await ws.send(encode(people.identify(self.key, self.register)))
            if self.token is not None and self.table is not None:
                await ws.send(encode(msg.resume(self.table, self.token)))
            self._connected_once = True
            self._note("connected")
            sender = asyncio.create_task(self._send_loop(ws, outbox))
            stopper = asyncio.create_task(stop.wait())
            try:
                receiver = asyncio.create_task(self._receive_loop(ws))
                done, _ = await asyncio.wait(
                    {sender, stopper, receiver}, return_when=asyncio.FIRST_COMPLETED
                )
                if stopper in done:
                    sender.cancel()
                    with contextlib.suppress(ConnectionClosed, TimeoutError):
                        await asyncio.wait_for(self._flush(ws, outbox), 2.0)
                    await ws.close()
                for task in (sender, receiver):
                    if task in done and task.exception() is not None:
                        raise task.exception()  # type: ignore[misc]
            finally:
                for task in (sender, stopper, receiver):
                    task.cancel()
                self._ws = None
            if receiver.done() and not receiver.cancelled() and receiver.result():
                return True
            if ws.close_code is not None and ws.close_code >= 4000:
                self.detail = ws.close_reason or f"closed by the server ({ws.close_code})"
                return ws.close_code == 4000
            return False

    async def _flush(self, ws: ClientConnection, outbox: asyncio.Queue[str]) -> None:
        """Send what is still queued (a last ``leave``) before closing."""
        while not outbox.empty():
            await ws.send(outbox.get_nowait())

    async def _send_loop(self, ws: ClientConnection, outbox: asyncio.Queue[str]) -> None:
        while True:
            text = await outbox.get()
            try:
                await ws.send(text)
            except ConnectionClosed:
                outbox.put_nowait(text)  # not sent: it goes out after the reconnection
                raise

    async def _receive_loop(self, ws: ClientConnection) -> bool:
        """Pass frames on until the connection ends. True when the seat is gone for good."""
        gone = False
        try:
            async for text in ws:
                message = _decode(text)
                if message is not None and message["type"] == "commit":
                    self._contribute(message)
                self._release()
                if message is None or message["type"] == "commit":
                    continue  # (None: a message type of a newer server: ignored)
                if message["type"] == "identity":
                    self.identity = self.name = message["name"]
                    self.register = None
                elif message["type"] == "error" and message["code"] in _FATAL:
                    gone = True  # (told why: the message is in the queue)
                if message["type"] == "joined":
                    self.table = message["table"]
                    self.seat = message["seat"]
                    self.token = message["token"]
                    # Held until the next frame (the seat's commitment comes right after
                    # it): this game's value then goes out before anything its player
                    # sends on seeing the seat (docs/fairness.md).
                    self._joined = message
                    continue
                if message["type"] == "closed" and message["reason"] in _SEAT_GONE:
                    # A seat's table is gone for good: no reconnecting. A client at no table
                    # (told that the server stops) still tries again until a server is back.
                    gone = gone or self.token is not None
                    self.table = self.seat = self.token = None
                elif message["type"] == "left" or (
                    message["type"] == "error" and message["code"] in _SEAT_LOST
                ):
                    self.table = self.seat = self.token = None
                self.incoming.put(message)
        finally:
            self._release()
        return gone

    def _release(self) -> None:
        """Pass on a ``joined`` held back (see :meth:`_receive_loop`)."""
        held, self._joined = self._joined, None
        if held is not None:
            self.incoming.put(held)

    def _contribute(self, message: fair.Commit) -> None:
        """Answer a commitment with this game's own random value (the same one again for a
        commitment already answered), ahead of anything the player sends after it."""
        commit = message["commit"]
        self.commits[message["deal"]] = commit
        value = self.fair_values.setdefault(commit, secrets.token_bytes(32))
        if self._outbox is not None:
            self._outbox.put_nowait(encode(fair.contribute(commit, value)))

    # ------------------------------------------------------------------ reading

    def drain(self) -> list[Incoming]:
        """Every message received so far (never waits)."""
        out: list[Incoming] = []
        while True:
            try:
                out.append(self.incoming.get_nowait())
            except queue.Empty:
                return out

    def wait_for(self, want: Callable[[Incoming], bool], timeout: float = 10.0) -> Incoming:
        """Block until a message satisfies ``want`` (scripts and tests, not the GUI);
        messages before it are dropped. Raises ``TimeoutError``."""
        import time

        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no such message in time")
            try:
                message = self.incoming.get(timeout=left)
            except queue.Empty:
                continue
            if want(message):
                return message


def _decode(text: str | bytes) -> msg.ServerMessage | None:
    """A server's frame as its message; one that is none as an ``error`` reported here."""
    try:
        return msg.decode_server(text)
    except ProtocolError as exc:
        return msg.error(ErrorCode.MALFORMED_FROM_SERVER, str(exc))


def _describe(exc: BaseException) -> str:
    if isinstance(exc, ConnectionClosed):
        return "the connection was lost"
    if isinstance(exc, TimeoutError):
        return "the server did not answer in time"
    if isinstance(exc, ssl.SSLError):
        return f"secure connection failed: {exc.reason or exc}"
    if isinstance(exc, OSError):
        return f"cannot reach the server: {exc.strerror or exc}"
    return str(exc) or type(exc).__name__
