"""The bot protocol (``docs/bot-protocol.md``): views from JSON, the server loop that answers
requests with a bot, and the client that plays through an external program.

>>> import random
>>> from briscola.engine import GameState, Rules, view
>>> state = GameState.new(Rules.preset("teams4"), random.Random(4))
>>> seen = view(state, 1)
>>> view_from_json(seen.to_json()) == seen
True
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any, Final

from briscola.engine import (
    Action,
    Bid,
    Card,
    PlayerView,
    Rules,
    Suit,
    SwapRecord,
    Trick,
    action_from_json,
)
from briscola.engine.state import Phase

from .base import Bot

__all__ = [
    "PROTOCOL",
    "BotProgramError",
    "ProgramBot",
    "handle_request",
    "serve",
    "view_from_json",
]

PROTOCOL: Final = "briscola-bot/1"
_PHASES: Final = ("auction", "call", "play", "over")


class BotProgramError(RuntimeError):
    """An external bot program misbehaved: it crashed, timed out or answered badly."""


# ---------------------------------------------------------------------------- view_from_json


def _get(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in data:
        raise ValueError(f"view: missing {key!r}")
    value = data[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        raise ValueError(f"view: {key!r} has the wrong type")
    if not isinstance(value, kinds):
        raise ValueError(f"view: {key!r} has the wrong type")
    return value


def _card(code: Any, where: str) -> Card:
    try:
        return Card.from_code(code)
    except (ValueError, TypeError):
        raise ValueError(f"view: {where}: invalid card {code!r}") from None


def _cards(codes: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(codes, list):
        raise ValueError(f"view: {where} must be a list of card codes")
    return tuple(_card(code, where) for code in codes)


def _opt_card(code: Any, where: str) -> Card | None:
    return None if code is None else _card(code, where)


def _seat(value: Any, n: int, where: str, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        raise ValueError(f"view: {where} must be a seat from 0 to {n - 1}")
    return value


def _ints(values: Any, n: int, where: str) -> tuple[int, ...]:
    if not isinstance(values, list) or len(values) != n:
        raise ValueError(f"view: {where} must list {n} numbers")
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values):
        raise ValueError(f"view: {where} must hold non-negative integers")
    return tuple(values)


def _bid(text: Any, where: str) -> Bid:
    try:
        action = action_from_json({"bid": text})
    except ValueError as exc:
        raise ValueError(f"view: {where}: {exc}") from None
    assert isinstance(action, Bid)
    return action


def view_from_json(data: Mapping[str, Any]) -> PlayerView:
    """Rebuild the :class:`PlayerView` that :func:`briscola.engine.record.view_to_json` wrote.

    Raises ``ValueError`` naming the field for anything malformed or inconsistent.
    """
    if not isinstance(data, Mapping):
        raise ValueError("view must be a JSON object")
    try:
        rules = Rules.from_dict(_get(data, "rules", dict))
    except ValueError as exc:
        raise ValueError(f"view: rules: {exc}") from None
    n = rules.players
    seat = _seat(_get(data, "seat", int), n, "seat")
    dealer = _seat(_get(data, "dealer", int), n, "dealer")
    phase = _get(data, "phase", str)
    if phase not in _PHASES:
        raise ValueError(f"view: phase must be one of {', '.join(_PHASES)}")
    current = _seat(data.get("current_player"), n, "current_player", optional=True)
    hand = _cards(_get(data, "hand", list), "hand")
    hand_sizes = _ints(_get(data, "hand_sizes", list), n, "hand_sizes")
    if hand_sizes[seat] != len(hand):
        raise ValueError("view: hand_sizes disagrees with the hand")
    trump_code = data.get("trump")
    try:
        trump = None if trump_code is None else Suit.from_code(trump_code)
    except (ValueError, TypeError, AttributeError):
        raise ValueError(f"view: invalid trump {trump_code!r}") from None
    briscola = _opt_card(data.get("briscola"), "briscola")
    briscola_in_stock = bool(_get(data, "briscola_in_stock", bool))
    stock_size = _get(data, "stock_size", int)
    if not 0 <= stock_size <= 40:
        raise ValueError("view: stock_size out of range")
    stock_top = _opt_card(data.get("stock_top"), "stock_top")
    table_data = _get(data, "table", list)
    table: list[tuple[int, Card]] = []
    for entry in table_data:
        if not isinstance(entry, Mapping):
            raise ValueError("view: table entries must be objects {seat, card}")
        table.append((_seat(entry.get("seat"), n, "table seat"), _card(entry.get("card"), "table")))
    tricks: list[Trick] = []
    for i, entry in enumerate(_get(data, "tricks", list)):
        where = f"trick {i + 1}"
        if not isinstance(entry, Mapping):
            raise ValueError(f"view: {where} must be an object")
        leader = _seat(entry.get("leader"), n, f"{where} leader")
        cards = _cards(entry.get("cards"), where)
        if len(cards) != n:
            raise ValueError(f"view: {where} must hold {n} cards")
        winner = _seat(entry.get("winner"), n, f"{where} winner")
        points = entry.get("points")
        if points != sum(c.points for c in cards):
            raise ValueError(f"view: {where}: points disagree with the cards")
        seats = tuple((leader + k) % n for k in range(n))
        tricks.append(Trick(seats, cards, winner, points))
    points_by_seat = _ints(_get(data, "points", list), n, "points")
    pile_sizes = _ints(_get(data, "pile_sizes", list), n, "pile_sizes")
    known_data = _get(data, "known", list)
    if len(known_data) != n:
        raise ValueError(f"view: known must list {n} seats")
    known = tuple(frozenset(_cards(codes, "known")) for codes in known_data)
    voids_data = _get(data, "voids", list)
    if len(voids_data) != n or not all(isinstance(v, list) for v in voids_data):
        raise ValueError(f"view: voids must list {n} seats")
    try:
        voids = tuple(frozenset(Suit.from_code(code) for code in codes) for codes in voids_data)
    except (ValueError, TypeError, AttributeError):
        raise ValueError("view: invalid suit in voids") from None
    swaps: list[SwapRecord] = []
    for entry in _get(data, "swaps", list):
        if not isinstance(entry, Mapping):
            raise ValueError("view: swaps entries must be objects")
        trick_no = entry.get("trick")
        if not isinstance(trick_no, int) or isinstance(trick_no, bool) or trick_no < 0:
            raise ValueError("view: swap trick must be a number")
        swaps.append(
            SwapRecord(
                trick_no,
                _seat(entry.get("seat"), n, "swap seat"),
                _card(entry.get("gave"), "swap"),
                _card(entry.get("took"), "swap"),
            )
        )
    bids: list[tuple[int, Bid | None]] = []
    high_bid: Bid | None = None
    high_bidder: int | None = None
    for entry in data.get("auction") or []:
        if not isinstance(entry, Mapping):
            raise ValueError("view: auction entries must be objects")
        bidder = _seat(entry.get("seat"), n, "auction seat")
        if entry.get("pass"):
            bids.append((bidder, None))
        else:
            bid = _bid(entry.get("bid"), "auction")
            bids.append((bidder, bid))
            high_bid, high_bidder = bid, bidder
    caller = _seat(data.get("caller"), n, "caller", optional=True)
    called = _opt_card(data.get("called"), "called")
    partner = _seat(data.get("partner"), n, "partner", optional=True)
    played = {c for t in tricks for c in t.cards} | {c for _, c in table}
    partner_revealed = called is not None and called in played
    legal_data = _get(data, "legal", list)
    try:
        legal = tuple(action_from_json(entry) for entry in legal_data)
    except ValueError as exc:
        raise ValueError(f"view: legal: {exc}") from None
    places = list(hand) + [c for t in tricks for c in t.cards] + [c for _, c in table]
    for cards_known in known:
        places.extend(cards_known)
    if len(set(places)) != len(places):
        raise ValueError("view: a card is in two places")
    deck = set(rules.deck)
    if any(c not in deck for c in places):
        raise ValueError("view: a card that is not in this deck")
    if sum(hand_sizes) + stock_size + len(played) != rules.deck_size:
        raise ValueError("view: hands, stock and played cards do not add up to the deck")
    phase_value: Phase = phase
    return PlayerView(
        rules=rules,
        seat=seat,
        dealer=dealer,
        phase=phase_value,
        current_player=current,
        hand=hand,
        hand_sizes=hand_sizes,
        trump=trump,
        briscola=briscola,
        briscola_in_stock=briscola_in_stock,
        stock_size=stock_size,
        stock_top=stock_top,
        table=tuple(table),
        tricks=tuple(tricks),
        points=points_by_seat,
        pile_sizes=pile_sizes,
        known=known,
        voids=voids,
        swaps=tuple(swaps),
        bids=tuple(bids),
        high_bid=high_bid,
        high_bidder=high_bidder,
        caller=caller,
        called=called,
        partner=partner,
        partner_revealed=partner_revealed,
        legal=legal,
    )


# ---------------------------------------------------------------------------- server


def handle_request(
    line: str, make: Callable[[float | None], Bot], state: dict[str, Any]
) -> dict[str, Any] | None:
    """Answer one protocol line. Returns the reply object, or None for ``quit``.

    ``make(time_limit_seconds)`` builds the bot that answers ``act``; ``state`` keeps the
    bot between requests (one bot per ``new_game``).
    """
    try:
        message = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"malformed JSON: {exc.msg} (column {exc.colno})"}
    if not isinstance(message, dict):
        return {"error": "a request must be a JSON object"}
    cmd = message.get("cmd")
    if cmd == "quit":
        return None
    if cmd == "hello":
        return {"protocol": PROTOCOL, "name": state.get("name", "briscola")}
    if cmd == "new_game":
        rules = message.get("rules")
        if rules is not None:
            try:
                Rules.from_dict(rules)
            except ValueError as exc:
                return {"error": f"new_game: {exc}"}
        state.pop("bot", None)
        return {"ok": True}
    if cmd == "game_over":
        return {"ok": True}
    if cmd != "act":
        return {"error": f"unknown command {cmd!r}: expected hello, new_game, act, game_over, quit"}
    limit_ms = message.get("time_limit_ms")
    if limit_ms is not None and (
        not isinstance(limit_ms, int | float) or isinstance(limit_ms, bool) or limit_ms <= 0
    ):
        return {"error": "act: time_limit_ms must be a positive number"}
    try:
        seen = view_from_json(message.get("view"))  # type: ignore[arg-type]
    except ValueError as exc:
        return {"error": f"act: {exc}"}
    if seen.current_player != seen.seat or not seen.legal:
        return {"error": "act: it is not this seat's turn (no legal actions in the view)"}
    limit = None if limit_ms is None else float(limit_ms) / 1000.0
    bot = state.get("bot")
    if bot is None or state.get("limit") != limit:
        bot = make(limit)
        state["bot"] = bot
        state["limit"] = limit
    try:
        action = bot.choose(seen)
    except Exception as exc:  # a bot bug must not kill the program
        return {"error": f"act: the bot failed: {type(exc).__name__}: {exc}"}
    return action.to_json()


def serve(
    make: Callable[[float | None], Bot],
    stdin: IO[str],
    stdout: IO[str],
    name: str = "briscola",
) -> int:
    """Answer requests from ``stdin`` until ``quit`` or end of input; returns the exit code."""
    state: dict[str, Any] = {"name": name}
    for line in stdin:
        if not line.strip():
            continue
        reply = handle_request(line, make, state)
        if reply is None:
            return 0
        stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        stdout.flush()
    return 0


# ---------------------------------------------------------------------------- client


class ProgramBot:
    """A bot played by an external program over the protocol (the arena's ``cmd:`` bots).

    Every answer is checked: a crash, a timeout, malformed output, an error reply or an
    illegal action raises :class:`BotProgramError` (the arena counts the game as forfeit and
    starts the program afresh for the next game).
    """

    def __init__(
        self,
        command: str | Sequence[str],
        time_limit: float | None = None,
        timeout: float = 30.0,
        name: str | None = None,
    ) -> None:
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.command:
            raise ValueError("empty bot command")
        self.name = name or f"cmd:{' '.join(self.command)}"
        self.time_limit = time_limit
        self.timeout = timeout
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()

    # -- process management

    def _start(self) -> subprocess.Popen[str]:
        if self._proc is not None and self._proc.poll() is None:
            return self._proc
        self.close()
        try:
            proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        except OSError as exc:
            raise BotProgramError(f"{self.name}: cannot start: {exc}") from None
        self._proc = proc
        self._lines = queue.Queue()
        lines = self._lines
        out = proc.stdout
        assert out is not None

        def pump() -> None:
            for text in out:
                lines.put(text)
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        return proc

    def close(self) -> None:
        """Ask the program to quit, then make sure it is gone."""
        proc = self._proc
        self._proc = None
        if proc is None:
            return
        try:
            if proc.poll() is None and proc.stdin is not None:
                proc.stdin.write('{"cmd":"quit"}\n')
                proc.stdin.flush()
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def request(self, message: Mapping[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """Send one request and read one reply object (an error reply raises)."""
        proc = self._start()
        assert proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            proc.stdin.flush()
        except OSError:
            self._crashed(proc)
        try:
            line = self._lines.get(timeout=timeout or self.timeout)
        except queue.Empty:
            proc.kill()
            self._proc = None
            raise BotProgramError(
                f"{self.name}: no answer within {timeout or self.timeout:.1f} s"
            ) from None
        if line is None:
            self._crashed(proc)
        assert line is not None
        try:
            reply = json.loads(line)
        except json.JSONDecodeError:
            raise BotProgramError(f"{self.name}: answered with malformed JSON: {line!r}") from None
        if not isinstance(reply, dict):
            raise BotProgramError(f"{self.name}: answered with a non-object: {line!r}")
        if "error" in reply:
            raise BotProgramError(f"{self.name}: error: {reply['error']}")
        return reply

    def _crashed(self, proc: subprocess.Popen[str]) -> None:
        self._proc = None
        try:
            code = proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            code = proc.wait()
        raise BotProgramError(f"{self.name}: the program exited (status {code})")

    # -- the bot interface

    def new_game(self, rules: Rules, seat: int, game: int | None = None) -> None:
        message: dict[str, Any] = {"cmd": "new_game", "rules": rules.to_dict(), "seat": seat}
        if game is not None:
            message["game"] = game
        self.request(message)

    def game_over(self, result: Mapping[str, Any]) -> None:
        self.request({"cmd": "game_over", "result": dict(result)})

    def choose(self, view: PlayerView) -> Action:
        message: dict[str, Any] = {"cmd": "act", "view": view.to_json()}
        if self.time_limit is not None:
            message["time_limit_ms"] = max(1, round(self.time_limit * 1000))
        reply = self.request(message)
        try:
            action = action_from_json(reply)
        except ValueError as exc:
            raise BotProgramError(f"{self.name}: bad action {reply!r}: {exc}") from None
        if action not in view.legal:
            raise BotProgramError(
                f"{self.name}: illegal action {action} (legal: "
                + " ".join(str(a) for a in view.legal)
                + ")"
            )
        return action
