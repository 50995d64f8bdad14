"""Quick match: people who wait for the same configuration are seated together.

A player's ``queue`` names one or more configurations (:data:`QUICK_PRESETS`); the server
keeps a ticket for it and, four times a second, looks for a group: the oldest ticket of a
configuration first (the largest tables first: :data:`LARGEST_FIRST`), then the others
nearest to it in rating (:func:`rating_of`: the player's rating in the configuration's
family, read when the ticket is made; a new player's is 0) within a window that widens
with the oldest one's wait (:func:`pick_group`). Teams are balanced
(:func:`arrange`: a snake draft by rating, so no team gets the two strongest). Once a player
has waited :attr:`ServerConfig.bots_after` seconds, ``queued`` says ``bots``: the player may
send ``queue_bots`` and is seated at once with whoever waits, computer players in the empty
seats (such a table is not rated: it has computer seats).

The group's table is opened by the process that found the group (public, started at once,
each seat given a token); each player's own process then sends it a ``resume`` with that
token, as if the player had sent it: the seat is theirs, wherever the table is driven.

With ``--redis`` the tickets are shared by every process (:class:`RedisTickets`): a hash per
ticket (``briscola:qt:ID``: process, connection, name, configurations, since, ratings) and a sorted
set per configuration (``briscola:q:PRESET``, by time). A group is claimed by one Lua script
that removes all its tickets only if all of them are still there, so two processes never
seat the same person twice; a ticket's process renews its expiry while it waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final, Protocol

from briscola.engine import Rules
from briscola.protocol import lobby
from briscola.protocol import messages as msg
from briscola.protocol.errors import ErrorCode, ProtocolError
from briscola.protocol.lobby import QUICK_PRESETS
from briscola.protocol.wire import encode
from briscola.ratings import family_of
from briscola.server.watch import player_name

if TYPE_CHECKING:
    from briscola.server.admission import Admission
    from briscola.server.config import ServerConfig
    from briscola.server.conn import Conn
    from briscola.server.rated import Rated
    from briscola.server.seats import SeatKind
    from briscola.server.shared import Shared
    from briscola.server.store import Store
    from briscola.server.tables import Table

__all__ = ["Home", "Matchmaker", "RedisTickets", "Ticket", "arrange", "pick_group", "rating_of"]

log = logging.getLogger("briscola.server")

#: Seconds between two looks for groups.
TICK: Final = 0.25
#: The rating distance accepted at once, and how much it widens each second of waiting
#: (in the ordinal's units: a new player is at 0, a strong one near 30).
WINDOW: Final = 3.0
WIDEN: Final = 0.5
#: A waiting ticket's expiry in Redis (its process renews it every tick): a ticket of a
#: process that died goes with it.
TICKET_MS: Final = 15_000
#: Tickets of one configuration looked at per tick.
LOOK: Final = 64
#: The order groups are looked for: the largest tables first, so that a person who accepts
#: several configurations helps fill the one that needs the most people.
LARGEST_FIRST: Final = tuple(sorted(QUICK_PRESETS, key=lambda p: -Rules.preset(p).players))


class Home(Protocol):
    """What the public side needs of its server (:class:`briscola.server.app.Server`)."""

    config: ServerConfig
    tables: dict[str, Table]
    conns: set[Conn]
    shared: Shared | None
    admission: Admission
    rated: Rated

    async def submit(self, conn: Conn, message: msg.ClientMessage) -> None: ...

    def new_table(
        self,
        rules: Rules,
        kinds: list[tuple[SeatKind, str]],
        host: int,
        owner: str,
        public: bool = False,
        names: list[str] | None = None,
    ) -> Table: ...


@dataclass(frozen=True)
class Ticket:
    """One person waiting: where its connection is, who, for what, since when."""

    process: str
    serial: int
    name: str
    presets: tuple[str, ...]
    since: float
    #: The player's rating (the conservative ordinal) per family, once read.
    ratings: tuple[tuple[str, float], ...] = ()

    @property
    def id(self) -> str:
        """Unique to this wait (the same connection queueing again gets another)."""
        return f"{self.process}:{self.serial}:{int(self.since * 1e6)}"


def rating_of(ticket: Ticket, preset: str = "classic2") -> float:
    """The ticket's rating in the family of ``preset`` (0 until read, and for a new player).

    >>> rating_of(Ticket("p", 1, "Anna", ("teams4",), 0.0, (("teams4", 12.5),)), "teams4")
    12.5
    """
    family = family_of(Rules.preset(preset))
    return next((value for name, value in ticket.ratings if name == family), 0.0)


def pick_group(
    tickets: Sequence[Ticket],
    size: int,
    now: float,
    rating: Callable[[Ticket], float] = rating_of,
    anchor: Ticket | None = None,
) -> list[Ticket] | None:
    """``size`` tickets to seat together: ``anchor`` (by default the oldest ticket that
    has enough others near it), then those nearest to it in rating, oldest first among
    equals, within a window of :data:`WINDOW` + :data:`WIDEN` per second the anchor
    waited; None when too few. (A strong player who waits longest does not hold back two
    new players near each other: her window widens until someone is near her.)

    >>> t = [Ticket("p", i, f"P{i}", ("classic2",), 10.0 + i) for i in range(3)]
    >>> [x.serial for x in pick_group(t, 2, 20.0)]
    [0, 1]
    >>> far = lambda x: 10.0 * x.serial
    >>> pick_group(t, 2, 20.0, far) is None, len(pick_group(t, 2, 120.0, far))
    (True, 2)
    """
    if len(tickets) < size:
        return None
    ordered = sorted(tickets, key=lambda t: (t.since, t.id))
    for first in [anchor] if anchor is not None else ordered:
        window = WINDOW + WIDEN * max(0.0, now - first.since)
        base = rating(first)
        near = sorted(
            (t for t in ordered if t.id != first.id and abs(rating(t) - base) <= window),
            key=lambda t: (abs(rating(t) - base), t.since, t.id),
        )
        group = [first, *near[: size - 1]]
        if len(group) == size:
            return group
    return None


def arrange(
    people: Sequence[Ticket], rules: Rules, rating: Callable[[Ticket], float] = rating_of
) -> list[Ticket | None]:
    """Each seat's person (None: a computer player). In teams, a snake draft by rating
    balances the sides (strongest to one side, the next two to the other...) and spreads
    people evenly when computers fill seats; otherwise people sit in the order they came.

    >>> t = [Ticket("p", i, f"P{i}", ("teams4",), float(i)) for i in range(4)]
    >>> [x.serial for x in arrange(t, Rules.preset("teams4"))]
    [0, 1, 3, 2]
    >>> [x and x.serial for x in arrange(t[:2], Rules.preset("teams4"))]
    [0, 1, None, None]
    """
    seats: list[Ticket | None] = [None] * rules.players
    if not rules.teams:
        for index, ticket in enumerate(people):
            seats[index] = ticket
        return seats
    sides: list[list[int]] = [list(range(side, rules.players, 2)) for side in (0, 1)]
    ordered = sorted(people, key=lambda t: (-rating(t), t.since, t.id))
    for index, ticket in enumerate(ordered):
        side = (0, 1, 1, 0)[index % 4]
        if not sides[side]:
            side = 1 - side
        seats[sides[side].pop(0)] = ticket
    return seats


def ratings_of(text: str) -> tuple[tuple[str, float], ...]:
    """A ticket's ratings as Redis keeps them: ``two=3.5 teams4=-1.25``."""
    pairs = (item.partition("=") for item in text.split())
    return tuple((name, float(value)) for name, _eq, value in pairs)


class RedisTickets:
    """The waiting tickets of every process, in Redis (see the module docstring)."""

    _CLAIM: Final = """
for i, k in ipairs(KEYS) do
  if redis.call('EXISTS', k) == 0 then return 0 end
end
for i, k in ipairs(KEYS) do
  local presets = redis.call('HGET', k, 'presets') or ''
  for p in string.gmatch(presets, '%S+') do redis.call('ZREM', 'briscola:q:' .. p, ARGV[i]) end
  redis.call('DEL', k)
end
return 1
"""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._claim = store.redis.register_script(self._CLAIM)

    async def add(self, ticket: Ticket) -> None:
        key = f"briscola:qt:{ticket.id}"
        async with self.store.redis.pipeline(transaction=True) as pipe:
            pipe.hset(
                key,
                mapping={
                    "process": ticket.process,
                    "serial": ticket.serial,
                    "name": ticket.name,
                    "presets": " ".join(ticket.presets),
                    "since": repr(ticket.since),
                    "ratings": " ".join(f"{f}={v!r}" for f, v in ticket.ratings),
                },
            )
            pipe.pexpire(key, TICKET_MS)
            for preset in ticket.presets:
                pipe.zadd(f"briscola:q:{preset}", {ticket.id: ticket.since})
            await pipe.execute()
        self.store.operations += 2 + len(ticket.presets)

    async def rated(self, ticket: Ticket) -> None:
        """Write the ratings read for ``ticket`` (still waiting: its hash is there)."""
        ratings = " ".join(f"{f}={v!r}" for f, v in ticket.ratings)
        key = f"briscola:qt:{ticket.id}"
        async with self.store.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, "ratings", ratings)
            pipe.pexpire(key, TICKET_MS)  # (claimed meanwhile elsewhere: it goes soon)
            await pipe.execute()
        self.store.operations += 2

    async def claim(self, tickets: Sequence[Ticket]) -> bool:
        """Take every one of ``tickets`` out of the queue, or none (one went already)."""
        keys = [f"briscola:qt:{t.id}" for t in tickets]
        self.store.operations += 1
        return bool(await self._claim(keys=keys, args=[t.id for t in tickets]))

    async def renew(self, tickets: Sequence[Ticket]) -> None:
        async with self.store.redis.pipeline(transaction=False) as pipe:
            for ticket in tickets:
                pipe.pexpire(f"briscola:qt:{ticket.id}", TICKET_MS)
            await pipe.execute()
        self.store.operations += 1

    async def waiting(self, preset: str) -> list[Ticket]:
        """The oldest tickets for ``preset`` (those whose process went are dropped)."""
        zkey = f"briscola:q:{preset}"
        ids = [str(i) for i in await self.store.redis.zrange(zkey, 0, LOOK - 1)]
        if not ids:
            return []
        async with self.store.redis.pipeline(transaction=False) as pipe:
            for ticket_id in ids:
                pipe.hgetall(f"briscola:qt:{ticket_id}")
            found = await pipe.execute()
        self.store.operations += 2
        tickets: list[Ticket] = []
        for ticket_id, data in zip(ids, found, strict=True):
            fields = {str(k): str(v) for k, v in data.items()}
            if not fields:
                await self.store.redis.zrem(zkey, ticket_id)
                continue
            tickets.append(
                Ticket(
                    fields["process"],
                    int(fields["serial"]),
                    fields["name"],
                    tuple(fields["presets"].split()),
                    float(fields["since"]),
                    ratings_of(fields.get("ratings", "")),
                )
            )
        return tickets

    async def counts(self) -> dict[str, int]:
        async with self.store.redis.pipeline(transaction=False) as pipe:
            for preset in QUICK_PRESETS:
                pipe.zcard(f"briscola:q:{preset}")
            found = await pipe.execute()
        self.store.operations += 1
        return {preset: int(n) for preset, n in zip(QUICK_PRESETS, found, strict=True)}


class Matchmaker:
    """Quick match on one process (see the module docstring)."""

    def __init__(self, server: Home) -> None:
        self.server = server
        self.process = "local"
        #: This process's waiting connections and their tickets, by connection serial.
        self.tickets: dict[int, Ticket] = {}
        self.conns: dict[int, Conn] = {}
        self.redis: RedisTickets | None = None
        #: What each waiting connection was last told, and when.
        self._told: dict[int, tuple[float, Any]] = {}
        self._task: asyncio.Task[None] | None = None
        self._work: set[asyncio.Task[Any]] = set()

    async def start(self) -> None:
        shared = self.server.shared
        if shared is not None:
            self.process = shared.process
            self.redis = RedisTickets(shared.store)
            shared.hooks["matched"] = self._heard_matched
        self._task = asyncio.create_task(self._loop())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        if self.redis is not None and self.tickets:
            with contextlib.suppress(Exception):
                for ticket in list(self.tickets.values()):
                    await self.redis.claim([ticket])
        self.tickets.clear()

    # ------------------------------------------------------------------ a player's messages

    def join(self, conn: Conn, presets: tuple[str, ...]) -> None:
        ticket = Ticket(self.process, conn.serial, player_name(conn), presets, time.time())
        conn.queued = presets
        self.tickets[conn.serial] = ticket
        self.conns[conn.serial] = conn
        self._told.pop(conn.serial, None)
        if self.redis is not None:
            self._spawn(self.redis.add(ticket))
        if conn.player_id is not None:
            self._spawn(self._read_ratings(conn.serial, ticket, conn.player_id))
        if self.redis is None:
            self._tell(conn, ticket, self._local_counts())
        else:  # (the numbers waiting come with the next look, a quarter second away)
            conn.post(encode(lobby.queued(presets, {}, 0.0, False)))

    async def _read_ratings(self, serial: int, ticket: Ticket, player: str) -> None:
        """The waiting player's ratings in the families it queued for, on its ticket."""
        service = self.server.rated.service
        families = sorted({family_of(Rules.preset(p)) for p in ticket.presets})
        found = await asyncio.to_thread(
            lambda: tuple((f, service.rating(f, player).ordinal) for f in families)
        )
        if self.tickets.get(serial) is not ticket:
            return  # seated or gone meanwhile
        self.tickets[serial] = rated = replace(ticket, ratings=found)
        if self.redis is not None:
            await self.redis.rated(rated)

    def leave(self, conn: Conn, tell: bool = True) -> None:
        ticket = self.tickets.pop(conn.serial, None)
        self.conns.pop(conn.serial, None)
        self._told.pop(conn.serial, None)
        conn.queued = ()
        if ticket is not None and self.redis is not None:
            self._spawn(self.redis.claim([ticket]))
        if tell:
            conn.post(encode(lobby.queued((), {}, 0.0, False)))

    def gone(self, conn: Conn) -> None:
        if conn.serial in self.tickets:
            self.leave(conn, tell=False)

    def bots(self, conn: Conn, preset: object) -> None:
        """Seat ``conn`` now for ``preset``, with whoever waits, computers for the rest."""
        ticket = self.tickets.get(conn.serial)
        if ticket is None or not isinstance(preset, str) or preset not in ticket.presets:
            raise ProtocolError(
                ErrorCode.BAD_QUEUE, "queue_bots: name a configuration you wait for"
            )
        waited = time.time() - ticket.since
        if waited < self.server.config.bots_after:
            raise ProtocolError(
                ErrorCode.BAD_QUEUE,
                f"queue_bots: computer players are offered after"
                f" {self.server.config.bots_after:g} s of waiting",
            )
        self._spawn(self._with_bots(ticket, preset))

    async def _with_bots(self, ticket: Ticket, preset: str) -> None:
        size = Rules.preset(preset).players
        others = await self._waiting(preset)
        near = lambda t: rating_of(t, preset)  # noqa: E731
        group = pick_group(others, min(size, len(others)), time.time(), near, anchor=ticket)
        for people in (group or [], [ticket]):
            if people and await self._claim(people):
                self._seat(preset, people)
                return

    # ------------------------------------------------------------------ finding groups

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            try:
                await self._tick()
            except Exception as exc:  # Redis away (or a bug): the next tick tries again
                log.warning("quick match: %s", exc)

    async def _tick(self) -> None:
        if not self.tickets:
            return
        now = time.time()
        if self.redis is not None:
            await self.redis.renew(list(self.tickets.values()))
        for preset in LARGEST_FIRST:
            if not any(preset in t.presets for t in self.tickets.values()):
                continue
            size = Rules.preset(preset).players
            while True:
                near = lambda t, p=preset: rating_of(t, p)  # noqa: E731
                group = pick_group(await self._waiting(preset), size, now, near)
                if group is None or not await self._claim(group):
                    break
                self._seat(preset, group)
        counts = self._local_counts() if self.redis is None else await self.redis.counts()
        for serial, ticket in list(self.tickets.items()):
            self._tell(self.conns[serial], ticket, counts)

    async def _waiting(self, preset: str) -> list[Ticket]:
        if self.redis is not None:
            return await self.redis.waiting(preset)
        return [t for t in self.tickets.values() if preset in t.presets]

    async def _claim(self, group: Sequence[Ticket]) -> bool:
        if self.redis is not None and not await self.redis.claim(group):
            return False
        for ticket in group:
            if ticket.process == self.process:
                self.tickets.pop(ticket.serial, None)
        return True

    def _local_counts(self) -> dict[str, int]:
        return {p: sum(p in t.presets for t in self.tickets.values()) for p in QUICK_PRESETS}

    def _tell(self, conn: Conn, ticket: Ticket, counts: dict[str, int]) -> None:
        """``queued``, when what the player sees changed: computers on offer at once, the
        numbers waiting once a second at most."""
        now = time.time()
        bots = now - ticket.since >= self.server.config.bots_after
        said = (tuple(sorted(counts.items())), bots)
        told = self._told.get(conn.serial)
        if told is not None and (told[1] == said or (told[1][1] == bots and now - told[0] < 1)):
            return
        self._told[conn.serial] = (now, said)
        conn.post(encode(lobby.queued(ticket.presets, counts, now - ticket.since, bots)))

    # ------------------------------------------------------------------ seating a group

    def _seat(self, preset: str, group: Sequence[Ticket]) -> None:
        """Open the group's table here, started, each person's seat holding a token; tell
        each person's process to resume that seat."""
        rules = Rules.preset(preset)
        seats = arrange(group, rules, lambda t: rating_of(t, preset))
        level = self.server.config.takeover_level
        kinds: list[tuple[Any, str]] = [
            ("human", "") if t is not None else ("bot", level) for t in seats
        ]
        host = next(i for i, t in enumerate(seats) if t is not None)
        table = self.server.new_table(rules, kinds, host, owner="quick-match", public=True)
        tokens: dict[str, str] = {}
        for seat, ticket in zip(table.seats, seats, strict=True):
            if ticket is None:
                continue
            seat.token = tokens[ticket.id] = secrets.token_urlsafe(24)
            seat.name = ticket.name
            seat.ready = True
        table.start(table.seats[host])
        for seat in table.seats:
            if seat.kind == "human":
                table.detach(seat)  # its person comes with the token (the grace period)
        log.info("quick match: table %s for %s", table.code, ", ".join(t.name for t in group))
        for ticket in group:
            self._matched(ticket, table, tokens[ticket.id])

    def _matched(self, ticket: Ticket, table: Table, token: str) -> None:
        if ticket.process == self.process:
            self._resume(ticket.serial, table.code, token)
            return
        payload = {"op": "matched", "conn": ticket.serial, "code": table.code, "token": token}
        self._spawn(self._tell_process(ticket.process, table.code, payload))

    async def _tell_process(self, process: str, code: str, payload: dict[str, Any]) -> None:
        """Tell another process its player's seat, once the table is stored (its first
        write takes the lease: before it, that process would not find the table)."""
        shared = self.server.shared
        assert shared is not None
        for _ in range(1000):  # (10 s at most: Redis slow or away, the resume says why)
            link = shared.links.get(code)
            if link is None or link.lease is not None:
                break
            await asyncio.sleep(0.01)
        if not await shared.store.publish(process, payload):
            # That process is gone (its ticket had not expired yet): a computer plays the
            # seat at once rather than after the grace period.
            table = self.server.tables.get(code)
            seat = table.seat_of_token(payload["token"]) if table is not None else None
            if table is not None and seat is not None and seat.peer is None:
                table.leave(seat)

    def _heard_matched(self, message: dict[str, Any]) -> None:
        self._resume(int(message["conn"]), str(message["code"]), str(message["token"]))

    def _resume(self, serial: int, code: str, token: str) -> None:
        """The person's connection (here) takes its seat with ``token``."""
        ticket = self.tickets.pop(serial, None)
        if ticket is not None and self.redis is not None:
            self._spawn(self.redis.claim([ticket]))  # (queued again meanwhile: that one goes)
        self._told.pop(serial, None)
        conn = self.conns.pop(serial, None)
        if conn is None or conn not in self.server.conns:
            return  # gone: a computer plays the seat once its grace is over
        conn.queued = ()
        self._spawn(self.server.submit(conn, msg.resume(code, token)))

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._work.add(task)
        task.add_done_callback(self._work.discard)
