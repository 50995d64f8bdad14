"""What the application is told at its start: the command line (:class:`AppOptions`) and,
for network play, the environment (:class:`NetworkOptions`). Read once, here, and passed
down: no scene reads an environment variable."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from briscola.protocol.wire import DEFAULT_PORT


@dataclass
class NetworkOptions:
    """How the game meets the network. ``bind`` and ``port``: where a table hosted from the
    game listens (``BRISCOLA_HOST_BIND``, ``BRISCOLA_HOST_PORT``); ``lan``: tables are
    announced and looked for on the local network (``BRISCOLA_NO_LAN=1`` turns that off:
    tests outside a private network namespace); ``mdns_interfaces``: the addresses mDNS
    speaks on (``BRISCOLA_MDNS_INTERFACES``, comma-separated; None: every interface)."""

    bind: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    lan: bool = True
    mdns_interfaces: list[str] | None = None

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> NetworkOptions:
        """The options the environment sets (a malformed value keeps the default).

        >>> NetworkOptions.from_environment({"BRISCOLA_HOST_PORT": "9000", "BRISCOLA_NO_LAN": "1"})
        NetworkOptions(bind='0.0.0.0', port=9000, lan=False, mdns_interfaces=None)
        >>> NetworkOptions.from_environment({"BRISCOLA_MDNS_INTERFACES": " 127.0.0.1, ::1"})
        NetworkOptions(bind='0.0.0.0', port=8765, lan=True, mdns_interfaces=['127.0.0.1', '::1'])
        """
        port = environ.get("BRISCOLA_HOST_PORT", "").strip()
        interfaces = [
            part.strip()
            for part in environ.get("BRISCOLA_MDNS_INTERFACES", "").split(",")
            if part.strip()
        ]
        return cls(
            bind=environ.get("BRISCOLA_HOST_BIND", "").strip() or "0.0.0.0",
            port=int(port) if port.isdigit() and 0 <= int(port) < 65536 else DEFAULT_PORT,
            lan=environ.get("BRISCOLA_NO_LAN", "").lower() not in ("1", "true", "yes"),
            mdns_interfaces=interfaces or None,
        )


@dataclass
class AppOptions:
    """What the command line asked for (None: use the saved setting)."""

    size: tuple[int, int] | None = None
    fullscreen: bool | None = None
    deck: str | None = None
    lang: str | None = None
    demo: bool = False
    preset: str | None = None
    frames: int | None = None
    turbo: bool = False
    seed: int | None = None
    settings_path: Path | None = None
    self_check: bool = False
    network: NetworkOptions = field(default_factory=NetworkOptions.from_environment)
    #: End-to-end tests: where to write what is on screen (``BRISCOLA_REPORT``).
    report: Path | None = field(default_factory=lambda: _path_from("BRISCOLA_REPORT"))
    #: End-to-end tests: where to save the frame on screen, as PNG, once nothing moves
    #: (``BRISCOLA_FRAME``): the pixels the game drew, at the screen's real pixels.
    frame: Path | None = field(default_factory=lambda: _path_from("BRISCOLA_FRAME"))
    #: End-to-end tests: a file of clicks in screen coordinates (``BRISCOLA_CLICKS``, see
    #: ``render.window.ClickFeeder``), where nothing else can click.
    clicks: Path | None = field(default_factory=lambda: _path_from("BRISCOLA_CLICKS"))
    #: Computer players think in a worker process (``BRISCOLA_BOT_THREADS=1``: a thread).
    bot_processes: bool = field(
        default_factory=lambda: os.environ.get("BRISCOLA_BOT_THREADS") != "1"
    )


def _path_from(variable: str) -> Path | None:
    value = os.environ.get(variable, "")
    return Path(value) if value else None
