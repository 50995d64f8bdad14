"""Cards of the 40-card Italian deck.

A card is a small immutable value, interned: there is exactly one object per card, so
``is`` and ``==`` agree and cards are cheap to hash and compare.

Card codes are two characters, rank then suit:

* rank: ``A 2 3 4 5 6 7 J Q K`` (J = Fante/Jack, Q = Cavallo/Queen, K = Re/King)
* suit: ``D C S B`` (denari/coins, coppe/cups, spade/swords, bastoni/clubs)

>>> card = Card.from_code("QB")
>>> card
Card.from_code('QB')
>>> card.rank, card.suit
(<Rank.QUEEN: 9>, <Suit.CLUBS: 3>)
>>> card.code, card.points
('QB', 3)
>>> Card(Rank.ACE, Suit.COINS) is Card.from_code("AD")
True
>>> sum(c.points for c in DECK)
120
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import Any, Final

__all__ = [
    "DECK",
    "POINTS",
    "RANK_CODES",
    "STRENGTH",
    "STRENGTH_THREE_AS_THREE",
    "SUIT_CODES",
    "Card",
    "Rank",
    "Suit",
    "cards_from_codes",
    "codes",
]

SUIT_CODES: Final = "DCSB"
RANK_CODES: Final = "A234567JQK"


class Suit(IntEnum):
    """The four Italian suits. French faces map them to diamonds, hearts, spades, clubs."""

    COINS = 0  #: denari (French: diamonds)
    CUPS = 1  #: coppe (French: hearts)
    SWORDS = 2  #: spade (French: spades)
    CLUBS = 3  #: bastoni (French: clubs)

    @property
    def code(self) -> str:
        """One-letter code: ``D``, ``C``, ``S`` or ``B``."""
        return SUIT_CODES[self]

    @classmethod
    def from_code(cls, code: str) -> Suit:
        """Parse a suit code.

        >>> Suit.from_code("S")
        <Suit.SWORDS: 2>
        """
        index = SUIT_CODES.find(code.upper()) if len(code) == 1 else -1
        if index < 0:
            raise ValueError(f"invalid suit code {code!r}: expected one of {', '.join(SUIT_CODES)}")
        return cls(index)


class Rank(IntEnum):
    """Ranks, valued by their Napoletane index number (Fante 8, Cavallo 9, Re 10)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    JACK = 8  #: Fante
    QUEEN = 9  #: Cavallo (the Queen of the French deck plays its role)
    KING = 10  #: Re

    @property
    def code(self) -> str:
        """One-character code: ``A 2 3 4 5 6 7 J Q K``."""
        return RANK_CODES[self - 1]

    @property
    def points(self) -> int:
        """Card points: Ace 11, Three 10, King 4, Queen/Cavallo 3, Jack/Fante 2, others 0."""
        return POINTS[self]

    @classmethod
    def from_code(cls, code: str) -> Rank:
        """Parse a rank code.

        >>> Rank.from_code("Q")
        <Rank.QUEEN: 9>
        """
        index = RANK_CODES.find(code.upper()) if len(code) == 1 else -1
        if index < 0:
            raise ValueError(f"invalid rank code {code!r}: expected one of {' '.join(RANK_CODES)}")
        return cls(index + 1)


#: Points of each rank; the deck holds 120.
POINTS: Final[dict[Rank, int]] = {
    Rank.ACE: 11,
    Rank.TWO: 0,
    Rank.THREE: 10,
    Rank.FOUR: 0,
    Rank.FIVE: 0,
    Rank.SIX: 0,
    Rank.SEVEN: 0,
    Rank.JACK: 2,
    Rank.QUEEN: 3,
    Rank.KING: 4,
}

#: Trick-taking strength, higher wins: Ace, 3, King, Queen, Jack, 7, 6, 5, 4, 2.
STRENGTH: Final[dict[Rank, int]] = {
    rank: 10 - i
    for i, rank in enumerate(
        (Rank.ACE, Rank.THREE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.SEVEN)
        + (Rank.SIX, Rank.FIVE, Rank.FOUR, Rank.TWO)
    )
}

#: Strength with "three ranked as three": Ace, King, Queen, Jack, 7, 6, 5, 4, 3, 2.
STRENGTH_THREE_AS_THREE: Final[dict[Rank, int]] = {
    rank: 10 - i
    for i, rank in enumerate(
        (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.SEVEN)
        + (Rank.SIX, Rank.FIVE, Rank.FOUR, Rank.THREE, Rank.TWO)
    )
}


class Card:
    """One card. Construct with ``Card(rank, suit)``, ``Card.from_code`` or ``Card.from_index``.

    ``index`` is ``suit * 10 + rank - 1`` (0..39), the order of :data:`DECK`.
    """

    __slots__ = ("code", "index", "points", "rank", "suit")

    rank: Rank
    suit: Suit
    index: int
    code: str
    points: int

    def __new__(cls, rank: Rank | int, suit: Suit | int) -> Card:
        if not 1 <= rank <= 10 or not 0 <= suit <= 3:
            raise ValueError(f"no such card: rank {rank!r}, suit {suit!r}")
        return _ALL[int(suit) * 10 + int(rank) - 1]

    @classmethod
    def _make(cls, rank: Rank, suit: Suit) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "index", int(suit) * 10 + int(rank) - 1)
        object.__setattr__(card, "code", rank.code + suit.code)
        object.__setattr__(card, "points", POINTS[rank])
        return card

    @classmethod
    def from_code(cls, code: str) -> Card:
        """Parse a two-character card code such as ``"3S"``; case-insensitive.

        >>> Card.from_code("7d")
        Card.from_code('7D')
        >>> Card.from_code("XX")
        Traceback (most recent call last):
        ...
        ValueError: invalid card code 'XX': expected rank (A 2 3 4 5 6 7 J Q K) then suit (D C S B)
        """
        if not isinstance(code, str) or len(code) != 2:
            raise ValueError(f"invalid card code {code!r}: expected two characters like 'AD'")
        rank_index = RANK_CODES.find(code[0].upper())
        suit_index = SUIT_CODES.find(code[1].upper())
        if rank_index < 0 or suit_index < 0:
            raise ValueError(
                f"invalid card code {code!r}: expected rank ({' '.join(RANK_CODES)})"
                f" then suit ({' '.join(SUIT_CODES)})"
            )
        return _ALL[suit_index * 10 + rank_index]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with the given :attr:`index` (0..39)."""
        if not 0 <= index < 40:
            raise ValueError(f"card index out of range: {index}")
        return _ALL[index]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __repr__(self) -> str:
        return f"Card.from_code({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return (Card.from_index, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self


_ALL: Final[tuple[Card, ...]] = tuple(Card._make(rank, suit) for suit in Suit for rank in Rank)

#: All 40 cards in index order (coins, cups, swords, clubs; Ace to King).
DECK: Final[tuple[Card, ...]] = _ALL


def cards_from_codes(text: str | Iterable[str]) -> list[Card]:
    """Parse card codes separated by spaces (or an iterable of codes).

    >>> cards_from_codes("AD 3S kb")
    [Card.from_code('AD'), Card.from_code('3S'), Card.from_code('KB')]
    """
    items = text.split() if isinstance(text, str) else list(text)
    return [Card.from_code(code) for code in items]


def codes(cards: Iterable[Card]) -> list[str]:
    """The codes of some cards.

    >>> codes(cards_from_codes("AD 2C"))
    ['AD', '2C']
    """
    return [card.code for card in cards]
