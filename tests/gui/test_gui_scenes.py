"""The menu screens: new game, settings, rules, score and statistics (headless)."""

from __future__ import annotations

import ast
import gettext
import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

import pygame
import pytest
from guihelp import click, run_until
from layoutcheck import make_summary, text_fits, widget_problems
from scenelist import full_stats

from briscola.engine import PRESETS, Card, Rules
from briscola.game.setup import GameSetup, SeatConfig
from briscola.game.summary import HandSummary
from briscola.gui.app import App
from briscola.gui.options import AppOptions
from briscola.gui.scene import Scene
from briscola.gui.scenes import FACTORIES, Lazy
from briscola.gui.scenes.newgame import (
    Choices,
    NewGameScene,
    TextInput,
    match_label,
    match_options,
    seat_position,
)
from briscola.gui.scenes.rules import MIN_TEXT, RulesScene
from briscola.gui.scenes.score import ScoreScene
from briscola.gui.scenes.settings import SettingsScene
from briscola.gui.scenes.stats import StatsScene
from briscola.gui.widgets import HIGH_CONTRAST, Choice, Widget
from briscola.storage import paths
from briscola.storage.stats import Stats
from briscola.text import i18n
from briscola.text import rules as rules_text
from briscola.text.rules import BLOCKS, CARD_ROWS, ROW_CARDS, SIGNAL_ROWS

# ---------------------------------------------------------------------- helpers


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Each test gets its own settings, statistics and records folder, in English."""
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path))
    monkeypatch.setenv("LANGUAGE", "en")
    yield tmp_path
    i18n.set_language("en")


@pytest.fixture
def make_app() -> Iterator[Callable[..., App]]:
    apps: list[App] = []

    def make(size: tuple[int, int] = (1280, 720)) -> App:
        app = App(AppOptions(size=size))
        apps.append(app)
        return app

    yield make
    for app in apps:  # close the App that still owns the window, if any
        if pygame.display.get_init() and app.screen is pygame.display.get_surface():
            app.close()


class FakeTable(Scene):
    """Stands in for the table scene: remembers the setup it was given."""

    started: ClassVar[list[GameSetup]] = []

    def __init__(self, app: App, setup: GameSetup) -> None:
        super().__init__(app)
        self.setup = setup
        FakeTable.started.append(setup)


@pytest.fixture
def fake_table(monkeypatch: pytest.MonkeyPatch) -> list[GameSetup]:
    monkeypatch.setitem(FACTORIES, "table", FakeTable)
    FakeTable.started = []
    return FakeTable.started


def show(app: App, scene: Scene, frames: int = 2) -> Scene:
    app.push(scene)
    app.apply_requests()
    for _frame in range(frames):
        app.step(1 / 60)
    return scene


def press(scene: Scene, key: int, mod: int = 0) -> None:
    scene.handle_event(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=""))
    scene.handle_event(pygame.event.Event(pygame.KEYUP, key=key, mod=mod))


def type_text(scene: Scene, text: str) -> None:
    for char in text:
        scene.handle_event(pygame.event.Event(pygame.TEXTINPUT, text=char))


def click_widget(scene: Scene, widget: Widget, side: str = "centre") -> None:
    pos = widget.rect.center
    if isinstance(widget, Choice) and side != "centre":
        left, _value, right = widget._parts()
        pos = left.center if side == "left" else right.center
    click(scene.app, pos)


def focus_by_keyboard(scene: Any, widget: Widget) -> None:
    """Tab/Down until ``widget`` has the focus (as a keyboard player would)."""
    for _step in range(60):
        if scene.group.focused is widget:
            return
        press(scene, pygame.K_DOWN)
    raise AssertionError(f"could not reach {widget} with the keyboard")


# ---------------------------------------------------------------------- new game


def test_new_game_by_keyboard_builds_a_team_game(
    make_app: Any, fake_table: list[GameSetup]
) -> None:
    app = make_app()
    scene = show(app, NewGameScene(app))
    assert isinstance(scene, NewGameScene)
    assert scene.group.focused is scene.start_button  # Enter starts at once
    focus_by_keyboard(scene, scene.preset_choice)
    for _step in range(2):
        press(scene, pygame.K_RIGHT)
    assert scene.choices.preset == "teams4"
    focus_by_keyboard(scene, scene.partners_choice)
    press(scene, pygame.K_RIGHT)
    focus_by_keyboard(scene, scene.match_choice)
    press(scene, pygame.K_RIGHT)
    focus_by_keyboard(scene, scene.kind_choices[3])
    press(scene, pygame.K_LEFT)  # medium -> easy
    focus_by_keyboard(scene, scene.name_inputs[2])
    type_text(scene, "Gianna")
    press(scene, pygame.K_SPACE)  # a space arrives as text, never as a press
    type_text(scene, " ")
    assert scene.name_inputs[2].text == "Gianna "
    press(scene, pygame.K_BACKSPACE)
    focus_by_keyboard(scene, scene.start_button)
    press(scene, pygame.K_RETURN)
    app.apply_requests()
    assert len(fake_table) == 1
    setup = fake_table[0]
    assert setup.rules == Rules.preset("teams4", partners_see="start", match="best-of-3")
    assert setup.seed is None
    assert [seat.human for seat in setup.seats] == [True, False, False, False]
    assert setup.seats[0].name == "You"
    assert setup.seats[2].name == "Gianna"
    assert setup.seats[3].level == "easy"
    assert isinstance(app.scene, FakeTable)
    # The choices are remembered, in memory and on disk.
    assert app.settings.new_game["preset"] == "teams4"
    saved = json.loads(paths.settings_file().read_text(encoding="utf-8"))
    assert saved["new_game"]["matches"]["teams4"] == "best-of-3"


def test_new_game_by_mouse_builds_a_chiamata(make_app: Any, fake_table: list[GameSetup]) -> None:
    app = make_app((1024, 600))
    scene = show(app, NewGameScene(app))
    assert isinstance(scene, NewGameScene)
    for _step in range(3):
        click_widget(scene, scene.preset_choice, "right")
    assert scene.choices.preset == "chiamata5"
    assert not scene.swap_choice.enabled and not scene.partners_choice.enabled
    assert [scene.name_inputs[i].visible for i in range(6)] == [True] * 5 + [False]
    click_widget(scene, scene.match_choice, "right")
    click_widget(scene, scene.match_choice, "right")
    click_widget(scene, scene.three_choice, "right")
    click_widget(scene, scene.kind_choices[2], "left")  # medium -> easy
    click_widget(scene, scene.kind_choices[4], "right")  # medium -> hard
    click_widget(scene, scene.kind_choices[1], "left")
    click_widget(scene, scene.kind_choices[1], "left")  # medium -> easy -> human
    click_widget(scene, scene.name_inputs[1])
    assert scene.name_inputs[1].active
    type_text(scene, "Zoë")
    click_widget(scene, scene.start_button)
    app.apply_requests()
    setup = fake_table[-1]
    assert setup.rules == Rules.preset("chiamata5", match="hands-5", three_as_three=True)
    assert [seat.human for seat in setup.seats] == [True, True, False, False, False]
    assert setup.seats[1].name == "Zoë"
    assert setup.seats[2].level == "easy" and setup.seats[4].level == "hard"
    assert setup.hot_seat


@pytest.mark.parametrize("preset", list(PRESETS))
def test_new_game_offers_only_valid_rules(make_app: Any, preset: str) -> None:
    app = make_app()
    app.settings.new_game = {"preset": "classic2", "swap": True, "partners_see": "stock-empty"}
    scene = show(app, NewGameScene(app), frames=1)
    assert isinstance(scene, NewGameScene)
    scene.set_preset(preset)
    base = PRESETS[preset]
    assert scene.swap_choice.enabled == (base.turned_briscola and base.stock_size > 0)
    assert scene.partners_choice.enabled == base.teams
    for match, _label in scene.match_choice.options:
        scene.set_match(match)
        rules = scene.setup().rules
        assert str(rules.match) == match
        assert rules.name == preset
        assert rules.swap == scene.swap_choice.enabled
        assert rules.partners_see == ("stock-empty" if base.teams else "never")
    setup = scene.setup()
    assert len(setup.seats) == base.players
    assert all(seat.name for seat in setup.seats)
    assert len({seat.name for seat in setup.seats}) == base.players


def test_new_game_match_lengths() -> None:
    assert match_options("classic2") == [
        "single",
        "best-of-3",
        "best-of-5",
        *(f"first-to-{n}" for n in range(2, 10)),
    ]
    assert match_options("chiamata5") == ["single", "hands-3", "hands-5", "hands-10"]
    assert match_options("briscolone2") == ["points-121", "points-151"]
    assert match_label("first-to-4") == "First to 4 hands"
    assert match_label("points-151") == "First to 151 points"


def test_new_game_remembers_and_back_pops(make_app: Any) -> None:
    app = make_app()
    menu = show(app, Scene(app))
    scene = show(app, NewGameScene(app))
    assert isinstance(scene, NewGameScene)
    scene.set_preset("briscolone4")
    scene.set_match("points-121")
    press(scene, pygame.K_ESCAPE)
    app.apply_requests()
    assert app.scene is menu
    again = NewGameScene(app)
    assert again.choices.preset == "briscolone4"
    assert again.rules.match.target == 121
    # Unusable saved data falls back to defaults.
    broken = Choices.from_json({"preset": "poker", "seats": [{"kind": "wizard"}, 3], "matches": 4})
    assert broken.rules() == Rules.preset("classic2")
    assert broken.seats[0].kind == "human"


def test_seats_go_counterclockwise() -> None:
    centre = (0.0, 0.0)
    bottom = seat_position(0, 4, centre, 100, 50)
    right = seat_position(1, 4, centre, 100, 50)
    top = seat_position(2, 4, centre, 100, 50)
    left = seat_position(3, 4, centre, 100, 50)
    assert bottom[1] > 0 and abs(bottom[0]) < 1e-6  # seat 0 at the bottom (y grows down)
    assert right[0] > 0  # the next player sits to the right
    assert top[1] < 0 and left[0] < 0


def test_text_input_editing() -> None:
    changes: list[str] = []
    field = TextInput("Ann", changes.append, lambda: "", max_length=6)
    field.insert("a")
    field.step(-1)
    field.insert("x\x07")  # control characters are dropped
    field.backspace()
    field.insert("yzzzz")  # cut at the maximum length
    assert field.text == "Annyza"
    field.cursor = 0
    field.delete()
    assert field.text == "nnyza" and changes[-1] == "nnyza"


# ---------------------------------------------------------------------- settings


def test_settings_apply_live_and_persist(make_app: Any) -> None:
    app = make_app()
    below = show(app, Recorder(app))
    scene = show(app, SettingsScene(app))
    assert isinstance(scene, SettingsScene) and isinstance(below, Recorder)
    assert scene.four_colour.enabled is False
    focus_by_keyboard(scene, scene.deck)
    press(scene, pygame.K_RIGHT)
    assert app.settings.deck == "french"
    assert scene.four_colour.enabled
    click_widget(scene, scene.four_colour)
    assert app.settings.deck_style == "french4"
    click_widget(scene, scene.back_choice)  # from the deck's own back (the default)
    assert app.settings.back == "classic"
    focus_by_keyboard(scene, scene.speed)
    press(scene, pygame.K_RIGHT)
    press(scene, pygame.K_RIGHT)
    assert app.settings.speed == "off" and app.settings.speed_factor == 0
    focus_by_keyboard(scene, scene.ui_scale)
    press(scene, pygame.K_RIGHT)
    assert app.settings.ui_scale == pytest.approx(1.1)
    click_widget(scene, scene.high_contrast)
    assert app.theme is HIGH_CONTRAST
    # The volume slider: clicking the end of the track, then arrows.
    track = scene.volume._track()
    click(scene.app, (track.right - 1, track.centery))
    assert app.settings.volume == pytest.approx(1.0, abs=0.02)
    focus_by_keyboard(scene, scene.volume)
    press(scene, pygame.K_LEFT)
    assert app.settings.volume == pytest.approx(0.9, abs=0.02)
    assert app.audio.volume == pytest.approx(app.settings.volume)
    assert below.changes >= 6  # every change reached the scene underneath
    press(scene, pygame.K_ESCAPE)
    app.apply_requests()
    assert app.scene is below
    app.close()
    # A new App reads everything back.
    again = make_app()
    settings = again.settings
    assert (settings.deck, settings.four_colour, settings.back) == ("french", True, "classic")
    assert settings.speed == "off" and settings.high_contrast
    assert settings.ui_scale == pytest.approx(1.1)
    assert settings.volume == pytest.approx(0.9, abs=0.02)


def test_settings_language_and_sound(make_app: Any) -> None:
    app = make_app()
    scene = show(app, SettingsScene(app))
    assert isinstance(scene, SettingsScene)
    codes = [code for code, _label in scene.language.options]
    assert codes == ["", *i18n.LANGUAGES]
    assert [label() for _code, label in scene.language.options][1:] == list(i18n.LANGUAGES.values())
    scene.language.set_value("")
    focus_by_keyboard(scene, scene.language)
    press(scene, pygame.K_RIGHT)
    press(scene, pygame.K_RIGHT)
    assert app.settings.language == "it"
    assert i18n.current_language() == "it"
    click_widget(scene, scene.sound)
    assert app.settings.sound is False and app.audio.enabled is False
    app.step(1 / 60)
    scene.language.set_value("en")
    scene.change("language", "en")
    assert i18n.current_language() == "en"


class Recorder(Scene):
    changes = 0

    def on_settings_changed(self) -> None:
        self.changes += 1


# ---------------------------------------------------------------------- rules


def test_rules_scroll(make_app: Any) -> None:
    app = make_app((1024, 600))
    scene = show(app, RulesScene(app))
    assert isinstance(scene, RulesScene)
    assert scene.max_scroll > scene.view.height  # long enough to need scrolling
    press(scene, pygame.K_PAGEDOWN)
    assert run_until(app, lambda: scene.scroll == scene.target)
    assert scene.scroll == pytest.approx(scene.view.height * 0.9, abs=2)
    press(scene, pygame.K_DOWN)
    assert run_until(app, lambda: scene.scroll == scene.target)
    after_arrow = scene.scroll
    assert after_arrow > scene.view.height * 0.9
    scene.handle_event(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-2, flipped=False))
    assert scene.target > after_arrow
    press(scene, pygame.K_END)
    assert run_until(app, lambda: scene.scroll == scene.target)
    assert scene.scroll == scene.max_scroll
    assert scene.section_buttons[-1].current
    press(scene, pygame.K_HOME)
    assert run_until(app, lambda: scene.scroll == scene.target)
    assert scene.scroll == 0 and scene.section_buttons[0].current
    # Drag the scrollbar's thumb to the bottom.
    thumb = scene.scrollbar.thumb(scene.scroll, scene.view.height, scene.content_h)
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=thumb.center, button=1))
    bottom = (thumb.centerx, scene.scrollbar.track.bottom + 50)
    scene.handle_event(
        pygame.event.Event(pygame.MOUSEMOTION, pos=bottom, rel=(0, 1), buttons=(1, 0, 0))
    )
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=bottom, button=1))
    assert scene.scroll == scene.max_scroll
    # The contents jump to a section.
    matches = scene.section_buttons[-3]
    click_widget(scene, matches)
    assert run_until(app, lambda: scene.scroll == scene.target)
    assert scene.section_buttons[-3].current
    press(scene, pygame.K_ESCAPE)
    app.apply_requests()
    assert app.scene is None


def test_rules_text_blocks() -> None:
    kinds = {kind for kind, _text in BLOCKS}
    assert kinds <= {"section", "heading", "para", "bullet"} | CARD_ROWS | SIGNAL_ROWS
    assert len(rules_text.sections()) >= 9
    titles = " ".join(text for _index, text in rules_text.sections())
    for topic in ("Chiamata", "scoperta", "Briscolone", "three", "Swapping", "Matches"):
        assert topic in titles
    for codes in ROW_CARDS.values():
        assert all(Card.from_code(code) for code in codes)


# ---------------------------------------------------------------------- score


def run_score(
    app: App, summary: HandSummary, on_next: Callable[[], None] | None = None
) -> ScoreScene:
    calls: list[str] = []
    scene = ScoreScene(
        app,
        summary,
        on_next,
        lambda: calls.append("rematch"),
        lambda: calls.append("menu"),
    )
    scene.calls = calls  # type: ignore[attr-defined]
    show(app, scene)
    return scene


@pytest.mark.parametrize("preset", list(PRESETS))
def test_score_counts_every_side(make_app: Any, preset: str) -> None:
    app = make_app()
    app.settings.speed = "fast"
    summary = make_summary(preset, seed=11)
    scene = run_score(app, summary)
    assert not scene.done
    assert sum(len(pile) for pile in summary.piles) == summary.rules.deck_size
    totals = []
    while not scene.done:  # the totals count up as the cards land
        app.step(1 / 15)
        totals.append(scene.running_total(0))
    assert totals == sorted(totals) and len(totals) > 5
    for side, points in enumerate(summary.result.side_points):
        assert scene.running_total(side) == points
    assert scene.verdict()


def test_score_skip_and_buttons(make_app: Any) -> None:
    app = make_app()
    nexts: list[int] = []
    scene = run_score(
        app, make_summary("classic2", hands=1, match="best-of-3"), lambda: nexts.append(1)
    )
    assert [b.name for b in scene.buttons] == ["menu", "save", "review", "next"]
    click_widget(scene, scene.primary)  # the first click only skips the count
    assert scene.done and not nexts
    app.step(1 / 60)
    click_widget(scene, scene.primary)
    assert nexts == [1]
    press(scene, pygame.K_RETURN)  # the primary button has the keyboard focus
    assert nexts == [1, 1]
    click_widget(scene, scene.menu_button)
    press(scene, pygame.K_ESCAPE)
    assert scene.calls == ["menu", "menu"]  # type: ignore[attr-defined]
    # A finished match offers a rematch instead.
    over = run_score(app, make_summary("classic2"), None)
    assert [b.name for b in over.buttons] == ["menu", "save", "review", "rematch"]
    press(over, pygame.K_SPACE)
    press(over, pygame.K_RETURN)
    assert over.calls == ["rematch"]  # type: ignore[attr-defined]


def test_score_save_record(make_app: Any, home: Path) -> None:
    app = make_app()
    summary = make_summary("chiamata5", seed=5)
    scene = run_score(app, summary)
    scene.skip()
    app.step(1 / 60)
    click_widget(scene, scene.save_button)
    files = list(paths.records_dir().glob("*.json"))
    assert len(files) == 1 and files[0].is_relative_to(home)
    assert json.loads(files[0].read_text(encoding="utf-8")) == summary.record
    assert not scene.save_button.enabled and scene.save_button.label() == "Saved"
    assert scene.saved_path == str(files[0]) and not app.notices  # no notice over the verdict


def test_score_without_animation(make_app: Any) -> None:
    app = make_app()
    app.settings.speed = "off"
    assert run_score(app, make_summary()).done
    app.settings.speed = "normal"
    app.settings.reduce_motion = True
    assert run_score(app, make_summary()).done


def test_score_texts(make_app: Any) -> None:
    app = make_app()
    summary = make_summary("classic2", seed=3)
    winner = summary.result.winner
    assert winner is not None
    scene = ScoreScene(app, summary, None, print, print)
    assert scene.verdict() == ("You win!" if winner == 0 else "You lose.")
    watcher = ScoreScene(app, replace(summary, viewer=None), None, print, print)
    assert watcher.verdict() == f"{summary.names[winner]} wins!"
    draw = replace(
        summary.result, points=(60, 60), side_points=(60, 60), winner=None, returns=(0, 0)
    )
    assert ScoreScene(app, replace(summary, result=draw), None, print, print).verdict() == (
        "Draw 60-60"
    )
    teams = make_summary("teams4", seed=2, viewer=None)
    team_scene = ScoreScene(app, teams, None, print, print)
    assert team_scene.verdict().endswith(" win!") and " & " in team_scene.verdict()
    chiamata = make_summary("chiamata5", seed=5, hands=2, match="hands-3")
    lines = ScoreScene(app, chiamata, print, print, print).details()
    assert "called the" in lines[0]
    title, rows = ScoreScene(app, chiamata, print, print, print).standing_rows()
    assert title and len(rows) == 5
    assert ScoreScene(app, chiamata, print, print, print).standing_title() == "Hand 2 of 3"
    points = make_summary("briscolone2", seed=1, hands=1)
    _title, rows = ScoreScene(app, points, print, print, print).standing_rows()
    assert rows[0][1].endswith("/ 121")


# ---------------------------------------------------------------------- statistics screen


def test_stats_scene_reset_with_confirmation(make_app: Any) -> None:
    app = make_app()
    stats = Stats.load()
    setup = GameSetup(Rules.preset("classic2"), [SeatConfig("You", True), SeatConfig("Anna")])
    stats.record_hand(setup, make_summary().result, 0)
    stats.record_match(setup, True)
    assert stats.save() is None
    scene = show(app, StatsScene(app))
    assert isinstance(scene, StatsScene)
    assert scene.table_rows()[0][:2] == ("classic2", "medium")
    assert scene.reset_button.enabled
    click_widget(scene, scene.reset_button)
    assert scene.confirming
    app.step(1 / 60)
    press(scene, pygame.K_ESCAPE)  # Esc cancels the dialog, not the screen
    assert not scene.confirming and app.scene is scene
    assert not Stats.load().empty
    assert scene.group.focused is scene.reset_button
    press(scene, pygame.K_RETURN)
    assert scene.confirming
    assert scene.dialog_group.focused is scene.cancel_button  # the safe choice first
    press(scene, pygame.K_TAB)
    press(scene, pygame.K_RETURN)
    assert not scene.confirming
    assert Stats.load().empty and scene.stats.empty
    assert not scene.reset_button.enabled
    app.step(1 / 60)
    press(scene, pygame.K_ESCAPE)
    app.apply_requests()
    assert app.scene is None


def test_stats_scene_reports_a_damaged_file(make_app: Any) -> None:
    paths.stats_file().parent.mkdir(parents=True, exist_ok=True)
    paths.stats_file().write_text("{ not json", encoding="utf-8")
    app = make_app()
    scene = show(app, StatsScene(app))
    assert isinstance(scene, StatsScene) and scene.stats.empty
    assert any("damaged" in notice.text for notice in app.notices)


# ---------------------------------------------------------------------- every size and language


def layout_problems(app: App, scene: Any) -> list[str]:
    width, height = app.size
    screen = pygame.Rect(0, 0, width, height)
    problems: list[str] = []
    for drawn in scene.painter.drawn:
        if not text_fits(app, drawn.text, drawn.size, drawn.box.width + 1, drawn.bold):
            problems.append(f"{drawn.text!r} overflows {drawn.box}")
        if drawn.size < MIN_TEXT:
            problems.append(f"{drawn.text!r} drawn at {drawn.size}px")
        visible = drawn.box if drawn.clip is None else drawn.clip
        if not screen.contains(visible):
            problems.append(f"{drawn.text!r} outside the window: {drawn.box}")
    groups = [scene.group] + ([scene.dialog_group] if getattr(scene, "confirming", False) else [])
    for group in groups:
        for widget in group.widgets:
            if widget.visible:
                problems += widget_problems(app, widget)
                if not screen.contains(widget.rect):
                    problems.append(f"{widget} outside the window: {widget.rect}")
    return problems


def all_scenes(app: App) -> Iterator[tuple[str, Scene]]:
    yield "rules", RulesScene(app)
    for preset in ("classic2", "teams6", "chiamata5"):
        scene = NewGameScene(app)
        scene.set_preset(preset)
        yield f"newgame-{preset}", scene
    yield "settings", SettingsScene(app)
    for preset, viewer in (("classic3", 0), ("teams4", None), ("chiamata5", 0)):
        options = {"match": "hands-3"} if preset == "chiamata5" else {"match": "best-of-3"}
        summary = make_summary(preset, seed=4, viewer=viewer, **options)
        yield f"score-{preset}", ScoreScene(app, summary, print, print, print)
    yield "stats-empty", StatsScene(app, Stats())
    yield "stats", StatsScene(app, full_stats())
    confirming = StatsScene(app, full_stats())
    confirming.ask_reset()
    yield "stats-dialog", confirming


def scene_problems(app: App, prefix: str) -> list[str]:
    """Show every scene of :func:`all_scenes` in turn; what does not fit, by scene."""
    problems: list[str] = []
    for name, scene in all_scenes(app):
        show(app, scene, frames=0)
        if isinstance(scene, ScoreScene):
            scene.skip()
            scene.t += 1.0
        app.step(1 / 60)
        problems += [f"{prefix}{name}: {p}" for p in layout_problems(app, scene)]
        app.pop()
        app.apply_requests()
    return problems


@pytest.mark.parametrize("size", [(1024, 600), (1280, 720), (1920, 1080)])
def test_every_scene_fits_every_size_and_language(make_app: Any, size: tuple[int, int]) -> None:
    app = make_app(size)
    problems: list[str] = []
    for language in i18n.LANGUAGES:
        app.settings.language = language
        app.settings_changed()
        for deck in ("italian", "french"):
            app.settings.deck = deck
            if language != "en" and deck == "french":
                continue  # the deck changes pictures, not text: once is enough
            problems += scene_problems(app, f"{language} {size} ")
    assert not problems, "\n".join(problems)


class LongerWords(gettext.NullTranslations):
    """A pseudo-translation with every word half as long again (German runs about a third
    longer than English): placeholders are left alone."""

    def gettext(self, message: str) -> str:
        words = []
        for word in message.split(" "):
            if "{" in word or len(word) < 3:
                words.append(word)
            else:
                words.append(word + word[: len(word) // 2].lower())
        return " ".join(words)


def test_longer_translations_still_fit(make_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app((1024, 600))
    monkeypatch.setattr(i18n, "_current", LongerWords())
    assert i18n._("Start game") == "Startst gamega"
    problems = scene_problems(app, "")
    assert not problems, "\n".join(problems)


SCENES = Path(__file__).resolve().parents[2] / "briscola" / "gui" / "scenes"


def _scene_imports(path: Path, scenes: set[str]) -> set[str]:
    """The scene modules ``path`` imports (relative, absolute, or ``from . import x``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names = [node.module] if node.module else [a.name for a in node.names]
            found.update(n.split(".")[0] for n in names if n.split(".")[0] in scenes)
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            absolute = f"briscola.gui.{node.module}" if node.level == 2 else node.module
            names = [absolute]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        found.update(n for n in names if n.startswith("briscola.gui.scenes"))
    return found


def test_no_scene_module_imports_another_scene_module() -> None:
    scenes = {path.stem for path in SCENES.glob("*.py")} - {"__init__"}
    assert {"menu", "table", "score"} <= scenes
    crossing = {
        path.name: sorted(found)
        for path in sorted(SCENES.glob("*.py"))
        if path.stem != "__init__" and (found := _scene_imports(path, scenes))
    }
    assert crossing == {}, f"scenes must navigate through App.open: {crossing}"


def test_every_registered_scene_name_leads_to_a_scene_class() -> None:
    lazy = [factory for factory in FACTORIES.values() if isinstance(factory, Lazy)]
    assert len(lazy) >= 10
    for factory in lazy:
        assert issubclass(factory.scene_class(), Scene), factory.name
