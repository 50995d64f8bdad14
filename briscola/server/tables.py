"""Tables: seats, the waiting room and the game, with the engine as the only judge.

A :class:`Table` lives on the server's event loop and never blocks it. The match itself is
run by the :class:`~briscola.game.driver.MatchDriver` (the same driver as a game on one
computer): the table adds connections, clocks and admission. Computer players think in the
server's pool, and messages go out through each peer's own queue
(:meth:`Peer.post`). Each seat is sent only :func:`briscola.engine.view` of its seat and
:meth:`GameState.events_for` that seat, nothing else about the deal.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import random
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

from briscola import __version__
from briscola.engine import (
    IllegalMoveError,
    Match,
    MatchOver,
    Rules,
    action_from_json,
    view,
)
from briscola.engine.fairdeal import MAX_VALUE, derive_deck
from briscola.game.driver import HUMAN, MatchDriver
from briscola.game.driver import Seat as Player
from briscola.game.setup import spare_computer_name
from briscola.protocol import fairness as fair
from briscola.protocol import messages as msg
from briscola.protocol.errors import CloseReason, ErrorCode
from briscola.protocol.wire import encode, event_to_json
from briscola.server.dealproof import DealSeeds
from briscola.server.fair import FairPool
from briscola.server.pace import Journal, Pace, TablePhase
from briscola.server.seats import Peer, Seat, SeatKind, TableConfig, TableError, give_up
from briscola.server.signals import computers_signal_between, person_signalled

__all__ = ["FrameTap", "Journal", "Table", "TablePhase"]

log = logging.getLogger("briscola.server")

FrameTap = Callable[["Table", int, str], None]


class Audience(Protocol):
    """A public table's spectators and the lobby's hook (:mod:`briscola.server.watch`)."""

    @property
    def count(self) -> int: ...

    def info(self, table: Table, message: msg.TableInfo) -> None: ...

    def updates(self, table: Table) -> None: ...

    def said(self, table: Table, text: str) -> None: ...

    def closed(self, table: Table, message: msg.Closed) -> None: ...


class Rater(Protocol):
    """Rates the hands of rated tables (:class:`briscola.server.rated.Rated`)."""

    def seated(self, table: Table, seat: Seat) -> None: ...

    def hand_over(self, table: Table) -> None: ...

    def abandoned(self, table: Table, seat: Seat) -> None: ...


class Table(Pace):
    """One table: a match between seats, some open to people, some computer players."""

    def __init__(
        self,
        code: str,
        rules: Rules,
        kinds: list[tuple[SeatKind, str]],
        host: int,
        config: TableConfig,
        pool: FairPool,
        on_closed: Callable[[Table], None],
        tap: Callable[[], FrameTap | None] = lambda: None,
        names: Sequence[str] = (),
        owner: str = "",
    ) -> None:
        """``names``: what the host calls its computer players ("" or none: "Hard 3").
        ``owner``: the address that opened the table (its bots take turns in ``pool`` with
        other addresses' bots)."""
        if len(kinds) != rules.players:
            raise TableError(ErrorCode.BAD_SEATS, f"these rules need {rules.players} seats")
        if kinds[host][0] != "human":
            raise TableError(ErrorCode.BAD_SEATS, "the host must sit in a seat open to a person")
        self.code = code
        self.rules = rules
        self.config = config
        self.pool = pool
        self.on_closed = on_closed
        self.tap = tap
        self.owner = owner
        #: The connection that opened the table (a number the server gives each connection).
        self.opened_by = 0
        self.seats = [Seat(i, Player("", kind, level)) for i, (kind, level) in enumerate(kinds)]
        for seat, name in itertools.zip_longest(self.seats, names[: len(self.seats)]):
            if seat.kind == "bot":
                seat.name = name or seat.computer_name()
        self.host = host
        self.phase: TablePhase = "lobby"
        #: The match, once the host has started it.
        self.driver: MatchDriver | None = None
        self.match_over: MatchOver | None = None
        self.created = time.monotonic()
        self.touched = self.created
        self.match_id = ""
        self._thinking = False
        #: A shared store's journal (``--redis``), and the seed every random choice of the
        #: match is drawn from there (see :class:`~briscola.game.driver.MatchDriver`).
        self.journal: Journal | None = None
        self.seed: str | None = None
        self._next_timer: asyncio.TimerHandle | None = None
        self._turn_timer: asyncio.TimerHandle | None = None
        self.ended_tokens: set[str] = set()  # of seats left, once their match was over
        #: Each deal's server seed and the seats' values (docs/fairness.md): the secret is
        #: the table's seed when it has one (a rebuilt table has the same seeds).
        self._secret = secrets.token_hex(16)
        self.seeds = DealSeeds(self._fair_secret)
        #: Listed in the lobby; its spectators and the lobby's hook (None: private).
        self.public = False
        self.audience: Audience | None = None
        self.rater: Rater | None = None

    @property
    def match(self) -> Match | None:
        return self.driver.match if self.driver is not None else None

    @property
    def moves(self) -> int:
        """Moves made in this hand."""
        return len(self.driver.played_by) if self.driver is not None else 0

    @property
    def deals(self) -> int:
        """Hands dealt at this table (across matches): tells one hand's updates from the next."""
        return self.driver.deals if self.driver is not None else 0

    # ------------------------------------------------------------------ sending

    def _send(self, seat: Seat, message: msg.ServerMessage) -> None:
        if seat.peer is None:
            return
        text = encode(message)
        tap = self.tap()
        if tap is not None:
            tap(self, seat.index, text)
        if self.journal is not None:
            self.journal.send(self, seat.peer, text)
        else:
            seat.peer.post(text)

    def info(self) -> msg.TableInfo:
        """The ``table`` message: the configuration, seats and phase (public)."""
        info = msg.table_info(
            self.code,
            self.rules.to_dict(),
            self.host,
            self.phase,
            [seat.info() for seat in self.seats],
            list(self.match.standing) if self.match else None,
            self.match.hand_number if self.match else None,
            self.config.grace,
        )
        if self.audience is not None:
            info["watchers"] = self.audience.count
        return info

    def broadcast_info(self) -> None:
        if self.journal is not None:
            self.journal.note(self, "seats")
        message = self.info()
        for seat in self.seats:
            self._send(seat, message)
        if self.audience is not None:
            self.audience.info(self, message)

    def _update(self, seat: Seat, reset: bool = False) -> None:
        """Send ``seat`` its view and the events it has not seen (all of them on ``reset``)."""
        state, match = self.state, self.match
        if seat.peer is None or state is None or match is None:
            return
        start = 0 if reset else seat.sent
        seen = view(state, seat.index)
        message = self.update_for(seat.index, start, seen.to_json(), reset)
        seat.sent = len(state.events)
        if seen.signals and self.driver is not None:
            # Who made each signal of the view: a computer, also one standing in for a person.
            by = dict(zip(state.signals, self.driver.signalled_by, strict=False))
            message["signals_by"] = [by.get(made, HUMAN) for made in seen.signals]
        if state.is_terminal() and self.driver is not None:
            # Every card has been played face up: the record tells nothing new.
            message["record"] = self.driver.record()
        self._send(seat, message)

    def update_for(self, viewer: int, start: int, seen: dict[str, Any], reset: bool) -> msg.Update:
        """The ``update`` for ``viewer`` (a seat, or -1: a spectator) with its view ``seen``
        and the events from ``start`` as it may see them."""
        state, match = self.state, self.match
        assert state is not None and match is not None
        events = [event_to_json(event) for event in state.events_for(viewer, start)]
        if self.match_over is not None and (reset or self.phase == "over"):
            events.append(event_to_json(self.match_over))
        return msg.update(
            self.deals,
            match.hand_number if not state.is_terminal() else len(match.results),
            self.moves,
            reset,
            events,
            seen,
            list(match.standing),
            self.phase,
        )

    def _update_all(self) -> None:
        for seat in self.seats:
            self._update(seat)
        if self.audience is not None:
            self.audience.updates(self)

    # ------------------------------------------------------------------ fair deals

    def _fair_secret(self) -> str:
        if self.seed is not None:
            return self.seed
        return self._secret if self.config.seed is None else f"fair:{self.config.seed}"

    def commitment(self) -> fair.Commit:
        """The ``commit`` of the next deal (sent before ``joined`` and after each hand)."""
        deal = self.deals + 1
        return fair.commit_message(deal, self.seeds.commitment(deal))

    def contribute(self, seat: Seat, commit: object, value: object) -> None:
        """``seat``'s value for the next deal; one for an older commitment is not taken."""
        data = fair.hex_bytes(value, MAX_VALUE)
        if data is None:
            raise TableError(
                ErrorCode.BAD_VALUE, f"value: lowercase hex, {MAX_VALUE} bytes at most"
            )
        taken = self.seeds.contribute(self.deals + 1, seat.index, commit, data)
        if taken and self.journal is not None:
            self.journal.note(self, "seats")

    def _reveal(self, seat: Seat) -> None:
        """The hand is over: its seed and values to ``seat``, then the next commitment."""
        reveal = self.seeds.reveal(self.deals)
        if reveal is not None:
            self._send(seat, reveal)
        self._send(seat, self.commitment())

    # ------------------------------------------------------------------ seats

    def seat_of_token(self, token: str) -> Seat | None:
        for seat in self.seats:
            if seat.token is not None and secrets.compare_digest(seat.token, token):
                return seat
        return None

    def claim(self, peer: Peer, wanted: int | None = None) -> Seat:
        """Seat ``peer`` in the waiting room (``wanted`` seat or the first free one)."""
        if self.phase != "lobby":
            raise TableError(
                ErrorCode.STARTED, "this table's game has started: only its players return"
            )
        free = [s for s in self.seats if s.kind == "human" and not s.claimed]
        if wanted is not None:
            free = [s for s in free if s.index == wanted]
            if not free:
                raise TableError(ErrorCode.SEAT_TAKEN, f"seat {wanted} is not free")
        if not free:
            raise TableError(ErrorCode.TABLE_FULL, "every seat open to a person is taken")
        seat = free[0]
        seat.token = secrets.token_urlsafe(24)
        self._attach(seat, peer)
        seat.ready = False
        for other in self.seats:  # a computer with the person's name takes another one
            if other.kind == "bot" and other.name.casefold() == seat.name.casefold():
                other.name = spare_computer_name(s.name for s in self.seats)
        return seat

    def _attach(self, seat: Seat, peer: Peer) -> None:
        seat.peer = peer
        seat.name = peer.name
        seat.player_id = seat.player_id or getattr(peer, "player_id", None)
        if self.rater is not None:
            self.rater.seated(self, seat)
        seat.away_since = None
        seat.left = False
        if seat.grace_timer is not None:
            seat.grace_timer.cancel()
            seat.grace_timer = None
        self.touched = time.monotonic()

    def resume(self, peer: Peer, seat: Seat) -> None:
        """``peer`` takes its seat back (its token matched): the bot stands down."""
        old = seat.peer
        if old is not None and old is not peer:
            # Straight to the old connection, not after the journal's pending write: the
            # server closes it (4002) at once, and this must reach it first.
            old.post(encode(msg.closed(CloseReason.REPLACED, "signed in elsewhere")))
        self._attach(seat, peer)
        if seat.kind == "human" and self.driver is not None:
            self.driver.restore(seat.index)
        self.broadcast_info()
        if self.state is not None and self.state.is_terminal():
            self._reveal(seat)
        self._update(seat, reset=True)
        self._drive()

    def detach(self, seat: Seat) -> None:
        """The seat's connection dropped: keep the seat for the grace period."""
        seat.peer = None
        seat.away_since = time.monotonic()
        if self.phase == "closed":
            return
        loop = asyncio.get_running_loop()
        grace = self.config.grace
        if self.phase == "lobby" and not any(s.connected for s in self.seats):
            # Nobody is left in the waiting room: it goes soon unless its people come back.
            grace = min(grace, self.config.room_grace)
        seat.grace_timer = loop.call_later(grace, self._grace_over, seat)
        self.broadcast_info()
        self._maybe_next()

    def _grace_over(self, seat: Seat) -> None:
        seat.grace_timer = None
        if seat.peer is not None or self.phase == "closed":
            return
        if self.phase == "lobby":
            if seat.index == self.host or not any(s.connected for s in self.seats):
                self.close(CloseReason.HOST_LEFT, "the host left the waiting room")
                return
            seat.token = seat.player_id = seat.rating = None
            seat.name = ""
            seat.ready = False
            seat.away_since = None
        elif seat.kind == "human":
            if self.rater is not None and self.phase == "playing":
                self.rater.abandoned(self, seat)  # the person's loss (docs/ratings.md)
            self._replace(seat)
        self.broadcast_info()
        self._drive()
        self._maybe_next()

    def _replace(self, seat: Seat) -> None:
        if self.driver is not None:
            self.driver.replace(seat.index, self.config.takeover_level)

    def leave(self, seat: Seat) -> None:
        """The person leaves: in a match under way a computer plays for them and the token
        takes the seat back until the match ends; else the seat is given up for good."""
        if seat.peer is not None:
            seat.peer.post(encode(msg.left(self.code)))
        if self.config.embedded and seat.index == self.host:
            self.close(CloseReason.HOST_LEFT, "the host closed the table")
            return
        seat.peer = None
        if seat.grace_timer is not None:
            seat.grace_timer.cancel()
            seat.grace_timer = None
        if self.phase in ("playing", "between"):
            if self.rater is not None and self.phase == "playing":
                self.rater.abandoned(self, seat)
            seat.away_since = time.monotonic()
            seat.left = True
            self._replace(seat)
        elif self.phase != "lobby":
            give_up(seat, self.ended_tokens)
        if self.phase == "lobby":
            seat.token = seat.player_id = seat.rating = None
            seat.name = ""
            seat.ready = False
            if seat.index == self.host:
                self.close(CloseReason.HOST_LEFT, "the host left the waiting room")
                return
        if not self._people():
            self.close(CloseReason.ABANDONED, "every player left")
            return
        self.broadcast_info()
        self._drive()
        self._maybe_next()

    def set_ready(self, seat: Seat, ready: bool) -> None:
        if self.phase != "lobby":
            raise TableError(ErrorCode.WRONG_PHASE, "ready is for the waiting room")
        seat.ready = ready
        self.touched = time.monotonic()
        self.broadcast_info()

    # ------------------------------------------------------------------ the game

    def start(self, seat: Seat, fill_bots: bool = False) -> None:
        """The host starts the match (again, once one is over)."""
        if seat.index != self.host:
            raise TableError(ErrorCode.NOT_HOST, "only the host starts the game")
        if self.phase not in ("lobby", "over"):
            raise TableError(ErrorCode.WRONG_PHASE, "the game has already started")
        empty = [s for s in self.seats if s.kind == "human" and not s.claimed]
        if empty and not fill_bots:
            raise TableError(
                ErrorCode.NOT_READY,
                f"seat {empty[0].index} is still free (or start with fill_bots)",
            )
        waiting = [
            s
            for s in self.seats
            if s.kind == "human" and s.claimed and not s.ready and s.index != self.host
        ]
        if self.phase == "lobby" and waiting:
            raise TableError(ErrorCode.NOT_READY, f"{waiting[0].name} is not ready")
        for s in empty:
            s.player.kind = "bot"
            s.name = s.computer_name()
        if self.driver is None:
            seed = self.config.seed if self.config.seed is not None else secrets.randbits(128)
            self.driver = MatchDriver(
                self.rules,
                [s.player for s in self.seats],
                random.Random(seed),
                time_limit=lambda level: self.config.bot_time,
                app=f"briscola {__version__}",
                seed=self.seed,
            )
        else:
            self.driver.new_match()
        self.match_over = None
        self.match_id = datetime.now(UTC).strftime("%Y%m%dT%H%M%S") + "-" + secrets.token_hex(3)
        self._deal()

    def _deal(self) -> None:
        assert self.driver is not None
        if self._next_timer is not None:
            self._next_timer.cancel()
            self._next_timer = None
        deal = self.deals + 1
        values = self.seeds.deal(deal, len(self.seats))
        self.driver.deal(derive_deck(self.rules, self.seeds.seed(deal), values))
        self.phase = "playing"
        if self.journal is not None:
            self.journal.note(self, "deal")
        computers_signal_between(self)
        for seat in self.seats:
            seat.sent = 0
            seat.wants_next = False
        self.broadcast_info()
        self._update_all()
        self._drive()

    def act(self, seat: Seat, data: Any, moves: Any = None) -> None:
        """A person's move: checked by the engine; a refused move changes nothing."""
        state = self.state
        if self.phase != "playing" or state is None:
            raise TableError(ErrorCode.WRONG_PHASE, "no hand is being played")
        if isinstance(data, Mapping) and "signal" in data:  # not a move (issue 25)
            return person_signalled(self, seat, data)
        if moves is not None and moves != self.moves:
            # (first: a move sent again across a reconnection is stale, whoever is to move)
            raise TableError(ErrorCode.STALE, "that move answers an older view")
        if state.current_player != seat.index or seat.bot_plays:
            raise TableError(ErrorCode.NOT_YOUR_TURN, "it is not your turn")
        try:
            action = action_from_json(data)
        except (ValueError, TypeError) as exc:
            raise TableError(ErrorCode.BAD_ACTION, str(exc)) from None
        assert self.driver is not None
        try:
            self.driver.apply(action)
        except IllegalMoveError as exc:
            raise TableError(ErrorCode.ILLEGAL, str(exc)) from None
        if self.journal is not None:
            self.journal.note(self, "move", action)
        self._moved()

    def _moved(self) -> None:
        """A move was made: the hand goes on, or it is over."""
        state = self.state
        assert state is not None
        self.touched = time.monotonic()
        if state.is_terminal():
            self._hand_over()
        else:
            computers_signal_between(self)
            self._update_all()
            self._drive()

    def _hand_over(self) -> None:
        assert self.driver is not None
        _summary, self.match_over = self.driver.finish_hand()
        self.save_record()
        if self.rater is not None:
            self.rater.hand_over(self)  # rated, then its players told (``rated``)
        if self.match_over is not None:
            self.phase = "over"
            for seat in self.seats:
                if seat.left and seat.peer is None:
                    give_up(seat, self.ended_tokens)  # they left; the match is over now
        else:
            self.phase = "between"
        if self.journal is not None:
            self.journal.note(self, "hand")
        if self.phase == "between":
            loop = asyncio.get_running_loop()
            self._next_timer = loop.call_later(self.config.next_hand_timeout, self._next_due)
        for seat in self.seats:
            self._reveal(seat)  # before the last update: a game answers before it goes on
        self._update_all()
        self.broadcast_info()
        self._maybe_next()

    def next_hand(self, seat: Seat) -> None:
        """The seat has seen the score and wants the next hand; once the match is over, a
        new match (a rematch, which the host starts). The others are told (``next``)."""
        if self.phase not in ("between", "over"):
            raise TableError(ErrorCode.WRONG_PHASE, "there is no next hand to deal now")
        if seat.wants_next:
            return
        seat.wants_next = True
        self.touched = time.monotonic()
        self.broadcast_info()
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
            self.close(CloseReason.ABANDONED, "no player is left at the table")
            return
        here = [s for s in people if s.connected]
        if self.phase == "between" and here and all(s.wants_next for s in here):
            self._deal()

    # ------------------------------------------------------------------ records and closing

    def save_record(self, reason: str | None = None) -> None:
        """Append the hand's record (``briscola-record/1``, made by the match driver, with
        ``unfinished``: ``reason`` for a hand cut short) to the server's records folder."""
        folder = self.config.records
        state = self.state
        if folder is None or self.driver is None or state is None or state.determinized:
            return
        doc = self.driver.record(unfinished=reason)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{self.match_id}-{self.code}.jsonl"
            with path.open("a", encoding="utf-8") as out:
                out.write(json.dumps(doc, separators=(",", ":")) + "\n")
        except OSError:
            log.exception("table %s: cannot save the record", self.code)

    def close(self, reason: CloseReason, message: str) -> None:
        """End the table: everyone is told; a hand in progress is saved as a record."""
        if self.phase == "closed":
            return
        if self.phase == "playing" and self.state is not None and not self.state.is_terminal():
            self.save_record(reason=reason)
        self.stop_clocks()
        if self.journal is not None:
            self.journal.note(self, "closed")
        for seat in self.seats:
            self._send(seat, msg.closed(reason, message))
        if self.audience is not None:
            self.audience.closed(self, msg.closed(reason, message))
        self.on_closed(self)
