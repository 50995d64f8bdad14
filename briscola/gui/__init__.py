"""The pygame-ce application: one :class:`~briscola.gui.app.App` owning the window, the clock,
a scene stack, the assets and the audio. Importing this package does no pygame work."""
