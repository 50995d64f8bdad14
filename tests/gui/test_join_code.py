"""Join a table by code: a code typed wrong is answered with what is wrong (the characters
codes never use, or the length), never "six letters and digits" to a code that has them."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest
from guihelp import start

from briscola.gui.app import App
from briscola.gui.scenes.menu import MenuScene
from briscola.gui.scenes.online_join import JoinScene, code_problem
from briscola.protocol.wire import CODE_ALPHABET

pytestmark = pytest.mark.usefixtures("gui_home")


def test_a_code_with_characters_codes_never_use_names_them() -> None:
    said = code_problem("ABC123")
    assert "“1”" in said and "2 to 9" in said and "“A”" not in said
    assert "“O”, “0”" in code_problem("o0KMXQ")
    for char in "01ILO":
        assert char not in CODE_ALPHABET  # what the sentence says is what codes are


def test_a_code_of_the_wrong_length_says_how_long_codes_are() -> None:
    assert code_problem("K7MX") == "A table code has 6 characters; this one has 4."
    assert "6 characters" in code_problem("   ")


def test_the_join_page_says_what_is_wrong_and_keeps_what_was_typed(app: App) -> None:
    start(app, MenuScene(app))
    app.open("online_join", player="Anna", address="127.0.0.1:8765", code="ABC123", lan=False)
    app.apply_requests()
    join = app.scene
    assert isinstance(join, JoinScene)
    join.join_typed()
    assert join.message == code_problem("ABC123") and join.message_bad
    assert join.client is None  # nothing was sent
    assert join.code_input.text == "ABC123"
    assert join.group.focused is join.code_input
