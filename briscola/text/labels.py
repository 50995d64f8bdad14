"""Names the player reads for game things: configurations, computer levels, seat kinds, match
formats, Chiamata bids. One function per thing, so that every screen says it the same way."""

from __future__ import annotations

from briscola.engine import Bid, Rules, Suit
from briscola.text.i18n import N_, _, ngettext
from briscola.text.names import rank_name, suit_name
from briscola.text.signals import signals_fact

#: The configurations offered, in the order shown.
PRESET_ORDER = (
    "classic2",
    "classic3",
    "teams4",
    "chiamata5",
    "teams6",
    "scoperta2",
    "briscolone2",
    "briscolone4",
)

PRESET_LABELS: dict[str, str] = {
    "classic2": N_("Two players"),
    "classic3": N_("Three players"),
    "teams4": N_("Four players (teams)"),
    "chiamata5": N_("Five players (Briscola Chiamata)"),
    "teams6": N_("Six players (teams)"),
    "scoperta2": N_("Briscola scoperta"),
    "briscolone2": N_("Briscolone (2 players)"),
    "briscolone4": N_("Briscolone (4 players)"),
}


def preset_label(name: str) -> str:
    """The configuration's name for the player (translated)."""
    label = PRESET_LABELS.get(name)
    return _(label) if label else name


def level_label(level: str) -> str:
    return {"easy": _("Easy"), "medium": _("Medium"), "hard": _("Hard")}.get(level, level)


def kind_label(kind: str) -> str:
    return {
        "human": _("Human"),
        "easy": _("Computer: easy"),
        "medium": _("Computer: medium"),
        "hard": _("Computer: hard"),
    }[kind]


def match_label(match: str) -> str:
    """A match format for the player: "Single hand", "Best of 3", "First to 121 points"..."""
    if match == "single":
        return _("Single hand")
    kind, _sep, number = match.rpartition("-")
    n = int(number)
    if kind == "best-of":
        return _("Best of {n}").format(n=n)
    if kind == "first-to":
        return _("First to {n} hands").format(n=n)
    if kind == "points":
        return _("First to {n} points").format(n=n)
    return _("{n} hands").format(n=n)


def bid_label(bid: Bid, style: str) -> str:
    """A Chiamata bid: the rank's name, or "Two and 67 points" for a bid in points (the
    auction panel, the bubbles, the information panel and the score screen all say it so)."""
    if bid.points > 61:
        return _("Two and {points} points").format(points=bid.points)
    return rank_name(bid.rank, style)


#: What each configuration is, in a sentence or two (the New game screen).
PRESET_HELP: dict[str, str] = {
    "classic2": N_(
        "The classic game: two players face to face, drawing from the stock after every trick."
    ),
    "classic3": N_(
        "Three players, each for themselves. One Two is taken out so that the cards share"
        " out evenly."
    ),
    "teams4": N_(
        "Four players in two teams of two. Partners sit opposite each other and add up"
        " their points."
    ),
    "chiamata5": N_(
        "Five players and every card dealt. The winner of the auction calls a card, and its"
        " holder becomes the caller's secret partner."
    ),
    "teams6": N_(
        "Six players in two teams of three, seated alternately. The four Twos are taken out"
        " of the deck."
    ),
    "scoperta2": N_(
        "Two players, and the top card of the stock is always face up: both of you see"
        " what the next draw brings."
    ),
    "briscolone2": N_(
        "Two players with five cards each. Card points add up from hand to hand until one"
        " of you reaches the target."
    ),
    "briscolone4": N_(
        "Four players in two teams, five cards each. Card points add up from hand to hand"
        " until a team reaches the target."
    ),
}


def rule_facts(rules: Rules) -> list[str]:
    """Short sentences about the chosen rules, options included (shown under the options)."""
    facts = [
        _("{deck} cards, {hand} in each hand.").format(deck=rules.deck_size, hand=rules.hand_size)
    ]
    if rules.chiamata:
        facts.append(_("The suit of the called card is trump."))
    elif not rules.trump:
        facts.append(_("No trump. You must follow suit when you can."))
    else:
        facts.append(_("The turned briscola sets the trump."))
    if rules.teams:
        first = ", ".join(str(seat + 1) for seat in rules.sides[0])
        second = ", ".join(str(seat + 1) for seat in rules.sides[1])
        facts.append(
            _("Teams: seats {first} against seats {second}.").format(first=first, second=second)
        )
    if rules.swap:
        facts.append(_("The 7 or the 2 of trump may be swapped for the briscola."))
    if rules.three_as_three:
        facts.append(_("The Three ranks below the Four and still counts 10 points."))
    if rules.partners_see == "start":
        facts.append(_("Partners see each other's hands before the first trick."))
    elif rules.partners_see == "stock-empty":
        facts.append(_("Partners see each other's hands once the stock is empty."))
    if rules.signals != "off":
        facts.append(signals_fact(rules))
    if rules.chiamata:
        facts.append(_("The caller's side needs the points bid: 61 or more."))
    elif len(rules.sides) > 2:
        facts.append(_("The highest score wins the hand."))
    else:
        facts.append(_("61 of the 120 points win the hand; 60 all is a draw."))
    return facts


def means_you(name: str) -> bool:
    """``name`` is the default name of the player at the screen ("You", in English or the
    language in use): sentences about that seat speak to the player."""
    return name in ("You", _("You"))


def trick_taken(name: str, points: int, you: bool = False) -> str:
    """Who took a trick and its points: "Marco takes the trick: 14 points", or "You take
    the trick: 1 point" (``you``: the seat is the player's)."""
    if you:
        return ngettext(
            "You take the trick: {points} point", "You take the trick: {points} points", points
        ).format(points=points)
    return ngettext(
        "{name} takes the trick: {points} point", "{name} takes the trick: {points} points", points
    ).format(name=name, points=points)


def trick_of(n: int, total: int, name: str, points: int, you: bool = False) -> str:
    """A replay's trick: "Trick 3 of 20: Marco takes 14 points", "Trick 1 of 20: you take
    0 points"."""
    if you:
        text = ngettext(
            "Trick {n} of {total}: you take {points} point",
            "Trick {n} of {total}: you take {points} points",
            points,
        )
        return text.format(n=n, total=total, points=points)
    text = ngettext(
        "Trick {n} of {total}: {name} takes {points} point",
        "Trick {n} of {total}: {name} takes {points} points",
        points,
    )
    return text.format(n=n, total=total, name=name, points=points)


def must_follow_text(suit: Suit, style: str = "italian") -> str:
    """Why a dimmed card cannot be played (Briscolone: the suit led must be followed)."""
    # Translators: a card of another suit was clicked while the player holds the suit led.
    return _("You must follow suit: play a card of {suit}.").format(suit=suit_name(suit, style))
