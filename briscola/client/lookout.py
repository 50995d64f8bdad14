"""Looking for tables on the local network in the background, for any page that lists them.

:class:`~briscola.protocol.lan.TableBrowser` (zeroconf) takes a moment to start, and a page
must not wait for it: :class:`LanLookout` starts it on a thread, lists nothing until it runs
(nor ever, where it cannot start: an address can still be typed), and closes it on another
thread when the page goes, even if the page goes before it has started.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from briscola.protocol.lan import LanTable, TableBrowser


class LanLookout:
    """The tables announced on the interfaces ``interfaces`` (None: every one)."""

    def __init__(self, interfaces: Sequence[str] | None) -> None:
        self.interfaces = interfaces
        #: The running browser, once started (tests may set one of their own).
        self.browser: TableBrowser | None = None
        self._lock = threading.Lock()
        self._closed = False

    def start(self) -> LanLookout:
        threading.Thread(target=self._browse, name="briscola-browse", daemon=True).start()
        return self

    def _browse(self) -> None:
        try:
            browser = TableBrowser(self.interfaces).start()
        except Exception:  # no network to look on: nothing is listed
            return
        with self._lock:
            if not self._closed:
                self.browser = browser
                return
        browser.close()  # the page went while it started

    def tables(self) -> list[LanTable]:
        browser = self.browser
        return browser.tables() if browser is not None else []

    def in_play(self, code: str) -> LanTable | None:
        """The table in play ``code`` where it is announced now (None: not, or not yet):
        a host's game that opened it again on another port announces it so."""
        browser = self.browser
        return browser.in_play(code) if browser is not None else None

    def close(self) -> None:
        with self._lock:
            self._closed = True
            browser, self.browser = self.browser, None
        if browser is not None:
            threading.Thread(target=browser.close, name="briscola-browse-stop", daemon=True).start()
