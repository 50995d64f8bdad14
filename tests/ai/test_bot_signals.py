"""Bot programs over the JSON-lines protocol make partner signals: offered in an ``act``
(``may_signal``), answered with ``{"signal": kind}``, made by the engine, then asked again."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from briscola.ai import Bot, make_bot
from briscola.ai.protocol import BotProgramError, ProgramBot, handle_request
from briscola.ai.signals import choose_signal
from briscola.arena import main as arena_main
from briscola.engine import GameState, Rules, Signal, replay, view, view_signals
from briscola.engine.signals import truthful

BOT = f"cmd:{sys.executable} -m briscola.bot --seed 5 --level medium"

#: A program that answers every offered ``act`` with a "take it" and never with a card.
PESTER = """
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    cmd = msg.get("cmd")
    if cmd == "quit":
        break
    if cmd == "act":
        view = msg["view"]
        reply = {"signal": "take"} if "signals" in view["rules"] else view["legal"][0]
    else:
        reply = {"ok": True}
    reply["id"] = msg["id"]
    print(json.dumps(reply), flush=True)
"""


def easy(limit: float | None) -> Bot:
    return make_bot("easy", random.Random(0))


def signal_state(seed: int) -> GameState:
    return GameState.new(Rules.preset("teams4", signals="partner"), random.Random(seed))


def test_an_act_that_offers_signals_may_be_answered_with_a_true_one() -> None:
    state = signal_state(4)
    seat = state.current_player
    assert seat is not None
    seen = view(state, seat)
    expected = choose_signal(seen)
    assert expected is not None  # seed 4: the leader has something to tell
    request = {"cmd": "act", "view": seen.to_json(), "may_signal": ["ace", "none", expected.kind]}
    reply = handle_request(json.dumps(request), easy, {}, choose_signal)
    assert reply == {"signal": expected.kind}
    assert truthful(expected.kind, state.hands[seat], state.trump)


def test_a_bad_may_signal_is_an_error_reply_and_without_a_signaller_the_bot_plays() -> None:
    state = signal_state(4)
    seat = state.current_player
    assert seat is not None
    seen = view(state, seat)
    bad = {"cmd": "act", "view": seen.to_json(), "may_signal": ["wink"]}
    reply = handle_request(json.dumps(bad), easy, {}, choose_signal)
    assert reply is not None and "may_signal must be a list of signal kinds" in reply["error"]
    good = {"cmd": "act", "view": seen.to_json(), "may_signal": ["king"]}
    reply = handle_request(json.dumps(good), easy, {})
    assert reply is not None and "play" in reply


def test_programs_signal_through_the_arena_and_the_records_replay(tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    code = arena_main(
        [
            *("--preset", "teams4", "--rules-opts", "signals=partner", "--seed", "2"),
            *("--bots", f"{BOT},{BOT} --no-signals", "--deals", "2", "--jobs", "1"),
            *("--records", str(records), "--quiet"),
        ]
    )
    assert code == 0
    made_by: set[int] = set()
    for line in records.read_text().splitlines():
        doc = json.loads(line)
        assert "forfeit" not in doc["meta"]
        silent = {s for s, bot in enumerate(doc["meta"]["bots"]) if bot.endswith("--no-signals")}
        seats = {entry["seat"] for entry in doc.get("signals", [])}
        assert seats and not seats & silent
        made_by |= seats
        replay(doc)  # the engine judges every signal again
    assert made_by == {0, 1, 2, 3}  # each team signalled while it held the signalling entry


def test_a_program_that_signals_twice_in_a_trick_forfeits_with_a_clear_reason(
    tmp_path: Path,
) -> None:
    script = tmp_path / "pester.py"
    script.write_text(PESTER)
    program = ProgramBot([sys.executable, str(script)], timeout=20.0)
    try:
        state = signal_state(1)
        seat = state.current_player
        assert seat is not None
        program.new_game(state.rules, seat)
        seen = view(state, seat)
        first = program.act(seen, view_signals(seen))
        assert first == Signal("take")
        state.signal(seat, first)
        seen = view(state, seat)
        assert view_signals(seen) == []
        with pytest.raises(BotProgramError, match="signal 'take' not allowed now"):
            program.act(seen, view_signals(seen))
        with pytest.raises(BotProgramError, match="not allowed now"):
            program.choose(view(signal_state(2), 0))  # choose offers no signal at all
    finally:
        program.close()
