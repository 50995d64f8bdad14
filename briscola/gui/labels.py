"""Names the player reads for game things: configurations, computer levels, seat kinds, match
formats, Chiamata bids. One function per thing, so that every screen says it the same way."""

from __future__ import annotations

from ..engine import Bid
from .i18n import N_, _
from .names import rank_name

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
