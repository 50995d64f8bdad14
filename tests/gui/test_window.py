"""The game's window (briscola.gui.render.window): made for the screen's real pixels, mouse
events converted from screen coordinates in one place, the drawable read again when it
changes, the native Wayland driver preferred with a fall-back to X11, and the test hooks
(clicks in screen coordinates, the frame saved)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from guihelp import make_app, start

from briscola.gui import cli
from briscola.gui.app import MIN_SIZE, App
from briscola.gui.render import display, window
from briscola.gui.render.window import ClickFeeder, GameWindow, open_window
from briscola.gui.scenes.menu import MenuScene


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    app = make_app((1280, 720), lang="en", settings_path=tmp_path / "settings.json")
    yield app
    app.close()


def _double(app: App) -> None:
    """What a window on a screen scaled 200 % (Retina, Wayland) has: a surface twice the
    window's size (the dummy driver has no scaled screen)."""
    width, height = app.window.size
    app.window.surface = pygame.Surface((width * 2, height * 2))
    app.screen = app.window.surface
    app._resized()


def test_on_a_wayland_desktop_the_native_driver_is_asked_for_first() -> None:
    environ = {"WAYLAND_DISPLAY": "wayland-0"}
    assert display.prefer_native_driver(environ) == display.sys.platform.startswith("linux")
    if display.sys.platform.startswith("linux"):
        assert environ["SDL_VIDEODRIVER"] == "wayland,x11"
    chosen = {"WAYLAND_DISPLAY": "wayland-0", "SDL_VIDEODRIVER": "x11"}
    assert not display.prefer_native_driver(chosen)  # the player's choice holds
    assert chosen["SDL_VIDEODRIVER"] == "x11"
    x11: dict[str, str] = {"DISPLAY": ":0"}
    assert not display.prefer_native_driver(x11)
    assert "SDL_VIDEODRIVER" not in x11


def test_the_wayland_driver_is_asked_for_before_the_display_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: dict[str, str | None] = {}

    def no_display(_pygame: object) -> bool:
        seen["driver"] = display.os.environ.get("SDL_VIDEODRIVER")
        seen["dpi"] = display.os.environ.get("SDL_WINDOWS_DPI_AWARENESS")
        return True  # stop there

    monkeypatch.setattr(display.sys, "platform", "linux")
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.delenv("SDL_WINDOWS_DPI_AWARENESS", raising=False)
    monkeypatch.setattr(cli, "_no_display", no_display)
    monkeypatch.setattr(cli, "_fatal", lambda message: None)
    assert cli._run(cli.build_parser().parse_args(["--windowed"])) == 1
    assert seen == {"driver": "wayland,x11", "dpi": "permonitorv2"}


def test_without_a_wayland_window_the_game_opens_one_on_x11(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[str] = []

    class Flaky:
        def __init__(self, *args: object, **options: object) -> None:
            made.append(environ["SDL_VIDEODRIVER"])
            if len(made) == 1:
                raise pygame.error("no xdg_wm_base")

    environ = {"SDL_VIDEODRIVER": display.WAYLAND_FIRST}
    monkeypatch.setattr(window, "GameWindow", Flaky)
    monkeypatch.setattr(pygame.display, "get_driver", lambda: "wayland")
    monkeypatch.setattr(pygame.display, "quit", lambda: None)
    monkeypatch.setattr(pygame.display, "init", lambda: None)
    assert isinstance(open_window("t", (800, 600), environ=environ), Flaky)
    assert made == ["wayland,x11", "x11"]
    # Wayland asked for by the player: the error is theirs to see.
    made.clear()
    environ = {"SDL_VIDEODRIVER": "wayland"}
    with pytest.raises(pygame.error):
        open_window("t", (800, 600), environ=environ)


def test_the_window_draws_at_its_size_where_a_pixel_is_a_screen_point(app: App) -> None:
    assert app.window.size == (1280, 720)
    assert app.screen.get_size() == (1280, 720)
    assert app.window.pixel_ratio == (1.0, 1.0)
    event = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(10, 20), button=1)
    assert app.window.to_pixels(event) is event


def test_mouse_events_in_screen_coordinates_reach_scenes_in_the_surface_pixels(
    app: App,
) -> None:
    _double(app)
    assert app.window.pixel_ratio == (2.0, 2.0)
    motion = pygame.event.Event(pygame.MOUSEMOTION, pos=(300, 200), rel=(3, -4), buttons=(0, 0, 0))
    moved = app.window.to_pixels(motion)
    assert (moved.pos, moved.rel, moved.buttons) == ((600, 400), (6, -8), (0, 0, 0))
    wheel = pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1)
    assert app.window.to_pixels(wheel) is wheel  # no position to convert


def test_a_click_in_screen_coordinates_presses_the_button_under_it(app: App) -> None:
    menu = start(app, MenuScene(app))
    _double(app)
    app.step(1 / 60)
    quit_button = menu.report()["widgets"]["quit"]
    x, y, w, h = quit_button
    assert (x + w) <= app.screen.get_width() and x + w > app.window.size[0]  # pixels
    at = ((x + w // 2) // 2, (y + h // 2) // 2)  # where the system says the mouse is
    for kind in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        extra = {"rel": (0, 0), "buttons": (0, 0, 0)} if kind == pygame.MOUSEMOTION else {}
        pygame.event.post(pygame.event.Event(kind, pos=at, button=1, **extra))
    app.running = True
    app.step(1 / 60)
    assert not app.running  # Quit was pressed


def test_a_resize_reads_the_surface_again_and_a_window_too_small_is_made_larger(
    app: App,
) -> None:
    menu = start(app, MenuScene(app))
    app.window.window.size = (1100, 650)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=1100, h=650, size=(1100, 650)))
    app.step(1 / 60)
    assert app.screen.get_size() == (1100, 650)
    assert menu.report()["widgets"]["quit"][1] + 10 < 650
    app.window.window.size = (800, 500)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=800, h=500, size=(800, 500)))
    app.step(1 / 60)
    assert app.window.size == MIN_SIZE
    assert app.screen.get_size() == MIN_SIZE


def test_a_move_to_a_screen_with_another_scale_reads_the_drawable_again(app: App) -> None:
    start(app, MenuScene(app))
    sizes: list[tuple[int, int]] = []
    app.scene.on_resize = sizes.append  # type: ignore[method-assign,union-attr]
    pygame.event.post(pygame.event.Event(pygame.WINDOWDISPLAYCHANGED, display_index=1))
    app.step(1 / 60)
    assert sizes == []  # same drawable: nothing to lay out again
    # Last read on a screen scaled 200 %; now on one at 100 %: the scene is told.
    app.window._pixels = (2560, 1440)
    pygame.event.post(pygame.event.Event(pygame.WINDOWDISPLAYCHANGED, display_index=0))
    app.step(1 / 60)
    assert app.screen.get_size() == (1280, 720)
    assert sizes == [(1280, 720)]


def test_full_screen_and_back_keep_the_window_size(app: App) -> None:
    app.set_fullscreen(True)
    assert app.fullscreen and app.screen is app.window.surface
    app.set_fullscreen(False)
    assert app.window.size == (1280, 720)
    assert app.screen.get_size() == (1280, 720)


def test_a_partial_frame_shows_only_its_rectangles(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = app.window._update_rects
    if display.sys.platform.startswith("linux"):  # pygame's SDL library is found
        assert real is not None and real([pygame.Rect(10, 10, 50, 50)])
    flips: list[None] = []
    shown: list[list[pygame.Rect]] = []

    class Window:
        def flip(self) -> None:
            flips.append(None)

    monkeypatch.setattr(app.window, "window", Window())
    monkeypatch.setattr(app.window, "_update_rects", lambda rects: shown.append(rects) or True)
    app.window.present([])  # nothing changed
    assert (flips, shown) == ([], [])
    app.window.present([pygame.Rect(10, 10, 50, 50)])
    assert (flips, shown) == ([], [[pygame.Rect(10, 10, 50, 50)]])
    app.window.present(None)
    assert flips == [None]
    monkeypatch.setattr(app.window, "_update_rects", None)  # not found: the whole window
    app.window.present([pygame.Rect(10, 10, 50, 50)])
    assert flips == [None, None]
    monkeypatch.undo()  # the real window again, before the app closes


def test_the_window_title_follows_the_language(app: App) -> None:
    assert app.window.title == "Briscola"
    app.window.set_title("Briscola!")
    assert app.window.window.title == "Briscola!"


def test_clicks_written_for_a_test_are_read_once_and_bad_lines_left_out(tmp_path: Path) -> None:
    path = tmp_path / "clicks"
    feeder = ClickFeeder(path)
    assert feeder.take() == []
    path.write_text("10 20\nnonsense\n-5 7\n1 2 3\n")
    assert feeder.take() == [(10, 20), (-5, 7)]
    assert not path.exists()
    path.write_text("")  # opened by its writer, nothing written yet: left for later
    assert feeder.take() == [] and path.exists()
    path.write_text("30 4")  # the line not ended yet
    assert feeder.take() == [] and path.exists()
    path.write_text("30 40\n")
    assert feeder.take() == [(30, 40)] and not path.exists()


def test_clicks_from_the_file_are_posted_as_mouse_events(tmp_path: Path) -> None:
    pygame.display.init()
    pygame.event.clear()
    path = tmp_path / "clicks"
    path.write_text("40 50\n")
    feeder = ClickFeeder(path, interval=0.01).start()
    try:  # the events a real click brings, in the window's screen coordinates
        events: list[pygame.event.Event] = []
        for _ in range(200):
            events += pygame.event.get((pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP))
            if len(events) >= 2:
                break
            pygame.time.wait(10)
    finally:
        feeder.stop()
        window.quit_display()
    assert [(e.type, e.pos, e.button) for e in events] == [
        (pygame.MOUSEBUTTONDOWN, (40, 50), 1),
        (pygame.MOUSEBUTTONUP, (40, 50), 1),
    ]


def test_the_frame_is_saved_whole_for_a_test(tmp_path: Path) -> None:
    surface = pygame.Surface((30, 20))
    surface.fill((200, 10, 10))
    window.save_frame(surface, tmp_path / "frame.png")
    loaded = pygame.image.load(tmp_path / "frame.png")
    assert loaded.get_size() == (30, 20)
    assert loaded.get_at((5, 5))[:3] == (200, 10, 10)
    assert [p.name for p in tmp_path.iterdir()] == ["frame.png"]
    window.save_frame(surface, tmp_path / "missing" / "frame.png")  # logged, not raised


def test_the_game_window_is_the_one_images_are_converted_for(app: App) -> None:
    assert window.window_surface() is app.window.surface
    assert isinstance(app.window, GameWindow)


# An App left open while another closes the display and a third opens it again: the first
# App's window, collected later, must not destroy the third's (pygame-ce issue 3601; it was a
# segmentation fault in one full test run in four). In a process of its own, so that a crash
# fails this test only.
LEFT_OPEN = """
import gc
from guihelp import make_app
for _ in range(20):
    left = make_app()
    make_app().close()
    third = make_app()
    del left
    gc.collect()
    third.draw()
    third.close()
pygame_quit_too = make_app()
import pygame
pygame.quit()
del pygame_quit_too
gc.collect()
print("survived")
"""


def test_a_window_left_open_when_the_display_stops_never_takes_another_down(
    tmp_path: Path,
) -> None:
    root = Path(__file__).resolve().parents[2]
    env = dict(
        os.environ,
        BRISCOLA_HOME=str(tmp_path),
        PYTHONPATH=os.pathsep.join([str(root), str(root / "tests")]),
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
    )
    done = subprocess.run(
        [sys.executable, "-c", LEFT_OPEN], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "survived" in done.stdout


def test_the_macos_bundle_asks_for_the_retina_pixels() -> None:
    """Without NSHighResolutionCapable macOS gives the high-DPI window a surface in points."""
    spec = Path(__file__).resolve().parents[2] / "build.spec"
    tree = ast.parse(spec.read_text(encoding="utf-8"))
    plists = [
        keyword.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "BUNDLE"
        for keyword in node.keywords
        if keyword.arg == "info_plist"
    ]
    assert len(plists) == 1 and isinstance(plists[0], ast.Dict)
    keys = [ast.literal_eval(k) for k in plists[0].keys if k is not None]
    values = dict(zip(keys, plists[0].values, strict=True))
    assert ast.literal_eval(values["NSHighResolutionCapable"]) is True


def test_a_click_in_screen_coordinates_puts_away_the_notice_under_it(app: App) -> None:
    """At scale 2 the notices lie in the surface's pixels, the click in the screen's."""
    start(app, MenuScene(app))
    _double(app)
    app.notify("Saved.")
    app.step(1 / 60)
    (panel,) = app.notices.panels
    assert app.screen.get_width() == 2 * app.window.size[0]  # the panel is in pixels
    at = (panel.centerx // 2, panel.centery // 2)
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=at, button=1))
    app.step(1 / 60)
    assert not app.notices
