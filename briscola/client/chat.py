"""Quick chat as the player reads it: each code of
:data:`~briscola.protocol.people.QUICK_CHAT` in the player's language (phrases), or as a
face drawn in plain characters (faces need no translation and no emoji font), and who said
it. A code this game does not know (a newer server's) is shown as nothing rather than as
text: quick chat carries no free text.

>>> phrase_text("good_game")
'Good game!'
>>> said_text({"type": "said", "seat": 1, "name": "Zoë", "say": "smile"})
'Zoë: :-)'
>>> said_text({"type": "said", "seat": 1, "name": "Zoë", "say": "dance"}) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from briscola.protocol.naming import name_key
from briscola.protocol.people import Said
from briscola.text.i18n import _

__all__ = ["FACE_TEXT", "PHRASE_TEXT", "Muted", "phrase_text", "said_text"]

#: Every phrase's words (a test checks that none is missing).
PHRASE_TEXT: Final[dict[str, Callable[[], str]]] = {
    "hello": lambda: _("Hello!"),
    "good_luck": lambda: _("Good luck!"),
    "good_game": lambda: _("Good game!"),
    "well_played": lambda: _("Well played!"),
    "thanks": lambda: _("Thanks!"),
    "sorry": lambda: _("Sorry!"),
    "one_moment": lambda: _("One moment, please."),
    "oops": lambda: _("Oops!"),
    "bye": lambda: _("Bye!"),
}
#: Every face, drawn in characters any font has.
FACE_TEXT: Final[dict[str, str]] = {
    "smile": ":-)",
    "laugh": ":-D",
    "wow": ":-O",
    "sad": ":-(",
    "thinking": ":-/",
}


def phrase_text(say: str) -> str | None:
    """A quick chat code as the player reads it (None for a code this game lacks)."""
    words = PHRASE_TEXT.get(say)
    if words is not None:
        return words()
    return FACE_TEXT.get(say)


def said_text(message: Said) -> str | None:
    """A ``said`` message as one line: who, and what."""
    text = phrase_text(message["say"])
    if text is None:
        return None
    return _("{name}: {text}").format(name=message["name"], text=text)


class Muted:
    """The players whose quick chat this player does not want to see (by name: names are
    unique on a server), for the time of a session.

    >>> muted = Muted()
    >>> muted.toggle("Zoë")
    True
    >>> muted.shows("zoë"), muted.shows("Anna")
    (False, True)
    """

    def __init__(self, names: Iterable[str] = ()) -> None:
        self._names = {name_key(name) for name in names}

    def toggle(self, name: str) -> bool:
        """Mute ``name``, or unmute it; True when it is muted now."""
        folded = name_key(name)
        if folded in self._names:
            self._names.discard(folded)
            return False
        self._names.add(folded)
        return True

    def shows(self, name: str) -> bool:
        return name_key(name) not in self._names
