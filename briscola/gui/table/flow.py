"""Between hands: the end of a hand (its sound, then the score screen or, in a demo, the next
hand after a pause), the next hand, a rematch, the way back to the menu."""

from __future__ import annotations

from collections.abc import Callable

from briscola.game.lesson import Teaching
from briscola.game.session import TableSession, moved_on
from briscola.gui.table.director import Director
from briscola.gui.table.hand_input import HandInput
from briscola.storage.recent import keep_recent


class HandFlow:
    """Moves the director's session from hand to hand for the table; ``rebuild()`` redraws
    the table as it is now (a deal that is not animated), ``fresh()`` clears what the table
    showed of the hand before."""

    def __init__(
        self,
        session: TableSession,
        director: Director,
        hand: HandInput,
        rebuild: Callable[[], None],
        fresh: Callable[[], None],
    ) -> None:
        self.app = director.app
        self.session = session
        self.director = director
        self.board = director.board
        self.captions = director.captions
        self.hand = hand
        self.rebuild = rebuild
        self.fresh = fresh
        #: The hand shown has been summed up (the score screen is up, or a demo waits).
        self.done = False
        self.hands_played = 0

    def finish(self) -> None:
        """The hand has ended and its end is animated: sum it up."""
        summary = self.session.finish_hand()
        if summary is None:
            return  # not known yet (a remote table): ask again next frame
        self.done = True
        self.hands_played += 1
        self.app.audio.play(self.director.hand_sound(summary))
        if self.session.demo:
            self.director.then(lambda: self.director.f("demo result") or 0.5)
            self.director.then(self._demo_next)
            return
        epilogue = self.session.epilogue() if isinstance(self.session, Teaching) else ""
        if summary.record and not epilogue:
            keep_recent(summary.record)  # any recent hand can be replayed or reviewed
        self.app.open(
            "score",
            summary=summary,
            epilogue=epilogue,
            on_next=None if summary.match_over else self.next_hand,
            on_rematch=self.rematch,
            on_menu=self.to_menu,
            news=self.session.news,
        )

    def _demo_next(self) -> float:
        self.session.next_hand()
        self._show_new_hand()
        return 0.0

    def next_hand(self) -> None:
        """From the score screen: the next hand of the match."""
        self.app.pop()
        self.session.next_hand()
        self._show_new_hand()

    def rematch(self) -> None:
        """From the score screen: a new match with the same seats."""
        self.app.pop()
        self.session.rematch()
        self._show_new_hand()

    def to_menu(self) -> None:
        self.app.open("menu", mode="reset")

    def _show_new_hand(self) -> None:
        self.done = False
        self.fresh()
        self.hand.hint_card = None
        self.captions.bubbles.clear()
        self.board.clear()
        events = self.session.new_events()
        if events:
            self.director.show(events)
        elif not moved_on(self.session):  # the deal is not shown (hot seat): as it is now
            self.rebuild()
        # (Else the next deal is still to come, online: an empty table until it does.)
