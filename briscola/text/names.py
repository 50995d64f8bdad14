"""Names of cards, ranks and suits for the player, following the deck style and language.

Italian faces say Jack, Knight, King and coins, cups, swords, batons in English (Fante,
Cavallo, Re and denari, coppe, spade, bastoni in Italian); French faces say Jack, Queen, King
and diamonds, hearts, spades, clubs. Each deck's manifest (:mod:`briscola.text.decks`) says
which of these two sets of names it uses, and may give its own names in some languages (the
Spanish deck says "Sota de oros" in Spanish and numbers its figures 10, 11, 12); the corner
label of a card comes from the manifest too.

A card's name is one message per card rather than a ``"{rank} of {suit}"`` template: German
puts the suit first in one word ("Münz-Ass", "Herz-Dame"), and the article that goes with a
card in a sentence changes with the rank ("la sota", "el caballo"; "den Buben", "das Ass"),
so each card also has a form with its definite article, for sentences such as "I call the
Ace of coins" (:func:`card_the`; German translates it in the accusative).
"""

from __future__ import annotations

from briscola.engine import Card, Rank, Suit
from briscola.text.decks import DeckInfo, naming_deck
from briscola.text.i18n import N_, _, current_language, pgettext

_RANKS_NUMBERS = {
    Rank.ACE: N_("Ace"),
    Rank.TWO: N_("Two"),
    Rank.THREE: N_("Three"),
    Rank.FOUR: N_("Four"),
    Rank.FIVE: N_("Five"),
    Rank.SIX: N_("Six"),
    Rank.SEVEN: N_("Seven"),
}
_RANKS_FRENCH = {
    **_RANKS_NUMBERS,
    Rank.JACK: N_("Jack"),
    Rank.QUEEN: N_("Queen"),
    Rank.KING: N_("King"),
}
_SUITS_ITALIAN = {
    Suit.COINS: N_("coins"),
    Suit.CUPS: N_("cups"),
    Suit.SWORDS: N_("swords"),
    Suit.CLUBS: N_("batons"),
}
_SUITS_FRENCH = {
    Suit.COINS: N_("diamonds"),
    Suit.CUPS: N_("hearts"),
    Suit.SWORDS: N_("spades"),
    Suit.CLUBS: N_("clubs"),
}

#: Card code -> (name, name with its definite article), Italian faces.
_CARDS_ITALIAN: dict[str, tuple[str, str]] = {
    "AD": (N_("Ace of coins"), N_("the Ace of coins")),
    "2D": (N_("Two of coins"), N_("the Two of coins")),
    "3D": (N_("Three of coins"), N_("the Three of coins")),
    "4D": (N_("Four of coins"), N_("the Four of coins")),
    "5D": (N_("Five of coins"), N_("the Five of coins")),
    "6D": (N_("Six of coins"), N_("the Six of coins")),
    "7D": (N_("Seven of coins"), N_("the Seven of coins")),
    "JD": (N_("Jack of coins"), N_("the Jack of coins")),
    "QD": (N_("Knight of coins"), N_("the Knight of coins")),
    "KD": (N_("King of coins"), N_("the King of coins")),
    "AC": (N_("Ace of cups"), N_("the Ace of cups")),
    "2C": (N_("Two of cups"), N_("the Two of cups")),
    "3C": (N_("Three of cups"), N_("the Three of cups")),
    "4C": (N_("Four of cups"), N_("the Four of cups")),
    "5C": (N_("Five of cups"), N_("the Five of cups")),
    "6C": (N_("Six of cups"), N_("the Six of cups")),
    "7C": (N_("Seven of cups"), N_("the Seven of cups")),
    "JC": (N_("Jack of cups"), N_("the Jack of cups")),
    "QC": (N_("Knight of cups"), N_("the Knight of cups")),
    "KC": (N_("King of cups"), N_("the King of cups")),
    "AS": (N_("Ace of swords"), N_("the Ace of swords")),
    "2S": (N_("Two of swords"), N_("the Two of swords")),
    "3S": (N_("Three of swords"), N_("the Three of swords")),
    "4S": (N_("Four of swords"), N_("the Four of swords")),
    "5S": (N_("Five of swords"), N_("the Five of swords")),
    "6S": (N_("Six of swords"), N_("the Six of swords")),
    "7S": (N_("Seven of swords"), N_("the Seven of swords")),
    "JS": (N_("Jack of swords"), N_("the Jack of swords")),
    "QS": (N_("Knight of swords"), N_("the Knight of swords")),
    "KS": (N_("King of swords"), N_("the King of swords")),
    "AB": (N_("Ace of batons"), N_("the Ace of batons")),
    "2B": (N_("Two of batons"), N_("the Two of batons")),
    "3B": (N_("Three of batons"), N_("the Three of batons")),
    "4B": (N_("Four of batons"), N_("the Four of batons")),
    "5B": (N_("Five of batons"), N_("the Five of batons")),
    "6B": (N_("Six of batons"), N_("the Six of batons")),
    "7B": (N_("Seven of batons"), N_("the Seven of batons")),
    "JB": (N_("Jack of batons"), N_("the Jack of batons")),
    "QB": (N_("Knight of batons"), N_("the Knight of batons")),
    "KB": (N_("King of batons"), N_("the King of batons")),
}
#: Card code -> (name, name with its definite article), French faces.
_CARDS_FRENCH: dict[str, tuple[str, str]] = {
    "AD": (N_("Ace of diamonds"), N_("the Ace of diamonds")),
    "2D": (N_("Two of diamonds"), N_("the Two of diamonds")),
    "3D": (N_("Three of diamonds"), N_("the Three of diamonds")),
    "4D": (N_("Four of diamonds"), N_("the Four of diamonds")),
    "5D": (N_("Five of diamonds"), N_("the Five of diamonds")),
    "6D": (N_("Six of diamonds"), N_("the Six of diamonds")),
    "7D": (N_("Seven of diamonds"), N_("the Seven of diamonds")),
    "JD": (N_("Jack of diamonds"), N_("the Jack of diamonds")),
    "QD": (N_("Queen of diamonds"), N_("the Queen of diamonds")),
    "KD": (N_("King of diamonds"), N_("the King of diamonds")),
    "AC": (N_("Ace of hearts"), N_("the Ace of hearts")),
    "2C": (N_("Two of hearts"), N_("the Two of hearts")),
    "3C": (N_("Three of hearts"), N_("the Three of hearts")),
    "4C": (N_("Four of hearts"), N_("the Four of hearts")),
    "5C": (N_("Five of hearts"), N_("the Five of hearts")),
    "6C": (N_("Six of hearts"), N_("the Six of hearts")),
    "7C": (N_("Seven of hearts"), N_("the Seven of hearts")),
    "JC": (N_("Jack of hearts"), N_("the Jack of hearts")),
    "QC": (N_("Queen of hearts"), N_("the Queen of hearts")),
    "KC": (N_("King of hearts"), N_("the King of hearts")),
    "AS": (N_("Ace of spades"), N_("the Ace of spades")),
    "2S": (N_("Two of spades"), N_("the Two of spades")),
    "3S": (N_("Three of spades"), N_("the Three of spades")),
    "4S": (N_("Four of spades"), N_("the Four of spades")),
    "5S": (N_("Five of spades"), N_("the Five of spades")),
    "6S": (N_("Six of spades"), N_("the Six of spades")),
    "7S": (N_("Seven of spades"), N_("the Seven of spades")),
    "JS": (N_("Jack of spades"), N_("the Jack of spades")),
    "QS": (N_("Queen of spades"), N_("the Queen of spades")),
    "KS": (N_("King of spades"), N_("the King of spades")),
    "AB": (N_("Ace of clubs"), N_("the Ace of clubs")),
    "2B": (N_("Two of clubs"), N_("the Two of clubs")),
    "3B": (N_("Three of clubs"), N_("the Three of clubs")),
    "4B": (N_("Four of clubs"), N_("the Four of clubs")),
    "5B": (N_("Five of clubs"), N_("the Five of clubs")),
    "6B": (N_("Six of clubs"), N_("the Six of clubs")),
    "7B": (N_("Seven of clubs"), N_("the Seven of clubs")),
    "JB": (N_("Jack of clubs"), N_("the Jack of clubs")),
    "QB": (N_("Queen of clubs"), N_("the Queen of clubs")),
    "KB": (N_("King of clubs"), N_("the King of clubs")),
}


def _french(style: str) -> bool:
    info = naming_deck(style)
    if info is not None:
        return info.names == "french"
    return style.startswith("french")


def uses_french_names(style: str) -> bool:
    """True when the deck's cards are named Jack, Queen, King of diamonds, hearts..."""
    return _french(style)


def _own_names(style: str) -> tuple[DeckInfo, str] | None:
    """The deck and language when the deck's manifest names its cards in the language in use."""
    info = naming_deck(style)
    language = current_language()
    if info is not None and language in info.card:
        return info, language
    return None


def _italian_figure(rank: Rank) -> str:
    """The figures of Italian-suited decks: named in English as the English call them
    (Jack, Knight, King, like the numbers beside them), in each language as its players do
    (Fante, Cavallo, Re in Italian; Sota, Caballo, Rey in Spanish)."""
    if rank == Rank.JACK:
        return pgettext("Italian-suited deck", "Jack")
    if rank == Rank.QUEEN:
        return pgettext("Italian-suited deck", "Knight")
    return pgettext("Italian-suited deck", "King")


def rank_name(rank: Rank, style: str = "italian") -> str:
    """A rank on its own, capitalised as a label: "Ace", "Knight", "Queen"."""
    own = _own_names(style)
    if own is not None and rank.code in own[0].figures[own[1]]:
        return own[0].figures[own[1]][rank.code]
    if _french(style):
        return _(_RANKS_FRENCH[rank])
    if rank in _RANKS_NUMBERS:
        return _(_RANKS_NUMBERS[rank])
    return _italian_figure(rank)


def suit_name(suit: Suit, style: str = "italian") -> str:
    """A suit as it reads inside a sentence: "coins", "hearts" ("denari", "Herz")."""
    own = _own_names(style)
    if own is not None:
        return own[0].suits[own[1]][suit.code]
    return _((_SUITS_FRENCH if _french(style) else _SUITS_ITALIAN)[suit])


def _compose(card: Card, template: str, style: str) -> str:
    rank = rank_name(card.rank, style)
    return template.format(rank=rank, rank_lower=rank.lower(), suit=suit_name(card.suit, style))


def card_name(card: Card, style: str = "italian") -> str:
    """E.g. "Ace of coins" / "Asso di denari" / "Münz-Ass", "Queen of hearts"."""
    own = _own_names(style)
    if own is not None:
        return _compose(card, own[0].card[own[1]], style)
    return _((_CARDS_FRENCH if _french(style) else _CARDS_ITALIAN)[card.code][0])


def card_the(card: Card, style: str = "italian") -> str:
    """The card with its definite article, as the object of a sentence: "the Ace of coins"
    / "l'asso di denari" / "das Münz-Ass" / "la sota de copas"."""
    own = _own_names(style)
    if own is not None:
        forms = own[0].card_the[own[1]]
        return _compose(card, forms.get(card.rank.code, forms["*"]), style)
    return _((_CARDS_FRENCH if _french(style) else _CARDS_ITALIAN)[card.code][1])


def suit_title(suit: Suit, style: str = "italian") -> str | None:
    """The suit as a capitalised caption when the deck's manifest names it in the language in
    use ("Clubs" on the Spanish deck in English); None when the built-in names apply."""
    if _own_names(style) is None:
        return None
    return capital(suit_name(suit, style))


def capital(text: str) -> str:
    """``text`` with its first letter upper-case and the rest as it is (``str.capitalize``
    would lower "the Ace of coins" to "The ace of coins")."""
    return text[:1].upper() + text[1:]


def card_label(card: Card, style: str = "italian") -> str:
    """A short label, as in the deck's corners: the Napoletane index (1-10) on Italian faces,
    A 2..7 J Q K on French, 1-7 and 10-12 on Spanish."""
    info = naming_deck(style)
    if info is not None:
        return info.indices[card.rank.code]
    if _french(style):
        return card.rank.code
    return str(int(card.rank))
