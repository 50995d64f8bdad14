"""The player's hand in order by suit and rank (at once where the whole hand is dealt, on O
in every configuration), and the Hint during the Chiamata auction: the coach's bid, focused
on the panel, with a sentence why."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from guihelp import DT, click_first_legal, key, run_until, table_at_my_turn

from briscola.coach import advise_bid
from briscola.engine import Bid, Call, Card, Rules, Suit
from briscola.game.setup import GameSetup, default_setup
from briscola.gui.app import App
from briscola.gui.scenes.table import TableScene
from briscola.text.coachtext import bid_text

pytestmark = pytest.mark.usefixtures("gui_home")


def _setup(preset: str, seed: int) -> GameSetup:
    setup = default_setup(Rules.preset(preset), "easy")
    setup.seed = seed
    return setup


def _in_order(scene: TableScene) -> bool:
    cards = [sprite.card for sprite in scene.board.my_hand()]
    assert all(card is not None for card in cards)
    trump = scene.board.shown_trump
    strength = scene.session.view().rules.strength
    suits = list(Suit)
    keys = [
        (c.suit is trump, suits.index(c.suit), -strength[c.rank]) for c in cards if c is not None
    ]
    return keys == sorted(keys)


def _settled(app: App, scene: TableScene) -> None:
    run_until(app, lambda: not scene.busy and scene.awaiting_human)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_eight_card_chiamata_hand_is_in_order_by_suit_and_rank(app: App, seed: int) -> None:
    scene = table_at_my_turn(app, _setup("chiamata5", seed))
    assert scene.session.view().phase == "auction"
    assert len(scene.board.my_hand()) == 8
    assert _in_order(scene)
    assert {s.card for s in scene.board.my_hand()} == set(scene.session.view().hand)


def test_o_puts_the_hand_in_order_and_it_stays_so_after_each_draw(app: App) -> None:
    for seed in range(1, 12):  # a deal whose three cards are not dealt in order
        scene = table_at_my_turn(app, _setup("classic2", seed))
        if not _in_order(scene):
            break
    else:
        pytest.fail("no deal out of order")
    key(app, pygame.K_o)
    assert _in_order(scene)
    _settled(app, scene)
    for _trick in range(4):
        click_first_legal(app, scene)
        _settled(app, scene)
        assert len(scene.board.my_hand()) == 3 and _in_order(scene)


def _auction(app: App) -> TableScene:
    scene = table_at_my_turn(app, _setup("chiamata5", 2))
    for _frame in range(3):
        app.step(DT)
    return scene


def test_the_hint_is_open_in_the_auction_and_names_a_bid_and_why(app: App) -> None:
    scene = _auction(app)
    assert scene.hud.hint.enabled
    seen = scene.session.view()
    advice = advise_bid(seen)
    key(app, pygame.K_h)
    app.step(DT)
    text = scene.assist.hint_text()
    assert text == bid_text(advice, app.settings.deck_style)
    assert "hint" in scene.assist.boxes
    # The hint's box keeps clear of the auction panel.
    assert not scene.assist.boxes["hint"].colliderect(scene.auction.panel())
    focused = scene.auction.controls.focused
    wanted = advice.action
    name = getattr(focused, "name", "")
    if isinstance(wanted, Bid):
        assert name == ("bid:points" if wanted.points > 61 else f"bid:{wanted.rank.code}")
    else:
        assert name == "pass"
    # Enter makes the suggested choice.
    key(app, pygame.K_RETURN)
    mine = [bid for seat, bid in scene.session.view().bids if seat == seen.seat]
    assert mine and (mine[-1] if mine[-1] is not None else "pass") == (
        wanted if isinstance(wanted, Bid) else "pass"
    )


def test_the_coach_bids_on_a_strong_hand_and_passes_on_a_weak_one() -> None:
    from enginehelp import stacked

    from briscola.engine import view

    rules = Rules.preset("chiamata5")
    strong = stacked(rules, {0: "AD 3D KD QD JD 7D AC 3B"}, dealer=4)
    seen = view(strong, 0)
    advice = advise_bid(seen)
    assert advice.key == "bid" and advice.trump is Suit.COINS and advice.trumps == 6
    assert "coins as trump" in bid_text(advice) and str(advice.trumps) in bid_text(advice)
    weak = stacked(rules, {0: "2D 4C 5B 6S 2C 4B 5S 6D"}, dealer=4)
    advice = advise_bid(view(weak, 0))
    assert advice.key == "pass" and bid_text(advice).startswith("Pass: even with")


def test_the_hint_names_the_card_to_call(app: App) -> None:
    scene = _auction(app)
    # The player bids the most a bid may promise (no one can go over it) and calls.
    bids = [a for a in scene.session.legal_actions() if isinstance(a, Bid)]
    scene.submit(max(bids, key=lambda b: b.points))
    assert run_until(app, lambda: scene.session.view().phase == "call" and scene.awaiting_human)
    _settled(app, scene)
    key(app, pygame.K_h)
    app.step(DT)
    advice = advise_bid(scene.session.view())
    assert isinstance(advice.action, Call) and advice.key == "call"
    assert scene.assist.hint_text() == bid_text(advice, app.settings.deck_style)
    focused = scene.auction.controls.focused
    assert getattr(focused, "name", "") == f"call:{advice.action.card.code}"
    assert Card.from_code(getattr(focused, "name", "")[5:]) == advice.called
