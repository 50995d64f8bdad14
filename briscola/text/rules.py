"""The rules as the Rules screen shows them: a list of ``(kind, text)`` blocks.

Texts are marked with :func:`N_` here and translated with ``_()`` where they are drawn, so a
language change shows at once. Kinds:

* ``section``: a chapter heading, also listed in the contents column;
* ``heading``: a heading inside a chapter;
* ``para``: a paragraph; ``bullet``: a paragraph with a bullet;
* ``suits``, ``points``, ``order``, ``order3``, ``swap``: a row of card images drawn in the
  current deck style; the text is the caption under the row;
* ``signal-KIND``: a partner signal's picture, its meaning (the text) and its gesture.

The content follows the rules reference (``RULES.md``): the options the game offers are
described where they apply, with the choices made where the sources leave a gap.
"""

from __future__ import annotations

from typing import Final

from briscola.text.i18n import N_
from briscola.text.signals import SIGNAL_MEANINGS

#: Kinds drawn as a row of cards.
CARD_ROWS: Final = frozenset({"suits", "points", "order", "order3", "swap"})

#: Kinds drawn as a partner signal's picture, meaning and gesture.
SIGNAL_ROWS: Final = frozenset(f"signal-{kind}" for kind in SIGNAL_MEANINGS)

#: Card codes (rank then suit) of each card row.
ROW_CARDS: Final[dict[str, tuple[str, ...]]] = {
    "suits": ("AD", "AC", "AS", "AB"),
    "points": ("AC", "3C", "KC", "QC", "JC", "7C"),
    "order": ("AS", "3S", "KS", "QS", "JS", "7S", "6S", "5S", "4S", "2S"),
    "order3": ("AS", "KS", "QS", "JS", "7S", "6S", "5S", "4S", "3S", "2S"),
    "swap": ("7D", "KD"),
}

BLOCKS: Final[list[tuple[str, str]]] = [
    # ------------------------------------------------------------------ cards
    ("section", N_("Cards and points")),
    (
        "para",
        N_(
            "Briscola is played with a 40-card deck. The Italian deck has four suits: coins"
            " (denari), cups (coppe), swords (spade) and batons (bastoni). Each suit holds the"
            " Ace, the numbers 2 to 7 and three figures: the Fante (Jack), the Cavallo"
            " (Knight) and the Re (King)."
        ),
    ),
    (
        "para",
        N_(
            "With a French deck the 8s, 9s and 10s are taken out. Jack, Queen and King play"
            " the parts of Fante, Cavallo and Re, and diamonds, hearts, spades and clubs"
            " stand for coins, cups, swords and batons. The rules are the same: choose the"
            " deck you like in Settings."
        ),
    ),
    ("suits", N_("The four suits")),
    ("heading", N_("Points")),
    (
        "para",
        N_(
            "Only five ranks score: the Ace 11 points, the Three 10, the King 4, the"
            " Cavallo or Queen 3 and the Fante or Jack 2. The other cards score nothing."
            " Each suit holds 30 points, the whole deck 120."
        ),
    ),
    ("points", N_("Card points")),
    ("heading", N_("Which card is stronger")),
    (
        "para",
        N_(
            "From the strongest to the weakest: Ace, Three, King, Cavallo or Queen, Fante or"
            " Jack, 7, 6, 5, 4, 2. The Three is the second-strongest card of its suit."
        ),
    ),
    ("order", N_("Strength, from the strongest to the weakest")),
    # ------------------------------------------------------------------ two players
    ("section", N_("The two-player game")),
    (
        "para",
        N_(
            "The dealer deals three cards to each player, one at a time, then turns the next"
            " card face up: the briscola. Its suit is trump for the whole hand. The rest of"
            " the deck, face down, is the stock; the briscola lies half under it, where"
            " everyone can see it."
        ),
    ),
    (
        "para",
        N_(
            "The player to the dealer's right leads the first trick, and play goes"
            " counterclockwise. You may play any card at any time: there is no obligation"
            " to follow suit."
        ),
    ),
    ("heading", N_("Who takes the trick")),
    ("bullet", N_("If any trump was played, the highest trump takes the trick.")),
    (
        "bullet",
        N_(
            "Otherwise the highest card of the suit led takes it. A card of another suit"
            " never wins, however strong it is."
        ),
    ),
    ("heading", N_("Drawing")),
    (
        "para",
        N_(
            "The winner of a trick puts the cards face down on their pile and draws the top"
            " card of the stock; the others draw in playing order. The winner leads the next"
            " trick."
        ),
    ),
    (
        "para",
        N_(
            "The face-up briscola is the last card of the stock: the last player to draw"
            " takes it (with two players, the loser of that trick). From then on nobody"
            " draws, and the cards in hand are played out."
        ),
    ),
    ("heading", N_("Scoring")),
    (
        "para",
        N_(
            "When all the cards have been played, each side counts the points in its pile."
            " 61 points or more wins; 60 to 60 is a draw. Taking all 120 points is called"
            " cappotto."
        ),
    ),
    # ------------------------------------------------------------------ more players
    ("section", N_("Three, four and six players")),
    ("heading", N_("Three players")),
    (
        "para",
        N_(
            "One Two is taken out of the deck (this game removes the Two of coins), leaving"
            " 39 cards. Everyone plays for themselves and the highest score wins. When two"
            " or three players share the highest score, the hand is a draw between them."
        ),
    ),
    ("heading", N_("Four players")),
    (
        "para",
        N_(
            "Two teams of two, with partners sitting opposite each other. The play is the"
            " same, and the points of both partners are added together."
        ),
    ),
    ("heading", N_("Six players")),
    (
        "para",
        N_(
            "All four Twos are taken out, leaving 36 cards. Two teams of three play, seated"
            " alternately around the table."
        ),
    ),
    ("heading", N_("Seeing your partner's hand")),
    (
        "para",
        N_(
            "In team games partners may show each other their hands. On the New game screen"
            " choose when: never, at the start of the hand before the first trick, or once"
            " the stock is empty. One player of each team gathers the team's tricks; that"
            " is only a matter of where the pile lies."
        ),
    ),
    (
        "para",
        N_(
            "Seats are counted counterclockwise from you: the player on your right plays"
            " after you, and the deal passes to the right after each hand."
        ),
    ),
    # ------------------------------------------------------------------ chiamata
    ("section", N_("Briscola Chiamata (five players)")),
    (
        "para",
        N_(
            "All 40 cards are dealt, eight to each player. There is no turned briscola and no"
            " stock: the trump suit is decided by an auction."
        ),
    ),
    ("heading", N_("The auction")),
    (
        "para",
        N_(
            "In turn, each player either passes or bids a rank lower than the last bid, in"
            " the order Ace, Three, King, Cavallo, Fante, 7, 6, 5, 4, 2. After the Two the"
            " bidding goes on in points: Two and 62 points, Two and 63 points, and so on up"
            " to 120. A player who passes is out of the auction; the last bidder wins it."
        ),
    ),
    (
        "para",
        N_(
            "The winner calls a card of the rank they won, in any suit, and that suit becomes"
            " trump. Whoever holds the called card is the caller's secret partner. The"
            " partner must not give themselves away: everyone finds out when the called"
            " card is played."
        ),
    ),
    (
        "para",
        N_("A caller who calls a card from their own hand plays alone against the other four."),
    ),
    ("heading", N_("Scoring in Chiamata")),
    (
        "para",
        N_(
            "The caller and the partner win the hand if together they take at least the"
            " points bid: 61, or more when the bidding went on in points. Otherwise the other"
            " three win. Each player then scores match points:"
        ),
    ),
    (
        "bullet",
        N_("The caller's side wins: the caller +2, the partner +1, each of the others -1."),
    ),
    (
        "bullet",
        N_("The caller's side loses: the caller -2, the partner -1, each of the others +1."),
    ),
    (
        "bullet",
        N_("A caller playing alone scores +4 or -4; each of the others -1 or +1."),
    ),
    (
        "bullet",
        N_("Cappotto, when one side takes all 120 points, doubles every match point."),
    ),
    # ------------------------------------------------------------------ scoperta
    ("section", N_("Briscola scoperta")),
    (
        "para",
        N_(
            "A two-player variant in which the top card of the stock always lies face up, so"
            " both players can see what the next draw will bring. Everything else is as in"
            " the two-player game."
        ),
    ),
    # ------------------------------------------------------------------ briscolone
    ("section", N_("Briscolone")),
    (
        "para",
        N_(
            "Briscolone is played without a trump, by two players or by four in two teams."
            " Each player is dealt five cards and draws from the stock after every trick as"
            " usual. You must follow the suit led when you can; the highest card of that"
            " suit takes the trick."
        ),
    ),
    (
        "para",
        N_(
            "Card points add up from hand to hand until a side reaches the target of 121 or"
            " 151 points. If both sides pass it in the same hand, the higher total wins."
        ),
    ),
    # ------------------------------------------------------------------ three as three
    ("section", N_("Three ranked as three")),
    (
        "para",
        N_(
            "An option for every configuration: the Three takes its natural place, below the"
            " Four and above the Two, but still counts 10 points. In Chiamata the bidding"
            " order changes with it."
        ),
    ),
    ("order3", N_("Strength with the Three ranked as three")),
    # ------------------------------------------------------------------ swap
    ("section", N_("Swapping the briscola")),
    (
        "para",
        N_(
            "An option for games with a turned briscola. A player holding the 7 of trump may"
            " exchange it for the face-up briscola when that card is a Fante or Jack, a"
            " Cavallo or Queen, a King, an Ace or a Three. A player holding the 2 of trump"
            " may exchange it when the face-up card is a 4, 5, 6 or 7."
        ),
    ),
    ("swap", N_("The 7 of trump takes the face-up King")),
    (
        "para",
        N_(
            "You may swap only on your own turn, before playing a card, and only while the"
            " stock still holds cards besides the briscola."
        ),
    ),
    # ------------------------------------------------------------------ signals
    ("section", N_("Partner signals")),
    (
        "para",
        N_(
            "An option for team games and Briscola Chiamata. At a bar table partners tell"
            " each other about their cards with agreed faces, the segni. On New game choose"
            " whether signals are off, seen by the partner only, or open (everyone sees"
            " them, as when the table allows talking). In Chiamata signals start once the"
            " partner is revealed, and each side signals among itself."
        ),
    ),
    (
        "para",
        N_(
            "Make a signal on your turn, or between two tricks, once a trick: click a face"
            " at the bottom right, or press F1 to F8. Your partner's signals show as a face"
            " beside their name, and in the list of the hand's signals."
        ),
    ),
    *[(f"signal-{kind}", meaning) for kind, meaning in SIGNAL_MEANINGS.items()],
    (
        "para",
        N_(
            "The game never checks a signal: a false one is allowed, as at the bar, and may"
            " fool your partner too. The computer players signal only the truth, and trust"
            " what they see."
        ),
    ),
    # ------------------------------------------------------------------ matches
    ("section", N_("Matches")),
    (
        "para",
        N_(
            "Choose the length of a match on the New game screen: a single hand, the best of"
            " 3 or 5 hands, or the first side to win 2 to 9 hands. A drawn hand counts for"
            " nobody."
        ),
    ),
    (
        "para",
        N_(
            "Briscolone is played for points: the card points of every hand add up until a"
            " side reaches 121 or 151."
        ),
    ),
    (
        "para",
        N_(
            "A Briscola Chiamata match is one hand, or 3, 5 or 10 hands. The match points of"
            " each player add up, and the highest total wins."
        ),
    ),
    (
        "para",
        N_("After each hand the deal passes to the right, to the next player in turn."),
    ),
]


def sections() -> list[tuple[int, str]]:
    """``(block index, title)`` of every section, in order."""
    return [(i, text) for i, (kind, text) in enumerate(BLOCKS) if kind == "section"]
