"""briscola-fair/1 (briscola/engine/fairdeal.py): the test vectors of docs/fairness.md held
to the code, every input changing the deck, and the check of what a seat saw."""

from __future__ import annotations

import doctest
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from briscola.engine import VARIANTS, BriscolaTurned, Card, Dealt, Drew, GameState, Rules, fairdeal
from briscola.engine.fairdeal import (
    MAX_VALUE,
    SEED_SIZE,
    check_seen,
    commitment,
    deal_key,
    derive_deck,
    draws,
    record_verdict,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"


def vectors() -> list[list[str]]:
    """The rows of the page's test vectors table."""
    rows: list[list[str]] = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("| `"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def test_the_page_s_test_vectors_are_the_code_s() -> None:
    rows = vectors()
    assert len(rows) >= 5
    for preset, seed_hex, values_cell, commit, key, deck in rows:
        rules = Rules.preset(preset.strip("`"))
        seed = bytes.fromhex(seed_hex.strip("`"))
        values = [
            b"" if value.strip() == "(empty)" else bytes.fromhex(value.strip().strip("`"))
            for value in values_cell.split(",")
        ]
        assert commitment(seed) == commit.strip("`"), preset
        assert deal_key(seed, values).hex() == key.strip("`"), preset
        assert " ".join(card.code for card in derive_deck(rules, seed, values)) == deck.strip(
            "`"
        ), preset


def test_the_page_s_length_prefix_example_gives_two_different_decks() -> None:
    rows = vectors()
    assert re.sub(r"\s", "", rows[1][2]) == "`01`,`0203`"
    assert re.sub(r"\s", "", rows[2][2]) == "`0102`,`03`"
    assert rows[1][1] == rows[2][1] and rows[1][5] != rows[2][5]


SEEDS = st.binary(min_size=SEED_SIZE, max_size=SEED_SIZE)
VALUE = st.binary(max_size=MAX_VALUE)


@settings(max_examples=60, deadline=None)
@given(
    preset=st.sampled_from([variant.name for variant in VARIANTS]),
    seed=SEEDS,
    data=st.data(),
)
def test_changing_any_one_seat_s_value_or_the_seed_changes_the_deck(
    preset: str, seed: bytes, data: st.DataObject
) -> None:
    rules = Rules.preset(preset)
    values = data.draw(st.lists(VALUE, min_size=rules.players, max_size=rules.players))
    deck = derive_deck(rules, seed, values)
    assert sorted(deck) == sorted(rules.deck)
    seat = data.draw(st.integers(0, rules.players - 1))
    other = data.draw(VALUE.filter(lambda value: value != values[seat]))
    changed = [*values[:seat], other, *values[seat + 1 :]]
    assert derive_deck(rules, seed, changed) != deck
    other_seed = data.draw(SEEDS.filter(lambda value: value != seed))
    assert derive_deck(rules, other_seed, values) != deck


def test_a_value_moved_across_seats_makes_another_key() -> None:
    seed = bytes(SEED_SIZE)
    assert deal_key(seed, [b"ab", b""]) != deal_key(seed, [b"a", b"b"])
    assert deal_key(seed, [b"ab", b""]) != deal_key(seed, [b"", b"ab"])


def test_bad_inputs_are_refused_with_a_reason() -> None:
    rules = Rules.preset("classic2")
    with pytest.raises(ValueError, match="32 bytes"):
        derive_deck(rules, b"short", [b"", b""])
    with pytest.raises(ValueError, match="2 contributions"):
        derive_deck(rules, bytes(32), [b""])
    with pytest.raises(ValueError, match="over 64 bytes"):
        derive_deck(rules, bytes(32), [b"", bytes(65)])


def test_a_number_past_the_last_whole_multiple_is_drawn_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rejection sampling: for three places (``m = 3``) ``2**32 - 1`` is past the last whole
    multiple of 3 and is thrown away; the next number, 5, gives ``5 mod 3 = 2``."""
    numbers = iter([2**32 - 1, 5, 7])
    monkeypatch.setattr(fairdeal, "_stream", lambda key: numbers)
    assert draws(b"key", 3) == [2, 1]


def test_the_shuffle_is_not_lopsided() -> None:
    """Over 4000 seeds each card lands on top about as often as any other (chi-square of 40
    cells, 39 degrees of freedom: under 80 far beyond chance)."""
    rules = Rules.preset("classic2")
    counts: dict[Card, int] = {}
    for n in range(4000):
        top = derive_deck(rules, n.to_bytes(SEED_SIZE, "big"), [b"", b""])[0]
        counts[top] = counts.get(top, 0) + 1
    expected = 4000 / 40
    chi = sum((counts.get(card, 0) - expected) ** 2 / expected for card in rules.deck)
    assert chi < 80, chi


def _played(rules: Rules, deck: tuple[Card, ...], seed: int) -> GameState:
    state = GameState(rules, deck, dealer=rules.players - 1)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("rules", [variant.rules for variant in VARIANTS], ids=str)
def test_what_every_seat_saw_fits_the_deck_it_was_dealt_from(rules: Rules) -> None:
    deck = derive_deck(rules, bytes(range(32)), [b""] * rules.players)
    state = _played(rules, deck, 3)
    for seat in range(rules.players):
        assert check_seen(rules, deck, seat, state.events_for(seat)) is None


@pytest.mark.parametrize("preset", ["classic2", "teams4", "chiamata5", "scoperta2"])
def test_a_deck_that_is_not_the_one_dealt_is_refused(preset: str) -> None:
    rules = Rules.preset(preset)
    deck = derive_deck(rules, bytes(range(32)), [b""] * rules.players)
    seen = _played(rules, deck, 5).events_for(0)
    other = derive_deck(rules, bytes(range(32)), [b"x"] + [b""] * (rules.players - 1))
    assert check_seen(rules, other, 0, seen) is not None
    # Any card seat 0 was dealt or drew, or saw turned, changed places with any other.
    faces = {e.card for e in seen if isinstance(e, (Dealt, Drew, BriscolaTurned)) and e.card}
    mine = [place for place, card in enumerate(deck) if card in faces]
    assert mine
    for place in mine:
        for other_place in range(len(deck)):
            if other_place == place:
                continue
            swapped = list(deck)
            swapped[place], swapped[other_place] = swapped[other_place], swapped[place]
            assert check_seen(rules, swapped, 0, seen) is not None, (place, other_place)


def test_a_hand_seen_without_its_start_is_not_checked() -> None:
    rules = Rules.preset("classic2")
    deck = derive_deck(rules, bytes(32), [b"", b""])
    seen = _played(rules, deck, 1).events_for(0)[1:]
    assert check_seen(rules, deck, 0, seen) == "the start of the hand was not seen"


def test_the_page_s_example_runs() -> None:
    result = doctest.testfile(str(DOC), module_relative=False)
    assert result.attempted >= 4 and result.failed == 0


def test_a_record_whose_deck_is_not_the_proof_s_is_no_checked_deal() -> None:
    rules = Rules.preset("classic2")
    seed, values = bytes(range(32)), [b"\x01", b""]
    deck = [card.code for card in derive_deck(rules, seed, values)]
    proof = {"verdict": "checked", "commit": commitment(seed), "seed": seed.hex(),
             "values": [value.hex() for value in values]}  # fmt: skip
    doc = {"rules": rules.to_dict(), "deck": deck, "meta": {"fair": proof}}
    assert record_verdict(doc) == "checked"
    assert record_verdict({**doc, "deck": deck[1:] + deck[:1]}) == "mismatch"
    assert (
        record_verdict({**doc, "meta": {"fair": {**proof, "values": ["01", "02"]}}}) == "mismatch"
    )
    assert (
        record_verdict({**doc, "meta": {"fair": {**proof, "verdict": "unchecked"}}}) == "unchecked"
    )
    assert record_verdict({**doc, "meta": {"fair": {**proof, "verdict": "fine"}}}) == "mismatch"
    assert record_verdict({**doc, "meta": {}}) is None
