"""One ordered registry of variants (``VARIANTS`` in ``briscola/engine/rules.py``): every
preset has its player's words, the documents that name the presets name the registry's, and
no module keeps a list of presets of its own (a preset left out of one would silently not
be offered, or crash a screen)."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from briscola.ai import check
from briscola.engine import PRESETS, VARIANTS
from briscola.text.labels import PRESET_WORDS, preset_help, preset_label

ROOT = Path(__file__).resolve().parents[2]
#: The two tables keyed by preset: the registry, and its translated words beside it.
REGISTRIES = ("briscola/engine/rules.py", "briscola/text/labels.py")


def test_every_preset_has_a_label_and_a_help_and_nothing_else_has() -> None:
    assert list(PRESET_WORDS) == list(PRESETS)
    for name, words in PRESET_WORDS.items():
        assert words.label.strip() and words.help.strip(), name
        assert preset_label(name) == words.label and preset_help(name) == words.help


def test_a_preset_without_words_shows_its_name_and_description_rather_than_crashing() -> None:
    assert preset_label("tressette") == "tressette"
    assert preset_help("classic2") != PRESETS["classic2"].describe()
    assert preset_help("tressette") == "tressette"


def test_the_self_check_covers_the_presets_the_registry_marks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert check.checked_presets() == tuple(PRESETS)  # today: every one
    marked = (VARIANTS[0], dataclasses.replace(VARIANTS[2], self_check=False), VARIANTS[3])
    monkeypatch.setattr(check, "VARIANTS", marked)
    assert check.checked_presets() == (VARIANTS[0].name, VARIANTS[3].name)


def _named(text: str) -> list[str]:
    return re.findall(r"`(\w+)`", text)


@pytest.mark.parametrize(
    ("document", "pattern", "names"),
    [
        ("README.md", r"named presets \((.*?);", list(PRESETS)),
        ("docs/bot-protocol.md", r"`preset` \((.*?)\)", None),
        ("docs/ai.md", r"fixed positions of each of\n(.*?) \(those", list(check.checked_presets())),
    ],
)
def test_the_documents_name_the_registrys_presets_in_order(
    document: str, pattern: str, names: list[str] | None
) -> None:
    text = (ROOT / document).read_text(encoding="utf-8")
    found = re.search(pattern, text, re.S)
    assert found is not None, f"{document}: the list of presets is gone"
    listed = _named(found.group(1)) or [n.strip() for n in found.group(1).split(",")]
    assert listed == (names or list(PRESETS)), document


def _preset_lists(path: Path) -> list[int]:
    """Lines of ``path`` where a literal tuple, list, set or dict names every preset, or all
    but one (a sample of a few presets, for a test or a benchmark, is not a list of them)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        items: list[ast.expr | None]
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            items = list(node.elts)
        elif isinstance(node, ast.Dict):
            items = list(node.keys)
        else:
            continue
        named = {
            item.value for item in items if isinstance(item, ast.Constant) and item.value in PRESETS
        }
        if len(named) >= len(PRESETS) - 1:
            lines.append(node.lineno)
    return lines


def test_no_module_keeps_its_own_list_of_presets() -> None:
    sources = [ROOT / "main.py"]
    for folder in ("briscola", "tests", "tools"):
        sources += sorted((ROOT / folder).rglob("*.py"))
    found = {
        str(path.relative_to(ROOT)): lines
        for path in sources
        if str(path.relative_to(ROOT)) not in REGISTRIES and (lines := _preset_lists(path))
    }
    assert found == {}, "read briscola.engine.PRESETS (or VARIANTS) instead"
