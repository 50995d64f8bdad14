"""Partner signals at the table, headless: the signal bar (faces and F1-F8), the faces
beside the names, the hand's log, the first-time tip, partial frames, the replay."""

from __future__ import annotations

import json
from typing import Any

import pygame
import pytest
from guihelp import DT, click, key, make_app, run_until, start, table_at_my_turn

from briscola.engine import Rules, Signalled, replay, to_record
from briscola.game.setup import GameSetup, default_setup
from briscola.gui.app import App
from briscola.gui.render.segni import signal_icon
from briscola.gui.scenes.replay import ReplayScene
from briscola.gui.scenes.table import TableScene
from briscola.gui.table.signals import SIGNAL_KEYS
from briscola.storage.autosave import Autosave


@pytest.fixture(autouse=True)
def _clean_home() -> None:
    Autosave().clear()


def _setup(mode: str = "partner", preset: str = "teams4", seed: int = 7) -> GameSetup:
    rules = Rules.preset(preset, signals=mode) if mode != "off" else Rules.preset(preset)
    setup = default_setup(rules, "easy")
    setup.seed = seed
    return setup


def _state(table: TableScene):  # type: ignore[no-untyped-def]
    state = getattr(table.session, "state", None)
    assert state is not None
    return state


def test_the_bar_shows_on_the_players_turn_only_when_signals_are_on() -> None:
    app = make_app((1024, 600))
    off = table_at_my_turn(app, _setup("off"))
    assert off.signals.offered() == []
    app.step(DT)
    assert off.signals.buttons == []
    on = table_at_my_turn(app, _setup("partner"))
    app.step(DT)
    assert on.signals.offered()
    assert [kind for kind, _rect in on.signals.buttons] == list(on.signals.kinds)
    screen = pygame.Rect((0, 0), app.size)
    for _kind, rect in on.signals.buttons:
        assert screen.contains(rect)
        assert not any(rect.colliderect(s.rect()) for s in on.my_hand())


def test_a_click_on_a_face_signals_and_the_bar_goes_for_the_rest_of_the_trick() -> None:
    app = make_app((1024, 600))
    table = table_at_my_turn(app, _setup())
    app.step(DT)
    kind, rect = table.signals.buttons[2]
    click(app, rect.center)
    app.step(DT)
    state = _state(table)
    mine = [s for s in state.signals if s.seat == 0]
    assert [s.kind for s in mine] == [kind]
    assert table.captions.signals.get(0, ("", 0.0))[0] == kind  # the face by my name
    assert table.signals.offered() == []  # once a trick
    key(app, SIGNAL_KEYS[0])
    assert [s.kind for s in state.signals if s.seat == 0] == [kind]
    assert table.awaiting_human  # a signal is not a move
    table.play_card(table.legal_cards()[0])


def test_f1_to_f8_send_the_bars_signals() -> None:
    app = make_app((1024, 600))
    table = table_at_my_turn(app, _setup())
    app.step(DT)
    key(app, SIGNAL_KEYS[6])
    assert [s.kind for s in _state(table).signals if s.seat == 0] == ["take"]


def test_a_partners_signal_shows_beside_its_name_and_in_the_log_never_an_opponents() -> None:
    app = make_app((1024, 600))
    table = table_at_my_turn(app, _setup())
    shown: set[int] = set()
    for _turn in range(8):
        if table.awaiting_human:
            table.play_card(table.legal_cards()[0])
        run_until(app, lambda: table.awaiting_human, 4000)
        shown |= set(table.captions.signals)
        seen = table.session.view()
        assert all(s.seat % 2 == 0 for s in seen.signals)
        if 2 in shown:
            break
    assert 2 in shown, "the computer partner should have signalled"
    assert shown <= {0, 2}
    assert any(s.seat == 2 for s in table.session.view().signals)
    app.step(DT)
    footprint = table.painter.footprint
    assert footprint, "the log and bubbles are noted for partial frames"


def test_the_tip_shows_once_and_is_remembered() -> None:
    app = make_app((1024, 600))
    app.settings.signals_tip_seen = False
    table = table_at_my_turn(app, _setup())
    app.step(DT)
    assert app.settings.signals_tip_seen
    banner = table.captions.banner
    assert banner is not None and "F1" in banner[0]()
    again = table_at_my_turn(app, _setup(seed=8))
    app.step(DT)
    assert again.captions.banner is None or "F1" not in again.captions.banner[0]()


def test_frames_with_the_bar_drawn_in_part_are_the_frames_drawn_whole() -> None:
    app = make_app((1024, 600))
    table = table_at_my_turn(app, _setup())
    whole = pygame.Surface(app.size).convert()
    for step in range(120):
        if step == 10:
            key(app, SIGNAL_KEYS[4])
        if step == 40 and table.awaiting_human:
            table.play_card(table.legal_cards()[0])
        app.step(DT)
        if step % 7 == 0:
            table.draw(whole)
            assert pygame.image.tobytes(app.screen, "RGB") == pygame.image.tobytes(whole, "RGB")
    assert table.painter.composer.partial_frames > 0


def test_every_signal_has_a_picture() -> None:
    pygame.init()
    for kind in ("ace", "three", "king", "trump", "none", "carico", "take", "leave"):
        icon = signal_icon(kind, 40)
        assert icon.get_size() == (40, 40)
        assert icon.get_bounding_rect().width > 20  # something is drawn


def test_a_replay_shows_the_hands_signals(
    app_with_record: tuple[App, dict[str, object]], monkeypatch: pytest.MonkeyPatch
) -> None:
    import briscola.gui.scenes.replay as replay_scene

    logged: list[list[Signalled]] = []
    real = replay_scene.draw_signal_log

    def spy(*args: Any) -> pygame.Rect | None:
        logged.append(list(args[2]))
        box = real(*args)
        assert box is not None
        return box

    monkeypatch.setattr(replay_scene, "draw_signal_log", spy)
    app, doc = app_with_record
    scene = start(app, ReplayScene(app, doc))
    assert isinstance(scene, ReplayScene)
    for _ in range(4):
        scene.step(1)
        app.step(DT)
    made = list(scene.session.signals)
    assert made and logged and logged[-1] == made
    assert all(s.trick < scene.index for s in made)


@pytest.fixture
def app_with_record() -> tuple[App, dict[str, object]]:
    import random

    from briscola.engine import GameState, legal_signals

    rules = Rules.preset("teams4", signals="open")
    state = GameState.new(rules, random.Random(3))
    rng = random.Random(4)
    while not state.is_terminal():
        seat = state.current_player or 0
        if legal_signals(state, seat) and rng.random() < 0.5:
            state.signal(seat, legal_signals(state, seat)[0])
        state.apply(rng.choice(state.legal_actions()))
    doc = json.loads(json.dumps(to_record(state)))
    assert replay(doc).signals == state.signals
    assert all(isinstance(s, Signalled) for s in state.signals)
    return make_app((1024, 600)), doc
