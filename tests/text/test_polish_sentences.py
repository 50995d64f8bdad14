"""Issue 50's sentences in every language: a trump lead that does not claim to draw out
every trump, a bid hint with no points figure below the 61 a bid needs, the swap hint
with its reason, the streak line's plurals and the English name of a carico."""

from __future__ import annotations

from dataclasses import replace

import pytest
from enginehelp import stacked

from briscola.coach import BidAdvice, Reason
from briscola.engine import Bid, Card, PlayerView, Rank, Rules, Suit, Swap, view
from briscola.gui.scenes.stats import streaks_text
from briscola.storage.stats import Streaks
from briscola.text import i18n
from briscola.text.coachtext import bid_text, reason_text, swap_hint_text
from briscola.text.i18n import LANGUAGES
from briscola.text.signals import signal_label


@pytest.fixture(autouse=True)
def _english_again() -> object:
    yield None
    i18n.set_language("en")


def _swap_view() -> tuple[PlayerView, Swap]:
    rules = Rules.preset("classic2", swap=True)
    state = stacked(rules, {0: "7B 2D 4D", 1: "4S 5D 6D"}, dealer=1, briscola="AB")
    seen = view(state, 0)
    swap = next(a for a in seen.legal if isinstance(a, Swap))
    return seen, swap


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_coachs_new_sentences_read_whole_in_every_language(language: str) -> None:
    i18n.set_language(language)
    lead = reason_text(Reason("lead_trump", Card.from_code("2B"), trumps_out=8))
    assert "8" in lead and "{" not in lead
    three = Card.from_code("3S")
    draw = reason_text(
        Reason("draw", Card.from_code("3D"), Card.from_code("4D"), loss=6.5, draw=three)
    )
    assert "{" not in draw and i18n._("the Three of swords") in draw
    advice = BidAdvice("bid", Bid(Rank.ACE, 61), Suit.COINS, Card.from_code("AD"), 3, 1, 60.4, 50)
    for key in ("bid", "pass"):
        text = bid_text(replace(advice, key=key))
        assert "{" not in text and "60" not in text  # no "about 60 points" for a bid of 61
    seen, swap = _swap_view()
    hint = swap_hint_text(seen, swap)
    assert "{" not in hint and "11" in hint  # the Ace taken is worth 11 points
    streak = streaks_text(Streaks(hands=1, best_hands=1, matches=1, best_matches=1))
    assert "{" not in streak
    if language == "en":
        assert "draws out the 8" not in lead
        assert "another player must spend a trump (8 still out)" in lead
        assert hint == (
            "Hint: swap the Seven of batons for the Ace of batons: a stronger trump,"
            " worth 11 points."
        )
        assert streak == (
            "Won in a row against the computer: 1 hand now (best 1), 1 match now (best 1)."
        )
        assert signal_label("carico") == "An Ace or Three"
    else:
        assert hint.startswith(i18n._("Hint: swap {gave} for {took}.").split("{")[0])


def test_english_plurals_count_many() -> None:
    text = streaks_text(Streaks(hands=3, best_hands=5, matches=0, best_matches=2))
    assert "3 hands now (best 5), 0 matches now (best 2)" in text
