"""Turn the frozen onedir build into what a player downloads (docs/building.md, "Releases").

``pyinstaller build.spec`` leaves the build in ``dist/``; each command reads it from there
(``--dist``) and writes into ``release/`` (``--out``), printing the path of what it made::

    python tools/package.py zip        # Windows: Briscola-0.1.0-windows-x64.zip
    python tools/package.py installer  # Windows: Briscola-0.1.0-windows-x64-setup.exe (Inno Setup)
    python tools/package.py dmg        # macOS:   Briscola-0.1.0-macos-arm64.dmg (hdiutil)
    python tools/package.py tarball    # Linux:   briscola-0.1.0-linux-x86_64.tar.gz
    python tools/package.py deb        # Linux:   briscola_0.1.0_amd64.deb (tools/deb.py)
    python tools/package.py checksums release   # release/SHA256SUMS of every file there

The version is pyproject.toml's; the platform part of the names is this machine's
(``--platform`` to name another). The archives are reproducible: sorted entries, owner root,
and times clamped to ``SOURCE_DATE_EPOCH`` when it is set.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:  # run as a script: python tools/package.py
    sys.path.insert(0, str(REPO_ROOT))

from tools import deb  # noqa: E402
from tools.version import read_version  # noqa: E402
from tools.win_version import version_numbers  # noqa: E402

APP = "briscola"
MAC_APP = "Briscola.app"
ISS = REPO_ROOT / "packaging" / "windows" / "briscola.iss"
CHECKSUMS = "SHA256SUMS"

#: What the tarball tells a player (README.txt at its top).
TARBALL_README = """\
Briscola {version} for Linux ({platform})

Play without installing:
    ./briscola/briscola

Add it to the applications menu, with its icon, for you only (nothing needs root):
    ./install-linux.sh
It copies the game to ~/.local/opt/briscola and links ~/.local/bin/briscola.
Remove it again with:
    ./install-linux.sh --uninstall
For every user of this computer: sudo ./install-linux.sh --system

Needs glibc 2.35 or newer (Ubuntu 22.04, Debian 12, Fedora 36 and later).
Your settings and statistics stay in ~/.config/briscola and ~/.local/share/briscola.
"""


class PackageError(RuntimeError):
    """Something a package needs is missing."""


def platform_tag(system: str | None = None, machine: str | None = None) -> str:
    """The platform part of the download names: ``windows-x64``, ``macos-arm64``,
    ``macos-x86_64``, ``linux-x86_64``, ``linux-aarch64``."""
    system = (system or sys.platform).lower()
    machine = (machine or platform.machine()).lower()
    machine = {"amd64": "x86_64", "x64": "x86_64", "aarch64": "arm64"}.get(machine, machine)
    if system.startswith("win"):
        return "windows-" + {"x86_64": "x64"}.get(machine, machine)
    if system == "darwin":
        return "macos-" + machine
    if system.startswith("linux"):
        return "linux-" + {"arm64": "aarch64"}.get(machine, machine)
    raise PackageError(f"no download name for {system}/{machine}")


def onedir_of(dist: Path) -> Path:
    """The onedir folder in ``dist``; PackageError when it is not a build."""
    folder = dist / APP
    exe = APP + (".exe" if (folder / (APP + ".exe")).is_file() else "")
    if not (folder / exe).is_file() or not (folder / "_internal").is_dir():
        raise PackageError(f"no onedir build in {dist} (run pyinstaller build.spec first)")
    return folder


def source_date_epoch() -> int | None:
    value = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    return int(value) if value else None


class _Writing:
    """Write ``target`` through ``target.part``, renamed once complete: a failure leaves no
    half-written download behind."""

    def __init__(self, target: Path) -> None:
        self.target = target
        self.part = target.with_name(target.name + ".part")

    def __enter__(self) -> Path:
        self.part.unlink(missing_ok=True)
        return self.part

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if error is None:
            self.part.replace(self.target)
        else:
            self.part.unlink(missing_ok=True)


def _entries(root: Path) -> list[Path]:
    """Everything under ``root``, sorted, links not followed."""
    return sorted(root.rglob("*"), key=lambda p: p.relative_to(root).as_posix())


# ----------------------------------------------------------------------------- Windows


def zip_name(version: str, tag: str) -> str:
    return f"Briscola-{version}-{tag}.zip"


def make_zip(dist: Path, out: Path, version: str, tag: str) -> Path:
    """The onedir folder as ``Briscola/`` in a zip (Windows has no links to keep)."""
    folder = onedir_of(dist)
    out.mkdir(parents=True, exist_ok=True)
    target = out / zip_name(version, tag)
    epoch = source_date_epoch()
    with (
        _Writing(target) as part,
        zipfile.ZipFile(part, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive,
    ):
        for path in _entries(folder):
            if path.is_symlink():
                raise PackageError(f"a zip cannot keep the link {path}")
            name = "Briscola/" + path.relative_to(folder).as_posix()
            mtime = path.stat().st_mtime if epoch is None else min(path.stat().st_mtime, epoch)
            stamp = time.gmtime(max(mtime, 315532800))[:6]  # zip times start in 1980
            if path.is_dir():
                info = zipfile.ZipInfo(name + "/", date_time=stamp)
                info.external_attr = (0o40755 << 16) | 0x10
                archive.writestr(info, b"")
            else:
                info = zipfile.ZipInfo(name, date_time=stamp)
                info.external_attr = (0o100755 if os.access(path, os.X_OK) else 0o100644) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                with path.open("rb") as src, archive.open(info, "w") as dst:
                    shutil.copyfileobj(src, dst, 1 << 20)
    return target


def installer_name(version: str, tag: str) -> str:
    return f"Briscola-{version}-{tag}-setup"


def find_iscc() -> Path:
    """Inno Setup's compiler: on PATH, or where its installer (or Chocolatey) puts it."""
    found = shutil.which("iscc") or shutil.which("ISCC")
    if found:
        return Path(found)
    for variable in ("ProgramFiles(x86)", "ProgramFiles", "LOCALAPPDATA"):
        base = os.environ.get(variable)
        if not base:
            continue
        for sub in ("Inno Setup 6", os.path.join("Programs", "Inno Setup 6")):
            candidate = Path(base) / sub / "ISCC.exe"
            if candidate.is_file():
                return candidate
    raise PackageError("Inno Setup 6 is not installed (choco install innosetup)")


def iscc_command(
    iscc: Path, dist: Path, out: Path, version: str, tag: str, script: Path = ISS
) -> list[str]:
    """The ISCC command line: everything that changes between releases is passed in."""
    numeric = ".".join(str(n) for n in version_numbers(version))
    return [
        str(iscc),
        "/Qp",
        f"/DAppVersion={version}",
        f"/DAppVersionNumeric={numeric}",
        f"/DBuildDir={onedir_of(dist).resolve()}",
        f"/DOutputDir={out.resolve()}",
        f"/DOutputBaseName={installer_name(version, tag)}",
        str(script.resolve()),
    ]


def make_installer(dist: Path, out: Path, version: str, tag: str) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    command = iscc_command(find_iscc(), dist, out, version, tag)
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    target = out / (installer_name(version, tag) + ".exe")
    if proc.returncode != 0 or not target.is_file():
        raise PackageError(f"ISCC failed (exit {proc.returncode}):\n{proc.stdout}{proc.stderr}")
    return target


# ----------------------------------------------------------------------------- macOS


def dmg_name(version: str, tag: str) -> str:
    return f"Briscola-{version}-{tag}.dmg"


def stage_dmg(dist: Path, stage: Path) -> Path:
    """The disk image's contents: ``Briscola.app`` and a link to ``/Applications`` to drag it
    onto. ``ditto`` copies the app where it exists (macOS: it keeps signatures, extended
    attributes and links)."""
    app = dist / MAC_APP
    if not (app / "Contents" / "MacOS" / APP).is_file():
        raise PackageError(f"no {MAC_APP} in {dist} (pyinstaller build.spec on macOS makes it)")
    if stage.exists():
        shutil.rmtree(stage)
    stage.mkdir(parents=True)
    ditto = shutil.which("ditto")
    if ditto:
        subprocess.run([ditto, str(app), str(stage / MAC_APP)], check=True)
    else:
        shutil.copytree(app, stage / MAC_APP, symlinks=True)
    (stage / "Applications").symlink_to("/Applications")
    return stage


def hdiutil_command(stage: Path, target: Path, version: str) -> list[str]:
    return [
        "hdiutil",
        "create",
        "-volname",
        f"Briscola {version}",
        "-srcfolder",
        str(stage),
        "-fs",
        "HFS+",
        "-format",
        "UDZO",
        "-ov",
        str(target),
    ]


def make_dmg(dist: Path, out: Path, version: str, tag: str) -> Path:
    if shutil.which("hdiutil") is None:
        raise PackageError("hdiutil is missing: a .dmg is made on macOS")
    out.mkdir(parents=True, exist_ok=True)
    target = out / dmg_name(version, tag)
    stage = stage_dmg(dist, out / "dmg-stage")
    try:
        subprocess.run(hdiutil_command(stage, target, version), check=True)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return target


# ----------------------------------------------------------------------------- Linux


def tarball_name(version: str, tag: str) -> str:
    return f"briscola-{version}-{tag}.tar.gz"


def make_tarball(dist: Path, out: Path, version: str, tag: str, source: Path = REPO_ROOT) -> Path:
    """``briscola-VERSION-PLATFORM/`` with the onedir build as ``briscola/``, the install
    script and its desktop entry (packaging/), LICENSE and README.txt."""
    folder = onedir_of(dist)
    out.mkdir(parents=True, exist_ok=True)
    target = out / tarball_name(version, tag)
    top = target.name.removesuffix(".tar.gz")
    epoch = source_date_epoch()

    def normalise(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = 0
        info.uname = info.gname = "root"
        if epoch is not None:
            info.mtime = min(int(info.mtime), epoch)
        if not info.issym():
            executable = info.isdir() or info.mode & 0o111
            info.mode = 0o755 if executable else 0o644
        return info

    extras = {
        "install-linux.sh": source / "packaging" / "install-linux.sh",
        "briscola.desktop": source / "packaging" / "briscola.desktop",
        "LICENSE": source / "LICENSE",
    }
    readme = TARBALL_README.format(version=version, platform=tag).encode("utf-8")
    gz_mtime = epoch if epoch is not None else int(time.time())
    with (
        _Writing(target) as part,
        part.open("wb") as raw,
        gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=gz_mtime) as compressed,
        tarfile.open(fileobj=compressed, mode="w", format=tarfile.PAX_FORMAT) as archive,
    ):
        archive.add(folder.parent, arcname=top, recursive=False, filter=normalise)
        archive.add(folder, arcname=f"{top}/{APP}", recursive=False, filter=normalise)
        for path in _entries(folder):
            name = f"{top}/{APP}/{path.relative_to(folder).as_posix()}"
            archive.add(path, arcname=name, recursive=False, filter=normalise)
        for name, path in sorted(extras.items()):
            archive.add(path, arcname=f"{top}/{name}", filter=normalise)
        info = tarfile.TarInfo(f"{top}/README.txt")
        info.size = len(readme)
        info.mtime = gz_mtime
        archive.addfile(normalise(info), io.BytesIO(readme))
    return target


# ----------------------------------------------------------------------------- checksums


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_checksums(files: Iterable[Path], out: Path) -> Path:
    """``SHA256SUMS`` in the format of ``sha256sum`` (``sha256sum -c SHA256SUMS`` checks it)."""
    lines = [f"{sha256_of(path)}  {path.name}\n" for path in sorted(files, key=lambda p: p.name)]
    names = [line.split("  ", 1)[1] for line in lines]
    if len(set(names)) != len(names):
        raise PackageError("two files of the same name: " + ", ".join(names))
    out.write_text("".join(lines), encoding="utf-8", newline="\n")
    return out


def verify_checksums(sums: Path) -> list[str]:
    """The names in ``sums`` whose file (next to it) is missing or different."""
    bad = []
    for line in sums.read_text(encoding="utf-8").splitlines():
        digest, name = line.split("  ", 1)
        path = sums.parent / name
        if not path.is_file() or sha256_of(path) != digest:
            bad.append(name)
    return bad


# ----------------------------------------------------------------------------- command line


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Package the frozen build for players.")
    parser.add_argument(
        "kind", choices=["zip", "installer", "dmg", "tarball", "deb", "checksums"], help="what"
    )
    parser.add_argument("folder", nargs="?", type=Path, help="checksums: the folder to sum")
    parser.add_argument("--dist", type=Path, default=Path("dist"), help="PyInstaller's dist")
    parser.add_argument("--out", type=Path, default=Path("release"), help="default: release/")
    parser.add_argument("--platform", help="the platform part of the names (default: this one)")
    args = parser.parse_args(argv)
    try:
        if args.kind == "checksums":
            folder = args.folder or args.out
            files = [p for p in folder.iterdir() if p.is_file() and p.name != CHECKSUMS]
            if not files:
                raise PackageError(f"nothing to sum in {folder}")
            print(write_checksums(files, folder / CHECKSUMS))
            return 0
        version = read_version()
        tag = args.platform or platform_tag()
        if args.kind == "zip":
            made = make_zip(args.dist, args.out, version, tag)
        elif args.kind == "installer":
            made = make_installer(args.dist, args.out, version, tag)
        elif args.kind == "dmg":
            made = make_dmg(args.dist, args.out, version, tag)
        elif args.kind == "tarball":
            made = make_tarball(args.dist, args.out, version, tag)
        else:
            made = deb.build_deb(onedir_of(args.dist), args.out, version=version)
    except (PackageError, deb.DebError, subprocess.CalledProcessError) as exc:
        print(f"package {args.kind}: {exc}", file=sys.stderr)
        return 1
    print(made)
    return 0


if __name__ == "__main__":
    sys.exit(main())
