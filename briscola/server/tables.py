"""Tables: seats, the waiting room and the game, with the engine as the only judge.

A :class:`Table` lives on the server's event loop and never blocks it: computer players
think in the server's thread pool, and messages go out through each peer's own queue
(:meth:`Peer.post`). Each seat is sent only :func:`briscola.engine.view` of its seat and
:meth:`GameState.events_for` that seat, nothing else about the deal.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import json
import logging
import random
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Literal, Protocol

from briscola.ai import BOT_NAMES, Bot, make_bot
from briscola.engine import (
    Action,
    GameState,
    IllegalMoveError,
    Match,
    MatchOver,
    PlayerView,
    Rules,
    action_from_json,
    to_record,
    view,
)
from briscola.net.wire import PROTOCOL, ProtocolError, encode, event_to_json

__all__ = ["Peer", "Seat", "Table", "TableConfig", "TableError"]

log = logging.getLogger("briscola.server")

SeatKind = Literal["human", "bot"]
TablePhase = Literal["lobby", "playing", "between", "over", "closed"]

#: Computer levels a seat may be given (the ``pimc`` and ``hard`` searches are slower).
LEVELS: Final = BOT_NAMES


class TableError(ProtocolError):
    """A request the table refuses (wrong phase, not your turn, illegal move...)."""


class Peer(Protocol):
    """A connected player as a table sees it."""

    name: str

    def post(self, text: str) -> None:
        """Queue one frame for sending (never blocks)."""
        ...


@dataclass
class TableConfig:
    """What tables take from the server's configuration."""

    grace: float = 60.0
    next_hand_timeout: float = 120.0
    bot_delay: float = 0.0
    takeover_level: str = "medium"
    #: Seconds a computer player may think per move.
    bot_time: float = 1.0
    #: Seconds a person may take over one move before a computer plays it (None: no limit).
    turn_timeout: float | None = 300.0
    embedded: bool = False
    records: Path | None = None


@dataclass
class Seat:
    index: int
    #: As the host configured it: open to a person, or a computer player.
    kind: SeatKind
    #: The computer level of a bot seat, and of the bot that stands in for an absent person.
    level: str
    name: str = ""
    token: str | None = None
    peer: Peer | None = None
    ready: bool = False
    away_since: float | None = None
    #: A computer player moves for this seat (a bot seat, or a person replaced after grace).
    bot_plays: bool = False
    bot: Bot | None = None
    wants_next: bool = False
    #: Index into the hand's events up to which this seat's peer has been sent.
    sent: int = 0
    grace_timer: asyncio.TimerHandle | None = field(default=None, repr=False)

    @property
    def claimed(self) -> bool:
        return self.token is not None

    def computer_name(self) -> str:
        """The name of a computer player the host did not name: its level and seat."""
        return f"{self.level.capitalize()} {self.index + 1}"

    @property
    def connected(self) -> bool:
        return self.peer is not None

    def info(self) -> dict[str, Any]:
        """The public description of the seat (no token)."""
        return {
            "seat": self.index,
            "kind": self.kind,
            "level": self.level if self.kind == "bot" or self.bot_plays else None,
            "name": self.name,
            "claimed": self.claimed or self.kind == "bot",
            "connected": self.connected,
            "ready": self.ready or self.kind == "bot",
            "away": self.away_since is not None,
            "replaced": self.kind == "human" and self.bot_plays,
        }


FrameTap = Callable[["Table", int, str], None]


def think(bot: Bot, seen: PlayerView) -> tuple[Action, Bot]:
    """A computer player's move, and the bot as it is after it (it may learn as it plays):
    runs in the server's thread or process pool, so the bot travels both ways."""
    return bot.choose(seen), bot


class Table:
    """One table: a match between seats, some open to people, some computer players."""

    def __init__(
        self,
        code: str,
        rules: Rules,
        kinds: list[tuple[SeatKind, str]],
        host: int,
        config: TableConfig,
        pool: concurrent.futures.Executor,
        on_closed: Callable[[Table], None],
        tap: Callable[[], FrameTap | None] = lambda: None,
        names: Sequence[str] = (),
    ) -> None:
        """``names``: what the host calls its computer players ("" or none: "Hard 3")."""
        if len(kinds) != rules.players:
            raise TableError("bad_seats", f"these rules need {rules.players} seats")
        if kinds[host][0] != "human":
            raise TableError("bad_seats", "the host must sit in a seat open to a person")
        self.code = code
        self.rules = rules
        self.config = config
        self.pool = pool
        self.on_closed = on_closed
        self.tap = tap
        self.seats = [
            Seat(i, kind, level, bot_plays=kind == "bot") for i, (kind, level) in enumerate(kinds)
        ]
        for seat, name in itertools.zip_longest(self.seats, names[: len(self.seats)]):
            if seat.kind == "bot":
                seat.name = name or seat.computer_name()
        self.host = host
        self.phase: TablePhase = "lobby"
        self.match: Match | None = None
        self.state: GameState | None = None
        self.match_over: MatchOver | None = None
        self.moves = 0
        #: Hands dealt at this table (across matches): tells one hand's updates from the next.
        self.deals = 0
        self.rng = random.Random(secrets.randbits(128))
        self.created = time.monotonic()
        self.touched = self.created
        self.match_id = ""
        self._thinking = False
        self._next_timer: asyncio.TimerHandle | None = None
        self._turn_timer: asyncio.TimerHandle | None = None

    # ------------------------------------------------------------------ sending

    def _send(self, seat: Seat, message: Mapping[str, Any]) -> None:
        if seat.peer is None:
            return
        text = encode(message)
        tap = self.tap()
        if tap is not None:
            tap(self, seat.index, text)
        seat.peer.post(text)

    def info(self) -> dict[str, Any]:
        """The ``table`` message: the configuration, seats and phase (public)."""
        return {
            "type": "table",
            "table": self.code,
            "rules": self.rules.to_dict(),
            "host": self.host,
            "phase": self.phase,
            "seats": [seat.info() for seat in self.seats],
            "standing": list(self.match.standing) if self.match else None,
            "hand": self.match.hand_number if self.match else None,
            "grace": self.config.grace,
        }

    def broadcast_info(self) -> None:
        message = self.info()
        for seat in self.seats:
            self._send(seat, message)

    def _update(self, seat: Seat, reset: bool = False) -> None:
        """Send ``seat`` its view and the events it has not seen (all of them on ``reset``)."""
        state, match = self.state, self.match
        if seat.peer is None or state is None or match is None:
            return
        start = 0 if reset else seat.sent
        events = [event_to_json(event) for event in state.events_for(seat.index, start)]
        seat.sent = len(state.events)
        if self.match_over is not None and (reset or self.phase == "over"):
            events.append(event_to_json(self.match_over))
        message: dict[str, Any] = {
            "type": "update",
            "deal": self.deals,
            "hand": match.hand_number if not state.is_terminal() else len(match.results),
            "moves": self.moves,
            "reset": reset,
            "events": events,
            "view": view(state, seat.index).to_json(),
            "standing": list(match.standing),
            "phase": self.phase,
        }
        if state.is_terminal():
            # Every card has been played face up: the record tells nothing new.
            message["record"] = to_record(state)
        self._send(seat, message)

    def _update_all(self) -> None:
        for seat in self.seats:
            self._update(seat)

    # ------------------------------------------------------------------ seats

    def seat_of_token(self, token: str) -> Seat | None:
        for seat in self.seats:
            if seat.token is not None and secrets.compare_digest(seat.token, token):
                return seat
        return None

    def claim(self, peer: Peer, wanted: int | None = None) -> Seat:
        """Seat ``peer`` in the waiting room (``wanted`` seat or the first free one)."""
        if self.phase != "lobby":
            raise TableError("started", "this table's game has started: only its players return")
        free = [s for s in self.seats if s.kind == "human" and not s.claimed]
        if wanted is not None:
            free = [s for s in free if s.index == wanted]
            if not free:
                raise TableError("seat_taken", f"seat {wanted} is not free")
        if not free:
            raise TableError("table_full", "every seat open to a person is taken")
        seat = free[0]
        seat.token = secrets.token_urlsafe(24)
        self._attach(seat, peer)
        seat.ready = False
        return seat

    def _attach(self, seat: Seat, peer: Peer) -> None:
        seat.peer = peer
        seat.name = peer.name
        seat.away_since = None
        if seat.grace_timer is not None:
            seat.grace_timer.cancel()
            seat.grace_timer = None
        self.touched = time.monotonic()

    def resume(self, peer: Peer, seat: Seat) -> None:
        """``peer`` takes its seat back (its token matched): the bot stands down."""
        old = seat.peer
        if old is not None and old is not peer:
            self._send(
                seat, {"type": "closed", "reason": "replaced", "message": "signed in elsewhere"}
            )
        self._attach(seat, peer)
        if seat.kind == "human":
            seat.bot_plays = False
            seat.bot = None
        self.broadcast_info()
        self._update(seat, reset=True)
        self._drive()

    def detach(self, seat: Seat) -> None:
        """The seat's connection dropped: keep the seat for the grace period."""
        seat.peer = None
        seat.away_since = time.monotonic()
        if self.phase == "closed":
            return
        loop = asyncio.get_running_loop()
        seat.grace_timer = loop.call_later(self.config.grace, self._grace_over, seat)
        self.broadcast_info()
        self._maybe_next()

    def _grace_over(self, seat: Seat) -> None:
        seat.grace_timer = None
        if seat.peer is not None or self.phase == "closed":
            return
        if self.phase == "lobby":
            if seat.index == self.host:
                self.close("host_left", "the host left the waiting room")
                return
            seat.token = None
            seat.name = ""
            seat.ready = False
            seat.away_since = None
        elif seat.kind == "human":
            self._replace(seat)
        self.broadcast_info()
        self._drive()
        self._maybe_next()

    def _replace(self, seat: Seat) -> None:
        seat.bot_plays = True
        seat.bot = None
        seat.level = self.config.takeover_level

    def leave(self, seat: Seat) -> None:
        """The person gives the seat up for good (the token stops working)."""
        if seat.peer is not None:
            seat.peer.post(encode({"type": "left", "table": self.code}))
        if self.config.embedded and seat.index == self.host:
            self.close("host_left", "the host closed the table")
            return
        seat.peer = None
        seat.token = None
        if seat.grace_timer is not None:
            seat.grace_timer.cancel()
            seat.grace_timer = None
        if self.phase == "lobby":
            seat.name = ""
            seat.ready = False
            if seat.index == self.host:
                self.close("host_left", "the host left the waiting room")
                return
        elif self.phase != "closed":
            seat.away_since = time.monotonic()
            self._replace(seat)
        if not self._people():
            self.close("abandoned", "every player left")
            return
        self.broadcast_info()
        self._drive()
        self._maybe_next()

    def set_ready(self, seat: Seat, ready: bool) -> None:
        if self.phase != "lobby":
            raise TableError("wrong_phase", "ready is for the waiting room")
        seat.ready = ready
        self.touched = time.monotonic()
        self.broadcast_info()

    # ------------------------------------------------------------------ the game

    def start(self, seat: Seat, fill_bots: bool = False) -> None:
        """The host starts the match (again, once one is over)."""
        if seat.index != self.host:
            raise TableError("not_host", "only the host starts the game")
        if self.phase not in ("lobby", "over"):
            raise TableError("wrong_phase", "the game has already started")
        empty = [s for s in self.seats if s.kind == "human" and not s.claimed]
        if empty and not fill_bots:
            raise TableError(
                "not_ready", f"seat {empty[0].index} is still free (or start with fill_bots)"
            )
        waiting = [
            s
            for s in self.seats
            if s.kind == "human" and s.claimed and not s.ready and s.index != self.host
        ]
        if self.phase == "lobby" and waiting:
            raise TableError("not_ready", f"{waiting[0].name} is not ready")
        for s in empty:
            s.kind = "bot"
            s.bot_plays = True
            s.name = s.computer_name()
        self.match = Match(self.rules, first_dealer=self.rng.randrange(self.rules.players))
        self.match_over = None
        self.match_id = datetime.now(UTC).strftime("%Y%m%dT%H%M%S") + "-" + secrets.token_hex(3)
        self._deal()

    def _deal(self) -> None:
        assert self.match is not None
        if self._next_timer is not None:
            self._next_timer.cancel()
            self._next_timer = None
        self.state = self.match.new_hand(self.rng)
        self.deals += 1
        self.moves = 0
        self.phase = "playing"
        for seat in self.seats:
            seat.sent = 0
            seat.wants_next = False
            if seat.bot_plays:
                seat.bot = None
        self.broadcast_info()
        self._update_all()
        self._drive()

    def act(self, seat: Seat, data: Any, moves: Any = None) -> None:
        """A person's move: checked by the engine; a refused move changes nothing."""
        state = self.state
        if self.phase != "playing" or state is None:
            raise TableError("wrong_phase", "no hand is being played")
        if state.current_player != seat.index or seat.bot_plays:
            raise TableError("not_your_turn", "it is not your turn")
        if moves is not None and moves != self.moves:
            raise TableError("stale", "that move answers an older view")
        try:
            action = action_from_json(data)
        except (ValueError, TypeError) as exc:
            raise TableError("bad_action", str(exc)) from None
        self._apply(action)

    def _apply(self, action: Action) -> None:
        state = self.state
        assert state is not None
        try:
            state.apply(action)
        except IllegalMoveError as exc:
            raise TableError("illegal", str(exc)) from None
        self.moves += 1
        self.touched = time.monotonic()
        if state.is_terminal():
            self._hand_over()
        else:
            self._update_all()
            self._drive()

    def _hand_over(self) -> None:
        assert self.match is not None and self.state is not None
        self.match_over = self.match.finish_hand(self.state)
        self.save_record(self.state, finished=True)
        if self.match_over is not None:
            self.phase = "over"
        else:
            self.phase = "between"
            loop = asyncio.get_running_loop()
            self._next_timer = loop.call_later(self.config.next_hand_timeout, self._next_due)
        self._update_all()
        self.broadcast_info()
        self._maybe_next()

    def next_hand(self, seat: Seat) -> None:
        """The seat has seen the score and wants the next hand."""
        if self.phase != "between":
            raise TableError("wrong_phase", "there is no next hand to deal now")
        seat.wants_next = True
        self._maybe_next()

    def _next_due(self) -> None:
        self._next_timer = None
        if self.phase == "between":
            self._deal()

    def _people(self) -> list[Seat]:
        """People who still hold their seats (connected, or dropped within the grace period)."""
        return [s for s in self.seats if s.kind == "human" and s.claimed and not s.bot_plays]

    def _maybe_next(self) -> None:
        if self.phase not in ("between", "over"):
            return
        people = self._people()
        if not people:
            self.close("abandoned", "no player is left at the table")
            return
        here = [s for s in people if s.connected]
        if self.phase == "between" and here and all(s.wants_next for s in here):
            self._deal()

    def _drive(self) -> None:
        """Let a computer player move when it is its turn (off the event loop); start the
        turn clock when it is a person's turn."""
        state = self.state
        if self._turn_timer is not None:
            self._turn_timer.cancel()
            self._turn_timer = None
        if self.phase != "playing" or state is None or self._thinking:
            return
        index = state.current_player
        if index is None:
            return
        seat = self.seats[index]
        loop = asyncio.get_running_loop()
        if not seat.bot_plays:
            limit = self.config.turn_timeout
            if limit is not None:
                stamp = (id(state), self.moves)
                self._turn_timer = loop.call_later(limit, self._turn_due, seat, stamp)
            return
        if seat.bot is None:
            seat.bot = self._make_bot(seat.level)
        self._think(seat, seat.bot, forced=False)

    def _make_bot(self, level: str) -> Bot:
        return make_bot(
            level, random.Random(self.rng.getrandbits(64)), time_limit=self.config.bot_time
        )

    def _think(self, seat: Seat, bot: Bot, forced: bool) -> None:
        state = self.state
        assert state is not None
        self._thinking = True
        seen = view(state, seat.index)
        stamp = (id(state), self.moves)
        loop = asyncio.get_running_loop()

        def submit() -> None:
            try:
                future = loop.run_in_executor(self.pool, think, bot, seen)
            except RuntimeError:  # the pool is shut down: the server is closing
                self._thinking = False
                return
            future.add_done_callback(lambda done: self._bot_done(done, seat, stamp, forced))

        if self.config.bot_delay > 0 and not forced:
            loop.call_later(self.config.bot_delay, submit)
        else:
            submit()

    def _turn_due(self, seat: Seat, stamp: tuple[int, int]) -> None:
        """A person let the turn clock run out: a computer plays this one move for them."""
        self._turn_timer = None
        state = self.state
        if self.phase != "playing" or state is None or stamp != (id(state), self.moves):
            return
        if seat.bot_plays or self._thinking:
            return
        self._send(
            seat,
            {
                "type": "notice",
                "code": "timed_out",
                "message": "your time to move ran out: a computer played this move for you",
            },
        )
        self._think(seat, self._make_bot(self.config.takeover_level), forced=True)

    def _bot_done(
        self,
        done: asyncio.Future[tuple[Action, Bot]],
        seat: Seat,
        stamp: tuple[int, int],
        forced: bool = False,
    ) -> None:
        self._thinking = False
        state = self.state
        if self.phase != "playing" or state is None or stamp != (id(state), self.moves):
            self._drive()
            return
        if not seat.bot_plays and not forced:
            self._drive()
            return
        try:
            action, bot = done.result()
            if not forced:
                seat.bot = bot
        except Exception:
            log.exception("table %s: the computer player of seat %d failed", self.code, seat.index)
            action = state.legal_actions()[0]
        if action not in state.legal_actions():
            log.error("table %s: seat %d's bot chose an illegal %s", self.code, seat.index, action)
            action = state.legal_actions()[0]
        self._apply(action)

    # ------------------------------------------------------------------ records and closing

    def save_record(self, state: GameState, finished: bool, reason: str | None = None) -> None:
        """Append the hand's record (``briscola-record/1``) to the server's records folder."""
        folder = self.config.records
        if folder is None or self.match is None or state.determinized:
            return
        meta: dict[str, Any] = {
            "source": PROTOCOL,
            "table": self.code,
            "match": str(self.rules.match),
            "hand": len(self.match.results) if finished else self.match.hand_number,
            "names": [seat.name for seat in self.seats],
            "kinds": [
                "bot" if seat.kind == "bot" else "human+bot" if seat.bot_plays else "human"
                for seat in self.seats
            ],
            "saved": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        if reason is not None:
            meta["unfinished"] = reason
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{self.match_id}-{self.code}.jsonl"
            with path.open("a", encoding="utf-8") as out:
                out.write(json.dumps(to_record(state, meta), separators=(",", ":")) + "\n")
        except OSError:
            log.exception("table %s: cannot save the record", self.code)

    def close(self, reason: str, message: str) -> None:
        """End the table: everyone is told; a hand in progress is saved as a record."""
        if self.phase == "closed":
            return
        if self.phase == "playing" and self.state is not None and not self.state.is_terminal():
            self.save_record(self.state, finished=False, reason=reason)
        self.phase = "closed"
        for timer in (self._next_timer, self._turn_timer):
            if timer is not None:
                timer.cancel()
        for seat in self.seats:
            if seat.grace_timer is not None:
                seat.grace_timer.cancel()
                seat.grace_timer = None
            self._send(seat, {"type": "closed", "reason": reason, "message": message})
        self.on_closed(self)
