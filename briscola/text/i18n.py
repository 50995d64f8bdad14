"""Translations through stdlib :mod:`gettext`, switchable while the game runs.

Every string a player sees goes through :func:`_` (or :func:`N_` to mark a constant that is
translated where it is shown, :func:`ngettext` for counts, :func:`pgettext` where one English
word needs different translations). Catalogs live in
``briscola/locale/<lang>/LC_MESSAGES/briscola.po``; a compiled ``briscola.mo`` beside it is
used when it is at least as new as the ``.po``, otherwise the ``.po`` is read directly, so a
source checkout shows translations without any compile step (``python -m tools.i18n``
extracts, updates, compiles and checks the catalogs: docs/translating.md). A missing catalog,
a missing message or an empty translation falls back to English, never to an empty string.
"""

from __future__ import annotations

import contextlib
import gettext
import locale
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DOMAIN = "briscola"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

#: Languages offered in settings: code -> name in that language.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "it": "Italiano",
    "de": "Deutsch",
    "es": "Español",
}

#: Separates a message's context from its id in a catalog (as in GNU gettext).
CONTEXT_SEP = "\x04"

_current: gettext.NullTranslations = gettext.NullTranslations()
_current_code = "en"


def _(message: str) -> str:
    """Translate ``message`` into the current language (English when untranslated)."""
    return _current.gettext(message) or message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, translated (English when untranslated)."""
    return _current.ngettext(singular, plural, n) or (singular if n == 1 else plural)


def pgettext(context: str, message: str) -> str:
    """Translate ``message`` in ``context`` (the same English word, different meanings)."""
    return _current.pgettext(context, message) or message


def decimal(value: float, digits: int = 1) -> str:
    """``value`` with ``digits`` decimals and the language's decimal separator (88,5)."""
    text = f"{value:.{digits}f}"
    # Translators: the decimal separator of numbers such as 88.5 (a comma in most languages).
    return text.replace(".", pgettext("decimal separator", "."))


def N_(message: str) -> str:
    """Mark a string for extraction without translating it here."""
    return message


def normalise(code: str | None) -> str:
    """``it_IT.UTF-8``, ``it-IT`` or ``IT`` -> ``it``; empty for None or ""."""
    if not code:
        return ""
    return code.split(":")[0].split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()


def system_language() -> str:
    """The best supported language for the user's locale (``en`` if none fits)."""
    candidates = [os.environ.get(var, "") for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")]
    with contextlib.suppress(ValueError):
        candidates.append(locale.getlocale()[0] or "")
    for value in candidates:
        for part in value.split(":"):
            code = normalise(part)
            if code in LANGUAGES:
                return code
    return "en"


def set_language(code: str | None) -> str:
    """Switch to ``code`` (None or "" follows the system); returns the language in use."""
    global _current, _current_code
    wanted = normalise(code) or system_language()
    if wanted not in LANGUAGES:
        wanted = "en"
    _current = load_catalog(wanted)
    _current_code = wanted
    return wanted


def current_language() -> str:
    return _current_code


def catalog_paths(code: str, root: Path | None = None) -> tuple[Path, Path]:
    """``(po, mo)`` of language ``code`` (under :data:`LOCALE_DIR` unless ``root``)."""
    folder = (root or LOCALE_DIR) / code / "LC_MESSAGES"
    return folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"


def load_catalog(code: str, root: Path | None = None) -> gettext.NullTranslations:
    """The catalog of ``code``: the ``.mo`` unless the ``.po`` is newer, else the ``.po`` (the
    other one when the first cannot be read); English (no translation) when neither works."""
    if code == "en":
        return gettext.NullTranslations()
    po, mo = catalog_paths(code, root)
    candidates = [path for path in (mo, po) if path.is_file()]
    if len(candidates) == 2 and po.stat().st_mtime > mo.stat().st_mtime:
        candidates.reverse()  # the .po was edited since the .mo was compiled
    for path in candidates:
        try:
            with open(path, "rb") as fp:
                if path.suffix == ".mo":
                    return gettext.GNUTranslations(fp)
                return PoTranslations(fp)
        except (OSError, ValueError, SyntaxError):
            continue  # a damaged catalog: try the next, or fall back to English
    return gettext.NullTranslations()


# ---------------------------------------------------------------------- .po files


class PoError(ValueError):
    """A ``.po`` file that cannot be parsed; says where."""


@dataclass
class PoEntry:
    """One message of a ``.po`` file."""

    msgid: str
    msgstr: list[str] = field(default_factory=lambda: [""])
    msgctxt: str | None = None
    msgid_plural: str | None = None
    flags: list[str] = field(default_factory=list)
    #: ``#:`` source references (``path:line``).
    references: list[str] = field(default_factory=list)
    #: ``#.`` comments from the source code (notes for translators).
    extracted: list[str] = field(default_factory=list)
    #: ``#`` comments of the translator.
    comments: list[str] = field(default_factory=list)
    obsolete: bool = False
    #: Where the entry starts in its file (for messages; not part of its value).
    line: int = field(default=0, compare=False)

    @property
    def key(self) -> str:
        """The catalog key: ``context\\x04msgid`` or ``msgid``."""
        if self.msgctxt is None:
            return self.msgid
        return f"{self.msgctxt}{CONTEXT_SEP}{self.msgid}"

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        """Every form translated, not fuzzy, not obsolete (what the game uses)."""
        return not (self.fuzzy or self.obsolete) and all(self.msgstr) and bool(self.msgstr)


def unquote(text: str, where: str = "") -> str:
    """The value of a C-quoted ``.po`` string such as ``"a\\tb\\n"``."""
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise PoError(f"{where}expected a quoted string, got {text!r}")
    out: list[str] = []
    body = text[1:-1]
    index = 0
    while index < len(body):
        char = body[index]
        if char == '"':
            raise PoError(f"{where}unescaped quote in {text!r}")
        if char != "\\":
            out.append(char)
            index += 1
            continue
        code = body[index + 1 : index + 2]
        if code in _ESCAPES:
            out.append(_ESCAPES[code])
            index += 2
        elif code == "x" and _is_hex(body[index + 2 : index + 4]):
            out.append(chr(int(body[index + 2 : index + 4], 16)))
            index += 4
        elif code and code in "01234567":
            end = index + 1
            while end < min(len(body), index + 4) and body[end] in "01234567":
                end += 1
            out.append(chr(int(body[index + 1 : end], 8)))
            index = end
        else:
            raise PoError(f"{where}bad escape \\{code} in {text!r}")
    return "".join(out)


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b"}
_ESCAPES |= {"f": "\f", "v": "\v"}


def _is_hex(text: str) -> bool:
    return len(text) == 2 and all(c in "0123456789abcdefABCDEF" for c in text)


def parse_po(text: str, name: str = "<po>") -> list[PoEntry]:
    """The entries of a ``.po`` file, the header (``msgid ""``) included, obsolete (``#~``)
    entries marked as such. Raises :class:`PoError` with the line number on bad syntax."""
    entries: list[PoEntry] = []
    entry: PoEntry | None = None
    pending = PoEntry("")  # comments seen before the next msgid
    target: tuple[str, int] | None = None  # the field continuation lines extend
    values: dict[tuple[str, int], str] = {}
    seen_msgid = False

    def finish() -> None:
        nonlocal entry, values, seen_msgid, target
        if entry is not None:
            if not seen_msgid:
                raise PoError(f"{name}:{entry.line}: entry without msgid")
            entry.msgid = values.get(("msgid", 0), "")
            if ("msgctxt", 0) in values:
                entry.msgctxt = values[("msgctxt", 0)]
            if ("msgid_plural", 0) in values:
                entry.msgid_plural = values[("msgid_plural", 0)]
            forms = sorted(index for key, index in values if key == "msgstr")
            if forms != list(range(len(forms))) or not forms:
                raise PoError(f"{name}:{entry.line}: msgstr missing or forms out of order")
            entry.msgstr = [values[("msgstr", index)] for index in forms]
            if entry.msgid_plural is None and forms != [0]:
                raise PoError(f"{name}:{entry.line}: msgstr[n] without msgid_plural")
            entries.append(entry)
        entry = None
        values = {}
        seen_msgid = False
        target = None

    for number, raw in enumerate(text.splitlines(), 1):
        where = f"{name}:{number}: "
        line = raw.strip()
        obsolete = False
        if line.startswith("#~"):
            obsolete = True
            line = line[2:].strip()
            if not line or line.startswith("#"):
                continue
        elif line.startswith("#"):
            if entry is not None and "msgstr" in {key for key, _i in values}:
                finish()
            kind, rest = line[:2], line[2:].strip()
            if kind == "#,":
                pending.flags += [flag.strip() for flag in rest.split(",") if flag.strip()]
            elif kind == "#:":
                pending.references += rest.split()
            elif kind == "#.":
                pending.extracted.append(rest)
            elif kind == "#|":
                pass  # previous msgid of a fuzzy entry
            else:
                pending.comments.append(line[1:].strip())
            continue
        if not line:
            if entry is not None and "msgstr" in {key for key, _i in values}:
                finish()
            continue
        if line.startswith('"'):
            if target is None:
                raise PoError(f"{where}a string outside of any field")
            values[target] += unquote(line, where)
            continue
        keyword, _sep, rest = line.partition(" ")
        index = 0
        if keyword.startswith("msgstr[") and keyword.endswith("]"):
            try:
                index = int(keyword[7:-1])
            except ValueError:
                raise PoError(f"{where}bad plural index {keyword!r}") from None
            keyword = "msgstr"
        if keyword not in ("msgctxt", "msgid", "msgid_plural", "msgstr"):
            raise PoError(f"{where}unknown keyword {keyword!r}")
        starts_entry = keyword == "msgctxt" or (keyword == "msgid" and ("msgctxt", 0) not in values)
        if starts_entry and entry is not None and ("msgid", 0) in values:
            finish()
        if entry is None:
            entry = PoEntry("", flags=pending.flags, line=number)
            entry.references = pending.references
            entry.extracted = pending.extracted
            entry.comments = pending.comments
            pending = PoEntry("")
        entry.obsolete = entry.obsolete or obsolete
        target = (keyword, index)
        if target in values:
            raise PoError(f"{where}{keyword} given twice")
        if keyword == "msgid":
            seen_msgid = True
        values[target] = unquote(rest, where)
    if entry is not None:
        finish()
    return entries


def plural_forms(header: str) -> tuple[int, str]:
    """``(nplurals, expression)`` from a catalog header (English rules if absent)."""
    for line in header.splitlines():
        key, _sep, value = line.partition(":")
        if key.strip().lower() != "plural-forms":
            continue
        parts = dict(part.strip().split("=", 1) for part in value.split(";") if "=" in part.strip())
        try:
            return int(parts["nplurals"]), parts["plural"].strip()
        except (KeyError, ValueError):
            raise PoError(f"bad Plural-Forms: {value.strip()!r}") from None
    return 2, "n != 1"


class PoTranslations(gettext.GNUTranslations):
    """A :class:`gettext.GNUTranslations` read from a ``.po`` file instead of a ``.mo``.

    Fuzzy, obsolete and untranslated entries are left out, exactly as ``msgfmt`` leaves them
    out of a ``.mo``: their messages fall back to English.
    """

    def _parse(self, fp: Any) -> None:  # a binary file, as for a .mo
        self.load_entries(parse_po(fp.read().decode("utf-8"), getattr(fp, "name", "<po>")))

    def load_entries(self, entries: Iterable[PoEntry]) -> None:
        self._catalog: dict[Any, str] = {}
        self._info: dict[str, str] = {}
        self._charset = "utf-8"
        self.plural = gettext.c2py("n != 1")
        for entry in entries:
            if entry.msgid == "" and entry.msgctxt is None and not entry.obsolete:
                self._read_header(entry.msgstr[0])
                continue
            if not entry.translated:
                continue
            if entry.msgid_plural is None:
                self._catalog[entry.key] = entry.msgstr[0]
            else:
                for index, form in enumerate(entry.msgstr):
                    self._catalog[(entry.key, index)] = form

    def _read_header(self, header: str) -> None:
        for line in header.splitlines():
            key, sep, value = line.partition(":")
            if sep:
                self._info[key.strip().lower()] = value.strip()
        _count, expression = plural_forms(header)
        self.plural = gettext.c2py(expression)

    @classmethod
    def from_text(cls, text: str) -> PoTranslations:
        """A catalog from the text of a ``.po`` file (for tests and tools)."""
        catalog = cls()
        catalog.load_entries(parse_po(text))
        return catalog
