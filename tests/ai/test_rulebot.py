"""The arena's independent rule player (``rules``), the auction swap (``bidder=``) and hard's
policy-based inference."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from enginehelp import CONFIGS, IDS, arena_figures, stacked

from briscola.ai.rulebot import AuctionSwap, RuleBot, auction_estimate
from briscola.ai.search import HardBot
from briscola.ai.search.core import SearchRules
from briscola.ai.search.inference import History
from briscola.ai.sparring import make_arena_bot
from briscola.arena import BotSpec
from briscola.engine import (
    PASS,
    Action,
    Bid,
    Call,
    Card,
    GameState,
    Play,
    Rules,
    Suit,
    cards_from_codes,
    view,
)


def _play(rules: Rules, seed: int, names: list[str]) -> list[Action]:
    state = GameState.new(rules, random.Random(seed), dealer=seed % rules.players)
    bots = [
        make_arena_bot(names[s % len(names)], random.Random(seed * 10 + s))
        for s in range(rules.players)
    ]
    moves: list[Action] = []
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        seen = view(state, seat)
        action = bots[seat].choose(seen)
        assert action in seen.legal, f"rules chose illegal {action} in {rules.name}"
        state.apply(action)
        moves.append(action)
    assert sum(state.points) == rules.total_points
    return moves


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
def test_the_rule_player_plays_only_legal_actions(rules: Rules) -> None:
    for seed in range(3):
        _play(rules, seed, ["rules", "medium"] if seed else ["rules"])


@pytest.mark.parametrize("preset", ["teams4", "chiamata5", "teams6"])
def test_the_rule_player_is_deterministic(preset: str) -> None:
    rules = Rules.preset(preset)
    assert _play(rules, 5, ["rules"]) == _play(rules, 5, ["rules"])


def _auction_view(codes: str, bids: int = 0) -> tuple[GameState, int]:
    """Seat 0 holds ``codes`` in a Chiamata deal; ``bids`` seats before it bid first."""
    rules = Rules.preset("chiamata5")
    state = stacked(rules, {0: codes}, dealer=4 - bids if bids else 4)
    for _ in range(bids):
        legal = [a for a in state.legal_actions() if isinstance(a, Bid)]
        state.apply(legal[0])
    assert state.current_player == 0
    return state, 0


def test_the_rule_player_bids_a_strong_hand_and_passes_a_weak_one() -> None:
    state, seat = _auction_view("AD 3D KD QD 7D AC 3C AS")
    assert isinstance(RuleBot().choose(view(state, seat)), Bid)
    state, seat = _auction_view("2D 4C 5S 6B 4D 5C 6S 2B")
    assert RuleBot().choose(view(state, seat)) == PASS


def test_the_last_rule_bidder_bids_when_all_others_passed() -> None:
    rules = Rules.preset("chiamata5")
    for seed in range(5):
        state = GameState.new(rules, random.Random(seed), dealer=0)
        for _ in range(4):
            state.apply(PASS)
        seen = view(state, state.current_player or 0)
        assert PASS not in seen.legal
        assert isinstance(RuleBot().choose(seen), Bid)


def test_the_rule_player_calls_a_card_of_its_rank_in_its_best_suit() -> None:
    rules = Rules.preset("chiamata5")
    called = 0
    for seed in range(30):
        state = GameState.new(rules, random.Random(seed))
        bots = [RuleBot(random.Random(s)) for s in range(5)]
        while state.phase != "play":
            seat = state.current_player
            assert seat is not None
            seen = view(state, seat)
            action = bots[seat].choose(seen)
            assert action in seen.legal
            if isinstance(action, Call):
                assert state.high_bid is not None
                assert action.card.rank == state.high_bid.rank
                value = auction_estimate(seen.hand, action.card.suit, action.card, rules.strength)
                assert value == max(
                    auction_estimate(seen.hand, s, Card(action.card.rank, s), rules.strength)
                    for s in Suit
                )
                if any(Card(action.card.rank, s) not in seen.hand for s in Suit):
                    assert action.card not in seen.hand  # never alone by choice
                called += 1
            state.apply(action)
    assert called == 30


def test_the_rule_player_loads_points_on_its_partners_sure_trick() -> None:
    rules = Rules.preset("teams4")
    hands = {3: "4C 5D 6D", 0: "AC 4B 5B", 1: "2C 6B 7B", 2: "3D 4D KC"}
    # Trump swords; seat 3 leads, seat 0 takes with the Ace of cups, seat 2 plays last: its
    # partner's trick is sure, so it loads the Three of coins.
    state = stacked(rules, hands, dealer=2, briscola="2S")
    for code in ("4C", "AC", "2C"):
        state.apply(Play(Card.from_code(code)))
    assert RuleBot().choose(view(state, 2)) == Play(Card.from_code("3D"))
    # Seat 2 with seat 3 still to play (it may trump): no load, the cheapest card.
    state = stacked(rules, hands, dealer=3, briscola="2S")
    for code in ("AC", "2C"):
        state.apply(Play(Card.from_code(code)))
    assert RuleBot().choose(view(state, 2)) == Play(Card.from_code("4D"))


def test_an_auction_swap_bids_like_its_bidder_and_plays_like_its_bot() -> None:
    rules = Rules.preset("chiamata5")
    state = GameState.new(rules, random.Random(3))
    seen = view(state, state.current_player or 0)
    swapped = make_arena_bot("random", random.Random(1), bidder="rules")
    assert isinstance(swapped, AuctionSwap)
    assert swapped.choose(seen) == RuleBot().choose(seen)
    with pytest.raises(ValueError, match="unknown bidder"):
        make_arena_bot("medium", bidder="nobody")
    assert BotSpec.parse("medium:bidder=rules").options == (("bidder", "rules"),)
    with pytest.raises(ValueError, match="unknown bot"):
        BotSpec.parse("grandmaster")


def test_the_rule_player_speaks_the_bot_protocol() -> None:
    rules = Rules.preset("teams4")
    state = GameState.new(rules, random.Random(2))
    seat = state.current_player or 0
    request = {"cmd": "act", "view": view(state, seat).to_json()}
    done = subprocess.run(
        [sys.executable, "-m", "briscola.bot", "--level", "rules"],
        input=json.dumps(request) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    answer = json.loads(done.stdout)
    assert answer == RuleBot().choose(view(state, seat)).to_json()


# ---------------------------------------------------------------------------- inference


def test_policy_inference_discounts_deals_that_contradict_the_play() -> None:
    """Seat 0 let the Ace of cups go with the 4 of clubs: a sample in which it held a
    worthless trump that takes the Ace is less likely than one in which it had none."""
    rules = Rules.preset("classic2")
    state = stacked(rules, {1: "AC 5B 6B", 0: "4B 2D 3D"}, dealer=0, briscola="KS")
    state.apply(Play(Card.from_code("AC")))
    state.apply(Play(Card.from_code("4B")))
    seen = view(state, 1)
    fast = SearchRules.make(2, False, int(Suit.SWORDS), 8, 0.0)
    history = History(seen, fast)
    assert len(history) == 1
    with_trump = [[c.index for c in cards_from_codes("2S 2D 3D")], []]
    without = [[c.index for c in cards_from_codes("7B 2D 3D")], []]
    side = (0, 1)
    # Which of its cards it drew after the trick is drawn at random: compare the means.
    odds_with = [history.likelihood(with_trump, side, random.Random(s)) for s in range(40)]
    odds_without = [history.likelihood(without, side, random.Random(s)) for s in range(40)]
    assert sum(odds_with) < 0.9 * sum(odds_without)
    assert all(0.0 < p <= 1.0 for p in odds_with + odds_without)


def test_hard_refuses_an_unknown_inference() -> None:
    with pytest.raises(ValueError, match="inference"):
        HardBot(random.Random(1), inference="psychic")


@pytest.mark.parametrize("inference", ["policy", "tricks"])
@pytest.mark.parametrize("preset", ["teams4", "chiamata5"])
def test_hard_with_each_inference_is_deterministic(inference: str, preset: str) -> None:
    rules = Rules.preset(preset)

    def moves() -> list[Action]:
        state = GameState.new(rules, random.Random(9))
        bots = [HardBot(random.Random(s), budget=300, inference=inference) for s in range(5)]
        out: list[Action] = []
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            seen = view(state, seat)
            action = bots[seat % len(bots)].choose(seen)
            assert action in seen.legal
            state.apply(action)
            out.append(action)
        return out

    assert moves() == moves()


def test_the_arena_reports_what_an_auction_won_is_worth(tmp_path: Path) -> None:
    figures = arena_figures(
        tmp_path, "--preset", "chiamata5", "--bots", "rules,medium:bidder=rules", "--deals", "3"
    )
    one, field = figures["bots"]
    assert one["caller_hands"] + one["other_hands"] == 15
    assert one["partner_hands"] <= one["other_hands"]
    for entry in (one, field):
        if entry["caller_hands"]:
            assert -8 <= entry["caller_match_points"] <= 8
            lo, hi = entry["caller_match_points_ci95"]
            assert lo <= entry["caller_match_points"] <= hi
    assert one["caller_hands"] + field["caller_hands"] == 15
