"""The hint and the review agree (one evaluation of a position serves both), and every hint
gives a reason a player can learn from: what the card takes or saves, what it keeps for
later, what is still out."""

from __future__ import annotations

import json
import random

import pytest
from enginehelp import positions, stacked, to_move

from briscola.ai.medium import medium_action
from briscola.coach import REASONS, Assessment, Reason, evaluate, explain, review
from briscola.coach.review import COSTLY, GOOD, decisions, verdict
from briscola.engine import Card, GameState, Play, PlayerView, Rules, to_record, view
from briscola.text.coachtext import reason_text

#: Small budgets keep these quick: the agreement holds at any budget.
BUDGET = 600
#: Reasons that say no more than "the search likes it" (or "another is as good"): the
#: review may still use them for older records, a hint never.
VAGUE = {"best", "close", "worse"}


def _medium_record(preset: str, seed: int) -> dict[str, object]:
    state = GameState.new(Rules.preset(preset), random.Random(seed))
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        state.apply(medium_action(view(state, seat)))
    return to_record(state)


def test_the_hint_and_the_review_give_the_same_values_for_the_same_position() -> None:
    record = _medium_record("classic2", 7)
    result = review(record, 0, budget=BUDGET)
    steps = decisions(record, 0)
    assert len(steps) == len(result.moves) == 20
    compared = 0
    for (seen, _played), move in zip(steps, result.moves, strict=True):
        if move.verdict == "forced":
            continue
        hint = evaluate(seen, budget=BUDGET)  # what the table's hint computes
        assert {c: round(v, 2) for c, v in hint.values} == dict(move.values)
        assert hint.best == move.best
        reason = explain(seen, hint)
        if reason.also is not None:
            # "About as good" in the hint is never a costly verdict in the review, which
            # grades a card against the coach's card (a card that only seems better, or
            # shows more points but wins less often, is not the yardstick).
            values = dict(move.values)
            assert verdict(max(0.0, values[move.best] - values[reason.also])) not in COSTLY
            assert values[move.best] - values[reason.also] < GOOD
        compared += 1
    assert compared >= 10


def _trumped(hand: str) -> PlayerView:
    """Classic2, seat 1 leads the Seven of swords (trumps): seat 0, holding ``hand``,
    cannot take the trick."""
    rules = Rules.preset("classic2")
    state = stacked(rules, {0: hand, 1: "7S 2D 4D"}, dealer=0, briscola="KS")
    state.apply(Play(Card.from_code("7S")))
    return view(state, 0)


def test_a_card_with_points_let_go_names_the_higher_cards_still_out_that_could_catch_it() -> None:
    """When the coach prefers giving the King of cups (4 points) to the worthless Five of
    batons, the hint names the fact behind it: the Ace and the Three of cups are still out
    and could take the King later. Never that the King "gives away only 4 points"."""
    seen = _trumped("KC 5B 6C")
    king, five, six = (Card.from_code(c) for c in ("KC", "5B", "6C"))
    found = Assessment(
        values=((king, 60.0), (five, 57.0), (six, 55.0)), best=king, exact=False, samples=1
    )
    reason = explain(seen, found)
    assert reason.key == "spare_caught"
    assert set(reason.beaters) == {Card.from_code("AC"), Card.from_code("3C")}
    text = reason_text(reason)
    assert text.startswith("Let it go: the King of cups gives away 4 points now; the ")
    assert text.endswith(" is still out and could take it later.")
    assert "Ace of cups" in text and "Three of cups" in text


def test_a_card_with_points_let_go_names_the_cheaper_card_it_keeps() -> None:
    """With no higher card of its suit still out (the Ace of cups is in the hand), the
    hint says what the cheaper card is kept for."""
    seen = _trumped("3C AC 5B")
    three, ace, five = (Card.from_code(c) for c in ("3C", "AC", "5B"))
    found = Assessment(
        values=((three, 60.0), (ace, 52.0), (five, 57.0)), best=three, exact=False, samples=1
    )
    reason = explain(seen, found)
    assert (reason.key, reason.other) == ("spare", five)
    text = reason_text(reason)
    assert "Three of cups gives away 10 points" in text and "Five of batons for later" in text
    # The card kept for later is about as good to play now: said so, not named twice.
    close = Assessment(
        values=((three, 60.0), (ace, 52.0), (five, 59.8)), best=three, exact=False, samples=1
    )
    reason = explain(seen, close)
    assert (reason.key, reason.other, reason.also) == ("spare", five, five)
    assert reason_text(reason).endswith(
        "keeps the Five of batons for later. Playing it now is about as good."
    )


def _hints(preset: str, deals: int) -> list[tuple[PlayerView, str, str]]:
    out = []
    for seed in range(deals):
        for state in positions(Rules.preset(preset), seed, medium_action):
            seen = to_move(state)
            plays = [a for a in seen.legal if isinstance(a, Play)]
            if seen.seat == 0 and len(plays) > 1:
                reason = explain(seen, evaluate(seen, budget=150))
                out.append((seen, reason.key, reason_text(reason)))
    return out


@pytest.mark.parametrize(
    ("preset", "deals"),
    [("classic2", 12), ("classic3", 6), ("teams4", 6), ("chiamata5", 6), ("briscolone2", 4)],
)
def test_no_hint_lacks_a_reason_a_player_can_learn_from(preset: str, deals: int) -> None:
    hints = _hints(preset, deals)
    assert len(hints) >= 5 * deals
    assert {key for _seen, key, _text in hints} <= set(REASONS)
    vague = [(key, text) for _seen, key, text in hints if key in VAGUE]
    assert vague == [], f"{len(vague)} of {len(hints)} hints give no reason: {vague[:3]}"
    for _seen, _key, text in hints:
        assert "{" not in text and "search" not in text


def _led_king(utilities: tuple[float, ...]) -> tuple[PlayerView, Assessment]:
    """Classic3, Carla (seat 1) leads the King of swords; seat 2 holds the Seven of coins
    (the hint's card at 35.4 points), the Five of cups (38.5) and the Six of batons (37.4)."""
    rules = Rules.preset("classic3")
    state = stacked(rules, {2: "7D 5C 6B", 1: "KS 4C 4B"}, dealer=0, briscola="AC")
    state.apply(Play(Card.from_code("KS")))
    seen = view(state, 2)
    seven, five, six = (Card.from_code(code) for code in ("7D", "5C", "6B"))
    found = Assessment(
        values=((seven, 35.4), (five, 38.5), (six, 37.4)),
        best=seven,
        exact=False,
        samples=200,
        utilities=utilities,
    )
    return seen, found


def test_a_hint_says_why_it_keeps_its_card_when_another_shows_more_points() -> None:
    """A player with Card values on sees 35.4 on the hint's card and 38.5 on another: the
    hint says which cards only seem better (within the margin of error) and which show more
    points but win the hand less often, never leaves a higher figure unexplained."""
    seen, found = _led_king((0.40, 0.36, 0.41))
    reason = explain(seen, found)
    assert reason.also == Card.from_code("6B") and reason.also_edge == pytest.approx(2.0)
    assert reason.fewer_wins == (Card.from_code("5C"),)
    text = reason_text(reason)
    assert text.endswith(
        "The Six of batons is about as good: its 2.0 more points are within the margin of"
        " error. The Five of cups shows more points but wins the hand less often."
    ), text
    seen, found = _led_king((0.40, 0.36, 0.39))
    text = reason_text(explain(seen, found), "french")
    assert text.endswith(
        "The Five of hearts and the Six of clubs show more points but win the hand less often."
    ), text
    assert "about as good" not in text


def test_the_review_of_a_card_that_shows_more_points_but_wins_less_often_says_so() -> None:
    seen, found = _led_king((0.40, 0.36, 0.41))
    five = Card.from_code("5C")
    reason = explain(seen, found, five)
    assert (reason.key, reason.other, reason.loss) == ("fewer_wins", found.best, 0.0)
    assert reason_text(reason) == (
        "The Five of cups shows more points than the Seven of coins but wins the hand less often."
    )


def test_the_new_parts_of_a_reason_round_trip_through_json_and_bad_ones_are_refused() -> None:
    seen, found = _led_king((0.40, 0.36, 0.41))
    reason = explain(seen, found)
    doc = json.loads(json.dumps(reason.to_json()))
    assert doc["also_edge"] == 2.0 and doc["fewer_wins"] == ["5C"]
    assert Reason.from_json(doc) == reason  # (a review read back is the review made)
    older = {k: v for k, v in doc.items() if k not in ("also_edge", "fewer_wins")}
    assert Reason.from_json(older).fewer_wins == () and Reason.from_json(older).also_edge == 0.0
    for bad in ({"fewer_wins": 5}, {"fewer_wins": ["ZZ"]}, {"also_edge": "lots"}):
        with pytest.raises(ValueError):
            Reason.from_json(doc | bad)


def test_a_worse_card_before_the_last_draw_says_who_takes_the_face_up_three() -> None:
    """Issue 50: a costly lead was blamed on its beaters ("the Three ... was safer") when
    the trick decided who draws the face-up Three of trumps."""
    from briscola.coach.reasons import last_draw
    from briscola.text.coachtext import reason_text

    rules = Rules.preset("classic2")
    state = stacked(rules, {0: "2D 4D 5D", 1: "2C 4C 5C"}, dealer=1, briscola="3S")
    while True:
        seen = view(state, state.current_player or 0)
        if seen.stock_size == 2 and not seen.table:
            break
        assert last_draw(seen) is None  # earlier draws decide nothing of the briscola
        state.apply(next(a for a in state.legal_actions() if isinstance(a, Play)))
    assert last_draw(seen) == Card.from_code("3S")
    best, played = seen.hand[0], seen.hand[1]
    values = tuple((c, 60.0 if c == best else 50.0) for c in seen.hand)
    found = Assessment(values=values, best=best, exact=True, samples=1)
    reason = explain(seen, found, played)
    assert reason.key == "draw" and reason.draw == Card.from_code("3S")
    assert Reason.from_json(json.loads(json.dumps(reason.to_json()))) == reason
    text = reason_text(reason)
    assert "safer" not in text
    assert text.endswith("whoever loses it takes the Three of swords.")
