"""The synthesised sound effects in assets/sounds exist, load, are sane and reproducible."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import array
import math
import sys
import wave
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pygame
import pytest

from tools import gen_sounds

SOUND_DIR = Path(__file__).resolve().parents[2] / "assets" / "sounds"

# name -> (min seconds, max seconds)
EXPECTED: dict[str, tuple[float, float]] = {
    "shuffle": (0.6, 1.3),
    "deal": (0.08, 0.3),
    "play": (0.08, 0.35),
    "collect": (0.2, 0.6),
    "swap": (0.12, 0.5),
    "win": (0.6, 1.6),
    "lose": (0.6, 1.6),
    "draw": (0.3, 1.0),
    "click": (0.02, 0.08),
}


class Params(NamedTuple):
    nchannels: int
    sampwidth: int
    framerate: int
    nframes: int


def read_samples(path: Path) -> tuple[Params, list[int]]:
    with wave.open(str(path), "rb") as w:
        params = Params(w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes())
        frames = w.readframes(w.getnframes())
    data = array.array("h")
    data.frombytes(frames)
    if sys.byteorder == "big":
        data.byteswap()
    return params, list(data)


@pytest.fixture(scope="module")
def mixer() -> Iterator[None]:
    pygame.mixer.init(44100, -16, 1)
    try:
        yield
    finally:
        pygame.mixer.quit()


def test_generator_knows_exactly_the_expected_sounds() -> None:
    assert set(gen_sounds.SOUNDS) == set(EXPECTED)
    assert set(gen_sounds.CATEGORIES) == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sound_file_format_and_duration(name: str) -> None:
    path = SOUND_DIR / f"{name}.wav"
    assert path.is_file(), f"missing {path}"
    params, samples = read_samples(path)
    assert params.nchannels == 1
    assert params.sampwidth == 2
    assert params.framerate == 44100
    seconds = params.nframes / params.framerate
    lo, hi = EXPECTED[name]
    assert lo <= seconds <= hi, f"{name}: {seconds:.3f} s not in [{lo}, {hi}]"
    assert len(samples) == params.nframes


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sound_levels(name: str) -> None:
    _, samples = read_samples(SOUND_DIR / f"{name}.wav")
    peak = max(abs(s) for s in samples)
    assert peak < 0.8 * 32767, f"{name} too close to full scale: {peak}"
    assert peak > 0.1 * 32767, f"{name} nearly silent: {peak}"
    # Faded in and out: the very first and last samples are (almost) silent.
    assert abs(samples[0]) < 0.02 * 32767
    assert abs(samples[-1]) < 0.02 * 32767
    # No DC offset.
    assert abs(sum(samples) / len(samples)) < 0.01 * 32767


def test_loudness_is_consistent_within_each_category() -> None:
    levels: dict[str, list[float]] = {}
    for name in EXPECTED:
        _, samples = read_samples(SOUND_DIR / f"{name}.wav")
        rms = gen_sounds.short_term_rms([s / 32767 for s in samples])
        levels.setdefault(gen_sounds.CATEGORIES[name], []).append(20 * math.log10(rms))
    for category, values in levels.items():
        assert max(values) - min(values) < 1.5, f"{category}: {values}"
        assert max(values) < -12.0, f"{category} not soft: {values}"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sound_loads_in_pygame_mixer(name: str, mixer: None) -> None:
    sound = pygame.mixer.Sound(str(SOUND_DIR / f"{name}.wav"))
    lo, hi = EXPECTED[name]
    assert lo - 0.01 <= sound.get_length() <= hi + 0.01


def test_generator_is_deterministic_and_matches_committed_files(tmp_path: Path) -> None:
    first = gen_sounds.generate(tmp_path / "a")
    second = gen_sounds.generate(tmp_path / "b")
    assert set(first) == set(EXPECTED)
    for name in EXPECTED:
        data = first[name].read_bytes()
        assert data == second[name].read_bytes(), f"{name} differs between runs"
        committed = (SOUND_DIR / f"{name}.wav").read_bytes()
        assert data == committed, f"{name}.wav is stale: run python -m tools.gen_sounds"
