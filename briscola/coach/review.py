"""The review of one seat's card plays in a recorded hand.

For every card the seat played, :func:`review` rebuilds the :class:`PlayerView` the seat
had at that moment (by replaying the record), assesses every legal card with the hard
search from that view alone (:func:`briscola.coach.evaluate`), and grades the card played
by what it gave up against the best one (:data:`VERDICTS`). The summary counts the points
given up by mistakes and the share of decisions played within :data:`GOOD` points of the
best. The same record, seat, budget and seed always give the same review; it never reads a
card the seat could not see.

A review is plain JSON (:meth:`Review.to_json`), kept in a record under the optional
``"review"`` key (docs/record-format.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from briscola.coach.assess import default_budget, evaluate, position_seed
from briscola.coach.reasons import Reason, explain
from briscola.engine import (
    Action,
    Card,
    GameState,
    Play,
    PlayerView,
    action_of,
    replay,
    view,
)

__all__ = ["GOOD", "VERDICTS", "MoveReview", "Review", "decisions", "review", "verdict"]

#: Verdicts by the expected points a card gives up against the best card: the first
#: threshold it stays under. ``forced``: only one card could be played.
VERDICTS: Final[tuple[tuple[str, float], ...]] = (
    ("best", 0.25),
    ("good", 1.0),
    ("inaccuracy", 3.0),
    ("mistake", 8.0),
    ("blunder", float("inf")),
)
#: A decision within this many expected points of the best counts as accurate.
GOOD: Final = 1.0
#: Verdicts whose losses count as "points lost to mistakes".
COSTLY: Final = frozenset({"inaccuracy", "mistake", "blunder"})

#: Called after each decision with (decisions done, decisions in all).
Progress = Callable[[int, int], None]


def verdict(loss: float) -> str:
    """The verdict of a card that gives up ``loss`` expected points.

    >>> verdict(0.0), verdict(2.0), verdict(20.0)
    ('best', 'inaccuracy', 'blunder')
    """
    return next(name for name, limit in VERDICTS if loss < limit)


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One card the seat played: trick number (0-based), the card, every legal card with its
    expected points (empty when forced), the best card, the loss, verdict and reason."""

    trick: int
    played: Card
    values: tuple[tuple[Card, float], ...]
    best: Card
    loss: float
    verdict: str
    reason: Reason

    @property
    def marked_best(self) -> Card:
        """The card a review marks best: the one played when its verdict is "best" (about
        as good as the coach's card, with at least as many points: the headline says
        "Best"), else the coach's card."""
        return self.played if self.verdict == "best" else self.best

    def to_json(self) -> dict[str, Any]:
        return {
            "trick": self.trick,
            "played": self.played.code,
            "values": {card.code: round(points, 2) for card, points in self.values},
            "best": self.best.code,
            "loss": round(self.loss, 2),
            "verdict": self.verdict,
            "reason": self.reason.to_json(),
        }

    @classmethod
    def from_json(cls, doc: Any) -> MoveReview:
        if not isinstance(doc, dict):
            raise ValueError("a reviewed move must be an object")
        values = doc.get("values")
        if not isinstance(values, dict):
            raise ValueError("a reviewed move needs 'values'")
        try:
            kind = str(doc["verdict"])
            if kind != "forced" and kind not in dict(VERDICTS):
                raise ValueError(f"unknown verdict {kind!r}")
            return cls(
                trick=int(doc["trick"]),
                played=Card.from_code(doc["played"]),
                values=tuple((Card.from_code(c), float(v)) for c, v in values.items()),
                best=Card.from_code(doc["best"]),
                loss=float(doc["loss"]),
                verdict=kind,
                reason=Reason.from_json(doc["reason"]),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"a reviewed move is malformed: {exc}") from None


@dataclass(frozen=True, slots=True)
class Review:
    """The review of ``seat``'s card plays, with the search settings that made it."""

    seat: int
    budget: int
    seed: int
    moves: tuple[MoveReview, ...]

    @property
    def lost(self) -> float:
        """Expected points given up by inaccuracies, mistakes and blunders."""
        return sum(m.loss for m in self.moves if m.verdict in COSTLY)

    @property
    def accuracy(self) -> float:
        """Percentage of the seat's real choices (forced cards aside) played within
        :data:`GOOD` expected points of the best; 100 with no real choice."""
        chosen = [m for m in self.moves if m.verdict != "forced"]
        if not chosen:
            return 100.0
        return 100.0 * sum(1 for m in chosen if m.loss < GOOD) / len(chosen)

    def costliest(self) -> MoveReview | None:
        """The move that gave up the most (the first on a tie), None without a loss."""
        worst = max(self.moves, key=lambda m: m.loss, default=None)
        return worst if worst is not None and worst.loss > 0 else None

    def to_json(self) -> dict[str, Any]:
        """Plain JSON, kept in a record as ``"review"`` (or a list of them, one per seat)."""
        return {
            "seat": self.seat,
            "budget": self.budget,
            "seed": self.seed,
            "moves": [m.to_json() for m in self.moves],
            "lost": round(self.lost, 2),
            "accuracy": round(self.accuracy, 1),
        }

    @classmethod
    def from_json(cls, doc: Any) -> Review:
        """The inverse of :meth:`to_json` (the summary is recomputed); ValueError on
        anything else."""
        if not isinstance(doc, dict) or not isinstance(doc.get("moves"), list):
            raise ValueError("a review must be an object with 'moves'")
        try:
            return cls(
                seat=int(doc["seat"]),
                budget=int(doc["budget"]),
                seed=int(doc["seed"]),
                moves=tuple(MoveReview.from_json(m) for m in doc["moves"]),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"a review is malformed: {exc}") from None


def _actions(final: GameState) -> Iterator[Action]:
    """The actions of a replayed hand, in order, from its events."""
    for event in final.events:
        action = action_of(event)
        if action is not None:
            yield action


def decisions(record: Mapping[str, Any], seat: int) -> list[tuple[PlayerView, Card]]:
    """Each card ``seat`` played in ``record``, with the seat's view just before it (after
    any swap it made first). Raises :class:`ReplayError` for a record that does not
    replay, ValueError for a seat that is not in it."""
    final = replay(record)
    rules = final.rules
    if not 0 <= seat < rules.players:
        raise ValueError(f"seat {seat} is not in this hand: seats are 0 to {rules.players - 1}")
    deck = [Card.from_code(code) for code in record["deck"]]
    state = GameState(rules, deck, final.dealer)
    out: list[tuple[PlayerView, Card]] = []
    for action in _actions(final):
        if isinstance(action, Play) and state.current_player == seat:
            out.append((view(state, seat), action.card))
        state.apply(action)
    return out


def review(
    record: Mapping[str, Any],
    seat: int,
    budget: int | None = None,
    seed: int = 0,
    progress: Progress | None = None,
) -> Review:
    """Review ``seat``'s card plays in ``record`` (see the module docstring). ``budget``:
    search work units per decision (default: a hard move's); ``progress(done, total)`` is
    called after each decision (from the calling thread)."""
    steps = decisions(record, seat)
    players = steps[0][0].rules.players if steps else 2
    spend = budget if budget is not None else default_budget(players)
    moves: list[MoveReview] = []
    for k, (seen, played) in enumerate(steps):
        plays = [a.card for a in seen.legal if isinstance(a, Play)]
        trick = len(seen.tricks)
        if len(plays) == 1:
            moves.append(
                MoveReview(trick, played, (), played, 0.0, "forced", Reason("only", played))
            )
        else:
            # One seed per position, ``seed`` mixed in: a decision's assessment does not
            # depend on the others, and with seed 0 it is the hint's at the table.
            found = evaluate(seen, seed=position_seed(seen, seed), budget=spend)
            # Kept to 2 decimals, as in JSON: a review read back is the review made.
            values = tuple((card, round(points, 2)) for card, points in found.values)
            # Against the coach's card (hard's), as the hint named it: the hint's card is
            # never a loss, a card that only seems better neither.
            loss = round(max(0.0, dict(values)[found.best] - dict(values)[played]), 2)
            grade = verdict(loss)
            if grade == "best" and not found.about_as_good(played):
                grade = "good"  # more points, but fewer wins (or against a partner's signal)
            moves.append(
                MoveReview(
                    trick=trick,
                    played=played,
                    values=values,
                    best=found.best,
                    loss=loss,
                    verdict=grade,
                    reason=replace(explain(seen, found, played), loss=loss),
                )
            )
        if progress is not None:
            progress(k + 1, len(steps))
    return Review(seat=seat, budget=spend, seed=seed, moves=tuple(moves))
