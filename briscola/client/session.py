"""The remote session: a table on a server, seen through the table's session interface.

:class:`RemoteSession` implements :class:`briscola.game.session.TableSession` from the
messages a :class:`~briscola.client.connection.NetClient` receives, so the table scene plays an
online game exactly as a local one and never waits on the network: every method returns at
once from what has arrived.

Updates from the server are applied one at a time, when the table says its animations have
caught up (``advance(dt, idle=True)``): ``view()`` and ``new_events()`` then always agree,
as they do in a local game. Besides the interface, the table reads ``connection`` and
``banner()`` for the connection banner, ``seat_states()`` for who is away or replaced by a
computer, ``take_errors()`` and ``take_notices()`` for messages to show, and ``closed`` when
the table has ended (the host left, the server closed).
"""

from __future__ import annotations

import queue
import time
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from briscola.engine import (
    Action,
    Event,
    HandOver,
    HandResult,
    MatchOver,
    PlayerView,
    Rules,
    Signal,
    Signalled,
    view_signals,
)
from briscola.engine.view import view_from_json
from briscola.game.session import (
    Connection,
    Message,
    SeatInfo,
    SeatNews,
    TableNews,
    made_for_people,
)
from briscola.game.summary import HandSummary, summarize

if TYPE_CHECKING:
    from briscola.game.session import TableSession

from briscola.client.away import HostAway, host_name, seat_states
from briscola.client.chat import Muted
from briscola.client.connection import ConnectionStatus, Incoming, NetClient
from briscola.client.dealcheck import check_deal
from briscola.protocol import fairness as fair
from briscola.protocol import messages as msg
from briscola.protocol import people
from briscola.protocol.errors import ErrorCode
from briscola.protocol.wire import event_from_json

__all__ = ["POLL", "RemoteSession"]

#: Seconds between looks at the network while nothing moves on the table.
POLL = 0.05
#: What went again after a reset, and the answer that says the first one had arrived.
AGAIN = {"act": "stale", "next": "wrong_phase"}


class RemoteSession:
    """One seat of a server's table. Build it once the waiting room sees the first
    ``update`` (the game has started); ``backlog`` holds the messages the waiting room
    already took from ``client.incoming`` (they are handled first)."""

    def __init__(self, client: NetClient, backlog: Iterable[Incoming] = ()) -> None:
        self.client = client
        self.seat: int = self._seat_of(client)
        self.table: msg.TableInfo | None = None
        self.closed: msg.Closed | None = None
        #: Error replies not yet read by the table (``take_errors()``).
        self.errors: list[msg.Error] = []
        #: Notices (e.g. ``timed_out``: a computer moved for this seat) not yet read.
        self.notices: list[msg.Notice] = []
        #: Quick chat not yet read (``take_said()``), the players muted, and the seats whose
        #: reports the server has taken (``reported``) and that the player is not told yet.
        self.said: list[people.Said] = []
        self.muted = Muted()
        self.reported: list[int] = []
        self._updates: deque[msg.Update] = deque()
        self._view: PlayerView | None = None
        self._events: list[Event] = []
        self._hand = 0
        self._deal = 0
        self._hand_events = 0
        self._moves = -1
        self._standing: list[int] = []
        self._phase = ""
        self._record: dict[str, Any] = {}
        self._rated: dict[str, Any] = {}  # this hand's ``rated`` (in the record's meta)
        #: Every event of this hand as sent to this seat, and the servers' reveals by deal:
        #: the deal is checked with them once it is over (docs/fairness.md).
        self._hand_seen: list[Event] = []
        self._reveals: dict[int, fair.Reveal] = {}
        self._result: HandResult | None = None
        self._match_over: MatchOver | None = None
        self._summary: HandSummary | None = None
        self._pending = False
        self._late = False  # this deal's first update here was a reset: seen after the deal
        #: The last move sent and the update it answered (deal, moves): sent again when a
        #: ``reset`` shows that same position (the move was lost with a server process).
        self._sent: tuple[int, int, Action] | None = None
        #: What went again after a reset (``act``, ``next``): a ``stale`` (a move) or
        #: ``wrong_phase`` (the next hand was dealt) answer means the first one did arrive.
        self._again = ""
        #: Who made each signal of the view (``human``, or ``bot:LEVEL`` for a computer), as
        #: the last update said (see :func:`~briscola.game.session.made_for_people`).
        self._signals_by: object = None
        #: What this player asked for after the hand: "" (nothing yet), "next" (the next
        #: hand) or "rematch" (a new match, which the host starts).
        self._asked = ""
        self._turn_since = time.monotonic()
        #: How long the host's game has been away (a table hosted in a player's game).
        self.host_away = HostAway()
        for message in backlog:
            self._take(message)
        self._poll()
        if self._updates and self._view is None:
            self._apply(self._updates.popleft())

    # ------------------------------------------------------------------ messages

    def _seat_of(self, client: NetClient) -> int:
        if client.seat is None:
            raise ValueError("the client holds no seat yet (wait for the 'joined' message)")
        return client.seat

    def _poll(self) -> None:
        for message in self.client.drain():
            self._take(message)

    def _take(self, message: Incoming) -> None:
        if message["type"] == "update":
            self._updates.append(message)
        elif message["type"] == "table":
            self.table = message
        elif message["type"] == "error":
            if self._again and message["code"] == AGAIN[self._again]:
                self._again = ""  # the first one was heard after all: its update follows
                return
            self.errors.append(message)
            # A refused (or rate-limited) move was not played: the player may move again;
            # a second move for the same view is refused by the server as stale.
            self._pending = False
        elif message["type"] == "notice":
            self.notices.append(message)
        elif message["type"] == "said" and self.muted.shows(message["name"]):
            self.said.append(message)
        elif message["type"] == "reported":
            self.reported.append(message["seat"])
        elif message["type"] == "closed":
            self.closed = message
        elif message["type"] == "reveal":
            self._reveals[message["deal"]] = message
        elif message["type"] == "rated":  # after the hand: the score screen reads it then
            self._rated.update(message)

    def _apply(self, message: msg.Update) -> None:
        seen = view_from_json(message["view"])
        deal = message["deal"]
        events = [event_from_json(data) for data in message["events"]]
        # (a reset or a new deal sends the hand's events from its start)
        whole = deal != self._deal or message["reset"]
        self._hand_seen = list(events) if whole else [*self._hand_seen, *events]
        if deal != self._deal:
            self._deal, self._late = deal, message.get("reset") is True
            self._hand_events = 0
            self._summary = None
            self._result = None
            self._record, self._rated = {}, {}
            self._asked = ""
        elif message["reset"]:
            # A reconnection resends the hand's events: only the unseen ones are new.
            events = events[self._hand_events :]
            if self._match_over is not None:
                events = [event for event in events if not isinstance(event, MatchOver)]
        for event in events:
            if isinstance(event, HandOver):
                self._result = event.result
            elif isinstance(event, MatchOver):
                self._match_over = event
            else:
                self._hand_events += 1
        if self._view is None or seen.current_player != self._view.current_player:
            self._turn_since = time.monotonic()
        self._view = seen
        self._signals_by = message.get("signals_by")  # (an older server's: none)
        self._events.extend(events)
        self._hand = message["hand"]
        self._moves = message["moves"]
        self._standing = list(message["standing"])
        self._phase = message["phase"]
        record = message.get("record")
        if isinstance(record, dict):
            self._record = record
        self._pending = False
        self._resend(message.get("reset") is True)

    def _resend(self, reset: bool) -> None:
        """After a ``reset`` (docs/network-protocol.md, "After a reset"): the position is
        the one the last move answered and it is still this seat's turn, so that move never
        reached the table (its server process died with it): send it again. Between hands
        ``next`` goes again (the table may have moved before it heard the first)."""
        if reset and self._phase == "between" and self._asked == "next" and not self._dealt_ahead():
            self.client.next_hand()
            self._again = "next"
        sent, seen = self._sent, self._view
        if seen is None or sent is None or (self._deal, self._moves) != sent[:2]:
            self._sent = None
            return
        if reset and self._phase == "playing" and seen.is_my_turn and sent[2] in seen.legal:
            self.client.act(sent[2], self._moves)
            self._pending, self._again = True, "act"

    # ------------------------------------------------------------------ TableSession

    @property
    def rules(self) -> Rules:
        if self._view is not None:
            return self._view.rules
        if self.table is not None:
            return Rules.from_dict(self.table["rules"])
        raise RuntimeError("no table information yet")

    @property
    def seats(self) -> Sequence[SeatInfo]:
        if self.table is None:
            return [SeatInfo("", "remote") for _ in range(self.rules.players)]
        out = []
        for entry in self.table["seats"]:
            if entry["seat"] == self.seat:
                kind = "human"
            elif entry["kind"] == "bot":
                kind = "bot"
            else:
                kind = "remote"
            out.append(SeatInfo(entry["name"], kind, entry.get("level") or "", entry.get("rating")))
        return out

    @property
    def demo(self) -> bool:
        return False

    @property
    def shown_seat(self) -> int | None:
        return self.seat

    @property
    def waiting_for(self) -> int | None:
        return None

    @property
    def to_play(self) -> int | None:
        return None if self._view is None else self._view.current_player

    @property
    def hand_over(self) -> bool:
        return self._view is not None and self._view.phase == "over" and not self._asked

    @property
    def hand_number(self) -> int:
        return self._hand

    @property
    def standing(self) -> Sequence[int]:
        return self._standing

    @property
    def dealer(self) -> int:
        return 0 if self._view is None else self._view.dealer

    def start(self) -> None:
        """Nothing to deal: the server did. Takes in what has arrived."""
        self._poll()
        if self._view is None and self._updates:
            self._apply(self._updates.popleft())

    def reveal(self) -> None:
        """No hot seat online: every player has a screen of their own."""

    def view(self) -> PlayerView:
        if self._view is None:
            raise RuntimeError("no view yet: build the session once the game has started")
        return self._view

    def new_events(self) -> list[Event]:
        events, self._events = self._events, []
        return events

    def plays_here(self, seat: int) -> bool:
        return seat == self.seat

    def legal_actions(self) -> list[Action]:
        seen = self._view
        if seen is None or self._pending or self._updates or not seen.is_my_turn:
            return []
        if self._phase != "playing":
            return []
        return list(seen.legal)

    def submit(self, action: Action) -> bool:
        """Send ``action``; False when it is not legal now (nothing is sent)."""
        if action not in self.legal_actions():
            return False
        self.client.act(action, self._moves)
        self._pending = True
        self._sent, self._again = (self._deal, self._moves, action), ""
        return True

    def send_signal(self, signal: Signal) -> bool:
        """Send a partner signal; False (nothing sent) when the view says it may not be made
        now. The server judges it; it comes back as an event, to the seats that may see it."""
        seen = self._view
        if seen is None or self._phase != "playing" or signal not in view_signals(seen):
            return False
        self.client.signal(signal)
        return True

    def thinking(self) -> tuple[int, float] | None:
        """Another seat (a person elsewhere or a computer) is choosing a move."""
        seat = self.to_play
        if seat is None or seat == self.seat:
            return None
        entries = self.table["seats"] if self.table is not None else []
        entry = next((e for e in entries if e["seat"] == seat), None)
        if entry is not None and not entry.get("connected", True) and not entry.get("replaced"):
            return None  # away, not thinking: the banner says the table waits for them
        return seat, self._turn_since

    def advance(self, dt: float, idle: bool) -> None:
        """Take in what the network brought; apply the next update once animations are idle."""
        self._poll()
        if idle and self._updates:
            self._apply(self._updates.popleft())

    def finish_hand(self) -> HandSummary | None:
        """The finished hand's summary (None until the server's last update has arrived)."""
        seen = self._view
        if seen is None or seen.phase != "over" or self._result is None:
            return None
        if self._summary is None:
            self._summary = summarize(
                seen,
                self._result,
                names=[info.name for info in self.seats],
                hand_number=self._hand,
                standing=self._standing,
                over=self._match_over,
                record=self._proven(self._record),
                viewer=self.seat if self.seat >= 0 else None,  # (-1: a spectator, no seat)
            )
        return self._summary

    def _proven(self, record: dict[str, Any]) -> dict[str, Any]:
        """The hand's record with this game's check of its deal (``meta.fair``)."""
        if not record:
            return {}
        reveal = self._reveals.get(self._deal)
        before = self.client.commits.get(self._deal)
        sent = self.client.fair_values.get(before) if before is not None else None
        proof = check_deal(self.rules, self.seat, self._hand_seen, reveal, before, sent, self._late)
        return {**record, "meta": {**record.get("meta", {}), "fair": proof, "rated": self._rated}}

    def next_hand(self) -> None:
        """Say this player is ready for the next hand (the server deals when all are)."""
        if self._phase == "between" and not self._asked:
            if not self._dealt_ahead():  # (the server dealt it already: nothing to ask)
                self.client.next_hand()
            self._asked = "next"

    def rematch(self) -> None:
        """A new match with the same seats: the host starts it; another player asks for it
        (the others see who did) and waits for the host."""
        if self._asked:
            return
        if self._dealt_ahead():
            pass  # the host has started it already
        elif self.table is not None and self.table["host"] == self.seat:
            self.client.start_game()
        elif self._phase == "over":
            self.client.next_hand()
        self._match_over = None
        self._asked = "rematch"

    def close(self) -> None:
        """Leave the table for good and close the connection."""
        self.client.leave()
        self.client.close()

    @property
    def can_undo(self) -> bool:
        """No undo online: the other players have seen the move."""
        return False

    def undo(self) -> bool:
        return False

    # ------------------------------------------------------------------ network extras

    @property
    def phase(self) -> str:
        """The table's phase as of the last update applied: ``playing``, ``between``
        (hands), ``over`` (the match), or "" before the first."""
        return self._phase

    @property
    def connection(self) -> ConnectionStatus:
        """The connection's state, for the banner."""
        return self.client.status

    def banner(self) -> tuple[str, str] | None:
        """``(kind, detail)`` when a banner should show, else None. Kinds: ``reconnecting``
        (the connection dropped, retrying), ``host_away`` (the host's game, where the
        table lives, is out of reach: detail is the host's name), ``failed`` (cannot
        continue), ``closed`` (the table ended: detail is the reason's code, e.g.
        ``host_left``, or ``host_gone`` once the host's game stayed away too long)."""
        self._watch_host()
        if self.closed is not None:
            return "closed", self.closed["reason"]
        status = self.client.status
        if status in ("reconnecting", "connecting") and self._view is not None:
            if self.host_away.until is not None:
                return "host_away", host_name(self.table)
            return "reconnecting", self.client.detail
        if status in ("failed", "closed"):
            return status, self.client.detail
        return None

    def _watch_host(self) -> None:
        """A guest at a table hosted in a player's game, which is out of reach: count the
        time; past :data:`~briscola.client.away.HOST_WAIT` the table has ended here."""
        host = self.table["host"] if self.table is not None else None
        lost = (
            self.closed is None
            and self.client.hosted
            and host != self.seat
            and self._view is not None
            and self.client.status in ("reconnecting", "connecting")
        )
        self.host_away.look(lost)
        if lost and self.host_away.over:
            name = host_name(self.table)
            self.closed = {"type": "closed", "reason": ErrorCode.HOST_GONE, "message": name}
            self.client.close(timeout=0)

    def seat_states(self) -> list[dict[str, object]]:
        """Per seat: ``connected``, ``away`` and ``replaced`` (see :func:`seat_states`)."""
        return seat_states(self.table)

    def _entries(self) -> list[msg.SeatEntry]:
        return self.table["seats"] if self.table is not None else []

    def _dealt_ahead(self) -> bool:
        """An update of another deal than the one shown waits (the next hand or the new
        match began while this player was still on the last one's score)."""
        return any(update["deal"] != self._deal for update in self._updates)

    def _ready(self) -> tuple[str, ...]:
        """Between hands and once the match is over: the other people here who asked to go
        on (the next hand, or a rematch), by name."""
        if self._phase not in ("between", "over") or self._dealt_ahead():
            return ()
        return self._others_here(going_on=True)

    def _others_here(self, going_on: bool) -> tuple[str, ...]:
        """The names of the other people at the table now (connected, not replaced by a
        computer) who have (``going_on``) or have not asked to go on."""
        return tuple(
            entry["name"]
            for entry in self._entries()
            if entry["seat"] != self.seat
            and entry["kind"] == "human"
            and entry.get("connected")
            and not entry.get("replaced")
            and bool(entry.get("next")) == going_on
        )

    def _computer_signals(self) -> frozenset[Signalled]:
        """The view's signals a computer made for a person's seat."""
        people = [entry["seat"] for entry in self._entries() if entry["kind"] == "human"]
        seen = self._view
        return made_for_people(seen.signals, self._signals_by, people) if seen else frozenset()

    def news(self) -> TableNews:
        """The connection, who is away or replaced by a computer, who asked to go on, and
        the table's end (as the network has brought them: it is looked at first)."""
        self._poll()
        seats = tuple(
            SeatNews(
                entry["seat"],
                entry["name"],
                away=bool(entry.get("away")),
                replaced=bool(entry.get("replaced")),
            )
            for entry in self._entries()
            if entry.get("away") or entry.get("replaced")
        )
        if self.closed is not None:
            return TableNews(
                seats=seats,
                ended=self.closed["reason"],
                ended_message=self.closed["message"],
                live=True,
            )
        waiting, host = self._waiting()
        news = TableNews(
            seats=seats,
            waiting=waiting,
            waiting_host=host,
            ready=self._ready(),
            dealt=self._phase in ("between", "over") and self._dealt_ahead(),
            live=True,
            computer_signals=self._computer_signals(),
            watchers=self.table.get("watchers", 0) if self.table is not None else 0,
        )
        shown = self.banner()
        if shown is None or shown[0] not in ("reconnecting", "host_away", "failed", "closed"):
            return news
        kinds: dict[str, Connection] = {
            "reconnecting": "reconnecting", "host_away": "host_away", "failed": "failed",
        }  # fmt: skip
        connection = kinds.get(shown[0], "closed")
        return replace(news, connection=connection, detail=shown[1], back_by=self.host_away.until)

    def _waiting(self) -> tuple[tuple[str, ...], str]:
        """After this player asked for the next hand: the people here who have not yet
        (by name); after asking for a rematch: the host's name (the host starts it)."""
        host = self.table["host"] if self.table is not None else None
        if self._asked == "rematch" and self._phase == "over" and host != self.seat:
            return (), host_name(self.table)
        if self._asked == "next" and self._phase == "between" and not self._dealt_ahead():
            return self._others_here(going_on=False), ""
        return (), ""

    def take_messages(self) -> list[Message]:
        """Notices and refused moves since the last call, to show once."""
        out = [Message("notice", n["code"], n["message"]) for n in self.take_notices()]
        out += [Message("refused", e["code"], e["message"]) for e in self.take_errors()]
        return out

    def wake_in(self) -> float | None:
        """Look at the network a few times a second (the window rests in between)."""
        return POLL

    def wait(self, timeout: float) -> bool:
        """Block until a message arrives (scripts and tests; the table never waits).
        False when none came in ``timeout`` seconds."""
        try:
            message = self.client.incoming.get(timeout=timeout)
        except queue.Empty:
            return False
        self._take(message)
        return True

    def take_errors(self) -> list[msg.Error]:
        """Error replies since the last call (a refused move: show its ``code``)."""
        errors, self.errors = self.errors, []
        return errors

    def take_notices(self) -> list[msg.Notice]:
        """Notices since the last call (``timed_out``: a computer made a move for you)."""
        notices, self.notices = self.notices, []
        return notices

    def say(self, code: str) -> None:
        """Quick chat: send a code of :data:`~briscola.protocol.people.QUICK_CHAT`."""
        self.client.chat(code)

    def report_seat(self, seat: int, reason: str = "other") -> None:
        """Report the person at ``seat`` to the server's operator."""
        self.client.report(seat, reason)

    def take_said(self) -> list[people.Said]:
        """Quick chat since the last call, but the muted players' (``muted``)."""
        self._poll()
        said, self.said = self.said, []
        return said


if TYPE_CHECKING:
    # mypy --strict checks here that a RemoteSession is everything a TableSession must be.
    _CONFORMS: type[TableSession] = RemoteSession
