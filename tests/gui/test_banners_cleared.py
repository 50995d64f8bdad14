"""Banners that must not outlive what they said (issue 50): the deck's name once another
deck is chosen in Settings, and a swap's banner once the swap is undone."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from enginehelp import stacked
from guihelp import DT, key, run_until, table_at_my_turn

from briscola.engine import Match, Rules
from briscola.game.setup import default_setup
from briscola.gui.app import App
from briscola.gui.scenes.table import TableScene

pytestmark = pytest.mark.usefixtures("gui_home")


def _banner(scene: TableScene) -> str | None:
    banner = scene.captions.banner
    return banner[0]() if banner is not None else None


def test_the_deck_banner_goes_when_another_deck_is_chosen_in_settings(app: App) -> None:
    setup = default_setup(Rules.preset("classic2"), "easy")
    setup.seed = 13
    scene = table_at_my_turn(app, setup)
    key(app, pygame.K_d)
    assert _banner(scene) == "Deck: French"
    app.settings.deck = "siciliane"  # chosen in Settings, as the settings scene does
    app.settings_changed()
    assert _banner(scene) is None
    # Another banner (a hint, a swap) is not the deck's: a settings change keeps it.
    scene.captions.announce(lambda: "Hint: swap the briscola", 5.0)
    app.settings_changed()
    assert _banner(scene) == "Hint: swap the briscola"


def test_undoing_a_swap_takes_its_banner_away(app: App) -> None:
    rules = Rules.preset("classic2", swap=True)
    state = stacked(rules, {0: "7B 2D 4D", 1: "4S 5D 6D"}, dealer=1, briscola="AB")
    scene = table_at_my_turn(
        app, default_setup(rules, "easy"), match=Match(rules, first_dealer=1), state=state
    )
    app.step(DT)
    key(app, pygame.K_s)
    assert run_until(app, lambda: scene.awaiting_human)
    assert "You swap" in (_banner(scene) or "")
    key(app, pygame.K_u)
    app.step(DT)
    assert "7B" in [s.card.code for s in scene.my_hand() if s.card]
    assert _banner(scene) is None


def test_a_dimmed_card_clicked_says_the_suit_must_be_followed(app: App) -> None:
    """Issue 50: in Briscolone a dimmed card did nothing when clicked, and nothing said why."""
    from guihelp import click

    rules = Rules.preset("briscolone2")
    hands = {0: "AD 2C 4C 5C 6C", 1: "2D 4D 5D 6D 7D"}
    state = stacked(rules, hands, dealer=0)
    scene = table_at_my_turn(
        app, default_setup(rules, "easy"), match=Match(rules, first_dealer=0), state=state
    )
    app.step(DT)
    assert scene.session.view().table, "the computer led a coin"
    assert [c.code for c in scene.legal_cards()] == ["AD"]
    dimmed = next(s for s in scene.my_hand() if s.card is not None and s.card.code == "2C")
    assert dimmed.dim
    click(app, dimmed.rect().center)
    assert scene.awaiting_human  # nothing was played
    assert _banner(scene) == "You must follow suit: play a card of coins."
