"""Rating hands (briscola.ratings): a rated hand moves both sides, teams and Chiamata's sides,
an abandoned hand is the quitter's loss, a hand is never rated twice, the stores keep what
they were given (SQLite across a reopening), and the families cover every preset."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from enginehelp import finished_hand

from briscola.engine import VARIANTS, GameState, Rules
from briscola.ratings import (
    FAMILIES,
    FAMILY_PRESETS,
    MemoryStore,
    Rating,
    RatingService,
    SqliteStore,
    check_family,
    family_of,
    hand_scores,
)
from briscola.ratings.service import ranks_of
from briscola.ratings.store import Commit


def played(preset: str, seed: int) -> GameState:
    return finished_hand(Rules.preset(preset), seed)


def service() -> RatingService:
    return RatingService(MemoryStore(), clock=lambda: 1000.0)


def test_a_rated_hand_raises_the_winner_lowers_the_loser_and_both_grow_surer() -> None:
    ratings = service()
    rated = ratings.rate_hand("two", [["ann"], ["bob"]], [40, 80], "h1")
    assert rated.fresh
    change = {c.player: c for c in rated.changes}
    assert change["bob"].after.mu > change["bob"].before.mu
    assert change["ann"].after.mu < change["ann"].before.mu
    for c in rated.changes:
        assert c.after.sigma < c.before.sigma
        assert c.after.games == 1
    assert ratings.rating("two", "bob") == change["bob"].after
    assert ratings.rating("two", "cid") == ratings.initial  # never rated: a new player's


def test_teams_move_together_and_a_tie_moves_no_one_much() -> None:
    ratings = service()
    rated = ratings.rate_hand("teams4", [["a", "c"], ["b", "d"]], [80, 40], "t1")
    up = {c.player for c in rated.changes if c.after.mu > c.before.mu}
    assert up == {"a", "c"}
    tie = ratings.rate_hand("teams4", [["e", "g"], ["f", "h"]], [60, 60], "t2")
    assert all(abs(c.after.mu - c.before.mu) < 1e-9 for c in tie.changes)
    assert all(c.after.sigma < c.before.sigma for c in tie.changes)


def test_three_sides_are_ranked_by_their_scores() -> None:
    ratings = service()
    rated = ratings.rate_hand("three", [["a"], ["b"], ["c"]], [30, 60, 30], "three")
    mu = {c.player: c.after.mu - c.before.mu for c in rated.changes}
    assert mu["b"] > 0 > mu["a"]
    assert mu["a"] == pytest.approx(mu["c"])


def test_a_finished_chiamata_hand_rates_caller_and_partner_against_the_rest() -> None:
    state = played("chiamata5", 3)
    players = ["p0", "p1", "p2", "p3", "p4"]
    teams, scores = hand_scores(players, state)
    result = state.outcome()
    assert teams[0] == [players[s] for s in result.sides[0]]
    assert len(teams[0]) + len(teams[1]) == 5
    assert (scores[0] > 0) == (result.winner == 0)
    rated = service().rate_state("chiamata", players, state, "ch1")
    winners = {players[s] for s in result.sides[result.winner or 0]}
    for c in rated.changes:
        assert (c.after.mu > c.before.mu) == (c.player in winners)


def test_rate_state_takes_the_luck_out_of_a_two_player_hand() -> None:
    state = played("classic2", 5)
    teams, adjusted = hand_scores(["x", "y"], state)
    _, points = hand_scores(["x", "y"], state, adjust=False)
    assert teams == [["x"], ["y"]]
    assert points == [float(p) for p in state.points]
    assert adjusted != points
    assert sum(adjusted) == pytest.approx(120.0)


def test_an_abandoned_hand_is_the_quitters_loss_and_its_partner_is_not_rated() -> None:
    ratings = service()
    rated = ratings.abandon("teams4", [["a", "c"], ["b", "d"]], "a", "gone")
    change = {c.player: c for c in rated.changes}
    assert set(change) == {"a", "b", "d"}
    assert change["a"].after.mu < change["a"].before.mu
    assert change["b"].after.mu > change["b"].before.mu
    assert change["d"].after.mu > change["d"].before.mu
    assert ratings.rating("teams4", "c") == ratings.initial
    with pytest.raises(ValueError, match="not at this table"):
        ratings.abandon("two", [["a"], ["b"]], "z", "other")


def test_a_hand_is_rated_once_whatever_comes_again() -> None:
    ratings = service()
    first = ratings.rate_hand("two", [["a"], ["b"]], [80, 40], "once")
    after = {p: ratings.rating("two", p) for p in "ab"}
    again = ratings.rate_hand("two", [["a"], ["b"]], [80, 40], "once")
    quit_later = ratings.abandon("two", [["a"], ["b"]], "a", "once")
    assert first.fresh and not again.fresh and not quit_later.fresh
    assert again.changes == () == quit_later.changes
    assert {p: ratings.rating("two", p) for p in "ab"} == after
    assert [e.hand_id for e in ratings.history("two", "a")] == ["once"]


def test_bad_input_gets_a_clear_message() -> None:
    ratings = service()
    with pytest.raises(ValueError, match="unknown rating family"):
        ratings.rate_hand("five", [["a"], ["b"]], [1, 0], "x")
    with pytest.raises(ValueError, match="on two sides"):
        ratings.rate_hand("two", [["a"], ["a"]], [1, 0], "x")
    with pytest.raises(ValueError, match="2 sides but 3 scores"):
        ratings.rate_hand("two", [["a"], ["b"]], [1, 0, 2], "x")
    with pytest.raises(ValueError, match="two sides or more"):
        ratings.rate_hand("two", [["a"]], [1], "x")
    with pytest.raises(ValueError, match="unknown rating model"):
        RatingService(MemoryStore(), model="elo")
    assert not ratings.store.is_rated("x")


class Interfering(MemoryStore):
    """A store where another process rates ``player`` between the first read and commit."""

    def __init__(self, player: str) -> None:
        super().__init__()
        self.player = player
        self.interfered = False

    def commit(
        self,
        family: str,
        hand_id: str,
        expected: Mapping[str, int],
        new: Mapping[str, Rating],
        at: float,
    ) -> Commit:
        if not self.interfered:
            self.interfered = True
            other = RatingService(self, clock=lambda: 0.0)
            other.rate_hand(family, [[self.player], ["zed"]], [90, 30], "elsewhere")
        return super().commit(family, hand_id, expected, new, at)


def test_a_rating_changed_meanwhile_is_read_again_and_no_update_is_lost() -> None:
    store = Interfering("a")
    ratings = RatingService(store, clock=lambda: 0.0)
    rated = ratings.rate_hand("two", [["a"], ["b"]], [90, 30], "here")
    assert rated.fresh
    assert ratings.rating("two", "a").games == 2
    assert [e.hand_id for e in ratings.history("two", "a")] == ["elsewhere", "here"]
    before = {c.player: c.before for c in rated.changes}
    assert before["a"].games == 1  # computed from the rating the other process left


def leaderboard_checks(ratings: RatingService) -> None:
    for k, (winner, loser) in enumerate([("a", "b"), ("a", "c"), ("b", "c"), ("a", "b")]):
        ratings.rate_hand("two", [[winner], [loser]], [90, 30], f"g{k}")
    top = ratings.leaderboard("two", 2)
    assert [s.player for s in top] == ["a", "b"]
    assert [s.rank for s in top] == [1, 2]
    assert top[0].rating.ordinal > top[1].rating.ordinal
    mine = ratings.standing("two", "c")
    assert mine is not None and mine.rank == 3 and mine.rating.games == 2
    assert ratings.standing("two", "nobody") is None
    assert ratings.standing("three", "a") is None
    history = ratings.history("two", "a")
    assert [e.hand_id for e in history] == ["g0", "g1", "g3"]
    assert [e.games for e in history] == [1, 2, 3]
    assert history[-1].mu == ratings.rating("two", "a").mu
    assert [e.hand_id for e in ratings.history("two", "a", limit=1)] == ["g3"]


def test_the_memory_stores_leaderboard_rank_and_history() -> None:
    leaderboard_checks(service())


def test_the_sqlite_store_keeps_everything_across_a_reopening(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "host")
    ratings = RatingService(store, clock=lambda: 1234.5)
    leaderboard_checks(ratings)
    kept = {p: ratings.rating("two", p) for p in "abc"}
    store.close()
    again = RatingService(SqliteStore(tmp_path / "host"), clock=lambda: 0.0)
    assert {p: again.rating("two", p) for p in "abc"} == kept
    assert [s.player for s in again.leaderboard("two", 5)] == ["a", "b", "c"]
    assert again.history("two", "b")[0].at == 1234.5
    assert not again.rate_hand("two", [["c"], ["a"]], [1, 0], "g2").fresh  # rated before
    again.store.close()


def test_ranks_tie_within_the_band() -> None:
    assert ranks_of([70, 50]) == [1, 2]
    assert ranks_of([70, 50], band=20) == [1, 1]
    assert ranks_of([70, 49], band=20) == [1, 2]
    assert ranks_of([10, 30, 20], band=0) == [3, 1, 2]
    with pytest.raises(ValueError, match="a band must be 0 or more"):
        RatingService(MemoryStore(), bands={"two": -1})
    with pytest.raises(ValueError, match="unknown rating family"):
        RatingService(MemoryStore(), bands={"duo": 1})


def test_a_close_two_player_hand_is_a_tie_and_a_clear_one_is_not() -> None:
    ratings = service()
    close = ratings.rate_hand("two", [["a"], ["b"]], [70, 50], "close")
    assert all(abs(c.after.mu - c.before.mu) < 1e-9 for c in close.changes)
    clear = ratings.rate_hand("two", [["c"], ["d"]], [71, 49], "clear")
    assert clear.changes[0].after.mu > clear.changes[0].before.mu
    six = ratings.rate_hand("six", [["e", "g", "i"], ["f", "h", "j"]], [61, 59], "six")
    assert six.changes[0].after.mu > six.changes[0].before.mu  # no band measured there


def test_every_preset_has_a_family() -> None:
    seen = [name for family in FAMILIES for name in FAMILY_PRESETS[family]]
    assert sorted(seen) == sorted(v.name for v in VARIANTS)
    assert family_of(Rules.preset("teams6")) == "six"
    assert family_of(Rules.preset("briscolone4")) == "teams4"
    assert family_of(Rules.preset("classic3")) == "three"
    assert check_family("six") == "six"
    with pytest.raises(ValueError, match="two, three, teams4, chiamata, six"):
        check_family("duo")


def test_players_and_seats_must_agree() -> None:
    state = played("classic2", 1)
    with pytest.raises(ValueError, match="2 seats but 3 players"):
        hand_scores(["a", "b", "c"], state)
