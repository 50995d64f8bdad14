"""Synthesise the game's sound effects into ``assets/sounds/`` (stdlib only).

Run ``python -m tools.gen_sounds`` (or ``python tools/gen_sounds.py``) from the repository root.
``--out DIR`` writes somewhere else, ``--plot FILE.png`` also draws every waveform and its
envelope with pygame (for eyeballing attacks, tails and headroom).

Every file is 16-bit mono PCM WAV at 44100 Hz. Nothing is sampled or downloaded: card sounds are
white noise shaped by one-pole and biquad filters and amplitude envelopes, the musical cues are
additive "mallet" tones (a few partials with their own decays plus a tiny noise strike). All
randomness comes from ``random.Random`` with a fixed seed per sound, so two runs give identical
bytes.

The sounds:

``shuffle.wav`` (~0.9 s)
    A riffle shuffle: about 70 tiny paper flicks (1-4 ms band-passed noise ticks, each with its
    own brightness) whose rate and loudness swell in the middle, over a soft papery hiss with the
    same swell, ending in a short low "settle" as the halves are squared up.
``deal.wav`` (~0.15 s)
    One card flicked onto felt: band-passed noise whose centre slides down from ~3.2 to ~1.1 kHz
    (the card sliding), a 2 ms attack and a quick decay, plus a muffled low tap as it lands.
``play.wav`` (~0.18 s)
    A card snapped onto the table, firmer than ``deal``: a bright 3 ms click, a short swish, and
    a low-passed "thock" of the card meeting the table.
``collect.wav`` (~0.35 s)
    A trick swept together: four overlapping soft swishes (band-passed noise, staggered by
    ~45 ms, slightly different colours) under a slow swell, ending in a gentle tap.
``swap.wav`` (~0.26 s)
    Two quick card flicks ~95 ms apart, the second a little brighter (take one, put one).
``win.wav`` (~1.2 s)
    A rising major arpeggio (C5 E5 G5 C6) in a soft marimba/bell timbre, each note ringing into
    the next, the top note held a little longer.
``lose.wav`` (~1.2 s)
    A gentle falling minor figure (G4 Eb4 C4) in a darker, rounder mallet timbre with slower
    attacks: sad but not harsh.
``draw.wav`` (~0.65 s)
    A neutral two-note cue: the same mallet voice playing E5 then A4 (a falling fifth), evenly.
``click.wav`` (~40 ms)
    A soft UI click: a tiny low-passed noise tick plus a very short 1.6 kHz "tock" that dies in
    a few milliseconds.

Levels: every file is faded in and out (no clicks at the ends), DC-free, and scaled to a target
short-term loudness (the RMS of its loudest 50 ms) per category -- card sounds at -21 dBFS, cues
at -19 dBFS, the UI click at -24 dBFS -- but never above a peak of 0.70 of full scale (about
-3 dBFS). Generation takes about a second.
"""

from __future__ import annotations

import argparse
import array
import math
import random
import sys
import wave
from collections.abc import Callable, Sequence
from pathlib import Path

SAMPLE_RATE = 44100
PEAK_LIMIT = 0.70  # about -3.1 dBFS
LOUDNESS_WINDOW_S = 0.05

# Target short-term RMS (dBFS) per category.
CATEGORY_LEVEL_DB: dict[str, float] = {"card": -21.0, "cue": -19.0, "ui": -24.0}

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "assets" / "sounds"

Signal = list[float]


# --------------------------------------------------------------------------- basic helpers


def silence(seconds: float) -> Signal:
    return [0.0] * round(seconds * SAMPLE_RATE)


def white_noise(n: int, rng: random.Random) -> Signal:
    return [rng.uniform(-1.0, 1.0) for _ in range(n)]


def mix_into(dest: Signal, src: Sequence[float], start_s: float, gain: float = 1.0) -> None:
    """Add ``src`` (scaled by ``gain``) into ``dest`` starting at ``start_s`` seconds."""
    start = round(start_s * SAMPLE_RATE)
    end = min(len(dest), start + len(src))
    for i in range(max(0, start), end):
        dest[i] += gain * src[i - start]


def one_pole_lowpass(x: Sequence[float], cutoff_hz: float) -> Signal:
    a = 1.0 - math.exp(-2.0 * math.pi * cutoff_hz / SAMPLE_RATE)
    y = 0.0
    out: Signal = []
    for s in x:
        y += a * (s - y)
        out.append(y)
    return out


def one_pole_highpass(x: Sequence[float], cutoff_hz: float) -> Signal:
    low = one_pole_lowpass(x, cutoff_hz)
    return [s - lo for s, lo in zip(x, low, strict=True)]


def _bandpass_coeffs(freq: float, q: float) -> tuple[float, float, float, float, float]:
    """RBJ cookbook band-pass (constant 0 dB peak gain), normalised by a0."""
    w0 = 2.0 * math.pi * min(freq, SAMPLE_RATE * 0.45) / SAMPLE_RATE
    alpha = math.sin(w0) / (2.0 * q)
    a0 = 1.0 + alpha
    return alpha / a0, 0.0, -alpha / a0, -2.0 * math.cos(w0) / a0, (1.0 - alpha) / a0


def bandpass(
    x: Sequence[float], freq: float | Callable[[float], float], q: float, block: int = 32
) -> Signal:
    """Biquad band-pass; ``freq`` may be a function of time (s), re-evaluated every block."""
    x1 = x2 = y1 = y2 = 0.0
    out: Signal = []
    b0 = b1 = b2 = a1 = a2 = 0.0
    for i, s in enumerate(x):
        if i % block == 0:
            f = freq(i / SAMPLE_RATE) if callable(freq) else freq
            b0, b1, b2, a1, a2 = _bandpass_coeffs(f, q)
        y = b0 * s + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2, x1 = x1, s
        y2, y1 = y1, y
        out.append(y)
    return out


def ar_envelope(n: int, attack_s: float, decay_s: float, hold_s: float = 0.0) -> Signal:
    """Raised-cosine attack, optional hold, then exponential decay (time constant decay_s).

    The last 25 % is additionally tapered to exactly zero, so a burst never stops with a step.
    """
    att = max(1, int(attack_s * SAMPLE_RATE))
    hold = int(hold_s * SAMPLE_RATE)
    env: Signal = []
    for i in range(n):
        if i < att:
            env.append(0.5 - 0.5 * math.cos(math.pi * i / att))
        elif i < att + hold:
            env.append(1.0)
        else:
            env.append(math.exp(-(i - att - hold) / (decay_s * SAMPLE_RATE)))
    taper = max(1, n // 4)
    for i in range(min(taper, n)):
        env[n - 1 - i] *= 0.5 - 0.5 * math.cos(math.pi * i / taper)
    return env


def swell(n: int, peak_pos: float, sharpness: float = 2.0) -> Signal:
    """A smooth hump 0 -> 1 -> 0 over ``n`` samples, peaking at fraction ``peak_pos``."""
    out: Signal = []
    for i in range(n):
        t = i / max(1, n - 1)
        u = t / peak_pos if t < peak_pos else (1.0 - t) / (1.0 - peak_pos)
        out.append(math.sin(0.5 * math.pi * u) ** sharpness)
    return out


def apply(x: Sequence[float], env: Sequence[float]) -> Signal:
    return [a * b for a, b in zip(x, env, strict=True)]


def fade_ends(x: Signal, fade_in_s: float = 0.001, fade_out_s: float = 0.012) -> Signal:
    n = len(x)
    fi = max(1, int(fade_in_s * SAMPLE_RATE))
    fo = max(1, int(fade_out_s * SAMPLE_RATE))
    for i in range(min(fi, n)):
        x[i] *= 0.5 - 0.5 * math.cos(math.pi * i / fi)
    for i in range(min(fo, n)):
        x[n - 1 - i] *= 0.5 - 0.5 * math.cos(math.pi * i / fo)
    return x


def short_term_rms(x: Sequence[float], window_s: float = LOUDNESS_WINDOW_S) -> float:
    """RMS of the loudest window (a crude short-term loudness that suits short effects)."""
    w = max(1, min(len(x), int(window_s * SAMPLE_RATE)))
    sq = [s * s for s in x]
    acc = sum(sq[:w])
    best = acc
    for i in range(w, len(sq)):
        acc += sq[i] - sq[i - w]
        best = max(best, acc)
    return math.sqrt(max(best, 0.0) / w)


def normalise(x: Signal, category: str) -> Signal:
    """Scale to the category's loudness, but never past ``PEAK_LIMIT``."""
    target = 10.0 ** (CATEGORY_LEVEL_DB[category] / 20.0)
    rms = short_term_rms(x)
    peak = max(abs(s) for s in x)
    gain = min(target / rms, PEAK_LIMIT / peak)
    return [s * gain for s in x]


def finish(x: Signal, category: str) -> Signal:
    x = one_pole_highpass(x, 30.0)  # no DC offset
    x = fade_ends(x)
    return normalise(x, category)


# --------------------------------------------------------------------------- building blocks


def flick(rng: random.Random, length_s: float, centre: float, q: float, decay_s: float) -> Signal:
    """One tiny paper flick: a band-passed noise tick with a fast attack."""
    n = int(length_s * SAMPLE_RATE)
    noise = bandpass(white_noise(n, rng), centre, q)
    return apply(noise, ar_envelope(n, 0.0004, decay_s))


def swish(
    rng: random.Random,
    length_s: float,
    f_start: float,
    f_end: float,
    q: float,
    attack_s: float,
    decay_s: float,
) -> Signal:
    """Band-passed noise whose centre glides from ``f_start`` to ``f_end`` (exponentially)."""
    n = int(length_s * SAMPLE_RATE)
    ratio = f_end / f_start

    def centre(t: float) -> float:
        return float(f_start * ratio ** min(1.0, t / length_s))

    noise = bandpass(white_noise(n, rng), centre, q)
    return apply(noise, ar_envelope(n, attack_s, decay_s))


def thud(rng: random.Random, length_s: float, cutoff: float, decay_s: float) -> Signal:
    """A muffled tap: twice low-passed noise with a very short attack."""
    n = int(length_s * SAMPLE_RATE)
    noise = one_pole_lowpass(one_pole_lowpass(white_noise(n, rng), cutoff), cutoff)
    gain = 1.0 / max(1e-9, max(abs(s) for s in noise))
    return apply([s * gain for s in noise], ar_envelope(n, 0.0015, decay_s))


def mallet_note(
    rng: random.Random,
    freq: float,
    length_s: float,
    partials: Sequence[tuple[float, float, float]],
    attack_s: float,
    strike: float,
) -> Signal:
    """Additive mallet tone. ``partials``: (frequency ratio, amplitude, decay time constant)."""
    n = int(length_s * SAMPLE_RATE)
    out = [0.0] * n
    att = max(1, int(attack_s * SAMPLE_RATE))
    for ratio, amp, decay in partials:
        f = freq * ratio
        if f >= SAMPLE_RATE * 0.45:
            continue
        w = 2.0 * math.pi * f / SAMPLE_RATE
        k = math.exp(-1.0 / (decay * SAMPLE_RATE))
        g = amp
        for i in range(n):
            out[i] += g * math.sin(w * i)
            g *= k
    for i in range(min(att, n)):
        out[i] *= 0.5 - 0.5 * math.cos(math.pi * i / att)
    # Damp the last 40 % of the note smoothly to silence (a mallet lifted off a ringing bar).
    rel = max(1, int(0.4 * n))
    for i in range(rel):
        out[n - 1 - i] *= 0.5 - 0.5 * math.cos(math.pi * i / rel)
    if strike > 0.0:
        tick = thud(rng, 0.012, 2500.0, 0.002)
        for i, s in enumerate(tick):
            out[i] += strike * s
    return out


def note_hz(semitones_from_a4: int) -> float:
    return float(440.0 * 2.0 ** (semitones_from_a4 / 12.0))


C4, EB4, E4, G4, A4, C5, E5, G5, C6 = (note_hz(s) for s in (-9, -6, -5, -2, 0, 3, 7, 10, 15))

BRIGHT_MALLET = ((1.0, 1.0, 0.38), (2.0, 0.12, 0.20), (4.0, 0.22, 0.09), (9.9, 0.05, 0.03))
SOFT_MALLET = ((1.0, 1.0, 0.45), (2.0, 0.10, 0.22), (3.0, 0.04, 0.12), (4.0, 0.08, 0.07))
NEUTRAL_MALLET = ((1.0, 1.0, 0.30), (2.0, 0.10, 0.16), (4.0, 0.15, 0.07))


# --------------------------------------------------------------------------- the sounds


def make_shuffle() -> Signal:
    rng = random.Random(1001)
    total = 0.9
    out = silence(total)
    riffle_start, riffle_end = 0.05, 0.74
    # Flick onset times: denser in the middle of the riffle (the swell).
    t = riffle_start
    while t < riffle_end:
        phase = (t - riffle_start) / (riffle_end - riffle_start)
        hump = math.sin(math.pi * phase)
        loud = 0.35 + 0.65 * hump
        tick = flick(
            rng,
            rng.uniform(0.004, 0.009),
            rng.uniform(2200.0, 5200.0),
            rng.uniform(1.2, 2.5),
            rng.uniform(0.0008, 0.0025),
        )
        mix_into(out, tick, t, loud * rng.uniform(0.6, 1.0))
        t += rng.uniform(0.006, 0.016) * (1.25 - 0.55 * hump)
    # Papery hiss that follows the same swell.
    hiss_len = riffle_end - riffle_start + 0.04
    n = int(hiss_len * SAMPLE_RATE)
    hiss = bandpass(white_noise(n, rng), 3500.0, 0.7)
    mix_into(out, apply(hiss, swell(n, 0.5, 1.5)), riffle_start, 0.18)
    # The halves settling together.
    mix_into(out, thud(rng, 0.12, 900.0, 0.025), 0.76, 0.35)
    mix_into(out, swish(rng, 0.1, 2500.0, 1200.0, 1.0, 0.004, 0.02), 0.755, 0.3)
    return finish(one_pole_lowpass(out, 12000.0), "card")


def make_deal() -> Signal:
    rng = random.Random(1002)
    out = silence(0.15)
    mix_into(out, swish(rng, 0.14, 3200.0, 1100.0, 0.9, 0.002, 0.035), 0.0)
    mix_into(out, thud(rng, 0.07, 700.0, 0.012), 0.045, 0.25)
    return finish(one_pole_lowpass(out, 9000.0), "card")


def make_play() -> Signal:
    rng = random.Random(1003)
    out = silence(0.18)
    mix_into(out, flick(rng, 0.012, 4200.0, 1.0, 0.0025), 0.0, 0.9)
    mix_into(out, swish(rng, 0.1, 2600.0, 1300.0, 1.0, 0.001, 0.02), 0.0, 0.6)
    mix_into(out, thud(rng, 0.15, 500.0, 0.022), 0.003, 0.55)
    return finish(one_pole_lowpass(out, 10000.0), "card")


def make_collect() -> Signal:
    rng = random.Random(1004)
    out = silence(0.35)
    for k in range(4):
        start = 0.01 + 0.045 * k + rng.uniform(-0.006, 0.006)
        f0 = rng.uniform(2400.0, 3400.0)
        part = swish(rng, 0.16, f0, f0 * 0.45, 0.8, 0.025, 0.04)
        mix_into(out, part, start, 0.6 + 0.15 * k)
    mix_into(out, thud(rng, 0.08, 800.0, 0.015), 0.215, 0.25)
    n = len(out)
    return finish(one_pole_lowpass(apply(out, swell(n, 0.45, 0.6)), 8000.0), "card")


def make_swap() -> Signal:
    rng = random.Random(1005)
    out = silence(0.26)
    mix_into(out, swish(rng, 0.11, 2800.0, 1200.0, 1.0, 0.0015, 0.022), 0.0, 0.9)
    mix_into(out, thud(rng, 0.05, 700.0, 0.008), 0.03, 0.18)
    mix_into(out, swish(rng, 0.12, 3500.0, 1400.0, 1.0, 0.0015, 0.025), 0.095, 1.0)
    mix_into(out, thud(rng, 0.05, 800.0, 0.008), 0.13, 0.2)
    return finish(one_pole_lowpass(out, 9000.0), "card")


def make_win() -> Signal:
    rng = random.Random(1006)
    out = silence(1.2)
    notes = ((C5, 0.0, 0.7), (E5, 0.11, 0.7), (G5, 0.22, 0.7), (C6, 0.33, 0.85))
    for freq, start, length in notes:
        mix_into(out, mallet_note(rng, freq, length, BRIGHT_MALLET, 0.002, 0.15), start)
    # A quiet octave-down C under the top note gives it a resolved, "finished" feel.
    mix_into(out, mallet_note(rng, C5, 0.85, SOFT_MALLET, 0.006, 0.0), 0.33, 0.35)
    return finish(one_pole_lowpass(out, 7000.0), "cue")


def make_lose() -> Signal:
    rng = random.Random(1007)
    out = silence(1.2)
    notes = ((G4, 0.0, 0.6, 0.9), (EB4, 0.2, 0.6, 0.85), (C4, 0.4, 0.8, 0.9))
    for freq, start, length, gain in notes:
        mix_into(out, mallet_note(rng, freq, length, SOFT_MALLET, 0.008, 0.06), start, gain)
    return finish(one_pole_lowpass(out, 3000.0), "cue")


def make_draw() -> Signal:
    rng = random.Random(1008)
    out = silence(0.65)
    mix_into(out, mallet_note(rng, E5, 0.45, NEUTRAL_MALLET, 0.003, 0.1), 0.0)
    mix_into(out, mallet_note(rng, A4, 0.5, NEUTRAL_MALLET, 0.003, 0.1), 0.15)
    return finish(one_pole_lowpass(out, 5000.0), "cue")


def make_click() -> Signal:
    rng = random.Random(1009)
    out = silence(0.04)
    mix_into(out, thud(rng, 0.03, 3000.0, 0.0025), 0.0, 0.5)
    tock = [
        math.sin(2.0 * math.pi * 1600.0 * i / SAMPLE_RATE) for i in range(int(0.03 * SAMPLE_RATE))
    ]
    mix_into(out, apply(tock, ar_envelope(len(tock), 0.0006, 0.004)), 0.0, 0.6)
    return finish(one_pole_lowpass(out, 6000.0), "ui")


SOUNDS: dict[str, Callable[[], Signal]] = {
    "shuffle": make_shuffle,
    "deal": make_deal,
    "play": make_play,
    "collect": make_collect,
    "swap": make_swap,
    "win": make_win,
    "lose": make_lose,
    "draw": make_draw,
    "click": make_click,
}

CATEGORIES: dict[str, str] = {
    "shuffle": "card",
    "deal": "card",
    "play": "card",
    "collect": "card",
    "swap": "card",
    "win": "cue",
    "lose": "cue",
    "draw": "cue",
    "click": "ui",
}


# --------------------------------------------------------------------------- output


def to_pcm16(x: Sequence[float]) -> bytes:
    data = array.array("h", (max(-32767, min(32767, round(s * 32767.0))) for s in x))
    if sys.byteorder == "big":
        data.byteswap()
    return data.tobytes()


def write_wav(path: Path, x: Sequence[float]) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SAMPLE_RATE)
        w.writeframes(to_pcm16(x))


def generate(out_dir: Path | str = DEFAULT_OUT) -> dict[str, Path]:
    """Write every sound into ``out_dir``; return {name: path}."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    for name, make in SOUNDS.items():
        path = out / f"{name}.wav"
        write_wav(path, make())
        written[name] = path
    return written


def read_wav(path: Path) -> list[float]:
    with wave.open(str(path), "rb") as w:
        frames = w.readframes(w.getnframes())
    data = array.array("h")
    data.frombytes(frames)
    if sys.byteorder == "big":
        data.byteswap()
    return [s / 32767.0 for s in data]


def plot(paths: dict[str, Path], png: Path) -> None:
    """Draw each file's waveform (grey), |peak| envelope (yellow) and the peak limit (red)."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    pygame.font.init()
    font = pygame.font.Font(None, 20)
    row_h, width = 120, 1200
    surf = pygame.Surface((width, row_h * len(paths)))
    surf.fill((18, 22, 28))
    for row, (name, path) in enumerate(paths.items()):
        x = read_wav(path)
        top, mid = row * row_h, row * row_h + row_h // 2
        half = row_h // 2 - 8
        scale = (width - 20) / (1.25 * SAMPLE_RATE)  # common time axis: 1.25 s across
        for lim in (PEAK_LIMIT, -PEAK_LIMIT):
            y = mid - int(lim * half)
            pygame.draw.line(surf, (120, 40, 40), (10, y), (width - 10, y))
        pygame.draw.line(surf, (50, 55, 65), (10, mid), (width - 10, mid))
        step = max(1, int(1 / scale))
        prev: tuple[int, int] | None = None
        for i in range(0, len(x), step):
            chunk = x[i : i + step]
            px = 10 + int(i * scale)
            lo, hi = min(chunk), max(chunk)
            span = ((px, mid - int(hi * half)), (px, mid - int(lo * half)))
            pygame.draw.line(surf, (150, 160, 175), *span)
            pk = max(abs(lo), abs(hi))
            point = (px, mid - int(pk * half))
            if prev is not None:
                pygame.draw.line(surf, (235, 200, 60), prev, point)
            prev = point
        label = f"{name}  {len(x) / SAMPLE_RATE * 1000:.0f} ms  peak {max(map(abs, x)):.2f}"
        surf.blit(font.render(label, True, (230, 230, 230)), (14, top + 4))
        pygame.draw.line(surf, (70, 70, 80), (0, top + row_h - 1), (width, top + row_h - 1))
    pygame.image.save(surf, str(png))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder")
    parser.add_argument("--plot", type=Path, default=None, help="also draw waveforms to a PNG")
    args = parser.parse_args(argv)
    written = generate(args.out)
    for name, path in written.items():
        x = read_wav(path)
        peak = max(abs(s) for s in x)
        level = 20.0 * math.log10(short_term_rms(x))
        print(
            f"{path}: {len(x) / SAMPLE_RATE:.3f} s, peak {peak:.3f}, "
            f"short-term RMS {level:.1f} dBFS ({CATEGORIES[name]})"
        )
    if args.plot is not None:
        plot(written, args.plot)
        print(f"plot: {args.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
