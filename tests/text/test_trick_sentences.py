"""Who took a trick, said with the right person and number in every language: "You take",
"Marco takes", "1 point", "14 points"."""

from __future__ import annotations

import pytest

from briscola.text import i18n
from briscola.text.i18n import LANGUAGES, _
from briscola.text.labels import means_you, trick_of, trick_taken


@pytest.fixture(autouse=True)
def _english_again() -> object:
    yield None
    i18n.set_language("en")


def test_the_player_is_spoken_to_and_others_are_named() -> None:
    assert trick_of(1, 20, "You", 0, means_you("You")) == "Trick 1 of 20: you take 0 points"
    assert trick_of(3, 20, "Marco", 14) == "Trick 3 of 20: Marco takes 14 points"
    assert trick_taken("You", 10, True) == "You take the trick: 10 points"
    assert trick_taken("Marco", 1) == "Marco takes the trick: 1 point"
    assert not means_you("Marco")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_its_own_person_and_number(language: str) -> None:
    i18n.set_language(language)
    you = _("You")
    assert means_you(you)
    mine = trick_of(2, 20, you, 14, means_you(you))
    theirs = trick_of(2, 20, "Marco", 14)
    assert "{" not in mine + theirs and "Marco" in theirs and "14" in mine
    assert mine.replace(you, "") != theirs.replace("Marco", "")
    for sentence in (trick_taken("Marco", 1), trick_taken("Marco", 14)):
        assert "Marco" in sentence and "{" not in sentence
    if language != "en":
        assert trick_taken("Marco", 14) != "Marco takes the trick: 14 points"
