"""``ppo``: a self-play policy network, a sparring partner of the arena's pool.

A small network scores each legal card from one seat's view; the bot plays the card it
scores highest. It was trained by reinforcement learning alone (``tools/learn/ppo.py``:
proximal policy optimisation, self-play from random weights, the reward winning the hand),
with no search labels and none of medium's rules among its inputs, so its mistakes are its
own and not those of the game's levels.

Its inputs (:data:`FEATURES`, computed by :func:`rows` from plain ints, the same function
for the training script's fast simulation and for a :class:`~briscola.engine.PlayerView`):
the card's points, strength and trump-ness; leading or not, whether the card takes the
table, the table's points and whether its best card is the seat's side's, how many still
play after the seat; whether any card not yet seen beats the card, how many, the unseen
trumps and points; the seat's other trumps, points and cards of the suit, its hand size;
the stock, the last draw of the face-up briscola and its points; both sides' points.

Inference is plain Python (:class:`~briscola.ai.learned.Network`, the format
``briscola-policy/1``); the weights, with their seeds and provenance, are
``assets/ai/policy-ppo.json`` (two players) and ``policy-ppo-teams4.json`` (teams of
four). Swaps, the Chiamata auction and call are medium's, and where no network covers the
table or its file is missing or damaged (logged once) the bot plays medium's hand-written
card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from briscola.ai.learned import Network, configuration, covers, first_covering, load_network
from briscola.ai.medium import medium_action
from briscola.engine import Action, Play, PlayerView, Rules
from briscola.engine.sim import BEATS, POINTS, STRENGTH3_INT, STRENGTH_INT, SUIT, taker
from briscola.resources import asset_path

__all__ = [
    "FEATURES",
    "FORMAT",
    "POLICIES",
    "WEIGHTS",
    "PolicyBot",
    "policy_for",
    "policy_network",
    "rows",
    "view_rows",
]

#: The inputs per legal card, in order (see the module docstring).
FEATURES: Final = (
    "points",
    "strength",
    "trump",
    "lead",
    "takes",
    "table_points",
    "table_mine",
    "after",
    "boss",
    "beaters",
    "trumps_out",
    "points_out",
    "own_trumps",
    "own_points",
    "own_suit",
    "hand",
    "stock",
    "last_draw",
    "briscola",
    "mine",
    "theirs",
)
#: The format written by ``tools/learn/ppo.py``.
FORMAT: Final = "briscola-policy/1"
#: The bundled weights' files, under ``assets/ai/``: one per configuration it covers (its
#: ``covers``), the first that covers a table's rules plays there.
POLICIES: Final = ("policy-ppo.json", "policy-ppo-teams4.json")
#: The two-player policy's file, under ``assets/``.
WEIGHTS: Final = ("ai", POLICIES[0])
_ALL: Final = (1 << 40) - 1


def rows(
    legal: Sequence[int],
    hand: Sequence[int],
    trick: Sequence[int],
    table_mine: bool,
    after: int,
    gone: int,
    trump: int,
    briscola: int,
    stock: int,
    n: int,
    points: tuple[int, int],
    three_as_three: bool = False,
) -> list[list[float]]:
    """The inputs of each card of ``legal`` (cards as ``Card.index`` ints). ``gone``: the
    bit mask of the cards played (the trick's included); ``trump``: a suit, -1 for none;
    ``briscola``: the face-up briscola while it is in the stock, else -1; ``stock``: cards
    left to draw; ``points``: the seat's side's and the best other side's."""
    strength = STRENGTH3_INT if three_as_three else STRENGTH_INT
    beats = BEATS[(three_as_three, trump)]
    held = 0
    for c in hand:
        held |= 1 << c
    out = _ALL & ~gone & ~held
    unseen = [c for c in range(40) if out >> c & 1]
    trumps_out = sum(1 for c in unseen if SUIT[c] == trump)
    points_out = sum(POINTS[c] for c in unseen)
    best = -1
    table_points = 0
    if trick:
        best = trick[taker(list(trick), beats)]
        table_points = sum(POINTS[c] for c in trick)
    shared = [
        1.0 if not trick else 0.0,
        table_points / 22,
        1.0 if trick and table_mine else 0.0,
        after / 3,
    ]
    tail = [
        len(hand) / 3,
        stock / 34,
        1.0 if stock == n else 0.0,
        POINTS[briscola] / 11 if briscola >= 0 else 0.0,
        points[0] / 60,
        points[1] / 60,
    ]
    result = []
    for c in legal:
        suit = SUIT[c]
        beaters = sum(
            1
            for x in unseen
            if (SUIT[x] == suit and strength[x] > strength[c]) or (SUIT[x] == trump != suit)
        )
        others = [x for x in hand if x != c]
        result.append(
            [
                POINTS[c] / 11,
                strength[c] / 10,
                1.0 if suit == trump else 0.0,
                shared[0],
                1.0 if best >= 0 and beats[best * 40 + c] else 0.0,
                *shared[1:],
                1.0 if beaters == 0 else 0.0,
                beaters / 10,
                trumps_out / 10,
                points_out / 120,
                sum(1 for x in others if SUIT[x] == trump) / 2,
                sum(POINTS[x] for x in others) / 33,
                sum(1 for x in others if SUIT[x] == suit) / 2,
                *tail,
            ]
        )
    return result


def _side(seen: PlayerView, seat: int) -> int:
    """The scoring side of ``seat`` as ``seen`` knows it (Chiamata: the caller and a known
    partner are one side)."""
    rules = seen.rules
    if rules.chiamata:
        return 0 if seat in (seen.caller, seen.partner) else 1
    return rules.side_of(seat)


def view_rows(seen: PlayerView) -> tuple[list[Play], list[list[float]]]:
    """The legal card plays of ``seen`` and their inputs."""
    rules = seen.rules
    plays = [a for a in seen.legal if isinstance(a, Play)]
    gone = 0
    for card in seen.played_cards():
        gone |= 1 << card.index
    trick_cards = [card.index for _, card in seen.table]
    trump = int(seen.trump) if seen.trump is not None else -1
    mine_side = _side(seen, seen.seat)
    table_mine = False
    if seen.table:
        beats = BEATS[(rules.three_as_three, trump)]
        winner = seen.table[taker(trick_cards, beats)][0]
        table_mine = _side(seen, winner) == mine_side
    totals: dict[int, int] = {}
    for seat, pts in enumerate(seen.points):
        side = _side(seen, seat)
        totals[side] = totals.get(side, 0) + pts
    theirs = max((p for s, p in totals.items() if s != mine_side), default=0)
    briscola = seen.briscola.index if seen.briscola_in_stock and seen.briscola else -1
    features = rows(
        [a.card.index for a in plays],
        [c.index for c in seen.hand],
        trick_cards,
        table_mine,
        rules.players - 1 - len(seen.table),
        gone,
        trump,
        briscola,
        seen.stock_size,
        rules.players,
        (totals.get(mine_side, 0), theirs),
        rules.three_as_three,
    )
    return plays, features


_CACHE: dict[Path, Network | None] = {}


def policy_network(path: Path | None = None) -> Network | None:
    """The bundled two-player policy (or the one in ``path``), read once per process."""
    where = path if path is not None else asset_path(*WEIGHTS)
    if where not in _CACHE:
        what = "ppo policy: %s is %s; it plays medium's rules"
        _CACHE[where] = load_network(where, FORMAT, FEATURES, what)
    return _CACHE[where]


_FOR: dict[tuple[object, ...], Network | None] = {}


def policy_for(rules: Rules) -> Network | None:
    """The bundled policy that covers ``rules`` (None: none was trained for that table)."""
    key = tuple(configuration(rules).values())
    if key not in _FOR:
        _FOR[key] = first_covering(POLICIES, rules, policy_network)
    return _FOR[key]


class PolicyBot:
    """``ppo``: the card the policy network scores highest (the bundled one for the table,
    or ``weights``: another file). Deterministic; swaps, the auction and the call are
    medium's, and so is the card where no network covers the table (``covers``) or its file
    cannot be read."""

    def __init__(
        self,
        rng: random.Random | None = None,
        time_limit: float | None = None,
        weights: str | None = None,
    ) -> None:
        self.name = "ppo"
        self.rng = rng or random.Random(0)
        self.time_limit = time_limit
        self.weights = weights
        #: ``weights``' network; None: the bundled one for each table's rules.
        self.net = policy_network(Path(weights)) if weights else None

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError("no legal action: it is not this seat's turn")
        net = self.net if self.weights else policy_for(view.rules)
        if (
            view.phase != "play"
            or len(legal) == 1
            or not all(isinstance(a, Play) for a in legal)
            or net is None
            or not covers(net, view.rules)
        ):
            return legal[0] if len(legal) == 1 else medium_action(view)
        plays, features = view_rows(view)
        values = [net.value(row) for row in features]
        return plays[max(range(len(plays)), key=lambda i: (values[i], -i))]
