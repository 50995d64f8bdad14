"""Rating hands: :class:`RatingService`, OpenSkill's model over a :class:`RatingStore`.

The server calls it once per finished rated hand, and once per hand abandoned past the
grace period, with the hand's id (the same id for both, so a hand is never rated twice):

>>> from briscola.ratings.store import MemoryStore
>>> service = RatingService(MemoryStore(), clock=lambda: 0.0)
>>> rated = service.rate_hand("two", [["ann"], ["bob"]], [80, 40], "T1:1")
>>> [round(c.after.mu - c.before.mu, 2) for c in rated.changes]
[2.64, -2.64]
>>> service.rate_hand("two", [["ann"], ["bob"]], [80, 40], "T1:1").fresh
False
>>> [s.player for s in service.leaderboard("two", 10)]
['ann', 'bob']

Each side's score (higher is better) gives the sides' order, which is what OpenSkill's
Plackett-Luce model rates (scores within the family's band tie: :data:`BANDS`);
:meth:`RatingService.rate_state` takes a finished hand, takes its luck out
(:mod:`briscola.ratings.luck`) and rates the adjusted points. Why, measured:
``docs/ratings.md``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from openskill.models import BradleyTerryFull, PlackettLuce, ThurstoneMostellerFull

from briscola.engine import GameState
from briscola.ratings.families import check_family
from briscola.ratings.luck import luck_of
from briscola.ratings.store import HistoryEntry, Rating, RatingStore, Standing

__all__ = ["MODELS", "Change", "RatedHand", "RatingService", "hand_scores", "ranks_of"]

#: OpenSkill's models by name (the service uses Plackett-Luce unless told otherwise).
MODELS: Final[Mapping[str, Callable[..., Any]]] = {
    "plackett-luce": PlackettLuce,
    "bradley-terry": BradleyTerryFull,
    "thurstone-mosteller": ThurstoneMostellerFull,
}
#: Per family: sides whose scores (points less luck) differ by no more than this tie (see
#: :func:`ranks_of`): a close hand says little about who played better. Measured with two
#: players and in teams of four (``docs/ratings.md``); the other families rank by the score
#: alone until measured.
BANDS: Final[Mapping[str, float]] = {"two": 20.0, "teams4": 20.0}
#: Times a commit is tried again when another process rated one of the players meanwhile.
RETRIES: Final = 20


@dataclass(frozen=True, slots=True)
class Change:
    """What a hand changed for one player."""

    player: str
    before: Rating
    after: Rating


@dataclass(frozen=True, slots=True)
class RatedHand:
    """A hand's rating: ``fresh`` False when it had been rated already (``changes`` then
    empty: nothing changed this time)."""

    hand_id: str
    family: str
    fresh: bool
    changes: tuple[Change, ...]


class RatingService:
    """Ratings per family on ``store``, updated by OpenSkill's ``model`` (a name of
    :data:`MODELS`); ``clock`` stamps the history (seconds since the epoch)."""

    def __init__(
        self,
        store: RatingStore,
        model: str = "plackett-luce",
        clock: Callable[[], float] = time.time,
        bands: Mapping[str, float] = BANDS,
        tau: float | None = None,
    ) -> None:
        if model not in MODELS:
            raise ValueError(f"unknown rating model {model!r}: expected one of {', '.join(MODELS)}")
        for family, band in bands.items():
            check_family(family)
            if band < 0:
                raise ValueError(f"a band must be 0 or more, got {band} for {family}")
        self.store = store
        #: OpenSkill's model; ``tau``: its dynamics (None: the model's own, 25/300).
        self.model = MODELS[model]() if tau is None else MODELS[model](tau=tau)
        self.clock = clock
        #: Per family: sides whose scores differ by no more than this tie.
        self.bands = dict(bands)

    @property
    def initial(self) -> Rating:
        """A new player's rating."""
        return Rating(float(self.model.mu), float(self.model.sigma), 0)

    def rating(self, family: str, player: str) -> Rating:
        """``player``'s rating in ``family`` (a new player's when not rated there yet)."""
        return self.store.get(check_family(family), [player]).get(player, self.initial)

    def rate_hand(
        self,
        family: str,
        teams: Sequence[Sequence[str]],
        scores: Sequence[float],
        hand_id: str,
    ) -> RatedHand:
        """Rate the finished hand ``hand_id``: ``teams`` are the sides' player ids (one
        list per side: a player alone is a side of one), ``scores`` each side's result,
        higher better (within the family's band: a tie). Idempotent: a hand rated already
        changes nothing."""
        family = check_family(family)
        _check_teams(teams)
        if len(scores) != len(teams):
            raise ValueError(f"{len(teams)} sides but {len(scores)} scores")
        band = self.bands.get(family, 0.0)
        return self._rate(family, teams, ranks_of(scores, band), hand_id)

    def abandon(
        self, family: str, teams: Sequence[Sequence[str]], quitter: str, hand_id: str
    ) -> RatedHand:
        """The hand ``hand_id`` was abandoned by ``quitter`` (after the grace period): a
        loss for it against every other side, which ties first. Its partners are not
        rated (the hand was not theirs to finish). Idempotent, with :meth:`rate_hand` too
        (the same hand id: a hand rated once it ended is not rated again as abandoned)."""
        family = check_family(family)
        _check_teams(teams)
        if not any(quitter in team for team in teams):
            raise ValueError(f"{quitter!r} is not at this table")
        sides = [[quitter]] + [list(team) for team in teams if quitter not in team]
        return self._rate(family, sides, [2] + [1] * (len(sides) - 1), hand_id)

    def rate_state(
        self,
        family: str,
        players: Sequence[str],
        state: GameState,
        hand_id: str,
        adjust: bool = True,
    ) -> RatedHand:
        """Rate the finished hand ``state`` (with its deck: the server's own, or a record
        replayed), ``players[seat]`` at each seat: its sides (Chiamata's caller and partner
        against the rest) scored by their points less their luck (``adjust``), or by
        their points alone."""
        teams, scores = hand_scores(players, state, adjust)
        return self.rate_hand(family, teams, scores, hand_id)

    def leaderboard(self, family: str, count: int = 20) -> list[Standing]:
        return self.store.top(check_family(family), count)

    def standing(self, family: str, player: str) -> Standing | None:
        return self.store.standing(check_family(family), player)

    def history(self, family: str, player: str, limit: int = 100) -> list[HistoryEntry]:
        return self.store.history(check_family(family), player, limit)

    def _rate(
        self, family: str, teams: Sequence[Sequence[str]], ranks: list[int], hand_id: str
    ) -> RatedHand:
        players = [p for team in teams for p in team]
        for _ in range(RETRIES):
            if self.store.is_rated(hand_id):
                return RatedHand(hand_id, family, False, ())
            kept = self.store.get(family, players)
            before = {p: kept.get(p, self.initial) for p in players}
            model = self.model
            rated = model.rate(
                [[model.rating(mu=before[p].mu, sigma=before[p].sigma) for p in team]
                 for team in teams],
                ranks=[float(r) for r in ranks],
            )  # fmt: skip
            after = {
                p: Rating(float(r.mu), float(r.sigma), before[p].games + 1)
                for team, new in zip(teams, rated, strict=True)
                for p, r in zip(team, new, strict=True)
            }
            expected = {p: before[p].games for p in players}
            done = self.store.commit(family, hand_id, expected, after, self.clock())
            if done == "done":
                changes = tuple(Change(p, before[p], after[p]) for p in players)
                return RatedHand(hand_id, family, True, changes)
            if done == "already":
                return RatedHand(hand_id, family, False, ())
        raise RuntimeError(f"hand {hand_id}: its players' ratings kept changing; try again")


def ranks_of(scores: Sequence[float], band: float = 0.0) -> list[int]:
    """OpenSkill's ranks (1 first) of sides with ``scores`` (higher better): sorted from the
    best, a side whose score is no more than ``band`` below the side above it ties with it.

    >>> ranks_of([50, 70]), ranks_of([40, 41, 10], band=2), ranks_of([3, 3, 1])
    ([2, 1], [1, 1, 2], [1, 1, 2])
    """
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    ranks = [0] * len(scores)
    rank = 1
    for k, i in enumerate(order):
        if k and scores[order[k - 1]] - scores[i] > band:
            rank += 1
        ranks[i] = rank
    return ranks


def hand_scores(
    players: Sequence[str], state: GameState, adjust: bool = True
) -> tuple[list[list[str]], list[float]]:
    """The sides of the finished hand ``state`` as player ids and their scores: the points
    less the luck (``adjust``), or the points. Chiamata: the caller's side scores its
    points less the bid's target plus a half (a side that makes the target wins), the
    others the opposite."""
    if len(players) != state.rules.players:
        raise ValueError(f"{state.rules.players} seats but {len(players)} players")
    result = state.outcome()
    teams = [[players[seat] for seat in side] for side in result.sides]
    if state.rules.chiamata:
        margin = result.side_points[0] - result.target + 0.5
        return teams, [margin, -margin]
    values = luck_of(state).adjusted if adjust else tuple(float(p) for p in result.side_points)
    return teams, list(values)


def _check_teams(teams: Sequence[Sequence[str]]) -> None:
    players = [p for team in teams for p in team]
    if len(teams) < 2 or any(not team for team in teams):
        raise ValueError("a hand is rated between two sides or more, none of them empty")
    if len(set(players)) != len(players):
        raise ValueError("a player is on two sides (or twice on one)")
    if any(not isinstance(p, str) or not p for p in players):
        raise ValueError("player ids are non-empty strings")
