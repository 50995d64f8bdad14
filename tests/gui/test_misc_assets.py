"""Fonts, table textures and the application icon in assets/: present, usable, reproducible."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import io
import itertools
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pygame
import pytest

from tools import gen_icon, gen_table

ROOT = Path(__file__).resolve().parents[2]
FONT_DIR = ROOT / "assets" / "fonts"
TABLE_DIR = ROOT / "assets" / "table"
ICON_DIR = ROOT / "assets" / "icon"

FONTS = ("Lato-Regular.ttf", "Lato-Bold.ttf")
SAMPLE = "àèéìòù ÀÈÉ äöüß ÄÖÜ ñÑ ¿¡ çÇ Perché già così? Größe! ¿Mañana? ¡Olé! Ça va"
MISSING_GLYPH = "\uffff"  # a noncharacter: no font has it, so it renders as .notdef
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


pytestmark = pytest.mark.usefixtures("pygame_running")


def pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGBA")


# --------------------------------------------------------------------------- fonts


def test_font_licence_is_shipped() -> None:
    text = (FONT_DIR / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in text
    assert "Lato" in text


@pytest.mark.parametrize("name", FONTS)
def test_font_renders_accented_text(name: str) -> None:
    font = pygame.font.Font(str(FONT_DIR / name), 24)
    line = font.render(SAMPLE, True, (255, 255, 255))
    assert line.get_width() > 300 and line.get_height() > 10
    notdef = pixels(font.render(MISSING_GLYPH, True, (255, 255, 255)))
    for ch in sorted(set(SAMPLE) - {" "}):
        width = font.size(ch)[0]
        assert width > 0, f"{name}: {ch!r} has no width"
        glyph = font.render(ch, True, (255, 255, 255))
        assert pixels(glyph) != notdef, f"{name}: {ch!r} renders as a missing-glyph box"
        assert pygame.mask.from_surface(glyph).count() > 0, f"{name}: {ch!r} is blank"


@pytest.mark.parametrize("name", FONTS)
def test_font_tells_accented_letters_apart(name: str) -> None:
    font = pygame.font.Font(str(FONT_DIR / name), 24)
    for plain, accented in (("n", "ñ"), ("a", "à"), ("e", "é"), ("o", "ö"), ("c", "ç")):
        a = font.render(plain, True, (255, 255, 255))
        b = font.render(accented, True, (255, 255, 255))
        assert pixels(a) != pixels(b)


def test_bold_is_bolder_than_regular() -> None:
    regular = pygame.font.Font(str(FONT_DIR / FONTS[0]), 24)
    bold = pygame.font.Font(str(FONT_DIR / FONTS[1]), 24)
    ink_regular = pygame.mask.from_surface(regular.render(SAMPLE, True, (255, 255, 255))).count()
    ink_bold = pygame.mask.from_surface(bold.render(SAMPLE, True, (255, 255, 255))).count()
    assert ink_bold > ink_regular * 1.1


# --------------------------------------------------------------------------- table


def wrap_and_neighbour_differences(surface: pygame.Surface) -> dict[str, tuple[float, float]]:
    """Per axis: (mean colour difference across the wrap, mean difference between neighbours).

    "x" compares the last column with the first (and column x with x + 1 inside the image),
    "y" the last row with the first (and row y with y + 1). Unrelated columns or rows of these
    textures differ about twice as much as neighbours, so a real seam stands out clearly.
    """
    w, h = surface.get_size()
    data = pygame.image.tobytes(surface, "RGB")

    def diff(i: int, j: int) -> float:
        return (
            abs(data[i] - data[j]) + abs(data[i + 1] - data[j + 1]) + abs(data[i + 2] - data[j + 2])
        ) / 3

    def at(x: int, y: int) -> int:
        return 3 * (y * w + x)

    step = 2  # every other line along the axis is plenty for a mean
    x_wrap = sum(diff(at(w - 1, y), at(0, y)) for y in range(h)) / h
    x_inner = [diff(at(x, y), at(x + 1, y)) for y in range(0, h, step) for x in range(w - 1)]
    y_wrap = sum(diff(at(x, h - 1), at(x, 0)) for x in range(w)) / w
    y_inner = [diff(at(x, y), at(x, y + 1)) for y in range(h - 1) for x in range(0, w, step)]
    return {
        "x": (x_wrap, sum(x_inner) / len(x_inner)),
        "y": (y_wrap, sum(y_inner) / len(y_inner)),
    }


@pytest.mark.parametrize("name", ["felt", "wood"])
def test_table_texture_tiles_seamlessly(name: str) -> None:
    surface = pygame.image.load(str(TABLE_DIR / f"{name}.png"))
    assert surface.get_size() == (512, 512)
    for axis, (wrap, inner) in wrap_and_neighbour_differences(surface).items():
        assert inner > 0.3, f"{name} looks like a flat fill along {axis}"
        assert wrap < 1.5 * inner + 0.25, f"{name}: seam along {axis} ({wrap:.2f} vs {inner:.2f})"


def test_seam_check_catches_a_seam() -> None:
    """A crop that does not tile must fail the criterion used above (the test has teeth)."""
    felt = pygame.image.load(str(TABLE_DIR / "felt.png")).subsurface((0, 0, 300, 300)).copy()
    for axis, (wrap, inner) in wrap_and_neighbour_differences(felt).items():
        assert wrap >= 1.5 * inner + 0.25, f"{axis}: {wrap:.2f} vs {inner:.2f}"


def test_table_texture_colours() -> None:
    felt = pygame.transform.average_color(pygame.image.load(str(TABLE_DIR / "felt.png")))
    assert felt[1] > felt[0] + 30 and felt[1] > felt[2] + 20, felt  # green
    wood = pygame.transform.average_color(pygame.image.load(str(TABLE_DIR / "wood.png")))
    assert wood[0] > wood[1] > wood[2], wood  # warm brown


def test_vignette_is_a_soft_radial_alpha() -> None:
    vignette = pygame.image.load(str(TABLE_DIR / "vignette.png"))
    assert vignette.get_size() == (256, 256)
    assert vignette.get_flags() & pygame.SRCALPHA or vignette.get_alpha() is not None
    alpha = [vignette.get_at((x, x)).a for x in range(0, 128, 8)]  # corner towards the centre
    assert alpha[0] > 100
    assert vignette.get_at((128, 128)).a < 5
    assert all(a >= b - 1 for a, b in itertools.pairwise(alpha))
    assert vignette.get_at((0, 0))[:3] == (0, 0, 0)


@pytest.mark.slow
def test_table_generator_reproduces_the_committed_files(tmp_path: Path) -> None:
    """One fresh run must give the committed pixels: the committed files came from an earlier,
    separate run, so this checks determinism across processes (a second run here would only
    double the ~5 s cost). PNG bytes are also identical with the same pygame/libpng."""
    fresh = gen_table.generate(tmp_path, preview=tmp_path / "preview.png")
    committed = {name: TABLE_DIR / f"{name}.png" for name in ("felt", "wood", "vignette")}
    committed["preview"] = ROOT / "docs" / "art-table.png"
    for name, path in committed.items():
        new, old = pygame.image.load(str(fresh[name])), pygame.image.load(str(path))
        assert new.get_size() == old.get_size(), name
        assert pixels(new) == pixels(old), f"{path.name} is stale: run python -m tools.gen_table"


# --------------------------------------------------------------------------- icon


@pytest.mark.parametrize("size", gen_icon.PNG_SIZES)
def test_icon_png_sizes(size: int) -> None:
    icon = pygame.image.load(str(ICON_DIR / f"icon-{size}.png"))
    assert icon.get_size() == (size, size)
    assert icon.get_flags() & pygame.SRCALPHA
    assert icon.get_at((0, 0)).a < 60  # rounded corner: transparent
    assert icon.get_at((size // 2, size // 2)).a == 255
    assert icon.get_at((size // 2, size - 2)).a == 255


def test_icon_sizes_cover_the_brief() -> None:
    assert gen_icon.PNG_SIZES == (16, 32, 48, 64, 128, 256, 512)


def test_ico_container() -> None:
    data = (ICON_DIR / "briscola.ico").read_bytes()
    reserved, kind, count = struct.unpack_from("<HHH", data, 0)
    assert (reserved, kind, count) == (0, 1, 4)
    sizes = []
    for k in range(count):
        w, h, colours, res, planes, bpp, length, offset = struct.unpack_from(
            "<BBBBHHII", data, 6 + 16 * k
        )
        size = w or 256
        assert (h or 256) == size and colours == 0 and res == 0
        assert planes == 1 and bpp == 32
        assert offset + length <= len(data)
        blob = data[offset : offset + length]
        assert blob.startswith(PNG_SIGNATURE)
        image = pygame.image.load(io.BytesIO(blob), "entry.png")
        assert image.get_size() == (size, size)
        assert blob == (ICON_DIR / f"icon-{size}.png").read_bytes()
        sizes.append(size)
    assert sizes == [16, 32, 48, 256]


def test_svg_icon_parses() -> None:
    root = ET.parse(ICON_DIR / "briscola.svg").getroot()
    assert root.tag.endswith("svg")
    assert root.get("viewBox") == "0 0 512 512"
    assert len(list(root.iter())) > 10


def test_icon_generator_is_deterministic(tmp_path: Path) -> None:
    first = gen_icon.generate(tmp_path / "a")
    second = gen_icon.generate(tmp_path / "b")
    assert set(first) == set(second)
    for name, path in first.items():
        assert path.read_bytes() == second[name].read_bytes(), name
        committed = ICON_DIR / name
        if name.endswith(".png"):
            assert pixels(pygame.image.load(str(path))) == pixels(
                pygame.image.load(str(committed))
            ), f"{name} is stale: run python -m tools.gen_icon"
        else:
            assert path.read_bytes() == committed.read_bytes(), f"{name} is stale"
