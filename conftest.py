"""Shared test settings: headless SDL, no pygame banner, hypothesis profiles."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

# Set before anything imports pygame: tests never need a real screen or sound card
# (the end-to-end tests start their own Xvfb and pass DISPLAY to a subprocess).
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# The game follows the system's language when none is set: tests expect English whatever
# the machine's locale (tests of other languages choose theirs explicitly).
os.environ["LANGUAGE"] = "en"
# Never touch the real per-user folders: settings, stats and autosaves go to a temp folder.
if "BRISCOLA_HOME" not in os.environ:
    import tempfile

    os.environ["BRISCOLA_HOME"] = tempfile.mkdtemp(prefix="briscola-test-home-")

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True)
def _own_home_in_english(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """Every test has a per-user folder of its own (settings, statistics, autosave, records)
    and starts in English: what one test saves or chooses (a language, a deck) never
    reaches the next, whatever order the tests run in."""
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path_factory.mktemp("home")))
    monkeypatch.setenv("LANGUAGE", "en")
    yield
    i18n = sys.modules.get("briscola.text.i18n")
    if i18n is not None:
        i18n.set_language("en")
