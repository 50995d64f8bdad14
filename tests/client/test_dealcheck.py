"""A game's check of a revealed deal (briscola/client/dealcheck.py): every way a server could
give a deal that does not fit what it promised is flagged, with its reason."""

from __future__ import annotations

import random
from typing import Any

import pytest

from briscola.client.dealcheck import check_deal
from briscola.engine import Event, GameState, Rules
from briscola.engine.fairdeal import commitment, derive_deck, record_verdict
from briscola.protocol import fairness as fair
from briscola.text.score import deal_check

RULES = Rules.preset("classic2")
SEED = bytes(range(32))
MINE = b"\x05" * 32


def played(values: list[bytes], seed: bytes = SEED) -> list[Event]:
    """What seat 0 saw of a hand dealt from ``seed`` and ``values``, played at random."""
    state = GameState(RULES, derive_deck(RULES, seed, values), dealer=1)
    rng = random.Random(9)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state.events_for(0)


def reveal(seed: bytes = SEED, values: tuple[bytes, ...] = (MINE, b"")) -> fair.Reveal:
    return fair.reveal(1, commitment(SEED), seed, list(values))


def test_an_honest_deal_is_checked() -> None:
    proof = check_deal(RULES, 0, played([MINE, b""]), reveal(), commitment(SEED), MINE)
    assert proof["verdict"] == "checked" and "reason" not in proof
    assert proof["seed"] == SEED.hex() and proof["values"] == [MINE.hex(), ""]


@pytest.mark.parametrize(
    ("case", "reason"),
    [
        ("another seed", "does not match the commitment"),
        ("my value left out", "the value this game sent is not the one"),
        ("another commitment before", "not the one sent before the deal"),
        ("no commitment before", "no commitment came before the deal"),
        ("dealt otherwise", "the cards do not fit the revealed deal"),
        ("a value too few", "1 values revealed for 2 seats"),
    ],
)
def test_a_deal_that_does_not_fit_is_flagged_with_its_reason(case: str, reason: str) -> None:
    seen = played([MINE, b""])
    shown: Any = reveal()
    before: str | None = commitment(SEED)
    if case == "another seed":
        shown = reveal(seed=bytes(32))
    elif case == "my value left out":
        shown = reveal(values=(b"", b""))
        seen = played([b"", b""])  # (the server dealt without it, consistently)
    elif case == "another commitment before":
        before = commitment(bytes(32))
    elif case == "no commitment before":
        before = None
    elif case == "dealt otherwise":
        seen = played([MINE, b"\x01"])  # the server dealt with a value it does not reveal
    elif case == "a value too few":
        shown = dict(reveal(), values=[MINE.hex()])
    proof = check_deal(RULES, 0, seen, shown, before, MINE)
    assert proof["verdict"] == "mismatch", proof
    assert reason in proof["reason"]


def test_without_a_reveal_the_deal_is_unchecked() -> None:
    proof = check_deal(RULES, 0, played([MINE, b""]), None, commitment(SEED), MINE)
    assert proof["verdict"] == "unchecked" and "no seed" in proof["reason"]


def test_a_game_not_connected_at_the_deal_checks_the_rest_and_says_it_saw_no_commitment() -> None:
    """A game started again (or reconnected) mid-hand never saw the commitment: that is no
    evidence against the server, but everything else is still checked."""
    seen = played([MINE, b""])
    proof = check_deal(RULES, 0, seen, reveal(), None, None, late=True)
    assert proof["verdict"] == "unchecked" and proof["late"] is True
    assert "not connected when the hand was dealt" in proof["reason"]
    assert record_verdict({"meta": {"fair": proof}}) == "unchecked"
    said = deal_check({"meta": {"fair": proof}})
    assert said is not None and said[1].startswith("Deal not checked: your game was not")
    other = check_deal(RULES, 0, played([MINE, b"\x01"]), reveal(), None, None, late=True)
    assert other["verdict"] == "mismatch", "cards that do not fit are flagged all the same"
    wrong = check_deal(RULES, 0, seen, reveal(seed=bytes(32)), None, None, late=True)
    assert wrong["verdict"] == "mismatch" and "commitment" in wrong["reason"]
    there = check_deal(RULES, 0, seen, reveal(), commitment(SEED), MINE, late=True)
    assert there["verdict"] == "checked", "a commitment seen is checked as ever"
