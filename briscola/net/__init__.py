"""Network play, client side (no pygame): the wire format shared with the server
(:mod:`briscola.net.wire`), an asyncio client that runs in a background thread
(:mod:`briscola.net.client`), the :class:`~briscola.net.session.RemoteSession` a table
plays through, and finding tables on the local network (:mod:`briscola.net.lan`).

The protocol is described in ``docs/network-protocol.md``; the server is
:mod:`briscola.server`.
"""
