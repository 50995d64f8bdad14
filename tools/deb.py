"""Build the Debian package of the frozen onedir build with ``dpkg-deb``.

::

    python tools/deb.py --dist dist --out release     # release/briscola_0.1.0_amd64.deb

What the package installs (and ``dpkg -r briscola`` removes again):

* the onedir folder at ``/opt/briscola`` (the program ``/opt/briscola/briscola``);
* the launcher ``/usr/bin/briscola``, a link to it;
* the menu entry ``/usr/share/applications/briscola.desktop`` (packaging/briscola.desktop as it
  is: ``Exec=briscola``) and the icons under ``/usr/share/icons/hicolor``;
* ``/usr/share/doc/briscola/copyright`` (LICENSE and assets/LICENSES.md) and ``changelog.gz``.

No maintainer scripts: the menu and icon caches are refreshed by the triggers of
desktop-file-utils and hicolor-icon-theme. ``Depends`` is worked out from the build: the
libraries its ELF files need that it does not bundle (objdump, from binutils), with the newest
glibc symbol version they use as the lowest libc6 accepted. The package is built with
``--root-owner-group`` (no fakeroot needed) and xz compression, which every dpkg reads.
"""

from __future__ import annotations

import argparse
import gzip
import os
import platform
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:  # run as a script: python tools/deb.py
    sys.path.insert(0, str(REPO_ROOT))

from tools.version import debian_version, read_version  # noqa: E402

PACKAGE = "briscola"
#: Where the onedir folder is installed, and the launcher that links to its program.
INSTALL_DIR = "opt/briscola"
LAUNCHER = "usr/bin/briscola"
MAINTAINER = "Briscola developers <noreply@briscola.invalid>"
SUMMARY = "Briscola, the Italian trick-taking card game"
DESCRIPTION = """\
Play Briscola against the computer at three strengths, with friends on one
computer, or online, in every classic configuration: two or three players,
four or six in teams, Briscola Chiamata for five, Briscola scoperta and
Briscolone. A coach explains its hints and reviews each hand. Five decks:
Italian, Piacentine, Siciliane, Spanish and French. In English, Italian,
German and Spanish."""

#: Debian's name of each machine architecture Python reports.
ARCHITECTURES = {
    "x86_64": "amd64",
    "amd64": "amd64",
    "aarch64": "arm64",
    "arm64": "arm64",
    "armv7l": "armhf",
    "i686": "i386",
}

#: The package that provides each system library a build may leave out of its bundle. The C
#: library's parts all come from libc6; libstdc++ and libgcc_s are left out on purpose by
#: build.spec (the system's own must be used). Any other library missing from the bundle is an
#: error: it would need a dependency nobody has checked.
SYSTEM_LIBRARIES = {
    "libc.so.6": "libc6",
    "libm.so.6": "libc6",
    "libdl.so.2": "libc6",
    "libpthread.so.0": "libc6",
    "librt.so.1": "libc6",
    "libutil.so.1": "libc6",
    "libresolv.so.2": "libc6",
    "libanl.so.1": "libc6",
    "ld-linux-x86-64.so.2": "libc6",
    "ld-linux-aarch64.so.1": "libc6",
    "ld-linux-armhf.so.3": "libc6",
    "ld-linux.so.2": "libc6",
    "libstdc++.so.6": "libstdc++6",
    "libgcc_s.so.1": "libgcc-s1",
}

_GLIBC = re.compile(r"\bGLIBC_(\d+(?:\.\d+)+)\b")


class DebError(RuntimeError):
    """The package cannot be built (a tool or a file is missing, an unknown library)."""


def debian_architecture(machine: str | None = None) -> str:
    machine = (machine or platform.machine()).lower()
    try:
        return ARCHITECTURES[machine]
    except KeyError:
        raise DebError(f"no Debian architecture known for {machine!r}") from None


def deb_file_name(version: str, arch: str) -> str:
    """Debian's naming: ``briscola_0.1.0_amd64.deb``."""
    return f"{PACKAGE}_{debian_version(version)}_{arch}.deb"


def elf_files(root: Path) -> list[Path]:
    """The ELF files (programs and libraries) under ``root``, links not followed."""
    found = []
    for path in sorted(root.rglob("*")):
        if path.is_symlink() or not path.is_file():
            continue
        with path.open("rb") as handle:
            if handle.read(4) == b"\x7fELF":
                found.append(path)
    return found


def _objdump(files: Sequence[Path]) -> str:
    objdump = shutil.which("objdump")
    if objdump is None:
        raise DebError("objdump is missing (Debian/Ubuntu: apt-get install binutils)")
    chunks = []
    for start in range(0, len(files), 100):
        proc = subprocess.run(
            [objdump, "-p", *map(str, files[start : start + 100])],
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            raise DebError(f"objdump -p failed: {proc.stderr.strip()}")
        chunks.append(proc.stdout)
    return "\n".join(chunks)


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def system_dependencies(onedir: Path) -> list[str]:
    """The ``Depends`` of the onedir build: one entry per system package its ELF files need,
    libc6 with the newest glibc symbol version used as its lowest version.

    DebError when a needed library is neither bundled nor in :data:`SYSTEM_LIBRARIES`."""
    files = elf_files(onedir)
    if not files:
        raise DebError(f"no ELF files in {onedir}: not a Linux build")
    dump = _objdump(files)
    needed = {
        line.split()[1]
        for line in dump.splitlines()
        if line.strip().startswith("NEEDED") and len(line.split()) == 2
    }
    bundled = {path.name for path in onedir.rglob("*")}
    outside = sorted(needed - bundled)
    unknown = [name for name in outside if name not in SYSTEM_LIBRARIES]
    if unknown:
        raise DebError(
            "the build needs system libraries with no known package: " + ", ".join(unknown)
        )
    packages = {SYSTEM_LIBRARIES[name] for name in outside}
    depends = []
    for package in sorted(packages):
        if package == "libc6":
            versions = sorted(set(_GLIBC.findall(dump)), key=_version_key)
            if versions:
                depends.append(f"libc6 (>= {versions[-1]})")
                continue
        depends.append(package)
    return depends


def installed_size_kib(root: Path) -> int:
    """What dpkg shows as Installed-Size: each file rounded up to a KiB, 1 KiB for each folder
    and link; DEBIAN/ is not counted."""
    total = 0
    for path in root.rglob("*"):
        if path.relative_to(root).parts[0] == "DEBIAN":
            continue
        if path.is_file() and not path.is_symlink():
            total += (path.stat().st_size + 1023) // 1024
        else:
            total += 1
    return total


def control_text(
    version: str,
    arch: str,
    installed_size: int,
    depends: Iterable[str],
    maintainer: str = MAINTAINER,
) -> str:
    """The ``DEBIAN/control`` file."""
    description = "\n".join(
        " " + line if line.strip() else " ." for line in DESCRIPTION.splitlines()
    )
    fields = [
        ("Package", PACKAGE),
        ("Version", debian_version(version)),
        ("Architecture", arch),
        ("Maintainer", maintainer),
        ("Installed-Size", str(installed_size)),
        ("Depends", ", ".join(depends)),
        ("Section", "games"),
        ("Priority", "optional"),
        ("Description", SUMMARY + "\n" + description),
    ]
    return "".join(f"{name}: {value}\n" for name, value in fields if value)


def _normalise_modes(root: Path) -> None:
    """Folders 0755, files 0755 when anybody may run them, else 0644 (as Debian wants)."""
    for path in [root, *root.rglob("*")]:
        if path.is_symlink():
            continue
        mode = path.stat().st_mode
        if path.is_dir() or mode & (stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH):
            path.chmod(0o755)
        else:
            path.chmod(0o644)


def stage(onedir: Path, root: Path, source: Path = REPO_ROOT) -> None:
    """Lay out the package's files under ``root`` (without DEBIAN/)."""
    program = onedir / PACKAGE
    icons = onedir / "_internal" / "assets" / "icon"
    if not program.is_file() or not icons.is_dir():
        raise DebError(f"{onedir} is not a onedir build of Briscola (no {program} or {icons})")
    shutil.copytree(onedir, root / INSTALL_DIR, symlinks=True)
    launcher = root / LAUNCHER
    launcher.parent.mkdir(parents=True)
    launcher.symlink_to("/" + INSTALL_DIR + "/" + PACKAGE)
    share = root / "usr" / "share"
    (share / "applications").mkdir(parents=True)
    shutil.copyfile(
        source / "packaging" / "briscola.desktop", share / "applications" / "briscola.desktop"
    )
    hicolor = share / "icons" / "hicolor"
    for png in sorted(icons.glob("icon-*.png")):
        size = png.stem.removeprefix("icon-")
        folder = hicolor / f"{size}x{size}" / "apps"
        folder.mkdir(parents=True)
        shutil.copyfile(png, folder / f"{PACKAGE}.png")
    if (icons / "briscola.svg").is_file():
        (hicolor / "scalable" / "apps").mkdir(parents=True)
        shutil.copyfile(icons / "briscola.svg", hicolor / "scalable" / "apps" / "briscola.svg")
    doc = share / "doc" / PACKAGE
    doc.mkdir(parents=True)
    notices = [source / "LICENSE", source / "assets" / "LICENSES.md"]
    (doc / "copyright").write_text(
        "\n\n".join(path.read_text(encoding="utf-8").strip() for path in notices) + "\n",
        encoding="utf-8",
    )
    changelog = (source / "CHANGELOG.md").read_bytes()
    with gzip.GzipFile(doc / "changelog.gz", "wb", compresslevel=9, mtime=0) as handle:
        handle.write(changelog)
    _normalise_modes(root)


def build_deb(
    onedir: Path,
    out_dir: Path,
    *,
    version: str | None = None,
    arch: str | None = None,
    source: Path = REPO_ROOT,
    maintainer: str = MAINTAINER,
) -> Path:
    """Build the package of ``onedir`` into ``out_dir``; the path of the ``.deb``."""
    dpkg_deb = shutil.which("dpkg-deb")
    if dpkg_deb is None:
        raise DebError("dpkg-deb is missing (it comes with dpkg, on Debian and Ubuntu)")
    version = version or read_version(source)
    arch = arch or debian_architecture()
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / deb_file_name(version, arch)
    with tempfile.TemporaryDirectory(prefix="briscola-deb-") as tmp:
        root = Path(tmp) / "root"
        root.mkdir()
        stage(onedir, root, source)
        depends = system_dependencies(root / INSTALL_DIR)
        (root / "DEBIAN").mkdir(mode=0o755)
        (root / "DEBIAN" / "control").write_text(
            control_text(version, arch, installed_size_kib(root), depends, maintainer),
            encoding="utf-8",
        )
        (root / "DEBIAN" / "control").chmod(0o644)
        proc = subprocess.run(
            [dpkg_deb, "--root-owner-group", "-Zxz", "--build", str(root), str(out)],
            capture_output=True,
            text=True,
            env={**os.environ, "LC_ALL": "C"},
            check=False,
        )
        if proc.returncode != 0:
            raise DebError(f"dpkg-deb failed: {proc.stderr.strip() or proc.stdout.strip()}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the .deb of the onedir build.")
    parser.add_argument("--dist", type=Path, default=Path("dist"), help="PyInstaller's dist")
    parser.add_argument("--out", type=Path, default=Path("release"), help="where the .deb goes")
    parser.add_argument("--arch", help="Debian architecture (default: this machine's)")
    parser.add_argument("--maintainer", default=MAINTAINER)
    args = parser.parse_args(argv)
    try:
        path = build_deb(args.dist / PACKAGE, args.out, arch=args.arch, maintainer=args.maintainer)
    except DebError as exc:
        print(f"deb: {exc}", file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
