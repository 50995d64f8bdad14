"""The wire format shared by server and client: every event reads back from its JSON form,
malformed events and frames are refused with a clear error, names and table codes are
checked."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from briscola.engine import PRESETS, Event, GameState, HandOver, MatchOver, Rules
from briscola.protocol.wire import (
    ProtocolError,
    check_name,
    decode,
    event_from_json,
    event_to_json,
    normalize_code,
)


@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 2**32), st.integers(0, 5))
def test_every_event_of_a_hand_reads_back_from_its_json_form(
    preset: str, seed: int, viewer: int
) -> None:
    rng = random.Random(seed)
    state = GameState.new(Rules.preset(preset), rng)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    seat = viewer % state.rules.players
    events: list[Event] = [*state.events_for(seat), MatchOver((0,), (1, 0))]
    for event in events:
        assert event_from_json(event_to_json(event)) == event
    assert any(isinstance(event, HandOver) for event in events)


@pytest.mark.parametrize(
    "data",
    [None, [], {"event": "played"}, {"event": "played", "seat": -1, "card": "AD"},
     {"event": "played", "seat": 0, "card": "ZZ"}, {"event": "trick_won", "trick": {}},
     {"event": "dealt", "seat": True, "card": None}, {"event": "boom"},
     {"event": "auction", "seat": 0, "bid": "9/500"}],
)  # fmt: skip
def test_a_malformed_event_is_refused_with_a_value_error(data: object) -> None:
    with pytest.raises(ValueError):
        event_from_json(data)


def test_frames_names_and_codes_are_checked() -> None:
    with pytest.raises(ProtocolError, match="malformed"):
        decode("{" * 100 + "}" * 100)
    with pytest.raises(ProtocolError):
        decode(b'{"type": "x"}')
    assert normalize_code(" k7mx-2q ") == "K7MX2Q"
    for bad in ("K7MX2", "K7MX2O", 123, "I" * 6):
        with pytest.raises(ProtocolError):
            normalize_code(bad)
    assert check_name("José María") == "José María"
    with pytest.raises(ProtocolError):
        check_name("a  b")
