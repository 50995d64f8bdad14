"""The frozen (PyInstaller) app: built from a copy of the source tree into a temporary folder,
then run headless from another working directory (see tools/frozen_check.py).

The onedir build is the session's (``source_copy`` and ``onedir`` in tests/conftest.py,
shared with tests/project/test_release.py); the onefile build is made here.
The build tests are ``slow`` (about a minute and a half on two cores: two builds). They are
skipped when PyInstaller is not installed, except under CI (``CI`` set), where a missing
PyInstaller is a failure: CI installs requirements-dev.txt, which lists it.
The ICNS and version-file writers are tested without building anything.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from frozenhelp import EXTRA_MO

from tools import frozen_check
from tools.frozen_check import Build, CheckResult
from tools.make_icns import ICNS_TYPES, icns_bytes, png_size, read_icns, write_icns
from tools.win_version import read_version, version_file_text, version_numbers

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def onefile(source_copy: Path) -> Build:
    out = source_copy.parent
    return frozen_check.build(out / "dist", out / "work-onefile", onefile=True, source=source_copy)


@pytest.fixture()
def elsewhere(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """An empty working directory and an empty BRISCOLA_HOME, away from every source tree."""
    cwd = tmp_path / "cwd"
    home = tmp_path / "home"
    cwd.mkdir()
    home.mkdir()
    yield cwd, home


def _ok(result: CheckResult) -> None:
    assert result.ok, f"{result.name}: {result.detail}"


# ----------------------------------------------------------------------------- onedir


@pytest.mark.slow
def test_onedir_layout(onedir: Build) -> None:
    assert onedir.executable.is_file()
    assert os.access(onedir.executable, os.X_OK)
    _ok(frozen_check.check_bundle_contents(onedir))
    assert onedir.bundle_root is not None
    assert (onedir.bundle_root / EXTRA_MO).is_file()
    for unwanted in ("tkinter", "numpy", "pytest", "_pytest", "hypothesis", "PyInstaller"):
        assert not (onedir.bundle_root / unwanted).exists(), unwanted


@pytest.mark.slow
def test_onedir_version(onedir: Build, elsewhere: tuple[Path, Path]) -> None:
    _ok(frozen_check.check_version(onedir, *elsewhere))


@pytest.mark.slow
def test_onedir_self_check(onedir: Build, elsewhere: tuple[Path, Path]) -> None:
    result = frozen_check.check_self_check(onedir, *elsewhere)
    _ok(result)
    assert "card faces: 240" in result.detail  # six folders of faces (french4 included)


@pytest.mark.slow
def test_onedir_menu_frames(onedir: Build, elsewhere: tuple[Path, Path]) -> None:
    _ok(frozen_check.check_frames(onedir, *elsewhere, frames=60))
    # The run saved its settings in BRISCOLA_HOME, not next to the executable or in the cwd.
    assert (elsewhere[1] / "settings.json").is_file()
    assert not any(elsewhere[0].iterdir())


@pytest.mark.slow
def test_onedir_demo(onedir: Build, elsewhere: tuple[Path, Path]) -> None:
    if not frozen_check.has_table_scene(onedir.source):
        pytest.skip("briscola/gui/scenes/table.py does not exist yet: --demo needs it")
    _ok(frozen_check.check_demo(onedir, *elsewhere, frames=600))


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a message box would block")
def test_onedir_without_video_reports_and_exits_1(
    onedir: Build, elsewhere: tuple[Path, Path]
) -> None:
    _ok(frozen_check.check_no_window(onedir, *elsewhere))


@pytest.mark.slow
def test_version_resource_generated(onedir: Build) -> None:
    text = onedir.version_file.read_text(encoding="utf-8")
    version = read_version(onedir.source)
    assert f"StringStruct('ProductVersion', {version!r})" in text
    assert f"filevers={version_numbers(version)}" in text


@pytest.mark.slow
@pytest.mark.skipif(
    not sys.platform.startswith("linux") or shutil.which("bash") is None, reason="Linux only"
)
def test_install_linux_script(onedir: Build, tmp_path: Path) -> None:
    """packaging/install-linux.sh installs for a (fake) user, the installed command runs from
    anywhere, and --uninstall removes everything it put there."""
    home = tmp_path / "user"
    home.mkdir()
    env = dict(os.environ, HOME=str(home))
    env.pop("XDG_DATA_HOME", None)
    script = REPO / "packaging" / "install-linux.sh"
    app = onedir.executable.parent

    def install(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", str(script), *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    done = install("--from", str(app))
    assert done.returncode == 0, done.stderr
    share = home / ".local" / "share"
    command = home / ".local" / "bin" / "briscola"
    assert (home / ".local" / "opt" / "briscola" / "_internal" / "assets").is_dir()
    assert command.is_symlink()
    sizes = [p.stem.split("-")[1] for p in (REPO / "assets" / "icon").glob("icon-*.png")]
    assert sizes
    for size in sizes:
        assert (share / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "briscola.png").is_file()
    desktop = (share / "applications" / "briscola.desktop").read_text(encoding="utf-8")
    assert f'Exec="{home}/.local/opt/briscola/briscola"' in desktop
    assert "Icon=briscola" in desktop

    cwd, briscola_home = tmp_path / "cwd", tmp_path / "briscola-home"
    cwd.mkdir()
    proc = frozen_check.run_app(
        command, ["--self-check"], cwd=cwd, env=frozen_check.headless_env(briscola_home)
    )
    assert proc.returncode == 0 and "result: OK" in proc.stdout, proc.stdout + proc.stderr

    done = install("--uninstall")
    assert done.returncode == 0, done.stderr
    left = [p for p in home.rglob("*") if p.is_file() or p.is_symlink()]
    assert [p.name for p in left if p.name != "mimeinfo.cache"] == []


# ----------------------------------------------------------------------------- onefile


@pytest.mark.slow
def test_onefile_self_check_and_frames(onefile: Build, elsewhere: tuple[Path, Path]) -> None:
    assert onefile.executable.is_file()
    assert onefile.executable.parent.name == "onefile"
    _ok(frozen_check.check_self_check(onefile, *elsewhere))
    _ok(frozen_check.check_frames(onefile, *elsewhere, frames=30))


@pytest.mark.slow
def test_onefile_demo(onefile: Build, elsewhere: tuple[Path, Path]) -> None:
    """The bots' worker process is the onefile executable started again (freeze_support)."""
    if not frozen_check.has_table_scene(onefile.source):
        pytest.skip("briscola/gui/scenes/table.py does not exist yet: --demo needs it")
    _ok(frozen_check.check_demo(onefile, *elsewhere, frames=300))


# ----------------------------------------------------------------------------- writers


def test_icns_holds_every_icon_png(tmp_path: Path) -> None:
    icons = REPO / "assets" / "icon"
    path = write_icns(tmp_path / "briscola.icns", icons)
    entries = read_icns(path.read_bytes())
    sizes = {png_size(p.read_bytes())[0] for p in icons.glob("icon-*.png")}
    expected = {kind for size in sizes for kind in ICNS_TYPES.get(size, ())}
    assert set(entries) == expected
    for kind, data in entries.items():
        width, height = png_size(data)
        assert width == height
        assert kind in ICNS_TYPES[width]


def test_icns_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        icns_bytes([b"not a png"])
    with pytest.raises(ValueError):
        icns_bytes([])


def test_version_numbers() -> None:
    assert version_numbers("0.1.0") == (0, 1, 0, 0)
    assert version_numbers("1.2.3rc4") == (1, 2, 3, 4)
    assert version_numbers("2.0") == (2, 0, 0, 0)
    assert version_numbers("1.2.3+local.9") == (1, 2, 3, 0)
    assert version_numbers("1.2.3.4.5") == (1, 2, 3, 4)


def test_version_file_is_a_vsversioninfo_expression() -> None:
    """The text is what PyInstaller evaluates on Windows: check its structure with stand-ins
    (PyInstaller's own classes import Windows-only modules)."""
    version = read_version(REPO)
    text = version_file_text(version)
    calls: dict[str, list[Any]] = {}

    def recorder(name: str) -> Any:
        def make(*args: Any, **kwargs: Any) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
            calls.setdefault(name, []).append((args, kwargs))
            return (name, args, kwargs)

        return make

    names = (
        "VSVersionInfo FixedFileInfo StringFileInfo StringTable StringStruct VarFileInfo VarStruct"
    )
    namespace = {name: recorder(name) for name in names.split()}
    tree = eval(compile(ast.parse(text, mode="eval"), "<version>", "eval"), namespace)
    assert tree[0] == "VSVersionInfo"
    ffi = calls["FixedFileInfo"][0][1]
    assert ffi["filevers"] == ffi["prodvers"] == version_numbers(version)
    strings = dict(args for args, _kwargs in calls["StringStruct"])
    assert strings["ProductVersion"] == strings["FileVersion"] == version
    assert strings["OriginalFilename"] == "briscola.exe"
