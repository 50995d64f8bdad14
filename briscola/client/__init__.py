"""Network play, client side (no pygame, no GUI): an asyncio client that runs in a
background thread (:mod:`~briscola.client.connection`), the
:class:`~briscola.client.session.RemoteSession` a table plays through (the same session
interface as a local game), and a headless player for scripts and tests
(:mod:`~briscola.client.headless`). The server is :mod:`briscola.server`.
"""
