"""The card decks the game knows, read from the manifests in ``assets/cards/<deck>/deck.json``.

Adding a deck means adding a folder: 40 faces named ``<rank><suit>.svg`` (ranks
``A 2 3 4 5 6 7 J Q K``, suits ``D C S B``), optionally ``back.svg``, and a ``deck.json``::

    {
      "schema": 1,
      "id": "spanish",                      # the folder's name
      "order": 50,                          # place in lists (smaller first)
      "name": {"en": "Spanish", "it": "Spagnole", "de": "Spanisch", "es": "Española"},
      "region": {"en": "Spain", ...},
      "suits": {"en": {"D": "coins", "C": "cups", "S": "swords", "B": "clubs"}, ...},
      "figures": {"en": {"J": "Jack", "Q": "Knight", "K": "King"}, ...},
      "indices": {"A": "1", ..., "J": "10", "Q": "11", "K": "12"},
      "names": "italian",                   # built-in card names: "italian" or "french"
      "card": {"en": "{rank} of {suit}"},   # optional: own card names in these languages
      "card_the": {"en": {"*": "the {rank} of {suit}"}},
      "back": "back.svg",                   # optional
      "four_colour": null,                  # optional: id of a four-colour variant folder
      "variant_of": null,                   # optional: this folder is a variant of that deck
      "licence": "MIT (project)"
    }

A manifest that cannot be read, or that breaks a rule, disables that one deck with a clear
message (:attr:`Catalogue.problems`); it never stops the game.

Everything here is plain Python (no pygame), so the names and the settings can use it.

>>> next_deck("italian", ["italian", "spanish"], ["italian", "french", "spanish"])
'spanish'
>>> next_deck("spanish", ["italian", "spanish"], ["italian", "french", "spanish"])
'italian'
>>> next_deck("french", [], ["italian", "french"])
'italian'
"""

from __future__ import annotations

import json
import logging
import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from briscola.resources import asset_path

log = logging.getLogger(__name__)

SCHEMA = 1
LANGUAGES = ("en", "it", "de", "es")
RANK_CODES = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
SUIT_CODES = ("D", "C", "S", "B")
FIGURE_CODES = ("J", "Q", "K")
FACE_FILES = tuple(f"{rank}{suit}.svg" for suit in SUIT_CODES for rank in RANK_CODES)
NAME_SCHEMES = ("italian", "french")
#: The deck used when the chosen one is unknown or disabled.
FALLBACK = "italian"

_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
_FIELDS = {
    "schema",
    "id",
    "order",
    "name",
    "region",
    "suits",
    "figures",
    "indices",
    "names",
    "card",
    "card_the",
    "back",
    "four_colour",
    "variant_of",
    "licence",
    "generator",
    "pattern",
}


class ManifestError(ValueError):
    """A deck manifest that cannot be used; the message says which file and what is wrong."""


@dataclass(frozen=True)
class DeckInfo:
    """One deck, as its manifest describes it."""

    id: str
    folder: Path
    order: int
    name: Mapping[str, str]
    region: Mapping[str, str]
    suits: Mapping[str, Mapping[str, str]]
    figures: Mapping[str, Mapping[str, str]]
    indices: Mapping[str, str]
    names: str
    card: Mapping[str, str]
    card_the: Mapping[str, Mapping[str, str]]
    licence: str
    back: str | None = None
    four_colour: str | None = None
    variant_of: str | None = None

    def title(self, language: str) -> str:
        """The deck's name in *language* (English when the manifest lacks it)."""
        return self.name.get(language) or self.name["en"]

    def region_name(self, language: str) -> str:
        return self.region.get(language) or self.region.get("en", "")

    @property
    def back_path(self) -> Path | None:
        return self.folder / self.back if self.back else None


@dataclass(frozen=True)
class Catalogue:
    """Every usable deck (faces folders, variants included) and the problems found."""

    decks: Mapping[str, DeckInfo]
    problems: Sequence[str]

    def playable(self) -> list[DeckInfo]:
        """The decks a player chooses from (variants such as four-colour faces left out)."""
        return [info for info in self.decks.values() if info.variant_of is None]

    def ids(self) -> list[str]:
        return [info.id for info in self.playable()]


# ------------------------------------------------------------------------------ validation


def _need(ok: bool, where: str, message: str) -> None:
    if not ok:
        raise ManifestError(f"{where}: {message}")


def _text(value: Any, where: str, what: str, limit: int = 80) -> str:
    _need(isinstance(value, str) and 0 < len(value.strip()) <= limit, where, f"{what} must be text")
    assert isinstance(value, str)
    return value


def _per_language(value: Any, where: str, what: str, required: bool = True) -> dict[str, str]:
    if value is None and not required:
        return {}
    _need(isinstance(value, dict), where, f"{what} must map languages to text")
    out = {}
    for language, text in value.items():
        _need(language in LANGUAGES, where, f"{what}: unknown language {language!r}")
        out[language] = _text(text, where, f"{what}[{language}]")
    _need(not required or "en" in out, where, f"{what} needs an English ('en') entry")
    return out


def _table(value: Any, keys: Sequence[str], where: str, what: str) -> dict[str, dict[str, str]]:
    """language -> {key: text}, every language giving every key."""
    if value is None:
        return {}
    _need(isinstance(value, dict), where, f"{what} must map languages to tables")
    out = {}
    for language, table in value.items():
        _need(language in LANGUAGES, where, f"{what}: unknown language {language!r}")
        _need(
            isinstance(table, dict) and set(table) == set(keys),
            where,
            f"{what}[{language}] must name exactly {', '.join(keys)}",
        )
        out[language] = {
            key: _text(table[key], where, f"{what}[{language}][{key}]") for key in keys
        }
    return out


def _template(value: Any, where: str, what: str) -> str:
    text = _text(value, where, what)
    try:
        fields = {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}
    except ValueError as exc:
        raise ManifestError(f"{where}: {what} is not a valid template ({exc})") from None
    _need(
        fields <= {"rank", "rank_lower", "suit"} and "suit" in fields and bool(fields - {"suit"}),
        where,
        f"{what} must use {{rank}} (or {{rank_lower}}) and {{suit}} and nothing else",
    )
    return text


def _optional_id(value: Any, where: str, what: str) -> str | None:
    if value is None:
        return None
    _need(isinstance(value, str) and bool(_ID.match(value)), where, f"{what} must be a deck id")
    assert isinstance(value, str)
    return value


def parse_manifest(data: Any, folder: Path) -> DeckInfo:
    """Check a manifest's data against the rules and the folder's files; raise
    :class:`ManifestError` with a clear message on the first problem."""
    where = str(folder / "deck.json")
    _need(isinstance(data, dict), where, "the manifest must be a JSON object")
    unknown = sorted(set(data) - _FIELDS)
    _need(not unknown, where, f"unknown field(s): {', '.join(unknown)}")
    _need(data.get("schema") == SCHEMA, where, f"'schema' must be {SCHEMA}")
    deck_id = data.get("id")
    _need(isinstance(deck_id, str) and bool(_ID.match(deck_id)), where, "'id' must be a deck id")
    _need(deck_id == folder.name, where, f"'id' is {deck_id!r} but the folder is {folder.name!r}")
    order = data.get("order", 100)
    _need(type(order) is int, where, "'order' must be a whole number")
    indices = data.get("indices")
    _need(
        isinstance(indices, dict) and set(indices) == set(RANK_CODES),
        where,
        f"'indices' must give the corner label of each rank {' '.join(RANK_CODES)}",
    )
    names = data.get("names", "italian")
    _need(names in NAME_SCHEMES, where, f"'names' must be one of {', '.join(NAME_SCHEMES)}")
    card = data.get("card") or {}
    _need(isinstance(card, dict), where, "'card' must map languages to templates")
    card_the_raw = data.get("card_the") or {}
    _need(isinstance(card_the_raw, dict), where, "'card_the' must map languages to templates")
    suits = _table(data.get("suits"), SUIT_CODES, where, "'suits'")
    figures = _table(data.get("figures"), FIGURE_CODES, where, "'figures'")
    templates: dict[str, str] = {}
    the: dict[str, dict[str, str]] = {}
    for language, template in card.items():
        _need(language in LANGUAGES, where, f"'card': unknown language {language!r}")
        templates[language] = _template(template, where, f"'card'[{language}]")
        _need(
            language in suits and language in figures,
            where,
            f"'card'[{language}] needs 'suits' and 'figures' in that language",
        )
        forms: Any = card_the_raw.get(language)
        _need(
            isinstance(forms, dict) and "*" in forms and set(forms) <= {"*", *RANK_CODES},
            where,
            f"'card_the'[{language}] must give a '*' template (and optionally one per rank)",
        )
        assert isinstance(forms, dict)
        the[language] = {
            key: _template(value, where, f"'card_the'[{language}][{key}]")
            for key, value in forms.items()
        }
    back = data.get("back")
    if back is not None:
        _need(
            isinstance(back, str) and back.endswith(".svg") and "/" not in back,
            where,
            "'back' must be an SVG file name in the deck's folder",
        )
        _need((folder / back).is_file(), where, f"the back {back!r} is missing")
    missing = [name for name in FACE_FILES if not (folder / name).is_file()]
    _need(not missing, where, f"{len(missing)} card face(s) missing, e.g. {', '.join(missing[:3])}")
    return DeckInfo(
        id=deck_id,
        folder=folder,
        order=order,
        name=_per_language(data.get("name"), where, "'name'"),
        region=_per_language(data.get("region"), where, "'region'", required=False),
        suits=suits,
        figures=figures,
        indices={rank: _text(indices[rank], where, f"'indices'[{rank}]", 3) for rank in RANK_CODES},
        names=names,
        card=templates,
        card_the=the,
        licence=_text(data.get("licence"), where, "'licence'", 200),
        back=back,
        four_colour=_optional_id(data.get("four_colour"), where, "'four_colour'"),
        variant_of=_optional_id(data.get("variant_of"), where, "'variant_of'"),
    )


def load_manifest(folder: Path) -> DeckInfo:
    """Read and check ``folder/deck.json``."""
    path = folder / "deck.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ManifestError(f"{path}: no deck.json (every deck folder needs one)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError(f"{path}: cannot be read ({exc})") from None
    except ValueError as exc:
        raise ManifestError(f"{path}: not valid JSON ({exc})") from None
    return parse_manifest(data, folder)


def discover(root: Path) -> Catalogue:
    """Every deck folder under *root* (``backs`` aside) whose manifest is good."""
    found: list[DeckInfo] = []
    problems: list[str] = []
    folders = sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []
    for folder in folders:
        if folder.name == "backs":
            continue
        try:
            found.append(load_manifest(folder))
        except ManifestError as exc:
            problems.append(str(exc))
    ids = {info.id for info in found}
    good: list[DeckInfo] = []
    for info in found:
        link = info.variant_of or info.four_colour
        if link is not None and link not in ids:
            problems.append(f"{info.folder / 'deck.json'}: refers to an unknown deck {link!r}")
            continue
        good.append(info)
    good.sort(key=lambda info: (info.order, info.id))
    return Catalogue({info.id: info for info in good}, problems)


# ------------------------------------------------------------------------------ the game's decks

_catalogue: Catalogue | None = None


def catalogue() -> Catalogue:
    """The decks under ``assets/cards`` (read once)."""
    global _catalogue
    if _catalogue is None:
        _catalogue = discover(asset_path("cards"))
        for problem in _catalogue.problems:
            log.warning("deck left out: %s", problem)
    return _catalogue


def set_catalogue(value: Catalogue | None) -> None:
    """Replace the decks in use (tests), or None to read ``assets/cards`` again."""
    global _catalogue
    _catalogue = value


def deck_info(deck_id: str) -> DeckInfo | None:
    return catalogue().decks.get(deck_id)


def deck_ids() -> list[str]:
    """The playable decks' ids, in display order."""
    return catalogue().ids()


def face_folder(deck_id: str, four_colour: bool = False) -> str:
    """The folder of faces to draw: the deck's four-colour variant when asked and offered;
    the fallback deck when *deck_id* is unknown."""
    info = deck_info(deck_id)
    if info is None:
        return FALLBACK
    if four_colour and info.four_colour and info.four_colour in catalogue().decks:
        return info.four_colour
    return info.id


def naming_deck(style: str) -> DeckInfo | None:
    """The deck whose names a face folder uses (a variant uses its base deck's names)."""
    info = deck_info(style)
    if info is not None and info.variant_of is not None:
        return deck_info(info.variant_of) or info
    return info


def next_deck(current: str, ticked: Sequence[str], available: Sequence[str] | None = None) -> str:
    """The deck after *current* among the *ticked* ones, in display order, wrapping round.

    Unknown ids in *ticked* are skipped; with none ticked, every available deck takes part.
    """
    order = list(deck_ids() if available is None else available)
    if not order:
        return current
    wanted = set(ticked)
    ring = [deck for deck in order if deck in wanted] or order
    if current in ring:
        return ring[(ring.index(current) + 1) % len(ring)]
    later = (
        [deck for deck in ring if order.index(deck) > order.index(current)]
        if current in order
        else []
    )
    return later[0] if later else ring[0]
