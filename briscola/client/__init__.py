"""Network play, client side (no pygame, no GUI): an asyncio client that runs in a
background thread (:mod:`~briscola.client.connection`), the way to a table and back as a
state machine any client drives (:mod:`~briscola.client.flow`: host, join, take a seat
back, the waiting room, leave; its failures as codes, worded for a person in
:mod:`~briscola.client.sentences`), the :class:`~briscola.client.session.RemoteSession` a
table plays through (the same session interface as a local game; a seat's leaving in
:mod:`~briscola.client.online`), and a headless player for scripts and tests
(:mod:`~briscola.client.headless`). The server is :mod:`briscola.server`.
"""
