"""The window on high-DPI screens.

The game draws at the screen's real pixels rather than being drawn small and blown up by
the system (blurry text and cards). On Windows through SDL's per-monitor DPI awareness,
asked for before the display starts; the system's scale factor (150 %, 200 %...) then
sizes the window, so that a window opens as large on a high-DPI screen as on an ordinary
one. On X11 the game always draws real pixels (the system does not scale windows); the
scale is read from ``GDK_SCALE`` or ``QT_SCALE_FACTOR`` when the desktop sets them, else
from the X resources' ``Xft.dpi`` (what GNOME and KDE set for their scale). On macOS and
under Wayland the window's size is in points, which the system scales: there the window is
made with SDL's high-DPI flag (:mod:`~briscola.gui.render.window`), its surface has the
screen's pixels (twice the window's size at 200 %), and the scale here is 1, or the window
would be made larger twice. Text and cards follow the surface's height (``App.ui_scale``),
and so the system's scale, with the player's own UI scale from Settings on top.
"""

from __future__ import annotations

import ctypes
import itertools
import os
import shutil
import subprocess
import sys
from collections.abc import MutableMapping

#: SDL hints for drawing at the screen's real pixels, set unless the environment sets them.
HIGH_DPI_HINTS = {"SDL_WINDOWS_DPI_AWARENESS": "permonitorv2"}
#: SDL's video drivers, in order, on a Wayland desktop: native first, XWayland if that fails.
WAYLAND_FIRST = "wayland,x11"
#: Scale factors believed: below 1 or above 4 is a misreading.
SCALES = (1.0, 4.0)
#: glibc's mallopt parameter for the size from which a block is mapped on its own.
M_MMAP_THRESHOLD = -3
#: Pixel buffers from this size (a card at 1080p and up) go back to the system when freed.
LARGE_BUFFER = 128 * 1024


def return_large_buffers(environ: os._Environ[str] | dict[str, str] = os.environ) -> bool:
    """On Linux (glibc), keep large pixel buffers mapped on their own, so that the memory
    of a card image or a layer a cache lets go goes back to the system at once. glibc
    otherwise raises that threshold each time such a buffer is freed, and the images made
    and dropped while cards fly (turned, scaled) are then carved out of a heap that does
    not shrink: at 4K some 15 MB more. Left alone where the environment sets it
    (``MALLOC_MMAP_THRESHOLD_``) or elsewhere than glibc; True when set."""
    if not sys.platform.startswith("linux") or "MALLOC_MMAP_THRESHOLD_" in environ:
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
        return bool(libc.mallopt(M_MMAP_THRESHOLD, LARGE_BUFFER))
    except (OSError, AttributeError):
        return False  # not glibc (musl...): nothing to ask


def request_high_dpi(environ: MutableMapping[str, str] = os.environ) -> None:
    """Ask SDL for the screen's real pixels (before ``pygame.display.init``): the hints, and
    the native driver on a Wayland desktop (:func:`prefer_native_driver`)."""
    for name, value in HIGH_DPI_HINTS.items():
        environ.setdefault(name, value)
    prefer_native_driver(environ)


def prefer_native_driver(environ: MutableMapping[str, str] = os.environ) -> bool:
    """On a Wayland desktop (``WAYLAND_DISPLAY`` set) where the environment names no video
    driver, ask SDL for its Wayland driver first and X11 next: SDL 2 alone picks X11, whose
    XWayland window the desktop blows up when it scales. True when asked."""
    if not sys.platform.startswith("linux") or environ.get("SDL_VIDEODRIVER"):
        return False
    if not environ.get("WAYLAND_DISPLAY"):
        return False
    environ["SDL_VIDEODRIVER"] = WAYLAND_FIRST
    return True


def system_scale() -> float:
    """The factor by which a new window is made larger than its size in logical pixels:
    the desktop's scale (1.0 at 96 dpi, 2.0 at 200 %) where a window's size is in pixels
    (Windows, X11); 1.0 where it is in points (macOS, Wayland: the window's surface has
    the screen's pixels already) or the scale is unknown."""
    if sys.platform == "win32":
        scale = _windows_scale()
    elif sys.platform == "darwin" or os.environ.get("WAYLAND_DISPLAY"):
        scale = 1.0  # the window is in points: its surface has the real pixels already
    else:
        scale = _environment_scale(os.environ)
        if scale == 1.0 and os.environ.get("DISPLAY"):
            scale = _xft_scale(_x_resources())
    return min(max(scale, SCALES[0]), SCALES[1])


def _x_resources() -> str:
    """The X server's resources (``xrdb -query``), or "" when they cannot be read."""
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    xrdb = shutil.which("xrdb")
    if xrdb is None or driver in ("dummy", "offscreen"):
        return ""
    try:
        done = subprocess.run(
            [xrdb, "-query"], capture_output=True, text=True, timeout=1.0, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout if done.returncode == 0 else ""


def _xft_scale(resources: str) -> float:
    """The scale that ``Xft.dpi`` announces (192: 2.0); 1.0 without one."""
    for line in resources.splitlines():
        name, _sep, value = line.partition(":")
        if name.strip() == "Xft.dpi":
            try:
                dpi = float(value.strip())
            except ValueError:
                return 1.0
            return dpi / 96 if dpi > 0 else 1.0
    return 1.0


def _windows_scale() -> float:
    try:
        import ctypes

        dpi = ctypes.windll.user32.GetDpiForSystem()  # type: ignore[attr-defined,unused-ignore]
    except (AttributeError, OSError, ImportError):
        return 1.0  # before Windows 10 1607: the system scales the window itself
    return float(dpi) / 96 if dpi else 1.0


def _environment_scale(environ: os._Environ[str] | dict[str, str]) -> float:
    """The scale the desktop announces to toolkits (GTK's, then Qt's)."""
    for name in ("GDK_SCALE", "QT_SCALE_FACTOR"):
        try:
            value = float(environ.get(name, ""))
        except ValueError:
            continue
        if value > 0:
            return value
    return 1.0


def scaled_size(size: tuple[int, int], scale: float) -> tuple[int, int]:
    """A size in the desktop's logical pixels, in real pixels."""
    return round(size[0] * scale), round(size[1] * scale)


def screen_bounds(
    position: list[int] | None, sizes: list[tuple[int, int]]
) -> tuple[int, int, int, int] | None:
    """The place and size (x, y, width, height) of the screen a window at ``position`` is
    on, screens side by side or one above another (SDL gives their sizes, not their places);
    None when the window's place or the screens are unknown.

    >>> screen_bounds([448, 240], [(1920, 1080)])
    (0, 0, 1920, 1080)
    >>> screen_bounds([2000, 100], [(1920, 1080), (1280, 1024)])
    (1920, 0, 1280, 1024)
    """
    if position is None or not sizes:
        return None
    screens = {(0, 0): sizes[0]}
    x = y = 0
    for (width, height), following in itertools.pairwise(sizes):
        x, y = x + width, y + height
        screens.setdefault((x, 0), following)
        screens.setdefault((0, y), following)
    below = [c for c in screens if c[0] <= position[0] and c[1] <= position[1]]
    corner = max(below, key=lambda c: c[0] + c[1], default=(0, 0))
    return (*corner, *screens[corner])
