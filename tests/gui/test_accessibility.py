"""Accessibility: the whole game by keyboard alone with a visible focus ring, and the display
options (UI scale, high contrast, four-colour suits, reduce motion) at 1024x600 without
anything overflowing or leaving the window."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pygame
import pytest
from guihelp import DT, key, make_app, run_until, start
from layoutcheck import check_scene
from scenelist import SCENES

from briscola.engine import Rules
from briscola.game.setup import GameSetup, SeatConfig, default_setup
from briscola.gui.app import App
from briscola.gui.layout.table import TableLayout
from briscola.gui.scenes.menu import MenuScene
from briscola.gui.scenes.newgame import NewGameScene, PrimaryButton
from briscola.gui.scenes.pause import PauseScene
from briscola.gui.scenes.rules import RulesScene
from briscola.gui.scenes.score import ScoreScene
from briscola.gui.scenes.table import TableScene
from briscola.gui.widgets import HIGH_CONTRAST, Widget
from briscola.text import i18n

#: Display options checked one by one, then all together.
OPTIONS: dict[str, dict[str, Any]] = {
    "ui-scale-1.6": {"ui_scale": 1.6},
    "high-contrast": {"high_contrast": True},
    "four-colour": {"deck": "french", "four_colour": True},
    "reduce-motion": {"reduce_motion": True},
    "all": {
        "ui_scale": 1.6,
        "high_contrast": True,
        "deck": "french",
        "four_colour": True,
        "reduce_motion": True,
    },
}
DEFAULTS = {"ui_scale": 1.0, "high_contrast": False, "deck": "italian", "four_colour": False}


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "home"))
    yield tmp_path / "home"
    i18n.set_language("en")


# ---------------------------------------------------------------------- helpers


def ring_shown(app: App, rect: pygame.Rect, colour: tuple[int, int, int]) -> bool:
    """The focus ring (3 px, 4 px outside ``rect``) shows on at least two sides."""
    screen = app.screen
    points = [
        (rect.left - 3, rect.centery),
        (rect.right + 2, rect.centery),
        (rect.centerx, rect.top - 3),
        (rect.centerx, rect.bottom + 2),
    ]
    inside = [p for p in points if screen.get_rect().collidepoint(p)]
    hits = sum(1 for p in inside if tuple(screen.get_at(p))[:3] == colour)
    return hits >= 2


def widget_ring(app: App, widget: Widget) -> bool:
    theme = app.theme
    colour = theme.text if isinstance(widget, PrimaryButton) else theme.focus
    return ring_shown(app, widget.rect, colour)


def press(app: App, code: int, mod: int = 0) -> None:
    """A key press, then a frame to draw the result."""
    key(app, code, mod)
    app.step(DT)


def focus(app: App, group: Any, wanted: Callable[[Widget], bool], keys: int = 40) -> Widget:
    """Tab until the focused widget is ``wanted``; checks the ring follows the focus."""
    for _press in range(keys):
        press(app, pygame.K_TAB)
        widget = group.focused
        assert widget is not None and widget_ring(app, widget), f"no focus ring on {widget}"
        if wanted(widget):
            return widget  # type: ignore[no-any-return]
    raise AssertionError("could not reach the widget with the keyboard")


def named(name: str) -> Callable[[Widget], bool]:
    return lambda widget: getattr(widget, "name", "") == name


def top(app: App) -> Any:
    return app.scene


def play_by_keyboard(app: App, table: TableScene) -> int:
    """Play the human's cards until the hand ends: arrows and Enter, or a number key."""
    moves = 0
    assert table.session.state is not None
    while not table.session.state.is_terminal():
        assert run_until(app, lambda: table.awaiting_human or table.session.state.is_terminal())  # type: ignore[union-attr]
        if table.session.state.is_terminal() or type(app.scene) is not TableScene:
            break
        before = len(table.session.state.events)
        hand = table.my_hand()
        if moves % 2:
            press(app, pygame.K_1 + len(hand) - 1)  # the last card, by its number
        else:
            press(app, pygame.K_RIGHT)
            press(app, pygame.K_LEFT)
            selected = hand[min(table.hand.selected, len(hand) - 1)]
            assert ring_shown(app, selected.rect(), app.theme.focus), "no ring on the card"
            press(app, pygame.K_RETURN)
        assert len(table.session.state.events) > before, "the key played no card"
        moves += 1
    return moves


def back_to_menu(app: App) -> None:
    """From the score screen: skip the count, Tab to Menu, Enter."""
    assert run_until(app, lambda: isinstance(app.scene, ScoreScene))
    score = app.scene
    assert isinstance(score, ScoreScene)
    press(app, pygame.K_SPACE)  # skips the count
    run_until(app, lambda: score.t > score.end + 0.5)
    assert score.group.focused is score.primary
    focus(app, score.group, lambda w: w is score.menu_button)
    press(app, pygame.K_RETURN)
    app.apply_requests()
    assert isinstance(app.scene, MenuScene)


def seeded(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Games started from the New game screen get a fixed shuffle."""
    original = NewGameScene.setup

    def setup(self: NewGameScene) -> GameSetup:
        chosen = original(self)
        chosen.seed = seed
        return chosen

    monkeypatch.setattr(NewGameScene, "setup", setup)


# ---------------------------------------------------------------------- keyboard only


def test_the_whole_game_by_keyboard_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Menu, New game, a two-player hand with the hotkeys and the pause menu, the score
    screen, back to the menu; then a Briscola Chiamata with the auction and the call, all
    with key presses only, and a focus ring on whatever has the focus."""
    seeded(monkeypatch, 8)
    app = make_app((1024, 600))
    app.settings.speed = "fast"
    menu = start(app, MenuScene(app))
    assert isinstance(menu, MenuScene)
    app.step(DT)
    # The first Tab shows where the focus is: New game (nothing to continue yet).
    press(app, pygame.K_TAB)
    assert menu.group.focused is menu.button("new_game") and widget_ring(app, menu.group.focused)
    press(app, pygame.K_RETURN)
    app.apply_requests()
    newgame = top(app)
    assert isinstance(newgame, NewGameScene) and newgame.choices.preset == "classic2"
    # Easy opponent (Left on its strength), then Start.
    kind = focus(app, newgame.group, lambda w: w is newgame.kind_choices[1])
    press(app, pygame.K_LEFT)
    assert newgame.choices.seats[1].kind == "easy" and kind is newgame.kind_choices[1]
    focus(app, newgame.group, lambda w: w is newgame.start_button)
    press(app, pygame.K_RETURN)
    app.apply_requests()
    table = top(app)
    assert isinstance(table, TableScene) and table.rules.players == 2
    # Hotkeys on the first turn: hint, deck (twice), last trick needs a trick; pause.
    assert run_until(app, lambda: table.awaiting_human)
    press(app, pygame.K_h)  # the coach thinks in the background
    assert run_until(app, lambda: table.hand.hint_card is not None)
    press(app, pygame.K_d)
    assert app.settings.deck == "french"
    press(app, pygame.K_d)
    assert app.settings.deck == "italian"
    press(app, pygame.K_ESCAPE)
    app.apply_requests()
    pause = top(app)
    assert isinstance(pause, PauseScene)
    press(app, pygame.K_TAB)  # the pause menu shows its focus from the start
    press(app, pygame.K_UP)
    assert pause.group.focused is pause.buttons[0] and widget_ring(app, pause.buttons[0])
    press(app, pygame.K_RETURN)  # Resume
    app.apply_requests()
    assert top(app) is table
    # The hand, by arrows, Enter and number keys.
    assert run_until(app, lambda: table.awaiting_human)
    moves = play_by_keyboard(app, table)
    assert moves == 20
    back_to_menu(app)

    # Briscola Chiamata: five players, the auction and the call by keyboard.
    menu = top(app)
    assert isinstance(menu, MenuScene)
    app.step(DT)
    focus(app, menu.group, named("new_game"))
    press(app, pygame.K_RETURN)
    app.apply_requests()
    newgame = top(app)
    assert isinstance(newgame, NewGameScene)
    focus(app, newgame.group, lambda w: w is newgame.preset_choice)
    for _step in range(3):
        press(app, pygame.K_RIGHT)
    assert newgame.choices.preset == "chiamata5"
    for seat in range(1, 5):
        focus(app, newgame.group, partial(operator.is_, newgame.kind_choices[seat]))
        for _step in range(4):  # the strengths go round: human, easy, medium, hard
            if newgame.choices.seats[seat].kind == "easy":
                break
            press(app, pygame.K_RIGHT)
        assert newgame.choices.seats[seat].kind == "easy"
    focus(app, newgame.group, lambda w: w is newgame.start_button)
    press(app, pygame.K_RETURN)
    app.apply_requests()
    table = top(app)
    assert isinstance(table, TableScene) and table.rules.chiamata
    assert run_until(app, lambda: table.awaiting_human)
    assert table.session.state is not None and table.session.state.phase == "auction"
    # Raise the points bid to 120 with "+", then bid it: nobody can go higher.
    controls = table.auction.controls
    names = [getattr(w, "name", "") for w in controls.widgets]
    assert "plus" in names and "bid:points" in names
    for _step in range(len(names) + 1):
        if getattr(controls.focused, "name", "") == "plus":
            break
        press(app, pygame.K_RIGHT)
    assert getattr(controls.focused, "name", "") == "plus"
    assert controls.focused is not None and widget_ring(app, controls.focused)
    for _step in range(60):
        key(app, pygame.K_RETURN)
    assert table.auction.bid_points == 120
    press(app, pygame.K_LEFT)
    assert getattr(controls.focused, "name", "") == "bid:points"
    press(app, pygame.K_RETURN)
    assert table.session.state.high_bidder == 0 and table.session.state.high_bid is not None
    assert table.session.state.high_bid.points == 120
    # The call: four suits, Right twice, Enter.
    assert run_until(app, lambda: table.awaiting_human and table.session.state.phase == "call")  # type: ignore[union-attr]
    calls = [
        w for w in table.auction.controls.widgets if getattr(w, "name", "").startswith("call:")
    ]
    assert len(calls) == 4
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RIGHT)
    assert table.auction.controls.focused is calls[2] and widget_ring(app, calls[2])
    press(app, pygame.K_RETURN)
    assert table.session.state.called is not None and str(table.session.state.phase) == "play"
    assert table.session.state.trump == table.session.state.called.suit
    moves = play_by_keyboard(app, table)
    assert moves == 8
    back_to_menu(app)
    app.close()


def test_hot_seat_privacy_screen_and_last_trick_by_keyboard() -> None:
    rules = Rules.preset("classic2")
    setup = GameSetup(rules, [SeatConfig("Ada", True), SeatConfig("Bea", True)], seed=3)
    app = make_app((1024, 600))
    app.settings.speed = "fast"
    table = start(app, TableScene(app, setup))
    assert isinstance(table, TableScene)
    for turn in range(4):
        assert run_until(app, lambda: table.privacy is not None or table.awaiting_human)
        if table.privacy is not None:
            seat = table.privacy
            press(app, pygame.K_SPACE)  # any key: the next player is ready
            assert table.privacy is None and table.board.viewer == seat
        assert run_until(app, lambda: table.awaiting_human)
        if turn == 3:
            break
        if not table.hand.keyboard:
            press(app, pygame.K_RETURN)  # the first Enter shows the selection
        press(app, pygame.K_RETURN)
    assert table.session.state is not None and table.session.state.tricks
    press(app, pygame.K_l)
    assert table.show_last
    press(app, pygame.K_l)
    assert not table.show_last
    app.close()


def test_every_widget_is_reachable_by_tab_with_a_ring() -> None:
    app = make_app((1024, 600))
    for name in ("settings", "newgame-teams4", "stats-dialog", "replay-picker", "score-classic2"):
        scene: Any = SCENES[name](app)
        group = scene.dialog_group if getattr(scene, "confirming", False) else scene.group
        reachable = [w for w in group.widgets if w.visible and w.enabled and w.focusable]
        seen = set()
        for _step in range(len(group.widgets) * 2 + 2):
            press(app, pygame.K_TAB)
            focused = group.focused
            assert focused is not None and widget_ring(app, focused), (name, focused)
            seen.add(id(focused))
        assert seen == {id(w) for w in reachable}, name
    app.close()


# ---------------------------------------------------------------------- display options


def apply(app: App, options: dict[str, Any]) -> None:
    for name, value in {**DEFAULTS, "reduce_motion": False, **options}.items():
        setattr(app.settings, name, value)
    app.settings_changed()


@pytest.mark.parametrize("name", list(SCENES))
def test_every_scene_fits_1024x600_with_every_display_option(name: str) -> None:
    """Each option alone and all of them with a 160 % UI scale: nothing overflows its box
    or leaves the window (the options change live, on the scene already shown)."""
    app = make_app((1024, 600))
    SCENES[name](app)
    problems: list[str] = []
    for label, options in OPTIONS.items():
        apply(app, options)
        languages = ("en", "de") if label == "all" else ("en",)
        for language in languages:
            app.settings.language = language
            app.settings_changed()
            scene = app.scene
            found = []
            if isinstance(scene, RulesScene):
                scene.set_target(0, instant=True)
                while True:
                    found += check_scene(app)
                    if scene.scroll >= scene.max_scroll:
                        break
                    scene.set_target(scene.scroll + scene.view.height * 0.8, instant=True)
            else:
                found = check_scene(app)
            problems += [f"{label} {language} {name}: {p}" for p in dict.fromkeys(found)]
    app.close()
    assert not problems, "\n".join(problems)


def test_ui_scale_makes_text_and_cards_larger_within_the_window() -> None:
    app = make_app((1280, 720))
    small = app.px(20)
    apply(app, {"ui_scale": 1.6})
    assert app.px(20) == 32 > small
    table = TableScene(app, default_setup(Rules.preset("classic2"), "easy"))
    start(app, table)
    assert table.px(20) == 25  # the table's text grows by a quarter at most
    for size in ((1024, 600), (1280, 720), (1024, 768), (1920, 1080)):
        plain, large = TableLayout(size, 2, 1.0), TableLayout(size, 2, 1.6)
        assert plain.card_w < large.card_w <= plain.card_w * 1.26
        hand = large.hand_rect(0, 3)
        assert hand[1] + hand[3] <= size[1] and large.spots[0].label[1] > 0
    app.close()


def test_a_ui_scale_chosen_in_settings_applies_at_once_to_the_screens_below() -> None:
    app = make_app((1280, 720))
    menu = start(app, MenuScene(app))
    assert isinstance(menu, MenuScene)
    table = TableScene(app, default_setup(Rules.preset("classic2"), "easy"))
    app.push(table)
    app.apply_requests()
    pause = PauseScene(app, table)
    app.push(pause)
    app.apply_requests()
    before = [menu.buttons[0].rect.height, pause.buttons[0].rect.height]
    hud = table.hud.menu.rect.height
    apply(app, {"ui_scale": 1.4})
    after = [menu.buttons[0].rect.height, pause.buttons[0].rect.height]
    assert after[0] > before[0] and after[1] > before[1]
    assert table.hud.menu.rect.height > hud
    app.close()


def test_high_contrast_plain_table_and_theme() -> None:
    app = make_app((1024, 600))
    start(app, MenuScene(app))
    apply(app, {"high_contrast": True})
    assert app.theme is HIGH_CONTRAST
    backdrop = app.backdrop.surface(app.size, app.settings.table, True)
    corners = {tuple(backdrop.get_at(p)) for p in ((0, 0), (1023, 599), (512, 300), (7, 590))}
    assert len(corners) == 1  # flat: no texture, no vignette
    app.step(DT)
    press(app, pygame.K_TAB)
    menu = app.scene
    assert isinstance(menu, MenuScene) and menu.group.focused is not None
    assert ring_shown(app, menu.group.focused.rect, HIGH_CONTRAST.focus)
    app.close()


def test_four_colour_suits_use_the_french4_faces() -> None:
    app = make_app((1024, 600))
    table = start(app, TableScene(app, default_setup(Rules.preset("classic2"), "easy")))
    assert isinstance(table, TableScene)
    apply(app, {"deck": "french", "four_colour": True})
    assert app.settings.deck_style == "french4" and table.director.style == "french4"
    assert table.renderer.style == "french4"
    app.close()


def table_frames(app: App, table: TableScene, count: int) -> list[bytes]:
    """``count`` frames of the table drawn 0.13 s apart, as pixels."""
    frames = []
    for _frame in range(count):
        table.captions.t += 0.13
        surface = pygame.Surface(app.size)
        table.draw(surface)
        frames.append(pygame.image.tobytes(surface, "RGB"))
    return frames


def flying_flips(app: App, table: TableScene) -> list[float]:
    """The turn (0 back, 1 face) of the computer's card while it flies to the trick, frame
    by frame (the human plays its first legal card when asked)."""
    flips: list[float] = []
    for _frame in range(3000):
        app.step(DT)
        moving = [sprite for seat, sprite in table.board.table if seat != 0 and sprite.air]
        if moving:
            flips.append(moving[0].flip)
        elif flips:
            return flips
        if table.awaiting_human:
            table.play_card(table.legal_cards()[0])
    raise AssertionError("the computer never played")


def test_reduce_motion_keeps_only_the_cards_travelling() -> None:
    setup = default_setup(Rules.preset("classic2"), "easy")
    setup.seed = 4
    app = make_app((1024, 600))
    # Normal motion: the shuffle riffles, the computer's card turns over in the air.
    table = TableScene(app, replace(setup))
    start(app, table)
    table.director.steps.popleft()()  # the shuffle
    assert table.tweener.busy
    assert any(0 < flip < 1 for flip in flying_flips(app, table))
    app.close()
    app = make_app((1024, 600))
    app.settings.reduce_motion = True
    table = TableScene(app, replace(setup))
    start(app, table)
    table.director.steps.popleft()()
    assert not table.tweener.busy  # no riffle
    # The computer's card still travels to the trick, but face up from the start.
    flips = flying_flips(app, table)
    assert len(flips) >= 3 and all(flip == 1.0 for flip in flips)
    # Waiting for the player, the table is a still picture: no pulsing turn marker.
    assert run_until(app, lambda: table.awaiting_human and table.captions.banner is None)
    frames = table_frames(app, table, 3)
    assert frames[0] == frames[1] == frames[2]
    # Without reduce motion the turn marker pulses.
    app.settings.reduce_motion = False
    frames = table_frames(app, table, 2)
    assert frames[0] != frames[1]
    # The score screen shows the result at once; the rules scroll without gliding.
    app.settings.reduce_motion = True
    rules = RulesScene(app)
    app.push(rules)
    app.apply_requests()
    rules.set_target(400)
    assert rules.scroll == rules.target
    app.close()
