"""``briscola-server --help`` names the command the way it was started: the installed
``briscola-server``, or ``python -m briscola.server``."""

from __future__ import annotations

import subprocess
import sys

import pytest

from briscola.server.__main__ import program_name


@pytest.mark.parametrize(
    ("argv0", "name"),
    [
        ("/usr/local/bin/briscola-server", "briscola-server"),
        ("/opt/briscola/.venv/bin/briscola-server", "briscola-server"),
        ("/work/briscola/server/__main__.py", "python -m briscola.server"),
        ("-c", "python -m briscola.server"),
    ],
)
def test_the_program_is_named_as_it_was_started(argv0: str, name: str) -> None:
    assert program_name(argv0) == name


def test_python_dash_m_shows_python_dash_m_in_its_usage() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "briscola.server", "--help"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: python -m briscola.server ")
    assert "--trusted-proxy ADDRESS" in result.stdout


def test_a_bad_trusted_proxy_or_redis_url_exits_with_a_message_not_a_traceback() -> None:
    for flags, said in (
        (["--trusted-proxy", "10.0.0.300"], "--trusted-proxy: not an IP address or network"),
        (["--redis", "redis://127.0.0.1:6379/zero"], "database is a number"),
    ):
        result = subprocess.run(
            [sys.executable, "-m", "briscola.server", *flags],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert result.returncode == 2 and said in result.stderr, result.stderr
        assert "Traceback" not in result.stderr
