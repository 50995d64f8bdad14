"""The coach's words: its reasons, verdicts and review summary as sentences in the player's
language. No pygame: the command line review (``python -m briscola.review``) prints the
same sentences.

:mod:`briscola.coach` returns a message id and facts (:class:`~briscola.coach.Reason`);
this module holds the English sentences, marked for translation, and fills them with card
names in the deck's style (:mod:`briscola.text.names`).

>>> from briscola.coach import Reason
>>> from briscola.engine import Card
>>> reason_text(Reason("take_few", Card.from_code("AD"), table_points=21,
...                    beaters=(Card.from_code("3D"),)))
'Take it: 21 points on the table and only the Three of coins can beat the Ace of coins.'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from briscola.coach import BID_REASONS, REASONS, BidAdvice, MoveReview, Reason, Review
from briscola.engine import Card, PlayerView, Swap
from briscola.text.i18n import N_, _, decimal, ngettext, pgettext
from briscola.text.labels import bid_label
from briscola.text.names import capital, card_the, suit_name

__all__ = [
    "bid_text",
    "move_text",
    "reason_text",
    "summary_text",
    "swap_hint_text",
    "verdict_text",
]

#: Reason id -> sentence. Placeholders: {card} and {other} (cards with their article),
#: {points} (on the table), {card_points}, {beaters} (named cards), {count} (how many),
#: {trumps} (trumps still out), {loss} (points), {briscola} (the face-up card the trick's
#: loser draws).
_SENTENCES: Final[dict[str, str]] = {
    "only": N_("The only card you may play."),
    "take_safe": N_("Take it: {points} points on the table and nothing still out can beat {card}."),
    "take_few": N_("Take it: {points} points on the table and only {beaters} can beat {card}."),
    "take": N_("Take it: {points} points on the table are worth the risk."),
    "load": N_("Load it: your side is taking this trick, so {card} adds {card_points} points."),
    "keep_trumps": N_("Keep your trumps ({trumps} still out): {card} gives nothing away."),
    "let_go": N_("Let it go: {card} gives away only {card_points} points."),
    "lead_safe": N_("Lead {card}: nothing still out can beat it."),
    "lead_cheap": N_("Lead {card}: it risks only {card_points} points."),
    "spare": N_("Let it go: {card} gives away {card_points} points and keeps {other} for later."),
    "spare_caught": N_(
        "Let it go: {card} gives away {card_points} points now; {beaters} is still out and"
        " could take it later."
    ),
    "take_lead": N_("Take the lead: {card} wins this trick at no cost."),
    "risk_nothing": N_("{card} may take the trick and gives nothing away if it is beaten."),
    "secure": N_(
        "Take it with {card}: nothing still out can beat it, so its {card_points} points are safe."
    ),
    "secure_few": N_(
        "{card} takes the trick: only {beaters} can beat it and take its {card_points} points."
    ),
    "lead_trump": N_(
        "Lead {card}: to take it, another player must spend a trump ({trumps} still out)."
    ),
    "lead_few": N_("Lead {card}: only {beaters} can beat it."),
    "lead_top": N_("Lead {card}: only a trump can take it, and taking it costs a trump."),
    "keep": N_("Play {card} and keep {other} for later."),
    "close": N_("About as good: {card} or {other}."),
    "best": N_("The search expects the most points after {card}."),
    "gift": N_(
        "A gift: {card} gave {card_points} points to a trick the other side takes;"
        " {other} would have kept them."
    ),
    "wasted_trump": N_("A trump spent on a poor trick: {other} was enough."),
    "missed": N_("Missed: {other} would have taken the {points} points on the table."),
    "exposed": N_("A risky lead: {beaters} can still take {card}; {other} was safer."),
    "worse": N_("Better: {other}, worth {loss} more points."),
    "draw": N_(
        "Better: {other}, worth {loss} more points. This trick decides the last draw:"
        " whoever loses it takes {briscola}."
    ),
    "fewer_wins": N_("{card} shows more points than {other} but wins the hand less often."),
    "signal": N_("{other} answered your partner's signal."),
}
#: Variants for a card worth nothing, a trick worth nothing, or too many beaters to name.
_NOTHING: Final[dict[str, str]] = {
    "let_go": N_("Let it go: {card} gives nothing away."),
    "lead_cheap": N_("Lead {card}: it gives nothing away."),
    "missed": N_("Missed: {other} would have taken the trick."),
}
_MANY: Final[dict[str, str]] = {
    "exposed": N_("A risky lead: {count} cards still out can take {card}; {other} was safer."),
}
#: Beyond this many beaters a sentence gives their number instead of their names.
_NAMED: Final = 2

assert set(_SENTENCES) == set(REASONS), "every coach reason needs a sentence"


def _cards(cards: Sequence[Card], style: str, both: bool = False) -> str:
    """``cards`` named in the deck ``style``: one of them (``"... or ..."``), or with
    ``both`` all of them (``"... and ..."``)."""
    names = [card_the(c, style) for c in cards]
    if len(names) == 1:
        return names[0]
    # Translators: cards named in a hint, all of them ("the Three of coins and the Ace of
    # coins") or one of them ("the Three of coins or the Ace of coins").
    template = _("{first} and {second}") if both else _("{first} or {second}")
    return template.format(first=", ".join(names[:-1]), second=names[-1])


def reason_text(reason: Reason, style: str = "italian") -> str:
    """The sentence for ``reason``, card names in the deck ``style``."""
    template = _SENTENCES[reason.key]
    worthless = reason.card.points == 0 or (reason.key == "missed" and not reason.table_points)
    if reason.key in _NOTHING and worthless:
        template = _NOTHING[reason.key]
    if reason.key in _MANY and len(reason.beaters) > _NAMED:
        template = _MANY[reason.key]
    text = _(template).format(
        card=card_the(reason.card, style),
        other=card_the(reason.other, style) if reason.other is not None else "",
        points=reason.table_points,
        card_points=reason.card.points,
        beaters=_cards(reason.beaters, style) if reason.beaters else "",
        count=len(reason.beaters),
        trumps=reason.trumps_out,
        loss=decimal(reason.loss),
        briscola=card_the(reason.draw, style) if reason.draw is not None else "",
    )
    if reason.also is not None and reason.also == reason.other:
        # The card the hint keeps for later is also about as good to play now.
        if reason.also_edge:
            # Translators: after "... and keep {other} for later": playing that card now.
            also = _(
                "Playing it now is about as good: its {points} more points are within the"
                " margin of error."
            )
        else:
            # Translators: after "... and keep {other} for later": playing that card now.
            also = _("Playing it now is about as good.")
        text += " " + also.format(points=decimal(reason.also_edge))
    elif reason.also is not None:
        other = capital(card_the(reason.also, style))
        if reason.also_edge:
            # Translators: after a hint, another card that shows a little more expected
            # points than the hint's card; {points} is how many more, "2.4".
            also = _(
                "{other} is about as good: its {points} more points are within the margin of error."
            )
        else:
            # Translators: after a hint, another card the coach rates about the same.
            also = _("{other} is about as good.")
        text += " " + also.format(other=other, points=decimal(reason.also_edge))
    if reason.fewer_wins:
        others = capital(_cards(reason.fewer_wins, style, both=True))
        # Translators: after a hint, the cards that show more expected points than the
        # hint's card but win the hand less often (the hint plays for the win).
        text += " " + ngettext(
            "{cards} shows more points but wins the hand less often.",
            "{cards} show more points but win the hand less often.",
            len(reason.fewer_wins),
        ).format(cards=others)
    if reason.signal:
        # Translators: after a hint, when the hint's card follows a partner's signal
        # ("take it", "let it go") and another card shows more expected points.
        text += " " + _("It answers your partner's signal.")
    return capital(text)


def verdict_text(verdict: str) -> str:
    """A verdict's name (Best, Good, Inaccuracy, Mistake, Blunder, Forced)."""
    match verdict:
        case "forced":
            return pgettext("verdict", "Forced")
        case "best":
            return pgettext("verdict", "Best")
        case "good":
            return pgettext("verdict", "Good")
        case "inaccuracy":
            return pgettext("verdict", "Inaccuracy")
        case "mistake":
            return pgettext("verdict", "Mistake")
        case "blunder":
            return pgettext("verdict", "Blunder")
    raise ValueError(f"unknown verdict {verdict!r}")


def move_text(move: MoveReview, style: str = "italian") -> str:
    """A reviewed move in one line: verdict, then the reason."""
    return f"{verdict_text(move.verdict)}: {reason_text(move.reason, style)}"


def summary_text(review: Review) -> str:
    """The review's summary line."""
    return _("{lost} points lost to mistakes, accuracy {accuracy}%").format(
        lost=decimal(review.lost), accuracy=decimal(review.accuracy, 0)
    )


#: Bid advice id -> sentence. Placeholders: {bid}, {card} (the card called, with its
#: article), {suit} (the trump suit), {trumps} and {tops} (counts). No points: the hand's
#: value is the computers' own scale, not the points a bid needs (issue 50: "about 60
#: points" for a bid of 61).
_BID_SENTENCES: Final[dict[str, str]] = {
    "bid": N_(
        "Bid {bid}: with {suit} as trump and {card} called, your hand is strong enough for"
        " it (trumps in your hand: {trumps}; Aces and Threes in other suits: {tops})."
    ),
    "bid_forced": N_("Bid {bid}: everyone else passed, so you must bid, and this is the least."),
    "pass": N_(
        "Pass: even with {suit} as trump your hand is too weak for {bid} (trumps in your"
        " hand: {trumps}; Aces and Threes in other suits: {tops})."
    ),
    "call": N_(
        "Call {card}: {suit} become trump (trumps in your hand: {trumps}; Aces and Threes"
        " in other suits: {tops})."
    ),
}

assert set(_BID_SENTENCES) == set(BID_REASONS), "every bid advice needs a sentence"


def bid_text(advice: BidAdvice, style: str = "italian") -> str:
    """The sentence for the coach's bid or call, card names in the deck ``style``."""
    text = _(_BID_SENTENCES[advice.key]).format(
        bid=bid_label(advice.bid, style) if advice.bid is not None else "",
        card=card_the(advice.called, style),
        suit=suit_name(advice.trump, style),
        trumps=advice.trumps,
        tops=advice.tops,
    )
    return capital(text)


def swap_hint_text(seen: PlayerView, swap: Swap, style: str = "italian") -> str:
    """The hint to swap the briscola, and why: the card given, the face-up one taken, and
    what the hand gains (a stronger trump, and its points when it has any)."""
    gave, took = swap.card, seen.briscola
    if took is None:
        return _("Hint: swap the briscola")
    strength = seen.rules.strength
    names = {"gave": card_the(gave, style), "took": card_the(took, style)}
    if strength[took.rank] <= strength[gave.rank]:
        return _("Hint: swap {gave} for {took}.").format(**names)
    if took.points:
        # Translators: the hint to swap the 7 (or 2) of trump for the face-up briscola.
        return _("Hint: swap {gave} for {took}: a stronger trump, worth {points} points.").format(
            points=took.points, **names
        )
    # Translators: the hint to swap the 7 (or 2) of trump for the face-up briscola.
    return _("Hint: swap {gave} for {took}: a stronger trump for your hand.").format(**names)
