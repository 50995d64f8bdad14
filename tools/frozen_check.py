"""Build the frozen app with PyInstaller and check it, headless, from another working directory.

Run ``python tools/frozen_check.py`` from anywhere (``--help`` for options). It builds
``build.spec`` (onedir by default, ``--onefile`` for the single file) into a temporary folder
(or ``--out DIR``), or, with ``--dist DIR``, takes the build that ``pyinstaller build.spec``
already made in ``DIR`` (and on macOS also checks the program inside ``DIR/Briscola.app``),
then runs the executable with ``SDL_VIDEODRIVER=dummy`` and ``SDL_AUDIODRIVER=dummy`` from an
empty working directory, with ``BRISCOLA_HOME`` pointing to a fresh folder, and checks that:

* ``--version`` prints ``briscola`` and pyproject.toml's version (the bundle has no
  pyproject.toml: the version reaches the program through the ``VERSION`` file build.spec
  bundles);
* ``--self-check`` prints ``result: OK`` and exits 0, the assets it loaded are the bundled
  ones (inside the build output, not the source checkout), and its computer players chose
  the moves the source's choose (the same digest: the bundled networks play alike);
* ``--frames 60 --turbo`` (the menu) exits 0;
* ``--demo --frames 600 --turbo`` exits 0 (when ``briscola/gui/scenes/table.py`` exists, or
  always with ``--demo``);
* Linux only: with an unusable ``SDL_VIDEODRIVER`` the app exits 1, writes the reason to
  ``briscola.log`` under ``BRISCOLA_HOME`` and prints no traceback;
* the bundle holds every file of ``assets/`` and every ``briscola/locale/**/*.mo``.

``tests/e2e/test_frozen.py`` uses the same functions. Exit status: 0 when every check passes.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:  # run as a script: python tools/frozen_check.py
    sys.path.insert(0, str(REPO_ROOT))

from tools.win_version import read_version  # noqa: E402

APP_NAME = "briscola"
EXE_SUFFIX = ".exe" if sys.platform == "win32" else ""
#: What a source tree needs for a build (copied by :func:`copy_source`).
SOURCE_ENTRIES = ("build.spec", "main.py", "pyproject.toml", "briscola", "assets", "tools")
#: The macOS app bundle of a onedir build (build.spec's BUNDLE), in the dist folder.
MAC_APP = "Briscola.app"


class BuildError(RuntimeError):
    """PyInstaller failed; the message ends with the tail of its log."""


@dataclass(frozen=True)
class Build:
    """Where a build landed."""

    source: Path
    dist: Path
    work: Path
    onefile: bool
    seconds: float
    #: Another program of the build to run instead (the one inside the macOS .app).
    program: Path | None = None

    @property
    def executable(self) -> Path:
        if self.program is not None:
            return self.program
        if self.onefile:
            return self.dist / "onefile" / (APP_NAME + EXE_SUFFIX)
        return self.dist / APP_NAME / (APP_NAME + EXE_SUFFIX)

    @property
    def version_file(self) -> Path:
        """The generated Windows version resource (PyInstaller's work folder of build.spec)."""
        return self.work / "build" / "file_version_info.txt"

    @property
    def bundle_root(self) -> Path | None:
        """The folder holding ``assets/`` in a onedir build (None for onefile: it unpacks to a
        temporary folder at each start, and for the .app, whose layout is PyInstaller's)."""
        if self.onefile or self.program is not None:
            return None
        return self.dist / APP_NAME / "_internal"


@dataclass(frozen=True)
class CheckResult:
    name: str
    ok: bool
    detail: str
    seconds: float = 0.0


def pyinstaller_available() -> bool:
    return importlib.util.find_spec("PyInstaller") is not None


def copy_source(dest: Path, root: Path = REPO_ROOT) -> Path:
    """Copy what a build needs from ``root`` into ``dest`` (no caches, no build outputs)."""
    dest.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".mypy_cache", ".ruff_cache")
    for entry in SOURCE_ENTRIES:
        src = root / entry
        if src.is_dir():
            shutil.copytree(src, dest / entry, ignore=ignore, dirs_exist_ok=True)
        elif src.is_file():
            shutil.copy2(src, dest / entry)
    return dest


def build(
    dist: Path,
    work: Path,
    *,
    onefile: bool = False,
    source: Path = REPO_ROOT,
    python: str = sys.executable,
    timeout: float = 900,
) -> Build:
    """Run PyInstaller on ``source/build.spec``; raise :class:`BuildError` on failure."""
    command = [
        python,
        "-m",
        "PyInstaller",
        "--noconfirm",
        "--log-level",
        "WARN",
        "--distpath",
        str(dist),
        "--workpath",
        str(work),
        str(source / "build.spec"),
    ]
    if onefile:
        command += ["--", "--onefile"]
    env = dict(os.environ)
    env.pop("BRISCOLA_ONEFILE", None)
    env.pop("BRISCOLA_CONSOLE", None)
    start = time.perf_counter()
    proc = subprocess.run(
        command,
        cwd=source,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=timeout,
        check=False,
    )
    seconds = time.perf_counter() - start
    result = Build(source=source, dist=dist, work=work, onefile=onefile, seconds=seconds)
    if proc.returncode != 0 or not result.executable.is_file():
        tail = "\n".join(proc.stdout.splitlines()[-40:])
        raise BuildError(f"PyInstaller failed (exit {proc.returncode}):\n{tail}")
    return result


def existing_build(dist: Path, *, onefile: bool = False, source: Path = REPO_ROOT) -> Build:
    """The build ``pyinstaller build.spec`` left in ``dist`` (its ``--distpath``); its work
    folder is PyInstaller's default, ``source/build``. BuildError when the program is missing."""
    found = Build(source=source, dist=dist, work=source / "build", onefile=onefile, seconds=0.0)
    if not found.executable.is_file():
        raise BuildError(f"no build in {dist}: {found.executable} is missing")
    return found


def mac_app_build(build_: Build) -> Build | None:
    """The program inside ``Briscola.app`` of a onedir build on macOS (None elsewhere)."""
    program = build_.dist / MAC_APP / "Contents" / "MacOS" / APP_NAME
    if build_.onefile or not program.is_file():
        return None
    return Build(
        source=build_.source,
        dist=build_.dist,
        work=build_.work,
        onefile=False,
        seconds=0.0,
        program=program,
    )


def headless_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment of a headless run: dummy video and audio, a private BRISCOLA_HOME."""
    env = dict(os.environ)
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "BRISCOLA_ONEFILE", "PYTHONPATH", "PYTHONHOME"):
        env.pop(name, None)
    env.update(
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        PYGAME_HIDE_SUPPORT_PROMPT="1",
        BRISCOLA_HOME=str(home),
    )
    env.update(extra)
    return env


def run_app(
    executable: Path,
    args: Sequence[str],
    *,
    cwd: Path,
    env: dict[str, str],
    timeout: float = 180,
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(executable), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _describe(proc: subprocess.CompletedProcess[str]) -> str:
    out = proc.stdout.strip()[-1500:]
    err = proc.stderr.strip()[-1500:]
    return f"exit {proc.returncode}\n--- stdout\n{out}\n--- stderr\n{err}"


# ----------------------------------------------------------------------------- checks


def check_version(build_: Build, cwd: Path, home: Path) -> CheckResult:
    proc = run_app(build_.executable, ["--version"], cwd=cwd, env=headless_env(home))
    want = f"briscola {read_version(build_.source)}"
    ok = proc.returncode == 0 and proc.stdout.strip() == want
    return CheckResult("--version", ok, proc.stdout.strip() if ok else _describe(proc))


def check_self_check(build_: Build, cwd: Path, home: Path) -> CheckResult:
    proc = run_app(build_.executable, ["--self-check"], cwd=cwd, env=headless_env(home))
    ok = proc.returncode == 0 and "result: OK" in proc.stdout
    detail = proc.stdout.strip()
    where = ""
    for line in proc.stdout.splitlines():
        if "assets in " in line:
            where = line.split("assets in ", 1)[1].strip()
    if ok:
        assets = Path(where).resolve() if where else None
        source_assets = (build_.source / "assets").resolve()
        if assets is None or assets == source_assets:
            ok = False
            detail += f"\nassets were not loaded from the bundle: {where or '(not reported)'}"
        elif build_.bundle_root is not None and assets != (build_.bundle_root / "assets").resolve():
            ok = False
            detail += f"\nassets loaded from {assets}, expected {build_.bundle_root / 'assets'}"
    if ok:
        # The same moves as the source's: the bundled networks and the bots play alike.
        played = _players_digest(proc.stdout)
        source = _players_digest(_source_self_check(build_.source))
        if played is None or played != source:
            ok = False
            detail += f"\nthe computer players' moves differ: {played} here, {source} in the source"
    return CheckResult("--self-check", ok, detail if ok else detail + "\n" + _describe(proc))


def _players_digest(output: str) -> str | None:
    """The digest of the computer players' moves in a self-check's output."""
    for line in output.splitlines():
        if "computer players:" in line:
            return line.rsplit(",", 1)[-1].strip()
    return None


def _source_self_check(source: Path) -> str:
    """The computer players' line of the self-check, from the source tree ``source``."""
    code = (
        "from briscola.ai.check import players_check; "
        "print('  computer players: from the source,', players_check()[1])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=source, capture_output=True, text=True, timeout=300
    )
    return done.stdout


def check_frames(build_: Build, cwd: Path, home: Path, frames: int = 60) -> CheckResult:
    proc = run_app(
        build_.executable, ["--frames", str(frames), "--turbo"], cwd=cwd, env=headless_env(home)
    )
    ok = proc.returncode == 0 and "Traceback" not in proc.stderr
    return CheckResult(f"--frames {frames} --turbo (menu)", ok, "" if ok else _describe(proc))


def has_table_scene(source: Path = REPO_ROOT) -> bool:
    return (source / "briscola" / "gui" / "scenes" / "table.py").is_file()


def check_demo(build_: Build, cwd: Path, home: Path, frames: int = 600) -> CheckResult:
    args = ["--demo", "--frames", str(frames), "--turbo", "--seed", "7"]
    proc = run_app(build_.executable, args, cwd=cwd, env=headless_env(home))
    ok = proc.returncode == 0 and "Traceback" not in proc.stderr
    return CheckResult(f"--demo --frames {frames} --turbo", ok, "" if ok else _describe(proc))


def check_no_window(build_: Build, cwd: Path, home: Path) -> CheckResult:
    """An unusable video driver: exit 1, a log line, the reason in the log file, no traceback.

    DISPLAY and WAYLAND_DISPLAY are unset, so the error message box cannot appear (and block)."""
    env = headless_env(home, SDL_VIDEODRIVER="no-such-video-driver")
    proc = run_app(build_.executable, ["--frames", "5"], cwd=cwd, env=env, timeout=60)
    log = home / "briscola.log"
    log_text = log.read_text(encoding="utf-8", errors="replace") if log.is_file() else ""
    problems = []
    if proc.returncode != 1:
        problems.append(f"exit status {proc.returncode}, expected 1")
    if "could not open its window" not in log_text:
        problems.append(f"no 'could not open its window' in {log}")
    if "Traceback" in proc.stderr or "Traceback" in proc.stdout:
        problems.append("a traceback was printed")
    if "could not open its window" not in proc.stderr:
        problems.append("the reason was not printed on stderr")
    detail = proc.stderr.strip() if not problems else "; ".join(problems) + "\n" + _describe(proc)
    return CheckResult("no usable video driver", not problems, detail)


def check_bundle_contents(build_: Build) -> CheckResult:
    """Every source asset and translation catalog is in the onedir bundle."""
    root = build_.bundle_root
    if root is None:
        kind = "onefile" if build_.onefile else "the .app"
        return CheckResult("bundle contents", True, f"{kind}: checked by --self-check only")
    wanted = [p for p in (build_.source / "assets").rglob("*") if p.is_file()]
    wanted += list((build_.source / "briscola" / "locale").glob("**/*.mo"))
    missing = [
        p.relative_to(build_.source).as_posix()
        for p in wanted
        if not (root / p.relative_to(build_.source)).is_file()
    ]
    detail = f"{len(wanted)} files" if not missing else "missing: " + ", ".join(missing[:20])
    return CheckResult("bundle contents", not missing, detail)


def run_checks(build_: Build, scratch: Path, demo: bool | None = None) -> list[CheckResult]:
    """All checks, each from an empty working directory under ``scratch`` with its own home."""
    checks: list[tuple[str, Callable[[Build, Path, Path], CheckResult]]] = [
        ("version", check_version),
        ("self-check", check_self_check),
        ("frames", check_frames),
    ]
    if demo or (demo is None and has_table_scene(build_.source)):
        checks.append(("demo", check_demo))
    if sys.platform.startswith("linux"):
        checks.append(("no-window", check_no_window))
    results = [check_bundle_contents(build_)]
    for name, check in checks:
        cwd = scratch / f"cwd-{name}"
        home = scratch / f"home-{name}"
        cwd.mkdir(parents=True, exist_ok=True)
        home.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        try:
            result = check(build_, cwd, home)
        except subprocess.TimeoutExpired as exc:
            result = CheckResult(name, False, f"timed out after {exc.timeout} s")
        results.append(
            CheckResult(result.name, result.ok, result.detail, time.perf_counter() - start)
        )
    return results


def _report(title: str, results: Sequence[CheckResult]) -> int:
    """Print the results; the number that failed."""
    print(title)
    failed = 0
    for check in results:
        mark = "ok  " if check.ok else "FAIL"
        print(f"{mark} {check.name} ({check.seconds:.1f} s)")
        if not check.ok:
            failed += 1
            print("     " + check.detail.replace("\n", "\n     "))
    return failed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the frozen app and check it headless.")
    parser.add_argument("--onefile", action="store_true", help="build and check the single file")
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--out", type=Path, help="keep the build here (default: a temporary folder, removed)"
    )
    where.add_argument(
        "--dist",
        type=Path,
        help="check the build pyinstaller build.spec already made in DIR (its --distpath, "
        "usually dist) instead of building; on macOS Briscola.app's program is checked too",
        metavar="DIR",
    )
    demo = parser.add_mutually_exclusive_group()
    demo.add_argument(
        "--demo", dest="demo", action="store_true", default=None, help="always check --demo"
    )
    demo.add_argument("--no-demo", dest="demo", action="store_false")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="briscola-frozen-") as tmp:
        kind = "onefile" if args.onefile else "onedir"
        if args.dist is not None:
            try:
                result = existing_build(args.dist.resolve(), onefile=args.onefile)
            except BuildError as exc:
                print(exc, file=sys.stderr)
                return 1
            print(f"checking the {kind} build {result.executable}", flush=True)
        else:
            if not pyinstaller_available():
                print(
                    "PyInstaller is not installed: pip install -r requirements-dev.txt",
                    file=sys.stderr,
                )
                return 2
            out = args.out.resolve() if args.out else Path(tmp)
            print(f"building {kind} into {out / 'dist'} ...", flush=True)
            try:
                result = build(out / "dist", out / "work", onefile=args.onefile)
            except BuildError as exc:
                print(exc, file=sys.stderr)
                return 1
            print(f"built {result.executable} in {result.seconds:.0f} s", flush=True)
        builds = [result]
        app = mac_app_build(result) if sys.platform == "darwin" else None
        if app is not None:
            builds.append(app)
        failed = total = 0
        for number, checked in enumerate(builds):
            results = run_checks(checked, Path(tmp) / f"runs-{number}", demo=args.demo)
            failed += _report(f"== {checked.executable}", results)
            total += len(results)
    print(f"{total - failed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
