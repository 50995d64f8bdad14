"""A client as another program would write it, from ``docs/network-protocol.md`` alone: the
documented frames, built and read through :mod:`briscola.protocol` (no engine, no client
package, no server), over plain ``websockets`` connections.

:class:`OutsideClient` opens a table (``create``, the other seats computers or people) or
joins one (``join``, then ``ready``), plays random legal moves (after a think time), sends
``next`` between hands and answers each ``commit`` with ``contribute``. A dropped connection
is opened again with backoff (0.25 s doubling to 10 s, with jitter: "Reconnection and the
grace period"), with ``hello`` and ``resume`` (code and token); after a ``reset`` it does
what "After a reset" says: a move sent and never answered is sent again with the reset's
``moves`` when it is still legal. ``unavailable`` is tried again a moment later.

``tests/protocol/test_outside_client.py`` checks its imports and that it finishes a hand of
every preset; ``python -m tools.kill_run`` plays many tables with it while server processes
are killed with ``kill -9``.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import time
from collections import Counter, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from briscola.protocol import fairness, wire
from briscola.protocol import messages as msg

__all__ = ["Hooks", "OutsideClient", "Tally", "play_hands"]

#: Close codes after which the seat is not resumed: replaced (another connection took it).
_FINAL_CLOSES = frozenset({4002})
#: Reconnection backoff: the first delay, the longest (seconds).
BACKOFF = (0.25, 10.0)


class Hooks:
    """What a program driving many clients is told (the kill run); by default nothing."""

    async def before_move(self, client: OutsideClient) -> Callable[[bool], None] | None:
        """Called before each ``act`` is sent; what it returns is called right after the
        send (True), or with False when the position changed meanwhile and nothing went."""
        return None

    def heard(self, client: OutsideClient, message: Mapping[str, Any]) -> None:
        """Every message the client receives, as it arrives."""


@dataclass
class Tally:
    """What one seat saw."""

    #: (deal) of every hand dealt to the seat, and the record of each it saw end.
    deals: set[int] = field(default_factory=set)
    records: dict[int, dict[str, Any]] = field(default_factory=dict)
    moves: int = 0
    #: Moves sent again after a ``reset`` (lost with a process that died).
    sent_again: int = 0
    resets: int = 0
    reconnections: int = 0
    #: Error frames by code and the type of message each answered: ``stale (act)``.
    errors: Counter[str] = field(default_factory=Counter)
    #: Each error frame but ``stale``: its code, what it answered, the position and message.
    refused: list[str] = field(default_factory=list)
    notices: Counter[str] = field(default_factory=Counter)
    #: ``closed``'s reason when the table ended under the seat; why the client gave up.
    closed: str | None = None
    gave_up: str | None = None
    #: The longest wait between two messages of the table (seconds), and when.
    longest_gap: float = 0.0


class OutsideClient:
    """One seat, played from the documented frames. ``urls``: the server's address (or the
    addresses of its processes, tried in turn when reconnecting); ``hands``: hands to play
    before leaving (0: until :attr:`stopping`)."""

    def __init__(
        self,
        urls: Sequence[str],
        name: str,
        *,
        hands: int = 1,
        think: float = 0.0,
        rng: random.Random | None = None,
        hooks: Hooks | None = None,
        give_up: float = 120.0,
    ) -> None:
        self.urls = list(urls)
        self.name = name
        self.hands = hands
        self.think = think
        self.rng = rng or random.Random()
        self.hooks = hooks or Hooks()
        self.give_up = give_up
        self.tally = Tally()
        self.code: str | None = None
        self.token: str | None = None
        self.seat = -1
        self.host = False
        #: Set by whoever drives the client: finish the hand under way, then leave.
        self.stopping = False
        self.done = False
        self.ws: ClientConnection | None = None
        self._url = 0
        self._started = False
        self._people = 1
        #: The last update's (deal, moves), and the move sent from it not yet answered.
        self.position: tuple[int, int] | None = None
        self.phase = ""
        #: The last few messages in and out, for the report of an error frame.
        self._recent: deque[str] = deque(maxlen=8)
        self.pending: tuple[int, int, dict[str, Any]] | None = None
        self._mover: asyncio.Task[None] | None = None
        self._heard_at = time.monotonic()

    # ------------------------------------------------------------------ connecting

    async def _open(self) -> ClientConnection:
        url = wire.table_url(self.urls[self._url % len(self.urls)], self.code)
        ws = await connect(url, open_timeout=10, proxy=None, compression=None)
        try:
            await ws.send(msg.encode(msg.hello(self.name)))
            while (first := msg.decode_server(await asyncio.wait_for(ws.recv(), 10))) is None:
                pass
            if first["type"] != "welcome":
                raise RuntimeError(f"{self.name}: hello answered {first}")
        except BaseException:
            await ws.close()
            raise
        self.ws = ws
        return ws

    async def _until(self, kind: str) -> msg.ServerMessage:
        """Read (handling each message) until one of type ``kind``; an error fails."""
        assert self.ws is not None
        while True:
            message = msg.decode_server(await asyncio.wait_for(self.ws.recv(), 30))
            if message is None:
                continue
            if message["type"] == "error":
                raise RuntimeError(f"{self.name}: refused: {message}")
            await self._handle(message)
            if message["type"] == kind:
                return message

    async def create(
        self,
        rules: Mapping[str, Any],
        seats: Sequence[Mapping[str, Any]] | None = None,
        people: int = 1,
    ) -> str:
        """Open a table as its host (seat 0); its code. Started once ``people`` seats are
        taken and ready (the host's among them): the free seats become computers."""
        self._people = people
        await self._open()
        assert self.ws is not None
        await self.ws.send(msg.encode(msg.create(rules, seats, 0)))
        await self._until("joined")
        self.host = True
        assert self.code is not None
        return self.code

    async def join(self, code: str) -> None:
        """Sit at the table ``code`` (the first free seat) and say ready."""
        self.code = code
        await self._open()
        assert self.ws is not None
        await self.ws.send(msg.encode(msg.join(code)))
        await self._until("joined")
        await self.ws.send(msg.encode(msg.ready()))

    async def play(self) -> Tally:
        """Play until the hands are done (or :attr:`stopping` and a hand is over), the
        table ends, or the seat cannot be resumed for :attr:`give_up` seconds."""
        while not self.done:
            await self._session()
            if self.done or not await self._reconnect():
                break
        if self._mover is not None:
            self._mover.cancel()
        if self.ws is not None:
            await self.ws.close()
        return self.tally

    async def _session(self) -> None:
        ws = self.ws
        assert ws is not None
        try:
            async for text in ws:
                now = time.monotonic()
                self.tally.longest_gap = max(self.tally.longest_gap, now - self._heard_at)
                self._heard_at = now
                message = msg.decode_server(text)
                if message is not None:
                    self._note(message, "<")
                    self.hooks.heard(self, message)
                    await self._handle(message)
                if self.done:
                    return
        except ConnectionClosed:
            pass
        if ws.close_code in _FINAL_CLOSES:
            self.tally.gave_up = f"closed with {ws.close_code}"
            self.done = True

    async def _reconnect(self) -> bool:
        """Connect again with backoff and ``resume`` the seat (next address each try)."""
        if self.code is None or self.token is None:
            self.tally.gave_up = "lost before it had a seat"
            return False
        self.tally.reconnections += 1
        delay, deadline = BACKOFF[0], time.monotonic() + self.give_up
        while time.monotonic() < deadline:
            await asyncio.sleep(delay * self.rng.uniform(0.5, 1.5))
            delay = min(BACKOFF[1], 2 * delay)
            try:
                ws = await self._open()
                await ws.send(msg.encode(msg.resume(self.code, self.token)))
                return True
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError, RuntimeError):
                self._url += 1
        self.tally.gave_up = f"could not resume in {self.give_up:.0f} s"
        return False

    def _note(self, message: Mapping[str, Any], way: str) -> None:
        kind = message["type"]
        if kind == "update":
            kind += f"({message['deal']},{message['moves']}{',reset' if message['reset'] else ''})"
        elif kind in ("act", "error"):
            kind += f"({message.get('moves', message.get('code'))})"
        self._recent.append(f"{way}{kind}")

    async def _send(self, message: Mapping[str, Any]) -> None:
        self._note(message, ">")
        if self.ws is not None:
            # Lost: the session ends, the seat is resumed and the position sent again.
            with contextlib.suppress(ConnectionClosed):
                await self.ws.send(msg.encode(message))

    # ------------------------------------------------------------------ what comes

    async def _handle(self, frame: msg.ServerMessage) -> None:
        message: Mapping[str, Any] = cast("Mapping[str, Any]", frame)  # the fields documented
        kind = message["type"]
        if kind == "joined":
            self.code, self.token, self.seat = message["table"], message["token"], message["seat"]
        elif kind == "commit":
            await self._send(fairness.contribute(message["commit"], secrets.token_bytes(32)))
        elif kind == "table":
            await self._table(message)
        elif kind == "update":
            await self._update(message)
        elif kind == "notice":
            self.tally.notices[message["code"]] += 1
        elif kind == "closed":
            self.tally.closed = message["reason"]
            self.done = True
        elif kind == "error":
            await self._error(message)

    async def _table(self, message: Mapping[str, Any]) -> None:
        """The host starts once the people it waits for are seated and ready."""
        if not self.host or self._started or message["phase"] != "lobby":
            return
        people = [s for s in message["seats"] if s["kind"] == "human" and s["claimed"]]
        if len(people) >= self._people and all(s["ready"] for s in people):
            self._started = True
            await self._send(msg.start(fill_bots=True))

    async def _error(self, message: Mapping[str, Any]) -> None:
        code, ref = message["code"], message.get("ref")
        self.tally.errors[f"{code} ({ref})"] += 1
        if code != "stale":
            sent = self.pending[:2] if self.pending else None
            self.tally.refused.append(
                f"{code} for {ref} at {self.position} ({self.phase}; sent from {sent}):"
                f" {message['message']}; before it: {' '.join(self._recent)}"
            )
        if code == "unavailable":  # "try again": the move (or the resume) a moment later
            await asyncio.sleep(self.rng.uniform(0.2, 0.5))
            if ref == "resume" and self.code and self.token:
                await self._send(msg.resume(self.code, self.token))
            elif ref == "act" and self.pending is not None:
                _, moves, action = self.pending
                await self._send(msg.act(action, moves))

    async def _update(self, message: Mapping[str, Any]) -> None:
        deal, moves, reset = message["deal"], message["moves"], message["reset"]
        self.tally.deals.add(deal)
        self.tally.resets += reset
        self.position, self.phase = (deal, moves), message["phase"]
        if self.pending is not None and self.pending[:2] != (deal, moves):
            self.pending = None  # answered: the hand moved on (or another was dealt)
        if self._mover is not None and not self._mover.done():
            self._mover.cancel()
        record = message.get("record")
        if record is not None:
            self.tally.records[deal] = record
            if self.stopping or (self.hands and len(self.tally.records) >= self.hands):
                await self._send(msg.leave())
                self.done = True
                return
        phase, view = message["phase"], message["view"]
        if phase == "between":
            await self._send(msg.next_hand())  # again after a reset: a second is ignored
        elif phase == "over":
            await self._send(msg.start(fill_bots=True) if self.host else msg.next_hand())
        elif phase == "playing" and view["current_player"] == self.seat and view["legal"]:
            if self.pending is not None and not reset:
                return  # sent from this position already: its answer comes
            again = self.pending is not None and self.pending[2] in view["legal"]
            action = self.pending[2] if again and self.pending else self.rng.choice(view["legal"])
            self.tally.sent_again += again
            self._mover = asyncio.ensure_future(self._move(deal, moves, action, again))

    async def _move(self, deal: int, moves: int, action: dict[str, Any], again: bool) -> None:
        if self.think and not again:
            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
        after = await self.hooks.before_move(self)
        sent = self.position == (deal, moves) and self.ws is not None
        try:
            if sent:
                self.pending = (deal, moves, action)
                self.tally.moves += 1
                await self._send(msg.act(action, moves))
        finally:
            if after is not None:
                after(sent)


def play_hands(url: str, preset: str, hands: int = 1, limit: float = 60.0) -> OutsideClient:
    """Open a table of ``preset`` at ``url``, every other seat a computer, and play
    ``hands`` hands; raises ``TimeoutError`` past ``limit`` seconds."""
    client = OutsideClient([url], "Outsider", hands=hands, rng=random.Random(1))

    async def run() -> None:
        await client.create({"preset": preset})
        await asyncio.wait_for(client.play(), limit)

    asyncio.run(run())
    return client
