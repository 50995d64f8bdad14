"""Saving a hand's record from the score screen and replaying it trick by trick."""

from __future__ import annotations

import json
import random

import pygame
from guihelp import key, make_app, start

from briscola.engine import GameState, Rules, replay, to_record
from briscola.gui.scenes.menu import MenuScene
from briscola.gui.scenes.replay import ReplayPickerScene, ReplayScene, load_entries
from briscola.storage import paths


def _saved_record(seed: int = 3) -> dict[str, object]:
    state = GameState.new(Rules.preset("classic2", swap=True), random.Random(seed))
    while not state.is_terminal():
        state.apply(state.legal_actions()[-1])
    doc = to_record(
        state, {"players": [{"name": "Ada"}, {"name": "Bob"}], "date": "2026-11-30T10:00"}
    )
    folder = paths.records_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"hand-{seed}.json").write_text(json.dumps(doc))
    (folder / "broken.json").write_text("{oops")
    return doc


def test_the_picker_lists_good_records_and_skips_broken_ones() -> None:
    _saved_record()
    entries = load_entries()
    assert entries and all(e.path.name != "broken.json" for e in entries)
    assert "Ada" in entries[0].title


def test_menu_to_replay_and_step_through_every_trick() -> None:
    doc = _saved_record(4)
    app = make_app()
    menu = start(app, MenuScene(app))
    assert isinstance(menu, MenuScene)
    menu.replay()
    app.apply_requests()
    picker = app.scene
    assert isinstance(picker, ReplayPickerScene)
    entry = next(e for e in picker.entries if e.doc == doc)
    picker.open(entry)
    app.apply_requests()
    scene = app.scene
    assert isinstance(scene, ReplayScene)
    final = replay(doc)
    for i in range(len(final.tricks)):
        assert scene.index == i
        scene.session.go_to(i)
        assert list(scene.session.view().tricks) == final.tricks[:i]
        app.step(1 / 60)
        key(app, pygame.K_RIGHT)
    assert scene.index == len(final.tricks)
    key(app, pygame.K_RIGHT)  # stays at the end
    assert scene.index == len(final.tricks)
    key(app, pygame.K_LEFT)
    assert scene.index == len(final.tricks) - 1
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.scene, ReplayPickerScene)
    app.close()


def test_autoplay_advances() -> None:
    doc = _saved_record(5)
    app = make_app()
    scene = start(app, ReplayScene(app, doc))  # type: ignore[arg-type]
    assert isinstance(scene, ReplayScene)
    scene.toggle()
    for _ in range(200):
        app.step(1 / 60)
    assert scene.index >= 1
    app.close()


def test_a_replay_tells_the_signals_a_computer_made_for_a_person() -> None:
    from briscola.game.driver import MatchDriver, Seat
    from briscola.gui.scenes.replay import computer_signals

    rules = Rules.preset("teams4", signals="partner")
    seats = [Seat(f"P{i}", "human") for i in range(4)]
    driver = MatchDriver(rules, seats, random.Random(3))
    state = driver.deal()
    driver.replace(1, "medium")  # a computer plays for P1 from the start
    for _ in range(12):
        driver.computer_signals_between()
        driver.apply(random.Random(len(state.events)).choice(state.legal_actions()))
    doc = driver.record()
    by_computer = computer_signals(doc, replay(doc).signals)
    assert by_computer, "the stand-in signalled"
    assert by_computer == {s for s in replay(doc).signals if s.seat == 1}
    doc["meta"].pop("signalled_by")
    assert computer_signals(doc, replay(doc).signals) == frozenset(), "an older record: not said"


def test_a_guests_record_of_a_hand_cut_short_shows_the_cards_it_never_saw_face_down() -> None:
    """A guest's game keeps a hand its table ended in (issue 46) with the cards it never
    saw guessed: the replay shows them as backs, never as the cards the others held."""
    from briscola.client.kept import seen_record

    state = GameState.new(Rules.preset("classic2"), random.Random(4))
    for _ in range(9):
        state.apply(state.legal_actions()[0])
    doc = seen_record(state.rules, 0, state.events_for(0), {"unfinished": "host_gone"})
    assert doc is not None and doc["meta"]["guessed"]
    app = make_app()
    try:
        scene = start(app, ReplayScene(app, doc))
        assert isinstance(scene, ReplayScene)
        for index in range(len(scene.tricks) + 1):
            scene.index = index
            scene._lay_out()
            mine, theirs = scene.board.hands[0], scene.board.hands[1]
            assert all(sprite.card is not None for sprite in mine), index
            unseen = {sprite.card for sprite in theirs} & scene.session.unseen
            assert not unseen, f"a guessed card shown at trick {index}: {unseen}"
        assert any(sprite.card is None for sprite in scene.board.hands[1])
        scene.draw(app.screen)
    finally:
        app.close()
