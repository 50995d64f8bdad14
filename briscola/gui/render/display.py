"""The window on high-DPI screens.

Where the system offers it, the game draws at the screen's real pixels rather than being
drawn small and blown up by the system (blurry text and cards): on Windows through SDL's
per-monitor DPI awareness, asked for before the display starts. The system's scale factor
(150 %, 200 %...) then sizes the window, so that a window opens as large on a high-DPI
screen as on an ordinary one; text and cards follow the window's height (``App.ui_scale``),
and so the system's scale, with the player's own UI scale from Settings on top.

On X11 the game always draws real pixels (the system does not scale windows); the scale is
read from ``GDK_SCALE`` or ``QT_SCALE_FACTOR`` when the desktop sets them. On macOS and under
Wayland's X11 compatibility SDL 2's window surface is in points, which the system scales.
"""

from __future__ import annotations

import os
import sys

#: SDL hints for drawing at the screen's real pixels, set unless the environment sets them.
HIGH_DPI_HINTS = {"SDL_WINDOWS_DPI_AWARENESS": "permonitorv2"}
#: Scale factors believed: below 1 or above 4 is a misreading.
SCALES = (1.0, 4.0)


def request_high_dpi() -> None:
    """Ask SDL for the screen's real pixels (before ``pygame.display.init``)."""
    for name, value in HIGH_DPI_HINTS.items():
        os.environ.setdefault(name, value)


def system_scale() -> float:
    """The desktop's scale factor (1.0 at 96 dpi, 2.0 at 200 %); 1.0 when unknown."""
    scale = _windows_scale() if sys.platform == "win32" else _environment_scale(os.environ)
    return min(max(scale, SCALES[0]), SCALES[1])


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
