"""Hard's search made cheaper per work unit (issue 51) computes what it computed before: the
two-player policy's values as the term-by-term reference they were written from, the
policy's cards and the inference terms kept for positions met again changing no value, and
the former budgets kept for the sparring pool's hard."""

from __future__ import annotations

import random

import pytest

from briscola.ai.heuristic import (
    TIE_INDEX,
    TIE_STRENGTH,
    TRUMP_WORTH,
    briscola_draw_value,
    scoperta_top_value,
)
from briscola.ai.search import HardBot
from briscola.ai.search import hard as search_hard
from briscola.ai.search.core import (
    POINTS,
    SUIT,
    SUIT_MASK,
    Game,
    SearchRules,
    legal_cards,
    mask_of,
    play,
    points_in,
)
from briscola.ai.search.inference import History
from briscola.ai.search.rollout import HOLD_ODDS, RICH, _keep, values2
from briscola.ai.search.sampling import deal_of, sample_hands, sides_of
from briscola.engine import Rules
from tools.hard_bench import measure, positions


def reference_values2(game: Game, rules: SearchRules, options: list[int]) -> list[float]:
    """The two-player policy's values as they were computed before the card tables: each
    term of medium's evaluation per card, in order."""
    turn = game.turn
    hand = game.hands[turn]
    trump = rules.trump
    stock_n = len(game.stock)
    brisc = game.stock[0] if stock_n and rules.turned else -1
    h = len(game.hands[1 - turn])
    u = h + stock_n - (1 if brisc >= 0 else 0)
    adjust = top_value = 0.0
    out = ~(game.gone | mask_of(hand))
    unseen = out & ~(1 << brisc) if brisc >= 0 else out
    if brisc >= 0 and stock_n == 2:
        adjust = briscola_draw_value(rules.strength[brisc], POINTS[brisc])
    elif rules.scoperta and stock_n and game.stock[-1] >= 0:
        top = game.stock[-1]
        top_value = scoperta_top_value(POINTS[top], SUIT[top] == trump)
        unseen &= ~(1 << top)
        u -= 1
    led = game.trick[0] if game.trick else -1
    values: list[float] = []
    for c in options:
        s, suit, pts = rules.strength[c], SUIT[c], POINTS[c]
        higher = out & rules.higher[c]
        rich = out & RICH & SUIT_MASK[suit] != 0
        keep = _keep(len(hand), suit == trump, s, pts, higher != 0, rich)
        if led < 0:
            b = extra = 0
            if suit != trump or pts >= TRUMP_WORTH:
                beaters = higher & unseen
                b, extra = beaters.bit_count(), points_in(beaters, suit)
            if suit != trump and trump >= 0 and pts >= TRUMP_WORTH:
                trumps = unseen & SUIT_MASK[trump]
                b += trumps.bit_count()
                extra += points_in(trumps, trump)
            q = HOLD_ODDS[h][u][b] if b <= u else 1.0
            p_win = 1.0 - q
            value = p_win * pts - q * (pts + (extra / b if b else 0.0))
        else:
            total = pts + POINTS[led]
            p_win, value = (1.0, total) if rules.beats[led * 40 + c] else (0.0, -total)
        value -= keep
        if adjust > 0.0:
            value += (1.0 - 2.0 * p_win) * adjust
        value += (2.0 * p_win - 1.0) * top_value
        value -= TIE_STRENGTH * s + TIE_INDEX * c
        values.append(value)
    return values


@pytest.mark.parametrize(
    ("trump", "three", "follow", "scoperta"),
    [
        (1, False, False, False),
        (-1, False, False, False),
        (2, True, True, False),
        (0, False, False, True),
    ],
)
def test_policy_values_are_the_reference_ones(
    trump: int, three: bool, follow: bool, scoperta: bool
) -> None:
    rules = SearchRules.make(
        n=2,
        follow=follow,
        trump=trump,
        solve_at=0,
        epsilon=0.0,
        three_as_three=three,
        scoperta=scoperta,
    )
    rng = random.Random(trump * 7 + three + 2 * follow)
    compared = 0
    for _ in range(60):
        deck = list(range(40))
        rng.shuffle(deck)
        game = Game([deck[:3], deck[3:6]], deck[6:], [], 0, (0, 1), [0.0, 0.0], 0)
        while game.hands[game.turn]:
            options = legal_cards(game.hands[game.turn], game.trick, follow)
            assert values2(game, rules, options) == reference_values2(game, rules, options)
            compared += 1
            play(game, rng.choice(options), rules)
    assert compared == 60 * 40


def test_kept_choices_change_no_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """Near the end of the stock the search keeps the policy's card per position met; the
    same search without keeping them finds the same values, samples and move."""
    late = [v for v in positions(Rules.preset("classic2"), 200, 5) if 0 < v.stock_size <= 8]
    assert len(late) >= 6
    for i, seen in enumerate(late[:6]):
        found = {}
        for at in (-1, 40):
            monkeypatch.setattr(search_hard, "CHOICES_AT", at)
            bot = HardBot(random.Random(i), budget=6000)
            found[at] = (bot.choose(seen), bot.last_samples, bot.last_values)
        assert found[-1] == found[40]


def test_inference_terms_kept_are_those_computed_afresh() -> None:
    late = [v for v in positions(Rules.preset("classic2"), 120, 6) if v.tricks][:10]
    for seen in late:
        assert seen.trump is not None
        rules = SearchRules.make(n=2, follow=False, trump=int(seen.trump), solve_at=8, epsilon=0.05)
        deal = deal_of(seen)
        kept = History(seen, rules)
        rng = random.Random(3)
        for k in range(40):
            sampled = sample_hands(deal, rng)
            assert sampled is not None
            hands, _ = sampled
            side = sides_of(seen, -1)
            again = kept.likelihood(hands, side, random.Random(k))
            assert again == History(seen, rules).likelihood(hands, side, random.Random(k))


def test_the_pool_keeps_the_former_budget() -> None:
    assert search_hard.DEFAULT_BUDGET[2] == 70000
    assert HardBot()._budget(2) == 70000
    former = HardBot(former_budget=True)
    assert [former._budget(n) for n in (2, 3, 4)] == [28000, 20000, 30000]
    assert HardBot(budget=500, former_budget=True)._budget(2) == 500


def test_the_bench_digests_the_choices() -> None:
    """``tools/hard_bench.py``: the same positions and budget give the same digest; another
    budget, other values and another digest."""
    views = positions(Rules.preset("classic2"), 4, 2)
    assert all(len(v.legal) > 1 and v.phase == "play" for v in views)
    first = measure(views, 600, 1)
    assert len(first.times) == 4 and len(first.samples) == 4
    assert measure(views, 600, 1).digest == first.digest
    assert measure(views, 1200, 1).digest != first.digest
    assert "p95" in first.line()
