"""The first lesson's words (:mod:`briscola.game.lesson`): its captions, the friendly note on
a card off the script, its last word, and the names at the table, built when shown in the
player's language. :data:`LESSON_WORDS` is what the lesson session is given."""

from __future__ import annotations

from collections.abc import Sequence

from briscola.engine import PlayerView, Suit, Trick
from briscola.game.lesson import PLAYER, LessonWords, OffScript, expected_card
from briscola.text.i18n import _
from briscola.text.names import capital, card_the, suit_name


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


def off_script_note(note: OffScript, style: str) -> str:
    """The friendly note on a card played where the lesson suggested another."""
    seen, played, wanted = note.seen, note.played, note.wanted
    leading = not seen.table
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


class LessonText:
    """The lesson's words (:class:`~briscola.game.lesson.LessonWords`)."""

    def names(self) -> tuple[str, str]:
        return _("You"), _("Teacher")

    def caption(
        self, seen: PlayerView, note: OffScript | None, names: Sequence[str], style: str
    ) -> tuple[str, str]:
        parts: list[str] = []
        if note is not None:
            parts.append(off_script_note(note, style))
        title, text = _topic(seen, names, style)
        parts.append(text)
        return title, "\n".join(parts)

    def epilogue(self) -> str:
        return " ".join(
            [
                _(
                    "You learnt: a trump beats every other suit, any card may be played, the"
                    " trick's winner draws first and leads, 61 points win."
                ),
                _("Next: Rematch, or New game against the easy computer, with H for hints."),
            ]
        )


#: The words the lesson session is given.
LESSON_WORDS: LessonWords = LessonText()


def _topic(seen: PlayerView, names: Sequence[str], style: str) -> tuple[str, str]:
    """The caption's title and text for the position ``seen``."""
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
