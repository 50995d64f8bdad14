"""The match driver: the one place a match is run, for a table on this computer and for a
table on a server alike.

A :class:`MatchDriver` holds the seats (people and computer players, a person replaced by a
computer and back), the :class:`~briscola.engine.Match` and the hand being played. It
applies every action through the engine (the only judge), lets computer players think
through a :class:`~briscola.game.bots.BotPort` the caller passes in, falls back to a legal
move when a bot fails, takes moves back (undo), and writes the record of each hand with who
actually played each card. It knows nothing of screens, sockets or files: the local session
(:mod:`briscola.game.local`) and the server's table (:mod:`briscola.server.tables`) put
those around it.

Randomness: one generator, seeded by the caller, gives each computer seat its own generator
(in seat order, when the driver is made) and then shuffles every deal, so a seeded match
plays the same cards wherever it is driven. With ``seed`` instead (a table kept in a shared
store, which any process may take over), nothing random is carried between moves: every deal
and every computer move draws from a generator made from the seed and its place in the match
(deal number, seat, move), so a process that rebuilds the match from its records makes the
same choices as the one it took over from.
"""

from __future__ import annotations

import copy
import logging
import random
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from briscola.ai import Bot, make_bot
from briscola.ai.signals import choose_signal, signals_between
from briscola.engine import (
    Action,
    Card,
    GameState,
    Match,
    MatchOver,
    PlayerView,
    ReplayError,
    Rules,
    Signal,
    Signalled,
    action_of,
    replay,
    to_record,
    view,
)
from briscola.game.bots import BotPort, fallback
from briscola.game.summary import HandSummary, summarize

__all__ = ["HUMAN", "BotJob", "MatchDriver", "Seat", "hand_actions"]

log = logging.getLogger("briscola.game")

SeatKind = Literal["human", "bot"]
#: How a record names a move made by a person.
HUMAN: Final = "human"


@dataclass
class Seat:
    """Who sits at a seat. ``kind`` is as the match was set up: a person (``"human"``,
    here or elsewhere) or a computer player (``"bot"``, of ``level``). ``stand_in``: a
    computer (of ``level``) plays for the absent person now."""

    name: str
    kind: SeatKind
    level: str = "medium"
    stand_in: bool = False
    bot: Bot | None = field(default=None, repr=False, compare=False)

    @property
    def computer_plays(self) -> bool:
        return self.kind == "bot" or self.stand_in

    @property
    def tag(self) -> str:
        """How the record names this seat's player: ``human`` or ``bot:LEVEL``."""
        return f"bot:{self.level}" if self.kind == "bot" else HUMAN


@dataclass(frozen=True)
class BotJob:
    """A computer player asked to move: ``seen`` is all it may know. ``stamp`` tells, when
    the answer comes, whether the position is still the one it was asked about."""

    seat: int
    bot: Bot
    seen: PlayerView
    stamp: int
    level: str
    #: A computer moves this once for a person (their turn clock ran out).
    forced: bool = False


def hand_actions(state: GameState) -> list[tuple[int, Action]]:
    """The actions of the hand so far, in order, each with the seat that took it (read from
    the engine's events, replayed from the deal)."""
    actions = [action for event in state.events if (action := action_of(event)) is not None]
    replayed = GameState(state.rules, state.deck, state.dealer)
    out: list[tuple[int, Action]] = []
    for action in actions:
        seat = replayed.current_player
        assert seat is not None
        out.append((seat, action))
        replayed.apply(action)
    return out


def rebuilt_place(state: GameState) -> tuple[int, int]:
    """Where a hand is, as a signal records it: (trick number, cards on the table)."""
    return len(state.tricks), len(state.trick)


def now() -> str:
    """The local time, as records give it."""
    return time.strftime("%Y-%m-%dT%H:%M:%S")


class MatchDriver:
    """One match between ``seats`` under ``rules`` (see the module docstring).

    ``time_limit(level)``: the seconds a computer of ``level`` may think. ``undo``: keep
    what is needed to take a person's moves back (one person against computers).
    ``app`` and ``clock`` (the local time by default) stamp the records. ``match``,
    ``state``, ``played_by`` and ``signalled_by`` resume a match where it was (a saved
    game, a table rebuilt from its record).
    """

    def __init__(
        self,
        rules: Rules,
        seats: Sequence[Seat],
        rng: random.Random,
        *,
        time_limit: Callable[[str], float] = lambda level: 1.0,
        undo: bool = False,
        app: str = "",
        clock: Callable[[], str] | None = None,
        match: Match | None = None,
        state: GameState | None = None,
        played_by: Sequence[str] = (),
        signalled_by: Sequence[str] = (),
        seed: str | None = None,
    ) -> None:
        if len(seats) != rules.players:
            raise ValueError(f"{rules.players} seats needed, got {len(seats)}")
        self.rules = rules
        self.seats = list(seats)
        self.rng = rng
        self.time_limit = time_limit
        self.keeps_undo = undo
        self.app = app
        self.clock = clock
        #: Randomness from the place in the match, not carried state (see the module).
        self.seed = seed
        for seat in self.seats:
            if seat.computer_plays:
                seat.bot = self._new_bot(seat.level)
        self.match = match or self._fresh_match()
        self.state = state
        #: Who made each action of this hand, in order (``human`` or ``bot:LEVEL``).
        self.played_by: list[str] = list(played_by)
        if state is not None and len(self.played_by) != len(hand_actions(state)):
            self.played_by = [self.seats[seat].tag for seat, _action in hand_actions(state)]
        #: Who made each partner signal of this hand, in the order of ``state.signals``
        #: (``human``, or ``bot:LEVEL`` for a computer, also one signalling for a person).
        self.signalled_by: list[str] = list(signalled_by)
        if state is not None and len(self.signalled_by) != len(state.signals):
            self.signalled_by = [self.seats[made.seat].tag for made in state.signals]
        #: Hands dealt by this driver (across matches).
        self.deals = 0
        #: Moves taken back in this hand.
        self.undos = 0
        #: The hand has been counted in the match (``finish_hand``).
        self.hand_closed = False
        #: Grows at every change of position: a bot's answer about an older one is dropped.
        self.stamp = 0
        self._bots_before: list[list[Bot | None]] = []

    @classmethod
    def rebuild(
        cls,
        rules: Rules,
        seats: Sequence[Seat],
        rng: random.Random,
        records: Sequence[Mapping[str, Any]],
        **options: Any,
    ) -> MatchDriver:
        """The driver of a match whose hands so far are ``records`` (in order, as
        :meth:`record` wrote them): every finished hand is replayed and counted, the last
        one, if unfinished, is the hand under way, with who made its moves. Raises
        :class:`~briscola.engine.ReplayError` for a record that does not replay or does not
        belong to the match (other rules, the wrong dealer: the first hand's dealer deals
        first, then each next seat in turn). The computers start afresh from ``rng``."""
        match = Match(rules, first_dealer=rules.players - 1)
        state: GameState | None = None
        played_by: Sequence[str] = ()
        signalled_by: Sequence[str] = ()
        for number, doc in enumerate(records, 1):
            if state is not None:
                raise ReplayError(f"hand {number}: the hand before it is unfinished")
            if match.is_over():
                raise ReplayError(f"hand {number}: the match was over before it")
            hand = replay(doc)
            if number == 1 and hand.rules == rules:  # (a rematch goes on round the table)
                match = Match(rules, first_dealer=hand.dealer)
            if hand.rules != rules or hand.dealer != match.dealer:
                raise ReplayError(f"hand {number}: not the next hand of this match")
            if hand.is_terminal():
                match.finish_hand(hand)
            else:
                state = hand
                meta = doc.get("meta")
                played_by = _tags(meta, "played_by")
                signalled_by = _tags(meta, "signalled_by")
        driver = cls(
            rules,
            seats,
            rng,
            match=match,
            state=state,
            played_by=played_by,
            signalled_by=signalled_by,
            **options,
        )
        driver.deals = len(records)
        driver.hand_closed = state is None and bool(records)
        return driver

    # ------------------------------------------------------------------ reading

    @property
    def to_move(self) -> int | None:
        """The seat to act now (None between hands)."""
        state = self.state
        if state is None or state.is_terminal():
            return None
        return state.current_player

    @property
    def hand_over(self) -> bool:
        return self.state is not None and self.state.is_terminal()

    def computer_to_move(self) -> bool:
        seat = self.to_move
        return seat is not None and self.seats[seat].computer_plays

    @property
    def hand_number(self) -> int:
        """The hand being played, or the one just counted."""
        return len(self.match.results) if self.hand_closed else self.match.hand_number

    # ------------------------------------------------------------------ playing

    def new_match(self) -> None:
        """A new match with the same seats, dealt first by the seat whose turn it is to deal:
        the deal goes on round the table from the last match's last hand, as it passes after
        every hand (the same seat no longer deals the first hand of every match)."""
        self.match = Match(self.rules, first_dealer=self.match.dealer)
        self.state = None
        self.hand_closed = False

    def deal(self, deck: Sequence[Card] | None = None) -> GameState:
        """Deal the next hand of the match (from ``deck``, top card first, when given: a
        server's table deals the deck no one chose, :mod:`briscola.engine.fairdeal`)."""
        if self.match.is_over():
            self.new_match()
        if deck is not None:
            self.state = GameState(self.rules, deck, self.match.dealer)
        else:
            rng = self.rng if self.seed is None else random.Random(f"{self.seed}:deal:{self.deals}")
            self.state = self.match.new_hand(rng)
        self.deals += 1
        self.played_by = []
        self.signalled_by = []
        self.undos = 0
        self.hand_closed = False
        self._bots_before = []
        self.stamp += 1
        return self.state

    def apply(self, action: Action, by: str | None = None) -> int:
        """Play ``action`` for the seat to move (the engine raises
        :class:`~briscola.engine.IllegalMoveError` and nothing changes when it is not legal);
        ``by`` names who made it, the seat's own player by default. The seat is returned."""
        state = self.state
        if state is None or state.current_player is None:
            raise ValueError("no hand is being played")
        seat = state.current_player
        keep = self.keeps_undo and by is None and not self.seats[seat].computer_plays
        before = copy.deepcopy([sitting.bot for sitting in self.seats]) if keep else None
        state.apply(action)
        if before is not None:
            self._bots_before.append(before)
        self.played_by.append(by or self.seats[seat].tag)
        self.stamp += 1
        return seat

    def signal(self, seat: int, signal: Signal) -> Signalled:
        """``seat`` makes a partner signal (on its turn or between tricks; the engine raises
        :class:`~briscola.engine.IllegalMoveError`, nothing changes, when it may not). A
        signal is not a move: it is in the record's ``signals``, not in ``played_by``."""
        state = self.state
        if state is None or state.is_terminal():
            raise ValueError("no hand is being played")
        made = state.signal(seat, signal)
        self.signalled_by.append(self.seats[seat].tag)
        return made

    def computer_signal(self, seat: int, level: str | None = None) -> Signalled | None:
        """The computer of ``seat`` (of ``level``, the seat's own by default), about to
        move, makes its (truthful) signal, if any."""
        state = self.state
        if state is None or state.rules.signals == "off" or state.current_player != seat:
            return None
        chosen = choose_signal(view(state, seat))
        if chosen is None:
            return None
        made = state.signal(seat, chosen)
        self.signalled_by.append(f"bot:{level or self.seats[seat].level}")
        return made

    def computer_signals_between(self) -> list[Signalled]:
        """Between tricks, before the lead: the computers of the other seats make their
        (truthful) signals, each seeing those made before it; what they made, in order.
        The seat to lead signals on its turn (:meth:`computer_signal`); the rule is
        :func:`~briscola.ai.signals.signals_between`, which the arena shares."""
        state = self.state
        if state is None:
            return []
        made = signals_between(state, lambda seat: self.seats[seat].computer_plays)
        self.signalled_by += [f"bot:{self.seats[m.seat].level}" for m in made]
        return made

    def bot_job(self, stand_in: str | None = None) -> BotJob:
        """Ask the computer of the seat to move (or, with ``stand_in``, a computer of that
        level just this once, for a person whose time ran out)."""
        state = self.state
        seat_index = self.to_move
        if state is None or seat_index is None:
            raise ValueError("nobody is to move")
        seat = self.seats[seat_index]
        self.computer_signal(seat_index, stand_in)
        if stand_in is not None:
            bot, level, forced = self._new_bot(stand_in, seat_index), stand_in, True
        elif self.seed is not None:
            bot, level, forced = self._new_bot(seat.level, seat_index), seat.level, False
        else:
            if seat.bot is None:
                seat.bot = self._new_bot(seat.level)
            bot, level, forced = seat.bot, seat.level, False
        return BotJob(seat_index, bot, view(state, seat_index), self.stamp, level, forced)

    def submit(self, port: BotPort, stand_in: str | None = None) -> tuple[BotJob, Future[Any]]:
        """:meth:`bot_job` sent to ``port``: the job and its future."""
        job = self.bot_job(stand_in)
        return job, port.submit(job.bot, job.seen)

    def is_current(self, job: BotJob) -> bool:
        """Nothing has changed since ``job`` was asked."""
        return job.stamp == self.stamp and self.to_move == job.seat

    def bot_move(self, job: BotJob, answer: Callable[[], tuple[Action, Bot]]) -> Action | None:
        """Play what the computer of ``job`` answered (``answer()`` gives it, or raises what
        the bot raised): a failure or an illegal choice plays the first legal move instead.
        None, and nothing changes, when the position has moved on since the job was asked."""
        state = self.state
        if state is None or not self.is_current(job):
            return None
        seat = self.seats[job.seat]
        who = f"computer player of seat {job.seat}"
        try:
            chosen: Action | None
            chosen, bot = answer()
            if not job.forced:
                seat.bot = bot
        except Exception:
            log.exception("the %s failed; playing its first legal move", who)
            chosen = None
        action = fallback(chosen, state.legal_actions(), who)
        self.apply(action, by=f"bot:{job.level}")
        return action

    def replace(self, seat: int, level: str) -> None:
        """A computer of ``level`` plays for the person of ``seat`` until :meth:`restore`."""
        sitting = self.seats[seat]
        if sitting.kind == "human":
            sitting.stand_in, sitting.level, sitting.bot = True, level, None
            self.stamp += 1

    def restore(self, seat: int) -> None:
        """The person of ``seat`` is back: the computer stands down."""
        sitting = self.seats[seat]
        if sitting.kind == "human" and sitting.stand_in:
            sitting.stand_in, sitting.bot = False, None
            self.stamp += 1

    def can_undo(self, seat: int) -> bool:
        state = self.state
        if not self.keeps_undo or state is None or state.is_terminal() or self.hand_closed:
            return False
        return any(actor == seat for actor, _action in hand_actions(state))

    def undo(self, seat: int) -> bool:
        """Take back ``seat``'s last move and every move since: the hand is replayed from
        its deal without them, the computers get back the state (random state included) they
        had before that move. False when there is nothing to take back."""
        state = self.state
        if not self.can_undo(seat) or state is None:
            return False
        actions = hand_actions(state)
        last = max(i for i, (actor, _action) in enumerate(actions) if actor == seat)
        rebuilt = GameState(state.rules, state.deck, state.dealer)
        signals = list(state.signals)  # those made before the move taken back stay
        for _actor, action in actions[:last]:
            while signals and (signals[0].trick, signals[0].at) == rebuilt_place(rebuilt):
                made = signals.pop(0)
                rebuilt.signal(made.seat, Signal(made.kind))
            rebuilt.apply(action)
        self.state = rebuilt
        self.played_by = self.played_by[:last]
        self.signalled_by = self.signalled_by[: len(rebuilt.signals)]
        if self._bots_before:
            for sitting, bot in zip(self.seats, self._bots_before.pop(), strict=True):
                sitting.bot = bot
        self.undos += 1
        self.stamp += 1
        return True

    # ------------------------------------------------------------------ the end of a hand

    def finish_hand(self, viewer: int | None = None) -> tuple[HandSummary, MatchOver | None]:
        """Count the finished hand in the match: its summary (from ``viewer``'s point of
        view) and, when the match is over with it, how it ended."""
        state = self.state
        if state is None or not state.is_terminal():
            raise ValueError("the hand is not over")
        if self.hand_closed:
            raise RuntimeError("the hand was finished already")
        result = state.outcome()
        over = self.match.finish_hand(state)
        self.hand_closed = True
        summary = summarize(
            state,
            result,
            names=[seat.name for seat in self.seats],
            hand_number=len(self.match.results),
            standing=self.match.standing,
            over=over,
            record=self.record(),
            viewer=viewer,
        )
        return summary, over

    def record(self, unfinished: str | None = None) -> dict[str, Any]:
        """The record of the hand (``briscola-record/1``), finished or not, with who sat
        where, who made each move (``played_by``) and each partner signal
        (``signalled_by``, with signals only) and where in the match it was."""
        state = self.state
        if state is None:
            raise ValueError("no hand has been dealt")
        meta: dict[str, Any] = {
            "players": [{"name": seat.name, "kind": seat.tag} for seat in self.seats],
            "played_by": list(self.played_by),
            "hand_number": self.hand_number,
            "match": str(self.rules.match),
            "app": self.app,
            "date": (self.clock or now)(),
        }
        if state.signals:
            meta["signalled_by"] = list(self.signalled_by)
        if self.undos:
            meta["undos"] = self.undos
        if unfinished is not None:
            meta["unfinished"] = unfinished
        return to_record(state, meta)

    # ------------------------------------------------------------------ inside

    def _fresh_match(self) -> Match:
        return Match(self.rules, first_dealer=self.rules.players - 1)

    def _new_bot(self, level: str, seat: int | None = None) -> Bot:
        if self.seed is not None and seat is not None:
            # The same bot for the same position, in whichever process asks.
            rng = random.Random(f"{self.seed}:bot:{self.deals}:{seat}:{len(self.played_by)}")
        else:
            rng = random.Random(self.rng.random())
        return make_bot(level, rng, time_limit=self.time_limit(level))


def _tags(meta: object, key: str) -> list[str]:
    """A record's ``meta[key]`` when it is a list of tags (``human``, ``bot:LEVEL``), else
    nothing (the driver then names each seat's own player)."""
    tags = meta.get(key) if isinstance(meta, Mapping) else None
    if isinstance(tags, list) and all(isinstance(tag, str) for tag in tags):
        return list(tags)
    return []
