"""A real ``redis-server`` (and ``haproxy``) for the tests of the shared store: started on a
free loopback port in a temporary folder, stopped at the end. A missing binary skips the test
with the reason, except in CI (``CI=1``), where it fails it: ``tools/system-packages.sh test``
installs both."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

import pytest

from tools.haproxy import haproxy_config

__all__ = ["HAProxy", "RedisServer", "free_port", "need", "server_process"]


def need(binary: str) -> str:
    """The path of ``binary``; skip (fail in CI) when it is not installed."""
    path = shutil.which(binary) or next(
        (str(p) for p in (Path("/usr/sbin") / binary, Path("/usr/bin") / binary) if p.exists()),
        None,
    )
    if path is None:
        reason = f"{binary} is not installed (tools/system-packages.sh test installs it)"
        if os.environ.get("CI") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_port(port: int, proc: subprocess.Popen[bytes], what: str, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on port {port}")


class RedisServer:
    """``redis-server`` on 127.0.0.1 with the append-only file on (``appendfsync always``),
    its data in ``folder``; ``restart()`` stops it and starts it again on the same port."""

    def __init__(self, folder: Path) -> None:
        self.binary = need("redis-server")
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        self.proc = subprocess.Popen(
            [
                self.binary, "--bind", "127.0.0.1", "--port", str(self.port),
                "--dir", str(self.folder), "--appendonly", "yes", "--appendfsync", "always",
                "--save", "", "--protected-mode", "yes", "--daemonize", "no",
                "--logfile", str(self.folder / "redis.log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        _wait_port(self.port, self.proc, "redis-server")
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc = None

    def restart(self, down: float = 0.0) -> None:
        self.stop()
        time.sleep(down)
        self.start()


class HAProxy:
    """``haproxy`` on a free loopback port in front of ``backends`` (ports on 127.0.0.1),
    round robin, WebSocket connections kept open, the client's address passed on: the
    configuration docs/server.md shows (``tools.haproxy.haproxy_config``; ``limits``: its
    per-address limits and maxconn changed, for tests whose clients share one address)."""

    def __init__(self, folder: Path, backends: list[int], **limits: int) -> None:
        self.binary = need("haproxy")
        self.port = free_port()
        self.config = folder / "haproxy.cfg"
        self.config.write_text(
            haproxy_config(self.port, backends, str(folder / "haproxy.pid"), **limits),
            encoding="utf-8",
        )
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> HAProxy:
        check = subprocess.run([self.binary, "-c", "-f", str(self.config)], capture_output=True)
        assert check.returncode == 0, check.stdout + check.stderr
        self.proc = subprocess.Popen(
            [self.binary, "-db", "-f", str(self.config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_port(self.port, self.proc, "haproxy")
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None


def server_process(
    redis_url: str, log: IO[str], lease: str, level: str = "WARNING"
) -> tuple[subprocess.Popen[str], str]:
    """A dedicated server process on ``redis_url`` (its log to ``log``, from ``level`` up)
    with a lease of ``lease`` seconds and a grace period of a minute: it and the URL it
    listens on."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "briscola.server", "--port", "0", "--redis", redis_url,
         "--lease", lease, "--grace", "60", "--log-level", level],
        stdout=subprocess.PIPE, stderr=log, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("listening on "), line
    return proc, line.split()[-1]
