"""The luck of a hand, taken out of its result: a control variate in the manner of AIVAT.

The server knows the whole deal, so it can say how much each chance event of a hand (the
deal, then each round of draws from the stock) was worth to each side: the value of the
position just after it less the value expected just before it. A hand's luck is the sum of
those differences; the luck-adjusted result is the points each side took less its luck.
Whatever the value function, each difference has an expected value of exactly zero (the
cards an event reveals are a uniform draw from those not yet seen), so the adjustment takes
no skill away on average: it only removes noise, as much as the value tells luck apart.

The value here is linear in the cards each side holds: a card's worth is its category's
(its trick-taking strength, 1 to 10, and whether it is a trump), fitted by least squares on
the rule player's self-play (``python -m tools.rating_experiment fit``, which writes
``assets/ai/luck-values.json`` with its provenance). With a linear value the expectation
before an event is exact: each card revealed to a side counts its category's worth less
the mean worth of the cards it was drawn from. So the luck of a hand is
``sum(worth[k] * features[k])``, where ``features`` (:func:`luck_features`) counts, per
category, the cards a side was dealt and drew less the number it could expect, less the
mean of the sides' counts (:func:`relative`): so the luck of the sides adds up to zero, as
their points add up to the deck's.

The search's rollout value (the points after playouts by medium's rules of thumb,
:mod:`briscola.ratings.rollout`) was measured too: noisier for the same time, and a
thousand times dearer (``docs/ratings.md``). The turned briscola is taken as given (it names
the trump), and a card already seen (the briscola the loser draws last, a card swapped for
it, Scoperta's face-up top card) reaches a hand by play, not by chance. Briscola Chiamata
deals every card and then holds an auction: its luck is zero (rated on its result).

>>> import random
>>> from briscola.engine import GameState, Rules
>>> state = GameState.new(Rules.preset("classic2"), random.Random(3))
>>> while not state.is_terminal():
...     state.apply(state.legal_actions()[0])
>>> hand = luck_of(state, worth=tuple(float(k) for k in range(CATEGORIES)))
>>> hand.points == state.side_points(), len(hand.luck)
(True, 2)
>>> round(sum(hand.luck), 9)  # every card is someone's: the luck of the sides adds up to 0
0.0
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from briscola.engine import (
    PASS,
    Action,
    Auction,
    Bid,
    Call,
    Called,
    Card,
    Drew,
    GameState,
    Play,
    Played,
    Rules,
    Swap,
    Swapped,
)
from briscola.engine.cards import Suit
from briscola.resources import asset_path

__all__ = [
    "CATEGORIES",
    "FORMAT",
    "LUCK_FILE",
    "HandLuck",
    "actions_of",
    "category",
    "luck_features",
    "luck_of",
    "parse_worth",
    "relative",
    "worth_for",
]

log = logging.getLogger(__name__)

#: Card categories: trick-taking strength 1 to 10, then the same as trumps.
CATEGORIES: Final = 20
#: The fitted worth of each category per configuration (``tools/rating_experiment.py fit``).
LUCK_FILE: Final = ("ai", "luck-values.json")
FORMAT: Final = "briscola-luck/1"


@dataclass(frozen=True, slots=True)
class HandLuck:
    """A finished hand's points per side (:attr:`Rules.sides`; in Chiamata the caller's
    side first), the luck of its chance events per side, and the points less the luck."""

    points: tuple[int, ...]
    luck: tuple[float, ...]
    adjusted: tuple[float, ...]


def category(card: Card, trump: Suit | None, rules: Rules) -> int:
    """The category of ``card``: its strength less one, plus 10 for a trump."""
    strength = rules.strength[card.rank]
    return strength - 1 + (10 if card.suit is trump else 0)


def actions_of(state: GameState) -> list[Action]:
    """The actions of ``state``'s hand so far, in order, read from its events."""
    out: list[Action] = []
    for event in state.events:
        if isinstance(event, Played):
            out.append(Play(event.card))
        elif isinstance(event, Swapped):
            out.append(Swap(event.gave))
        elif isinstance(event, Auction):
            out.append(PASS if event.bid is None else Bid(event.bid.rank, event.bid.points))
        elif isinstance(event, Called):
            out.append(Call(event.card))
    return out


def luck_features(state: GameState) -> list[list[float]]:
    """Per side, per category: the cards of it that the side was dealt or drew by chance,
    less the number it could expect (the share of that category among the cards still
    unseen, each time). ``state``: a finished hand with its deck. All zero for Chiamata."""
    _check(state)
    rules = state.rules
    sides = len(rules.sides) if rules.sides else 2
    features = [[0.0] * CATEGORIES for _ in range(sides)]
    if rules.chiamata:
        return features
    replay = GameState(rules, state.deck, state.dealer)
    trump = replay.trump
    fixed = replay.briscola if rules.turned_briscola else None
    unseen = {card for card in rules.deck if card is not fixed}

    def reveal(cards: Sequence[tuple[int, Card]]) -> None:
        cards = [(seat, card) for seat, card in cards if card in unseen]
        if not cards:
            return
        counts = [0] * CATEGORIES
        for card in unseen:
            counts[category(card, trump, rules)] += 1
        share = [count / len(unseen) for count in counts]
        for seat, card in cards:
            row = features[rules.side_of(seat)]
            row[category(card, trump, rules)] += 1.0
            for k in range(CATEGORIES):
                row[k] -= share[k]
        for _, card in cards:
            unseen.discard(card)

    def turn_top() -> None:
        if rules.scoperta and replay.stock:
            unseen.discard(replay.stock[0])  # face up: no hand gains anything yet

    reveal([(seat, card) for seat, hand in enumerate(replay.hands) for card in hand])
    turn_top()
    for action in actions_of(state):
        start = len(replay.events)
        replay.apply(action)
        drawn = [
            (e.seat, e.card)
            for e in replay.events[start:]
            if isinstance(e, Drew) and e.card is not None
        ]
        if drawn:
            reveal(drawn)
            turn_top()
    return features


def relative(features: Sequence[Sequence[float]]) -> list[list[float]]:
    """Each side's features less the mean of all sides' (a card that comes to one side is
    a card that does not come to the others): what its points less their mean answer to."""
    sides = len(features)
    mean = [sum(row[k] for row in features) / sides for k in range(CATEGORIES)]
    return [[row[k] - mean[k] for k in range(CATEGORIES)] for row in features]


def luck_of(state: GameState, worth: Sequence[float] | None = None) -> HandLuck:
    """The luck of the finished hand ``state`` (built from its deck: a record's
    :func:`~briscola.engine.replay`, or the server's own state), valued by ``worth`` (per
    category; None: the fitted values for its configuration, zero where none was fitted)."""
    _check(state)
    points = tuple(state.outcome().side_points)
    if worth is None:
        worth = worth_for(state.rules)
    if len(worth) != CATEGORIES:
        raise ValueError(f"worth needs {CATEGORIES} values, got {len(worth)}")
    features = relative(luck_features(state))
    luck = tuple(sum(w * f for w, f in zip(worth, row, strict=True)) for row in features)
    adjusted = tuple(p - k for p, k in zip(points, luck, strict=True))
    return HandLuck(points, luck, adjusted)


def _check(state: GameState) -> None:
    if not state.is_terminal():
        raise ValueError("the luck of a hand is measured once it is over")
    if not state.deck:
        raise ValueError("the luck of a hand needs its deck (a determinized state has none)")


_WORTH: dict[str, tuple[float, ...]] = {}
_READ: list[bool] = []


def worth_for(rules: Rules) -> tuple[float, ...]:
    """The fitted worth per category for ``rules``' configuration (by its preset's name;
    all zero, no adjustment, where none was fitted or the file is missing or damaged)."""
    if not _READ:
        _WORTH.update(_read())
        _READ.append(True)
    return _WORTH.get(rules.name, (0.0,) * CATEGORIES)


def _read() -> dict[str, tuple[float, ...]]:
    path = asset_path(*LUCK_FILE)
    try:
        return parse_worth(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        log.warning("luck values: %s is missing; hands are rated on their result", path)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        log.warning("luck values: %s is damaged (%s); hands are rated on their result", path, exc)
    return {}


def parse_worth(data: Any) -> dict[str, tuple[float, ...]]:
    """The worth per preset of a ``briscola-luck/1`` document (a clear ``ValueError``)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} file")
    tables = data.get("worth")
    if not isinstance(tables, dict):
        raise ValueError("worth must be an object of presets")
    out: dict[str, tuple[float, ...]] = {}
    for name, values in tables.items():
        if (
            not isinstance(values, list)
            or len(values) != CATEGORIES
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
        ):
            raise ValueError(f"worth of {name!r}: expected {CATEGORIES} numbers")
        out[str(name)] = tuple(float(v) for v in values)
    return out
