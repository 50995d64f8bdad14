"""The learned evaluation: a small network that scores each legal card, trained from the
hard search's values, and the ``medium`` that plays by it.

The network sits on top of medium's rules (:mod:`briscola.ai.medium`): one of its inputs is
medium's own score of the card, the others are facts of the position that medium's rules
weigh by fixed numbers or not at all. It was trained (``tools/learn/train.py``) to predict,
for every legal card, how much better or worse than the average legal card the hard search
found it (the search's utility: the chance to win the hand plus a small margin term), from
positions of medium's self-play labelled by ``hard`` on a moderate budget
(``tools/learn/generate.py``). Medium with ``learned`` on plays the card the network ranks
first; swaps, the Chiamata auction and the call stay medium's.

Inference is plain Python (no numpy: the game's runtime does not need it). The weights are
JSON with their provenance, one network per configuration (:data:`NETWORKS`:
``assets/ai/medium-net.json`` for two players, ``medium-net-teams4.json`` and the others),
read through :func:`briscola.resources.asset_path` (so the frozen build carries them) once
per process. A missing or damaged file is logged once and medium then plays by its
hand-written rules.

The features of a card ``c`` (all from the :class:`~briscola.engine.PlayerView`, through
medium's :class:`~briscola.ai.knowledge.Knowledge`; :data:`FEATURES` names them in order):

* ``medium``: medium's score of ``c`` (:func:`~briscola.ai.medium.evaluate_play`) / 20;
* ``keep``: medium's keep value of ``c`` / 10;
* ``points``, ``strength``, ``trump``: the card's points / 11, trick strength / 10, whether
  it is a trump;
* ``lead``: the seat leads the trick; ``takes``: ``c`` beats the table's best card;
  ``table_points``: points on the table / 22; ``table_mine``: the table's best card is the
  seat's side's (by medium's partner weights);
* ``boss``: no outstanding card beats ``c``; ``higher``: outstanding cards of its suit that
  beat it / 9; ``trumps_out``: outstanding trumps / 10; ``points_out``: points of the
  outstanding cards / 120;
* ``own_trumps``, ``own_suit``, ``own_points``: the seat's other cards: trumps / 2, cards of
  ``c``'s suit / 2, their points / 33; ``hand``: hand size / 3;
* ``stock``: cards in the stock / 34; ``last_draw``: this trick's loser draws the face-up
  briscola; ``briscola``: the briscola's points + strength / 21 while it is in the stock;
* ``mine``, ``theirs``: the seat's side's points and the best other side's / 60.

The configurations a network was trained on are listed in its file (``covers``); where no
bundled network covers a table, and when a partner asks to take the trick or to let it go
(partner signals: the networks were trained without them), medium plays by its rules.
"""

from __future__ import annotations

import json
import logging
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from briscola.ai.knowledge import Knowledge, beats, table_winner
from briscola.ai.medium import direction_value, evaluate_play, keep_value, medium_action
from briscola.ai.signals import partner_direction
from briscola.engine import Action, Card, Play, PlayerView, Swap
from briscola.engine.rules import Rules
from briscola.resources import asset_path

__all__ = [
    "FEATURES",
    "NETWORKS",
    "WEIGHTS",
    "LearnedMediumBot",
    "Network",
    "Position",
    "card_features",
    "configuration",
    "covers",
    "first_covering",
    "learned_action",
    "load_network",
    "network",
    "network_for",
    "play_rows",
    "position_of",
]

log = logging.getLogger(__name__)

#: The feature names, in the order of the network's inputs (see the module docstring).
FEATURES: Final = (
    "medium",
    "keep",
    "points",
    "strength",
    "trump",
    "lead",
    "takes",
    "table_points",
    "table_mine",
    "boss",
    "higher",
    "trumps_out",
    "points_out",
    "own_trumps",
    "own_suit",
    "own_points",
    "hand",
    "stock",
    "last_draw",
    "briscola",
    "mine",
    "theirs",
)

#: The bundled networks' files, under ``assets/ai/``: one per configuration it covers
#: (its ``covers``), the first that covers a table's rules plays there.
NETWORKS: Final = (
    "medium-net.json",
    "medium-net-teams4.json",
    "medium-net-teams6.json",
    "medium-net-chiamata5.json",
    "medium-net-classic3.json",
    "medium-net-scoperta2.json",
    "medium-net-briscolone2.json",
    "medium-net-briscolone4.json",
)
#: The two-player network's file, under ``assets/``.
WEIGHTS: Final = ("ai", NETWORKS[0])
#: The format written by ``tools/learn/train.py``.
FORMAT: Final = "briscola-net/1"


@dataclass(frozen=True, slots=True)
class Position:
    """What :func:`card_features` reads of a position that is the same for every card
    (computed once per position by :func:`position_of`)."""

    outstanding: tuple[Card, ...]
    best: tuple[int, Card] | None  # the table's winning seat and card, None when leading
    table_points: int
    table_mine: float
    trumps_out: int
    points_out: int
    last_draw: float
    brisc_value: float
    mine: float
    theirs: float


def position_of(kn: Knowledge) -> Position:
    """The card-independent inputs of ``kn``'s position."""
    seen = kn.view
    n = kn.rules.players
    trump, strength = kn.trump, kn.strength
    table = seen.table
    mates = kn.mates
    best = table_winner(table, trump, strength) if table else None
    outstanding = tuple(kn.outstanding())
    brisc = seen.briscola
    in_stock = seen.briscola_in_stock and brisc is not None
    mine = theirs = 0.0
    for s in range(n):
        if mates[s] >= 0.5:
            mine = max(mine, float(_side_points(seen, s)))
        else:
            theirs = max(theirs, float(_side_points(seen, s)))
    return Position(
        outstanding=outstanding,
        best=best,
        table_points=sum(c.points for _, c in table),
        table_mine=mates[best[0]] if best is not None else 0.0,
        trumps_out=sum(1 for c in outstanding if c.suit is trump),
        points_out=sum(c.points for c in outstanding),
        last_draw=1.0 if in_stock and seen.stock_size == n else 0.0,
        brisc_value=(brisc.points + strength[brisc.rank]) / 21.0 if in_stock and brisc else 0.0,
        mine=mine,
        theirs=theirs,
    )


def card_features(
    kn: Knowledge, card: Card, value: float, keep: float, position: Position | None = None
) -> list[float]:
    """The network's inputs for playing ``card`` (``value``: medium's score of it, ``keep``:
    its keep value), in the order of :data:`FEATURES`; ``position``: :func:`position_of`
    ``kn``, made once for all the cards of a position (made here when None)."""
    pos = position if position is not None else position_of(kn)
    seen = kn.view
    trump, strength = kn.trump, kn.strength
    takes = 1.0 if pos.best is not None and beats(pos.best[1], card, trump, strength) else 0.0
    rank = strength[card.rank]
    higher = sum(1 for c in pos.outstanding if c.suit is card.suit and strength[c.rank] > rank)
    boss = not any(beats(card, c, trump, strength) for c in pos.outstanding)
    others = [c for c in seen.hand if c is not card]
    own_trumps = sum(1 for c in others if c.suit is trump)
    own_suit = sum(1 for c in others if c.suit is card.suit)
    own_points = sum(c.points for c in others)
    return [
        value / 20.0,
        keep / 10.0,
        card.points / 11.0,
        rank / 10.0,
        1.0 if card.suit is trump else 0.0,
        0.0 if seen.table else 1.0,
        takes,
        pos.table_points / 22.0,
        pos.table_mine,
        1.0 if boss else 0.0,
        higher / 9.0,
        pos.trumps_out / 10.0,
        pos.points_out / 120.0,
        own_trumps / 2.0,
        own_suit / 2.0,
        own_points / 33.0,
        len(seen.hand) / 3.0,
        seen.stock_size / 34.0,
        pos.last_draw,
        pos.brisc_value,
        pos.mine / 60.0,
        pos.theirs / 60.0,
    ]


def _side_points(seen: PlayerView, seat: int) -> int:
    """The points of ``seat``'s side (its own in Chiamata and with three players)."""
    rules = seen.rules
    if rules.teams:
        side = rules.side_of(seat)
        return sum(seen.points[s] for s in range(rules.players) if rules.side_of(s) == side)
    return seen.points[seat]


def play_rows(seen: PlayerView) -> tuple[list[Play], list[list[float]]]:
    """Every legal card play and the network's inputs for each (medium's score of the card,
    partner requests included, as :func:`~briscola.ai.medium.medium_action` computes it, is
    the first). The data generator and the bot share it, so the features of training and
    of play cannot differ."""
    kn = Knowledge.of(seen)
    direction = partner_direction(seen)
    position = position_of(kn)
    plays = [a for a in seen.legal if isinstance(a, Play)]
    rows: list[list[float]] = []
    for action in plays:
        card = action.card
        value = evaluate_play(card, kn) + direction_value(card, kn, direction)
        rows.append(card_features(kn, card, value, keep_value(card, kn), position))
    return plays, rows


# ---------------------------------------------------------------------------- the network


@dataclass(frozen=True, slots=True)
class Network:
    """A small MLP: ``inputs`` -> tanh hidden layers -> one output. ``layers`` is a list of
    (weights, biases), weights as rows of each output unit; inputs are standardized with
    ``mean`` and ``scale`` first. ``covers``: the configurations it was trained on."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    layers: tuple[tuple[tuple[tuple[float, ...], ...], tuple[float, ...]], ...]
    covers: tuple[dict[str, Any], ...]
    provenance: dict[str, Any]

    def __deepcopy__(self, memo: dict[int, Any]) -> Network:
        """Immutable: a copy of a bot (the match driver keeps them for undo) shares it."""
        return self

    def value(self, row: Sequence[float]) -> float:
        """The network's output for one row of features (the same arithmetic as
        ``tools/learn/train.py``'s forward pass)."""
        x = [(v - m) / s for v, m, s in zip(row, self.mean, self.scale, strict=True)]
        last = len(self.layers) - 1
        for i, (weights, biases) in enumerate(self.layers):
            out = [
                b + sum(w * v for w, v in zip(ws, x, strict=True))
                for ws, b in zip(weights, biases, strict=True)
            ]
            x = out if i == last else [math.tanh(v) for v in out]
        return x[0]

    @classmethod
    def from_json(
        cls, data: Any, fmt: str = FORMAT, features: tuple[str, ...] = FEATURES
    ) -> Network:
        """Parse the weights' file; a clear :class:`ValueError` for anything malformed.
        ``fmt`` and ``features``: another network of this shape (the sparring pool's policy,
        :mod:`briscola.ai.policy`)."""
        if not isinstance(data, dict) or data.get("format") != fmt:
            raise ValueError(f"not a {fmt} file")
        if tuple(data.get("features", ())) != features:
            raise ValueError("its features are not this version's")
        width = len(features)
        mean = _floats(data.get("mean"), width, "mean")
        scale = _floats(data.get("scale"), width, "scale")
        if any(s <= 0 for s in scale):
            raise ValueError("scale must be positive")
        layers = []
        raw = data.get("layers")
        if not isinstance(raw, list) or not raw:
            raise ValueError("no layers")
        for k, layer in enumerate(raw):
            if not isinstance(layer, dict):
                raise ValueError(f"layer {k} is not an object")
            rows = layer.get("w")
            if not isinstance(rows, list) or not rows:
                raise ValueError(f"layer {k} has no weights")
            weights = tuple(_floats(r, width, f"layer {k} weights") for r in rows)
            biases = _floats(layer.get("b"), len(weights), f"layer {k} biases")
            layers.append((weights, biases))
            width = len(weights)
        if width != 1:
            raise ValueError("the last layer must have one output")
        covers = data.get("covers")
        if not isinstance(covers, list) or not all(isinstance(c, dict) for c in covers):
            raise ValueError("covers must be a list of objects")
        provenance = data.get("provenance", {})
        return cls(
            mean,
            scale,
            tuple(layers),
            tuple(covers),
            provenance if isinstance(provenance, dict) else {},
        )


def _floats(values: Any, width: int, what: str) -> tuple[float, ...]:
    if not isinstance(values, list) or len(values) != width:
        raise ValueError(f"{what}: expected {width} numbers")
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise ValueError(f"{what}: {v!r} is not a finite number")
        out.append(float(v))
    return tuple(out)


def load_network(
    path: Path,
    fmt: str = FORMAT,
    features: tuple[str, ...] = FEATURES,
    what: str = "learned evaluation: %s is %s; medium plays by its rules",
) -> Network | None:
    """The network in ``path``, or None (logged with the reason, by ``what``) when it is
    missing or damaged. ``fmt``, ``features``: another network of this shape."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Network.from_json(data, fmt, features)
    except FileNotFoundError:
        log.warning(what, path, "missing")
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        log.warning(what, path, f"damaged ({exc})")
    return None


_CACHE: dict[Path, Network | None] = {}


def network(path: Path | None = None) -> Network | None:
    """The bundled two-player network (or the one in ``path``), read once per process."""
    where = path if path is not None else asset_path(*WEIGHTS)
    if where not in _CACHE:
        _CACHE[where] = load_network(where)
    return _CACHE[where]


def first_covering(
    names: Sequence[str], rules: Rules, read: Callable[[Path], Network | None]
) -> Network | None:
    """The first of the bundled files ``names`` (under ``assets/ai/``, read by ``read``)
    whose network covers ``rules``."""
    nets = (read(asset_path("ai", name)) for name in names)
    return next((n for n in nets if n is not None and covers(n, rules)), None)


_FOR: dict[tuple[Any, ...], Network | None] = {}


def network_for(rules: Rules) -> Network | None:
    """The bundled network that covers ``rules`` (None: medium plays by its rules there),
    looked up once per configuration (finding the assets costs some 30 µs a file)."""
    key = tuple(configuration(rules).values())
    if key not in _FOR:
        _FOR[key] = first_covering(NETWORKS, rules, network)
    return _FOR[key]


def configuration(rules: Rules) -> dict[str, Any]:
    """The facts of ``rules`` that a network's ``covers`` names (what changes the play)."""
    return {
        "players": rules.players,
        "teams": rules.teams,
        "chiamata": rules.chiamata,
        "trump": rules.trump,
        "follow_suit": rules.follow_suit,
        "scoperta": rules.scoperta,
        "three_as_three": rules.three_as_three,
    }


def covers(net: Network, rules: Rules) -> bool:
    """The network was trained on a configuration like ``rules``."""
    facts = configuration(rules)
    return any(all(facts.get(k) == v for k, v in c.items()) for c in net.covers)


def learned_action(seen: PlayerView, net: Network | None = None) -> Action:
    """Medium's move with the learned evaluation choosing the card (``net``, or the bundled
    network for the table's rules; medium's own move where none covers them, and when a
    partner asked to take this trick or to let it go: the networks were trained without
    signals, and a partner who asks must be answered)."""
    legal = seen.legal
    if (
        seen.phase != "play"
        or len(legal) < 2
        or any(isinstance(a, Swap) for a in legal)
        or partner_direction(seen) is not None
    ):
        return medium_action(seen)
    if net is None:
        net = network_for(seen.rules)  # (one that covers them)
    elif not covers(net, seen.rules):
        net = None
    if net is None:
        return medium_action(seen)
    plays, rows = play_rows(seen)
    best = 0
    best_value = float("-inf")
    for i, row in enumerate(rows):
        v = net.value(row)
        if v > best_value:
            best, best_value = i, v
    return plays[best]


class LearnedMediumBot:
    """``medium`` with the learned evaluation choosing its card (``learned=0`` gives the
    hand-written :class:`~briscola.ai.medium.MediumBot`). Deterministic; the rng is unused."""

    def __init__(
        self,
        rng: random.Random | None = None,
        time_limit: float | None = None,
        weights: str | None = None,
    ) -> None:
        self.name = "medium"
        self.rng = rng or random.Random(0)
        self.time_limit = time_limit
        #: ``weights``' network; None: the bundled one for each table's rules.
        self.net = network(Path(weights)) if weights else None
        self.weights = weights

    def choose(self, view: PlayerView) -> Action:
        if self.weights and self.net is None:  # that file is missing or damaged (logged)
            return medium_action(view)
        return learned_action(view, self.net)
