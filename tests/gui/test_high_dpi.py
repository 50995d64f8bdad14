"""High-DPI screens: the window asks for the screen's real pixels, and a new window opens
as large on a screen scaled 200 % as on an ordinary one (text and cards follow the window),
while a size the player gave or left the window at, and the player's UI scale, hold."""

from __future__ import annotations

from pathlib import Path

import pytest
from guihelp import make_app

from briscola.gui import app as app_module
from briscola.gui.options import AppOptions
from briscola.gui.render import display


def test_the_window_asks_for_real_pixels_unless_the_environment_says_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("SDL_WINDOWS_DPI_AWARENESS", raising=False)
    display.request_high_dpi()
    assert display.os.environ["SDL_WINDOWS_DPI_AWARENESS"] == "permonitorv2"
    monkeypatch.setenv("SDL_WINDOWS_DPI_AWARENESS", "unaware")
    display.request_high_dpi()
    assert display.os.environ["SDL_WINDOWS_DPI_AWARENESS"] == "unaware"


def test_the_desktop_scale_is_read_from_what_it_tells_toolkits_and_kept_sensible() -> None:
    assert display._environment_scale({"GDK_SCALE": "2"}) == 2.0
    assert display._environment_scale({"QT_SCALE_FACTOR": "1.5"}) == 1.5
    assert display._environment_scale({"GDK_SCALE": "big", "QT_SCALE_FACTOR": "1.25"}) == 1.25
    assert display._environment_scale({}) == 1.0


def test_a_scale_out_of_reason_is_not_believed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(display.sys, "platform", "linux")
    monkeypatch.setenv("GDK_SCALE", "12")
    assert display.system_scale() == 4.0
    monkeypatch.setenv("GDK_SCALE", "0.25")
    assert display.system_scale() == 1.0


def test_a_new_window_opens_larger_on_a_screen_scaled_200_percent(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(app_module, "system_scale", lambda: 2.0)
    app = app_module.App(AppOptions(settings_path=tmp_path / "settings.json", turbo=True))
    assert app.system_scale == 2.0
    app.settings.window_size = None
    assert app._initial_size() == (2560, 1440)
    assert app.settings.ui_scale == 1.0  # the player's own scale is left alone
    app.close()


def test_a_size_asked_for_or_remembered_is_kept_on_a_scaled_screen(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(app_module, "system_scale", lambda: 2.0)
    app = make_app((1100, 650), settings_path=tmp_path / "settings.json")
    assert app._initial_size() == (1100, 650)
    app.options.size = None
    app.settings.window_size = [1500, 900]
    app.settings.ui_scale = 1.3
    assert app._initial_size() == (1500, 900)
    assert app.ui_scale == pytest.approx(app.size[1] / 720 * 1.3)
    app.close()


def test_xft_dpi_gives_the_scale_where_the_desktop_sets_no_toolkit_scale() -> None:
    assert display._xft_scale("Xft.antialias:\t1\nXft.dpi:\t192\n") == 2.0
    assert display._xft_scale("Xft.dpi:\t144") == 1.5
    assert display._xft_scale("Xft.dpi:\tlarge\n") == 1.0
    assert display._xft_scale("") == 1.0


def test_where_the_system_scales_the_window_itself_the_game_does_not_scale_it_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GDK_SCALE", "2")
    monkeypatch.setattr(display.sys, "platform", "linux")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert display.system_scale() == 2.0  # X11: the game draws real pixels
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    assert display.system_scale() == 1.0  # Wayland scales SDL 2's window itself
    monkeypatch.delenv("WAYLAND_DISPLAY")
    monkeypatch.setattr(display.sys, "platform", "darwin")
    assert display.system_scale() == 1.0  # so does macOS (a window in points)


def test_x11_without_a_toolkit_scale_reads_the_x_resources(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(display.sys, "platform", "linux")
    for name in ("GDK_SCALE", "QT_SCALE_FACTOR", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(display, "_x_resources", lambda: "Xft.dpi:\t192\n")
    assert display.system_scale() == 2.0
