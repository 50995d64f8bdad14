"""The frame bench's profile of the slowest frames: it names the frames it kept and where
their time went, and asks for no more frames than it was given."""

from __future__ import annotations

import re

import pytest

from tools.frame_bench import main, profile_slowest


def test_the_profile_lists_the_slowest_frames_and_the_functions_they_spent_on() -> None:
    text = profile_slowest((640, 360), 40, "classic2", share=0.05, lines=10)
    assert text.startswith("640x360: the slowest 2 of 40 frames (profiled)")
    frames = re.findall(r"frame +(\d+) +([\d.]+) ms +(part|whole)", text)
    assert len(frames) == 2
    assert all(0 <= int(index) < 40 for index, _ms, _kind in frames)
    costs = [float(ms) for _index, ms, _kind in frames]
    assert costs == sorted(costs, reverse=True)  # slowest first
    assert "function calls" in text and "Ordered by: internal time" in text


def test_the_bench_refuses_a_size_it_cannot_read_with_a_message(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for sizes in ("big", "1920x", "0x1080", "1920x1080,4k"):
        with pytest.raises(SystemExit) as stop:
            main(["--profile", "--sizes", sizes])
        assert stop.value.code == 2
        error = capsys.readouterr().err
        assert "is not a window size such as 1920x1080" in error
        assert "Traceback" not in error
