"""Write a macOS ``.icns`` icon from the PNG icons in ``assets/icon/`` (stdlib only).

Run ``python -m tools.make_icns [--out FILE]`` from the repository root; ``build.spec`` calls
:func:`write_icns` itself when building on macOS, into PyInstaller's work folder, so no
``.icns`` is kept in the repository.

An ICNS file is a big-endian container: the magic ``icns`` and the total length, then one
entry per image, each a 4-character type, its length (header included) and the data. Since
macOS 10.7 every entry may hold a PNG file as it is, which is what is written here. A PNG used
for a Retina ("@2x") type serves both its own size and the half size at double density.
"""

from __future__ import annotations

import argparse
import struct
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
ICON_DIR = REPO_ROOT / "assets" / "icon"

#: ICNS entry types holding a PNG, keyed by the pixel size of the PNG they hold.
ICNS_TYPES: Mapping[int, tuple[str, ...]] = {
    16: ("icp4",),  # 16x16
    32: ("icp5", "ic11"),  # 32x32, 16x16@2x
    64: ("icp6", "ic12"),  # 64x64, 32x32@2x
    128: ("ic07",),  # 128x128
    256: ("ic08", "ic13"),  # 256x256, 128x128@2x
    512: ("ic09", "ic14"),  # 512x512, 256x256@2x
    1024: ("ic10",),  # 512x512@2x
}

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG file (from its IHDR chunk)."""
    if not data.startswith(PNG_SIGNATURE) or data[12:16] != b"IHDR":
        raise ValueError("not a PNG file")
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def icns_bytes(pngs: Iterable[bytes]) -> bytes:
    """An ICNS container holding ``pngs`` (square PNGs of the sizes in :data:`ICNS_TYPES`;
    other sizes are skipped)."""
    entries: list[bytes] = []
    for data in pngs:
        width, height = png_size(data)
        if width != height:
            raise ValueError(f"icon PNG is not square: {width}x{height}")
        for kind in ICNS_TYPES.get(width, ()):
            entries.append(kind.encode("ascii") + struct.pack(">I", 8 + len(data)) + data)
    if not entries:
        raise ValueError("no PNG of a size an ICNS file can hold")
    body = b"".join(entries)
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def read_icns(data: bytes) -> dict[str, bytes]:
    """The entries of an ICNS file, by type (used by the tests)."""
    if data[:4] != b"icns" or struct.unpack(">I", data[4:8])[0] != len(data):
        raise ValueError("not an ICNS file")
    entries: dict[str, bytes] = {}
    offset = 8
    while offset < len(data):
        kind = data[offset : offset + 4].decode("ascii")
        (length,) = struct.unpack(">I", data[offset + 4 : offset + 8])
        if length < 8 or offset + length > len(data):
            raise ValueError(f"bad ICNS entry {kind!r}")
        entries[kind] = data[offset + 8 : offset + length]
        offset += length
    return entries


def write_icns(out: Path, icon_dir: Path = ICON_DIR) -> Path:
    """Write ``out`` from the ``icon-<size>.png`` files in ``icon_dir``; returns ``out``."""
    pngs = sorted((path.read_bytes() for path in icon_dir.glob("icon-*.png")), key=png_size)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(icns_bytes(pngs))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--icons", type=Path, default=ICON_DIR, help="folder of icon-*.png")
    parser.add_argument("--out", type=Path, default=Path("briscola.icns"), help="file to write")
    args = parser.parse_args(argv)
    path = write_icns(args.out, args.icons)
    kinds = ", ".join(read_icns(path.read_bytes()))
    print(f"wrote {path} ({path.stat().st_size} bytes: {kinds})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
