"""Computer players: legal moves in every configuration, determinism, no peeking at hidden
cards, the rules of thumb of medium, exact endgames of hard, Chiamata bidding."""

from __future__ import annotations

import itertools
import random
import time
from typing import Any

import pytest
from enginehelp import (
    CONFIGS,
    IDS,
    after_random_moves,
    positions,
    search_game,
    stacked,
    to_move,
)

from briscola.ai import BOT_NAMES, hint, make_bot
from briscola.ai.base import Bot
from briscola.ai.bidding import choose_bid, hand_value
from briscola.ai.medium import EasyBot, MediumBot, medium_action
from briscola.ai.search import HardBot
from briscola.engine import (
    PASS,
    PRESETS,
    Action,
    Bid,
    Call,
    Card,
    GameState,
    Play,
    PlayerView,
    Rank,
    Rules,
    Suit,
    Swap,
    cards_from_codes,
    determinize,
    view,
)
from briscola.engine.view import view_from_json

#: Small fixed budgets keep the search bots quick in tests.
FAST: dict[str, dict[str, Any]] = {"hard": {"budget": 250, "min_samples": 2}, "pimc": {"budget": 4}}


def bot(name: str, seed: int) -> Bot:
    return make_bot(name, random.Random(seed), **FAST.get(name, {}))


def play_game(rules: Rules, names: list[str], seed: int) -> tuple[GameState, list[Action]]:
    """Play one hand, checking that every choice is legal; returns the state and moves."""
    state = GameState.new(rules, random.Random(seed), dealer=seed % rules.players)
    bots = [bot(names[s % len(names)], seed * 10 + s) for s in range(rules.players)]
    moves: list[Action] = []
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        seen = view(state, seat)
        action = bots[seat].choose(seen)
        assert action in seen.legal, f"{bots[seat].name} chose illegal {action} in {rules.name}"
        state.apply(action)
        moves.append(action)
    return state, moves


# ---------------------------------------------------------------------------- every preset


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
def test_every_bot_plays_only_legal_actions(rules: Rules) -> None:
    names = list(BOT_NAMES)
    for seed in range(2):
        state, _ = play_game(rules, names[seed:] + names[:seed], seed)
        assert sum(state.points) == rules.total_points


@pytest.mark.parametrize("name", ["easy", "medium", "random"])
@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
def test_rule_bots_many_games(rules: Rules, name: str) -> None:
    for seed in range(6):
        play_game(rules, [name, "random"], 100 + seed)


def test_make_bot_rejects_unknown_names() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster", random.Random(1))
    for name in BOT_NAMES:
        assert make_bot(name, random.Random(1)).name == name


def test_bot_refuses_a_view_where_it_is_not_its_turn() -> None:
    state = GameState.new(Rules.preset("classic2"), random.Random(3))
    other = 1 - (state.current_player or 0)
    for name in BOT_NAMES:
        with pytest.raises(ValueError):
            bot(name, 1).choose(view(state, other))


# ---------------------------------------------------------------------------- determinism


@pytest.mark.parametrize("name", BOT_NAMES)
@pytest.mark.parametrize("preset", ["classic2", "teams4", "chiamata5"])
def test_same_seed_same_moves(name: str, preset: str) -> None:
    rules = Rules.preset(preset)
    first = play_game(rules, [name], 7)[1]
    second = play_game(rules, [name], 7)[1]
    assert first == second


def test_hard_default_budget_is_deterministic() -> None:
    state = GameState.new(Rules.preset("classic2"), random.Random(11))
    seen = view(state, state.current_player or 0)
    choices = {HardBot(random.Random(5), budget=2000).choose(seen) for _ in range(3)}
    assert len(choices) == 1


def _chiamata_after_the_auction(seed: int) -> GameState:
    """A Chiamata deal (shuffled with ``seed``) whose auction the medium bot bid for every
    seat."""
    state = GameState.new(Rules.preset("chiamata5"), random.Random(seed))
    while state.phase != "play":
        state.apply(medium_action(to_move(state)))
    return state


def test_hard_respects_a_time_limit() -> None:
    state = _chiamata_after_the_auction(2)
    seat = state.current_player
    assert seat is not None
    hard = HardBot(random.Random(1), time_limit=0.05, budget=10**9)
    start = time.perf_counter()
    assert hard.choose(view(state, seat)) in state.legal_actions()
    assert time.perf_counter() - start < 1.0


# ---------------------------------------------------------------------------- no peeking


def _poison(state: GameState) -> None:
    """Make a real state unusable: any bot that touched it would fail."""
    for name in ("hands", "stock", "trick", "trick_seats", "piles", "known", "voids", "deck"):
        setattr(state, name, None)


@pytest.mark.parametrize("preset", ["classic2", "teams4", "chiamata5", "briscolone2"])
def test_bots_choose_from_the_view_alone(preset: str) -> None:
    """A bot gets a view; the real state can be destroyed and it still plays the same."""
    rules = Rules.preset(preset)
    for seed in range(3):
        state = after_random_moves(rules, seed, 12)
        seen = to_move(state)
        expected = {name: bot(name, 3).choose(seen) for name in BOT_NAMES}
        _poison(state)
        for name in BOT_NAMES:
            assert bot(name, 3).choose(seen) == expected[name]
            # And from the view's JSON alone (what a protocol bot gets).
            assert bot(name, 3).choose(view_from_json(seen.to_json())) == expected[name]


@pytest.mark.parametrize("preset", ["classic2", "scoperta2", "teams4", "classic3", "chiamata5"])
def test_hidden_cards_do_not_change_the_choice(preset: str) -> None:
    """Two real games that agree on everything one seat sees but differ in the hidden cards
    (other hands and the stock) get the same move from every bot."""
    rules = Rules.preset(preset)
    checked = 0
    for seed in range(8):
        state = after_random_moves(rules, seed, 16, moves_seed=seed + 100)
        if state.phase != "play":
            continue
        seat = state.current_player
        assert seat is not None
        seen = view(state, seat)
        other = determinize(seen, random.Random(seed + 7))
        if other.hands == state.hands and other.stock == state.stock:
            continue
        assert view(other, seat) == seen
        for name in BOT_NAMES:
            assert bot(name, 4).choose(view(state, seat)) == bot(name, 4).choose(view(other, seat))
        checked += 1
    assert checked >= 3


# ---------------------------------------------------------------------------- medium's rules


def _medium(state: GameState) -> Action:
    return MediumBot(random.Random(1)).choose(to_move(state))


def test_medium_takes_an_ace_with_a_low_trump() -> None:
    rules = Rules.preset("classic2")
    # Seat 1 leads the Ace of cups; seat 0 holds a low trump (coins) and two lisci.
    state = stacked(rules, {1: "AC 4S 5S", 0: "2D 4B 6S"}, dealer=0, briscola="KD")
    state.apply(Play(Card.from_code("AC")))
    assert _medium(state) == Play(Card.from_code("2D"))


def test_medium_does_not_trump_a_jack() -> None:
    rules = Rules.preset("classic2")
    state = stacked(rules, {1: "JC 4S 5S", 0: "2D 4B 6S"}, dealer=0, briscola="KD")
    state.apply(Play(Card.from_code("JC")))
    assert _medium(state) == Play(Card.from_code("4B"))


def test_medium_leads_a_liscio() -> None:
    rules = Rules.preset("classic2")
    state = stacked(rules, {1: "AC 4B KD", 0: "2S 5S 6S"}, dealer=0, briscola="JD")
    assert _medium(state) == Play(Card.from_code("4B"))


def test_medium_loads_points_on_its_partners_sure_trick() -> None:
    rules = Rules.preset("teams4")
    # Seats 1, 2, 3, 0 play in turn. Seat 1 leads the Ace of trump (coins), which nothing
    # beats; its partner, seat 3, loads its Ace of cups on it.
    state = stacked(
        rules,
        {1: "AD 4S 5S", 2: "2S 6S 7S", 3: "AC 4B 5B", 0: "2B 6B 7B"},
        dealer=0,
        briscola="JD",
    )
    state.apply(Play(Card.from_code("AD")))
    state.apply(Play(Card.from_code("2S")))
    assert _medium(state) == Play(Card.from_code("AC"))


def test_medium_swaps_when_it_gains() -> None:
    rules = Rules.preset("classic2", swap=True)
    state = stacked(rules, {1: "7D 4B 5S", 0: "2S 5B 6S"}, dealer=0, briscola="AD")
    assert _medium(state) == Swap(Card.from_code("7D"))


def test_hint_is_medium() -> None:
    for preset in ("teams4", "chiamata5", "classic3"):
        for seed in range(10):
            state = GameState.new(Rules.preset(preset), random.Random(seed))
            while state.phase != "play":  # (the Chiamata auction and call)
                state.apply(medium_action(view(state, state.current_player or 0)))
            seen = view(state, state.current_player or 0)
            assert hint(seen) == make_bot("medium", random.Random(0)).choose(seen)
            assert hint(seen) in seen.legal


def test_easy_is_a_beginner_but_sensible() -> None:
    """Easy keeps medium's habits most of the time but slips now and then."""
    same = differ = 0
    for seed in range(30):
        seen = to_move(after_random_moves(Rules.preset("classic2"), seed, 20))
        if len(seen.legal) < 2:
            continue
        if bot("easy", seed).choose(seen) == medium_action(seen):
            same += 1
        else:
            differ += 1
    assert same > differ > 0


def test_easy_slips_less_as_the_cards_thin_out() -> None:
    """A beginner errs most in the first tricks, where the choice is widest and least clear,
    and less as the hand goes on: easy's slips (high cards thrown away, trumps wasted, a
    card at random) come at :attr:`EasyBot.SLIP_FIRST` on a full deck, falling with every
    card played to :attr:`EasyBot.SLIP_LAST`."""
    for preset in ("classic2", "teams4", "chiamata5", "briscolone2"):
        chances: list[float] = []
        for state in positions(Rules.preset(preset), 1, medium_action):
            seen = to_move(state)
            if seen.phase == "play":
                chances.append(EasyBot.slip_chance(seen))
        assert chances[0] == pytest.approx(EasyBot.SLIP_FIRST)
        assert all(a >= b for a, b in itertools.pairwise(chances)), preset
        assert EasyBot.SLIP_LAST <= chances[-1] < 0.2
    # In play: easy leaves medium's careless card more often in the first trick than once
    # the stock is gone (the same 300 deals, two-player hands played by medium).
    slipped = {True: 0, False: 0}
    for seed in range(300):
        state = GameState.new(Rules.preset("classic2"), random.Random(seed))
        for first in (True, False):
            while not first and state.stock:
                state.apply(medium_action(to_move(state)))
            seen = to_move(state)
            careless = medium_action(seen, careless=True, counting=False)
            slipped[first] += bot("easy", seed).choose(seen) != careless
    assert slipped[True] > slipped[False] + 25, slipped  # (86 and 38; at a fixed 0.3: 60, 55)


# ---------------------------------------------------------------------------- Chiamata


def _auction_view(hand: str, bids: list[tuple[int, Bid | None]] | None = None) -> PlayerView:
    """Seat 1 (first to speak) holding ``hand`` in a fresh Chiamata deal."""
    rules = Rules.preset("chiamata5")
    cards = cards_from_codes(hand)
    rest = [c for c in rules.deck if c not in cards]
    hands = {1: " ".join(c.code for c in cards)}
    for seat in (2, 3, 4, 0):
        hands[seat] = " ".join(c.code for c in rest[:8])
        rest = rest[8:]
    state = stacked(rules, hands, dealer=0)
    for _seat, bid in bids or []:
        state.apply(bid if bid is not None else PASS)
    seat = state.current_player
    assert seat is not None
    return view(state, seat)


def test_chiamata_strong_hand_bids_weak_hand_passes() -> None:
    strong = _auction_view("AD 3D KD QD 7D AC 3C AS")
    assert isinstance(choose_bid(strong), Bid)
    weak = _auction_view("2D 4C 5S 6B 4D 5C 6S 2B")
    assert choose_bid(weak) == PASS


def test_chiamata_call_is_not_in_own_hand() -> None:
    rules = Rules.preset("chiamata5")
    for seed in range(20):
        state = GameState.new(rules, random.Random(seed))
        while state.phase != "play":
            seat = state.current_player
            assert seat is not None
            seen = view(state, seat)
            action = medium_action(seen)
            if isinstance(action, Call):
                strongest = max(
                    hand_value(seen.hand, s, Card(action.card.rank, s), rules.strength)
                    for s in Suit
                )
                assert hand_value(
                    seen.hand, action.card.suit, action.card, rules.strength
                ) == pytest.approx(strongest)
                if any(Card(action.card.rank, s) not in seen.hand for s in Suit):
                    assert action.card not in seen.hand
            state.apply(action)


def test_chiamata_medium_caller_side_wins_often() -> None:
    """Medium's bids are sound: the caller's side wins most hands among medium players."""
    rules = Rules.preset("chiamata5")
    wins = hands = 0
    for seed in range(30):
        state, _ = play_game(rules, ["medium"], 300 + seed)
        result = state.outcome()
        hands += 1
        wins += result.winner == 0
    assert wins / hands >= 0.5


# ---------------------------------------------------------------------------- hard's search


def _minimax(state: GameState, seat: int) -> int:
    """Exact final points of ``seat`` with perfect play by both (two players)."""
    if state.is_terminal():
        return state.points[seat]
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        values.append(_minimax(child, seat))
    return max(values) if state.current_player == seat else min(values)


def test_hard_plays_the_two_player_endgame_perfectly() -> None:
    rules = Rules.preset("classic2")
    checked = 0
    for seed in range(40):
        state = GameState.new(rules, random.Random(seed))
        rng = random.Random(seed)
        while state.stock or rng.random() < 0.3:
            state.apply(rng.choice(state.legal_actions()))
        seat = state.current_player
        if seat is None or len(state.legal_actions()) < 2:
            continue
        best = _minimax(state, seat)
        action = HardBot(random.Random(1)).choose(view(state, seat))
        # Nothing is hidden: hard solves the position and reaches the best final score.
        assert _minimax(_after(state, action), seat) == best
        checked += 1
    assert checked >= 10


def test_hard_searches_every_order_of_a_scoperta_stock_once_the_hands_are_known() -> None:
    # In Scoperta every card drawn is seen: the other hand is often all known while the
    # face-down stock still hides its order. One sample would take one order for the truth.
    from math import factorial

    from briscola.ai.search.sampling import deal_of

    rules = Rules.preset("scoperta2")
    few = many = 0
    for seed in range(12):
        state = GameState.new(rules, random.Random(seed))
        rng = random.Random(seed)
        checked: set[bool] = set()
        while state.stock:
            seen = to_move(state)
            deal = deal_of(seen)
            hidden = deal.stock_hidden
            known = deal.needs[1 - seen.seat] == 0 and hidden >= 2 and len(seen.legal) >= 2
            if known and (hidden <= 4) not in checked:
                found = HardBot(random.Random(1), budget=3000).evaluate(seen)
                if hidden <= 4:  # every order, each once
                    assert found.exact and found.samples == factorial(hidden)
                    few += 1
                else:
                    assert not found.exact and found.samples >= 8
                    many += 1
                checked.add(hidden <= 4)
            state.apply(rng.choice(state.legal_actions()))
    assert few >= 3 and many >= 3


def _after(state: GameState, action: Action) -> GameState:
    child = state.clone()
    child.apply(action)
    return child


def test_hard_beats_nothing_illegal_with_swaps() -> None:
    rules = Rules.preset("classic2", swap=True)
    for seed, (a, b) in enumerate(itertools.product(["hard"], ["medium", "random"])):
        play_game(rules, [a, b], 500 + seed)


def test_a_kept_two_player_ending_is_worth_what_solving_it_again_is() -> None:
    """One search keeps the endings it solved (``finish``'s ``endings``, for one trump): a
    sample that meets one again, its cards in another order, ends with the same points."""
    from briscola.ai.search.core import Game, SearchRules
    from briscola.ai.search.rollout import finish

    rng = random.Random(8)
    for _ in range(80):
        endings: dict[tuple[tuple[int, ...], tuple[int, ...], bool], int] = {}
        cards = rng.sample(range(40), 6)
        rules = SearchRules.make(2, False, rng.randrange(4), 8, 0.0)
        a, b = cards[:3], cards[3:]
        alone = Game([list(a), list(b)], [], [], 0, (0, 1), [10.0, 20.0], 0)
        finish(alone, rules, random.Random(0), 0)
        for _ in range(2):
            rng.shuffle(a)
            rng.shuffle(b)
            kept = Game([list(a), list(b)], [], [], 0, (0, 1), [10.0, 20.0], 0)
            finish(kept, rules, random.Random(0), 0, endings=endings)
            assert kept.points == alone.points
        assert len(endings) == 1


def test_solvers_agree_with_brute_force() -> None:
    """The two-player endgame solver and the general one (stock, tricks in progress, more
    players) against plain minimax over engine states."""
    from briscola.ai.search.core import Game, SearchRules
    from briscola.ai.search.solver import solve, solve2

    rng = random.Random(5)
    for _ in range(60):
        cards = rng.sample(range(40), 6)
        trump = rng.randrange(4)
        rules = SearchRules.make(2, False, trump, 8, 0.0)
        a, b = cards[:3], cards[3:]
        fast, _ = solve2(tuple(a), tuple(b), True, rules.beats)
        game = Game([list(a), list(b)], [], [], 0, (0, 1), [0, 0], 0)
        general, _ = solve(game, rules, 0)
        assert fast == general
    # Through the last draws of the stock, against the engine.
    rules_2 = Rules.preset("classic2")
    for seed in range(12):
        state = GameState.new(rules_2, random.Random(seed))
        play = random.Random(seed)
        while len(state.stock) > 2:
            state.apply(play.choice(state.legal_actions()))
        seat = state.current_player
        assert seat is not None
        game = search_game(state)
        trump = int(state.trump or 0)
        fast_rules = SearchRules.make(2, False, trump, 8, 0.0)
        value, _ = solve(game, fast_rules, seat)
        assert value + state.points[seat] == _minimax(state, seat)


def test_chiamata_partner_is_inferred_from_a_load() -> None:
    """A seat that throws an Ace on the caller's winning trick is probably the partner; one
    that takes a rich trick from the caller probably is not."""
    import dataclasses

    from briscola.ai.knowledge import partner_probabilities, teammate_weights
    from briscola.engine import Trick

    for seed in range(30):
        state = _chiamata_after_the_auction(seed)
        caller, trump = state.caller, state.trump
        assert caller is not None and trump is not None
        if state.partner == caller:
            continue
        seen = view(state, caller)
        others = [s for s in range(5) if s != caller]
        # A trick led by the caller with the Ace of trump (synthetic: only the inference
        # reads it): the next seat loads the Ace of a side suit, the one after plays low.
        side = next(s for s in Suit if s is not trump)
        cards = (Card(Rank.ACE, trump), Card(Rank.ACE, side), Card(Rank.TWO, side))
        seats = (caller, others[0], others[1])
        trick = Trick(seats, cards, caller, 22)
        table = tuple(zip(seats, cards, strict=True))
        probs = partner_probabilities(dataclasses.replace(seen, tricks=(), table=table))
        assert probs[others[0]] > probs[others[1]]
        assert sum(probs) == pytest.approx(1.0)
        assert trick.points == 22
        weights = teammate_weights(seen)
        assert weights[caller] == 1.0 and all(0.0 <= w <= 1.0 for w in weights)
        return
    pytest.fail("no deal with a partner")


def test_secret_partner_keeps_the_called_card_back() -> None:
    """Early in the hand the secret partner does not lead the called card for nothing."""
    kept = 0
    for seed in range(40):
        state = _chiamata_after_the_auction(seed)
        partner, called = state.partner, state.called
        if partner is None or partner == state.caller or state.current_player != partner:
            continue
        action = medium_action(view(state, partner))
        assert action != Play(called) or len(state.hands[partner]) <= 2
        kept += 1
    assert kept >= 1


def test_inference_discounts_deals_that_contradict_the_play() -> None:
    """The opponent let an Ace go by: samples where it held a low trump are less likely."""
    from briscola.ai.search.core import SearchRules
    from briscola.ai.search.sampling import likelihood

    rules = Rules.preset("classic2")
    # Seat 1 leads the Ace of cups; seat 0 discards the 4 of clubs; trump is swords.
    state = stacked(rules, {1: "AC 5B 6B", 0: "4B 2D 3D"}, dealer=0, briscola="KS")
    state.apply(Play(Card.from_code("AC")))
    state.apply(Play(Card.from_code("4B")))
    assert state.current_player == 1  # seat 1 won the trick and leads
    seen = view(state, 1)
    trump = int(Suit.SWORDS)
    fast = SearchRules.make(2, False, trump, 8, 0.0)
    # Samples of seat 0's hand (what seat 1 cannot see).
    hands_with_trump = [[Card.from_code(c).index for c in ("2S", "2D", "3D")], []]
    hands_without = [[Card.from_code(c).index for c in ("7B", "2D", "3D")], []]
    assert likelihood(seen, hands_with_trump, fast) < likelihood(seen, hands_without, fast)


def test_search_bots_make_the_frozen_seeded_decisions() -> None:
    """200 seeded positions: hard's and pimc's choices, and hard's value of every line, are
    those frozen before ``ai/search`` became a package (tests/aigolden.py regenerates them
    for a deliberate change of strength)."""
    import json

    from aigolden import GOLDEN, decisions

    frozen = json.loads(GOLDEN.read_text())
    now = decisions()
    changed = [f"seed {a['seed']}: {a} != {b}" for a, b in zip(now, frozen, strict=True) if a != b]
    assert not changed, "\n".join(changed[:5])


def _policy_choice(state: GameState) -> Card:
    """The search's rollout policy on the true state (it reads only the hand of the seat to
    move and the cards played), without rollout randomness."""
    from briscola.ai.search.core import SearchRules
    from briscola.ai.search.rollout import policy2, policy_n

    rules = state.rules
    n = rules.players
    trump = int(state.trump) if state.trump is not None else -1
    fast = SearchRules.make(
        n,
        rules.follow_suit,
        trump,
        solve_at=0,
        epsilon=0.0,
        three_as_three=rules.three_as_three,
        turned=rules.turned_briscola,
        alternating=n == 2 or rules.teams,
        scoperta=rules.scoperta,
    )
    game = search_game(state)
    policy = policy2 if n == 2 else policy_n
    return Card.from_index(policy(game, fast, random.Random(0)))


@pytest.mark.parametrize("preset", [name for name, rules in PRESETS.items() if not rules.chiamata])
def test_rollout_policy_plays_mediums_card_as_the_last_seat_of_a_trick(preset: str) -> None:
    """Playing last to a trick (nothing left to fear from later seats), the rollout policy
    and medium score the cards with the same weights and pick the same one; also with the
    face-up briscola about to be drawn, with Scoperta's face-up top card, and with three as
    three."""
    compared = 0
    for seed in range(40):
        rules = Rules.preset(preset, three_as_three=seed % 3 == 0)
        rng = random.Random(seed)
        state = GameState.new(rules, rng, dealer=seed % rules.players)
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            seen = view(state, seat)
            plays = [a for a in seen.legal if isinstance(a, Play)]
            if (
                len(state.trick) == rules.players - 1
                and len(plays) > 1
                and len(plays) == len(seen.legal)
            ):
                assert Play(_policy_choice(state)) == medium_action(seen), (seed, str(seen.hand))
                compared += 1
            if rng.random() < 0.3:
                state.apply(rng.choice(seen.legal))
            else:
                state.apply(medium_action(seen))
    assert compared >= 100


def test_hard_s_veto_keeps_the_learned_card_everywhere_but_in_chiamata() -> None:
    from briscola.ai.search import HardBot
    from briscola.ai.search.hard import TEAM_VETO, TWO_PLAYER_VETO

    hard = HardBot(random.Random(0))
    assert hard.veto(Rules.preset("teams4")) == TEAM_VETO == ("learned", 2.0)
    assert hard.veto(Rules.preset("teams6")) == TEAM_VETO
    assert hard.veto(Rules.preset("classic2")) == TWO_PLAYER_VETO == ("learned", 1.0)
    # Briscolone for two, where all must follow suit: the search leans on the network.
    assert hard.veto(Rules.preset("briscolone2")) == TEAM_VETO
    assert hard.veto(Rules.preset("briscolone4")) == TEAM_VETO
    # Three players: as in team games (docs/ai.md, *Three players*).
    assert hard.veto(Rules.preset("classic3")) == TEAM_VETO
    assert hard.veto(Rules.preset("chiamata5")) == ("medium", 1.0)
    # As set, the one given (an arena spec such as ``hard:prior=learned`` reads as before).
    assert HardBot(prior="learned").veto(Rules.preset("classic3")) == ("learned", 1.0)
    assert HardBot(prior="medium").veto(Rules.preset("teams4")) == ("medium", 1.0)
    assert HardBot(confidence=0).veto(Rules.preset("teams4")) == ("learned", 0)


def test_hard_weighs_samples_by_the_others_policy_with_two_players_and_in_teams() -> None:
    from briscola.ai.search import HardBot

    hard = HardBot(random.Random(0))
    for preset in ("classic2", "scoperta2", "teams4", "teams6"):
        assert hard.inference_for(Rules.preset(preset)) == "policy"
    for preset in ("briscolone2", "briscolone4", "classic3", "chiamata5"):
        assert hard.inference_for(Rules.preset(preset)) == "tricks"
    # As set, the one given.
    assert HardBot(inference="tricks").inference_for(Rules.preset("classic2")) == "tricks"
    assert HardBot(inference=True).inference_for(Rules.preset("classic2")) == "tricks"
    assert HardBot(inference=False).inference_for(Rules.preset("classic2")) is None
    assert HardBot(inference="policy").inference_for(Rules.preset("teams4")) == "policy"
