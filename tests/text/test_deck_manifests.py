"""Deck manifests: every deck folder describes itself; a bad manifest disables only its deck,
with a message that says what is wrong; names and corner labels follow the deck in use."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from briscola.engine import Card, Rank, Suit
from briscola.storage.settings import Settings
from briscola.text import decks, i18n, names

ROOT = Path(__file__).resolve().parents[2]
CARDS = ROOT / "assets" / "cards"


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    before = i18n.current_language()
    i18n.set_language("en")
    decks.set_catalogue(None)
    yield
    i18n.set_language(before)
    decks.set_catalogue(None)


def copy_deck(tmp_path: Path, deck: str = "spanish", name: str | None = None) -> Path:
    folder = tmp_path / (name or deck)
    shutil.copytree(CARDS / deck, folder)
    return folder


def rewrite(folder: Path, **changes: Any) -> None:
    path = folder / "deck.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    path.write_text(json.dumps(data), encoding="utf-8")


def test_every_shipped_deck_is_found_in_display_order() -> None:
    found = decks.discover(CARDS)
    assert found.problems == []
    assert found.ids()[:2] == ["italian", "french"]
    assert {"spanish", "piacentine", "siciliane"} <= set(found.ids())
    assert "french4" in found.decks and "french4" not in found.ids()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"schema": 2}, "'schema' must be 1"),
        ({"id": "other"}, "but the folder is"),
        ({"name": {"it": "Spagnole"}}, "needs an English"),
        ({"name": {"xx": "Spanish", "en": "Spanish"}}, "unknown language 'xx'"),
        ({"indices": {"A": "1"}}, "'indices' must give"),
        ({"names": "german"}, "'names' must be one of"),
        ({"card": {"en": "{rank} of {colour}"}}, "must use {rank}"),
        ({"card": {"en": "{rank} of {suit"}}, "not a valid template"),
        ({"card_the": None}, "'card_the'[en] must give"),
        ({"suits": {"en": {"D": "coins"}}}, "must name exactly D, C, S, B"),
        ({"back": "missing.svg"}, "the back 'missing.svg' is missing"),
        ({"licence": ""}, "'licence' must be text"),
        ({"colour": "red"}, "unknown field(s): colour"),
    ],
)
def test_a_bad_manifest_is_rejected_with_a_clear_message(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    folder = copy_deck(tmp_path)
    rewrite(folder, **change)
    with pytest.raises(decks.ManifestError) as caught:
        decks.load_manifest(folder)
    assert message in str(caught.value)
    assert str(folder / "deck.json") in str(caught.value)


def test_a_deck_missing_a_face_or_its_manifest_is_rejected(tmp_path: Path) -> None:
    folder = copy_deck(tmp_path)
    (folder / "KB.svg").unlink()
    with pytest.raises(decks.ManifestError, match="1 card face"):
        decks.load_manifest(folder)
    (folder / "deck.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(decks.ManifestError, match="not valid JSON"):
        decks.load_manifest(folder)
    (folder / "deck.json").unlink()
    with pytest.raises(decks.ManifestError, match=r"no deck\.json"):
        decks.load_manifest(folder)


def test_a_bad_manifest_disables_only_its_deck(tmp_path: Path) -> None:
    copy_deck(tmp_path, "italian")
    bad = copy_deck(tmp_path, "spanish")
    rewrite(bad, indices=None)
    found = decks.discover(tmp_path)
    assert found.ids() == ["italian"]
    assert len(found.problems) == 1 and "spanish" in found.problems[0]


def test_a_variant_of_an_unknown_deck_is_left_out(tmp_path: Path) -> None:
    copy_deck(tmp_path, "french4")
    found = decks.discover(tmp_path)
    assert found.decks == {}
    assert "unknown deck 'french'" in found.problems[0]


def test_adding_a_deck_is_adding_a_folder(tmp_path: Path) -> None:
    copy_deck(tmp_path, "italian")
    folder = copy_deck(tmp_path, "spanish", "mydeck")
    rewrite(folder, id="mydeck", order=5, name={"en": "My deck"})
    decks.set_catalogue(decks.discover(tmp_path))
    assert decks.deck_ids() == ["mydeck", "italian"]
    assert decks.deck_info("mydeck") is not None
    assert Settings.from_json({"deck": "mydeck"})[0].deck == "mydeck"


def test_the_chosen_deck_must_be_a_known_one() -> None:
    assert Settings.from_json({"deck": "spanish"}) == (Settings(deck="spanish"), [])
    settings, bad = Settings.from_json({"deck": "tarot", "deck_cycle": "all"})
    assert settings.deck == "italian" and bad == ["deck", "deck_cycle"]


def test_four_colours_apply_to_the_deck_that_offers_them() -> None:
    assert Settings(deck="french", four_colour=True).deck_style == "french4"
    assert Settings(deck="spanish", four_colour=True).deck_style == "spanish"
    assert decks.face_folder("no-such-deck") == decks.FALLBACK


@pytest.mark.parametrize(
    ("current", "ticked", "expected"),
    [
        ("italian", ["italian", "spanish"], "spanish"),
        ("spanish", ["italian", "spanish"], "italian"),
        ("italian", ["italian"], "italian"),
        ("french", ["italian", "spanish"], "spanish"),
        ("spanish", [], "italian"),
        ("italian", ["gone", "spanish"], "spanish"),
    ],
)
def test_d_cycles_through_the_ticked_decks_in_display_order(
    current: str, ticked: list[str], expected: str
) -> None:
    order = ["italian", "french", "piacentine", "siciliane", "spanish"]
    assert decks.next_deck(current, ticked, order) == expected


def test_spanish_cards_are_named_and_numbered_as_on_the_deck() -> None:
    jack = Card(Rank.JACK, Suit.COINS)
    king = Card(Rank.KING, Suit.CLUBS)
    assert names.card_name(jack, "spanish") == "Jack of coins"
    assert names.card_the(king, "spanish") == "the King of clubs"
    assert names.card_label(king, "spanish") == "12"
    assert names.card_label(king, "italian") == "10"
    assert names.card_label(king, "french4") == "K"
    assert names.suit_name(Suit.CLUBS, "spanish") == "clubs"
    assert names.suit_name(Suit.CLUBS, "italian") == "batons"
    assert names.rank_name(Rank.QUEEN, "spanish") == "Knight"
    assert names.rank_name(Rank.QUEEN, "italian") == "Knight"


def test_a_language_the_manifest_does_not_name_uses_the_built_in_names() -> None:
    i18n.set_language("es")
    assert names.card_name(Card(Rank.JACK, Suit.COINS), "spanish") == "Sota de oros"
    assert names.card_the(Card(Rank.JACK, Suit.COINS), "spanish") == "la sota de oros"
    i18n.set_language("it")
    assert names.card_name(Card(Rank.QUEEN, Suit.CUPS), "piacentine") == "Cavallo di coppe"
    assert names.card_name(Card(Rank.QUEEN, Suit.CUPS), "french4") == "Donna di cuori"
