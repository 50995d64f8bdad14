"""One :class:`Rules` value describes a whole configuration of the game.

Variants are fields of one frozen value, never subclasses. Named presets cover every
configuration of the rules reference; options apply on top of a preset. They are registered
once, in order, in :data:`VARIANTS` at the end of this module:

>>> rules = Rules.preset("classic2", swap=True, match="best-of-3")
>>> rules.players, rules.hand_size, rules.swap, str(rules.match)
(2, 3, True, 'best-of-3')
>>> Rules.preset("teams6").deck_size
36
>>> [variant.name for variant in VARIANTS][:3], VARIANTS_BY_NAME["teams6"].description
(['classic2', 'classic3', 'teams4'], 'Six players, two teams of three (Twos removed)')
>>> Rules.preset("classic3", scoperta=True)
Traceback (most recent call last):
...
ValueError: invalid rules: scoperta is a two-player variant (got 3 players)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Literal, get_args

from briscola.engine.cards import DECK, STRENGTH, STRENGTH_THREE_AS_THREE, Card, Rank

__all__ = [
    "PRESETS",
    "PRESET_DESCRIPTIONS",
    "PRESET_SHAPE",
    "VARIANTS",
    "VARIANTS_BY_NAME",
    "MatchFormat",
    "MatchKind",
    "PartnersSee",
    "Rules",
    "SignalsMode",
    "Variant",
]

MatchKind = Literal["single", "best-of", "first-to", "points", "hands"]
PartnersSee = Literal["never", "start", "stock-empty"]
#: Partner signals (segni): none, seen by the signaller's partners only, or seen by all.
SignalsMode = Literal["off", "partner", "open"]


@dataclass(frozen=True, slots=True)
class MatchFormat:
    """How hands add up to a match.

    * ``single``: one hand.
    * ``best-of-N``: the first side to win a majority of N hands (N odd); draws count for nobody.
    * ``first-to-N``: the first side to win N hands.
    * ``points-N``: card points add up over hands until a side reaches N (121, 151...).
    * ``hands-N``: N hands are played, match points add up (Briscola Chiamata).

    >>> MatchFormat.parse("first-to-4")
    MatchFormat.parse('first-to-4')
    >>> MatchFormat.parse("best-of-3").hands_to_win
    2
    """

    kind: MatchKind = "single"
    target: int = 1

    def __post_init__(self) -> None:
        if self.kind not in get_args(MatchKind):
            raise ValueError(f"unknown match kind {self.kind!r}")
        if self.kind == "single" and self.target != 1:
            raise ValueError("a single-hand match has target 1")
        if self.kind == "best-of" and (self.target < 1 or self.target % 2 == 0):
            raise ValueError(f"best-of needs an odd number of hands, got {self.target}")
        if self.kind in ("first-to", "hands") and not 1 <= self.target <= 99:
            raise ValueError(f"{self.kind} needs 1 to 99 hands, got {self.target}")
        if self.kind == "points" and not 61 <= self.target <= 1000:
            raise ValueError(f"a points match needs a target of 61 to 1000, got {self.target}")

    @classmethod
    def parse(cls, text: str) -> MatchFormat:
        """Parse ``single``, ``best-of-3``, ``first-to-4``, ``points-121`` or ``hands-5``."""
        text = text.strip().lower()
        if text == "single":
            return cls()
        kind, sep, number = text.rpartition("-")
        if not sep or kind not in get_args(MatchKind) or not number.isdigit():
            raise ValueError(
                f"invalid match format {text!r}: expected single, best-of-N, first-to-N,"
                " points-N or hands-N"
            )
        return cls(kind, int(number))  # type: ignore[arg-type]

    @property
    def hands_to_win(self) -> int:
        """Hands a side must win (``best-of`` and ``first-to``; 1 for ``single``)."""
        if self.kind == "best-of":
            return self.target // 2 + 1
        if self.kind == "first-to":
            return self.target
        return 1

    def __str__(self) -> str:
        return "single" if self.kind == "single" else f"{self.kind}-{self.target}"

    def __repr__(self) -> str:
        return f"MatchFormat.parse({str(self)!r})"


SINGLE: Final = MatchFormat()


@dataclass(frozen=True, slots=True)
class Rules:
    """A complete rule configuration. Build with :meth:`preset`, or directly and validated.

    Seats are numbered in playing order (counterclockwise at the table).
    """

    #: Preset this configuration started from (``"custom"`` when built by hand).
    name: str = "custom"
    #: Number of players, 2 to 6 (5 is Briscola Chiamata).
    players: int = 2
    #: Partners play as teams: seats of the same parity (4 and 6 players).
    teams: bool = False
    #: Cards in each hand.
    hand_size: int = 3
    #: A trump suit exists (turned briscola, or called in Chiamata). False in Briscolone.
    trump: bool = True
    #: Players must follow the suit led when they can (usual in Briscolone).
    follow_suit: bool = False
    #: Briscola Chiamata: auction, called card, secret partner; all cards dealt.
    chiamata: bool = False
    #: Briscola scoperta: the top card of the stock is always face up.
    scoperta: bool = False
    #: The Three ranks in its natural place (beaten by the Four) but still counts 10.
    three_as_three: bool = False
    #: A player holding the 7 (or 2) of trump may exchange it for the face-up briscola.
    swap: bool = False
    #: Team games: when partners see each other's hands.
    partners_see: PartnersSee = "never"
    #: Partner signals (segni, :mod:`briscola.engine.signals`): ``off``, ``partner`` (only
    #: the signaller's partners see them) or ``open`` (everyone does). In Chiamata they
    #: start once the partner is revealed.
    signals: SignalsMode = "off"
    #: How hands add up to a match.
    match: MatchFormat = SINGLE
    #: Card codes taken out of the deck before shuffling (3 and 6 players).
    removed: tuple[str, ...] = ()
    #: Sides cache: seat groups that score together (empty for Chiamata, decided per hand).
    _sides: tuple[tuple[int, ...], ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        problem = self._problem()
        if problem:
            raise ValueError(f"invalid rules: {problem}")
        n = self.players
        if self.chiamata:
            sides: tuple[tuple[int, ...], ...] = ()
        elif self.teams:
            sides = (tuple(range(0, n, 2)), tuple(range(1, n, 2)))
        else:
            sides = tuple((seat,) for seat in range(n))
        object.__setattr__(self, "_sides", sides)

    def _problem(self) -> str | None:
        n = self.players
        if not isinstance(n, int) or isinstance(n, bool) or not 2 <= n <= 6:
            return f"players must be 2 to 6, got {short_repr(n)}"
        wrong = _wrong_type(self)
        if wrong:
            return wrong
        try:
            removed = [Card.from_code(code) for code in self.removed]
        except ValueError as exc:
            return str(exc)
        if len(set(removed)) != len(removed):
            return "a removed card is listed twice"
        deck = 40 - len(removed)
        if n == 5 and not self.chiamata:
            return "five players play Briscola Chiamata (set chiamata=True)"
        if self.chiamata:
            if n != 5:
                return f"Briscola Chiamata is for five players (got {n})"
            if not self.trump:
                return "Briscola Chiamata has a called trump (trump=True)"
            if self.hand_size * n != deck:
                return "Briscola Chiamata deals every card (hand_size * players == deck size)"
            if self.swap:
                return "Briscola Chiamata has no turned briscola to swap"
            if self.match.kind not in ("single", "hands"):
                return "a Chiamata match is single or hands-N (sides change every hand)"
        if self.teams and n not in (4, 6):
            return f"teams are for 4 or 6 players (got {n})"
        if n in (4, 6) and not self.teams:
            return f"{n} players play in two teams (set teams=True)"
        if self.partners_see not in get_args(PartnersSee):
            return f"partners_see must be one of {', '.join(get_args(PartnersSee))}"
        if self.partners_see != "never" and not self.teams:
            return "partners can only see each other's hands in team games"
        if self.signals not in get_args(SignalsMode):
            return f"signals must be one of {', '.join(get_args(SignalsMode))}"
        if self.signals != "off" and not (self.teams or self.chiamata):
            return "signals are for team games and Briscola Chiamata"
        if not 1 <= self.hand_size <= deck // n:
            return f"hand size {self.hand_size} does not fit {n} players and {deck} cards"
        if deck % n:
            return f"{deck} cards cannot be shared out evenly among {n} players"
        if self.turned_briscola and self.stock_size == 0:
            return "a turned briscola needs a card left after the deal (every card is dealt)"
        if self.scoperta and n != 2:
            return f"scoperta is a two-player variant (got {n} players)"
        if self.scoperta and self.stock_size == 0:
            return "scoperta needs a stock"
        if self.swap and not (self.trump and not self.chiamata):
            return "swapping needs a turned briscola"
        if self.match.kind == "hands" and not self.chiamata:
            return "hands-N matches are for Briscola Chiamata; use best-of-N or first-to-N"
        return None

    # ------------------------------------------------------------------ presets

    @classmethod
    def preset(cls, name: str, **options: Any) -> Rules:
        """A named preset with options applied on top.

        ``match`` may be given as a string such as ``"best-of-3"``.
        """
        try:
            base = PRESETS[name]
        except KeyError:
            raise ValueError(
                f"unknown preset {name!r}: expected one of {', '.join(PRESETS)}"
            ) from None
        return base.replace(**options)

    def replace(self, **options: Any) -> Rules:
        """A copy with some fields changed (validated). Unknown fields raise ``ValueError``.

        Changing a field a preset fixes (:data:`PRESET_SHAPE`) gives ``custom`` rules, unless
        ``name`` is given: a record names a preset only for rules of that preset's shape.

        >>> Rules.preset("classic2", hand_size=4).name
        'custom'
        >>> Rules.preset("classic2", swap=True).name
        'classic2'
        """
        names = {f.name for f in dataclasses.fields(self) if not f.name.startswith("_")}
        unknown = sorted(set(options) - names)
        if unknown:
            raise ValueError(f"unknown rule option(s): {', '.join(unknown)}")
        if isinstance(options.get("match"), str):
            options["match"] = MatchFormat.parse(options["match"])
        if isinstance(options.get("removed"), list | tuple):
            options["removed"] = tuple(options["removed"])
        if "name" not in options and any(
            key in options and options[key] != getattr(self, key) for key in PRESET_SHAPE
        ):
            options["name"] = "custom"
        return dataclasses.replace(self, **options)

    # ------------------------------------------------------------------ derived

    @property
    def deck(self) -> tuple[Card, ...]:
        """The cards in play, in index order."""
        removed = {Card.from_code(code) for code in self.removed}
        return tuple(card for card in DECK if card not in removed)

    @property
    def deck_size(self) -> int:
        return 40 - len(self.removed)

    @property
    def turned_briscola(self) -> bool:
        """A card is turned face up after the deal and lies under the stock."""
        return self.trump and not self.chiamata

    @property
    def stock_size(self) -> int:
        """Cards left after the deal, the turned briscola included."""
        return self.deck_size - self.players * self.hand_size

    @property
    def tricks_per_hand(self) -> int:
        return self.deck_size // self.players

    @property
    def total_points(self) -> int:
        return sum(card.points for card in self.deck)

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Seats that score together: teams, or one seat each. Empty for Chiamata."""
        return self._sides

    def side_of(self, seat: int) -> int:
        """Index into :attr:`sides` of a seat (not for Chiamata)."""
        return seat % 2 if self.teams else seat

    def partners(self, seat: int) -> tuple[int, ...]:
        """The other seats of a seat's fixed team (empty outside team games)."""
        if not self.teams:
            return ()
        return tuple(s for s in range(seat % 2, self.players, 2) if s != seat)

    @property
    def strength(self) -> dict[Rank, int]:
        """Trick-taking strength of each rank under these rules (higher wins)."""
        return STRENGTH_THREE_AS_THREE if self.three_as_three else STRENGTH

    @property
    def bid_ranks(self) -> tuple[Rank, ...]:
        """Chiamata bidding order, from the first (highest) bid down to the Two."""
        strength = self.strength
        return tuple(sorted(Rank, key=lambda rank: -strength[rank]))

    # ------------------------------------------------------------------ serialisation

    def to_dict(self) -> dict[str, Any]:
        """Every field as plain JSON values (``preset`` holds :attr:`name`)."""
        return {
            "preset": self.name,
            "players": self.players,
            "teams": self.teams,
            "hand_size": self.hand_size,
            "trump": self.trump,
            "follow_suit": self.follow_suit,
            "chiamata": self.chiamata,
            "scoperta": self.scoperta,
            "three_as_three": self.three_as_three,
            "swap": self.swap,
            "partners_see": self.partners_see,
            "match": str(self.match),
            "removed": list(self.removed),
            # Only when on, so records and views without signals read as before.
            **({"signals": self.signals} if self.signals != "off" else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Inverse of :meth:`to_dict`. Raises ``ValueError`` on unknown or bad fields.

        >>> rules = Rules.preset("chiamata5")
        >>> Rules.from_dict(rules.to_dict()) == rules
        True
        """
        if not isinstance(data, Mapping):
            raise ValueError("rules must be a JSON object")
        fields = dict(data)
        name = fields.pop("preset", "custom")
        if not isinstance(name, str):
            raise ValueError("rules.preset must be a string")
        if name != "custom" and name not in PRESETS:
            raise ValueError(
                f"unknown preset {short_repr(name)}: expected custom or one of {', '.join(PRESETS)}"
            )
        if "name" in fields:
            raise ValueError("unknown rule option(s): name (the preset is 'preset')")
        match = fields.get("match")
        if match is not None and not isinstance(match, str):
            raise ValueError(f"match must be a string such as 'best-of-3', got {short_repr(match)}")
        removed = fields.get("removed")
        if removed is not None and not isinstance(removed, list | tuple):
            raise ValueError("removed must be a list of card codes")
        fields["name"] = name
        base = PRESETS.get(name, cls())
        try:
            rules = base.replace(**fields)
        except TypeError as exc:  # wrong value types deep inside
            raise ValueError(f"invalid rules: {exc}") from None
        preset = PRESETS.get(name)
        if preset is not None:
            for key in PRESET_SHAPE:
                if getattr(rules, key) != getattr(preset, key):
                    raise ValueError(
                        f"invalid rules: preset {name} has {key} {getattr(preset, key)!r},"
                        f" not {getattr(rules, key)!r} (use preset 'custom')"
                    )
        return rules

    def describe(self) -> str:
        """A one-line human summary (English; the GUI has its own translated one)."""
        parts = [PRESET_DESCRIPTIONS.get(self.name, f"{self.players} players")]
        for flag, label in (
            ("scoperta", "scoperta"),
            ("follow_suit", "follow suit"),
            ("three_as_three", "three as three"),
            ("swap", "briscola swap"),
        ):
            if getattr(self, flag) and label not in parts[0].lower():
                parts.append(label)
        if self.partners_see != "never":
            parts.append(f"partners see hands ({self.partners_see})")
        if self.signals != "off":
            parts.append(f"signals ({self.signals})")
        parts.append(str(self.match))
        return ", ".join(parts)


def short_repr(value: Any, limit: int = 30) -> str:
    """``repr(value)`` cut to ``limit`` characters, for a message about a bad value.

    >>> short_repr("x" * 50)
    "'xxxxxxxxxxxxxxxxxxxxxxxxx..."
    """
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


_BOOL_FIELDS: Final = (
    "teams",
    "trump",
    "follow_suit",
    "chiamata",
    "scoperta",
    "three_as_three",
    "swap",
)


def _wrong_type(rules: Rules) -> str | None:
    """The first field of ``rules`` with a value of the wrong type (from JSON, say)."""
    if not isinstance(rules.name, str):
        return f"preset must be a string, got {short_repr(rules.name)}"
    for key in _BOOL_FIELDS:
        if not isinstance(getattr(rules, key), bool):
            return f"{key} must be true or false, got {short_repr(getattr(rules, key))}"
    if not isinstance(rules.hand_size, int) or isinstance(rules.hand_size, bool):
        return f"hand_size must be a whole number, got {short_repr(rules.hand_size)}"
    if not isinstance(rules.match, MatchFormat):
        return f"match must be a match format such as 'best-of-3', got {short_repr(rules.match)}"
    if not isinstance(rules.partners_see, str):
        return f"partners_see must be a string, got {short_repr(rules.partners_see)}"
    if not isinstance(rules.signals, str):
        return f"signals must be a string, got {short_repr(rules.signals)}"
    if not isinstance(rules.removed, tuple) or not all(
        isinstance(code, str) for code in rules.removed
    ):
        return "removed must be a list of card codes"
    return None


#: The fields a preset fixes: a record or message naming the preset must agree with them
#: (the other fields, such as swap or match, are options on top of the preset).
PRESET_SHAPE: Final = (
    "players",
    "teams",
    "hand_size",
    "trump",
    "follow_suit",
    "chiamata",
    "scoperta",
    "removed",
)


# ---------------------------------------------------------------------- the registry of variants
#
# Every named preset, in the order offered (the New game screen, the arena's --list, the
# documentation). A new preset is one Variant here, its label and help in
# briscola/text/labels.py (PRESET_WORDS: a test fails while they are missing) and their
# translations in briscola/locale/; everything else reads this table (docs/contributing.md).


@dataclass(frozen=True, slots=True)
class Variant:
    """One named preset of the registry."""

    #: The preset's rules (their ``name`` is the preset's name).
    rules: Rules
    #: One line in English (the arena's ``--list``, :meth:`Rules.describe`); the player's
    #: translated label and help are in :mod:`briscola.text.labels`.
    description: str
    #: ``--self-check`` has every level choose in positions of this preset
    #: (:mod:`briscola.ai.check`).
    self_check: bool = True

    @property
    def name(self) -> str:
        return self.rules.name


#: Every preset, in the order offered.
VARIANTS: Final[tuple[Variant, ...]] = (
    Variant(Rules(name="classic2"), "Two players"),
    # The rules say "remove one 2"; the Two of coins is our documented default.
    Variant(
        Rules(name="classic3", players=3, removed=("2D",)),
        "Three players, each for themselves (one Two removed)",
    ),
    Variant(Rules(name="teams4", players=4, teams=True), "Four players, two teams of two"),
    Variant(
        Rules(name="chiamata5", players=5, hand_size=8, chiamata=True),
        "Briscola Chiamata: five players, auction and secret partner",
    ),
    Variant(
        Rules(name="teams6", players=6, teams=True, removed=("2D", "2C", "2S", "2B")),
        "Six players, two teams of three (Twos removed)",
    ),
    Variant(
        Rules(name="scoperta2", scoperta=True),
        "Briscola scoperta: two players, top of the stock face up",
    ),
    Variant(
        Rules(
            name="briscolone2",
            hand_size=5,
            trump=False,
            follow_suit=True,
            match=MatchFormat("points", 121),
        ),
        "Briscolone: two players, five cards, no trump, follow suit",
    ),
    Variant(
        Rules(
            name="briscolone4",
            players=4,
            teams=True,
            hand_size=5,
            trump=False,
            follow_suit=True,
            match=MatchFormat("points", 151),
        ),
        "Briscolone: four players in teams, five cards, no trump, follow suit",
    ),
)

#: The registry by preset name (in the same order).
VARIANTS_BY_NAME: Final[Mapping[str, Variant]] = MappingProxyType(
    {variant.name: variant for variant in VARIANTS}
)
#: Each preset's rules by name, in the order offered.
PRESETS: Final[Mapping[str, Rules]] = MappingProxyType(
    {variant.name: variant.rules for variant in VARIANTS}
)
#: Each preset's one-line English description by name.
PRESET_DESCRIPTIONS: Final[Mapping[str, str]] = MappingProxyType(
    {variant.name: variant.description for variant in VARIANTS}
)
