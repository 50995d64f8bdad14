"""A match on this computer, as a :class:`~briscola.game.session.TableSession`: any mix of
people at this screen and computer players, driven by the
:class:`~briscola.game.driver.MatchDriver`.

Around the driver it adds what only a shared screen needs: whose hand is shown, hot-seat
privacy (the screen is covered until the next player is ready), the computers' pace (they
move once the table is idle, after a pause) and undo for one person against computers.
What is kept between runs (the autosave) and counted (the statistics) goes to a
:class:`Keeper` the caller passes in; without one nothing is kept. No pygame, no files.
"""

from __future__ import annotations

import contextlib
import logging
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any, Protocol

from briscola.ai.base import Bot
from briscola.engine import (
    Action,
    Event,
    GameState,
    HandResult,
    Match,
    PlayerView,
    Rules,
    Signal,
    view,
)
from briscola.game.bots import BotPort
from briscola.game.driver import BotJob, MatchDriver, Seat
from briscola.game.session import NO_NEWS, Message, SeatInfo, TableNews
from briscola.game.setup import GameSetup
from briscola.game.summary import HandSummary

__all__ = ["BOT_TIME", "Keeper", "LocalSession"]

log = logging.getLogger(__name__)

#: Seconds a computer player may think, by level (a quarter of it in turbo runs).
BOT_TIME = {"easy": 0.3, "medium": 0.3, "hard": 0.8}


class Keeper(Protocol):
    """Where a match on this computer is kept between runs and counted."""

    def save(
        self, setup: GameSetup, match: Match, state: GameState | None, background: bool = False
    ) -> None:
        """Keep the match (and the hand under way) so that it can be resumed."""

    def clear(self) -> None:
        """The match is over or abandoned: nothing to resume."""

    def flush(self) -> None:
        """Finish any save still being written."""

    def hand_finished(
        self,
        setup: GameSetup,
        result: HandResult,
        seat: int,
        undone: bool,
        match_won: bool | None,
        match_over: bool,
    ) -> None:
        """Count a finished hand (and the match, when it ended) for the player of ``seat``:
        ``undone`` when moves were taken back, ``match_won`` None for a drawn match."""


class Resumable(Protocol):
    """A kept match (the keeper's load: :class:`briscola.storage.autosave.Saved`)."""

    @property
    def setup(self) -> GameSetup: ...

    @property
    def match(self) -> Match: ...

    @property
    def state(self) -> GameState | None: ...


class LocalSession:
    """A match of ``setup`` on this computer (see the module docstring).

    ``pace`` gives the seconds a computer waits, once the table is idle, before it moves
    (the animation speed setting scales it); ``turbo`` (tests, smoke runs) gives computers
    less time to think and waits for them rather than letting frames run ahead.
    """

    def __init__(
        self,
        setup: GameSetup,
        worker: BotPort,
        *,
        demo: bool = False,
        match: Match | None = None,
        state: GameState | None = None,
        turbo: bool = False,
        pace: Callable[[], float] = lambda: 0.35,
        keeper: Keeper | None = None,
        version: str = "",
    ) -> None:
        self.setup = setup
        self._rules = setup.rules
        self._demo = demo
        self.worker = worker
        self.turbo = turbo
        self.pace = pace
        self.keeper = keeper if not demo else None
        n = self._rules.players
        seats = [
            Seat(config.name, "bot" if demo or not config.human else "human", config.level)
            for config in setup.seats
        ]
        humans = [s for s in range(n) if seats[s].kind == "human"]
        self.driver = MatchDriver(
            self._rules,
            seats,
            random.Random(setup.seed) if setup.seed is not None else random.Random(),
            time_limit=lambda level: BOT_TIME.get(level, 0.5) * (0.25 if turbo else 1.0),
            undo=len(humans) == 1,
            app=f"briscola {version}",
            match=match,
            state=state,
        )
        self.humans = humans
        self._seats = [
            SeatInfo(config.name, seats[seat].kind, config.level)
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
        self.job: BotJob | None = None
        self.future: Future[tuple[Action, Bot]] | None = None
        self.think_start = 0.0
        self.wait = 0.0  # seconds before the next computer move may start
        self.hand_done = False
        #: The last view made: of which state, at which event and seat (see :meth:`view`).
        self._seen: tuple[GameState, tuple[int, int], PlayerView] | None = None

    @classmethod
    def resume(cls, saved: Resumable, worker: BotPort, **options: Any) -> LocalSession:
        """The kept match ``saved``, from where it was left (``options`` as for a new one)."""
        return cls(saved.setup, worker, match=saved.match, state=saved.state, **options)

    # ------------------------------------------------------------------ what the table reads

    @property
    def state(self) -> GameState | None:
        return self.driver.state

    @property
    def match(self) -> Match:
        return self.driver.match

    @property
    def undos(self) -> int:
        """Moves taken back in this hand (the statistics mark such hands)."""
        return self.driver.undos

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
        return self.driver.to_move

    @property
    def hand_over(self) -> bool:
        return self.driver.hand_over

    @property
    def hand_number(self) -> int:
        return len(self.match.results) + (0 if self.hand_done else 1)

    @property
    def standing(self) -> Sequence[int]:
        return self.match.standing

    @property
    def dealer(self) -> int:
        return self.match.dealer

    @property
    def can_undo(self) -> bool:
        """One person against computers: undo is offered (never hot seat or a demo)."""
        return len(self.humans) == 1 and not self._demo

    def view(self) -> PlayerView:
        """The shown seat's view, made once for each state of the hand (a table frame asks
        for it a dozen times): every change to a hand's state adds an event, and a new hand
        or a move taken back is a new state."""
        state = self.state
        assert state is not None, "start() first"
        key = (len(state.events), self._shown if self._shown is not None else self.anchor)
        made = self._seen
        if made is None or made[0] is not state or made[1] != key:
            made = self._seen = (state, key, view(state, key[1]))
        return made[2]

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
        if self.job is None:
            return None
        return self.job.seat, self.think_start

    def news(self) -> TableNews:
        """A table on this computer has nothing to say beyond its cards."""
        return NO_NEWS

    def take_messages(self) -> list[Message]:
        return []

    def wake_in(self) -> float | None:
        """Every frame while a computer here is to play (it moves when the table is idle)."""
        return 0.0 if self.driver.computer_to_move() else None

    # ------------------------------------------------------------------ what the table does

    def start(self) -> None:
        if self.state is None:
            if self.match.is_over():
                self.driver.new_match()
            self._start_hand()
        else:
            self.event_index = len(self.state.events)
            self.wait = self.pace()

    def reveal(self) -> None:
        if self._waiting is not None:
            seat, self._waiting = self._waiting, None
            self._show(seat)

    def submit(self, action: Action) -> bool:
        if self.state is None or action not in self.legal_actions():
            return False
        self._apply(action)
        return True

    def send_signal(self, signal: Signal) -> bool:
        """The shown seat's person makes a partner signal; False when it may not now."""
        state, seat = self.state, self._shown
        if state is None or seat is None or not self.plays_here(seat) or self._waiting is not None:
            return False
        try:
            self.driver.signal(seat, signal)
        except ValueError:  # IllegalMoveError included
            return False
        self._keep(state)  # a signal is kept at once, not with the next card
        return True

    def advance(self, dt: float, idle: bool) -> None:
        state = self.state
        if not idle or state is None or state.is_terminal():
            return
        seat = state.current_player
        assert seat is not None
        if self.driver.seats[seat].computer_plays:
            self._bot_turn(dt)
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
        viewer = self.humans[0] if len(self.humans) == 1 and not self._demo else None
        summary, over = self.driver.finish_hand(viewer)
        if self.keeper is not None:
            self._count(state.outcome(), over is not None)
            if over is not None:
                self.keeper.clear()
            else:
                self.keeper.save(self.setup, self.match, None)
        return summary

    def next_hand(self) -> None:
        if self.match.is_over():
            self.driver.new_match()
        self._start_hand()

    def rematch(self) -> None:
        self.driver.new_match()
        if self.keeper is not None:
            self.keeper.clear()
        self._start_hand()

    def undo(self) -> bool:
        """Take back the player's last move and the computers' replies since (False when
        there is nothing to take back: no move of the player's in this hand, or it is over)."""
        if not self.can_undo or self.hand_done or not self.driver.undo(self.humans[0]):
            return False
        self._drop_thinking()
        state = self.state
        assert state is not None
        self.event_index = len(state.events)
        self.wait = self.pace()
        if self.keeper is not None:
            self.keeper.save(self.setup, self.match, state)
        return True

    def close(self) -> None:
        if self.keeper is not None:
            self.keeper.flush()
        self._drop_thinking()

    # ------------------------------------------------------------------ inside

    def _drop_thinking(self) -> None:
        if self.future is not None:
            self.future.cancel()
        self.future = self.job = None

    def _show(self, seat: int | None) -> None:
        self._shown = seat
        if seat is not None:
            self.anchor = seat
            if seat in self.humans:
                self._last_human = seat
        if self.state is not None:
            self.event_index = len(self.state.events)

    def _deal(self) -> GameState:
        """The next hand's deal (a lesson deals a fixed one)."""
        return self.driver.deal()

    def _start_hand(self) -> None:
        self._drop_thinking()
        state = self._deal()
        self.driver.computer_signals_between()
        self.event_index = 0
        self.hand_done = False
        self._waiting = None
        self._last_human = None  # a new hand: whoever is at the screen, the first is asked
        if self.hot_seat:
            self._show(None)  # the deal is not animated: nobody may watch their cards come
        if self.keeper is not None:
            self.keeper.save(self.setup, self.match, state)

    def _apply(self, action: Action, by: str | None = None) -> None:
        self._moved(self.driver.apply(action, by))

    def _moved(self, seat: int) -> None:
        """``seat`` has moved: keep the hand, hide a hot-seat hand, pause the computers."""
        state = self.state
        assert state is not None
        self.driver.computer_signals_between()  # a trick was taken: partners may signal
        self._keep(state)
        if self.hot_seat and seat in self.humans:
            self._hide_after_pull = True
        self.wait = self.pace()

    def _keep(self, state: GameState) -> None:
        """Save the hand under way in the background (after a move or a signal)."""
        if self.keeper is not None and not state.is_terminal():
            self.keeper.save(self.setup, self.match, state, background=True)

    def _bot_turn(self, dt: float) -> None:
        if self.future is None or self.job is None:
            self.wait -= dt
            if self.wait > 0:
                return
            state = self.state
            made = len(state.signals) if state is not None else 0
            self.job, self.future = self.driver.submit(self.worker)
            self.think_start = time.monotonic()
            if state is not None and len(state.signals) > made:
                self._keep(state)  # the computer signalled before thinking
            return
        if not self.future.done():
            if not self.turbo:
                return
            # Turbo (tests, smoke runs): frames do not outrun the computer players.
            with contextlib.suppress(Exception):  # a failure is handled by the driver
                self.future.result(timeout=10)
        job, future = self.job, self.future
        self.job = self.future = None
        if self.driver.bot_move(job, future.result) is not None:
            self._moved(job.seat)

    def _count(self, result: HandResult, match_over: bool) -> None:
        """Hand the finished hand (and match) to the keeper's statistics."""
        if not self.humans or self.keeper is None:
            return
        seat = self.humans[0]
        won: bool | None = None
        if match_over:
            winners = self.match.winners()
            if winners:
                won = (
                    seat in winners
                    if self._rules.chiamata
                    else self._rules.side_of(seat) in winners
                )
        try:
            self.keeper.hand_finished(self.setup, result, seat, self.undos > 0, won, match_over)
        except Exception:
            log.exception("could not record statistics")
