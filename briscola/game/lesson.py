"""The first lesson: a guided hand of two-player Briscola against a teacher.

:class:`LessonSession` is a :class:`LocalSession` with a fixed deal (:data:`DECK`), a
teacher that follows a short script (:class:`Teacher`) and captions (:meth:`caption`) that
explain, as the hand goes: the trump, leading, following, how tricks are won, the points,
drawing, the last cards and the end. Every card may be played: a card the lesson did not
expect is never refused but explained in a friendly note, and the lesson goes on from the
position reached (the teacher then plays like the medium computer, and the captions speak
of the cards really played). A lesson keeps no statistics and no autosave.

The words are the caller's (:class:`LessonWords`, which :mod:`briscola.text.lesson` gives),
built when shown, in the player's language. This module imports no pygame (the teacher
travels to the computer players' worker process).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from briscola.ai.medium import medium_action
from briscola.engine import Action, Card, GameState, Match, Play, PlayerView, Rules
from briscola.game.bots import BotPort
from briscola.game.local import LocalSession
from briscola.game.session import SeatInfo
from briscola.game.setup import GameSetup, SeatConfig

#: The player sits at seat 0 and leads the first trick (the teacher, seat 1, deals).
PLAYER, TEACHER = 0, 1
#: The deal, in the engine's order: cards 0-5 alternate between the player and the teacher,
#: card 6 is the briscola (Cups are trumps), the stock follows.
_FIRST = ("4B", "KB", "2C", "AS", "KS", "5D", "7C", "6S", "3D", "6B", "QC")
_REST = "JD 5S 2B AB 4C 7D QS 3B 6D 2S JB 4D QB 3C 7S 5C 4S JS 2D 6C AD QD 7B KD JC KC AC 5B 3S"
DECK: tuple[Card, ...] = tuple(Card.from_code(c) for c in (*_FIRST, *_REST.split()))
#: The cards the script expects in the first two tricks, in playing order: the player leads
#: a worthless card and the teacher takes it with a higher one of the suit; the teacher
#: leads an Ace and the player takes it with a small trump.
SCRIPT: tuple[tuple[str, str], ...] = (("4B", "KB"), ("AS", "2C"))


def lesson_rules() -> Rules:
    return Rules.preset("classic2")


def on_script(seen: PlayerView) -> bool:
    """Every card played so far is the one the script expects."""
    for trick, expected in zip(seen.tricks, SCRIPT, strict=False):
        if tuple(c.code for c in trick.cards) != expected:
            return False
    if len(seen.tricks) >= len(SCRIPT):
        return True
    expected = SCRIPT[len(seen.tricks)]
    return tuple(c.code for _seat, c in seen.table) == expected[: len(seen.table)]


def expected_card(seen: PlayerView) -> Card | None:
    """The card the script expects from the seat to play now, while on script."""
    if len(seen.tricks) >= len(SCRIPT) or not on_script(seen):
        return None
    code = SCRIPT[len(seen.tricks)][len(seen.table)]
    card = Card.from_code(code)
    return card if card in seen.hand else None


class Teacher:
    """The teacher: the script's cards while the hand follows it, then medium's choices
    (deterministic, so the lesson is the same each time)."""

    def __init__(self) -> None:
        self.name = "teacher"

    def choose(self, view: PlayerView) -> Action:
        card = expected_card(view)
        if card is not None and Play(card) in view.legal:
            return Play(card)
        return medium_action(view)


@runtime_checkable
class Teaching(Protocol):
    """A session with captions: the table shows :meth:`caption` in a box, hints
    :meth:`suggested` and gives the score screen :meth:`epilogue`."""

    def caption(self, style: str) -> tuple[str, str] | None: ...

    def suggested(self) -> Card | None: ...

    def epilogue(self) -> str: ...


@dataclass(frozen=True, slots=True)
class OffScript:
    """The player played ``played`` where the lesson suggested ``wanted``, ``seen`` being
    what the player saw before the card."""

    seen: PlayerView
    played: Card
    wanted: Card


class LessonWords(Protocol):
    """What the lesson says, in the player's language (:mod:`briscola.text.lesson`)."""

    def names(self) -> tuple[str, str]:
        """The player's and the teacher's names, ``("You", "Teacher")`` in English."""
        ...

    def caption(
        self, seen: PlayerView, note: OffScript | None, names: Sequence[str], style: str
    ) -> tuple[str, str]:
        """(title, text) about the position ``seen``, after ``note`` when there is one."""
        ...

    def epilogue(self) -> str:
        """The lesson's last word: what the hand taught and what to try next."""
        ...


class LessonSession(LocalSession):
    """A guided hand: fixed deal, scripted teacher, captions in ``words`` (see the module
    docstring)."""

    def __init__(self, worker: BotPort, words: LessonWords, **options: Any) -> None:
        rules = lesson_rules()
        self.words = words
        you, teacher = words.names()
        setup = GameSetup(rules, [SeatConfig(you, True, ""), SeatConfig(teacher, False, "medium")])
        options["keeper"] = None  # no statistics, no autosave
        super().__init__(setup, worker, **options)
        self.driver.seats[TEACHER].bot = Teacher()
        #: The last card the player chose off the script (None: none).
        self.note: OffScript | None = None

    @property
    def seats(self) -> Sequence[SeatInfo]:
        """The player and the teacher, named in the language shown now."""
        you, teacher = self.words.names()
        return [SeatInfo(you, "human"), SeatInfo(teacher, "bot", "medium")]

    def _deal(self) -> GameState:
        # The fixed deal instead of a shuffle (the teacher always deals the lesson).
        self.driver.match = Match(self.rules, first_dealer=TEACHER)
        self.driver.deal()
        self.driver.state = GameState(self.rules, DECK, TEACHER)
        self.note = None
        return self.driver.state

    def submit(self, action: Action) -> bool:
        state = self.state
        if state is None:
            return False
        seen = self.view()
        expected = expected_card(seen)
        if not super().submit(action):
            return False
        self.note = None
        if expected is not None and isinstance(action, Play) and action.card != expected:
            self.note = OffScript(seen, action.card, expected)
        return True

    def undo(self) -> bool:
        done = super().undo()
        if done:
            self.note = None
        return done

    # ------------------------------------------------------------------ captions

    def suggested(self) -> Card | None:
        """The card the lesson suggests to the player now (None: the player's choice)."""
        if self.state is None or self.to_play != PLAYER:
            return None
        return expected_card(self.view())

    def caption(self, style: str) -> tuple[str, str] | None:
        """The lesson's caption now: (title, text), in the player's language."""
        if self.state is None:
            return None
        names = [seat.name for seat in self.seats]
        return self.words.caption(self.view(), self.note, names, style)

    def epilogue(self) -> str:
        """The lesson's last word, for the score screen (which shows the points)."""
        return self.words.epilogue()
