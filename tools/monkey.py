"""Monkey test: random clicks, drags, keys and window resizes over every scene and preset.

    python -m tools.monkey --events 100000 --seed 1

Runs the whole app off-screen (SDL's dummy drivers) from the menu, feeding random input:
mostly clicks on the widgets and cards the scenes report (so that it really navigates and
plays), plus clicks anywhere, drags, key presses and resizes. After every frame the engine
state of any table on the stack must be valid (every card in exactly one place). Quitting
is refused (the monkey would end the run); the new game screen is steered through every
preset in turn. Exits 1 with the seed and event number on the first exception.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import sys
import tempfile
import time
import traceback
from collections import Counter
from typing import Any

KEYS = (
    "K_LEFT",
    "K_RIGHT",
    "K_UP",
    "K_DOWN",
    "K_RETURN",
    "K_SPACE",
    "K_ESCAPE",
    "K_TAB",
    "K_1",
    "K_2",
    "K_3",
    "K_5",
    "K_8",
    "K_d",
    "K_h",
    "K_l",
    "K_s",
    "K_a",
    "K_PAGEDOWN",
    "K_PAGEUP",
    "K_BACKSPACE",
    "K_F11",
)
SIZES = ((1024, 600), (1280, 720), (1600, 900), (1920, 1080), (1100, 1000))


def _headless() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("BRISCOLA_HOME", tempfile.mkdtemp(prefix="briscola-monkey-"))


def check_table(scene: Any) -> None:
    """Engine invariants of a table scene's state (GameState.validate)."""
    state = getattr(scene, "state", None)
    if state is not None:
        state.validate()


class Fallbacks(logging.Handler):
    """Catches what must never happen in a run: a computer player's move that failed or was
    illegal (the first legal move was played instead) or a bot worker process that died."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        fell_back = "first legal move" in text or "chose an illegal move" in text
        if record.name == "briscola.gui.worker" or fell_back:
            self.seen.append(f"{record.name}: {text}")


def run(events: int, seed: int, progress: bool = False) -> Counter[str]:
    """Feed ``events`` random inputs; returns how many frames each scene type saw. Fails
    (RuntimeError) on any exception, and on any computer move that fell back on the first
    legal move or had to be computed again because the worker died."""
    _headless()
    import pygame

    from briscola.gui.app import App
    from briscola.gui.options import AppOptions
    from briscola.gui.scenes.menu import MenuScene

    rng = random.Random(seed)
    fallbacks = Fallbacks()
    logging.getLogger("briscola").addHandler(fallbacks)
    app = App(AppOptions(size=(1280, 720), turbo=True))
    app.settings.speed = "fast"
    app.quit = lambda: None  # type: ignore[method-assign]
    seen: Counter[str] = Counter()
    app.reset_to(MenuScene(app))
    app.apply_requests()
    keys = [getattr(pygame, name) for name in KEYS]
    started = time.monotonic()
    presets_started = 0
    for number in range(events):
        scene = app.scene
        report = scene.report() if scene is not None else {}
        targets = list(report.get("widgets", {}).values())
        targets += [card["rect"] for card in report.get("cards", [])]
        w, h = app.size
        roll = rng.random()
        try:
            if type(scene).__name__ == "NewGameScene" and rng.random() < 0.3:
                presets_started += 1
                _steer_new_game(scene, presets_started, rng)
            elif type(scene).__name__ == "MenuScene" and rng.random() < 0.4:
                widgets = report.get("widgets", {})
                if "new_game" in widgets:
                    x, y, rw, rh = widgets["new_game"]
                    _click(pygame, (x + rw // 2, y + rh // 2))
            elif type(scene).__name__ == "TableScene" and report.get("cards") and roll < 0.35:
                card = rng.choice(report["cards"])
                x, y, rw, rh = card["rect"]
                _click(pygame, (x + rw // 2, y + rh // 2))
            elif roll < 0.55 and targets:
                x, y, rw, rh = rng.choice(targets)
                pos = (x + rng.randrange(max(1, rw)), y + rng.randrange(max(1, rh)))
                _click(pygame, pos)
            elif roll < 0.7:
                _click(pygame, (rng.randrange(w), rng.randrange(h)), rng.choice((1, 1, 1, 3)))
            elif roll < 0.78:
                start = (rng.randrange(w), rng.randrange(h))
                if targets and rng.random() < 0.7:
                    x, y, rw, rh = rng.choice(targets)
                    start = (x + rw // 2, y + rh // 2)
                _drag(pygame, start, (rng.randrange(w), rng.randrange(h)))
            elif roll < 0.97:
                key = rng.choice(keys)
                if key == pygame.K_F11 and rng.random() < 0.8:
                    key = pygame.K_RIGHT
                if key == pygame.K_ESCAPE and type(scene).__name__ == "TableScene":
                    key = rng.choice((pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_LEFT))
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
                pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0))
                if rng.random() < 0.1:
                    pygame.event.post(
                        pygame.event.Event(pygame.TEXTINPUT, text=rng.choice("abcèñ "))
                    )
            elif roll < 0.985:
                size = rng.choice(SIZES)
                app.window.resize(size)
                pygame.event.post(
                    pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1], size=size)
                )
            else:
                pygame.event.post(
                    pygame.event.Event(
                        pygame.MOUSEWHEEL, x=0, y=rng.choice((-3, -1, 1, 3)), flipped=False
                    )
                )
            for _frame in range(rng.choice((1, 1, 2, 4, 8))):
                app.step(1 / 60)
                for each in app.scenes:
                    check_table(each)
            if app.scene is None:
                app.reset_to(MenuScene(app))
                app.apply_requests()
            seen[type(app.scene).__name__] += 1
            if fallbacks.seen:
                raise RuntimeError(f"a computer player failed: {fallbacks.seen[0]}")
        except Exception as exc:
            logging.getLogger("briscola").removeHandler(fallbacks)
            raise RuntimeError(
                f"monkey seed {seed}, event {number}, scene {type(scene).__name__}: {exc!r}"
            ) from exc
        if progress and number % 5000 == 0:
            rate = (number + 1) / max(1e-6, time.monotonic() - started)
            print(f"{number:>7} events  {rate:6.0f}/s  {dict(seen.most_common(6))}", flush=True)
    app.close()
    logging.getLogger("briscola").removeHandler(fallbacks)
    return seen


def _steer_new_game(scene: Any, turn: int, rng: random.Random) -> None:
    """Pick the next preset on the new game screen (and a random mix of seats), then
    start: every configuration gets played in turn."""
    from briscola.engine import PRESETS
    from briscola.gui.widgets import Choice, WidgetGroup

    names = sorted(PRESETS)
    wanted = names[turn % len(names)]
    for group in [v for v in vars(scene).values() if isinstance(v, WidgetGroup)]:
        for widget in group.widgets:
            if isinstance(widget, Choice) and widget.name == "preset":
                values = [value for value, _label in widget.options]
                if wanted in values:
                    widget.set_value(wanted)
                    widget.on_change(wanted)
            elif (
                isinstance(widget, Choice)
                and widget.name.startswith("kind-")
                and (rng.random() < 0.15)
            ):
                widget.step(1)
    start = getattr(scene, "start", None)
    if callable(start):
        start()


def _click(pygame: Any, pos: tuple[int, int], button: int = 1) -> None:
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    )
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))


def _drag(pygame: Any, start: tuple[int, int], end: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    for k in range(1, 5):
        pos = (start[0] + (end[0] - start[0]) * k // 4, start[1] + (end[1] - start[1]) * k // 4)
        pygame.event.post(
            pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 1), buttons=(1, 0, 0))
        )
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    start = time.monotonic()
    try:
        seen = run(args.events, args.seed, progress=True)
    except RuntimeError as exc:
        traceback.print_exception(exc)
        return 1
    print(
        f"{args.events} events in {time.monotonic() - start:.0f} s, no exception;"
        f" frames per scene: {dict(seen)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
