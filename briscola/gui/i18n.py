"""Translations through stdlib :mod:`gettext`, switchable while the game runs.

Every string a player sees goes through :func:`_` (or :func:`N_` to mark a constant that is
translated where it is shown). Catalogs live in ``briscola/locale/<lang>/LC_MESSAGES/``;
a missing catalog or message falls back to English.
"""

from __future__ import annotations

import contextlib
import gettext
import locale
import os
from pathlib import Path

DOMAIN = "briscola"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

#: Languages offered in settings: code -> name in that language.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "it": "Italiano",
    "de": "Deutsch",
    "es": "Español",
}

_current: gettext.NullTranslations = gettext.NullTranslations()
_current_code = "en"


def _(message: str) -> str:
    """Translate ``message`` into the current language (English when untranslated)."""
    return _current.gettext(message) or message


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark a string for extraction without translating it here."""
    return message


def system_language() -> str:
    """The best supported language for the user's locale (``en`` if none fits)."""
    candidates = [os.environ.get(var, "") for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")]
    with contextlib.suppress(ValueError):
        candidates.append(locale.getlocale()[0] or "")
    for value in candidates:
        for part in value.split(":"):
            code = part.split("_")[0].split(".")[0].lower()
            if code in LANGUAGES:
                return code
    return "en"


def set_language(code: str | None) -> str:
    """Switch to ``code`` (None or "" follows the system); returns the language in use."""
    global _current, _current_code
    wanted = code or system_language()
    if wanted not in LANGUAGES:
        wanted = "en"
    _current = gettext.translation(DOMAIN, LOCALE_DIR, languages=[wanted], fallback=True)
    _current_code = wanted
    return wanted


def current_language() -> str:
    return _current_code
