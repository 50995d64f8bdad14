"""The pygame-ce application, the only package that imports pygame.

One :class:`~briscola.gui.app.App` owns the window, the clock and the scene stack, and hands
the scenes their services (:class:`~briscola.gui.scene.Services`: assets, audio, theme,
settings, storage, the bot worker); :mod:`~briscola.gui.options` holds what the command
line and the environment say, read once. Rooms: ``scenes/`` (one screen each, opened by
name), ``table/`` (the table's parts: view side only, over a session), ``widgets/``,
``render/``, ``layout/``; the online pages draw :class:`briscola.client.flow.OnlineFlow`.
Importing this package does no pygame work.
"""
