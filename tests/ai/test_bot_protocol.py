"""The bot protocol: views to JSON and back, and ``python -m briscola.bot`` as a program."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest

from briscola.ai.protocol import PROTOCOL, ProgramBot
from briscola.engine import (
    PRESETS,
    GameState,
    Rules,
    action_from_json,
    view,
)
from briscola.engine.view import view_from_json


@pytest.mark.parametrize(
    "rules",
    [Rules.preset(name) for name in PRESETS]
    + [
        Rules.preset("classic2", swap=True),
        Rules.preset("teams4", partners_see="start"),
        Rules.preset("teams6", partners_see="stock-empty"),
    ],
    ids=lambda r: f"{r.name}-{r.swap}-{r.partners_see}",
)
def test_views_survive_json(rules: Rules) -> None:
    """Every view of every seat at every step, through JSON text and back, is the same."""
    for seed in range(3):
        state = GameState.new(rules, random.Random(seed))
        rng = random.Random(seed)
        while True:
            for seat in range(rules.players):
                seen = view(state, seat)
                text = json.dumps(seen.to_json())
                assert view_from_json(json.loads(text)) == seen
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))


def _base() -> dict[str, Any]:
    state = GameState.new(Rules.preset("classic2"), random.Random(1))
    return view(state, state.current_player or 0).to_json()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hand": ["XX"]}, "invalid card"),
        ({"seat": 7}, "seat"),
        ({"rules": {"preset": "nope", "players": 9}}, "rules"),
        ({"stock_size": 3}, "add up"),
        ({"hand": ["AD", "AD", "2C"]}, "two places"),
        ({"legal": [{"jump": 1}]}, "legal"),
        ({"phase": "lunch"}, "phase"),
    ],
)
def test_view_from_json_refuses_bad_views(change: dict[str, Any], message: str) -> None:
    data = _base()
    data.update(change)
    with pytest.raises(ValueError, match=message):
        view_from_json(data)
    missing = _base()
    del missing["table"]
    with pytest.raises(ValueError, match="table"):
        view_from_json(missing)


def _run(lines: list[str], *args: str) -> tuple[int, list[dict[str, Any]]]:
    proc = subprocess.run(
        [sys.executable, "-m", "briscola.bot", "--seed", "1", *args],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=60,
    )
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()]


def test_bot_program_answers_and_survives_bad_input() -> None:
    seen = _base()
    other = dict(seen, seat=1 - seen["seat"], legal=[])
    lines = [
        json.dumps({"cmd": "hello"}),
        "this is not json",
        "[1, 2, 3]",
        json.dumps({"cmd": "dance"}),
        json.dumps({"cmd": "new_game", "rules": {"preset": "classic2"}, "seat": 0}),
        json.dumps({"cmd": "act", "view": {"seat": 0}}),
        json.dumps({"cmd": "act", "view": other}),
        json.dumps({"cmd": "act", "view": seen, "time_limit_ms": -5}),
        "",
        json.dumps({"cmd": "act", "view": seen, "time_limit_ms": 200}),
        json.dumps({"cmd": "game_over", "result": {}}),
        json.dumps({"cmd": "quit"}),
        json.dumps({"cmd": "act", "view": seen}),  # after quit: never read
    ]
    code, replies = _run(lines, "--level", "hard", "--budget", "500")
    assert code == 0
    assert replies[0] == {"protocol": PROTOCOL, "name": "briscola hard"}
    assert "malformed JSON" in replies[1]["error"]
    assert "object" in replies[2]["error"]
    assert "unknown command" in replies[3]["error"]
    assert replies[4] == {"ok": True}
    assert "view" in replies[5]["error"]
    assert "not this seat's turn" in replies[6]["error"]
    assert "time_limit_ms" in replies[7]["error"]
    action = action_from_json(replies[8])
    assert action.to_json() in seen["legal"]
    assert replies[9] == {"ok": True}
    assert len(replies) == 10


def test_bot_program_exits_at_end_of_input() -> None:
    code, replies = _run([json.dumps({"cmd": "new_game"})], "--level", "random")
    assert code == 0 and replies == [{"ok": True}]


@pytest.mark.parametrize("level", ["random", "easy", "medium", "pimc", "hard"])
def test_program_bot_plays_a_whole_hand(level: str) -> None:
    rules = Rules.preset("teams4")
    state = GameState.new(rules, random.Random(3))
    args = [sys.executable, "-m", "briscola.bot", "--level", level, "--seed", "2"]
    if level in ("hard", "pimc"):
        args += ["--budget", "200" if level == "hard" else "3"]
    program = ProgramBot(args)
    try:
        program.new_game(rules, 0)
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            state.apply(program.choose(view(state, seat)))
        program.game_over(state.outcome().to_json())
    finally:
        program.close()
    assert sum(state.points) == 120
