"""GUI benchmark: frame times while the table animates and while it is still, start-up
time, peak memory.

    python -m tools.frame_bench [--frames 1200] [--preset classic2] [--sizes 1920x1080,...]
    python -m tools.frame_bench --profile [--frames 600] [--sizes 3840x2160]

Runs the table in demo mode (computer players, real animations at normal speed) off-screen
(SDL's dummy video driver) at 1280x720, 1920x1080, 2560x1440 and 3840x2160, timing every
frame's update and draw, drawn as the game draws (only what changed) and, as the baseline,
every frame whole; then the frames of a still table (the player to move, nothing moving);
then the CPU the game uses while it rests (the menu, a table waiting for the player's move,
the score screen) in the real frame loop. Goals: CPU p99 <= 3 ms at 1920x1080, 5 ms at
2560x1440, 8 ms at 3840x2160; idle CPU under 2 % of a core; start to first menu frame
<= 0.8 s; peak memory <= 150 MB at 1920x1080 and 220 MB at 3840x2160. Figures depend on
the machine and its load: compare runs on the same one. ``--profile`` prints, per size,
where the slowest 1 % of the animated frames spent their time (``cProfile``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from briscola.gui.app import App

#: CPU p99 per frame while animating, by window height.
GOAL_P99_MS = {720: 3.0, 1080: 3.0, 1440: 5.0, 2160: 8.0}
GOAL_START_S = 0.8
#: Peak memory of the game process, by window height.
GOAL_MEMORY_MB = {720: 150.0, 1080: 150.0, 1440: 180.0, 2160: 220.0}
SIZES = ((1280, 720), (1920, 1080), (2560, 1440), (3840, 2160))
#: Share of one core the game may use while nothing moves (menu, a table waiting for the
#: player, the score screen after its count).
GOAL_IDLE = 0.02
IDLE_SCENES = ("menu", "table", "score")


def _headless() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("BRISCOLA_HOME", tempfile.mkdtemp(prefix="briscola-bench-"))


def frame_times(
    size: tuple[int, int], frames: int, preset: str, whole: bool = False
) -> tuple[list[float], list[float]]:
    """Milliseconds per frame (update + draw + display update) of a demo table: wall-clock
    time, and the main thread's CPU time (what the frame costs on one core, whatever else
    runs). ``whole``: every frame drawn whole (the baseline)."""
    from briscola.game.setup import demo_setup
    from briscola.gui.app import App
    from briscola.gui.options import AppOptions
    from briscola.gui.scenes.table import TableScene

    app = App(AppOptions(size=size))
    app.partial = not whole
    scene = TableScene(app, demo_setup(preset, 7), demo=True)
    app.reset_to(scene)
    app.apply_requests()
    # Warm-up: card faces are rasterised over the first frames.
    for _ in range(120):
        app.step(1 / 60)
    times, cpu = _timed(app, frames)
    app.close()
    return times, cpu


def profile_slowest(
    size: tuple[int, int], frames: int, preset: str, share: float = 0.01, lines: int = 25
) -> str:
    """Where the slowest frames of a demo table go: every frame run under ``cProfile``
    (timed by the main thread's CPU clock), and the profiles of the slowest ``share`` of
    them merged, most costly functions first (their own time). The profiler slows Python
    code more than pygame's C calls: read the shares, not the totals."""
    import cProfile
    import io
    import pstats

    from briscola.game.setup import demo_setup
    from briscola.gui.app import App
    from briscola.gui.options import AppOptions
    from briscola.gui.scenes.table import TableScene

    app = App(AppOptions(size=size))
    scene = TableScene(app, demo_setup(preset, 7), demo=True)
    app.reset_to(scene)
    app.apply_requests()
    for _ in range(120):
        app.step(1 / 60)
    composer = scene.painter.composer
    profiled: list[tuple[float, int, str, cProfile.Profile]] = []
    for index in range(frames):
        profile = cProfile.Profile(time.thread_time)
        start = time.perf_counter()
        whole = composer.whole_frames
        cpu_start = time.thread_time()
        profile.enable()
        app.step(1 / 60)
        profile.disable()
        cpu = (time.thread_time() - cpu_start) * 1000
        kind = f"whole ({composer.why or 'rebuilt'})" if composer.whole_frames > whole else "part"
        profiled.append((cpu, index, kind, profile))
        rest = 1 / 60 - (time.perf_counter() - start)
        if rest > 0:
            time.sleep(rest)
    app.close()
    profiled.sort(key=lambda item: -item[0])
    slowest = profiled[: max(1, round(frames * share))]
    out = io.StringIO()
    out.write(f"{size[0]}x{size[1]}: the slowest {len(slowest)} of {frames} frames (profiled)\n")
    for cpu, index, kind, _profile in slowest:
        out.write(f"  frame {index:>4}  {cpu:6.2f} ms  {kind}\n")
    stats = pstats.Stats(slowest[0][3], stream=out)
    for item in slowest[1:]:
        stats.add(item[3])
    stats.sort_stats("tottime").print_stats(lines)
    return out.getvalue()


def still_frame_times(size: tuple[int, int], frames: int) -> list[float]:
    """CPU milliseconds per frame of a table where nothing moves (the player to move, the
    turn marker's pulse over): what a frame costs when nothing changed."""
    from briscola.engine import Rules
    from briscola.game.setup import default_setup
    from briscola.gui.app import App
    from briscola.gui.options import AppOptions
    from briscola.gui.scenes.table import TableScene

    app = App(AppOptions(size=size))
    app.settings.reduce_motion = True  # no pulse: the marker glows steadily at once
    table = TableScene(app, default_setup(Rules.preset("classic2"), "medium"))
    app.reset_to(table)
    _settle(app, lambda: table.turn_shown == 0 and table.next_frame_in() != 0.0)
    _times, cpu = _timed(app, frames)
    app.close()
    return cpu


def _timed(app: App, frames: int) -> tuple[list[float], list[float]]:
    times: list[float] = []
    cpu: list[float] = []
    for _ in range(frames):
        start = time.perf_counter()
        cpu_start = time.thread_time()
        app.step(1 / 60)
        cpu.append((time.thread_time() - cpu_start) * 1000)
        times.append((time.perf_counter() - start) * 1000)
        # Pace like the real loop so bot threads get the time they would get.
        rest = 1 / 60 - (time.perf_counter() - start)
        if rest > 0:
            time.sleep(rest)
    return times, cpu


def _settle(app: App, ready: Callable[[], bool], limit: float = 60.0) -> None:
    """Frames (paced in real time, so that bots answer) until ``ready()``."""
    deadline = time.monotonic() + limit
    while not ready():
        if time.monotonic() > deadline:
            raise RuntimeError("the scene did not reach the state to measure")
        app.step(1 / 60)
        time.sleep(1 / 240)


def idle_cpu(scene: str, size: tuple[int, int], seconds: float) -> float:
    """CPU seconds per wall second of the whole game process while ``scene`` waits for
    the player (the real frame loop, resting when nothing moves)."""
    import pygame

    from briscola.engine import Rules
    from briscola.game.setup import GameSetup, SeatConfig, computer_name, default_setup
    from briscola.gui.app import App
    from briscola.gui.options import AppOptions
    from briscola.gui.scenes.menu import MenuScene
    from briscola.gui.scenes.table import TableScene

    app = App(AppOptions(size=size))
    if scene == "menu":
        app.reset_to(MenuScene(app))
        # Its first frames drawn (the card fan rasterised): from then on it rests.
        _settle(app, lambda: app.scene is not None and app.frame >= 3)
    elif scene == "table":
        table = TableScene(app, default_setup(Rules.preset("classic2"), "medium"))
        app.reset_to(table)
        _settle(app, lambda: table.turn_shown == 0 and table.next_frame_in() != 0.0)
    elif scene == "score":
        # Computer players only, not a demo: the hand plays out (at once, in turbo) and
        # ends on the score screen, whose count is then left to finish.
        rules = Rules.preset("classic2")
        seats = [SeatConfig(computer_name(i, "easy"), level="easy") for i in range(2)]
        app.reset_to(TableScene(app, GameSetup(rules, seats, seed=7)))
        app.options.turbo = True

        def counted() -> bool:
            top = app.scene
            scored = top is not None and type(top).__name__ == "ScoreScene"
            return scored and top is not None and top.next_frame_in() != 0.0

        _settle(app, counted, limit=180.0)
        app.options.turbo = False
    else:
        raise ValueError(f"unknown scene {scene!r}")
    timer = threading.Timer(seconds, lambda: pygame.event.post(pygame.event.Event(pygame.QUIT)))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    begin_cpu, begin = usage.ru_utime + usage.ru_stime, time.monotonic()
    timer.start()
    app.loop()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    used = usage.ru_utime + usage.ru_stime - begin_cpu
    wall = time.monotonic() - begin
    timer.cancel()
    app.close()
    return used / wall


def update_paths(size: tuple[int, int], frames: int = 60) -> dict[str, float]:
    """Milliseconds to put a frame on screen, by path: the software window (the whole
    window, or three card-sized rectangles as a partial frame hands over) and SDL's
    renderer (``pygame._sdl2.video``: a streaming texture updated whole or by the same
    rectangles, then presented). The software window is the game's own
    (:class:`~briscola.gui.render.window.GameWindow`, made for high-DPI screens). The
    renderer uses the GPU where there is one, else SDL's software renderer."""
    import pygame
    from pygame._sdl2 import video

    from briscola.gui.render.window import GameWindow

    pygame.display.init()
    card = pygame.Rect(0, 0, size[1] // 7, size[1] * 8 // 35)
    rects = [card.move(size[0] * i // 4, size[1] // 3) for i in (1, 2, 3)]
    frame = pygame.Surface(size)
    frame.fill((20, 90, 50))

    def timed(step: Callable[[], None]) -> float:
        step()
        begin = time.perf_counter()
        for _ in range(frames):
            step()
        return (time.perf_counter() - begin) / frames * 1000

    game_window = GameWindow("bench", size)  # the game's own window (high-DPI)
    screen = game_window.surface

    def whole_window() -> None:
        screen.blit(frame, (0, 0))
        game_window.present(None)

    def part_window() -> None:
        for rect in rects:
            screen.blit(frame, rect, rect)
        game_window.present(rects)

    result = {"window whole": timed(whole_window), "window part": timed(part_window)}
    game_window.close()
    pygame.display.quit()
    pygame.display.init()
    window = video.Window("bench", size=size, hidden=True)
    renderer = video.Renderer(window)
    texture = video.Texture(renderer, size, streaming=True)

    def whole_texture() -> None:
        texture.update(frame)
        renderer.blit(texture)
        renderer.present()

    def part_texture() -> None:
        for rect in rects:
            texture.update(frame.subsurface(rect), rect)
        renderer.blit(texture)
        renderer.present()

    result["renderer whole"] = timed(whole_texture)
    result["renderer part"] = timed(part_texture)
    window.destroy()
    pygame.display.quit()
    return result


def start_time(runs: int = 5) -> float:
    """Seconds from launching ``main.py`` to the end of its first menu frame."""
    main = Path(__file__).resolve().parents[1] / "main.py"
    samples = []
    for _ in range(runs):
        begin = time.perf_counter()
        subprocess.run(
            [sys.executable, str(main), "--frames", "1", "--turbo", "--size", "1280x720"],
            check=True,
            capture_output=True,
        )
        samples.append(time.perf_counter() - begin)
    return statistics.median(samples)


def _idle(scene: str, size: tuple[int, int], seconds: float) -> float:
    """:func:`idle_cpu` in a fresh process."""
    command = [sys.executable, "-m", "tools.frame_bench", "--idle-one", scene]
    command += ["--size", f"{size[0]}x{size[1]}", "--seconds", str(seconds)]
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    return float(done.stdout.strip().splitlines()[-1])


def _one(size: tuple[int, int], frames: int, preset: str, mode: str) -> dict[str, float]:
    """Measure one window size in a fresh process (``mode``: ``partial``, ``whole`` or
    ``still``): frame times and that process's peak memory (so that caches of other sizes
    do not count)."""
    command = [
        sys.executable,
        "-m",
        "tools.frame_bench",
        "--one",
        f"{size[0]}x{size[1]}",
        "--frames",
        str(frames),
        "--preset",
        preset,
        "--mode",
        mode,
    ]
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _size(text: str) -> tuple[int, int]:
    """``WxH`` as (W, H); a ValueError that says what was wrong otherwise."""
    parts = text.strip().lower().split("x")
    if len(parts) != 2 or not all(part.isdigit() and int(part) > 0 for part in parts):
        raise ValueError(f"{text!r} is not a window size such as 1920x1080")
    return int(parts[0]), int(parts[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=1200, help="frames measured per size")
    parser.add_argument("--preset", default="classic2")
    parser.add_argument(
        "--idle-seconds", type=float, default=10.0, help="seconds measured per resting scene"
    )
    parser.add_argument(
        "--sizes",
        default=",".join(f"{w}x{h}" for w, h in SIZES),
        help="window sizes measured, comma-separated",
    )
    parser.add_argument("--one", metavar="WxH", help=argparse.SUPPRESS)
    parser.add_argument(
        "--mode", choices=("partial", "whole", "still"), default="partial", help=argparse.SUPPRESS
    )
    parser.add_argument("--idle-one", choices=IDLE_SCENES, help=argparse.SUPPRESS)
    parser.add_argument(
        "--update-paths",
        action="store_true",
        help="only the cost of putting a frame on screen, software window against SDL's"
        " renderer (under the video driver in use: set DISPLAY and SDL_VIDEODRIVER=x11 for"
        " a real window)",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="only where the slowest 1%% of animated frames go (cProfile), per size",
    )
    parser.add_argument("--size", default="1280x720", help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=10.0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        sizes = [_size(text) for text in args.sizes.split(",")]
        one = _size(args.one) if args.one else None
        idle_size = _size(args.size)
    except ValueError as problem:
        parser.error(str(problem))
    if not args.update_paths:
        _headless()
    if args.update_paths:
        print("ms to put a frame on screen (whole, or three card-sized rectangles)")
        print(f"video driver: {os.environ.get('SDL_VIDEODRIVER', 'default')}")
        for size in sizes:
            paths = update_paths(size)
            row = "  ".join(f"{name} {ms:7.2f}" for name, ms in paths.items())
            print(f"{size[0]}x{size[1]:<5} {row}")
        return 0
    if args.profile:
        for size in sizes:
            print(profile_slowest(size, args.frames, args.preset))
        return 0
    if args.idle_one:
        print(idle_cpu(args.idle_one, idle_size, args.seconds))
        return 0
    if one is not None:
        width, height = one
        if args.mode == "still":
            wall = cpu = sorted(still_frame_times((width, height), args.frames))
        else:
            measured = frame_times((width, height), args.frames, args.preset, args.mode == "whole")
            wall, cpu = (sorted(t) for t in measured)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        p99 = int(len(wall) * 0.99) - 1
        result = {
            "frames": len(wall),
            "mean": statistics.fmean(wall),
            "p99": wall[p99],
            "cpu_mean": statistics.fmean(cpu),
            "cpu_p99": cpu[p99],
            "peak_mb": peak,
        }
        print(json.dumps(result))
        return 0
    print(
        "CPU ms per frame (the main thread); animating: a demo table, drawn as the game"
        " draws (only what changed) and, as the baseline, every frame whole; still: the"
        " player to move, nothing moving"
    )
    print(
        f"{'size':<10} {'anim mean':>9} {'anim p99':>8} {'goal':>5} {'whole mean':>10}"
        f" {'whole p99':>9} {'p99 x':>6} {'still mean':>10} {'still p99':>9}"
        f" {'peak MB':>7} {'goal':>5} {'whole MB':>8}"
    )
    for size in sizes:
        r = _one(size, args.frames, args.preset, "partial")
        w = _one(size, args.frames, args.preset, "whole")
        still = _one(size, min(args.frames, 600), args.preset, "still")
        goal = GOAL_P99_MS.get(size[1], GOAL_P99_MS[2160])
        memory = GOAL_MEMORY_MB.get(size[1], GOAL_MEMORY_MB[2160])
        print(
            f"{size[0]}x{size[1]:<5} {r['cpu_mean']:>9.2f} {r['cpu_p99']:>8.2f} {goal:>5.0f}"
            f" {w['cpu_mean']:>10.2f} {w['cpu_p99']:>9.2f} {w['cpu_p99'] / r['cpu_p99']:>5.1f}x"
            f" {still['cpu_mean']:>10.3f} {still['cpu_p99']:>9.3f} {r['peak_mb']:>7.0f}"
            f" {memory:>5.0f} {w['peak_mb']:>8.0f}"
        )
    print(
        f"idle CPU (CPU seconds per wall second, {args.idle_seconds:.0f} s each; goal"
        f" {GOAL_IDLE:.0%} of a core)"
    )
    for size in sizes:
        for scene in IDLE_SCENES:
            load = _idle(scene, size, args.idle_seconds)
            print(
                f"  {scene:<6} {size[0]}x{size[1]:<5} {load:>7.2%}"
                f"   {GOAL_IDLE / max(load, 1e-6):>6.1f}x"
            )
    startup = start_time()
    print(
        f"start to first menu frame: {startup:.2f} s (goal {GOAL_START_S} s, "
        f"{GOAL_START_S / startup:.2f}x)"
    )
    print("peak memory: the game process (the bot worker is a separate, small process)")
    print(
        "(p99 x: the baseline's p99 over the game's; frames are paced at 60 fps as in the"
        " game; figures vary with machine load: compare runs on the same idle machine)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
