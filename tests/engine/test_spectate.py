"""The spectator's view (issue 47): only what every seat knows, through a whole hand of each
configuration quick match offers, with partners seeing hands and partner signals on."""

from __future__ import annotations

import random

import pytest

from briscola.engine import GameState, Rules, view
from briscola.engine.codec import ViewError
from briscola.engine.spectate import SPECTATOR, spectator_json, spectator_view
from briscola.engine.view import view_from_json, view_to_json


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("classic2", {}),
        ("scoperta2", {}),
        ("classic3", {}),
        ("teams4", {"partners_see": "start", "signals": "partner"}),
        ("chiamata5", {"signals": "partner"}),
        ("teams6", {"partners_see": "stock-empty"}),
    ],
)
def test_a_spectator_knows_only_what_every_seat_knows(preset: str, options: dict[str, str]) -> None:
    state = GameState.new(Rules.preset(preset, **options), random.Random(7))
    rng = random.Random(8)
    while True:
        seen = spectator_view(state)
        views = [view(state, seat) for seat in range(state.rules.players)]
        assert seen.seat == SPECTATOR and seen.hand == () and seen.legal == ()
        for other, cards in enumerate(seen.known):
            for each in views:
                if each.seat != other:
                    assert cards <= each.known[other]
            assert not cards - set(state.hands[other]) - state.known[other]
        assert all(set(seen.signals) <= set(each.signals) for each in views)
        if seen.partner is not None:
            assert all(each.partner == seen.partner for each in views)
        # Everything public is the same as a seat's: the table, tricks, points, the briscola.
        first = views[0]
        assert (seen.table, seen.tricks, seen.points, seen.briscola, seen.hand_sizes) == (
            first.table, first.tricks, first.points, first.briscola, first.hand_sizes,
        )  # fmt: skip
        written = spectator_json(state)
        assert written["hand"] == [] and written["seat"] == SPECTATOR
        assert written == view_to_json(seen)
        assert view_from_json(written) == seen  # a client reads it back as it was
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))


def test_a_secret_partner_stays_secret_to_a_spectator_until_revealed() -> None:
    state = GameState.new(Rules.preset("chiamata5"), random.Random(3))
    rng = random.Random(4)
    while state.partner is None or state.partner_revealed:
        if state.is_terminal():
            pytest.skip("the partner was revealed at once in this deal")
        state.apply(rng.choice(state.legal_actions()))
        if state.partner is not None and not state.partner_revealed:
            break
    assert view(state, state.partner).partner == state.partner
    assert spectator_view(state).partner is None


def test_a_spectators_view_with_a_hand_or_a_move_is_refused() -> None:
    state = GameState.new(Rules.preset("classic2"), random.Random(5))
    written = spectator_json(state)
    with_hand = {**written, "hand": [state.hands[0][0].code]}
    with pytest.raises(ViewError, match="spectator"):
        view_from_json(with_hand)
    with_move = {**written, "legal": [{"play": state.hands[0][0].code}]}
    with pytest.raises(ViewError, match="legal"):
        view_from_json(with_move)
    with pytest.raises(ViewError, match="seat"):
        view_from_json({**written, "seat": -2})
