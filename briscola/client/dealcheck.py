"""A game's check of an online deal once the server reveals its seed (``docs/fairness.md``).

:func:`check_deal` takes what this seat saw (the commitment received before the deal, the
value this game sent, every event of the hand) and the server's ``reveal``, and says whether
the deal is the one the procedure gives: ``checked``, or ``mismatch`` with the reason (kept
as evidence in the hand's record, ``meta.fair``), or ``unchecked`` when the server revealed
nothing to check against (an older server), or when this game was not connected when the
hand was dealt (``late``: started again, or reconnected, mid-hand), so it never saw the
commitment, and the rest fits.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, Literal

from briscola.engine import Event, Rules
from briscola.engine.fairdeal import MAX_VALUE, PROCEDURE, SEED_SIZE, check_seen, derive_deck
from briscola.protocol import fairness as fair

__all__ = ["Verdict", "check_deal"]

Verdict = Literal["checked", "mismatch", "unchecked"]


def check_deal(
    rules: Rules,
    seat: int,
    seen: Sequence[Event],
    reveal: fair.Reveal | None,
    commit_before: str | None,
    sent: bytes | None,
    late: bool = False,
) -> dict[str, Any]:
    """The proof of the deal for the record's ``meta.fair``: the procedure, deal, commitment,
    seed and values as revealed, this seat, the ``verdict`` and, unless checked, ``reason``.
    ``commit_before``: the commitment this game received before the deal (None: none came);
    ``sent``: the value it sent for it (None: none); ``late``: this game first saw the hand
    after it was dealt (a commitment it never saw is then no evidence; ``late`` is kept)."""
    if reveal is None:
        return {"procedure": PROCEDURE, "seat": seat, "verdict": "unchecked",
                "reason": "the server revealed no seed for this deal"}  # fmt: skip
    proof: dict[str, Any] = {
        "procedure": PROCEDURE,
        "deal": reveal["deal"],
        "commit": reveal["commit"],
        "seed": reveal["seed"],
        "values": list(reveal["values"]),
        "seat": seat,
    }
    if late and commit_before is None:  # all else is checked against what was revealed
        reason = _problem(rules, seat, seen, reveal, reveal["commit"], sent)
        proof["late"] = True
        if reason is None:
            reason = "this game was not connected when the hand was dealt: no commitment seen"
            return {**proof, "verdict": "unchecked", "reason": reason}
    else:
        reason = _problem(rules, seat, seen, reveal, commit_before, sent)
    proof["verdict"] = "checked" if reason is None else "mismatch"
    if reason is not None:
        proof["reason"] = reason
    return proof


def _problem(
    rules: Rules,
    seat: int,
    seen: Sequence[Event],
    reveal: fair.Reveal,
    commit_before: str | None,
    sent: bytes | None,
) -> str | None:
    if commit_before is None:
        return "no commitment came before the deal: the server could have chosen it"
    if reveal["commit"] != commit_before:
        return "the commitment revealed is not the one sent before the deal"
    seed = fair.hex_bytes(reveal["seed"], SEED_SIZE)
    if seed is None or len(seed) != SEED_SIZE:
        return "the seed revealed is not 32 bytes of hex"
    if hashlib.sha256(seed).hexdigest() != commit_before:
        return "the seed revealed does not match the commitment"
    values = [fair.hex_bytes(value, MAX_VALUE) for value in reveal["values"]]
    if len(values) != rules.players:
        return f"{len(values)} values revealed for {rules.players} seats"
    checked = [value for value in values if value is not None]
    if len(checked) != len(values):
        return "a value revealed is not hex of 64 bytes at most"
    if sent is not None and checked[seat] != sent:
        return "the value this game sent is not the one the deal was made with"
    problem = check_seen(rules, derive_deck(rules, seed, checked), seat, seen)
    return None if problem is None else f"the cards do not fit the revealed deal: {problem}"
