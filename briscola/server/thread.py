"""A server on its own event loop in a background thread: the host's embedded server, the
game's self-check and the tests."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import Callable
from typing import Any

from briscola.protocol.errors import CloseReason
from briscola.server.app import Server, ServerConfig

__all__ = ["ServerThread"]


class ServerThread:
    """A server on its own event loop in a background thread (the host's embedded server,
    and tests). ``start()`` returns once it listens; ``stop()`` closes it cleanly."""

    def __init__(self, config: ServerConfig | None = None) -> None:
        self.server = Server(config)
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="briscola-server", daemon=True)
        self._ready = threading.Event()
        self._error: BaseException | None = None

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self.server.start())
        except BaseException as exc:
            self._error = exc
            self._ready.set()
            return
        self._ready.set()
        self.loop.run_forever()
        self.loop.run_until_complete(self.loop.shutdown_asyncgens())
        self.loop.close()

    def start(self) -> ServerThread:
        self._thread.start()
        self._ready.wait(30)
        if self._error is not None:
            raise self._error
        return self

    @property
    def url(self) -> str:
        return self.server.url

    def call(self, function: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Run ``function`` on the server's loop and return its result (for tests)."""

        async def run() -> Any:
            return function()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout)

    def stop(
        self, reason: CloseReason = CloseReason.SHUTDOWN, message: str = "the server is closing"
    ) -> None:
        if not self._thread.is_alive():
            return
        future = asyncio.run_coroutine_threadsafe(self.server.close(reason, message), self.loop)
        with contextlib.suppress(concurrent.futures.TimeoutError):
            future.result(20)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(20)
