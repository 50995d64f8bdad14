"""docs/network-protocol.md against briscola.protocol: every message type, field and code
documented, with the meaning the code gives it, and nothing in the page the code lacks."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import get_args, get_type_hints

from briscola.engine import (
    Card,
    Event,
    GameState,
    MatchOver,
    Rules,
    Signalled,
    Swapped,
    view,
)
from briscola.engine.view import view_to_json
from briscola.protocol import messages as msg
from briscola.protocol.errors import CloseReason, ErrorCode, NoticeCode
from briscola.protocol.wire import event_to_json

DOC = Path(__file__).resolve().parents[2] / "docs" / "network-protocol.md"


def tables() -> dict[str, list[list[str]]]:
    """The page's tables by their header row: the cells of each row below the rule."""
    found: dict[str, list[list[str]]] = {}
    rows: list[list[str]] | None = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            rows = None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if rows is None:
            rows = found.setdefault(" | ".join(cells), [])
        elif set(line) <= set("|- "):
            continue
        else:
            rows.append(cells)
    return found


def names(cell: str) -> list[str]:
    return re.findall(r"`([a-z_]+)`", cell)


def test_the_client_messages_and_their_fields_are_the_protocol_s() -> None:
    rows = tables()["type | fields | when"]
    assert [names(row[0])[0] for row in rows] == list(msg.CLIENT_TYPES)
    for row in rows:
        kind = names(row[0])[0]
        fields = set(get_type_hints(_by_type(kind)))
        assert set(names(row[1])) == fields - {"type"}, kind


def _by_type(kind: str) -> type:
    for cls in (*get_args(msg.ClientMessage), *get_args(msg.ServerMessage)):
        if get_args(get_type_hints(cls)["type"]) == (kind,):
            return cls  # type: ignore[no-any-return]
    raise AssertionError(f"no message class for {kind!r}")


def test_the_server_messages_are_the_protocol_s_and_each_has_its_class() -> None:
    rows = tables()["type | to | when"]
    assert [names(row[0])[0] for row in rows] == list(msg.SERVER_TYPES)
    for kind in (*msg.CLIENT_TYPES, *msg.SERVER_TYPES):
        _by_type(kind)
    assert len(get_args(msg.ClientMessage)) == len(msg.CLIENT_TYPES)
    assert len(get_args(msg.ServerMessage)) == len(msg.SERVER_TYPES)


def test_every_error_code_is_documented_with_its_meaning_and_no_other() -> None:
    found = tables()
    sent = [(names(row[0])[0], row[1]) for row in found["code | meaning"]]
    assert sent == [(code.value, code.description) for code in ErrorCode if not code.local]
    local = [(names(row[0])[0], row[1]) for row in found["client code | meaning"]]
    assert local == [(code.value, code.description) for code in ErrorCode if code.local]


def test_every_close_reason_and_notice_is_documented_with_its_meaning() -> None:
    found = tables()
    reasons = [(names(row[0])[0], row[1]) for row in found["reason | meaning"]]
    assert reasons == [(reason.value, reason.description) for reason in CloseReason]
    notices = [(names(row[0])[0], row[1]) for row in found["notice | meaning"]]
    assert notices == [(notice.value, notice.description) for notice in NoticeCode]


def test_every_code_has_a_meaning() -> None:
    for code in (*ErrorCode, *CloseReason, *NoticeCode):
        assert code.description and "|" not in code.description, code


def test_the_view_s_fields_are_the_ones_the_page_lists() -> None:
    """An ``update``'s view is the bot protocol's form (``view_to_json``): its fields, as
    listed on the page, are those the engine writes (``signals`` once a signal is made)."""
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    listed = re.search(r"whose fields are (.*?`legal`)", text)
    assert listed is not None
    state = GameState.new(Rules.preset("classic2"), random.Random(1))
    written = set(view_to_json(view(state, 0)))
    assert set(names(listed.group(1))) == written
    assert "`signals`" in text and "`signals_by`" in text


def test_every_event_is_listed_with_its_fields() -> None:
    """The events table against the JSON form the server writes (``event_to_json``), one
    event of every kind the engine has: from two played hands, and the rest made here.
    (A row may name nested fields too: a trick's, a hand result's.)"""
    samples: list[Event] = []
    for preset in ("classic2", "chiamata5"):
        state = GameState.new(Rules.preset(preset), random.Random(3))
        rng = random.Random(4)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        samples += state.events
    card = Card.from_code("3S")
    samples += [Swapped(0, card, card), Signalled(1, "king", 0, 0), MatchOver((0,), (1, 0))]
    assert {type(event) for event in samples} == set(get_args(Event))
    written: dict[str, set[str]] = {}
    for event in samples:
        data = event_to_json(event)
        kind = data.pop("event")
        written[kind] = set(data)
    rows = tables()["event | fields"]
    listed = {names(row[0])[0]: set(names(row[1])) for row in rows}
    assert set(listed) == set(written)
    for kind, fields in written.items():
        assert fields <= listed[kind], kind
