"""Whatever :meth:`Rules.preset` builds can be read back: from its JSON, from a game record,
from an autosave and from the network's ``create`` message. (A preset whose fixed fields
were changed becomes ``custom``, so a record never names a preset its rules do not have.)"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from briscola.engine import PRESETS, GameState, Match, Rules, replay, to_record
from briscola.engine.rules import PRESET_SHAPE
from briscola.game.setup import default_setup
from briscola.protocol.wire import decode, encode
from briscola.storage.autosave import Autosave

#: Every rule option, with values both good and bad (bad ones are refused by ``preset``).
OPTIONS: dict[str, st.SearchStrategy[Any]] = {
    "players": st.integers(2, 6),
    "teams": st.booleans(),
    "hand_size": st.integers(1, 10),
    "trump": st.booleans(),
    "follow_suit": st.booleans(),
    "chiamata": st.booleans(),
    "scoperta": st.booleans(),
    "three_as_three": st.booleans(),
    "swap": st.booleans(),
    "partners_see": st.sampled_from(["never", "start", "stock-empty"]),
    "signals": st.sampled_from(["off", "partner", "open"]),
    "match": st.sampled_from(
        ["single", "best-of-3", "best-of-5", "first-to-2", "points-121", "points-151", "hands-5"]
    ),
    "removed": st.sampled_from([(), ("2D",), ("2D", "2C", "2S", "2B")]),
}


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    """A preset with any options on top that it accepts."""
    name = draw(st.sampled_from(list(PRESETS)))
    options = draw(st.fixed_dictionaries({}, optional=OPTIONS))
    try:
        return Rules.preset(name, **options)
    except ValueError:
        assume(False)
        raise


def test_changing_what_a_preset_fixes_makes_custom_rules() -> None:
    rules = Rules.preset("classic2", hand_size=4)
    assert rules.name == "custom"
    assert Rules.from_dict(rules.to_dict()) == rules
    # Options on top keep the preset's name, and a record that lies is still refused.
    assert Rules.preset("classic2", swap=True, match="best-of-3").name == "classic2"
    with pytest.raises(ValueError, match="preset classic2 has hand_size 3, not 4"):
        Rules.from_dict({**rules.to_dict(), "preset": "classic2"})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(any_rules())
def test_every_preset_with_any_options_round_trips_through_json(rules: Rules) -> None:
    assert Rules.from_dict(rules.to_dict()) == rules
    preset = PRESETS.get(rules.name)
    if preset is not None:
        assert all(getattr(rules, key) == getattr(preset, key) for key in PRESET_SHAPE)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(any_rules(), st.integers(0, 2**32 - 1), st.integers(0, 12))
def test_every_preset_with_any_options_round_trips_through_a_record(
    rules: Rules, seed: int, moves: int
) -> None:
    state = GameState.new(rules, random.Random(seed))
    rng = random.Random(seed)
    for _move in range(moves):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    again = replay(to_record(state))
    assert again.rules == rules
    assert to_record(again) == to_record(state)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(rules=any_rules(), seed=st.integers(0, 2**32 - 1))
def test_every_preset_with_any_options_round_trips_through_an_autosave(
    tmp_path_factory: pytest.TempPathFactory, rules: Rules, seed: int
) -> None:
    path: Path = tmp_path_factory.mktemp("autosave") / "autosave.json"
    setup = default_setup(rules)
    match = Match(rules)
    state = GameState.new(rules, random.Random(seed))
    state.apply(state.legal_actions()[0])
    saves = Autosave(path)
    saves.save(setup, match, state)
    saved, notice = saves.load()
    assert notice is None and saved is not None
    assert saved.setup.rules == rules and saved.match.rules == rules
    assert saved.state is not None and to_record(saved.state) == to_record(state)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(any_rules())
def test_every_preset_with_any_options_round_trips_through_a_network_create(
    rules: Rules,
) -> None:
    # The client's create message (client/connection.py) through the wire, read as the
    # server's _create reads it.
    message = decode(encode({"type": "create", "rules": rules.to_dict(), "seat": 0}))
    assert Rules.from_dict(message["rules"]) == rules
