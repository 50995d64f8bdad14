"""The first lesson: a guided hand of two-player Briscola against a teacher.

:class:`LessonSession` is a :class:`LocalSession` with a fixed deal (:data:`DECK`), a
teacher that follows a short script (:class:`Teacher`) and captions (:meth:`caption`) that
explain, as the hand goes: the trump, leading, following, how tricks are won, the points,
drawing, the last cards and the end. Every card may be played: a card the lesson did not
expect is never refused but explained in a friendly note, and the lesson goes on from the
position reached (the teacher then plays like the medium computer, and the captions speak
of the cards really played). A lesson keeps no statistics and no autosave.

The captions are built when shown, in the player's language. This module imports no pygame
(the teacher travels to the computer players' worker process).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from briscola.ai.medium import medium_action
from briscola.engine import Action, Card, GameState, Match, Play, PlayerView, Rules, Suit, Trick
from briscola.game.bots import BotPort
from briscola.game.local import LocalSession
from briscola.game.session import SeatInfo
from briscola.game.setup import GameSetup, SeatConfig
from briscola.text.i18n import _
from briscola.text.names import capital, card_the, suit_name

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
    """A session with captions: the table shows :meth:`caption` in a box."""

    def caption(self, style: str) -> tuple[str, str] | None: ...

    def suggested(self) -> Card | None: ...

    def epilogue(self) -> str: ...


def trick_reason(trick: Trick, trump: Suit | None, style: str, names: Sequence[str]) -> str:
    """Who took ``trick`` and why, in two short sentences."""
    won = trick.cards[trick.seats.index(trick.winner)]
    led = trick.cards[0]
    card = card_the(won, style)
    if trick.winner == PLAYER:
        who = _("You took the trick with {card}.").format(card=card)
    else:
        who = _("{who} took the trick with {card}.").format(who=names[trick.winner], card=card)
    if won.suit is trump and led.suit is not trump:
        why = _("A trump beats every other suit.")
    elif won is led and all(c.suit is not led.suit for c in trick.cards[1:]):
        why = _("The other card was of another suit and not a trump, so the suit led wins.")
    else:
        why = _("The higher card of the suit led wins.")
    return f"{who} {why}"


class LessonSession(LocalSession):
    """A guided hand: fixed deal, scripted teacher, captions (see the module docstring)."""

    def __init__(self, worker: BotPort, **options: Any) -> None:
        rules = lesson_rules()
        setup = GameSetup(
            rules, [SeatConfig(_("You"), True, ""), SeatConfig(_("Teacher"), False, "medium")]
        )
        options["keeper"] = None  # no statistics, no autosave
        super().__init__(setup, worker, **options)
        self.driver.seats[TEACHER].bot = Teacher()
        #: A friendly word on the last card the player chose off the script (None: none).
        self.note: Callable[[str], str] | None = None

    @property
    def seats(self) -> Sequence[SeatInfo]:
        """ "You" and "Teacher", in the language shown now."""
        return [SeatInfo(_("You"), "human"), SeatInfo(_("Teacher"), "bot", "medium")]

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
            self.note = self._off_script(seen, action.card, expected)
        return True

    def undo(self) -> bool:
        done = super().undo()
        if done:
            self.note = None
        return done

    @staticmethod
    def _off_script(seen: PlayerView, played: Card, wanted: Card) -> Callable[[str], str]:
        """The note for ``played`` where the lesson suggested ``wanted``."""
        leading = not seen.table

        def note(style: str) -> str:
            first = _(
                "You played {played} instead of {wanted}: that is allowed, any card may be played."
            ).format(played=card_the(played, style), wanted=card_the(wanted, style))
            if leading and played.points:
                more = _("But a lead worth points can be taken: {wanted} risked nothing.")
            elif leading:
                more = _("Like {wanted}, it risks no points.")
            elif wanted.suit is seen.trump and played.suit is not seen.trump:
                more = _("Only a trump could take this trick: {wanted} would have won it.")
            else:
                more = _("{wanted} was the surer way to take the trick.")
            return f"{capital(first)} {capital(more.format(wanted=card_the(wanted, style)))}"

        return note

    # ------------------------------------------------------------------ captions

    def suggested(self) -> Card | None:
        """The card the lesson suggests to the player now (None: the player's choice)."""
        if self.state is None or self.to_play != PLAYER:
            return None
        return expected_card(self.view())

    def caption(self, style: str) -> tuple[str, str] | None:
        """The lesson's caption now: (title, text), in the player's language."""
        state = self.state
        if state is None:
            return None
        seen = self.view()
        parts: list[str] = []
        if self.note is not None:
            parts.append(self.note(style))
        title, text = self._topic(seen, style)
        parts.append(text)
        return title, "\n".join(parts)

    def epilogue(self) -> str:
        """The lesson's last word, for the score screen (which shows the points): what the
        hand taught and what to try next."""
        return " ".join(
            [
                _(
                    "You learnt: a trump beats every other suit, any card may be played, the"
                    " trick's winner draws first and leads, 61 points win."
                ),
                _("Next: Rematch, or New game against the easy computer, with H for hints."),
            ]
        )

    def _topic(self, seen: PlayerView, style: str) -> tuple[str, str]:
        names = [seat.name for seat in self.seats]
        done = len(seen.tricks)
        briscola = seen.briscola
        trump = seen.trump
        expected = expected_card(seen)
        mine = seen.current_player == PLAYER
        if seen.phase == "over":
            taken = sum(t.points for t in seen.tricks if t.winner == PLAYER)
            return _("The end"), _(
                "The hand is over: you took {points} of the 120 points. More than 60 wins; 60"
                " each is a draw."
            ).format(points=taken)
        if done == 0 and not seen.table:
            assert briscola is not None and trump is not None
            lead = (
                _("Lead {card}: it is worth no points, so it risks nothing.").format(
                    card=card_the(expected, style)
                )
                if expected is not None
                else ""
            )
            return _("Trump and leading"), " ".join(
                [
                    _(
                        "The card face up under the deck is the briscola, {card}: {suit} are"
                        " trumps for the whole hand."
                    ).format(card=card_the(briscola, style), suit=suit_name(trump, style)),
                    _("You play first (you lead): any card may be led."),
                    lead,
                ]
            ).strip()
        if done == 0:
            # (Still true once the teacher's card is down: the caption stays a moment.)
            return _("Following"), _(
                "The teacher answers your lead. Nobody ever has to follow suit: any card may"
                " be played on a trick."
            )
        last = seen.tricks[-1]
        why = trick_reason(last, trump, style, names)
        if done == 1:
            draw = _(
                "The winner of a trick draws first from the deck, then the other player, and"
                " leads the next trick."
            )
            if mine and seen.table:
                led = seen.table[0][1]
                take = (
                    _("Take it with {card}!").format(card=card_the(expected, style))
                    if expected is not None
                    else _("A trump, or a higher card of the same suit, takes it.")
                )
                return _("Drawing and following"), " ".join(
                    [
                        why,
                        draw,
                        capital(
                            (
                                _("{card} is led: it is worth {points} points.")
                                if led.points
                                else _("{card} is led: it is worth no points.")
                            ).format(card=card_the(led, style), points=led.points)
                        ),
                        take,
                    ]
                )
            return _("Drawing"), f"{why} {draw}"
        if done == 2:
            return _("Points"), " ".join(
                [
                    why,
                    _(
                        "Aces are worth 11 points, Threes 10, Kings 4, Knights 3, Jacks 2, the"
                        " other cards nothing: 120 in all."
                    ),
                    _("Play on by yourself now; H shows a hint when you are unsure."),
                ]
            )
        if seen.stock_size == 2:
            return _("The last draw"), _(
                "Two cards are left: the winner of this trick draws the last hidden card, the"
                " other player takes the briscola."
            )
        if seen.stock_size == 0 and len(seen.hand) == 1:
            return _("The last trick"), _(
                "After this trick each side counts the points of the cards it took."
            )
        if seen.stock_size == 0:
            return _("No more drawing"), _(
                "The deck is empty: the last tricks are played with the cards in hand."
                " Remember which trumps are still out."
            )
        return _("Your game"), why
