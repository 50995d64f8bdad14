"""Names the player reads for game things: bids (more to come here: presets, levels, match
formats). One function per thing, so that every screen says it the same way."""

from __future__ import annotations

from ..engine import Bid
from .i18n import _
from .names import rank_name


def bid_label(bid: Bid, style: str) -> str:
    """A Chiamata bid: the rank's name, or "Two and 67" for a bid in points."""
    if bid.points > 61:
        return _("Two and {points}").format(points=bid.points)
    return rank_name(bid.rank, style)
