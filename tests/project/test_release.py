"""Releases (docs/building.md, "Releases"): the workflows, the version, the changelog, and what a
player downloads.

* actionlint passes on every workflow (and fails on a broken one), and the workflows run what
  the docs promise: the README's test command, the frozen check on each system, signing only
  where its secrets are set.
* One version, pyproject.toml's, everywhere: ``briscola.__version__``, the frozen build's
  ``--version`` and bundled ``VERSION``, the Windows version resource, the macOS Info.plist,
  the installer, the .deb, the tarball, CHANGELOG.md's top release, the Flathub metainfo.
* On Linux, from the session's onedir build (tests/conftest.py, shared with test_frozen.py):
  the .deb is built, installed with ``dpkg -i``, its ``briscola`` runs ``--version``,
  ``--self-check`` and a headless demo, and ``dpkg --purge`` leaves nothing behind; the tarball
  is unpacked and its install script installs into a temporary home and uninstalls again.

Installing the .deb needs root (or password-less sudo): without it the test is skipped, except
under CI (``CI`` set), where a missing tool is a failure, as in test_frozen.py.
"""

from __future__ import annotations

import ast
import doctest
import gzip
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from frozenhelp import in_ci, require

import briscola
from tools import changelog, deb, flatpak, frozen_check, package, version
from tools.frozen_check import Build
from tools.win_version import version_file_text, version_numbers

REPO = Path(__file__).resolve().parents[2]
WORKFLOWS = REPO / ".github" / "workflows"
LINUX = sys.platform.startswith("linux")
VERSION = version.read_version(REPO)


def _run(
    *command: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


# ----------------------------------------------------------------------------- workflows


def _actionlint() -> Path:
    """The actionlint of requirements-dev.txt (next to this Python), else one on PATH."""
    for folder in (Path(sys.executable).parent, *map(Path, os.get_exec_path())):
        for name in ("actionlint", "actionlint.exe"):
            if (folder / name).is_file():
                return folder / name
    require(False, "actionlint is not installed (pip install -r requirements-dev.txt)")
    raise AssertionError("unreachable")


def _lint(*files: Path) -> subprocess.CompletedProcess[str]:
    # ShellCheck checks the run: scripts when it is there; under CI it must be.
    require(shutil.which("shellcheck") is not None or not in_ci(), "shellcheck is missing")
    return _run(_actionlint(), "-no-color", "-oneline", *files, cwd=REPO)


def test_actionlint_passes_on_every_workflow() -> None:
    files = sorted(WORKFLOWS.glob("*.yml")) + sorted(WORKFLOWS.glob("*.yaml"))
    assert {p.name for p in files} >= {"release.yml", "ci.yml"}
    done = _lint(*files)
    assert done.returncode == 0, done.stdout + done.stderr


def test_actionlint_catches_a_broken_workflow(tmp_path: Path) -> None:
    """The linter really reads the files: a job needing a missing job and a step with an
    unknown input fail."""
    broken = tmp_path / ".github" / "workflows" / "broken.yml"
    broken.parent.mkdir(parents=True)
    broken.write_text(
        "on: push\n"
        "jobs:\n"
        "  build:\n"
        "    needs: nowhere\n"
        "    runs-on: ubuntu-24.04\n"
        "    steps:\n"
        "      - uses: actions/checkout@v5\n"
        "        with:\n"
        "          no-such-input: 1\n",
        encoding="utf-8",
    )
    done = _lint(broken)
    assert done.returncode != 0
    assert "nowhere" in done.stdout and "no-such-input" in done.stdout, done.stdout


def _steps(text: str) -> list[str]:
    """The steps of every job of a workflow, each as its own text (the files here list steps
    as ``- `` items under ``steps:``)."""
    lines = text.splitlines()
    found: list[str] = []
    for number, line in enumerate(lines):
        if line.strip() != "steps:":
            continue
        indent = len(line) - len(line.lstrip())
        current: list[str] = []
        for item in lines[number + 1 :]:
            depth = len(item) - len(item.lstrip())
            if item.strip() and depth <= indent:
                break
            if item.strip().startswith("- ") and depth == indent + 2:
                if current:
                    found.append("\n".join(current))
                current = []
            if item.strip() and not item.strip().startswith("#"):
                current.append(item)
        if current:
            found.append("\n".join(current))
    return found


def _condition(step: str) -> str:
    match = re.search(r"^\s*(?:- )?if: (.+)$", step, re.M)
    return match[1] if match else ""


def test_signing_runs_only_when_its_secrets_exist() -> None:
    text = (WORKFLOWS / "release.yml").read_text(encoding="utf-8")
    assert "SIGN_WINDOWS: ${{ secrets.SIGNPATH_API_TOKEN != '' }}" in text
    assert "SIGN_MACOS: ${{ secrets.MACOS_CERTIFICATE != '' }}" in text
    steps = _steps(text)
    signing = [step for step in steps if re.search(r"sign", step, re.I)]
    assert len(signing) == 7, signing  # 4 on Windows (2 uploads), 2 on macOS, 1 swap
    for step in signing:
        assert re.search(r"env\.SIGN_(WINDOWS|MACOS) == 'true'", _condition(step)), step
    # No other step sees a secret.
    assert not [step for step in steps if "secrets." in step and step not in signing]


def test_release_workflow_builds_checks_packages_and_drafts() -> None:
    text = (WORKFLOWS / "release.yml").read_text(encoding="utf-8")
    assert 'tags: ["v[0-9]*"]' in text
    for runner in ("windows-2022", "macos-15", "macos-15-intel", "ubuntu-22.04"):
        assert f"os: {runner}\n" in text, runner
    for command in (
        "python -m pip install -r requirements-dev.txt",
        "python -m PyInstaller --noconfirm build.spec",
        "python tools/frozen_check.py --dist dist --demo",
        "python tools/version.py --check-tag",
        "python tools/package.py zip",
        "python tools/package.py installer",
        "python tools/package.py dmg",
        "python tools/package.py tarball",
        "python tools/package.py deb",
        "python tools/package.py checksums release",
        "python tools/flatpak.py submission",
        'python tools/changelog.py --version "$VERSION"',
        "--draft",
    ):
        assert command in text, command
    # Packaging comes after the check of the build, in every job.
    assert text.index("frozen_check.py --dist dist") < text.index("tools/package.py zip")


def _readme_test_command() -> str:
    """The one command of README.md's "Test" section (as tests/project/test_project.py reads it)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Test\n", 1)[1].split("\n## ", 1)[0]
    (block,) = re.findall(r"```sh\n(.*?)```", section, re.S)
    return block.strip()


def test_ci_workflow_runs_the_readme_test_command_and_the_frozen_check() -> None:
    text = (WORKFLOWS / "ci.yml").read_text(encoding="utf-8")
    runs = [line.strip() for line in text.splitlines() if line.strip().startswith("run: ")]
    assert f"run: {_readme_test_command()}" in runs
    assert "run: python tools/frozen_check.py --dist dist --demo" in runs
    for runner in ("windows-2022", "macos-15", "macos-15-intel", "ubuntu-22.04"):
        assert runner in text, runner


# ----------------------------------------------------------------------------- the version


def test_version_tool_doctests() -> None:
    result = doctest.testmod(version)
    assert result.attempted >= 3 and result.failed == 0


def test_pyproject_has_one_static_version() -> None:
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^version = "[^"]+"$', text, re.M)
    assert "dynamic" not in text.split("[project]", 1)[1].split("\n[", 1)[0]
    assert version.is_release_version(VERSION)


def _project(tmp_path: Path, body: str) -> Path:
    root = tmp_path / "checkout"
    root.mkdir(parents=True)
    (root / "pyproject.toml").write_text(body, encoding="utf-8")
    return root


def test_read_version_refuses_what_is_not_a_release_version(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no \\[project\\] version"):
        version.read_version(_project(tmp_path / "a", '[project]\ndynamic = ["version"]\n'))
    with pytest.raises(ValueError, match="PEP 440"):
        version.read_version(_project(tmp_path / "b", '[project]\nversion = "v1.0"\n'))
    assert version.read_version(_project(tmp_path / "c", '[project]\nversion = "2.0rc1"\n')) == (
        "2.0rc1"
    )


def test_check_tag(capsys: pytest.CaptureFixture[str]) -> None:
    assert version.main(["--check-tag", f"v{VERSION}"]) == 0
    assert version.main(["--check-tag", f"refs/tags/v{VERSION}"]) == 0
    assert version.main(["--check-tag", f"v{VERSION}.1"]) == 1
    assert "does not match" in capsys.readouterr().err


def test_the_package_reads_the_version_from_its_first_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """briscola/__init__.py: the bundled VERSION file, else the checkout's pyproject.toml (of
    this project only), else the installed metadata, else 0+unknown."""
    from importlib import metadata

    package_dir = tmp_path / "briscola"
    package_dir.mkdir()

    def missing(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    assert briscola._read_version(package_dir) == briscola.UNKNOWN_VERSION
    monkeypatch.setattr(metadata, "version", lambda name: "7.0" if name == "briscola" else "")
    assert briscola._read_version(package_dir) == "7.0"
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "other"\nversion = "9"\n')
    assert briscola._read_version(package_dir) == "7.0"
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "briscola"\nversion = "8.1"\n')
    assert briscola._read_version(package_dir) == "8.1"
    (package_dir / "VERSION").write_text("8.2\n")
    assert briscola._read_version(package_dir) == "8.2"


def _info_plist_versions() -> set[str]:
    """The names build.spec gives the macOS bundle's version keys (checked without macOS)."""
    tree = ast.parse((REPO / "build.spec").read_text(encoding="utf-8"))
    assigned = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "VERSION" for t in node.targets)
    ]
    assert len(assigned) == 1
    call = assigned[0].value
    assert isinstance(call, ast.Call) and ast.unparse(call.func) == "read_version"
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value in (
                    "CFBundleShortVersionString",
                    "CFBundleVersion",
                ):
                    names.add(ast.unparse(value))
    return names


def test_the_version_is_the_same_everywhere(tmp_path: Path) -> None:
    assert briscola.__version__ == VERSION
    assert changelog.top_release((REPO / "CHANGELOG.md").read_text(encoding="utf-8")).name == (
        VERSION
    )
    assert f"StringStruct('ProductVersion', {VERSION!r})" in version_file_text(VERSION)
    assert _info_plist_versions() == {"VERSION"}
    control = deb.control_text(VERSION, "amd64", 1, ["libc6"])
    assert f"Version: {version.debian_version(VERSION)}\n" in control
    command = package.iscc_command(
        Path("ISCC.exe"), _fake_onedir(tmp_path), Path("out"), VERSION, "windows-x64"
    )
    assert f"/DAppVersion={VERSION}" in command
    assert "/DAppVersionNumeric=" + ".".join(map(str, version_numbers(VERSION))) in command
    metainfo = flatpak.submission_metainfo(
        flatpak.METAINFO.read_text(encoding="utf-8"),
        (REPO / "CHANGELOG.md").read_text(encoding="utf-8"),
        repo_url="https://github.com/example/briscola",
        tag=version.tag_for(VERSION),
    )
    assert re.search(rf'<releases>\s*<release version="{re.escape(VERSION)}" ', metainfo)


# ----------------------------------------------------------------------------- the changelog

GOOD_CHANGELOG = """\
# Changelog

## [Unreleased]

- something coming

## [1.1.0] - 2026-11-02

### Fixed

- the thing

## [1.0.0] - 2026-10-01

- first

[1.1.0]: https://example.org/compare/v1.0.0...v1.1.0
"""


def test_release_notes_are_the_top_release_section() -> None:
    assert changelog.top_release(GOOD_CHANGELOG).name == "1.1.0"
    assert changelog.release_notes(GOOD_CHANGELOG) == "### Fixed\n\n- the thing\n"
    assert changelog.release_notes(GOOD_CHANGELOG, "1.0.0") == "- first\n"
    assert [s.name for s in changelog.releases(GOOD_CHANGELOG)] == ["1.1.0", "1.0.0"]


def test_changelog_errors() -> None:
    with pytest.raises(changelog.ChangelogError, match=r"no section for version 2\.0"):
        changelog.release_notes(GOOD_CHANGELOG, "2.0")
    with pytest.raises(changelog.ChangelogError, match="YYYY-MM-DD"):
        changelog.sections("## [1.0] 2026-01-01\n- x\n")
    with pytest.raises(changelog.ChangelogError, match="month"):
        changelog.sections("## [1.0] - 2026-13-01\n- x\n")
    with pytest.raises(changelog.ChangelogError, match="twice"):
        changelog.sections("## [1.0] - 2026-01-01\n- x\n## [1.0] - 2026-01-02\n- y\n")
    with pytest.raises(changelog.ChangelogError, match="empty"):
        changelog.release_notes("## [1.0] - 2026-01-01\n\n## [0.9] - 2025-01-01\n- y\n")
    with pytest.raises(changelog.ChangelogError, match="no release"):
        changelog.top_release("# Changelog\n\n## [Unreleased]\n- x\n")


def test_the_project_changelog_has_notes_for_this_version(tmp_path: Path) -> None:
    out = tmp_path / "notes.md"
    assert changelog.main(["--version", VERSION, "--out", str(out)]) == 0
    notes = out.read_text(encoding="utf-8")
    assert notes.strip() and not notes.startswith("## ")
    assert notes == changelog.release_notes((REPO / "CHANGELOG.md").read_text(encoding="utf-8"))
    assert changelog.main(["--version", "0.0.0.dev0"]) == 1


# ----------------------------------------------------------------------------- packages


def _fake_onedir(root: Path) -> Path:
    """dist/ with a stand-in onedir build: the program, _internal, an icon."""
    dist = root / "dist"
    if (dist / "briscola" / "briscola").is_file():
        return dist
    icons = dist / "briscola" / "_internal" / "assets" / "icon"
    icons.mkdir(parents=True)
    (icons / "icon-16.png").write_bytes(b"png")
    program = dist / "briscola" / "briscola"
    program.write_bytes(b"#!/bin/sh\necho briscola\n")
    program.chmod(0o755)
    return dist


def test_download_names() -> None:
    assert package.platform_tag("win32", "AMD64") == "windows-x64"
    assert package.platform_tag("darwin", "arm64") == "macos-arm64"
    assert package.platform_tag("darwin", "x86_64") == "macos-x86_64"
    assert package.platform_tag("linux", "x86_64") == "linux-x86_64"
    assert package.platform_tag("linux", "aarch64") == "linux-aarch64"
    assert package.zip_name("1.0", "windows-x64") == "Briscola-1.0-windows-x64.zip"
    assert package.dmg_name("1.0", "macos-arm64") == "Briscola-1.0-macos-arm64.dmg"
    assert package.tarball_name("1.0", "linux-x86_64") == "briscola-1.0-linux-x86_64.tar.gz"
    assert deb.deb_file_name("1.0rc1", "amd64") == "briscola_1.0~rc1_amd64.deb"
    assert deb.debian_architecture("x86_64") == "amd64"


def test_zip_holds_the_onedir_folder_and_is_reproducible(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dist = _fake_onedir(tmp_path)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    first = package.make_zip(dist, tmp_path / "a", "1.0", "windows-x64")
    second = package.make_zip(dist, tmp_path / "b", "1.0", "windows-x64")
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(first) as archive:
        names = archive.namelist()
        assert archive.testzip() is None
    assert "Briscola/briscola" in names
    assert "Briscola/_internal/assets/icon/icon-16.png" in names
    assert all(name.startswith("Briscola/") for name in names)
    # A link cannot go into a zip: the build fails and leaves no half-written download.
    (dist / "briscola" / "_internal" / "link").symlink_to("assets")
    with pytest.raises(package.PackageError, match="link"):
        package.make_zip(dist, tmp_path / "c", "1.0", "windows-x64")
    assert list((tmp_path / "c").iterdir()) == []


def test_checksums_are_sha256sum_s(tmp_path: Path) -> None:
    files = [tmp_path / "a.zip", tmp_path / "b.deb"]
    for number, path in enumerate(files):
        path.write_bytes(bytes([number]) * 1000)
    sums = package.write_checksums(files, tmp_path / package.CHECKSUMS)
    assert package.verify_checksums(sums) == []
    if shutil.which("sha256sum"):
        done = _run("sha256sum", "-c", sums.name, cwd=tmp_path)
        assert done.returncode == 0 and "a.zip: OK" in done.stdout, done.stdout + done.stderr
    files[1].write_bytes(b"changed")
    assert package.verify_checksums(sums) == ["b.deb"]
    assert package.main(["checksums", str(tmp_path)]) == 0
    assert package.verify_checksums(sums) == []


def test_dmg_holds_the_app_and_a_link_to_applications(tmp_path: Path) -> None:
    app = tmp_path / "dist" / "Briscola.app" / "Contents" / "MacOS"
    app.mkdir(parents=True)
    (app / "briscola").write_bytes(b"program")
    stage = package.stage_dmg(tmp_path / "dist", tmp_path / "stage")
    assert sorted(p.name for p in stage.iterdir()) == ["Applications", "Briscola.app"]
    assert os.readlink(stage / "Applications") == "/Applications"
    assert (stage / "Briscola.app" / "Contents" / "MacOS" / "briscola").read_bytes() == b"program"
    command = package.hdiutil_command(stage, tmp_path / "x.dmg", "1.0")
    assert command[:2] == ["hdiutil", "create"]
    assert command[command.index("-volname") + 1] == "Briscola 1.0"
    assert command[command.index("-srcfolder") + 1] == str(stage)
    assert command[command.index("-format") + 1] == "UDZO"
    with pytest.raises(package.PackageError):
        package.stage_dmg(tmp_path / "nowhere", tmp_path / "stage2")


def _iss() -> tuple[str, dict[str, list[str]]]:
    text = package.ISS.read_text(encoding="utf-8")
    sections: dict[str, list[str]] = {}
    current = ""
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(";"):
            continue
        if re.fullmatch(r"\[\w+\]", stripped):
            current = stripped[1:-1]
            sections[current] = []
        elif current:
            sections[current].append(stripped)
    return text, sections


def test_installer_is_per_user_with_a_start_menu_entry_and_an_uninstaller(
    tmp_path: Path,
) -> None:
    text, sections = _iss()
    setup = dict(line.split("=", 1) for line in sections["Setup"])
    assert setup["PrivilegesRequired"] == "lowest"
    assert "PrivilegesRequiredOverridesAllowed" not in setup  # no offer to install for all
    assert setup["DefaultDirName"] == r"{autopf}\Briscola"  # %LOCALAPPDATA%\Programs
    assert setup["AppVersion"] == "{#AppVersion}"  # passed in, never written here
    assert re.fullmatch(r"\{\{[0-9A-F]{8}(-[0-9A-F]{4}){3}-[0-9A-F]{12}\}", setup["AppId"])
    assert setup.get("Uninstallable", "yes") == "yes"
    assert setup["UninstallDisplayIcon"] == r"{app}\briscola.exe"
    assert (package.ISS.parent / setup["SetupIconFile"].replace("\\", "/")).is_file()
    directives = "\n".join(line for lines in sections.values() for line in lines)
    for machine_wide in ("{commonpf}", "{commonprograms}", "{commondesktop}", "HKLM", "admin"):
        assert machine_wide not in directives
    icons = sections["Icons"]
    assert any(
        line.startswith('Name: "{autoprograms}\\Briscola"')
        and 'Filename: "{app}\\briscola.exe"' in line
        for line in icons
    ), icons
    assert sections["Files"] == [
        'Source: "{#BuildDir}\\*"; DestDir: "{app}"; '
        "Flags: ignoreversion recursesubdirs createallsubdirs"
    ]
    # Every value the script uses is defined in it or passed by tools/package.py.
    command = package.iscc_command(Path("ISCC"), _fake_onedir(tmp_path), tmp_path, "1.0", "x")
    passed = {arg[2:].split("=", 1)[0] for arg in command if arg.startswith("/D")}
    defined = set(re.findall(r"^#define (\w+)", text, re.M))
    used = set(re.findall(r"\{#(\w+)\}", text)) | set(re.findall(r"#ifndef (\w+)", text))
    assert used <= passed | defined, used - passed - defined
    required = set(re.findall(r"#ifndef (\w+)\n\s*#error", text))
    assert required == {"AppVersion", "AppVersionNumeric", "BuildDir"} and required <= passed


def test_the_deb_depends_on_what_the_build_does_not_bundle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Depends comes from the ELF files: the C library at the newest glibc symbol they use;
    a library neither bundled nor known stops the build instead of making a package that
    would not run."""
    require(shutil.which("objdump") is not None, "objdump is missing (binutils)")
    onedir = tmp_path / "briscola"
    onedir.mkdir()
    shutil.copy(os.path.realpath(sys.executable), onedir / "briscola")
    dump = _run("objdump", "-p", onedir / "briscola").stdout
    for name in set(re.findall(r"NEEDED\s+(\S+)", dump)) - set(deb.SYSTEM_LIBRARIES):
        (onedir / name).write_bytes(b"")  # as if bundled (not an ELF file: not read)
    newest = max(re.findall(r"GLIBC_([\d.]+)", dump), key=lambda v: tuple(map(int, v.split("."))))
    assert deb.system_dependencies(onedir)[0] == f"libc6 (>= {newest})"
    monkeypatch.delitem(deb.SYSTEM_LIBRARIES, "libc.so.6")
    with pytest.raises(deb.DebError, match=r"no known package: libc\.so\.6"):
        deb.system_dependencies(onedir)


# ----------------------------------------------------------------------------- the Flatpak


def test_flatpak_manifest_matches_the_requirements_and_the_tree() -> None:
    manifest = flatpak.load_manifest()
    assert manifest["id"] == flatpak.APP_ID
    assert flatpak.pin_problems(manifest, flatpak.requirement_pins()) == []
    sources = flatpak.python_sources(manifest)
    for build_only in ("meson-python", "meson", "cython", "setuptools", "poetry-core"):
        assert build_only in sources
    for module in manifest["modules"]:
        if isinstance(module, str):
            assert module.startswith("shared-modules/SDL2/"), module
            continue
        for source in module.get("sources", []):
            if "url" in source:
                assert source["url"].startswith("https://files.pythonhosted.org/"), source
                assert re.fullmatch(r"[0-9a-f]{64}", source["sha256"]), source
    tools_module = flatpak.module(manifest, "python3-build-tools")
    assert tools_module["cleanup"] == ["*"]  # build tools are not shipped
    args = manifest["finish-args"]
    for needed in ("--socket=wayland", "--socket=fallback-x11", "--socket=pulseaudio"):
        assert needed in args
    assert "--share=network" in args  # online play
    assert not [a for a in args if a.startswith("--filesystem")], args
    game = flatpak.module(manifest, flatpak.GAME_MODULE)
    assert game["sources"][0]["type"] == "dir"
    assert (flatpak.MANIFEST.parent / game["sources"][0]["path"]).resolve() == REPO
    commands = "\n".join(game["build-commands"])
    assert f"${{FLATPAK_DEST}}/bin/{manifest['command']}" in commands
    for path in re.findall(r"(?:packaging|assets)/[\w./${}*-]+", commands):
        path = path.replace("${FLATPAK_ID}", flatpak.APP_ID)
        assert list(REPO.glob(path)), path


def test_flatpak_desktop_entry_and_metainfo_validate(tmp_path: Path) -> None:
    """The manifest's own command renames the desktop entry; it and the metainfo pass the
    freedesktop validators."""
    manifest = flatpak.load_manifest()
    game = flatpak.module(manifest, flatpak.GAME_MODULE)
    (sed,) = [c for c in game["build-commands"] if c.startswith("sed ")]
    shutil.copytree(REPO / "packaging", tmp_path / "packaging")
    done = _run("bash", "-c", sed, cwd=tmp_path, env={**os.environ, "FLATPAK_ID": flatpak.APP_ID})
    assert done.returncode == 0, done.stderr
    desktop = (tmp_path / f"{flatpak.APP_ID}.desktop").read_text(encoding="utf-8")
    assert f"Icon={flatpak.APP_ID}\n" in desktop and "TryExec" not in desktop
    assert f"StartupWMClass={flatpak.APP_ID}\n" in desktop
    assert f"--env=SDL_VIDEO_X11_WMCLASS={flatpak.APP_ID}" in manifest["finish-args"]
    require(shutil.which("desktop-file-validate") is not None, "desktop-file-utils is missing")
    for entry in (tmp_path / f"{flatpak.APP_ID}.desktop", REPO / "packaging" / "briscola.desktop"):
        done = _run("desktop-file-validate", entry)
        assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr
    require(shutil.which("appstreamcli") is not None, "appstreamcli is missing (appstream)")
    submission = flatpak.write_submission(
        tmp_path / "flathub",
        repo_url="https://github.com/example/briscola",
        tag=version.tag_for(VERSION),
        commit="0" * 40,
    )
    for metainfo in (flatpak.METAINFO, submission[1]):
        done = _run("appstreamcli", "validate", "--no-net", metainfo)
        assert done.returncode == 0, done.stdout + done.stderr


def test_flathub_submission_builds_the_tag(tmp_path: Path) -> None:
    manifest_path, metainfo_path = flatpak.write_submission(
        tmp_path, repo_url="https://github.com/example/briscola", tag="v9.9", commit="ab" * 20
    )
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    git, overlay = flatpak.module(manifest, flatpak.GAME_MODULE)["sources"]
    assert git == {
        "type": "git",
        "url": "https://github.com/example/briscola.git",
        "tag": "v9.9",
        "commit": "ab" * 20,
    }
    assert overlay["path"] == metainfo_path.name and overlay["dest"] == "packaging/flatpak"
    assert manifest["modules"][:-1] == flatpak.load_manifest()["modules"][:-1]
    metainfo = metainfo_path.read_text(encoding="utf-8")
    assert '<url type="homepage">https://github.com/example/briscola</url>' in metainfo
    shots = re.findall(r"/v9\.9/(docs/screenshots/[\w-]+\.jpg)</image>", metainfo)
    assert len(shots) == len(flatpak.SCREENSHOTS)
    assert all((REPO / shot).is_file() for shot in shots)
    with pytest.raises(ValueError, match="commit"):
        flatpak.submission_manifest(manifest, repo_url="https://x", tag="v1", commit="abc")


# ----------------------------------------------------------------------------- the frozen build


@pytest.mark.slow
def test_frozen_check_of_an_existing_build(onedir: Build) -> None:
    """What the workflows run after ``pyinstaller build.spec``: the check of dist/."""
    done = _run(sys.executable, REPO / "tools" / "frozen_check.py", "--dist", onedir.dist, "--demo")
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^\d+ passed, 0 failed$", done.stdout, re.M), done.stdout
    assert "--demo --frames 600" in done.stdout
    missing = _run(sys.executable, REPO / "tools" / "frozen_check.py", "--dist", onedir.work)
    assert missing.returncode == 1 and "no build in" in missing.stderr


@pytest.mark.slow
def test_the_build_carries_the_version(onedir: Build, tmp_path: Path) -> None:
    assert onedir.bundle_root is not None
    bundled = onedir.bundle_root / version.BUNDLE_VERSION_FILE
    assert bundled.read_text(encoding="utf-8").strip() == VERSION
    assert not (onedir.bundle_root / "pyproject.toml").exists()
    (tmp_path / "cwd").mkdir()
    proc = frozen_check.run_app(
        onedir.executable,
        ["--version"],
        cwd=tmp_path / "cwd",
        env=frozen_check.headless_env(tmp_path / "home"),
    )
    assert proc.stdout.strip() == f"briscola {VERSION}", proc.stdout + proc.stderr
    resource = onedir.version_file.read_text(encoding="utf-8")
    assert f"StringStruct('FileVersion', {VERSION!r})" in resource


@pytest.fixture(scope="module")
def deb_package(onedir: Build, tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not LINUX:
        pytest.skip("a .deb is built on Linux")
    require(shutil.which("dpkg-deb") is not None, "dpkg-deb is missing (dpkg)")
    require(shutil.which("objdump") is not None, "objdump is missing (binutils)")
    started = time.perf_counter()
    path = deb.build_deb(
        onedir.executable.parent, tmp_path_factory.mktemp("deb"), version=VERSION, source=REPO
    )
    print(
        f"built {path.name}: {path.stat().st_size / 1e6:.1f} MB in "
        f"{time.perf_counter() - started:.1f} s"
    )
    return path


def _deb_names(path: Path) -> list[str]:
    """The paths the package installs, ``opt/briscola/...`` (its data tarball's names)."""
    data = subprocess.run(
        ["dpkg-deb", "--fsys-tarfile", str(path)], capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        return [name.removeprefix("./").rstrip("/") for name in archive.getnames() if name != "./"]


@pytest.mark.slow
def test_deb_metadata_and_files(deb_package: Path) -> None:
    assert deb_package.name == deb.deb_file_name(VERSION, deb.debian_architecture())
    fields = {}
    for field in ("Package", "Version", "Architecture", "Depends", "Section", "Installed-Size"):
        fields[field] = _run("dpkg-deb", "-f", deb_package, field).stdout.strip()
    assert fields["Package"] == "briscola"
    assert fields["Version"] == version.debian_version(VERSION)
    assert fields["Architecture"] == deb.debian_architecture()
    assert re.fullmatch(r"libc6 \(>= 2\.\d+\)(, [a-z0-9+.-]+)*", fields["Depends"])
    assert fields["Section"] == "games" and int(fields["Installed-Size"]) > 10_000
    names = _deb_names(deb_package)
    for wanted in (
        "opt/briscola/briscola",
        "opt/briscola/_internal/briscola/VERSION",
        "usr/bin/briscola",
        "usr/share/applications/briscola.desktop",
        "usr/share/icons/hicolor/48x48/apps/briscola.png",
        "usr/share/icons/hicolor/scalable/apps/briscola.svg",
        "usr/share/doc/briscola/copyright",
        "usr/share/doc/briscola/changelog.gz",
    ):
        assert wanted in names, wanted
    assert not [name for name in names if name.startswith(("etc", "var", "home", "usr/local"))]
    listing = _run("dpkg-deb", "--contents", deb_package).stdout
    assert re.search(
        r"^l\S+ root/root .* \./usr/bin/briscola -> /opt/briscola/briscola$", listing, re.M
    ), listing[:2000]
    assert not re.search(r"^\S+ (?!root/root)\S+ ", listing, re.M)


def _as_root() -> list[str] | None:
    """The prefix that runs a command as root: none for root, password-less sudo otherwise."""
    if os.geteuid() == 0:
        return []
    sudo = shutil.which("sudo")
    if sudo and _run(sudo, "-n", "true").returncode == 0:
        return [sudo, "-n"]
    return None


def _dpkg(root: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    """dpkg, waiting (up to two minutes) while another dpkg holds its lock."""
    deadline = time.monotonic() + 120
    while True:
        done = _run(*root, "dpkg", *args, env={**os.environ, "LC_ALL": "C"})
        if done.returncode == 0 or "lock" not in done.stderr or time.monotonic() > deadline:
            return done
        time.sleep(2)


@pytest.fixture()
def deb_installed(deb_package: Path) -> Iterator[tuple[Path, list[str]]]:
    """The package installed on this machine with ``dpkg -i``; purged afterwards, and then
    every path it installed that was not there before is gone."""
    root = _as_root()
    require(root is not None, "installing a .deb needs root or password-less sudo")
    assert root is not None
    status = _run("dpkg-query", "-W", "-f=${Status}", "briscola").stdout
    require("installed" not in status, "a briscola package is installed here: not replacing it")
    names = _deb_names(deb_package)
    before = {name for name in names if os.path.lexists("/" + name)}
    owned = [name for name in names if name not in before]
    require(
        "opt/briscola" in owned and "usr/bin/briscola" in owned,
        "/opt/briscola or /usr/bin/briscola exists already: not overwriting it",
    )
    done = _dpkg(root, "-i", str(deb_package))
    try:
        assert done.returncode == 0, done.stdout + done.stderr
        yield deb_package, owned
    finally:
        purged = _dpkg(root, "--purge", "briscola")
    assert purged.returncode == 0, purged.stdout + purged.stderr
    assert "installed" not in _run("dpkg-query", "-W", "-f=${Status}", "briscola").stdout
    left = [name for name in owned if os.path.lexists("/" + name)]
    assert left == [], left
    still = [name for name in before if not os.path.lexists("/" + name)]
    assert still == [], f"the purge removed what was there before: {still}"


@pytest.mark.slow
def test_deb_installs_runs_and_is_removed_cleanly(
    deb_installed: tuple[Path, list[str]], tmp_path: Path
) -> None:
    status = _run("dpkg-query", "-W", "-f=${Status} ${Version}", "briscola").stdout
    assert status == f"install ok installed {version.debian_version(VERSION)}"
    for name in deb_installed[1]:
        assert os.path.lexists("/" + name), name
    command = shutil.which("briscola", path="/usr/bin")
    assert command == "/usr/bin/briscola"
    assert os.path.realpath(command) == "/opt/briscola/briscola"
    cwd = tmp_path / "cwd"
    cwd.mkdir()

    def run(*args: str, home: str) -> subprocess.CompletedProcess[str]:
        return frozen_check.run_app(
            Path(command), args, cwd=cwd, env=frozen_check.headless_env(tmp_path / home)
        )

    shown = run("--version", home="home-version")
    assert shown.returncode == 0 and shown.stdout.strip() == f"briscola {VERSION}", shown
    checked = run("--self-check", home="home-check")
    assert checked.returncode == 0 and "result: OK" in checked.stdout, checked.stdout
    assert "assets in /opt/briscola/_internal/assets" in checked.stdout, checked.stdout
    demo = run("--demo", "--frames", "600", "--turbo", "--seed", "7", home="home-demo")
    assert demo.returncode == 0 and "Traceback" not in demo.stderr, demo.stdout + demo.stderr
    if shutil.which("desktop-file-validate"):
        done = _run("desktop-file-validate", "/usr/share/applications/briscola.desktop")
        assert done.returncode == 0 and not done.stdout.strip(), done.stdout
    with gzip.open("/usr/share/doc/briscola/changelog.gz", "rt", encoding="utf-8") as notes:
        assert f"## [{VERSION}]" in notes.read()


@pytest.mark.slow
def test_tarball_unpacks_runs_and_installs_into_a_temporary_home(
    onedir: Build, tmp_path: Path
) -> None:
    if not LINUX:
        pytest.skip("the tarball is the Linux download")
    tag = package.platform_tag()
    tarball = package.make_tarball(onedir.dist, tmp_path / "release", VERSION, tag, REPO)
    top = f"briscola-{VERSION}-{tag}"
    with tarfile.open(tarball) as archive:
        members = {m.name: m for m in archive.getmembers()}
    assert all(name == top or name.startswith(top + "/") for name in members)
    assert all(m.uname == "root" and m.uid == 0 for m in members.values())
    for name in ("install-linux.sh", "briscola/briscola"):
        assert members[f"{top}/{name}"].mode == 0o755, name
    links = [p for p in onedir.executable.parent.rglob("*") if p.is_symlink()]
    assert sum(m.issym() for m in members.values()) == len(links)
    assert f"{top}/briscola.desktop" in members and f"{top}/LICENSE" in members

    unpacked = tmp_path / "downloads"
    unpacked.mkdir()
    done = _run("tar", "-xzf", tarball, "-C", unpacked)
    assert done.returncode == 0, done.stderr
    folder = unpacked / top
    readme = (folder / "README.txt").read_text(encoding="utf-8")
    assert f"Briscola {VERSION}" in readme and "./install-linux.sh" in readme
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    env = frozen_check.headless_env(tmp_path / "briscola-home")
    played = frozen_check.run_app(folder / "briscola" / "briscola", ["--version"], cwd=cwd, env=env)
    assert played.stdout.strip() == f"briscola {VERSION}", played.stdout + played.stderr

    home = tmp_path / "user"
    home.mkdir()
    user_env = {**os.environ, "HOME": str(home)}
    user_env.pop("XDG_DATA_HOME", None)
    installed = _run("bash", folder / "install-linux.sh", env=user_env, cwd=cwd)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    command = home / ".local" / "bin" / "briscola"
    assert os.path.realpath(command) == str(home / ".local" / "opt" / "briscola" / "briscola")
    desktop = home / ".local" / "share" / "applications" / "briscola.desktop"
    assert f'Exec="{home}/.local/opt/briscola/briscola"' in desktop.read_text(encoding="utf-8")
    shown = frozen_check.run_app(command, ["--version"], cwd=cwd, env=env)
    assert shown.stdout.strip() == f"briscola {VERSION}", shown.stdout + shown.stderr
    demo = frozen_check.run_app(command, ["--demo", "--frames", "300", "--turbo"], cwd=cwd, env=env)
    assert demo.returncode == 0 and "Traceback" not in demo.stderr, demo.stdout + demo.stderr

    removed = _run("bash", folder / "install-linux.sh", "--uninstall", env=user_env, cwd=cwd)
    assert removed.returncode == 0, removed.stdout + removed.stderr
    left = [p for p in home.rglob("*") if p.is_file() or p.is_symlink()]
    assert [p.name for p in left if p.name != "mimeinfo.cache"] == []
