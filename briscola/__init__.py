"""Briscola: the Italian trick-taking card game, as a desktop game.

The package is split in three: :mod:`briscola.engine` (the rules, pure Python, no pygame),
:mod:`briscola.ai` (computer players that see only a seat's view) and :mod:`briscola.gui`
(the pygame-ce application).
"""

__version__ = "0.1.0"
