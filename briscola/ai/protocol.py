"""The bot protocol (``docs/bot-protocol.md``): the server loop that answers requests with a
bot, and the client that plays through an external program. Views travel through the
engine's codec (:mod:`briscola.engine.codec`), which checks every field.

>>> import json
>>> reply = handle_request('{"cmd": "hello", "id": 7}', lambda limit: None, {"name": "x"})
>>> reply == {"protocol": PROTOCOL, "name": "x", "id": 7}
True
>>> handle_request("[" * 5000 + "]" * 5000, lambda limit: None, {})
{'error': 'malformed JSON: JSON nested deeper than 200 levels'}
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any, Final

from briscola.ai.base import Bot
from briscola.engine import (
    SIGNAL_KINDS,
    Action,
    PlayerView,
    Rules,
    Signal,
    action_from_json,
    signal_from_json,
)
from briscola.engine.codec import CodecError, parse_json
from briscola.engine.view import view_from_json

__all__ = [
    "PROTOCOL",
    "BotProgramError",
    "ProgramBot",
    "handle_request",
    "serve",
]

PROTOCOL: Final = "briscola-bot/1"
#: The longest time a request may grant for one move.
MAX_TIME_LIMIT_MS: Final = 600_000


class BotProgramError(RuntimeError):
    """An external bot program misbehaved: it crashed, timed out or answered badly."""


# ---------------------------------------------------------------------------- server


#: A seat's partner signal for a view, or None (:func:`briscola.ai.signals.choose_signal`).
Signaller = Callable[[PlayerView], Signal | None]


def handle_request(
    line: str,
    make: Callable[[float | None], Bot],
    state: dict[str, Any],
    signaller: Signaller | None = None,
) -> dict[str, Any] | None:
    """Answer one protocol line. Returns the reply object, or None for ``quit``.

    ``make(time_limit_seconds)`` builds the bot that answers ``act``; ``state`` keeps the
    bot between requests (one bot per ``new_game``). ``signaller``, when given, may answer
    an ``act`` that offers signals (``may_signal``) with a signal instead of an action; the
    host then asks again. Never raises: whatever the line holds,
    the answer is a reply or an ``{"error": ...}`` object. A request's ``id`` (a number or
    a short string) is echoed in its reply, so a host can tell a late reply from the
    current one.
    """
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:  # bytes that were not UTF-8, kept as surrogates by the reader
        return {"error": "malformed JSON: not UTF-8 text"}
    try:
        message = parse_json(line)
    except CodecError as exc:
        return {"error": f"malformed JSON: {exc}"}
    if not isinstance(message, dict):
        return {"error": "a request must be a JSON object"}
    request_id = message.get("id")
    if request_id is not None and not _valid_id(request_id):
        return {"error": "id must be a whole number or a string of at most 64 characters"}
    try:
        reply = _answer(message, make, state, signaller)
    except Exception as exc:  # a bug must cost one request, never the program
        reply = {"error": f"internal error: {type(exc).__name__}: {exc}"}
    if reply is not None and request_id is not None:
        reply["id"] = request_id
    return reply


def _valid_id(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, str) and len(value) <= 64)


def _may_signal(message: Mapping[str, Any]) -> tuple[str, ...] | str:
    """The signal kinds an ``act`` request offers (none when absent), or what is wrong."""
    offered = message.get("may_signal", [])
    if not isinstance(offered, list) or not all(
        isinstance(kind, str) and kind in SIGNAL_KINDS for kind in offered
    ):
        return "act: may_signal must be a list of signal kinds (" + ", ".join(SIGNAL_KINDS) + ")"
    return tuple(offered)


def _answer(
    message: dict[str, Any],
    make: Callable[[float | None], Bot],
    state: dict[str, Any],
    signaller: Signaller | None,
) -> dict[str, Any] | None:
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
        shown = repr(cmd) if isinstance(cmd, str | None) else "of the wrong type"
        if isinstance(cmd, str) and len(shown) > 40:
            shown = shown[:37] + "..."
        return {"error": f"unknown command {shown}: expected hello, new_game, act, game_over, quit"}
    limit_ms = message.get("time_limit_ms")
    if limit_ms is not None and (
        not isinstance(limit_ms, int | float)
        or isinstance(limit_ms, bool)
        or not 0 < limit_ms <= MAX_TIME_LIMIT_MS
    ):
        return {"error": f"act: time_limit_ms must be a positive number up to {MAX_TIME_LIMIT_MS}"}
    if "view" not in message:
        return {"error": "act: missing 'view'"}
    try:
        seen = view_from_json(message["view"])
    except ValueError as exc:
        return {"error": f"act: {exc}"}
    if seen.phase == "over" or seen.current_player != seen.seat or not seen.legal:
        return {"error": "act: it is not this seat's turn (no legal actions in the view)"}
    offered = _may_signal(message)
    if isinstance(offered, str):
        return {"error": offered}
    if offered and signaller is not None:
        signal = signaller(seen)
        if signal is not None and signal.kind in offered:
            return signal.to_json()
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
    if action not in seen.legal:
        return {"error": f"act: the bot chose {action}, which is not legal"}
    return action.to_json()


def serve(
    make: Callable[[float | None], Bot],
    stdin: IO[str],
    stdout: IO[str],
    name: str = "briscola",
    signaller: Signaller | None = None,
) -> int:
    """Answer requests from ``stdin`` until ``quit`` or end of input; returns the exit code.
    ``signaller`` makes partner signals when an ``act`` offers them (:func:`handle_request`).

    A host that stops reading (its end of ``stdout`` closed) ends the loop quietly, as the
    end of input does.
    """
    state: dict[str, Any] = {"name": name}
    for line in stdin:
        if not line.strip():
            continue
        reply = handle_request(line, make, state, signaller)
        if reply is None:
            return 0
        try:
            stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
            stdout.flush()
        except (BrokenPipeError, ValueError):  # closed by the host
            return 0
    return 0


# ---------------------------------------------------------------------------- client


_ACTION_KEYS: Final = ("play", "swap", "bid", "pass", "call", "signal")


def _stale(message: Mapping[str, Any], reply: Mapping[str, Any]) -> bool:
    """A reply that answers another kind of request: an ``ok`` to an ``act``, or an action
    to anything else (a program that printed two lines for one request)."""
    if "error" in reply:
        return False
    is_action = any(key in reply for key in _ACTION_KEYS)
    return is_action != (message.get("cmd") == "act")


class ProgramBot:
    """A bot played by an external program over the protocol (the arena's ``cmd:`` bots).

    Every answer is checked: a crash, a timeout, malformed output, an error reply or an
    illegal action raises :class:`BotProgramError` (the arena counts the game as forfeit and
    starts the program afresh for the next game). Each request carries an ``id``; a reply
    with another request's ``id`` is late and skipped, and lines left over from an earlier
    request are dropped before the next one is sent, so a program that once answers twice
    does not put every later reply out of step.
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
        if not timeout > 0:
            raise ValueError("the bot timeout must be a positive number of seconds")
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._next_id = 0

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
                encoding="utf-8",
                errors="replace",
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
            try:
                for text in out:
                    lines.put(text)
            except (OSError, ValueError):
                pass
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
        """Send one request and read its reply object (an error reply raises)."""
        proc = self._start()
        assert proc.stdin is not None
        self._drain()
        self._next_id += 1
        request_id = self._next_id
        try:
            proc.stdin.write(json.dumps({**message, "id": request_id}, separators=(",", ":")))
            proc.stdin.write("\n")
            proc.stdin.flush()
        except (OSError, ValueError):
            self._crashed(proc)
        wait = timeout or self.timeout
        deadline = time.monotonic() + wait
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                proc.kill()
                self._proc = None
                raise BotProgramError(f"{self.name}: no answer within {wait:.1f} s") from None
            if line is None:
                self._crashed(proc)
            assert line is not None
            if not line.strip():
                continue
            try:
                reply = parse_json(line)
            except CodecError as exc:
                raise BotProgramError(
                    f"{self.name}: answered with malformed JSON ({exc}): {line[:80]!r}"
                ) from None
            if not isinstance(reply, dict):
                raise BotProgramError(f"{self.name}: answered with a non-object: {line[:80]!r}")
            if reply.get("id", request_id) != request_id:
                continue  # a late reply to an earlier request
            if "id" not in reply and _stale(message, reply):
                continue  # a program that does not echo ids: an answer to another request
            break
        if "error" in reply:
            raise BotProgramError(f"{self.name}: error: {str(reply['error'])[:300]}")
        return reply

    def _drain(self) -> None:
        """Drop lines the program printed after its last reply (the pipe's end is kept)."""
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self._lines.put(None)
                return

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
        answer = self.act(view)
        assert isinstance(answer, Action)  # act refuses a signal that was not offered
        return answer

    def act(self, view: PlayerView, may_signal: Sequence[Signal] = ()) -> Action | Signal:
        """The program's answer to ``act``: an action of ``view.legal``, or, when
        ``may_signal`` offers some, one of those signals (the host makes it, then asks
        again); anything else raises :class:`BotProgramError`."""
        message: dict[str, Any] = {"cmd": "act", "view": view.to_json()}
        if self.time_limit is not None:
            message["time_limit_ms"] = max(1, round(self.time_limit * 1000))
        if may_signal:
            message["may_signal"] = [signal.kind for signal in may_signal]
        reply = self.request(message)
        reply.pop("id", None)
        if "signal" in reply:
            return self._signal(reply, may_signal)
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

    def _signal(self, reply: Mapping[str, Any], may_signal: Sequence[Signal]) -> Signal:
        try:
            signal = signal_from_json(reply)
        except ValueError as exc:
            raise BotProgramError(f"{self.name}: bad signal {dict(reply)!r}: {exc}") from None
        if signal not in may_signal:
            offered = " ".join(s.kind for s in may_signal) or "none"
            raise BotProgramError(
                f"{self.name}: signal {signal.kind!r} not allowed now (may signal: {offered})"
            )
        return signal
