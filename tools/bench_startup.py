"""Startup benchmark of the game: from source, the onedir build and the onefile build.

Run ``python tools/bench_startup.py`` from the repository root (``--help`` for options). It
builds both kinds with ``build.spec`` into ``build/bench/`` (git-ignored; ``--no-build`` reuses
what is there), then reports:

* sizes: the onedir folder (all files, symlinks not followed), its ten largest files, and the
  onefile executable;
* start-up times, as the mean of ``--runs`` runs after one warm-up run (not counted):

  - ``--version``: the process start alone (bootloader, unpacking for onefile, the interpreter
    and argparse; pygame is not imported);
  - ``first frame``: the whole process ``briscola --frames 1 --turbo``: start, open the window,
    load what the menu needs, draw the first menu frame, then quit (save settings, close).
    The app has no hook that reports its first frame, so this wall time of the whole process
    is an upper bound of launch-to-first-frame (the quit part is a few milliseconds).

Runs are headless (``SDL_VIDEODRIVER=dummy``, ``SDL_AUDIODRIVER=dummy``) unless
``--real-display`` is given, from an empty working directory, with a private ``BRISCOLA_HOME``.
Goals: onedir <= 1.0 s, onefile <= 1.5 s to the first frame, onedir folder under 80 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:  # run as a script: python tools/bench_startup.py
    sys.path.insert(0, str(REPO_ROOT))

from tools import frozen_check  # noqa: E402

MB = 1_000_000
GOALS = {"onedir_s": 1.0, "onefile_s": 1.5, "onedir_mb": 80.0}


@dataclass
class Timing:
    runs: list[float]
    warmup: float

    @property
    def mean(self) -> float:
        return statistics.fmean(self.runs)

    @property
    def stdev(self) -> float:
        return statistics.stdev(self.runs) if len(self.runs) > 1 else 0.0

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    def text(self) -> str:
        return (
            f"mean {self.mean:4.2f} s ± {self.stdev:4.2f}, median {self.median:4.2f},"
            f" min {min(self.runs):.2f}, max {max(self.runs):.2f} (warm-up {self.warmup:.2f})"
        )


@dataclass
class Variant:
    name: str
    command: list[str]
    size_bytes: int | None = None
    version: Timing | None = None
    first_frame: Timing | None = None
    largest: list[tuple[str, int]] = field(default_factory=list)


def folder_size(folder: Path) -> tuple[int, list[tuple[str, int]]]:
    """Total size of the regular files under ``folder`` (symlinks not followed), and the ten
    largest as (relative path, bytes)."""
    files = [
        (path.relative_to(folder).as_posix(), path.stat().st_size)
        for path in folder.rglob("*")
        if path.is_file() and not path.is_symlink()
    ]
    files.sort(key=lambda item: item[1], reverse=True)
    return sum(size for _name, size in files), files[:10]


def environment(home: Path, real_display: bool) -> dict[str, str]:
    if real_display:
        env = dict(os.environ)
        env.update(PYGAME_HIDE_SUPPORT_PROMPT="1", BRISCOLA_HOME=str(home))
        return env
    return frozen_check.headless_env(home)


def time_command(
    command: Sequence[str], args: Sequence[str], runs: int, cwd: Path, env: dict[str, str]
) -> Timing:
    """Wall time of ``command + args`` run to completion: one warm-up, then ``runs`` runs."""
    times: list[float] = []
    for _index in range(runs + 1):
        start = time.perf_counter()
        proc = subprocess.run(
            [*command, *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
        )
        elapsed = time.perf_counter() - start
        if proc.returncode != 0:
            raise RuntimeError(
                f"{' '.join([*command, *args])} exited {proc.returncode}:\n{proc.stderr[-2000:]}"
            )
        times.append(elapsed)
    return Timing(runs=times[1:], warmup=times[0])


def ensure_builds(out: Path, rebuild: bool) -> tuple[frozen_check.Build, frozen_check.Build]:
    dist, work = out / "dist", out / "work"
    builds = []
    for onefile in (False, True):
        kind = "onefile" if onefile else "onedir"
        existing = frozen_check.Build(REPO_ROOT, dist, work / kind, onefile, 0.0)
        if not rebuild and existing.executable.is_file():
            print(f"using the existing {kind} build: {existing.executable}", flush=True)
            builds.append(existing)
            continue
        print(f"building {kind} into {dist} ...", flush=True)
        built = frozen_check.build(dist, work / kind, onefile=onefile)
        print(f"  done in {built.seconds:.0f} s", flush=True)
        builds.append(built)
    return builds[0], builds[1]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Executable sizes and start-up times.")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per variant (default 5)")
    parser.add_argument(
        "--out", type=Path, default=REPO_ROOT / "build" / "bench", help="build folder"
    )
    build_mode = parser.add_mutually_exclusive_group()
    build_mode.add_argument(
        "--no-build", action="store_true", help="reuse the builds in --out (build if missing)"
    )
    build_mode.add_argument("--rebuild", action="store_true", help="(default) always rebuild")
    parser.add_argument(
        "--real-display", action="store_true", help="use the real display and audio device"
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    if args.runs < 2:
        parser.error("--runs must be at least 2")
    if not frozen_check.pyinstaller_available():
        print("PyInstaller is not installed: pip install -r requirements-dev.txt", file=sys.stderr)
        return 2

    onedir, onefile = ensure_builds(args.out.resolve(), rebuild=not args.no_build)
    variants = [
        Variant("source", [sys.executable, str(REPO_ROOT / "main.py")]),
        Variant("onedir", [str(onedir.executable)]),
        Variant("onefile", [str(onefile.executable)]),
    ]
    variants[1].size_bytes, variants[1].largest = folder_size(onedir.executable.parent)
    variants[2].size_bytes = onefile.executable.stat().st_size

    with tempfile.TemporaryDirectory(prefix="briscola-bench-") as tmp:
        cwd = Path(tmp) / "cwd"
        cwd.mkdir()
        for variant in variants:
            home = Path(tmp) / f"home-{variant.name}"
            home.mkdir()
            env = environment(home, args.real_display)
            print(f"timing {variant.name} ...", flush=True)
            variant.version = time_command(variant.command, ["--version"], args.runs, cwd, env)
            variant.first_frame = time_command(
                variant.command, ["--frames", "1", "--turbo"], args.runs, cwd, env
            )

    where = "real display" if args.real_display else "headless: SDL dummy video and audio"
    averages = os.getloadavg() if hasattr(os, "getloadavg") else ()
    load = " ".join(f"{value:.2f}" for value in averages) or "?"
    print()
    print(f"Briscola start-up ({args.runs} runs each after a warm-up; {where})")
    print(f"{os.cpu_count()} CPUs, load average after the runs: {load}")
    print("first frame = wall time of the whole process `briscola --frames 1 --turbo`")
    for variant in variants:
        assert variant.version is not None and variant.first_frame is not None
        shown = "" if variant.size_bytes is None else f", size {variant.size_bytes / MB:.1f} MB"
        print(f"\n{variant.name}{shown}")
        print(f"  --version    {variant.version.text()}")
        print(f"  first frame  {variant.first_frame.text()}")
    print("\nlargest files of the onedir folder:")
    for name, size in variants[1].largest:
        print(f"  {size / MB:6.2f} MB  {name}")

    figures = {
        "onedir_s": variants[1].first_frame.mean if variants[1].first_frame else 0.0,
        "onefile_s": variants[2].first_frame.mean if variants[2].first_frame else 0.0,
        "onedir_mb": (variants[1].size_bytes or 0) / MB,
    }
    print("\ngoals:")
    labels = {
        "onedir_s": "onedir first frame",
        "onefile_s": "onefile first frame",
        "onedir_mb": "onedir folder size",
    }
    for key, limit in GOALS.items():
        unit = "MB" if key.endswith("mb") else "s"
        verdict = "ok" if figures[key] <= limit else "OVER"
        print(f"  {labels[key]:20} {figures[key]:6.2f} {unit} (goal <= {limit} {unit}): {verdict}")

    if args.json:
        data = {
            "headless": not args.real_display,
            "runs": args.runs,
            "python": sys.version.split()[0],
            "cpus": os.cpu_count(),
            "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
            "platform": sys.platform,
            "variants": [
                {
                    "name": v.name,
                    "size_bytes": v.size_bytes,
                    "version_s": asdict(v.version) if v.version else None,
                    "first_frame_s": asdict(v.first_frame) if v.first_frame else None,
                }
                for v in variants
            ],
            "figures": figures,
            "goals": GOALS,
        }
        args.json.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
