"""The project's own promises: CI runs the test command that README.md gives."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


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


def readme_play_command() -> str:
    """The one command in README.md's "Play" section."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Play\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)```", section, re.S)[0].strip()


def test_the_readme_commands_need_no_sudo_of_their_own() -> None:
    # Root on a bare image has no sudo: the scripts decide whether to use it.
    for command in (readme_play_command(), readme_test_command()):
        assert "sudo" not in command
        assert command.startswith("tools/system-packages.sh ")


def _fake_system(tmp_path: Path, uid: int, installed: bool, sudo: bool) -> dict[str, str]:
    """A PATH of stand-ins for id, dpkg-query, apt-get and (maybe) sudo that log calls."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "calls"
    scripts = {
        "id": f"echo {uid}",
        "dpkg-query": "echo 'install ok installed'" if installed else "exit 1",
        "apt-get": f'echo "apt-get $*" >>{log}',
        "grep": 'exec /bin/grep "$@"',
        "cat": 'exec /bin/cat "$@"',
    }
    if sudo:
        scripts["sudo"] = f'echo "sudo" >>{log}; "$@"'
    for name, body in scripts.items():
        path = bin_dir / name
        path.write_text(f"#!/bin/bash\n{body}\n")
        path.chmod(0o755)
    return {"PATH": str(bin_dir), "HOME": str(tmp_path)}


def _system_packages(env: dict[str, str], what: str = "test") -> subprocess.CompletedProcess[str]:
    script = ROOT / "tools" / "system-packages.sh"
    return subprocess.run(
        ["/bin/bash", str(script), what], env=env, capture_output=True, text=True, timeout=30
    )


def test_root_without_sudo_installs_missing_packages_directly(tmp_path: Path) -> None:
    done = _system_packages(_fake_system(tmp_path, uid=0, installed=False, sudo=False))
    assert done.returncode == 0, done.stderr
    calls = (tmp_path / "calls").read_text()
    assert "sudo" not in calls
    assert "apt-get install -y -qq python3-venv xvfb xdotool" in calls


def test_a_user_installs_missing_packages_through_sudo(tmp_path: Path) -> None:
    done = _system_packages(_fake_system(tmp_path, uid=1000, installed=False, sudo=True), "play")
    assert done.returncode == 0, done.stderr
    calls = (tmp_path / "calls").read_text().splitlines()
    assert calls.count("sudo") == 2  # apt-get update, then install
    assert "apt-get install -y -qq python3-venv" in calls


def test_a_user_without_sudo_is_told_what_to_do(tmp_path: Path) -> None:
    done = _system_packages(_fake_system(tmp_path, uid=1000, installed=False, sudo=False))
    assert done.returncode == 1
    assert "needs root" in done.stderr
    assert not (tmp_path / "calls").exists()


def test_nothing_is_installed_when_nothing_is_missing(tmp_path: Path) -> None:
    done = _system_packages(_fake_system(tmp_path, uid=1000, installed=True, sudo=True))
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "calls").exists()


def test_an_unknown_package_set_is_a_usage_error(tmp_path: Path) -> None:
    done = _system_packages(_fake_system(tmp_path, uid=0, installed=True, sudo=False), "all")
    assert done.returncode == 2
    assert "usage" in done.stderr
