"""What docs/bot-protocol.md tells an outside bot author is what the engine and the arena
do: the preset table, partners, the auction, the partner field, results, the seatings."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from enginehelp import answering_program, arena_figures

from briscola.ai.medium import medium_action
from briscola.arena import seatings
from briscola.engine import PASS, PRESETS, Bid, Call, Card, GameState, Rank, Rules, Suit, view
from briscola.engine.rules import PRESET_SHAPE
from briscola.engine.scoring import hand_result

DOC = (Path(__file__).parents[2] / "docs" / "bot-protocol.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = DOC.index(f"## {title}")
    end = DOC.find("\n## ", start + 3)
    return DOC[start : end if end >= 0 else len(DOC)]


def _found(pattern: str, text: str) -> str:
    match = re.search(pattern, text, re.DOTALL)
    assert match is not None, pattern
    return match.group(1)


def _json_value(text: str) -> object:
    if text == "-":
        return []
    if text in ("true", "false"):
        return text == "true"
    return int(text) if text.isdigit() else text.split()


def test_the_documented_preset_table_is_every_presets_fixed_fields() -> None:
    rows = re.findall(r"^\| `(\w+)` \|(.*)\|$", _section("Presets"), re.MULTILINE)
    assert [name for name, _ in rows] == list(PRESETS)
    for name, cells in rows:
        shown = [_json_value(cell.strip()) for cell in cells.split("|")]
        fields = Rules.preset(name).to_dict()
        assert shown == [fields[key] for key in PRESET_SHAPE], name


def test_the_documented_bid_order_is_the_opening_auctions_legal_bids() -> None:
    block = _found(r"```\s*\n\s*(A 3 K[^\n]*)\n", _section("Briscola Chiamata"))
    first, _, last = block.partition(" ... ")
    state = GameState.new(Rules.preset("chiamata5"), random.Random(1))
    codes = [a.to_json()["bid"] for a in state.legal_actions() if isinstance(a, Bid)]
    assert codes[: len(first.split())] == first.split()
    assert codes[-1] == last == "2/120"
    assert Bid(Rank.TWO, 61) == Bid(Rank.TWO) and Bid(Rank.KING).points == 61


def test_the_last_bidder_cannot_pass_and_caller_is_null_during_the_call() -> None:
    state = GameState.new(Rules.preset("chiamata5"), random.Random(2), dealer=4)
    assert state.current_player == 0  # the seat after the dealer opens
    for _ in range(4):
        state.apply(PASS)
    assert PASS not in state.legal_actions()
    state.apply(Bid(Rank.KING))
    seen = view(state, 1).to_json()
    assert seen["phase"] == "call" and seen["caller"] is None and seen["called"] is None
    assert [a.to_json() for a in view(state, 4).legal] == [
        {"call": f"K{suit.code}"} for suit in Suit
    ]


def _called(own: bool) -> GameState:
    """A Chiamata hand after the call: seat 0 won with the Ace and called one of its own
    Aces (``own``) or somebody else's."""
    for seed in range(100):
        state = GameState.new(Rules.preset("chiamata5"), random.Random(seed), dealer=4)
        aces = [Card(Rank.ACE, suit) for suit in Suit]
        mine = [c for c in aces if c in state.hands[0]]
        theirs = [c for c in aces if c not in state.hands[0]]
        if not (mine if own else theirs):
            continue
        state.apply(Bid(Rank.ACE))
        for _ in range(4):
            state.apply(PASS)
        state.apply(Call((mine if own else theirs)[0]))
        return state
    raise AssertionError("no such deal")


def test_the_partner_field_is_as_documented() -> None:
    state = _called(own=False)
    holder = state.partner
    assert holder is not None and holder != 0
    other = next(s for s in range(1, 5) if s != holder)
    assert view(state, holder).partner == holder
    assert view(state, 0).partner is None and view(state, other).partner is None
    assert view(state, other).to_json()["side_points"] == [0] * 5  # one entry per seat
    alone = _called(own=True)
    assert view(alone, 0).partner == 0 and view(alone, 1).partner is None
    while not alone.partner_revealed:
        seat = alone.current_player
        assert seat is not None
        alone.apply(medium_action(view(alone, seat)))
    assert all(view(alone, s).partner == 0 for s in range(5))


def test_team_partners_are_the_seats_of_the_same_parity() -> None:
    for name, players in (("teams4", 4), ("teams6", 6), ("briscolone4", 4)):
        rules = Rules.preset(name)
        for seat in range(players):
            assert set(rules.partners(seat)) == {
                s for s in range(players) if s != seat and s % 2 == seat % 2
            }
        state = GameState.new(rules, random.Random(3))
        assert view(state, 0).to_json()["partner"] is None


def test_known_holds_only_cards_still_in_the_hand() -> None:
    rules = Rules.preset("teams4", partners_see="start")
    state = GameState.new(rules, random.Random(4))
    while not state.is_terminal():
        for seat in range(4):
            for other, cards in enumerate(view(state, seat).known):
                assert set(cards) <= set(state.hands[other])
        mover = state.current_player
        assert mover is not None
        state.apply(medium_action(view(state, mover)))


def test_the_documented_chiamata_result_is_the_scoring() -> None:
    block = _found(r"```json\n(.*?)```", _section("The result"))
    shown = json.loads(block)
    result = hand_result(
        Rules.preset("chiamata5"), tuple(shown["points"]), 0, 2, Bid(Rank.KING)
    ).to_json()
    assert result == shown


def test_the_arena_seats_a_team_bot_in_every_seat_of_one_team() -> None:
    rules = Rules.preset("teams4")
    assert seatings(rules, 2) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert len(seatings(Rules.preset("chiamata5"), 2)) == 5
    assert len(seatings(Rules.preset("classic3"), 2)) == 3
    assert len(seatings(Rules.preset("classic2"), 2)) == 2


def test_every_seat_is_its_own_process(tmp_path: Path) -> None:
    """A cmd: bot playing a team in teams4 runs as one process per seat it holds."""
    log = tmp_path / "seats.txt"
    program = answering_program(
        tmp_path,
        f"""
        import os
        if msg.get("cmd") == "new_game":
            with open({str(log)!r}, "a") as out:
                out.write(f"{{os.getpid()}} {{msg['seat']}}\\n")
        reply = msg["view"]["legal"][0] if msg.get("cmd") == "act" else {{"ok": True}}
        reply["id"] = msg.get("id")
        print(json.dumps(reply), flush=True)
        """,
    )
    figures = arena_figures(
        tmp_path, "--preset", "teams4", "--bots", f"{program},random", "--deals", "2"
    )
    assert figures["bots"][0]["forfeits"] == 0
    pairs = {tuple(line.split()) for line in log.read_text().split("\n") if line}
    seats_of: dict[str, set[str]] = {}
    for pid, seat in pairs:
        seats_of.setdefault(pid, set()).add(seat)
    assert len(seats_of) == 4 and all(len(seats) == 1 for seats in seats_of.values())
