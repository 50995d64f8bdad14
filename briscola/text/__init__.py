"""Every sentence a player reads, and its translation (no pygame): the catalogs
(:mod:`~briscola.text.i18n`), card and suit names by deck (:mod:`~briscola.text.names`,
over the deck manifests of :mod:`~briscola.text.decks`), labels of presets, levels, match
formats and bids (:mod:`~briscola.text.labels`), the coach's reasons
(:mod:`~briscola.text.coachtext`), the rules screen (:mod:`~briscola.text.rules`) and the
score screen's sentences (:mod:`~briscola.text.score`).
"""
