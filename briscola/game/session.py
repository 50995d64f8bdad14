"""The session: the game behind the table, as the table may know it.

The table never touches a :class:`~briscola.engine.GameState`: it reads a
:class:`SessionView` (what to show) and, when it is played at, hands a
:class:`TableSession` what the player did. Data flows one way::

    input -> submit(action) -> session -> new_events() / view() -> director -> board -> painter

Three kinds implement it: :class:`~briscola.game.local.LocalSession` (a match on this
computer, through the :class:`~briscola.game.driver.MatchDriver`), the client's
:class:`~briscola.client.session.RemoteSession` (a table on a server; its
:class:`~briscola.client.spectator.SpectatorSession` watches one, at no seat) and the replay's
:class:`~briscola.game.record.RecordSession` (one still moment of a recorded hand, a
:class:`SessionView` only). The table
cannot tell them apart: what only a network table has to say (a connection lost, a player
away) comes through :meth:`SessionView.news` like anything else, empty for the others. This
module imports no pygame.

What the table reads (:class:`SessionView`):

``rules``, ``seats``, ``demo``
    The rules of the match; one :class:`SeatInfo` per seat (name and kind); whether computers
    play every seat for show (messages never say "you", nothing is recorded).
``shown_seat``
    Whose view the screen shows (that seat sits at the bottom); None while the hands are
    hidden between two hot-seat players.
``waiting_for``
    Hot seat: the screen is covered until ``waiting_for``'s player is ready.
``view()``
    The :class:`PlayerView` of ``shown_seat`` (while hands are hidden, of the seat last
    shown: the table then draws only what is public).
``new_events()``
    The engine events since the last call (or since ``start``/``reveal``), as
    ``shown_seat`` may see them: cards hidden from it arrive as None.
``to_play``, ``plays_here(seat)``, ``legal_actions()``, ``thinking()``
    The seat to act now (None when the hand is over); whether a person at this screen plays
    ``seat``; what the shown seat may do now (empty when it is not its turn or not played
    here); ``(seat, since)`` while another player is choosing.
``hand_over``, ``hand_number``, ``standing``, ``dealer``
    The hand has ended; for the match line: the number of the hand being played (or just
    finished), the match standing (one value per side, per seat in Chiamata), the dealer.
``can_undo``
    Whether this table lets the player take moves back (one person against computers on
    this computer; never hot seat or online).
``news()``, ``take_messages()``, ``wake_in()``
    What the table has to say beyond the cards (:class:`TableNews`: the connection, players
    away or replaced by a computer, the table's end), messages to show once, and in how many
    seconds the session wants the next frame without input (None: not before something
    happens; 0: every frame).

What the table does (:class:`TableSession`, a :class:`SessionView` that can be played):

``start()``, ``reveal()``, ``submit(action)``, ``undo()``
    Begin (deal, or resume a saved or running hand); the hot-seat player is ready; play
    ``action`` for the shown seat (False, and nothing changes, when it is not legal now);
    take back the player's last move and the computers' replies since.
``send_signal(signal)``
    The shown seat's partner signal (:mod:`briscola.engine.signals`; False when it may not
    be made now). It is no move: it comes back among the events of the seats that may see it.
``advance(dt, idle)``
    Called every frame; ``idle`` is True once the animations have caught up: other players
    move only then, so that every move is seen.
``finish_hand()``, ``next_hand()``, ``rematch()``, ``close()``
    Close the finished hand (called once the end is animated; returns its
    :class:`HandSummary`, None while not known yet); deal the next hand; a new match with
    the same seats; the table is left (save what must be saved, stop thinking).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from briscola.engine import Action, Event, PlayerView, Rules, Signal, Signalled
from briscola.game.summary import HandSummary

__all__ = [
    "NO_NEWS",
    "Message",
    "SeatInfo",
    "SeatNews",
    "SessionView",
    "TableNews",
    "TableSession",
    "is_player",
    "made_for_people",
    "moved_on",
]


@dataclass(frozen=True)
class SeatInfo:
    """Who sits at a seat. ``kind``: ``"human"`` (a person at this screen), ``"bot"`` (a
    computer player, ``level`` easy, medium or hard) or ``"remote"`` (a person elsewhere)."""

    name: str
    kind: str
    level: str = ""
    #: At a rated online table: the player's rating, shown beside the name.
    rating: int | None = None


@dataclass(frozen=True)
class SeatNews:
    """A player who is not at the table now: ``away`` (the connection dropped, their seat is
    kept) or ``replaced`` (a computer plays for them until they return)."""

    seat: int
    name: str
    away: bool = False
    replaced: bool = False


Connection = Literal["", "reconnecting", "host_away", "failed", "closed"]


@dataclass(frozen=True)
class TableNews:
    """What the table has to say beyond the cards. ``connection``: ``""`` (nothing to say),
    ``reconnecting``, ``failed`` (cannot continue) or ``closed`` (the connection is gone);
    ``ended``: the reason the table ended (``host_left``, ``shutdown``...), None while it
    goes on; ``ended_message`` the words that came with it. Between hands, once the
    player asked for the next one: ``waiting``, the players the table still waits for; once
    they asked for a rematch: ``waiting_host``, the name of the host who starts it.
    ``ready``: the other players who have asked for the next hand (between hands) or for a
    rematch (once the match is over); ``dealt``: the next hand (or the new match) has
    already begun while this player is still on the last one's score. ``live``: the news
    changes by itself (a table on the network): a screen showing it looks again a few
    times a second. ``computer_signals``: the partner signals of the view that a computer
    made for a person (away, or out of time for a move). ``watchers``: how many spectators
    watch the table (a public table online); ``watching``: this screen is one of them (it
    plays no seat: nothing can be played, hinted or taken back here)."""

    connection: Connection = ""
    detail: str = ""
    #: ``host_away`` (the host's game, where the table lives, is out of reach; ``detail``
    #: is the host's name): the time of day (``time.time()``) the table is given up at.
    back_by: float | None = None
    seats: tuple[SeatNews, ...] = ()
    ended: str | None = None
    ended_message: str = ""
    waiting: tuple[str, ...] = ()
    waiting_host: str = ""
    ready: tuple[str, ...] = ()
    dealt: bool = False
    live: bool = False
    computer_signals: frozenset[Signalled] = frozenset()
    watchers: int = 0
    watching: bool = False


#: A table with nothing to say (every local table, every replay).
NO_NEWS = TableNews()


@dataclass(frozen=True)
class Message:
    """Something to tell the player once: ``kind`` ``notice`` (e.g. code ``timed_out``: a
    computer made a move for them) or ``refused`` (a move the server did not accept)."""

    kind: Literal["notice", "refused"]
    code: str
    text: str = ""


class SessionView(Protocol):
    """What the table reads of the game it shows (see the module docstring)."""

    @property
    def rules(self) -> Rules: ...

    @property
    def seats(self) -> Sequence[SeatInfo]: ...

    @property
    def demo(self) -> bool: ...

    @property
    def shown_seat(self) -> int | None: ...

    @property
    def waiting_for(self) -> int | None: ...

    @property
    def to_play(self) -> int | None: ...

    @property
    def hand_over(self) -> bool: ...

    @property
    def hand_number(self) -> int: ...

    @property
    def standing(self) -> Sequence[int]: ...

    @property
    def dealer(self) -> int: ...

    @property
    def can_undo(self) -> bool: ...

    def view(self) -> PlayerView: ...

    def new_events(self) -> list[Event]: ...

    def plays_here(self, seat: int) -> bool: ...

    def legal_actions(self) -> list[Action]: ...

    def thinking(self) -> tuple[int, float] | None: ...

    def news(self) -> TableNews: ...

    def take_messages(self) -> list[Message]: ...

    def wake_in(self) -> float | None: ...


class TableSession(SessionView, Protocol):
    """A :class:`SessionView` that can be played (see the module docstring)."""

    def start(self) -> None: ...

    def reveal(self) -> None: ...

    def submit(self, action: Action) -> bool: ...

    def send_signal(self, signal: Signal) -> bool: ...

    def advance(self, dt: float, idle: bool) -> None: ...

    def finish_hand(self) -> HandSummary | None: ...

    def next_hand(self) -> None: ...

    def rematch(self) -> None: ...

    def close(self) -> None: ...

    def undo(self) -> bool: ...


def is_player(session: SessionView, seat: int) -> bool:
    """``seat`` is the person looking at the screen now: messages say "you" to them."""
    return seat == session.shown_seat and session.plays_here(seat) and not session.demo


def moved_on(session: SessionView) -> bool:
    """The hand in view is over and the player has gone on from it (asked for the next hand
    or a rematch that the table waits for): the table shows nothing of it any more, only
    the seats, until the next deal."""
    return not session.hand_over and session.view().phase == "over"


def made_for_people(
    signals: Sequence[Signalled], tags: object, people: Collection[object]
) -> frozenset[Signalled]:
    """Of ``signals``, those a computer made for a person: ``tags`` names who made each, in
    order (``human``, or ``bot:LEVEL`` for a computer), ``people`` the seats of persons.
    Nothing when ``tags`` is not such a list (an older server or record did not say)."""
    if not isinstance(tags, list) or len(tags) != len(signals):
        return frozenset()
    return frozenset(
        made
        for made, tag in zip(signals, tags, strict=True)
        if tag != "human" and made.seat in people
    )
