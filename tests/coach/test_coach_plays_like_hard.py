"""The coach names the card the hard player would play: the learned evaluation's card (hard's
default move) unless the search shows a clear gain elsewhere, not the card of the most
expected points whatever the search's noise. So a hint is as strong as hard (docs/ai.md,
*The coach*: the regret of its card against a long search is hard's, 0.0032, where the card
of the most points had 0.0071)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from enginehelp import positions, to_move

from briscola.ai.learned import learned_action
from briscola.ai.medium import medium_action
from briscola.ai.search import HardBot
from briscola.coach import CLOSE, Assessment, evaluate, explain, position_seed
from briscola.engine import Card, Play, PlayerView, Rules, Swap

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
    about as good: it never follows the noise of a few hundred samples."""
    kept = 0
    for seen in _choices("classic2", 4):
        found = evaluate(seen, budget=BUDGET)
        most = max(found.values, key=lambda item: item[1])[0]
        learned = learned_action(seen)
        assert isinstance(learned, Play)
        if found.best == learned.card and most != found.best:
            kept += 1
            assert found.loss(most) == 0.0 and found.loss(found.best) == 0.0
            assert found.about_as_good(most) and found.about_as_good(found.best)
            assert explain(seen, found, most).key == "close"
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
