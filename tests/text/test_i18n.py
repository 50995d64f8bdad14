"""Translations: every catalog complete and consistent with the code, the ``.po`` reader and
``.mo`` writer, language choice (system, Settings, ``--lang``), English fallback, and every
screen in every language at 1024x600 without a text overflowing its box."""

from __future__ import annotations

import gettext
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from guihelp import make_app
from layoutcheck import Drawn, Record, check_scene, stale_texts
from scenelist import SCENES

from briscola.engine import Card
from briscola.gui.scenes.menu import MenuScene
from briscola.gui.scenes.rules import RulesScene
from briscola.gui.scenes.settings import SettingsScene
from briscola.text import i18n, names
from briscola.text.i18n import PoError, PoTranslations, load_catalog, parse_po
from tools import i18n as tool

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = [code for code in i18n.LANGUAGES if code != "en"]
SCREEN = pygame.Rect(0, 0, 1024, 600)


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Own settings, statistics and records; English again afterwards."""
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "home"))
    yield tmp_path / "home"
    i18n.set_language("en")


def catalog(language: str) -> list[i18n.PoEntry]:
    path, _mo = i18n.catalog_paths(language)
    return parse_po(path.read_text(encoding="utf-8"), str(path))


# ---------------------------------------------------------------------- the catalogs


def test_the_code_gives_translators_whole_literal_messages() -> None:
    messages, problems = tool.extract()
    assert not problems, "\n".join(problems)
    assert len(messages) > 300
    found = {m.msgid for m in messages}
    # Marked in several ways: _(), N_() in tables, pgettext(), the rules text, main/cli.
    for wanted in ("New game", "Two players", "D", "Briscolone", "start in a window"):
        assert wanted in found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_the_code_uses_is_translated(language: str) -> None:
    messages, _problems = tool.extract()
    entries = {e.key: e for e in catalog(language) if not e.obsolete}
    missing = [m.msgid for m in messages if m.key not in entries]
    untranslated = [m.msgid for m in messages if m.key in entries and not entries[m.key].translated]
    assert not missing, f"{language} lacks: {missing}"
    assert not untranslated, f"{language} has fuzzy or empty: {untranslated}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalog_entries_are_clean(language: str) -> None:
    """No fuzzy, empty or obsolete entries, no message the code does not use, and every
    translation keeps the placeholders of its English message."""
    messages, _problems = tool.extract()
    used = {m.key for m in messages}
    entries = catalog(language)
    problems = [p for e in entries[1:] for p in tool.entry_problems(e)]
    problems += [f"obsolete: {e.msgid!r}" for e in entries if e.obsolete]
    problems += [
        f"unused: {e.msgid!r}" for e in entries[1:] if not e.obsolete and e.key not in used
    ]
    assert not problems, "\n".join(problems)
    header = entries[0]
    assert header.msgid == "" and f"Language: {language}" in header.msgstr[0]
    assert i18n.plural_forms(header.msgstr[0]) == (2, "(n != 1)")


def test_the_check_command_passes() -> None:
    errors, _warnings = tool.check()
    assert not errors, "\n".join(errors)


def test_the_checker_catches_what_a_translator_can_get_wrong(tmp_path: Path) -> None:
    messages, _problems = tool.extract()
    entries = tool.merge([tool.header("it")], tool.template(messages), "it")
    for entry in entries[1:]:
        entry.msgstr = [f"[{entry.msgid}]"]
    by_id = {e.msgid: e for e in entries}
    by_id["Seat {n}"].msgstr = ["Posto"]  # a placeholder dropped
    by_id["Team {n}"].msgstr = ["Squadra {n} {name}"]  # a placeholder added
    by_id["Player {n}"].msgstr = ["Giocatore {n"]  # unbalanced braces
    by_id["Quit"].msgstr = [""]  # empty
    by_id["Rules"].flags = ["fuzzy"]
    entries.remove(by_id["Settings"])  # missing
    entries.append(i18n.PoEntry("Not in the code", ["Non nel codice"]))
    folder = tmp_path / "it" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "briscola.po").write_text(tool.format_po(entries), encoding="utf-8")
    errors, _warnings = tool.check(locale_dir=tmp_path)
    text = "\n".join(errors)
    for expected in (
        "it: missing: 'Settings'",
        "it: untranslated: 'Quit'",
        "it: fuzzy: 'Rules'",
        "it: not used by the code: 'Not in the code'",
        "in 'Posto'",
        "in 'Squadra {n} {name}'",
        "bad braces in the translation of 'Player {n}'",
        "no catalog for de",
    ):
        assert expected in text, expected


def test_update_keeps_translations_and_flags_what_changed() -> None:
    old = [
        tool.header("it"),
        i18n.PoEntry("Quit", ["Esci"], comments=["checked by Anna"]),
        i18n.PoEntry("The caller's side needs the points bid: 61 or more.", ["Serve 61."]),
        i18n.PoEntry("Gone for good", ["Sparito"]),
    ]
    pot = tool.template(
        [
            tool.Message("Quit", references=["briscola/gui/scenes/menu.py"]),
            tool.Message("The caller's side needs the points bid: 61 or more!"),
            tool.Message("{n} card", msgid_plural="{n} cards"),
        ]
    )
    merged = tool.merge(old, pot, "it")
    by_id = {e.msgid: e for e in merged}
    assert by_id["Quit"].msgstr == ["Esci"] and by_id["Quit"].comments == ["checked by Anna"]
    assert by_id["Quit"].references == ["briscola/gui/scenes/menu.py"]
    changed = by_id["The caller's side needs the points bid: 61 or more!"]
    assert changed.fuzzy and changed.msgstr == ["Serve 61."]
    assert by_id["{n} card"].msgstr == ["", ""] and not by_id["{n} card"].translated
    assert by_id["Gone for good"].obsolete
    assert "The caller's side needs the points bid: 61 or more." not in by_id
    text = tool.format_po(merged)
    assert '#~ msgid "Gone for good"' in text and "#, fuzzy" in text
    assert parse_po(text) == merged


def test_card_names_read_naturally() -> None:
    jack_coins, queen_cups = Card.from_code("JD"), Card.from_code("QC")
    ace_hearts, king_clubs = Card.from_code("AC"), Card.from_code("KB")
    expected = {
        "en": ("Jack of coins", "the Knight of cups", "the Ace of hearts", "King of clubs"),
        "it": ("Fante di denari", "il cavallo di coppe", "l'asso di cuori", "Re di fiori"),
        "de": ("Münz-Bube", "den Becher-Reiter", "das Herz-Ass", "Kreuz-König"),
        "es": ("Sota de oros", "el caballo de copas", "el as de corazones", "Rey de tréboles"),
    }
    for language, (a, b, c, d) in expected.items():
        i18n.set_language(language)
        assert names.card_name(jack_coins, "italian") == a
        assert names.card_the(queen_cups, "italian") == b
        assert names.card_the(ace_hearts, "french4") == c
        assert names.card_name(king_clubs, "french") == d
    i18n.set_language("de")
    assert names.card_the(Card.from_code("JS"), "french") == "den Pik-Buben"
    assert names.card_the(Card.from_code("7S"), "italian") == "die Schwert-Sieben"
    assert names.suit_name(Card.from_code("AB").suit, "italian") == "Stäbe"
    i18n.set_language("es")
    assert names.card_the(Card.from_code("QS"), "french") == "la reina de picas"
    assert names.rank_name(Card.from_code("JB").rank, "italian") == "Sota"


# ---------------------------------------------------------------------- the .po reader


SAMPLE = r"""# A translator's comment.
msgid ""
msgstr ""
"Language: xx\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n==2 ? 1 : 2);\n"

#. Translators: a note from the code.
#: briscola/gui/somewhere.py
msgid "Hello"
msgstr "Ciao"

msgctxt "dealer"
msgid "D"
msgstr "M"

msgid "D"
msgstr "Dd"

msgid ""
"A long message that goes on "
"over two lines\n"
"and a third."
msgstr ""
"Un messaggio \"lungo\"\tcon\\ "
"escape."

msgid "{n} card"
msgid_plural "{n} cards"
msgstr[0] "{n} carta"
msgstr[1] "{n} carte (due)"
msgstr[2] "{n} carte"

#, fuzzy
msgid "Fuzzy"
msgstr "Sfocato"

msgid "Empty"
msgstr ""

msgid "Half empty"
msgid_plural "Half empties"
msgstr[0] "Mezzo"
msgstr[1] ""
msgstr[2] "Mezzi"

#~ msgid "Gone"
#~ msgstr "Andato"
"""


def test_the_po_reader_handles_contexts_plurals_lines_and_escapes() -> None:
    entries = parse_po(SAMPLE)
    assert entries[0].comments == ["A translator's comment."]
    hello = entries[1]
    assert (hello.msgid, hello.msgstr) == ("Hello", ["Ciao"])
    assert hello.extracted == ["Translators: a note from the code."]
    assert hello.references == ["briscola/gui/somewhere.py"]
    assert entries[2].msgctxt == "dealer" and entries[2].key == "dealer\x04D"
    long = entries[4]
    assert long.msgid == "A long message that goes on over two lines\nand a third."
    assert long.msgstr == ['Un messaggio "lungo"\tcon\\ escape.']
    assert entries[5].msgid_plural == "{n} cards" and len(entries[5].msgstr) == 3
    assert entries[6].fuzzy and not entries[6].translated
    assert not entries[7].translated and not entries[8].translated
    assert entries[9].obsolete and entries[9].msgid == "Gone"
    t = PoTranslations.from_text(SAMPLE)
    assert t.gettext("Hello") == "Ciao"
    assert t.pgettext("dealer", "D") == "M" and t.gettext("D") == "Dd"
    assert t.gettext(long.msgid) == long.msgstr[0]
    forms = [t.ngettext("{n} card", "{n} cards", n) for n in (1, 2, 5)]
    assert forms == ["{n} carta", "{n} carte (due)", "{n} carte"]
    # Fuzzy, empty, half-empty and obsolete entries are left out: English shows.
    assert t.gettext("Fuzzy") == "Fuzzy"
    assert t.gettext("Empty") == "Empty"
    assert t.ngettext("Half empty", "Half empties", 3) == "Half empties"
    assert t.gettext("Gone") == "Gone"
    assert t.info()["language"] == "xx"


@pytest.mark.parametrize(
    "text",
    [
        'msgid "a"\nmsgstr "b" "c"\n',  # two strings on a line
        'msgid "a"\nmsgstr "b\n',  # unterminated
        'msgid "a"\nmsgstr "\\q"\n',  # unknown escape
        'msgid "a"\n',  # no msgstr
        'msgid "a"\nmsgstr[1] "b"\n',  # a plural form without msgid_plural
        'msgid "a"\nmsgid "b"\nmsgstr "c"\n',  # msgid twice
        'msgstr "a"\n',  # no msgid
        '"stray"\n',
        'msgfoo "a"\n',
    ],
)
def test_the_po_reader_reports_bad_syntax_with_its_line(text: str) -> None:
    with pytest.raises(PoError, match=r"<po>:\d+"):
        parse_po(text)


def test_po_files_round_trip() -> None:
    for language in LANGUAGES:
        path, _mo = i18n.catalog_paths(language)
        text = path.read_text(encoding="utf-8")
        assert tool.format_po(parse_po(text)) == text
    again = tool.format_po(parse_po(tool.format_po(parse_po(SAMPLE))))
    assert again == tool.format_po(parse_po(SAMPLE))
    assert parse_po(again) == parse_po(SAMPLE)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_compiled_mo_says_exactly_what_the_po_says(language: str) -> None:
    entries = catalog(language)
    from_po = PoTranslations.from_text(tool.format_po(entries))
    from_mo = gettext.GNUTranslations(io.BytesIO(tool.mo_bytes(entries)))
    for entry in entries[1:]:
        if entry.msgctxt is not None:
            pair = [t.pgettext(entry.msgctxt, entry.msgid) for t in (from_po, from_mo)]
        else:
            pair = [t.gettext(entry.msgid) for t in (from_po, from_mo)]
        assert pair[0] == pair[1] == entry.msgstr[0]
    sample = parse_po(SAMPLE)
    mo = gettext.GNUTranslations(io.BytesIO(tool.mo_bytes(sample)))
    assert [mo.ngettext("{n} card", "{n} cards", n) for n in (1, 2, 5)] == [
        "{n} carta",
        "{n} carte (due)",
        "{n} carte",
    ]
    assert mo.gettext("Fuzzy") == "Fuzzy" and mo.gettext("Empty") == "Empty"


def test_the_mo_is_used_when_newer_and_the_po_when_newer(tmp_path: Path) -> None:
    folder = tmp_path / "xx" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    po, mo = folder / "briscola.po", folder / "briscola.mo"
    po.write_text('msgid "Quit"\nmsgstr "from the po"\n', encoding="utf-8")
    mo.write_bytes(tool.mo_bytes(parse_po('msgid "Quit"\nmsgstr "from the mo"\n')))
    os.utime(po, (1_000_000, 1_000_000))
    assert load_catalog("xx", tmp_path).gettext("Quit") == "from the mo"
    os.utime(mo, (500_000, 500_000))
    assert load_catalog("xx", tmp_path).gettext("Quit") == "from the po"
    po.write_text('msgid "Quit"\nmsgstr "broken\n', encoding="utf-8")
    assert load_catalog("xx", tmp_path).gettext("Quit") == "from the mo"  # damaged: the next
    mo.unlink()
    assert load_catalog("xx", tmp_path).gettext("Quit") == "Quit"  # nothing usable: English
    assert load_catalog("yy", tmp_path).gettext("Quit") == "Quit"


def test_an_empty_translation_falls_back_to_english(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entries = catalog("it")
    for entry in entries:
        if entry.msgid in ("New game", "Quit"):
            entry.msgstr = [""]
    folder = tmp_path / "it" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "briscola.po").write_text(tool.format_po(entries), encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    assert i18n.set_language("it") == "it"
    assert i18n._("New game") == "New game"  # empty in the catalog: English, never ""
    assert i18n._("Quit") == "Quit"
    assert i18n._("Settings") == "Impostazioni"
    assert i18n._("Not a message of the game") == "Not a message of the game"
    assert i18n.ngettext("{n} card", "{n} cards", 2) == "{n} cards"
    assert i18n.pgettext("dealer", "D") == "M"
    # The same through a compiled catalog.
    (folder / "briscola.mo").write_bytes(tool.mo_bytes(entries))
    os.utime(folder / "briscola.po", (1_000_000, 1_000_000))
    i18n.set_language("it")
    assert isinstance(i18n._current, gettext.GNUTranslations)
    assert not isinstance(i18n._current, PoTranslations)
    assert (i18n._("New game"), i18n._("Settings")) == ("New game", "Impostazioni")


# ---------------------------------------------------------------------- choosing the language


def test_language_codes_and_the_system_language(monkeypatch: pytest.MonkeyPatch) -> None:
    assert i18n.normalise("it_IT.UTF-8") == "it"
    assert i18n.normalise("de-AT") == "de" and i18n.normalise("ES") == "es"
    assert i18n.normalise(None) == ""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANGUAGE", "fr:de_CH:en")
    assert i18n.system_language() == "de"
    monkeypatch.setenv("LANGUAGE", "")
    monkeypatch.setenv("LANG", "es_MX.UTF-8")
    assert i18n.system_language() == "es"
    assert i18n.set_language("") == "es"
    assert i18n.set_language("it_IT") == "it" and i18n._("Quit") == "Esci"
    assert i18n.set_language("xx") == "en" and i18n._("Quit") == "Quit"
    assert i18n.decimal(88.5) == "88.5"
    i18n.set_language("it")
    assert i18n.decimal(88.5) == "88,5" and i18n.decimal(7, 2) == "7,00"


def test_the_language_changes_live_in_every_scene_on_the_stack() -> None:
    app = make_app((1280, 720))
    menu = MenuScene(app)
    app.reset_to(menu)
    app.apply_requests()
    settings = SettingsScene(app)
    app.push(settings)
    app.apply_requests()
    app.step(1 / 60)
    assert menu.button("new_game").label() == "New game"
    settings.language.set_value("")
    for _step in range(2):  # Automatic -> English -> Italiano
        settings.change("language", settings.language.options[settings.language.index + 1][0])
        settings.language.set_value(app.settings.language)
    assert app.settings.language == "it"
    assert menu.button("new_game").label() == "Nuova partita"
    assert settings.done_button.label() == "Indietro"
    assert settings.four_colour.shown() == "Non disponibile con questo mazzo"
    assert app.window.title == "Briscola"
    report = menu.report()
    assert report["labels"]["quit"] == "Esci"
    app.close()


def test_lang_on_the_command_line_holds_until_the_player_picks_one() -> None:
    app = make_app((1024, 600), lang="de")
    assert i18n.current_language() == "de"
    app.settings.sound = False
    app.settings_changed()  # another setting: --lang still holds
    assert i18n.current_language() == "de"
    app.settings.language = "es"
    app.settings_changed()
    assert i18n.current_language() == "es"
    app.close()


def _run_main(
    home: Path, *args: str, report: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env["BRISCOLA_HOME"] = str(home)
    env.pop("BRISCOLA_REPORT", None)
    if report is not None:
        env["BRISCOLA_REPORT"] = str(report)
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT.parent,
    )


def test_lang_it_end_to_end(home: Path, tmp_path: Path) -> None:
    """``python main.py --lang it --frames 30 --turbo`` shows the menu in Italian, straight
    from the .po file (no compiled catalog needed)."""
    report = tmp_path / "report.json"
    done = _run_main(home, "--lang", "it", "--frames", "30", "--turbo", report=report)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["scene"] == "MenuScene" and data["language"] == "it"
    labels = data["labels"]
    assert labels["new_game"] == "Nuova partita" and labels["rules"] == "Regole"
    assert labels["quit"] == "Esci" and labels["settings"] == "Impostazioni"
    # The command line itself speaks the language asked for.
    helped = _run_main(home, "--lang", "es", "--help")
    assert helped.returncode == 0 and "empezar en una ventana" in helped.stdout
    wrong = _run_main(home, "--lang", "xx")
    assert wrong.returncode == 2 and "unknown language 'xx'" in wrong.stderr
    bad_size = _run_main(home, "--lang", "de", "--size", "huge")
    assert bad_size.returncode == 2 and "ungültige Größe 'huge'" in bad_size.stderr


# ---------------------------------------------------------------------- every screen


def _problems(app: object, name: str, language: str) -> list[str]:
    from briscola.gui.app import App

    assert isinstance(app, App)
    scene = app.scene
    found: list[str] = []
    if isinstance(scene, RulesScene):  # scroll through the whole text
        scene.set_target(0, instant=True)
        while True:
            found += check_scene(app, language)
            if scene.scroll >= scene.max_scroll:
                break
            scene.set_target(scene.scroll + scene.view.height * 0.8, instant=True)
    else:
        found += check_scene(app, language)
    return [f"{language} {name}: {problem}" for problem in dict.fromkeys(found)]


def test_the_stale_text_check_finds_another_language() -> None:
    record = Record((1024, 600))
    for text in ("Zwei und 120 Punkte", "Nuova partita", "Anna", "Briscola", "12 P.", "Menu"):
        record.texts.append(Drawn("TableScene", text, 16, False, pygame.Rect(0, 0, 9, 9), SCREEN))
    assert [p.split(": ", 1)[1] for p in stale_texts(record, "en")] == [
        "'Zwei und 120 Punkte' is in de, not en",
        "'Nuova partita' is in it, not en",
    ]
    assert len(stale_texts(record, "de")) == 2  # "Menu" is "Menü" in German
    assert len(stale_texts(record, "it")) == 1


@pytest.mark.parametrize("name", list(SCENES))
def test_every_scene_fits_1024x600_in_every_language(name: str) -> None:
    """Every text inside its widget, box, panel and the window; no text on a card or over
    another widget; nothing below 10 px. Each scene is built once, then shown in each
    language (the language changes live): no text may stay in the language before."""
    app = make_app((1024, 600))
    SCENES[name](app)
    problems: list[str] = []
    for language in [*LANGUAGES, "en"]:
        app.settings.language = language
        app.settings_changed()
        problems += _problems(app, name, language)
    app.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("name", ["menu", "settings", "rules", "score-chiamata5", "table-call"])
def test_large_windows_fit_too(name: str) -> None:
    app = make_app((1920, 1080))
    SCENES[name](app)
    problems: list[str] = []
    for language in LANGUAGES:
        app.settings.language = language
        app.settings_changed()
        problems += _problems(app, name, language)
    app.close()
    assert not problems, "\n".join(problems)
