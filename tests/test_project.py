"""The project's own promises: CI runs the test command that README.md gives."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_test_command() -> str:
    """The one command in README.md's "Test" section."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Test\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    assert len(blocks) == 1, "the Test section gives one command"
    lines = [line for line in blocks[0].splitlines() if line.strip()]
    assert len(lines) == 1, "the Test section's command is one line"
    return lines[0].strip()


def test_ci_runs_the_readme_test_command() -> None:
    command = readme_test_command()
    assert command.endswith("tools/run_tests.sh")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    ran = [line.strip() for line in ci.splitlines() if not line.lstrip().startswith("#")]
    assert command in ran, f".ci/run does not run the README's command: {command}"
