"""The coach names the card the hard player would play: the learned evaluation's card (hard's
default move) unless the search shows a clear gain elsewhere, not the card of the most
expected points whatever the search's noise. So a hint is as strong as hard (docs/ai.md,
*The coach*: the regret of its card against a long search is hard's, 0.0032, where the card
of the most points had 0.0071)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from enginehelp import positions, to_move

from briscola.ai.learned import learned_action
from briscola.ai.medium import medium_action
from briscola.ai.search import HardBot
from briscola.coach import CLOSE, Assessment, evaluate, explain, position_seed, review
from briscola.coach.review import Review, decisions
from briscola.engine import Card, GameState, Play, PlayerView, Rules, Swap, to_record

#: Small budgets keep these quick: hard's veto decides at any budget.
BUDGET = 600


def _choices(preset: str, deals: int) -> Iterator[PlayerView]:
    """Every position of ``deals`` medium hands where the seat to play chooses among two or
    more cards and may not swap the briscola."""
    for deal in range(deals):
        for state in positions(Rules.preset(preset), deal, medium_action):
            seen = to_move(state)
            plays = [a for a in seen.legal if isinstance(a, Play)]
            if seen.phase == "play" and len(plays) > 1 and len(plays) == len(seen.legal):
                yield seen


@pytest.mark.parametrize(
    ("preset", "deals"),
    [
        ("classic2", 3),
        ("classic3", 2),
        ("teams4", 2),
        ("chiamata5", 2),
        ("briscolone2", 2),
        ("scoperta2", 2),
    ],
)
def test_the_coach_names_the_card_hard_would_play(preset: str, deals: int) -> None:
    compared = 0
    for seen in _choices(preset, deals):
        seed = position_seed(seen)
        found = evaluate(seen, seed=seed, budget=BUDGET)
        hard = HardBot(random.Random(seed), budget=BUDGET, deterministic=True)
        assert hard.choose(seen) == Play(found.best), f"{preset}: hint {found.best}"
        compared += 1
    assert compared >= 10 * deals


def test_a_lead_within_the_searchs_noise_leaves_the_hint_on_the_learned_card() -> None:
    """Where another card shows a few more expected points than the learned card but the
    search cannot tell them apart, the hint keeps the learned card and says the other is
    about as good: it never follows the noise of a few hundred samples. Where the other
    card shows more points but wins the hand less often, the hint says that instead."""
    kept = 0
    for seen in _choices("classic2", 4):
        found = evaluate(seen, budget=BUDGET)
        most = max(found.values, key=lambda item: item[1])[0]
        learned = learned_action(seen)
        assert isinstance(learned, Play)
        if found.best == learned.card and most != found.best:
            kept += 1
            assert found.loss(most) == 0.0 and found.loss(found.best) == 0.0
            assert found.about_as_good(found.best)
            hint = explain(seen, found)
            if found.ahead(most) == "wins":
                assert found.utility(most) < found.utility(found.best)
                assert not found.about_as_good(most)
                assert explain(seen, found, most).key == "fewer_wins"
                assert most in hint.fewer_wins and hint.also != most
            else:
                assert found.about_as_good(most)
                assert explain(seen, found, most).key == "close"
                assert hint.also == most and most not in hint.fewer_wins
    assert kept >= 3, "no position where the learned card was kept against a noisy lead"


def test_a_swap_is_never_the_coachs_card() -> None:
    """With the briscola to swap, the coach still names a card to play (the swap is the
    player's own choice; the values are those of playing each card now)."""
    rules = Rules.preset("classic2", swap=True)
    views = (to_move(s) for deal in range(30) for s in positions(rules, deal, medium_action))
    seen = next((v for v in views if any(isinstance(a, Swap) for a in v.legal)), None)
    assert seen is not None
    found = evaluate(seen, budget=BUDGET)
    assert found.best in seen.hand
    assert sorted(c for c, _ in found.values) == sorted(seen.hand)


def test_cards_about_as_good_as_the_best_are_the_best_and_those_within_half_a_point() -> None:
    """What the hint calls "about as good", and what the Card values overlay highlights with
    the hint's card: a card the search values higher, or less than :data:`CLOSE` below."""
    cards = [Card.from_code(code) for code in ("KC", "7B", "3D", "2S")]
    found = Assessment(
        values=tuple(zip(cards, (58.9, 59.3, 57.3, 58.5), strict=True)),
        best=cards[0],
        exact=False,
        samples=300,
    )
    assert [found.about_as_good(card) for card in cards] == [True, True, False, True]
    assert CLOSE == 0.5 and found.loss(cards[3]) == pytest.approx(0.4)


def _three(utilities: tuple[float, ...] = (), signalled: bool = False) -> Assessment:
    """The Seven of hearts is the hint's card at 35.4 points; the Five of diamonds shows
    38.5, the Six of clubs 37.4 (a three-player position seen at the table)."""
    seven, five, six = (Card.from_code(code) for code in ("7C", "5D", "6B"))
    return Assessment(
        values=((seven, 35.4), (five, 38.5), (six, 37.4)),
        best=seven,
        exact=False,
        samples=200,
        utilities=utilities,
        signalled=signalled,
    )


def test_a_card_that_shows_more_points_but_wins_less_often_is_not_about_as_good() -> None:
    """Hard decides on its chances of winning the hand, the figures are points: a card that
    shows more points and wins less often is named as such, neither highlighted nor called
    about as good; one that also wins as often is within the search's noise."""
    seven, five, six = (card for card, _ in _three().values)
    found = _three(utilities=(0.40, 0.36, 0.41))
    assert [found.ahead(card) for card in (seven, five, six)] == ["", "wins", "noise"]
    assert [found.about_as_good(card) for card in (seven, five, six)] == [True, False, True]
    assert found.edge(five) == pytest.approx(3.1) and found.edge(seven) == 0.0
    assert found.wins_less() == (five,)
    assert found.runner_up() == six  # the card about as good, not the one of most points
    both = _three(utilities=(0.40, 0.36, 0.39))
    assert both.wins_less() == (five, six) and both.runner_up() is None


def test_a_card_that_goes_against_a_partners_signal_is_not_about_as_good() -> None:
    seven, five, _six = (card for card, _ in _three().values)
    found = _three(utilities=(0.40, 0.42, 0.41), signalled=True)
    assert found.ahead(five) == "signal" and not found.about_as_good(five)
    assert found.ahead(seven) == "" and found.about_as_good(seven)


def test_without_utilities_the_points_alone_compare_cards() -> None:
    """An assessment written by hand (or read from an older record) has no utilities: a
    card that shows more points is then within the noise, about as good, as before."""
    found = _three()
    assert all(found.about_as_good(card) for card, _ in found.values)
    assert found.wins_less() == ()
    with pytest.raises(ValueError, match="no utility"):
        found.utility(found.best)


@pytest.mark.parametrize(("preset", "deals"), [("classic2", 2), ("classic3", 2), ("teams4", 1)])
def test_the_review_never_grades_the_hints_card_as_a_loss(preset: str, deals: int) -> None:
    """The review grades a card against the coach's card, the one the hint named: playing
    the hint is always "best" and gives up nothing, even where another card shows more
    points; a card that shows more points but wins less often is "good", never "best"."""
    rules = Rules.preset(preset)
    for deal in range(deals):
        state = GameState.new(rules, random.Random(deal))
        while not state.is_terminal():
            state.apply(medium_action(to_move(state)))
        record = to_record(state)
        steps = decisions(record, 0)
        result = review(record, 0, budget=BUDGET)
        # Read back from JSON, the review is the one made (new reason fields included).
        assert Review.from_json(json.loads(json.dumps(result.to_json()))) == result
        for (seen, played), move in zip(steps, result.moves, strict=True):
            if move.verdict == "forced":
                continue
            found = evaluate(seen, budget=BUDGET)
            assert move.best == found.best
            if played == found.best:
                assert (move.loss, move.verdict) == (0.0, "best")
            elif found.ahead(played) in ("wins", "signal"):
                assert (move.loss, move.verdict) == (0.0, "good")
            else:
                assert move.loss == pytest.approx(found.loss(played), abs=0.01)
