"""The game above the rules (no pygame, no sockets, no files): the one match driver and what
plays through it.

- :mod:`~briscola.game.driver`: :class:`~briscola.game.driver.MatchDriver`, a match
  between seats (people, computer players, a person replaced by a computer and back): every
  action through the engine, bots through a port, the fallback when one fails, undo, the
  record of each hand with who made each move. The local table and the server both drive
  their matches through it, and it is rebuilt from a record.
- :mod:`~briscola.game.bots`: where computer players think (a port the caller passes in)
  and the one ``think``.
- :mod:`~briscola.game.local`: :class:`~briscola.game.local.LocalSession`, a match on this
  computer as the table sees it (hot-seat privacy, pace, undo), keeping its files through a
  :class:`~briscola.game.local.Keeper` the caller passes in.
- :mod:`~briscola.game.record` and :mod:`~briscola.game.lesson`: the replay's session of a
  recorded hand (one trick at a time, every hand open) and the first lesson's (a fixed
  deal, a scripted teacher, its words passed in).
- :mod:`~briscola.game.session`: what the table reads of a game and what it does to it,
  the same for a local match, a replay and a table on a server.
- :mod:`~briscola.game.setup` and :mod:`~briscola.game.summary`: a new game's seats and
  rules; what the score screen shows of a finished hand.
"""
