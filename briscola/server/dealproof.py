"""A table's side of deals no one can choose (``docs/fairness.md``).

The server seed of each deal comes from the table's secret and the deal's number
(``HMAC-SHA256(secret, "briscola-fair/1:deal:N")``), so a table rebuilt in another process
(``--redis``, the LAN host's journal) has the same seeds without storing them; the secret
stays on the server. :class:`DealSeeds` keeps the values the seats sent for the next deal
and the values the last deal was made with, which are stored with the table (:meth:`to_json`).

>>> seeds = DealSeeds(lambda: "a table's secret")
>>> commit = seeds.commitment(1)
>>> seeds.contribute(1, 0, commit, b"\\x07")
True
>>> seeds.contribute(1, 1, "0" * 64, b"\\x08")  # not this deal's commitment: not taken
False
>>> seeds.deal(1, 2)
[b'\\x07', b'']
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from typing import Any

from briscola.engine.fairdeal import PROCEDURE, commitment
from briscola.protocol import fairness as fair

__all__ = ["DealSeeds"]


class DealSeeds:
    """The seeds and contributions of a table's deals; ``secret()``: the table's secret,
    never sent (asked each time: a table's seed may be set once it is made)."""

    def __init__(self, secret: Callable[[], str]) -> None:
        self.secret = secret
        #: The values sent for the next deal, by seat.
        self.pending: dict[int, bytes] = {}
        #: The values the last deal was made with, in seat order (None before the first).
        self.dealt: list[bytes] | None = None

    def seed(self, deal: int) -> bytes:
        """The server seed of the table's deal ``deal`` (1 for the first)."""
        tag = f"{PROCEDURE}:deal:{deal}".encode()
        return hmac.new(self.secret().encode(), tag, hashlib.sha256).digest()

    def commitment(self, deal: int) -> str:
        return commitment(self.seed(deal))

    def contribute(self, deal: int, seat: int, commit: object, value: bytes) -> bool:
        """``seat`` sends ``value`` for the commitment ``commit``: taken (the last one sent
        counts) when it is that of the next deal, ``deal``."""
        if commit != self.commitment(deal):
            return False
        self.pending[seat] = value
        return True

    def deal(self, deal: int, seats: int) -> list[bytes]:
        """The values deal ``deal`` is made with (a seat that sent none: empty)."""
        self.dealt = [self.pending.get(seat, b"") for seat in range(seats)]
        self.pending = {}
        return self.dealt

    def reveal(self, deal: int) -> fair.Reveal | None:
        """The ``reveal`` of deal ``deal`` (None before the first deal)."""
        if self.dealt is None:
            return None
        return fair.reveal(deal, self.commitment(deal), self.seed(deal), self.dealt)

    def to_json(self) -> dict[str, Any]:
        return {
            "pending": {str(seat): value.hex() for seat, value in sorted(self.pending.items())},
            "dealt": None if self.dealt is None else [value.hex() for value in self.dealt],
        }

    def load(self, data: object) -> None:
        """Take back what :meth:`to_json` stored (nothing for a table stored without it)."""
        if not isinstance(data, dict):
            return
        pending = data.get("pending")
        if isinstance(pending, dict):
            self.pending = {int(seat): bytes.fromhex(str(value)) for seat, value in pending.items()}
        dealt = data.get("dealt")
        if isinstance(dealt, list):
            self.dealt = [bytes.fromhex(str(value)) for value in dealt]
