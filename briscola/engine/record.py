"""Game records: one JSON document per hand, and replay.

The format (``briscola-record/1``) is documented in ``docs/record-format.md``. A record holds
the rules, the dealer, the whole shuffled deck (top first), the auction and call, the swaps,
every trick, the cards of an unfinished trick and the result. :func:`replay` rebuilds the
exact state from a record and refuses one that breaks a rule, naming the trick and reason.

>>> import random
>>> from .rules import Rules
>>> state = GameState.new(Rules.preset("classic2"), random.Random(5))
>>> while not state.is_terminal():
...     state.apply(state.legal_actions()[-1])
>>> doc = to_record(state)
>>> doc["format"], len(doc["deck"]), len(doc["tricks"])
('briscola-record/1', 40, 20)
>>> replay(doc).points == state.points
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Final

from briscola.engine.actions import PASS, Call, IllegalMoveError, Play, Swap, action_from_json
from briscola.engine.cards import Card
from briscola.engine.codec import CodecError, card_from_json, parse_json, rules_from
from briscola.engine.rules import short_repr
from briscola.engine.signals import Signal, Signalled, signals_from_json, signals_to_json
from briscola.engine.state import GameState, SwapRecord

__all__ = [
    "FORMAT",
    "ReplayError",
    "read_records",
    "replay",
    "to_record",
    "write_records",
]

FORMAT: Final = "briscola-record/1"


class ReplayError(CodecError):
    """A record that cannot be replayed: malformed, or a move the rules forbid."""


def to_record(state: GameState, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The record of ``state`` (finished or not) as a JSON-ready dict.

    ``meta`` (player names, dates, match information...) is stored as given under ``"meta"``.
    """
    if state.determinized or not state.deck:
        raise ValueError("a determinized state has no deck order and cannot be recorded")
    doc: dict[str, Any] = {
        "format": FORMAT,
        "rules": state.rules.to_dict(),
        "dealer": state.dealer,
        "deck": [card.code for card in state.deck],
    }
    if state.rules.chiamata:
        doc["auction"] = [
            {"seat": seat, "pass": True} if bid is None else {"seat": seat, "bid": str(bid)[4:]}
            for seat, bid in state.bids
        ]
        if state.caller is not None and state.called is not None:
            doc["call"] = {"seat": state.caller, "card": state.called.code}
    doc["swaps"] = [
        {"trick": s.trick, "seat": s.seat, "gave": s.gave.code, "took": s.took.code}
        for s in state.swaps
    ]
    doc["tricks"] = [
        {
            "leader": trick.leader,
            "cards": [card.code for card in trick.cards],
            "winner": trick.winner,
            "points": trick.points,
        }
        for trick in state.tricks
    ]
    if state.trick:
        doc["table"] = {"leader": state.trick_seats[0], "cards": [c.code for c in state.trick]}
    doc.update(signals_to_json(state.signals))
    doc["result"] = state.outcome().to_json() if state.is_terminal() else None
    if meta:
        doc["meta"] = dict(meta)
    return doc


def _card(code: Any, where: str) -> Card:
    return card_from_json(code, where, ReplayError)


def _field(doc: Any, key: str, kind: type, where: str = "record") -> Any:
    if not isinstance(doc, Mapping):
        raise ReplayError(f"{where}: must be an object")
    if key not in doc:
        raise ReplayError(f"{where}: missing {key!r}")
    value = doc[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        name = {"dict": "an object", "list": "a list", "int": "a whole number"}
        raise ReplayError(f"{where}: {key!r} must be {name.get(kind.__name__, kind.__name__)}")
    return value


def _optional(doc: Mapping[str, Any], key: str, kind: type) -> Any:
    """``doc[key]`` when present and not null (checked against ``kind``), else None."""
    if doc.get(key) is None:
        return None
    return _field(doc, key, kind)


def replay(doc: Any) -> GameState:
    """Rebuild the state a record describes, checking every move and stated outcome.

    Anything malformed (a wrong type anywhere, a missing field) or against the rules
    raises :class:`ReplayError` naming the place; ``meta`` is free-form and never read.
    """
    if not isinstance(doc, Mapping):
        raise ReplayError("a record must be a JSON object")
    if doc.get("format") != FORMAT:
        found = doc.get("format")
        found_text = repr(found) if isinstance(found, str | None) else "a non-string"
        raise ReplayError(f"unknown record format {found_text}: expected {FORMAT!r}")
    rules = rules_from(_field(doc, "rules", dict), ReplayError, "rules")
    dealer = _field(doc, "dealer", int)
    deck = [_card(code, "deck") for code in _field(doc, "deck", list)]
    try:
        state = GameState(rules, deck, dealer)
    except ValueError as exc:
        raise ReplayError(f"deck: {exc}") from None

    def act(action: Any, where: str) -> None:
        try:
            state.apply(action)
        except IllegalMoveError as exc:
            raise ReplayError(f"{where}: {exc}") from None

    auction = _optional(doc, "auction", list) or []
    if auction and not rules.chiamata:
        raise ReplayError("auction: only Briscola Chiamata has an auction")
    for i, entry in enumerate(auction):
        where = f"auction entry {i + 1}"
        seat = _field(entry, "seat", int, where)
        if seat != state.current_player:
            raise ReplayError(f"{where}: seat {seat} bid out of turn")
        passed = entry.get("pass", False)
        if not isinstance(passed, bool):
            raise ReplayError(f"{where}: 'pass' must be true or false")
        try:
            action = PASS if passed else action_from_json({"bid": entry.get("bid")})
        except ValueError as exc:
            raise ReplayError(f"{where}: {exc}") from None
        act(action, where)
    call = _optional(doc, "call", dict)
    if call is not None:
        if not rules.chiamata or state.phase != "call":
            raise ReplayError("call: the auction is not over")
        seat = _field(call, "seat", int, "call")
        if seat != state.current_player:
            raise ReplayError(f"call: seat {seat} did not win the auction")
        act(Call(_card(call.get("card"), "call")), "call")

    swaps = [_parse_swap(entry, i) for i, entry in enumerate(_optional(doc, "swaps", list) or [])]
    signals = list(signals_from_json(doc, rules, ReplayError))

    def signal_here() -> None:
        """Make the recorded signals that belong where the hand now is."""
        place = (len(state.tricks), len(state.trick))
        while signals and (signals[0].trick, signals[0].at) == place:
            made = signals.pop(0)
            act_signal(made)

    def act_signal(made: Signalled) -> None:
        try:
            state.signal(made.seat, Signal(made.kind))
        except IllegalMoveError as exc:
            raise ReplayError(
                f"trick {made.trick + 1}: signal by seat {made.seat}: {exc}"
            ) from None

    tricks = list(_field(doc, "tricks", list))
    table = _optional(doc, "table", dict)
    plays: list[tuple[int, Any, bool]] = [(i, t, True) for i, t in enumerate(tricks)]
    if table:
        plays.append((len(tricks), table, False))
    for number, trick, complete in plays:
        where = f"trick {number + 1}"
        if not isinstance(trick, Mapping):
            raise ReplayError(f"{where}: must be an object")
        if state.phase != "play":
            raise ReplayError(f"{where}: no trick can be played now (phase {state.phase})")
        leader = _field(trick, "leader", int, where)
        if leader != state.current_player:
            raise ReplayError(f"{where}: seat {leader} cannot lead, seat {state.leader} does")
        codes = _field(trick, "cards", list, where)
        if complete and len(codes) != rules.players:
            raise ReplayError(f"{where}: {len(codes)} cards for {rules.players} players")
        if not complete and len(codes) >= rules.players:
            raise ReplayError(f"{where}: {len(codes)} cards is a whole trick, not one on the table")
        for code in codes:
            signal_here()
            seat = state.current_player
            while swaps and swaps[0].trick == number and swaps[0].seat == seat:
                swap = swaps.pop(0)
                act(Swap(swap.gave), f"{where}: swap by seat {seat}")
                if state.swaps[-1].took != swap.took:
                    raise ReplayError(f"{where}: swap by seat {seat} took {state.swaps[-1].took}")
            act(Play(_card(code, where)), where)
        if complete:
            done = state.tricks[-1]
            winner, points = trick.get("winner"), trick.get("points")
            if not isinstance(winner, int) or isinstance(winner, bool) or winner != done.winner:
                raise ReplayError(
                    f"{where}: the record says seat {short_repr(winner)} won,"
                    f" the rules say seat {done.winner}"
                )
            if not isinstance(points, int) or isinstance(points, bool) or points != done.points:
                raise ReplayError(
                    f"{where}: the record says {short_repr(points)} points, the cards hold"
                    f" {done.points}"
                )
    signal_here()
    while swaps and swaps[0].trick == len(state.tricks) and swaps[0].seat == state.current_player:
        act(Swap(swaps.pop(0).gave), f"trick {len(state.tricks) + 1}: swap")
    signal_here()
    if signals:
        late = signals[0]
        raise ReplayError(
            f"trick {late.trick + 1}: signal {late.kind!r} by seat {late.seat} with {late.at}"
            " cards on the table was never made (out of order)"
        )
    if swaps:
        bad = swaps[0]
        raise ReplayError(
            f"trick {bad.trick + 1}: swap of {bad.gave} by seat {bad.seat} was never made"
            " (out of turn or order)"
        )
    result = _optional(doc, "result", dict)
    if result is not None:
        if not state.is_terminal():
            raise ReplayError("result: the record has a result but the hand is not finished")
        if dict(result) != state.outcome().to_json():
            raise ReplayError("result: the recorded result differs from the replayed one")
    return state


def _parse_swap(entry: Any, i: int) -> SwapRecord:
    where = f"swap {i + 1}"
    if not isinstance(entry, Mapping):
        raise ReplayError(f"{where}: must be an object")
    trick = _field(entry, "trick", int, where)
    if not 0 <= trick < 40:
        raise ReplayError(f"{where}: no trick {trick}")
    return SwapRecord(
        trick=trick,
        seat=_field(entry, "seat", int, where),
        gave=_card(entry.get("gave"), where),
        took=_card(entry.get("took"), where),
    )


def write_records(path: Path | str, docs: Iterable[Mapping[str, Any]]) -> int:
    """Write records as JSON lines; returns how many."""
    count = 0
    with open(path, "w", encoding="utf-8") as out:
        for doc in docs:
            out.write(json.dumps(doc, separators=(",", ":")) + "\n")
            count += 1
    return count


def read_records(path: Path | str) -> Iterator[dict[str, Any]]:
    """Read records from a JSON-lines file (or a single JSON document).

    Raises :class:`ReplayError` naming the line for text that is not JSON (too deep, not
    UTF-8...) or a line that is not an object, ``OSError`` when the file cannot be read.
    Each record still needs :func:`replay` to be checked.
    """
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReplayError(f"not UTF-8 text (byte {exc.start})") from None
    lines = [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    # One document written over several lines (indented): every line after the first is
    # indented or closes it. JSON lines start each record at the margin.
    indented = all(line[:1] in (" ", "\t", "}", "]") for _number, line in lines[1:])
    if len(lines) > 1 and lines[0][1].startswith("{") and indented:
        lines = [(1, text)]
    for number, line in lines:
        if not line.strip():
            continue
        try:
            doc = parse_json(line)
        except CodecError as exc:
            raise ReplayError(f"line {number}: {exc}") from None
        if not isinstance(doc, dict):
            raise ReplayError(f"line {number}: a record must be a JSON object")
        yield doc
