"""The session: the game behind the table, as the table may know it.

The table scene never touches a :class:`GameState`: it asks a :class:`TableSession` what to
show and hands it what the player did. Data flows one way::

    input -> submit(action) -> session -> new_events() / view() -> director -> board -> painter

:class:`LocalSession` plays on this computer (the match, the state, the computer players on
the bot worker, hot-seat privacy, autosave and statistics). A remote session (a table on a
server, see ``briscola/net``) implements the same protocol from the messages it receives; the
table cannot tell them apart. This module imports no pygame.

What the table asks of a session (names are stable; a remote session implements each):

``rules``, ``seats``, ``demo``
    The rules of the match; one :class:`SeatInfo` per seat (name and kind); whether computers
    play every seat for show (messages never say "you", nothing is recorded).
``start()``
    Begin: deal the first hand, or resume a saved or running one. The table then draws
    ``view()`` and animates ``new_events()``.
``shown_seat``
    Whose view the screen shows (that seat sits at the bottom); None while the hands are
    hidden between two hot-seat players.
``waiting_for`` and ``reveal()``
    Hot seat: the screen is covered until ``waiting_for``'s player is ready; ``reveal()``
    says they are, and ``shown_seat`` becomes that seat.
``view()``
    The :class:`PlayerView` of ``shown_seat`` (while hands are hidden, of the seat last
    shown: the table then draws only what is public).
``new_events()``
    The engine events since the last call (or since ``start``/``reveal``), as
    ``shown_seat`` may see them: cards hidden from it arrive as None.
``to_play``
    The seat to act now (None when the hand is over).
``plays_here(seat)``
    A person at this screen plays ``seat`` (not a computer, not a remote player).
``legal_actions()``
    What the shown seat may do now (empty when it is not its turn or not played here).
``submit(action)``
    Play ``action`` for the shown seat; False (and nothing changes) when it is not legal now.
``thinking()``
    ``(seat, since)``: a computer is choosing for ``seat`` since ``since`` (time.monotonic()).
``advance(dt, idle)``
    Called every frame; ``idle`` is True once the animations have caught up: computer
    players move only then, so that every move is seen.
``hand_over``, ``finish_hand()``
    The hand has ended; ``finish_hand()`` (called once the end is animated) closes it and
    returns its :class:`HandSummary` (None: not known yet, ask again next frame).
``hand_number``, ``standing``, ``dealer``
    For the match line: the number of the hand being played (or just finished), the match
    standing (one value per side, per seat in Chiamata), the dealer of this hand.
``next_hand()``, ``rematch()``
    Deal the next hand of the match; start a new match with the same seats.
``close()``
    The table is left: save what must be saved, stop thinking.
``can_undo``, ``undo()``
    Whether this table lets the player take moves back (a game against computers on this
    computer; never hot seat or online); ``undo()`` takes back the player's last move and
    the computers' replies since (False when there is nothing to take back).
"""

from __future__ import annotations

import contextlib
import copy
import logging
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Protocol

from ...ai import make_bot
from ...ai.base import Bot
from ...engine import (
    Action,
    Auction,
    Call,
    Called,
    Event,
    GameState,
    HandResult,
    Match,
    Pass,
    Play,
    Played,
    PlayerView,
    Rules,
    Swap,
    Swapped,
    view,
)
from .. import autosave
from ..i18n import _
from ..setup import GameSetup
from ..summary import HandSummary

log = logging.getLogger(__name__)

#: Seconds a computer player may think, by level (a quarter of it in turbo runs).
BOT_TIME = {"easy": 0.3, "medium": 0.3, "hard": 0.8}


@dataclass(frozen=True)
class SeatInfo:
    """Who sits at a seat. ``kind``: ``"human"`` (a person at this screen), ``"bot"`` (a
    computer player, ``level`` easy, medium or hard) or ``"remote"`` (a person elsewhere)."""

    name: str
    kind: str
    level: str = ""


class TableSession(Protocol):
    """What the table scene asks of the game it shows (see the module docstring)."""

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

    def start(self) -> None: ...

    def reveal(self) -> None: ...

    def view(self) -> PlayerView: ...

    def new_events(self) -> list[Event]: ...

    def plays_here(self, seat: int) -> bool: ...

    def legal_actions(self) -> list[Action]: ...

    def submit(self, action: Action) -> bool: ...

    def thinking(self) -> tuple[int, float] | None: ...

    def advance(self, dt: float, idle: bool) -> None: ...

    def finish_hand(self) -> HandSummary | None: ...

    def next_hand(self) -> None: ...

    def rematch(self) -> None: ...

    def close(self) -> None: ...

    @property
    def can_undo(self) -> bool: ...

    def undo(self) -> bool: ...


def hand_actions(state: GameState) -> list[tuple[int, Action]]:
    """The actions of the hand so far, in order, each with the seat that took it (read from
    the engine's events, replayed from the deal)."""
    actions: list[Action] = []
    for event in state.events:
        match event:
            case Auction(bid=bid):
                actions.append(bid if bid is not None else Pass())
            case Called(card=card):
                actions.append(Call(card))
            case Swapped(gave=gave):
                actions.append(Swap(gave))
            case Played(card=card):
                actions.append(Play(card))
            case _:
                pass
    replayed = GameState(state.rules, state.deck, state.dealer)
    out: list[tuple[int, Action]] = []
    for action in actions:
        seat = replayed.current_player
        assert seat is not None
        out.append((seat, action))
        replayed.apply(action)
    return out


def is_player(session: TableSession, seat: int) -> bool:
    """``seat`` is the person looking at the screen now: messages say "you" to them."""
    return seat == session.shown_seat and session.plays_here(seat) and not session.demo


class BotRunner(Protocol):
    """Where computer players think (the App's :class:`BotWorker`)."""

    def submit(self, bot: Bot, seen: PlayerView) -> Future[tuple[Action, Bot]]: ...


class LocalSession:
    """A match played on this computer: any mix of people at this screen and computers.

    ``pace`` gives the seconds a computer waits, once the table is idle, before it moves
    (the animation speed setting scales it); ``turbo`` (tests, smoke runs) gives computers
    less time to think and waits for them rather than letting frames run ahead.
    """

    def __init__(
        self,
        setup: GameSetup,
        worker: BotRunner,
        *,
        demo: bool = False,
        match: Match | None = None,
        state: GameState | None = None,
        turbo: bool = False,
        pace: Callable[[], float] = lambda: 0.35,
        notify: Callable[[str], None] = log.info,
        version: str = "",
    ) -> None:
        self.setup = setup
        self._rules = setup.rules
        self._demo = demo
        self.worker = worker
        self.turbo = turbo
        self.pace = pace
        self.notify = notify
        self.version = version
        n = self._rules.players
        self.rng = random.Random(setup.seed) if setup.seed is not None else random.Random()
        self.match = match or Match(self._rules, first_dealer=n - 1)
        self.state: GameState | None = state
        self.bots: dict[int, Bot] = {}
        for seat, config in enumerate(setup.seats):
            if demo or not config.human:
                # Turbo runs (tests, smoke runs) give the search bots less time to think.
                limit = BOT_TIME.get(config.level, 0.5) * (0.25 if turbo else 1.0)
                self.bots[seat] = make_bot(
                    config.level, random.Random(self.rng.random()), time_limit=limit
                )
        self.humans = [s for s in range(n) if s not in self.bots]
        self._seats = [
            SeatInfo(config.name, "bot" if seat in self.bots else "human", config.level)
            for seat, config in enumerate(setup.seats)
        ]
        self._shown: int | None = 0 if demo or not self.humans else self.humans[0]
        #: The seat shown last (the bottom of the screen while hands are hidden).
        self.anchor = self._shown if self._shown is not None else 0
        self._waiting: int | None = None
        self._hide_after_pull = False
        #: Hot seat: the human whose hand was shown last (None: ask at the next human turn).
        self._last_human: int | None = None
        self.event_index = 0
        self.future: Future[tuple[Action, Bot]] | None = None
        self.future_seat = -1
        self.think_start = 0.0
        self.wait = 0.0  # seconds before the next computer move may start
        self.hand_done = False
        #: The computers as they were before each of the player's moves in this hand (undo
        #: puts them back, random states included).
        self._bots_before: list[dict[int, Bot]] = []
        #: Moves taken back in this hand (the statistics mark such hands).
        self.undos = 0
        #: Statistics and autosave are kept (a lesson keeps neither).
        self.keeps = not demo

    @classmethod
    def from_autosave(
        cls, worker: BotRunner, notify: Callable[[str], None], **options: Any
    ) -> LocalSession | None:
        """The saved game, if there is one (a notice says why one could not be read)."""
        saved, notice = autosave.load()
        if notice:
            notify(_(notice))
        if saved is None:
            return None
        return cls(
            saved.setup, worker, match=saved.match, state=saved.state, notify=notify, **options
        )

    # ------------------------------------------------------------------ what the table reads

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def seats(self) -> Sequence[SeatInfo]:
        return self._seats

    @property
    def demo(self) -> bool:
        return self._demo

    @property
    def hot_seat(self) -> bool:
        return len(self.humans) >= 2

    @property
    def shown_seat(self) -> int | None:
        return self._shown

    @property
    def waiting_for(self) -> int | None:
        return self._waiting

    @property
    def to_play(self) -> int | None:
        state = self.state
        if state is None or state.is_terminal():
            return None
        return state.current_player

    @property
    def hand_over(self) -> bool:
        return self.state is not None and self.state.is_terminal()

    @property
    def hand_number(self) -> int:
        return len(self.match.results) + (0 if self.hand_done else 1)

    @property
    def standing(self) -> Sequence[int]:
        return self.match.standing

    @property
    def dealer(self) -> int:
        return self.match.dealer

    def view(self) -> PlayerView:
        assert self.state is not None, "start() first"
        return view(self.state, self._shown if self._shown is not None else self.anchor)

    def new_events(self) -> list[Event]:
        state = self.state
        if state is None:
            return []
        seat = self._shown if self._shown is not None else -1
        events = state.events_for(seat, self.event_index)
        self.event_index = len(state.events)
        if self._hide_after_pull:
            # Hot seat: once a player's move is shown, nobody's hand stays face up.
            self._hide_after_pull = False
            self._show(None)
        return events

    def plays_here(self, seat: int) -> bool:
        return seat in self.humans and not self._demo

    def legal_actions(self) -> list[Action]:
        state = self.state
        seat = self.to_play
        if state is None or seat is None or seat != self._shown or not self.plays_here(seat):
            return []
        if self._waiting is not None:
            return []
        return state.legal_actions()

    def thinking(self) -> tuple[int, float] | None:
        if self.future is None:
            return None
        return self.future_seat, self.think_start

    # ------------------------------------------------------------------ what the table does

    def start(self) -> None:
        if self.state is None:
            if self.match.is_over():
                self.match = Match(self._rules, first_dealer=self._rules.players - 1)
            self._start_hand()
        else:
            self.event_index = len(self.state.events)
            self.wait = self.pace()

    def reveal(self) -> None:
        if self._waiting is not None:
            seat, self._waiting = self._waiting, None
            self._show(seat)

    def submit(self, action: Action) -> bool:
        state = self.state
        if state is None or action not in self.legal_actions():
            return False
        self._apply(action)
        return True

    def advance(self, dt: float, idle: bool) -> None:
        state = self.state
        if not idle or state is None or state.is_terminal():
            return
        seat = state.current_player
        assert seat is not None
        if seat in self.bots:
            self._bot_turn(seat, dt)
        elif self.hot_seat and self._shown != seat and self._waiting is None:
            if seat == self._last_human:
                self._show(seat)  # the same player again (leading the next trick): no handover
            else:
                self._waiting = seat
        elif not self.hot_seat and self._shown != seat:
            self._show(seat)

    def finish_hand(self) -> HandSummary | None:
        state = self.state
        if state is None or not state.is_terminal():
            return None
        if self.hand_done:
            raise RuntimeError("the hand was finished already")
        self.hand_done = True
        result = state.outcome()
        over = self.match.finish_hand(state)
        summary = HandSummary(
            rules=self._rules,
            names=[seat.name for seat in self.setup.seats],
            result=result,
            piles=[
                [card for trick in state.tricks if trick.winner in side for card in trick.cards]
                for side in result.sides
            ],
            hand_number=len(self.match.results),
            standing=list(self.match.standing),
            match_over=over is not None,
            match_winners=over.winners if over is not None else (),
            record=self._record(),
            bid=state.high_bid,
            caller=state.caller,
            partner=state.partner,
            called=state.called,
            viewer=self.humans[0] if len(self.humans) == 1 and not self._demo else None,
        )
        if self.keeps:
            self._record_stats(result, over is not None)
            if over is not None:
                autosave.clear()
            else:
                autosave.save(self.setup, self.match, None)
        return summary

    def next_hand(self) -> None:
        if self.match.is_over():
            self.match = Match(self._rules, first_dealer=self._rules.players - 1)
        self._start_hand()

    def rematch(self) -> None:
        self.match = Match(self._rules, first_dealer=self._rules.players - 1)
        autosave.clear()
        self._start_hand()

    @property
    def can_undo(self) -> bool:
        """One person against computers: undo is offered (never hot seat or a demo)."""
        return len(self.humans) == 1 and not self._demo

    def undo(self) -> bool:
        """Take back the player's last move and the computers' replies since: the hand is
        replayed from its deal without them, the computers get back the state (random
        state included) they had before that move. False when there is nothing to take
        back (no move of the player's in this hand, or the hand is over)."""
        state = self.state
        if not self.can_undo or state is None or state.is_terminal() or self.hand_done:
            return False
        seat = self.humans[0]
        actions = hand_actions(state)
        mine = [i for i, (actor, _action) in enumerate(actions) if actor == seat]
        if not mine:
            return False
        if self.future is not None:
            self.future.cancel()
            self.future = None
        rebuilt = GameState(state.rules, state.deck, state.dealer)
        for _actor, action in actions[: mine[-1]]:
            rebuilt.apply(action)
        self.state = rebuilt
        if self._bots_before:
            self.bots = self._bots_before.pop()
        self.undos += 1
        self.event_index = len(rebuilt.events)
        self.wait = self.pace()
        if self.keeps:
            autosave.save(self.setup, self.match, rebuilt)
        return True

    def close(self) -> None:
        autosave.flush()
        if self.future is not None:
            self.future.cancel()
            self.future = None

    # ------------------------------------------------------------------ inside

    def _show(self, seat: int | None) -> None:
        self._shown = seat
        if seat is not None:
            self.anchor = seat
            if seat in self.humans:
                self._last_human = seat
        if self.state is not None:
            self.event_index = len(self.state.events)

    def _start_hand(self) -> None:
        self.state = self.match.new_hand(self.rng)
        self.event_index = 0
        self.hand_done = False
        self._bots_before = []
        self.undos = 0
        self._waiting = None
        self._last_human = None  # a new hand: whoever is at the screen, the first is asked
        if self.hot_seat:
            self._show(None)  # the deal is not animated: nobody may watch their cards come
        if self.keeps:
            autosave.save(self.setup, self.match, self.state)

    def _apply(self, action: Action) -> None:
        state = self.state
        assert state is not None
        seat = state.current_player
        if seat in self.humans and self.can_undo:
            self._bots_before.append(copy.deepcopy(self.bots))
        state.apply(action)
        if self.keeps and not state.is_terminal():
            autosave.save(self.setup, self.match, state, background=True)
        if self.hot_seat and seat in self.humans:
            self._hide_after_pull = True
        self.wait = self.pace()

    def _bot_turn(self, seat: int, dt: float) -> None:
        state = self.state
        assert state is not None
        if self.future is None:
            self.wait -= dt
            if self.wait > 0:
                return
            self.future = self.worker.submit(self.bots[seat], view(state, seat))
            self.future_seat = seat
            self.think_start = time.monotonic()
            return
        if not self.future.done():
            if not self.turbo:
                return
            # Turbo (tests, smoke runs): frames do not outrun the computer players.
            with contextlib.suppress(Exception):  # a failure is handled just below
                self.future.result(timeout=10)
        future, self.future = self.future, None
        legal = state.legal_actions()
        try:
            action, self.bots[seat] = future.result()
        except Exception:
            log.exception("computer player %s failed; playing its first legal move", seat)
            action = legal[0]
        if action not in legal:
            log.error("computer player %s chose an illegal move %s", seat, action)
            action = legal[0]
        self._apply(action)

    def _record(self) -> dict[str, Any]:
        from ...engine import to_record

        assert self.state is not None
        meta = {
            "players": [
                {"name": s.name, "kind": "human" if i in self.humans else f"bot:{s.level}"}
                for i, s in enumerate(self.setup.seats)
            ],
            "app": f"briscola {self.version}",
            "date": time.strftime("%Y-%m-%dT%H:%M:%S"),
            "hand_number": len(self.match.results),
        }
        if self.undos:
            meta["undos"] = self.undos
        return to_record(self.state, meta)

    def _record_stats(self, result: HandResult, match_over: bool) -> None:
        if not self.humans:
            return
        try:
            from ..stats import Stats

            stats = Stats.load()
            if stats.notice:
                self.notify(stats.notice)
            seat = self.humans[0]
            stats.record_hand(self.setup, result, seat, undone=self.undos > 0)
            if match_over:
                winners = self.match.winners()
                if self._rules.chiamata:
                    won: bool | None = seat in winners if winners else None
                else:
                    side = self._rules.side_of(seat)
                    won = side in winners if winners else None
                stats.record_match(self.setup, won)
            problem = stats.save()
            if problem:
                self.notify(problem)
        except Exception:
            log.exception("could not record statistics")
