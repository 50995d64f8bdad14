"""A seat at an online table, kept while it is held: a game closed without leaving the
table (killed, crashed, the computer restarted) takes it back from the Play online page."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from briscola.storage.files import atomic_write_json, peek_json

__all__ = ["SEAT_FILE", "HeldSeat", "SeatStore"]

log = logging.getLogger(__name__)

#: The file in the data folder that holds the seat.
SEAT_FILE: Final = "online-seat.json"
#: The longest token a server hands out, with room to spare (a longer one is not ours).
MAX_TOKEN: Final = 100


@dataclass(frozen=True)
class HeldSeat:
    """Where the seat is (a ``ws://`` or ``wss://`` address and a table code), which seat,
    and the token that takes it back. ``hosted``: the table lived in this computer's own
    game (the host's seat): taking it back opens the host's server again first."""

    url: str
    code: str
    seat: int
    token: str
    hosted: bool = False
    #: The host's game went away (a guest's seat): the time of day (``time.time()``)
    #: after which the table has ended; None while it is reachable.
    until: float | None = None

    def gone(self, now: float) -> bool:
        """The table can no longer come back at ``now`` (its host's game stayed away)."""
        return self.until is not None and now > self.until


class SeatStore:
    """The held seat, in ``folder`` (the data folder)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / SEAT_FILE

    def remember(self, seat: HeldSeat) -> None:
        """Keep ``seat`` (a failure to write is logged: the game goes on without it)."""
        data: dict[str, object] = {
            "url": seat.url, "code": seat.code, "seat": seat.seat, "token": seat.token,
        }  # fmt: skip
        if seat.hosted:
            data["hosted"] = True
        if seat.until is not None:
            data["until"] = seat.until
        try:
            atomic_write_json(self.path, data)
        except OSError as exc:
            log.warning("could not keep the online seat: %s", exc)

    def saved(self) -> HeldSeat | None:
        """The seat kept by :meth:`remember`, if any (a damaged file counts as none)."""
        data = peek_json(self.path)
        if not isinstance(data, dict):
            return None
        fields = {"url": str, "code": str, "seat": int, "token": str}
        if any(type(data.get(key)) is not kind for key, kind in fields.items()):
            return None
        if not data["url"].startswith(("ws://", "wss://")) or len(data["token"]) > MAX_TOKEN:
            return None
        hosted = data.get("hosted") is True
        raw = data.get("until")
        until = float(raw) if isinstance(raw, int | float) and not isinstance(raw, bool) else None
        return HeldSeat(data["url"], data["code"], data["seat"], data["token"], hosted, until)

    def forget(self) -> None:
        """The seat was left (or is gone): nothing to take back."""
        with contextlib.suppress(OSError):
            self.path.unlink(missing_ok=True)
