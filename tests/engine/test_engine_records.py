"""Golden records, the record format, and replay refusing broken records."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from briscola.engine import (
    FORMAT,
    GameState,
    ReplayError,
    Rules,
    Swap,
    read_records,
    replay,
    to_record,
    write_records,
)

#: Golden records (the ``*-decisions.json`` beside them hold bot decisions, not records:
#: tests/aigolden.py and tests/ai/test_learned.py).
GOLDEN = sorted(
    path
    for path in (Path(__file__).resolve().parents[1] / "golden").glob("*.json")
    if not path.stem.endswith("-decisions")
)


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def test_there_are_golden_records() -> None:
    assert len(GOLDEN) >= 4


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_records_replay_exactly(path: Path) -> None:
    doc = _load(path)
    state = replay(doc)
    assert state.is_terminal()
    assert to_record(state, doc.get("meta")) == doc


def test_golden_teams6_totals() -> None:
    state = replay(
        _load(Path(__file__).resolve().parents[1] / "golden" / "teams6-hand-checked.json")
    )
    assert state.points == [0, 23, 79, 0, 18, 0]
    assert state.outcome().side_points == (97, 23)
    assert [t.winner for t in state.tricks] == [2, 2, 2, 4, 2, 1]


def test_golden_chiamata_scoring() -> None:
    state = replay(
        _load(Path(__file__).resolve().parents[1] / "golden" / "chiamata5-auction-call.json")
    )
    assert (state.caller, state.partner, state.trump.code if state.trump else None) == (3, 4, "C")
    assert state.outcome().returns == (-1, -1, -1, 2, 1)


def test_record_fields() -> None:
    doc = _load(GOLDEN[0])
    for key in ("format", "rules", "dealer", "deck", "tricks", "swaps", "result"):
        assert key in doc
    assert doc["format"] == FORMAT
    assert {"leader", "cards", "winner", "points"} <= set(doc["tricks"][0])
    assert doc["rules"]["preset"]


def _mutated(name: str, change: Any) -> dict[str, Any]:
    doc = copy.deepcopy(_load(Path(__file__).resolve().parents[1] / "golden" / f"{name}.json"))
    change(doc)
    return doc


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="briscola-record/0"), "unknown record format"),
        (lambda d: d.pop("deck"), "missing 'deck'"),
        (lambda d: d["deck"].pop(), "deck"),
        (lambda d: d["deck"].__setitem__(0, "ZZ"), "invalid card code"),
        (lambda d: d["tricks"][2]["cards"].__setitem__(0, "2D"), "trick 3: seat 2 does not hold"),
        (lambda d: d["tricks"][1].update(winner=3), "trick 2: the record says seat 3 won"),
        (lambda d: d["tricks"][4].update(points=99), "trick 5: the record says 99 points"),
        (lambda d: d["tricks"][0].update(leader=1), "trick 1: seat 1 cannot lead"),
        (lambda d: d["tricks"][5]["cards"].pop(), "trick 6: 5 cards for 6 players"),
        (lambda d: d["result"].update(winner=1), "result"),
        (lambda d: d["rules"].update(players=9), "rules"),
    ],
)
def test_replay_refuses_broken_records_naming_trick_and_reason(change: Any, message: str) -> None:
    with pytest.raises(ReplayError, match=message):
        replay(_mutated("teams6-hand-checked", change))


def test_replay_refuses_bad_auction_and_swaps() -> None:
    doc = _mutated("chiamata5-auction-call", lambda d: d["auction"][1].update(bid="A"))
    with pytest.raises(ReplayError, match="auction entry 2"):
        replay(doc)
    doc = _mutated("classic2-swap", lambda d: d["swaps"][0].update(trick=2))
    with pytest.raises(ReplayError, match="trick 3: swap"):
        replay(doc)
    with pytest.raises(ReplayError):
        replay([])  # type: ignore[arg-type]


def test_unfinished_hands_record_and_replay_the_table() -> None:
    rules = Rules.preset("teams4", swap=True)
    rng = random.Random(4)
    state = GameState.new(rules, rng)
    for _ in range(23):
        actions = state.legal_actions()
        swaps = [a for a in actions if isinstance(a, Swap)]
        state.apply(swaps[0] if swaps else rng.choice(actions))
    doc = to_record(state)
    assert doc["result"] is None and doc["table"]["cards"]
    again = replay(json.loads(json.dumps(doc)))
    assert to_record(again) == doc
    assert again.current_player == state.current_player
    assert again.hands == state.hands


def test_jsonl_round_trip(tmp_path: Path) -> None:
    docs = [_load(path) for path in GOLDEN]
    path = tmp_path / "games.jsonl"
    assert write_records(path, docs) == len(docs)
    assert list(read_records(path)) == docs
    single = tmp_path / "one.json"
    single.write_text(json.dumps(docs[0], indent=2))
    assert list(read_records(single)) == [docs[0]]
