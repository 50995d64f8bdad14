"""Every scene of the game in a state worth checking, for the layout tests (test_i18n.py,
test_accessibility.py): each builder puts its scene (and what lies under it) on the App's
stack and returns the top scene."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from guihelp import run_until, start
from layoutcheck import human_wins_auction, make_summary

from briscola.engine import PRESETS, Rules, to_record
from briscola.game.setup import GameSetup, SeatConfig, default_setup, demo_setup
from briscola.gui.app import App
from briscola.gui.scene import Scene
from briscola.gui.scenes.menu import MenuScene
from briscola.gui.scenes.newgame import NewGameScene
from briscola.gui.scenes.pause import PauseScene
from briscola.gui.scenes.replay import ReplayPickerScene, ReplayScene
from briscola.gui.scenes.rules import RulesScene
from briscola.gui.scenes.score import ScoreScene
from briscola.gui.scenes.settings import SettingsScene
from briscola.gui.scenes.stats import StatsScene
from briscola.gui.scenes.table import TableScene
from briscola.storage import paths
from briscola.storage.stats import Stats


def show(app: App, scene: Scene) -> Scene:
    app.push(scene)
    app.apply_requests()
    return scene


def quick(app: App) -> Any:
    """Animations off while a scene is prepared (restored by the caller's settings)."""
    speed = app.settings.speed
    app.settings.speed = "off"
    return speed


def table(app: App, setup: GameSetup, demo: bool, tricks: int = 2) -> TableScene:
    speed = quick(app)
    scene = TableScene(app, setup, demo=demo)
    start(app, scene)
    assert scene.session.state is not None
    advance(app, scene, lambda: bool(scene.board.table) and not scene.busy, tricks)
    app.settings.speed = speed
    return scene


def advance(app: App, scene: TableScene, done: Callable[[], bool], tricks: int) -> None:
    """Step until ``tricks`` tricks are taken and ``done()``; human seats play their first
    legal move when their turn comes."""

    def ready() -> bool:
        state = scene.session.state
        assert state is not None
        if (len(state.tricks) >= tricks or state.is_terminal()) and done():
            return True
        if scene.awaiting_human:
            scene.submit(state.legal_actions()[0])
        return False

    assert run_until(app, ready)


def demo_table(preset: str) -> Callable[[App], Scene]:
    def build(app: App) -> Scene:
        scene = table(app, demo_setup(preset, seed=7), demo=True)
        if scene.captions.banner is not None:  # keep the last banner up while the scene is checked
            scene.captions.banner = (scene.captions.banner[0], scene.captions.t + 100)
        return scene

    return build


def chiamata_table(app: App, call: bool) -> TableScene:
    """Briscola Chiamata with the player to bid (or, with ``call``, having won the auction,
    to call a card)."""
    setup = default_setup(Rules.preset("chiamata5"), "easy")
    setup.seed = 8
    speed = quick(app)
    scene = start(app, TableScene(app, setup))
    assert isinstance(scene, TableScene)
    if call:
        human_wins_auction(app, scene)
    assert run_until(app, lambda: scene.awaiting_human)
    scene.update(0.0)
    assert scene.session.state is not None and scene.session.state.phase == (
        "call" if call else "auction"
    )
    app.settings.speed = speed
    return scene


def chiamata_auction(app: App) -> Scene:
    return chiamata_table(app, call=False)


def chiamata_call(app: App) -> Scene:
    return chiamata_table(app, call=True)


def chiamata_play(app: App) -> Scene:
    scene = chiamata_call(app)
    assert isinstance(scene, TableScene)
    call = next(
        w for w in scene.auction.controls.widgets if getattr(w, "name", "").startswith("call:")
    )
    call.activate()
    speed = quick(app)
    assert run_until(app, lambda: not scene.busy)
    advance(app, scene, lambda: scene.awaiting_human, 1)
    scene.hand.keyboard = True
    app.settings.speed = speed
    return scene


def last_trick(app: App) -> Scene:
    scene = table(app, default_setup(Rules.preset("teams6"), "easy"), demo=False)
    speed = quick(app)
    advance(app, scene, lambda: scene.awaiting_human, 1)
    app.settings.speed = speed
    scene.toggle_last()
    return scene


def privacy(app: App) -> Scene:
    rules = Rules.preset("classic2")
    setup = GameSetup(
        rules, [SeatConfig("Bartolomeo Lucci", True), SeatConfig("Massimiliano Ros", True)]
    )
    speed = quick(app)
    scene = start(app, TableScene(app, setup))
    assert isinstance(scene, TableScene)
    assert run_until(app, lambda: scene.privacy is not None)
    app.settings.speed = speed
    return scene


def pause(app: App) -> Scene:
    under = table(app, default_setup(Rules.preset("classic2"), "easy"), demo=False, tricks=1)
    return show(app, PauseScene(app, under))


def score(preset: str, **options: Any) -> Callable[[App], Scene]:
    def build(app: App) -> Scene:
        start(app, MenuScene(app))
        summary = make_summary(preset, seed=4, **options)
        scene = show(app, ScoreScene(app, summary, print, print, print))
        assert isinstance(scene, ScoreScene)
        scene.skip()
        scene.t += 1.0
        return scene

    return build


def newgame(preset: str) -> Callable[[App], Scene]:
    def build(app: App) -> Scene:
        start(app, MenuScene(app))
        scene = show(app, NewGameScene(app))
        assert isinstance(scene, NewGameScene)
        scene.set_preset(preset)
        return scene

    return build


def full_stats() -> Stats:
    stats = Stats()
    for preset in PRESETS:
        rules = Rules.preset(preset)
        for level in ("easy", "medium", "hard"):
            seats = [SeatConfig("You", True)]
            seats += [SeatConfig("CPU", level=level) for _seat in range(rules.players - 1)]
            setup = GameSetup(rules, seats)
            stats.record_hand(setup, make_summary(preset, seed=1).result, 0)
            stats.record_match(setup, None)
    return stats


def stats(kind: str) -> Callable[[App], Scene]:
    def build(app: App) -> Scene:
        start(app, MenuScene(app))
        scene = show(app, StatsScene(app, Stats() if kind == "empty" else full_stats()))
        if kind == "dialog":
            scene.ask_reset()  # type: ignore[attr-defined]
        if kind == "per-level":
            scene.next_grouping()  # type: ignore[attr-defined]
        return scene

    return build


def save_records(count: int) -> None:
    folder = paths.records_dir()
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.json"):
        old.unlink()
    for index in range(count):
        summary = make_summary(list(PRESETS)[index % len(PRESETS)], seed=index)
        doc = to_record_with_names(summary.record, summary.names)
        (folder / f"record-{index}.json").write_text(json.dumps(doc), encoding="utf-8")


def to_record_with_names(record: dict[str, Any], names: list[str]) -> dict[str, Any]:
    doc = dict(record)
    doc["meta"] = {"players": [{"name": n} for n in names], "date": "2026-05-01T20:15"}
    return doc


def replay_picker(count: int) -> Callable[[App], Scene]:
    def build(app: App) -> Scene:
        save_records(count)
        start(app, MenuScene(app))
        return show(app, ReplayPickerScene(app))

    return build


def replay(app: App) -> Scene:
    summary = make_summary("teams4", seed=2)
    doc = to_record_with_names(summary.record, summary.names)
    start(app, MenuScene(app))
    scene = show(app, ReplayScene(app, doc))
    scene.index = 3  # type: ignore[attr-defined]
    return scene


def review(app: App) -> Scene:
    """The review of a hand, kept in its record (shown at once), at its costliest card."""
    from briscola.coach import review as make_review
    from briscola.gui.scenes.review import ReviewScene

    summary = make_summary("classic2", seed=2)
    record = dict(summary.record)
    record["review"] = make_review(record, 0, budget=300, seed=1).to_json()
    start(app, MenuScene(app))
    scene = show(app, ReviewScene(app, record, 0))
    scene.jump_to_costliest()  # type: ignore[attr-defined]
    return scene


def lesson(app: App) -> Scene:
    """The first lesson after its script (two tricks): the caption on points, the player to
    lead."""
    from briscola.engine import Card

    start(app, MenuScene(app))
    scene = app.open("lesson")
    app.apply_requests()
    assert isinstance(scene, TableScene)
    speed = quick(app)
    assert run_until(app, lambda: scene.awaiting_human)
    for code in ("4B", "2C"):
        assert scene.play_card(Card.from_code(code))
        assert run_until(app, lambda: scene.awaiting_human)
    app.settings.speed = speed
    return scene


def menu(app: App) -> Scene:
    return start(app, MenuScene(app))


def settings(app: App) -> Scene:
    start(app, MenuScene(app))
    return show(app, SettingsScene(app))


def rules(app: App) -> Scene:
    start(app, MenuScene(app))
    return show(app, RulesScene(app))


#: name -> builder, the menu screens first (quick), then the table in its states.
SCENES: dict[str, Callable[[App], Scene]] = {
    "menu": menu,
    **{f"newgame-{p}": newgame(p) for p in ("classic2", "teams4", "chiamata5", "teams6")},
    "settings": settings,
    "rules": rules,
    "stats-empty": stats("empty"),
    "stats": stats("full"),
    "stats-dialog": stats("dialog"),
    "stats-per-level": stats("per-level"),
    "score-classic2": score("classic2"),
    "score-teams4": score("teams4", match="best-of-3"),
    "score-chiamata5": score("chiamata5", match="hands-3"),
    "replay-empty": replay_picker(0),
    "replay-picker": replay_picker(8),
    "replay": replay,
    "pause": pause,
    **{f"table-{p}": demo_table(p) for p in PRESETS},
    "table-auction": chiamata_auction,
    "table-call": chiamata_call,
    "table-chiamata-play": chiamata_play,
    "table-last-trick": last_trick,
    "table-privacy": privacy,
    "review": review,
    "lesson": lesson,
}

#: Scenes that are not worth rebuilding for every option (the quick ones are rebuilt).
__all__ = ["SCENES", "make_summary", "to_record"]
