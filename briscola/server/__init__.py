"""The Briscola network server (no pygame): tables of people and computer players over
WebSockets, judged by the engine. Run ``python -m briscola.server``; the protocol is in
``docs/network-protocol.md`` and deployment in ``docs/server.md``.

:class:`Server` runs on an asyncio loop; :class:`ServerThread` runs one in a background
thread (tests, and :class:`~briscola.server.embedded.EmbeddedHost`, the server of a game
that hosts a table); ``python -m tools.load`` measures it. Messages are built and read only
through :mod:`briscola.protocol.messages`.
"""

from briscola.server.app import Server, ServerConfig
from briscola.server.seats import TableError
from briscola.server.tables import Table
from briscola.server.thread import ServerThread

__all__ = ["Server", "ServerConfig", "ServerThread", "Table", "TableError"]
