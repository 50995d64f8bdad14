"""One test (or more) per rule line of ../shared/RULES.md."""

from __future__ import annotations

import random

import pytest
from enginehelp import play, stacked

from briscola.engine import (
    DECK,
    PASS,
    PRESETS,
    Bid,
    BriscolaTurned,
    Call,
    Card,
    Dealt,
    Drew,
    GameState,
    IllegalMoveError,
    Match,
    MatchFormat,
    PartnerRevealed,
    Play,
    Rank,
    Rules,
    Suit,
    Swap,
    cards_from_codes,
    view,
)
from briscola.engine.cards import POINTS, STRENGTH, STRENGTH_THREE_AS_THREE

C = Card.from_code


# ---------------------------------------------------------------- cards


def test_deck_has_forty_cards_four_suits_ten_ranks() -> None:
    assert len(DECK) == 40
    assert {c.suit for c in DECK} == set(Suit)
    assert {c.rank for c in DECK} == set(Rank)
    assert len({c.code for c in DECK}) == 40


def test_card_codes_round_trip() -> None:
    for card in DECK:
        assert Card.from_code(card.code) is card
        assert eval(repr(card)) is card
        assert Card.from_index(card.index) is card
    assert C("QB").rank is Rank.QUEEN and C("QB").suit is Suit.CLUBS


@pytest.mark.parametrize("bad", ["", "A", "ADX", "1D", "AX", "10D", None, 3])
def test_bad_card_codes_are_value_errors(bad: object) -> None:
    with pytest.raises(ValueError):
        Card.from_code(bad)  # type: ignore[arg-type]


def test_trick_order_ace_three_king_queen_jack_seven_to_two() -> None:
    order = [Rank.ACE, Rank.THREE, Rank.KING, Rank.QUEEN, Rank.JACK]
    order += [Rank.SEVEN, Rank.SIX, Rank.FIVE, Rank.FOUR, Rank.TWO]
    assert sorted(Rank, key=lambda r: -STRENGTH[r]) == order


def test_points_ace_11_three_10_king_4_queen_3_jack_2_others_0() -> None:
    assert POINTS[Rank.ACE] == 11 and POINTS[Rank.THREE] == 10
    assert POINTS[Rank.KING] == 4 and POINTS[Rank.QUEEN] == 3 and POINTS[Rank.JACK] == 2
    for rank in (Rank.TWO, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN):
        assert POINTS[rank] == 0


def test_each_suit_holds_30_points_and_the_deck_120() -> None:
    for suit in Suit:
        assert sum(c.points for c in DECK if c.suit is suit) == 30
    assert sum(c.points for c in DECK) == 120


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_configuration_counts_120_points(name: str) -> None:
    assert Rules.preset(name).total_points == 120


# ---------------------------------------------------------------- dealing


def test_deal_three_each_one_at_a_time_from_the_dealers_right() -> None:
    rules = Rules.preset("classic2")
    deck = list(DECK)
    state = GameState(rules, deck, dealer=0)
    # Seat 1 sits at the dealer's right: it gets the 1st, 3rd and 5th cards.
    assert state.hands[1] == [deck[0], deck[2], deck[4]]
    assert state.hands[0] == [deck[1], deck[3], deck[5]]
    dealt = [e for e in state.events if isinstance(e, Dealt)]
    assert [e.seat for e in dealt] == [1, 0, 1, 0, 1, 0]


def test_briscola_is_turned_after_the_deal_and_is_the_stocks_last_card() -> None:
    rules = Rules.preset("classic2")
    deck = list(DECK)
    state = GameState(rules, deck, dealer=1)
    assert state.briscola is deck[6]
    assert state.trump is deck[6].suit
    assert state.stock[-1] is deck[6]
    assert state.stock[:-1] == deck[7:]
    assert any(isinstance(e, BriscolaTurned) for e in state.events)


def test_player_to_the_dealers_right_leads_and_play_goes_counterclockwise() -> None:
    rules = Rules.preset("teams4")
    state = GameState.new(rules, random.Random(1), dealer=2)
    assert state.current_player == 3
    state.apply(state.legal_actions()[0])
    assert state.current_player == 0


@pytest.mark.parametrize(
    ("name", "removed", "deck_size"),
    [("classic3", 1, 39), ("teams6", 4, 36), ("classic2", 0, 40), ("chiamata5", 0, 40)],
)
def test_cards_removed_for_three_and_six_players(name: str, removed: int, deck_size: int) -> None:
    rules = Rules.preset(name)
    assert len(rules.removed) == removed and rules.deck_size == deck_size
    assert all(Card.from_code(code).rank is Rank.TWO for code in rules.removed)
    state = GameState.new(rules, random.Random(0))
    assert sum(len(h) for h in state.hands) + len(state.stock) == deck_size


# ---------------------------------------------------------------- tricks


def test_no_obligation_to_follow_suit() -> None:
    state = stacked(Rules.preset("classic2"), {1: "AS 2S 3S", 0: "4S 5D 6C"}, briscola="KB")
    play(state, "AS")
    assert {a.card.code for a in state.legal_actions() if isinstance(a, Play)} == {
        "4S",
        "5D",
        "6C",
    }
    play(state, "5D")  # a card of another suit may be played although seat 0 holds a sword


def test_highest_card_of_the_suit_led_wins_without_trumps() -> None:
    state = stacked(Rules.preset("classic2"), {1: "KS 2D 4D", 0: "3S 5D 6D"}, briscola="7B")
    play(state, "KS 3S")
    assert state.tricks[-1].winner == 0 and state.tricks[-1].points == 14


def test_a_card_of_another_non_trump_suit_never_wins() -> None:
    state = stacked(Rules.preset("classic2"), {1: "2S 4D 5D", 0: "AD 6D 7D"}, briscola="7B")
    play(state, "2S AD")
    assert state.tricks[-1].winner == 1


def test_any_trump_beats_the_suit_led_and_the_highest_trump_wins() -> None:
    rules = Rules.preset("teams4")
    state = stacked(
        rules,
        {1: "AS 4D 5D", 2: "2B 6D 7D", 3: "4B 4C 5C", 0: "3S 6C 7C"},
        dealer=0,
        briscola="KB",
    )
    play(state, "AS 2B 4B 3S")
    assert state.tricks[-1].winner == 3  # the 4 of trump beats the 2 of trump and the Ace led


def test_winner_draws_first_then_the_others_in_playing_order() -> None:
    rules = Rules.preset("classic3")
    state = stacked(
        rules,
        {1: "4S 4D 5D", 2: "AS 6D 7D", 0: "5S 6C 7C"},
        dealer=0,
        briscola="KB",
        stock="JD QD KD",
    )
    play(state, "4S AS 5S")
    drew = [e for e in state.events if isinstance(e, Drew)]
    assert [(e.seat, e.card) for e in drew] == [(2, C("JD")), (0, C("QD")), (1, C("KD"))]
    assert state.current_player == 2  # the winner leads the next trick


def test_last_card_drawn_is_the_briscola_and_the_trick_loser_takes_it() -> None:
    rules = Rules.preset("classic2")
    state = GameState.new(rules, random.Random(4))
    briscola = state.briscola
    while len(state.stock) > 2:
        state.apply(state.legal_actions()[0])
    before = len(state.tricks)
    while len(state.tricks) == before:
        state.apply(state.legal_actions()[0])
    last = state.tricks[-1]
    loser = 1 - last.winner
    assert briscola in state.hands[loser]
    drew = [e for e in state.events if isinstance(e, Drew)]
    assert drew[-1] == Drew(loser, briscola, True)
    assert not state.stock
    # After that no more cards are drawn; the hands are played out.
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert len([e for e in state.events if isinstance(e, Drew)]) == 34


def test_61_wins_and_60_60_is_a_draw() -> None:
    state = GameState.new(Rules.preset("classic2"), random.Random(9))
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    state.points = [61, 59]
    assert state.outcome().winner == 0 and state.outcome().returns == (1, -1)
    state.points = [60, 60]
    assert state.outcome().winner is None and state.outcome().returns == (0, 0)
    state.points = [59, 61]
    assert state.outcome().winner == 1


# ---------------------------------------------------------------- more players


def test_three_players_highest_score_wins_and_a_tie_at_the_top_is_a_draw() -> None:
    state = GameState.new(Rules.preset("classic3"), random.Random(2))
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    state.points = [50, 40, 30]
    assert state.outcome().winner == 0 and state.outcome().returns == (1, -1, -1)
    state.points = [45, 45, 30]
    result = state.outcome()
    assert result.winner is None and result.tied == (0, 1) and result.returns == (0, 0, -1)


@pytest.mark.parametrize(
    ("name", "teams"), [("teams4", ((0, 2), (1, 3))), ("teams6", ((0, 2, 4), (1, 3, 5)))]
)
def test_teams_sit_alternately_and_add_their_points(
    name: str, teams: tuple[tuple[int, ...], ...]
) -> None:
    rules = Rules.preset(name)
    assert rules.sides == teams
    state = GameState.new(rules, random.Random(3))
    while not state.is_terminal():
        state.apply(state.legal_actions()[-1])
    result = state.outcome()
    assert result.side_points == tuple(sum(state.points[s] for s in side) for side in teams)
    assert sum(result.side_points) == 120
    for side in teams:
        assert len({result.returns[s] for s in side}) == 1


def test_partners_may_see_each_others_hands_at_the_start() -> None:
    rules = Rules.preset("teams4", partners_see="start")
    state = GameState.new(rules, random.Random(5))
    start_hand = set(state.hands[2])
    assert view(state, 0).known[2] == start_hand
    assert view(state, 0).known[1] == frozenset()  # never an opponent's
    state2 = GameState.new(Rules.preset("teams4"), random.Random(5))
    assert view(state2, 0).known[2] == frozenset()


def test_partners_see_hands_once_the_stock_is_empty_option() -> None:
    rules = Rules.preset("teams4", partners_see="stock-empty")
    state = GameState.new(rules, random.Random(6))
    assert view(state, 1).known[3] == frozenset()
    while state.stock:
        state.apply(state.legal_actions()[0])
    assert view(state, 1).known[3] == frozenset(state.hands[3])
    assert view(state, 1).known[0] == frozenset()


def test_team_options_need_teams() -> None:
    with pytest.raises(ValueError, match="team games"):
        Rules.preset("classic2", partners_see="start")


# ---------------------------------------------------------------- chiamata


def _chiamata(seed: int = 1) -> GameState:
    return GameState.new(Rules.preset("chiamata5"), random.Random(seed), dealer=4)


def test_chiamata_deals_all_forty_cards_eight_each_no_briscola_no_stock() -> None:
    state = _chiamata()
    assert [len(h) for h in state.hands] == [8] * 5
    assert state.stock == [] and state.briscola is None and state.trump is None
    assert state.phase == "auction" and state.current_player == 0


def test_chiamata_bids_go_down_the_ranks_then_two_and_n_points() -> None:
    state = _chiamata()
    first = state.legal_actions()
    assert first[0] == Bid(Rank.ACE) and PASS in first
    state.apply(Bid(Rank.KING))
    ranks = {a.rank for a in state.legal_actions() if isinstance(a, Bid)}
    assert Rank.ACE not in ranks and Rank.THREE not in ranks and Rank.KING not in ranks
    with pytest.raises(IllegalMoveError):
        state.apply(Bid(Rank.ACE))
    state.apply(Bid(Rank.TWO))
    assert state.legal_actions()[0] == Bid(Rank.TWO, 62)
    state.apply(Bid(Rank.TWO, 70))
    with pytest.raises(IllegalMoveError):
        state.apply(Bid(Rank.TWO, 65))


def test_chiamata_a_player_who_passed_is_out_and_the_last_bidder_wins() -> None:
    state = _chiamata()
    state.apply(Bid(Rank.ACE))  # seat 0
    state.apply(PASS)  # seat 1 out
    state.apply(Bid(Rank.THREE))  # seat 2
    state.apply(PASS)  # 3
    state.apply(PASS)  # 4
    assert state.current_player == 0  # seat 1 is skipped from now on
    state.apply(Bid(Rank.KING))
    assert state.current_player == 2
    state.apply(PASS)
    assert state.phase == "call" and state.current_player == 0
    calls = state.legal_actions()
    assert calls == [Call(Card(Rank.KING, suit)) for suit in Suit]


def test_chiamata_if_four_pass_the_last_must_bid() -> None:
    state = _chiamata()
    for _ in range(4):
        state.apply(PASS)
    assert PASS not in state.legal_actions()
    with pytest.raises(IllegalMoveError):
        state.apply(PASS)


def _auction_won_by_seat0(state: GameState, rank: Rank = Rank.KING) -> None:
    state.apply(Bid(rank))
    for _ in range(4):
        state.apply(PASS)


def test_called_card_suit_is_trump_and_the_holder_is_a_secret_partner() -> None:
    state = _chiamata(3)
    _auction_won_by_seat0(state)
    target = next(c for c in DECK if c.rank is Rank.KING and c not in state.hands[0])
    holder = next(s for s, h in enumerate(state.hands) if target in h)
    state.apply(Call(target))
    assert state.trump is target.suit
    assert state.partner == holder
    for seat in range(5):
        expected = holder if seat == holder else None
        assert view(state, seat).partner == expected, seat
    # Revealed only when the called card is played.
    while target in state.hands[holder]:
        seat = state.current_player
        assert seat is not None
        action = Play(target) if seat == holder else state.legal_actions()[-1]
        if seat != holder and isinstance(action, Play) and action.card is target:
            action = state.legal_actions()[0]
        state.apply(action)
    assert PartnerRevealed(holder, False) in state.events
    assert all(view(state, seat).partner == holder for seat in range(5))


def test_chiamata_scoring_caller_two_partner_one_others_minus_one() -> None:
    state = _chiamata(3)
    _auction_won_by_seat0(state)
    target = next(c for c in DECK if c.rank is Rank.KING and c not in state.hands[0])
    state.apply(Call(target))
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    partner = state.partner
    assert partner is not None and partner != 0
    others = [s for s in range(5) if s not in (0, partner)]
    state.points = [40, 0, 0, 0, 0]
    state.points[partner] = 25
    state.points[others[0]] = 55
    result = state.outcome()  # 65 >= 61: caller's side wins
    assert result.winner == 0 and result.returns[0] == 2 and result.returns[partner] == 1
    assert all(result.returns[s] == -1 for s in others) and sum(result.returns) == 0
    state.points = [30, 0, 0, 0, 0]
    state.points[partner] = 30
    state.points[others[0]] = 60
    result = state.outcome()  # 60 < 61: the three win, signs flip
    assert result.winner == 1 and result.returns[0] == -2 and result.returns[partner] == -1
    state.points = [0] * 5
    state.points[others[0]] = 120
    result = state.outcome()  # cappotto doubles
    assert result.cappotto and result.returns[0] == -4 and result.returns[others[1]] == 2


def test_chiamata_the_bid_sets_the_target() -> None:
    state = _chiamata(3)
    state.apply(Bid(Rank.TWO, 80))
    for _ in range(4):
        state.apply(PASS)
    state.apply(state.legal_actions()[0])
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert state.outcome().target == 80


def test_chiamata_calling_a_card_in_ones_own_hand_plays_alone() -> None:
    state = _chiamata(3)
    own = next(c for c in state.hands[0])
    _auction_won_by_seat0(state, own.rank)
    state.apply(Call(own))
    assert state.partner == 0
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    result = state.outcome()
    assert result.sides[0] == (0,) and len(result.sides[1]) == 4
    assert abs(result.returns[0]) in (4, 8) and sum(result.returns) == 0


# ---------------------------------------------------------------- variants


def test_scoperta_the_top_of_the_stock_is_face_up() -> None:
    state = GameState.new(Rules.preset("scoperta2"), random.Random(8))
    for seat in (0, 1):
        assert view(state, seat).stock_top is state.stock[0]
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    top_drawn = next(e for e in state.events if isinstance(e, Drew))
    assert top_drawn.face_up
    assert top_drawn.card in view(state, 1 - top_drawn.seat).known[top_drawn.seat]


def test_classic_stock_top_is_hidden() -> None:
    state = GameState.new(Rules.preset("classic2"), random.Random(8))
    assert view(state, 0).stock_top is None


@pytest.mark.parametrize("name", ["briscolone2", "briscolone4"])
def test_briscolone_five_cards_no_trump(name: str) -> None:
    state = GameState.new(Rules.preset(name), random.Random(1))
    assert all(len(hand) == 5 for hand in state.hands)
    assert state.trump is None and state.briscola is None
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
        assert state.trump is None
    assert sum(state.points) == 120


def test_briscolone_must_follow_suit_when_able() -> None:
    rules = Rules.preset("briscolone2")
    state = stacked(rules, {1: "AS 2D 4D 5D 6D", 0: "3S 7C KC QC JC"})
    play(state, "AS")
    assert state.legal_actions() == [Play(C("3S"))]
    with pytest.raises(IllegalMoveError, match="follow suit"):
        state.apply(Play(C("7C")))
    play(state, "3S")
    # Without the suit led, anything goes, and the void is public until the next draw.
    rules4 = Rules.preset("briscolone4")
    state2 = stacked(rules4, {1: "AS 2D 4D 5D 6D", 2: "3D 7C KC QC JC"})
    play(state2, "AS")
    assert len(state2.legal_actions()) == 5
    play(state2, "7C")
    assert Suit.SWORDS in view(state2, 1).voids[2]
    while state2.tricks == []:
        state2.apply(state2.legal_actions()[0])
    assert view(state2, 1).voids[2] == frozenset()  # it drew a card: it may hold swords again


def test_three_ranked_as_three_is_beaten_by_the_four_but_counts_ten() -> None:
    assert STRENGTH_THREE_AS_THREE[Rank.FOUR] > STRENGTH_THREE_AS_THREE[Rank.THREE]
    assert STRENGTH_THREE_AS_THREE[Rank.TWO] < STRENGTH_THREE_AS_THREE[Rank.THREE]
    assert STRENGTH_THREE_AS_THREE[Rank.KING] < STRENGTH_THREE_AS_THREE[Rank.ACE]
    rules = Rules.preset("classic2", three_as_three=True)
    state = stacked(rules, {1: "3S 2D 4D", 0: "4S 5D 6D"}, briscola="7B")
    play(state, "3S 4S")
    assert state.tricks[-1].winner == 0 and state.tricks[-1].points == 10
    normal = stacked(Rules.preset("classic2"), {1: "3S 2D 4D", 0: "4S 5D 6D"}, briscola="7B")
    play(normal, "3S 4S")
    assert normal.tricks[-1].winner == 1


@pytest.mark.parametrize("face_up", ["JB", "QB", "KB", "AB", "3B"])
def test_swap_the_seven_of_trump_for_a_face_card_ace_or_three(face_up: str) -> None:
    rules = Rules.preset("classic2", swap=True)
    state = stacked(rules, {1: "7B 2D 4D", 0: "4S 5D 6D"}, briscola=face_up)
    assert Swap(C("7B")) in state.legal_actions()
    state.apply(Swap(C("7B")))
    assert C(face_up) in state.hands[1] and state.stock[-1] is C("7B")
    assert state.briscola is C("7B")
    assert C(face_up) in view(state, 0).known[1]  # everyone saw the swap


@pytest.mark.parametrize("face_up", ["4B", "5B", "6B", "7B"])
def test_swap_the_two_of_trump_for_a_four_to_seven(face_up: str) -> None:
    rules = Rules.preset("classic2", swap=True)
    state = stacked(rules, {1: "2B 2D 4D", 0: "4S 5D 6D"}, briscola=face_up)
    assert Swap(C("2B")) in state.legal_actions()
    state.apply(Swap(C("2B")))
    assert C(face_up) in state.hands[1]


@pytest.mark.parametrize(
    ("held", "face_up"), [("7B", "4B"), ("7B", "2B"), ("2B", "KB"), ("2B", "3B")]
)
def test_no_swap_outside_the_allowed_pairs(held: str, face_up: str) -> None:
    rules = Rules.preset("classic2", swap=True)
    state = stacked(rules, {1: f"{held} 2D 4D", 0: "4S 5D 6D"}, briscola=face_up)
    assert not any(isinstance(a, Swap) for a in state.legal_actions())
    with pytest.raises(IllegalMoveError):
        state.apply(Swap(C(held)))


def test_swap_only_when_the_option_is_on() -> None:
    state = stacked(Rules.preset("classic2"), {1: "7B 2D 4D", 0: "4S 5D 6D"}, briscola="AB")
    assert not any(isinstance(a, Swap) for a in state.legal_actions())
    with pytest.raises(IllegalMoveError, match="not allowed"):
        state.apply(Swap(C("7B")))


def test_swap_only_on_ones_own_turn() -> None:
    rules = Rules.preset("classic2", swap=True)
    state = stacked(rules, {1: "4D 2D 5C", 0: "7B 5D 6D"}, briscola="AB")
    assert state.current_player == 1
    with pytest.raises(IllegalMoveError):
        state.apply(Swap(C("7B")))
    play(state, "4D")
    assert Swap(C("7B")) in state.legal_actions()  # the follower may swap before playing


def test_swap_only_while_the_stock_has_cards() -> None:
    rules = Rules.preset("classic2", swap=True)
    state = GameState.new(rules, random.Random(11))
    while len(state.stock) > 1 or state.trick:
        state.apply(next(a for a in state.legal_actions() if isinstance(a, Play)))
    for seat in (0, 1):
        assert state.swap_card(seat) is None


def test_rules_that_cannot_swap_reject_the_option() -> None:
    with pytest.raises(ValueError, match="swap"):
        Rules.preset("briscolone2", swap=True)
    with pytest.raises(ValueError, match="swap"):
        Rules.preset("chiamata5", swap=True)


# ---------------------------------------------------------------- matches


def _play_hand(match: Match, rng: random.Random, points: list[int] | None = None) -> None:
    state = match.new_hand(rng)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    if points is not None:
        state.points = points
    match.finish_hand(state)


def test_best_of_three_first_side_to_two_wins_and_draws_count_for_nobody() -> None:
    match = Match(Rules.preset("classic2", match="best-of-3"))
    rng = random.Random(0)
    _play_hand(match, rng, [70, 50])
    _play_hand(match, rng, [60, 60])
    assert match.standing == [1, 0] and not match.is_over()
    _play_hand(match, rng, [40, 80])
    assert not match.is_over()
    _play_hand(match, rng, [61, 59])
    assert match.is_over() and match.winners() == (0,)


def test_first_to_n_hands() -> None:
    match = Match(Rules.preset("classic2", match="first-to-3"))
    rng = random.Random(0)
    for _ in range(2):
        _play_hand(match, rng, [70, 50])
    assert not match.is_over()
    _play_hand(match, rng, [70, 50])
    assert match.winners() == (0,)


def test_the_deal_passes_to_the_right_after_each_hand() -> None:
    match = Match(Rules.preset("classic3", match="first-to-9"), first_dealer=1)
    rng = random.Random(0)
    dealers = []
    for _ in range(4):
        dealers.append(match.dealer)
        _play_hand(match, rng)
    assert dealers == [1, 2, 0, 1]


def test_briscolone_points_match_to_121() -> None:
    match = Match(Rules.preset("briscolone2"))
    rng = random.Random(0)
    _play_hand(match, rng, [100, 20])
    assert not match.is_over()
    _play_hand(match, rng, [30, 90])
    assert match.standing == [130, 110] and match.winners() == (0,)


def test_match_json_round_trip() -> None:
    match = Match(Rules.preset("classic2", match="best-of-5"))
    _play_hand(match, random.Random(0))
    again = Match.from_json(match.to_json())
    assert again.to_json() == match.to_json()


# ---------------------------------------------------------------- rules values


@pytest.mark.parametrize("name", list(PRESETS))
def test_presets_round_trip_through_json(name: str) -> None:
    rules = Rules.preset(name)
    assert rules.name == name
    assert Rules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 7}, "players must be 2 to 6"),
        ({"players": 5}, "Chiamata"),
        ({"players": 4}, "teams"),
        ({"chiamata": True}, "five players"),
        ({"teams": True}, "teams are for 4 or 6"),
        ({"hand_size": 30}, "hand size"),
        ({"players": 4, "teams": True, "hand_size": 10}, "turned briscola needs a card left"),
        ({"scoperta": True, "players": 3, "removed": ("2D",)}, "two-player"),
        ({"removed": ("2D",)}, "evenly"),
        ({"removed": ("XX",)}, "invalid card code"),
        ({"match": "best-of-4"}, "odd"),
        ({"match": "hands-3"}, "Chiamata"),
        ({"colour": "red"}, "unknown rule option"),
    ],
)
def test_invalid_combinations_raise_clear_value_errors(
    options: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Rules.preset("classic2", **options)


def test_unknown_preset_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown preset"):
        Rules.preset("tressette")


def test_match_formats_parse_and_print() -> None:
    for text in ("single", "best-of-3", "best-of-5", "first-to-2", "points-121", "hands-5"):
        assert str(MatchFormat.parse(text)) == text
    with pytest.raises(ValueError):
        MatchFormat.parse("best-of-three")


def test_cards_from_codes_and_illegal_play_messages() -> None:
    state = stacked(Rules.preset("classic2"), {1: "AS 2D 4D", 0: "3S 5D 6D"}, briscola="7B")
    with pytest.raises(IllegalMoveError, match="does not hold"):
        state.apply(Play(C("3S")))
    with pytest.raises(IllegalMoveError, match="no auction"):
        state.apply(PASS)
    assert cards_from_codes("AS") == [C("AS")]
