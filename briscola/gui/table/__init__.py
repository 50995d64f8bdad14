"""The table in parts, each with one job; :class:`~briscola.gui.scenes.table.TableScene`
wires them together. Data flows one way::

    input (hand_input, auction, hud) -> session.submit(action) -> the game
    session.new_events() -> director (animation steps) -> board (sprites), captions
    board, captions, session.view() -> painter -> screen

- the session (:mod:`briscola.game.session`: what the table reads and does) is the game:
  ``local`` makes a :class:`~briscola.game.local.LocalSession` for the App, ``banner``
  shows what a table has to say beyond its cards (a lost connection, a player away). The
  replay's :class:`~briscola.game.record.RecordSession` and the first lesson's
  :class:`~briscola.game.lesson.LessonSession` are sessions too.
- ``director``: engine events to animation steps (``TIMINGS``), speech bubbles and banners.
- ``board``: where every card sprite is and should be.
- ``painter``: everything drawn; it only reads. ``compose``: a frame over the cached still
  layer, whole or only where it changed.
- ``hand_input``, ``auction``, ``hud``: the player's hand, the Chiamata panel, the buttons;
  ``keys`` routes the input to them. ``frame``: the pieces of a frame, and what lies over
  the cards.
- ``flow``: between hands (score screen, next hand, rematch).
- ``assist``, ``coach``: hints, the memory aid, undo and the first lesson's captions.
"""
