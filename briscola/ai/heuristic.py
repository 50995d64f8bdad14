"""The numbers of medium's rules of thumb, named once.

:mod:`briscola.ai.medium` scores a card with them from a :class:`~briscola.engine.PlayerView`;
the search's rollout policy (:mod:`briscola.ai.search.rollout`) is the same evaluation with
cards as ints, played millions of times. Both read the weights from here, so a change of
one rule changes both players.

Per-strength tables (indexed by the card's trick-taking strength, 1 to 10) hold the values
that depend on strength only, computed with the same expressions as before they were
tables, so the floats are identical.

>>> TRUMP_KEEP[1], round(TRUMP_KEEP[10], 2)
(4.6, 9.55)
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "ACE_KEEP",
    "BOSS_TRUMP_SHARE",
    "BRISCOLA_DRAW_OFFSET",
    "CARELESS_TRUMP_SHARE",
    "RICH_SUIT_KEEP",
    "SECRET_PARTNER_COST",
    "SIDE_KEEP_PER_STRENGTH",
    "STOCK_TOP_OFFSET",
    "STOCK_TOP_TRUMP",
    "TIE_INDEX",
    "TIE_STRENGTH",
    "TRUMP_KEEP",
    "TRUMP_KEEP_BASE",
    "TRUMP_KEEP_STEP",
    "TRUMP_WORTH",
    "briscola_draw_value",
    "scoperta_top_value",
]

#: A trump in hand is worth this much beyond its points, plus a step per strength above
#: the lowest: trumps are saved for tricks worth them.
TRUMP_KEEP_BASE: Final = 4.6
TRUMP_KEEP_STEP: Final = 0.55
#: Per strength: the keep value of a trump.
TRUMP_KEEP: Final[tuple[float, ...]] = tuple(
    TRUMP_KEEP_BASE + TRUMP_KEEP_STEP * (s - 1) for s in range(11)
)
#: An unbeatable trump banks this share of its own points whenever it is played.
BOSS_TRUMP_SHARE: Final = 0.8
#: A careless (easy) player values its trumps at this share.
CARELESS_TRUMP_SHARE: Final = 0.5
#: A side-suit card is kept by this much per strength (a mild preference for low cards).
SIDE_KEEP_PER_STRENGTH: Final = 0.02
#: An Ace (or a Three whose Ace is gone) that no outstanding card of its suit beats is kept
#: for this much, and more while the suit's other big cards are still out.
ACE_KEEP: Final = 1.5
RICH_SUIT_KEEP: Final = 1.0
#: The fewest points on a trick for which a player spends a trump.
TRUMP_WORTH: Final = 3
#: The last draw (two players or alternating teams): the trick's loser takes the face-up
#: briscola, worth half of its keep value and points, less this offset.
BRISCOLA_DRAW_OFFSET: Final = 2.5
#: Scoperta: what the face-up top card of the stock is worth to the trick's winner.
STOCK_TOP_TRUMP: Final = 3.0
STOCK_TOP_OFFSET: Final = 1.5
#: Chiamata: the secret partner does not give itself away for a trifle.
SECRET_PARTNER_COST: Final = 5.0
#: Deterministic tie-break: the weaker, then the lower card.
TIE_STRENGTH: Final = 0.001
TIE_INDEX: Final = 0.00001


def briscola_draw_value(strength: int, points: int) -> float:
    """What drawing the face-up briscola is worth to the trick's loser (may be negative:
    a poor briscola is not worth losing a trick for).

    >>> briscola_draw_value(1, 0)
    -0.20000000000000018
    """
    return (
        0.5 * (TRUMP_KEEP_BASE + TRUMP_KEEP_STEP * (strength - 1) + points) - BRISCOLA_DRAW_OFFSET
    )


def scoperta_top_value(points: int, trump: bool) -> float:
    """Half of what drawing the face-up top card of a Scoperta stock is worth to the
    trick's winner (the loser draws a hidden card): a trick won gains it, a trick lost
    gives it away.

    >>> scoperta_top_value(11, True)
    3.5
    """
    return 0.5 * (0.5 * points + (STOCK_TOP_TRUMP if trump else 0.0) - STOCK_TOP_OFFSET)
