"""Ratings of people at rated tables, one per family of tables (:mod:`.families`), by
OpenSkill's Plackett-Luce model over a store (:mod:`.store`: memory, SQLite; Redis is the
dedicated service's, :mod:`briscola.server.ratings`), with the luck of the deal and of each
draw taken out of a hand's result (:mod:`.luck`). How the server calls it and what was
measured: ``docs/ratings.md``.
"""

from __future__ import annotations

from briscola.ratings.families import FAMILIES, FAMILY_PRESETS, Family, check_family, family_of
from briscola.ratings.luck import HandLuck, luck_of
from briscola.ratings.service import Change, RatedHand, RatingService, hand_scores
from briscola.ratings.store import (
    Commit,
    HistoryEntry,
    MemoryStore,
    Rating,
    RatingStore,
    SqliteStore,
    Standing,
)

__all__ = [
    "FAMILIES",
    "FAMILY_PRESETS",
    "Change",
    "Commit",
    "Family",
    "HandLuck",
    "HistoryEntry",
    "MemoryStore",
    "RatedHand",
    "Rating",
    "RatingService",
    "RatingStore",
    "SqliteStore",
    "Standing",
    "check_family",
    "family_of",
    "hand_scores",
    "luck_of",
]
