"""Headless tests of the table scene: a hand played by injected input, deck switch, layout,
hot-seat privacy, autosave and resume, the demo smoke run."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest
from guihelp import (
    click,
    click_first_legal,
    key,
    make_app,
    run_until,
    start,
    start_table,
    table_at_my_turn,
)

from briscola.engine import PRESETS, Play, Rules
from briscola.game.setup import GameSetup, SeatConfig, default_setup, demo_setup
from briscola.gui.layout.table import TableLayout
from briscola.gui.render.assets import CARD_RATIO
from briscola.gui.scenes.menu import MenuScene
from briscola.gui.scenes.table import TableScene
from briscola.storage.autosave import Autosave

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _clean_home() -> None:
    Autosave().clear()


def _solo(
    preset: str = "classic2", level: str = "easy", seed: int = 5, **opts: object
) -> GameSetup:
    setup = default_setup(Rules.preset(preset, **opts), level)
    setup.seed = seed
    return setup


def test_a_whole_hand_played_by_mouse_clicks_reaches_the_score_screen() -> None:
    app = make_app()
    scene = start_table(app, _solo())
    clicks = 0
    while scene.session.state is not None and not scene.session.state.is_terminal():
        assert run_until(app, lambda: scene.awaiting_human or scene.session.state.is_terminal())  # type: ignore[union-attr]
        if scene.session.state.is_terminal():
            break
        before = len(scene.session.state.events)
        click_first_legal(app, scene)
        clicks += 1
        assert len(scene.session.state.events) > before, "the click played a card"
    assert clicks == 20
    assert run_until(app, lambda: type(app.scene).__name__ == "ScoreScene")
    assert sum(scene.session.state.outcome().points) == 120
    app.close()


def test_keyboard_play_and_hotkeys() -> None:
    app = make_app()
    scene = table_at_my_turn(app, _solo(seed=11))
    hand_before = [s.card for s in scene.my_hand()]
    key(app, pygame.K_RIGHT)  # the first arrow shows the focus on the first card
    assert scene.hand.keyboard and scene.hand.selected == 0
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_RETURN)
    assert scene.session.state is not None
    played = [
        e
        for e in scene.session.state.events
        if getattr(e, "seat", None) == 0 and type(e).__name__ == "Played"
    ]
    assert played and played[0].card == hand_before[1]
    assert run_until(app, lambda: scene.awaiting_human)
    key(app, pygame.K_1)  # slot 1
    assert run_until(app, lambda: scene.awaiting_human)
    key(app, pygame.K_l)  # last trick overlay
    assert scene.show_last
    key(app, pygame.K_l)
    assert not scene.show_last
    key(app, pygame.K_h)  # hint marks a card of the hand (the coach thinks in the background)
    assert run_until(app, lambda: scene.hand.hint_card is not None)
    assert scene.hand.hint_card in [s.card for s in scene.my_hand()]
    app.close()


def test_drag_and_drop_plays_a_card_and_a_short_drag_back_does_not() -> None:
    app = make_app()
    scene = table_at_my_turn(app, _solo(seed=12))
    sprite = scene.my_hand()[0]
    x, y = sprite.rect().center
    events = [
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1),
        pygame.event.Event(pygame.MOUSEMOTION, pos=(x + 40, y + 5), rel=(40, 5), buttons=(1, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x + 40, y + 5), button=1),
    ]
    for event in events:
        scene.handle_event(event)
    assert scene.session.state is not None
    assert not any(
        type(e).__name__ == "Played" and e.seat == 0 for e in scene.session.state.events
    ), "dropped back on the hand: nothing played"
    assert run_until(app, lambda: scene.awaiting_human)
    target = scene.board.layout.centre
    events = [
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1),
        pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y - 60), rel=(0, -60), buttons=(1, 0, 0)),
        pygame.event.Event(pygame.MOUSEMOTION, pos=target, rel=(0, 0), buttons=(1, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=target, button=1),
    ]
    for event in events:
        scene.handle_event(event)
    assert scene.session.state is not None
    assert any(type(e).__name__ == "Played" and e.seat == 0 for e in scene.session.state.events)
    app.close()


def test_switching_the_deck_mid_game_keeps_the_game() -> None:
    app = make_app()
    scene = table_at_my_turn(app, _solo(seed=13))
    cards = [s.card for s in scene.my_hand()]
    assert app.settings.deck == "italian"
    key(app, pygame.K_d)
    assert app.settings.deck == "french"
    assert scene.renderer.style == "french"
    assert [s.card for s in scene.my_hand()] == cards
    key(app, pygame.K_d)
    assert scene.renderer.style == "italian"
    app.close()


def test_swap_by_keyboard_when_allowed() -> None:
    from enginehelp import stacked

    from briscola.engine import Match

    rules = Rules.preset("classic2", swap=True)
    # Seat 0 leads (dealer 1) holding the 7 of trump; the face-up briscola is the Ace.
    state = stacked(rules, {0: "7B 2D 4D", 1: "4S 5D 6D"}, dealer=1, briscola="AB")
    match = Match(rules, first_dealer=1)
    setup = default_setup(rules, "easy")
    app = make_app()
    scene = table_at_my_turn(app, setup, match=match, state=state)
    app.step(1 / 60)  # the Swap button shows on the frame drawn
    assert scene.hud.swap.visible
    key(app, pygame.K_s)
    assert len(state.swaps) == 1 and state.swaps[0].took.code == "AB"
    assert run_until(app, lambda: scene.awaiting_human)
    assert "AB" in [s.card.code for s in scene.my_hand() if s.card]
    assert scene.board.briscola is not None and scene.board.briscola.card is not None
    assert scene.board.briscola.card.code == "7B"
    app.close()


# ---------------------------------------------------------------- layout


@pytest.mark.parametrize(
    ("size", "players"),
    list(
        itertools.product([(1024, 600), (1280, 720), (1920, 1080), (3840, 2160)], [2, 3, 4, 5, 6])
    ),
)
def test_layout_keeps_everything_on_screen_and_hands_readable(
    size: tuple[int, int], players: int
) -> None:
    lay = TableLayout(size, players)
    w, h = size
    hand_sizes = {2: 3, 3: 3, 4: 3, 5: 8, 6: 3}
    count = hand_sizes[players]
    rects = []
    for index in range(players):
        x, y, rw, rh = lay.hand_rect(index, count)
        assert x >= 0 and y >= 0 and x + rw <= w and y + rh <= h, (index, (x, y, rw, rh))
        rects.append(pygame.Rect(round(x), round(y), round(rw), round(rh)))
        spot = lay.spots[index]
        for px_, py_ in (spot.label, spot.pile, spot.trick):
            assert 0 <= px_ <= w and 0 <= py_ <= h
    for a, b in itertools.combinations(rects, 2):
        assert not a.colliderect(b), "hands overlap"
    slots = lay.hand_slots(0, count)
    if count > 1:
        step = slots[1][0][0] - slots[0][0][0]
        assert step >= lay.card_w * 0.55, "the viewer's cards overlap beyond the design"
    # the stock and briscola stay clear of the viewer's hand
    stock = pygame.Rect(0, 0, lay.stock_w, round(lay.stock_w * CARD_RATIO))
    stock.center = (round(lay.stock[0]), round(lay.stock[1]))
    assert not stock.colliderect(rects[0])


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_demo_of_every_preset_runs_and_every_sprite_stays_on_screen(preset: str) -> None:
    app = make_app(size=(1024, 600))
    setup = demo_setup(preset, 3)
    for seat in setup.seats:
        seat.level = "easy" if seat.level == "hard" else seat.level
    scene = start_table(app, setup, demo=True)
    for _frame in range(700):
        app.step(1 / 60)
        if not scene.busy:
            for sprite, *_rest in scene.board.targets():
                rect = sprite.rect()
                assert rect.right > 0 and rect.bottom > 0
                assert rect.left < 1024 and rect.top < 600
    assert scene.session.state is not None and len(scene.session.state.events) > 10
    app.close()


# ---------------------------------------------------------------- hot-seat


def test_hot_seat_never_shows_the_other_humans_cards() -> None:
    rules = Rules.preset("teams4")
    setup = GameSetup(
        rules,
        [SeatConfig("Ada", True), SeatConfig("Bot1"), SeatConfig("Ben", True), SeatConfig("Bot2")],
        seed=4,
    )
    app = make_app()
    scene = start_table(app, setup)
    passes = 0
    for _frame in range(30000):
        if scene.session.state is None or scene.session.state.is_terminal():
            break
        app.step(1 / 60)
        public = scene.session.state.known  # cards everyone saw: the briscola drawn, swaps
        for seat, hand in enumerate(scene.board.hands):
            for sprite in hand:
                if sprite.face_up and sprite.card not in public[seat]:
                    assert seat == scene.board.viewer, (
                        f"seat {seat}'s card face up for viewer {scene.board.viewer}"
                    )
                    assert scene.privacy is None
                    assert seat in scene.session.humans
        if scene.privacy is not None:
            assert all(
                not s.face_up or s.card in public[seat]
                for seat, hand in enumerate(scene.board.hands)
                for s in hand
            )
            passes += 1
            click(app, (10, 300))
        elif scene.awaiting_human:
            legal = scene.legal_cards()
            assert legal
            scene.play_card(legal[0])
    assert passes >= 2
    app.close()


# ---------------------------------------------------------------- autosave and resume


def test_autosave_after_each_move_and_continue_restores_the_hand() -> None:
    app = make_app()
    scene = start_table(app, _solo(seed=21))
    for _ in range(4):
        assert run_until(app, lambda: scene.awaiting_human)
        assert scene.session.state is not None
        scene.play_card(scene.legal_cards()[0])
    assert run_until(app, lambda: scene.awaiting_human)
    app.storage.autosave.flush()
    assert app.storage.autosave.exists()
    saved, notice = app.storage.autosave.load()
    assert notice is None and saved is not None and saved.state is not None
    assert saved.state.tricks == scene.session.state.tricks
    assert saved.state.hands == scene.session.state.hands
    hands = [list(h) for h in scene.session.state.hands]
    app.close()  # "killed": a new app starts from the file
    app2 = make_app()
    menu = start(app2, MenuScene(app2))
    assert isinstance(menu, MenuScene)
    assert menu.continue_button.enabled
    menu.resume()
    app2.apply_requests()
    resumed = app2.scene
    assert isinstance(resumed, TableScene) and resumed.session.state is not None
    assert resumed.session.state.hands == hands
    assert resumed.session.state.tricks == saved.state.tricks
    assert run_until(app2, lambda: resumed.awaiting_human or resumed.session.state.is_terminal())  # type: ignore[union-attr]
    app2.close()


def test_a_corrupt_autosave_is_discarded_with_a_notice() -> None:
    from briscola.storage import paths

    paths.autosave_file().parent.mkdir(parents=True, exist_ok=True)
    paths.autosave_file().write_text("{not json")
    app = make_app()
    menu = start(app, MenuScene(app))
    assert isinstance(menu, MenuScene)
    assert TableScene.from_autosave(app) is None
    assert app.notices
    app.close()


# ---------------------------------------------------------------- smoke runs


def _run_main(*args: str, timeout: int = 240) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=ROOT.parent,
    )


def test_demo_smoke_run_3000_frames() -> None:
    done = _run_main("--demo", "--frames", "3000", "--turbo", "--seed", "2")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "tricks" in done.stdout and " 0 tricks" not in done.stdout


def test_bad_flags_get_a_clear_message() -> None:
    done = _run_main("--size", "huge")
    assert done.returncode == 2
    assert "invalid size" in done.stderr and "Traceback" not in done.stderr
    done = _run_main("--deck", "tarot")
    assert done.returncode == 2 and "invalid choice" in done.stderr


def test_help_lists_the_flags() -> None:
    done = _run_main("--help")
    for flag in ("--windowed", "--fullscreen", "--size", "--deck", "--demo", "--frames"):
        assert flag in done.stdout


def test_play_validates_through_the_engine() -> None:
    app = make_app()
    scene = table_at_my_turn(app, _solo(seed=30))
    assert scene.session.state is not None
    opponent_card = scene.session.state.hands[1][0]
    assert not scene.play_card(opponent_card)
    assert Play(opponent_card) not in scene.session.state.legal_actions()
    app.close()
