"""How a finished hand scores: :class:`HandResult` and :func:`hand_result`.

The scoring depends only on the rules, the points each seat took and (Chiamata) the
auction's outcome, not on how the cards were played, so it stands apart from
:class:`~briscola.engine.state.GameState`.

>>> from .rules import Rules
>>> result = hand_result(Rules.preset("classic2"), (61, 59))
>>> result.winner, result.returns, result.draw
(0, (1, -1), False)
>>> hand_result(Rules.preset("classic2"), (60, 60)).draw
True
"""

from __future__ import annotations

from dataclasses import dataclass

from briscola.engine.actions import Bid
from briscola.engine.rules import Rules

__all__ = ["HandResult", "hand_result"]


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a finished hand scored.

    ``sides`` are the seat groups that scored together (teams, single seats, or in Chiamata
    the caller's side first and the other three second). ``winner`` indexes ``sides``; it is
    None for a draw (60-60, or a tie for the highest score with three players, when ``tied``
    lists the tied sides). ``returns`` are per seat: +1 won, -1 lost, 0 drawn; in Chiamata the
    match points (caller +2, partner +1, others -1, signs flipped on a loss, caller +/-4 alone,
    all doubled for cappotto).
    """

    points: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...]
    side_points: tuple[int, ...]
    target: int
    winner: int | None
    tied: tuple[int, ...]
    cappotto: bool
    returns: tuple[int, ...]

    @property
    def draw(self) -> bool:
        return self.winner is None

    def to_json(self) -> dict[str, object]:
        return {
            "points": list(self.points),
            "sides": [list(side) for side in self.sides],
            "side_points": list(self.side_points),
            "target": self.target,
            "winner": self.winner,
            "tied": list(self.tied),
            "cappotto": self.cappotto,
            "returns": list(self.returns),
        }


def hand_result(
    rules: Rules,
    points: tuple[int, ...],
    caller: int | None = None,
    partner: int | None = None,
    high_bid: Bid | None = None,
) -> HandResult:
    """The result of a hand in which seat ``i`` took ``points[i]``; in Chiamata the
    ``caller``, its ``partner`` (the caller itself when alone) and the winning bid."""
    total = rules.total_points
    if rules.chiamata:
        assert caller is not None and partner is not None and high_bid is not None
        return _chiamata_result(rules, points, total, caller, partner, high_bid)
    sides = rules.sides
    side_points = tuple(sum(points[s] for s in side) for side in sides)
    best = max(side_points)
    top = tuple(i for i, p in enumerate(side_points) if p == best)
    winner = top[0] if len(top) == 1 else None
    tied = top if winner is None and len(sides) > 2 else ()
    returns = [0] * rules.players
    for i, side in enumerate(sides):
        value = 1 if i == winner else 0 if i in top else -1
        for seat in side:
            returns[seat] = value
    target = total // 2 + 1 if len(sides) == 2 else best
    return HandResult(
        points=points,
        sides=sides,
        side_points=side_points,
        target=target,
        winner=winner,
        tied=tied,
        cappotto=best == total and len(sides) == 2,
        returns=tuple(returns),
    )


def _chiamata_result(
    rules: Rules, points: tuple[int, ...], total: int, caller: int, partner: int, high_bid: Bid
) -> HandResult:
    alone = caller == partner
    calling = (caller,) if alone else (caller, partner)
    others = tuple(s for s in range(rules.players) if s not in calling)
    side_points = (sum(points[s] for s in calling), sum(points[s] for s in others))
    target = high_bid.points
    winner = 0 if side_points[0] >= target else 1
    cappotto = total in side_points
    sign = 1 if winner == 0 else -1
    factor = 2 if cappotto else 1
    returns = [0] * rules.players
    returns[caller] = sign * factor * (4 if alone else 2)
    if not alone:
        returns[partner] = sign * factor
    for seat in others:
        returns[seat] = -sign * factor
    return HandResult(
        points=points,
        sides=(calling, others),
        side_points=side_points,
        target=target,
        winner=winner,
        tied=(),
        cappotto=cappotto,
        returns=tuple(returns),
    )
