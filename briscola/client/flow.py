"""Online play's flow, without a window: connect, host, join, take a seat back, the waiting
room, and leave, as a small state machine that any client drives (the pygame scenes, a
script, a bot, a terminal).

:class:`OnlineFlow` is fed the player's choices (:meth:`~OnlineFlow.host`,
:meth:`~OnlineFlow.create` (on another server, a public table), :meth:`~OnlineFlow.join`,
:meth:`~OnlineFlow.join_typed`, :meth:`~OnlineFlow.take_back`,
:meth:`~OnlineFlow.set_ready`, :meth:`~OnlineFlow.start`, :meth:`~OnlineFlow.leave`) and
looks at the network when asked (:meth:`~OnlineFlow.poll`, never waiting); a window only
draws :attr:`~OnlineFlow.stage`, :attr:`~OnlineFlow.table` and :attr:`~OnlineFlow.problem`.
Stages::

    idle ─ host ─▶ opening ─▶ joining ─▶ room ─▶ playing ─▶ handed (session)
    idle ─ create / join / take_back ──▶ joining ─▶ room ─▶ playing ─▶ handed (session)
    room ─▶ handed (hand_over: a script plays on) · room ─▶ closed (problem: a CloseReason)
    any ─▶ failed (problem: an ErrorCode) · any ─▶ left

What went wrong is a code of :mod:`briscola.protocol.errors` (:class:`Problem`), never a
sentence: :mod:`briscola.client.sentences` words it for a person. The seat a guest holds is
kept in the data folder (:class:`~briscola.storage.seats.SeatStore`) while it is held, so
that a game closed without leaving takes it back.

>>> flow = OnlineFlow("Anna")
>>> flow.join_typed("not an address", "K7MX2Q")
False
>>> flow.stage, flow.problem
('idle', Problem(code=<ErrorCode.BAD_ADDRESS: 'bad_address'>, detail='malformed address'))
>>> flow.join_typed("192.168.1.5", "K7M-X20")
False
>>> flow.problem.code
<ErrorCode.BAD_CODE: 'bad_code'>
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from briscola.client.connection import ConnectionStatus, Incoming, NetClient
from briscola.client.online import Host, HostedSession, OnlineSession
from briscola.engine import Rules
from briscola.protocol import messages as msg
from briscola.protocol import people
from briscola.protocol.errors import CloseReason, Code, ErrorCode, ProtocolError
from briscola.protocol.wire import DEFAULT_PORT, normalize_code
from briscola.storage.seats import HeldSeat, SeatStore

__all__ = ["Host", "OnlineFlow", "Problem", "Stage", "address_url"]

Stage = Literal[
    "idle", "opening", "joining", "room", "playing", "handed", "failed", "closed", "left"
]

#: Seconds a guest's client waits for the server to answer before it gives up.
OPEN_TIMEOUT = 8.0


@dataclass(frozen=True)
class Problem:
    """What went wrong: a code (a refusal, the table's end, the client's own failure) and
    the detail the server or the connection gave (in English, for logs and the unknown)."""

    code: Code
    detail: str = ""


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


class OnlineFlow:
    """One player's way to an online table and back, for the name ``name``; ``seats``: where
    a guest's seat is kept while it is held (None: nowhere). ``client``: how a connection
    is made (tests pass their own)."""

    def __init__(
        self,
        name: str,
        seats: SeatStore | None = None,
        client: Callable[..., NetClient] = NetClient,
    ) -> None:
        self.name = name
        self.seats = seats
        self._new_client = client
        self.stage: Stage = "idle"
        #: Why the flow failed or the table closed; in the room, the last refusal.
        self.problem: Problem | None = None
        self.client: NetClient | None = None
        #: The host's own server, when this player hosts the table.
        self.host_server: Host | None = None
        #: The table as the server last described it (the waiting room's seats).
        self.table: msg.TableInfo | None = None
        #: This player said they are ready (a guest in the waiting room).
        self.ready = False
        #: The address typed for the join under way (None: a table found on the network).
        self.typed_address: str | None = None
        self._taking_back = False
        #: The host's seat to take back once the host's server is open again.
        self._held: HeldSeat | None = None
        self._create: tuple[Rules, list[dict[str, object]]] | None = None
        self._messages: list[Incoming] = []
        #: Quick chat heard in the waiting room (the table's session keeps it in the game).
        self.said: list[people.Said] = []
        #: This player opened the table on another server (:meth:`create`): its host.
        self.created = False

    # ------------------------------------------------------------------ what it shows

    @property
    def hosting(self) -> bool:
        return self.host_server is not None

    @property
    def busy(self) -> bool:
        """The network is expected to say something: look again soon."""
        return self.stage in ("opening", "joining", "room")

    @property
    def code(self) -> str:
        """The table's code ("" before one is known)."""
        if self.table is not None:
            return self.table["table"]
        return (self.client.table or "") if self.client is not None else ""

    @property
    def connection(self) -> ConnectionStatus:
        """Where the connection stands (``closed`` when there is none)."""
        return self.client.status if self.client is not None else "closed"

    @property
    def seat(self) -> int | None:
        return self.client.seat if self.client is not None else None

    @property
    def is_host(self) -> bool:
        return self.table is not None and self.table["host"] == self.seat

    # ------------------------------------------------------------------ the player's choices

    def host(self, server: Host, rules: Rules, seats: Sequence[Mapping[str, object]]) -> None:
        """Open the table ``rules`` with ``seats`` on this computer's own ``server``."""
        if self.stage != "idle":
            return
        self.host_server = server
        self._create = (rules, [dict(seat) for seat in seats])
        self.stage = "opening"
        server.start()

    def create(
        self,
        url: str,
        rules: Rules,
        seats: Sequence[Mapping[str, object]],
        public: bool = False,
        key: str | None = None,
    ) -> None:
        """Open the table ``rules`` with ``seats`` on the server at ``url`` (``public``:
        listed in its lobby; ``key``: the player's key there, so that the seat carries the
        name the server knows)."""
        if self.stage not in ("idle", "failed"):
            return
        self.problem = None
        try:
            client = self._new_client(url, self.name, reconnect=False, open_timeout=OPEN_TIMEOUT)
        except ProtocolError as exc:
            self._fail(exc.code, str(exc))
            return
        except ValueError as exc:
            self._fail(ErrorCode.BAD_ADDRESS, str(exc))
            return
        if key is not None:
            client.identify(key)
        self.created = True
        self._connect(client)
        message = msg.create(rules.to_dict(), [dict(seat) for seat in seats], 0)
        if public:
            message["public"] = True
        client.submit(message)

    def join(self, url: str, code: str, key: str | None = None) -> None:
        """Join the table ``code`` of the server at ``url`` (``key``: the player's key there)."""
        if self.stage not in ("idle", "failed"):
            return
        self.problem = None
        try:
            client = self._new_client(
                url, self.name, reconnect=False, open_timeout=OPEN_TIMEOUT, table=code
            )
        except ProtocolError as exc:  # the name or the code
            self._fail(exc.code, str(exc))
            return
        except ValueError as exc:
            self._fail(ErrorCode.BAD_ADDRESS, str(exc))
            return
        if key is not None:  # (a public table: the seat shows the name the server knows)
            client.identify(key)
        self._connect(client)
        client.join(code)

    def join_typed(self, address: str, code: str) -> bool:
        """Join by an address and a code as typed; False (and :attr:`problem` says which,
        ``bad_address`` or ``bad_code``) when either cannot be one, and while a join is
        under way already."""
        if self.stage not in ("idle", "failed"):
            return False
        try:
            url = address_url(address)
        except ValueError as exc:
            self.problem = Problem(ErrorCode.BAD_ADDRESS, str(exc))
            return False
        try:
            table = normalize_code(code)
        except ProtocolError as exc:
            self.problem = Problem(ErrorCode.BAD_CODE, str(exc))
            return False
        self.join(url, table)
        self.typed_address = address.strip() if self.client is not None else None
        return self.client is not None

    def take_back(self, held: HeldSeat, host: Host | None = None) -> None:
        """Take back a seat held before (the game was closed without leaving the table).
        The host's seat (``held.hosted``) is taken back on ``host``, this computer's own
        server started again on the folder that kept the table (it rebuilds it)."""
        if self.stage not in ("idle", "failed"):
            return
        self.problem = None
        if held.gone(time.time()):  # its host's game stayed away: the table has ended
            self._forget()
            self._fail(ErrorCode.HOST_GONE, "")
            return
        if held.hosted and host is not None:
            self.host_server, self._create, self._held = host, None, held
            self.stage = "opening"
            host.start()
            return
        try:
            client = self._new_client(
                held.url, self.name, reconnect=False, open_timeout=OPEN_TIMEOUT
            )
        except ProtocolError as exc:  # the name: the seat waits for a better one
            self._fail(exc.code, str(exc))
            return
        except ValueError:
            self._forget()
            self._fail(ErrorCode.BAD_TOKEN, "the seat kept is not a valid one")
            return
        client.table, client.seat, client.token = held.code, held.seat, held.token
        self._taking_back = True
        self._connect(client)  # the client resumes the seat with its token

    def set_ready(self, ready: bool) -> None:
        if self.stage == "room" and self.client is not None:
            self.ready = ready
            self.client.ready(ready)

    def start(self, fill_bots: bool = False) -> None:
        """The host starts the game (``fill_bots``: free seats become computer players)."""
        if self.stage == "room" and self.client is not None:
            self.client.start_game(fill_bots)

    def leave(self) -> None:
        """Give up: the seat (in the waiting room), the join under way (a seat being taken
        back stays held), the table hosted. Nothing once the game has begun: the table's
        session leaves it."""
        if self.stage in ("playing", "handed", "left"):
            return
        seated = self.stage == "room"
        if seated:
            self._forget()
        self.stage = "left"
        self._close_client(leave=seated)
        self._stop_host()

    # ------------------------------------------------------------------ the network

    def poll(self) -> Stage:
        """Take in what happened since the last look (never waits); the stage now."""
        if self.stage == "opening":
            self._opening()
        if self.stage in ("joining", "room") and self.client is not None:
            for message in self.client.drain():
                if not self._take(message):
                    break
        return self.stage

    def _take(self, message: Incoming) -> bool:
        """Take in one message; False once the flow has ended (failed or closed)."""
        if self.stage == "playing":
            self._messages.append(message)  # the table's session reads these
        elif self.stage == "joining":
            self._joining(message)
        else:
            self._in_room(message)
        return self.stage not in ("failed", "closed")

    def _opening(self) -> None:
        server = self.host_server
        assert server is not None
        if not server.ready.is_set():
            return
        if server.error is not None:
            self._fail(ErrorCode.HOST_FAILED, server.error)
            self._stop_host()
            return
        client = self._new_client(server.url, self.name)
        held, self._held = self._held, None
        if held is not None:  # the table kept by the host's server: the seat back
            client.table, client.seat, client.token = held.code, held.seat, held.token
            self._taking_back = True
            self._connect(client)
            return
        assert self._create is not None
        self._connect(client)
        rules, seats = self._create
        client.create(rules, seats)

    def _joining(self, message: Incoming) -> None:
        if message["type"] == "error" and message.get("ref") in people.CLIENT_TYPES:
            self.problem = Problem(_error_code(message["code"]), message["message"])
            return  # (a refused name or chat: the join goes on)
        if message["type"] in ("error", "closed"):
            if self._taking_back:
                self._forget()  # the table or the seat is gone: nothing to take back
            self._refused(message)
            return
        if message["type"] == "status":
            if message["status"] in ("failed", "closed"):
                self._fail(ErrorCode.UNREACHABLE, message["detail"])
            return
        self._messages.append(message)
        if message["type"] == "joined":
            self.stage = "room"
            client = self.client
            assert client is not None
            client.reconnect = True  # from now on a dropped connection is retried
            self._remember(client)
        elif message["type"] == "table":
            self.table = message

    def _in_room(self, message: Incoming) -> None:
        if message["type"] == "closed":
            self._forget()  # the table is gone: no seat to take back
            self.problem = Problem(_close_reason(message["reason"]), message["message"])
            self.stage = "closed"
            self._close_client(leave=False)
            self._stop_host()
            return
        if message["type"] == "error":
            self.problem = Problem(_error_code(message["code"]), message["message"])
            return
        if message["type"] == "status":
            return  # the connection's state: ``client.status``
        if message["type"] == "said":
            self.said.append(message)
        if message["type"] == "table":
            self.table = message
            for seat in message["seats"]:
                if seat["seat"] == self.seat:
                    self.ready = bool(seat.get("ready"))
        if message["type"] in ("table", "update", "joined"):
            self._messages.append(message)
        if message["type"] == "update":
            self.stage = "playing"

    def session(self, seats: SeatStore) -> OnlineSession:
        """Once :attr:`stage` is ``playing``: the table's session of this seat, which takes
        the connection over (from the table's description and the first update on);
        ``seats`` keeps a guest's seat while it can be taken back. Once only."""
        client, self.client = self.client, None
        if self.stage != "playing" or client is None:
            raise RuntimeError("no game has begun at this table")
        messages, self._messages = self._messages, []
        first = next(i for i, m in enumerate(messages) if m["type"] == "update")
        backlog = [m for m in messages[:first] if m["type"] == "table"] + messages[first:]
        server, self.host_server = self.host_server, None
        self.stage = "handed"
        if server is not None:
            return HostedSession(client, seats, server, backlog)
        return OnlineSession(client, seats, backlog)

    def hand_over(self) -> tuple[NetClient, list[Incoming]]:
        """For a client that plays on by itself (a script, a bot: see
        :func:`briscola.client.headless.join_table`), once seated: the connection, and the
        messages the flow has read from it, in order. The flow is done with both."""
        client, self.client = self.client, None
        if self.stage not in ("room", "playing") or client is None:
            raise RuntimeError("not seated at a table")
        messages, self._messages = self._messages, []
        self.stage = "handed"
        return client, messages

    # ------------------------------------------------------------------ helpers

    def _connect(self, client: NetClient) -> None:
        self.client = client.start()
        self._messages = []
        self.stage = "joining"

    def _refused(self, message: msg.Error | msg.Closed) -> None:
        if message["type"] == "error":
            self._fail(_error_code(message["code"]), message["message"])
        else:
            self._fail(_close_reason(message["reason"]), message["message"])

    def _fail(self, code: Code, detail: str) -> None:
        self.problem = Problem(code, detail)
        self.stage = "failed"
        self._close_client(leave=False)
        self._stop_host()  # a table that could not be opened (or taken back) is not kept
        self.typed_address = None

    def _close_client(self, leave: bool) -> None:
        client, self.client = self.client, None
        if client is not None:
            if leave:
                client.leave()
            client.close(timeout=0)

    def _stop_host(self) -> None:
        server, self.host_server = self.host_server, None
        if server is not None:
            server.stop()

    def _remember(self, client: NetClient) -> None:
        """Keep the seat in the data folder: a guest's, and the host's when the host's
        server keeps the table on disk (``keep``: it comes back when the game dies)."""
        hosted = self.hosting
        if self.seats is None or (hosted and getattr(self.host_server, "keep", None) is None):
            return
        if client.table is not None and client.seat is not None and client.token is not None:
            held = HeldSeat(client.url, client.table, client.seat, client.token, hosted)
            self.seats.remember(held)

    def _forget(self) -> None:
        if self.seats is not None:
            self.seats.forget()


def _error_code(code: str) -> Code:
    """A refusal's code; one this client does not know (a newer server's) reads as the
    server failing, with its own words (:func:`_problem`)."""
    try:
        return ErrorCode(code)
    except ValueError:
        return ErrorCode.INTERNAL


def _close_reason(reason: str) -> Code:
    try:
        return CloseReason(reason)
    except ValueError:
        return CloseReason.SHUTDOWN
