"""Names of cards, ranks and suits for the player, following the deck style and language.

Italian faces say Fante, Cavallo, Re and coins, cups, swords, clubs (denari, coppe, spade,
bastoni in Italian); French faces say Jack, Queen, King and diamonds, hearts, spades, clubs.
"""

from __future__ import annotations

from ..engine import Card, Rank, Suit
from .i18n import N_, _

_RANKS_ITALIAN = {
    Rank.ACE: N_("Ace"),
    Rank.TWO: N_("Two"),
    Rank.THREE: N_("Three"),
    Rank.FOUR: N_("Four"),
    Rank.FIVE: N_("Five"),
    Rank.SIX: N_("Six"),
    Rank.SEVEN: N_("Seven"),
    Rank.JACK: N_("Fante"),
    Rank.QUEEN: N_("Cavallo"),
    Rank.KING: N_("Re"),
}
_RANKS_FRENCH = {
    **_RANKS_ITALIAN,
    Rank.JACK: N_("Jack"),
    Rank.QUEEN: N_("Queen"),
    Rank.KING: N_("King"),
}
_SUITS_ITALIAN = {
    Suit.COINS: N_("coins"),
    Suit.CUPS: N_("cups"),
    Suit.SWORDS: N_("swords"),
    Suit.CLUBS: N_("clubs"),
}
_SUITS_FRENCH = {
    Suit.COINS: N_("diamonds"),
    Suit.CUPS: N_("hearts"),
    Suit.SWORDS: N_("spades"),
    Suit.CLUBS: N_("clubs"),
}


def _french(style: str) -> bool:
    return style.startswith("french")


def rank_name(rank: Rank, style: str = "italian") -> str:
    return _((_RANKS_FRENCH if _french(style) else _RANKS_ITALIAN)[rank])


def suit_name(suit: Suit, style: str = "italian") -> str:
    return _((_SUITS_FRENCH if _french(style) else _SUITS_ITALIAN)[suit])


def card_name(card: Card, style: str = "italian") -> str:
    """E.g. "Ace of coins" / "Asso di denari", "Queen of hearts"."""
    return _("{rank} of {suit}").format(
        rank=rank_name(card.rank, style), suit=suit_name(card.suit, style)
    )


def card_label(card: Card, style: str = "italian") -> str:
    """A short label: the Napoletane index (1-10) on Italian faces, A 2..7 J Q K on French."""
    if _french(style):
        return card.rank.code
    return str(int(card.rank))
