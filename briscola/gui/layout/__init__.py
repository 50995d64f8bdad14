"""Layout arithmetic (no drawing): where the table puts seats, hands, the stock and the trick
at any window size and UI scale (:mod:`~briscola.gui.layout.table`), and the fan of cards on
the score screen (:mod:`~briscola.gui.layout.scorefan`).
"""
