"""The table in parts: session (the game), director (events to animation steps), board
(where the cards are), painter (what is drawn), hand input and the auction panel. The
:class:`~briscola.gui.scenes.table.TableScene` wires them together."""
