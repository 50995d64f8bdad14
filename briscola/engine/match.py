"""Matches: hands that add up, per :class:`~briscola.engine.rules.MatchFormat`.

The standing has one entry per side of :attr:`Rules.sides` (per seat in Chiamata): hands won
(single, best-of, first-to), card points (points-N) or match points (Chiamata). A drawn hand
counts for nobody. The deal passes to the right (the next seat) after each hand.

>>> import random
>>> from .rules import Rules
>>> match = Match(Rules.preset("classic2", match="best-of-3"))
>>> rng = random.Random(2)
>>> while not match.is_over():
...     state = match.new_hand(rng)
...     while not state.is_terminal():
...         state.apply(state.legal_actions()[0])
...     over = match.finish_hand(state)
>>> over.standing == tuple(match.standing), max(match.standing)
(True, 2)
>>> max(match.standing)
2
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from briscola.engine.events import MatchOver
from briscola.engine.rules import Rules
from briscola.engine.state import GameState, HandResult

__all__ = ["Match"]


class Match:
    """A match in progress: the standing, the results so far and the next dealer."""

    def __init__(self, rules: Rules, first_dealer: int = 0) -> None:
        if not 0 <= first_dealer < rules.players:
            raise ValueError(f"first dealer must be a seat from 0 to {rules.players - 1}")
        self.rules = rules
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self.results: list[HandResult] = []
        sides = len(rules.sides) if rules.sides else rules.players
        self.standing: list[int] = [0] * sides

    @property
    def hand_number(self) -> int:
        """1-based number of the hand being (or about to be) played."""
        return len(self.results) + 1

    def new_hand(self, rng: random.Random) -> GameState:
        """Shuffle and deal the next hand (the current dealer deals)."""
        if self.is_over():
            raise ValueError("the match is over")
        return GameState.new(self.rules, rng, self.dealer)

    def finish_hand(self, state: GameState) -> MatchOver | None:
        """Count a finished hand; the deal passes on. Returns the event when the match ends."""
        if state.rules != self.rules:
            raise ValueError("that hand was played under other rules")
        if state.dealer != self.dealer:
            raise ValueError(f"that hand was dealt by seat {state.dealer}, not {self.dealer}")
        result = state.outcome()
        self._count(result)
        self.dealer = (self.dealer + 1) % self.rules.players
        if self.is_over():
            return MatchOver(self.winners(), tuple(self.standing))
        return None

    def _count(self, result: HandResult) -> None:
        self.results.append(result)
        kind = self.rules.match.kind
        if self.rules.chiamata:
            for seat, value in enumerate(result.returns):
                self.standing[seat] += value
        elif kind == "points":
            for side, points in enumerate(result.side_points):
                self.standing[side] += points
        elif result.winner is not None:
            self.standing[result.winner] += 1

    def is_over(self) -> bool:
        fmt = self.rules.match
        if not self.results:
            return False
        if fmt.kind == "single":
            return True
        if fmt.kind == "hands":
            return len(self.results) >= fmt.target
        best = max(self.standing)
        if fmt.kind == "points":
            return best >= fmt.target and self.standing.count(best) == 1
        return best >= fmt.hands_to_win

    def winners(self) -> tuple[int, ...]:
        """Winning sides (seats in Chiamata) once the match is over; empty for a draw."""
        if not self.is_over():
            return ()
        if self.rules.match.kind == "single" and not self.rules.chiamata:
            winner = self.results[-1].winner
            return () if winner is None else (winner,)
        best = max(self.standing)
        top = tuple(i for i, value in enumerate(self.standing) if value == best)
        return () if len(top) == len(self.standing) else top

    # ------------------------------------------------------------------ persistence

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "first_dealer": self.first_dealer,
            "dealer": self.dealer,
            "standing": list(self.standing),
            "results": [result.to_json() for result in self.results],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Match:
        """Inverse of :meth:`to_json`; raises ``ValueError`` on bad data."""
        if not isinstance(data, Mapping):
            raise ValueError("invalid match data: not an object")
        try:
            rules = Rules.from_dict(data["rules"])
            match = cls(rules, _int(data["first_dealer"]))
            match.dealer = _int(data["dealer"]) % rules.players
            standing = [_int(v) for v in data["standing"]]
            if len(standing) != len(match.standing):
                raise ValueError("standing has the wrong length")
            match.standing = standing
            match.results = [_result_from_json(r) for r in data["results"]]
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"invalid match data: {exc!r}") from None
        return match


def _int(value: Any) -> int:
    """A whole number from JSON (no bools, floats or strings)."""
    if not isinstance(value, int) or isinstance(value, bool) or abs(value) > 10**9:
        raise ValueError(f"invalid match data: expected a whole number, got {value!r:.30}")
    return value


def _result_from_json(data: Mapping[str, Any]) -> HandResult:
    return HandResult(
        points=tuple(_int(v) for v in data["points"]),
        sides=tuple(tuple(_int(s) for s in side) for side in data["sides"]),
        side_points=tuple(_int(v) for v in data["side_points"]),
        target=_int(data["target"]),
        winner=None if data["winner"] is None else _int(data["winner"]),
        tied=tuple(_int(v) for v in data["tied"]),
        cappotto=bool(data["cappotto"]),
        returns=tuple(_int(v) for v in data["returns"]),
    )
