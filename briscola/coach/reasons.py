"""Why a card is good or bad, in facts a player can check: a message id and parameters.

The coach never writes sentences: :func:`explain` picks one of :data:`REASONS` and fills a
:class:`Reason` with simple facts of the position (points on the table, whether the card
takes the trick, which cards still out could beat it, trumps still out) as seen by the
seat. The GUI turns it into a sentence in the player's language
(:func:`briscola.text.coachtext.reason_text`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Final

from briscola.ai.knowledge import Knowledge, beats, table_winner
from briscola.coach.assess import Assessment
from briscola.engine import Card, PlayerView

__all__ = ["REASONS", "Reason", "explain"]

#: Message ids, with what each says (the English sentences live in the GUI).
REASONS: Final[dict[str, str]] = {
    "only": "the only card that may be played",
    "take_safe": "takes the points on the table and nothing still out can beat it",
    "take_few": "takes the points on the table and only the beaters can beat it",
    "take": "takes the points on the table; worth the risk",
    "load": "the seat's side is taking the trick: the card adds its points",
    "keep_trumps": "gives nothing away and keeps the trumps",
    "let_go": "cannot (or need not) take the trick and gives away little",
    "lead_safe": "leads a card nothing still out can beat",
    "lead_cheap": "leads a card that risks few points",
    "spare": "gives away a few points to keep the other card for later",
    "spare_caught": "gives away points that the beaters, higher cards of its suit still out,"
    " could take later anyway",
    "take_lead": "takes a trick worth nothing at no cost: the seat leads next",
    "risk_nothing": "may take the trick and gives nothing away if it is beaten",
    "secure": "takes the trick and nothing still out can beat it: its points are safe",
    "secure_few": "takes the trick; only the beaters can take it and its points",
    "lead_trump": "leads a trump, to draw the trumps still out",
    "lead_few": "leads a card only the beaters can take",
    "lead_top": "leads the best card left of its suit: only a trump can take it",
    "keep": "plays this card to keep the other, the most valuable, for later",
    "close": "the card and the other one are about as good",
    "best": "the search's best card by its expected points (older records)",
    "gift": "gave its points to a trick the other side takes; the other card kept them",
    "wasted_trump": "spent a trump on a poor trick; the other card was enough",
    "missed": "the other card would have taken the points on the table",
    "exposed": "a lead the beaters could take; the other card was safer",
    "draw": "the trick decides the stock's last draw: its loser takes the face-up briscola"
    " (two players); the other card was worth more points",
    "worse": "the other card was worth more points",
    "fewer_wins": "the card shows more points than the other but wins the hand less often",
    "signal": "the other card answered the partner's signal",
}

#: At most this many beaters are named ("only the Three of coins can beat it").
FEW: Final = 2


@dataclass(frozen=True, slots=True)
class Reason:
    """One reason (``key`` in :data:`REASONS`) about ``card``, compared with ``other`` (the
    best card when ``card`` is not, the runner-up for ``close``)."""

    key: str
    card: Card
    other: Card | None = None
    #: Points of the cards on the table before ``card``.
    table_points: int = 0
    #: Cards still out (not seen by the seat) that could take the trick from ``card``.
    beaters: tuple[Card, ...] = ()
    #: Trumps the seat has not seen played or in its own hand.
    trumps_out: int = 0
    #: Expected points ``card`` gives up against the best card.
    loss: float = 0.0
    #: For the best card: another card about as good (:meth:`Assessment.about_as_good`).
    also: Card | None = None
    #: The expected points ``also`` shows above ``card`` (to 2 decimals, as in JSON) when
    #: they reach :data:`~briscola.coach.assess.CLOSE` (within the search's noise), else 0.
    also_edge: float = 0.0
    #: For the best card: the cards that show more points but win the hand less often
    #: (:meth:`Assessment.wins_less`), the most points first.
    fewer_wins: tuple[Card, ...] = ()
    #: For the best card: it answers a partner's signal, and another card shows more.
    signal: bool = False
    #: The face-up briscola that the loser of this trick draws (the stock's last draw, two
    #: players; an Ace or a Three), for ``draw``.
    draw: Card | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "card": self.card.code}
        if self.other is not None:
            out["other"] = self.other.code
        out["table_points"] = self.table_points
        out["beaters"] = [c.code for c in self.beaters]
        out["trumps_out"] = self.trumps_out
        out["loss"] = round(self.loss, 2)
        if self.also is not None:
            out["also"] = self.also.code
            if self.also_edge:
                out["also_edge"] = round(self.also_edge, 2)
        if self.fewer_wins:
            out["fewer_wins"] = [c.code for c in self.fewer_wins]
        if self.signal:
            out["signal"] = True
        if self.draw is not None:
            out["draw"] = self.draw.code
        return out

    @classmethod
    def from_json(cls, doc: Any) -> Reason:
        """The inverse of :meth:`to_json`; ValueError on anything else."""
        if not isinstance(doc, dict) or doc.get("key") not in REASONS:
            raise ValueError("a reason needs a known 'key'")
        other = doc.get("other")
        also = doc.get("also")
        draw = doc.get("draw")
        try:
            return cls(
                key=doc["key"],
                card=Card.from_code(doc["card"]),
                other=None if other is None else Card.from_code(other),
                table_points=int(doc.get("table_points", 0)),
                beaters=tuple(Card.from_code(c) for c in doc.get("beaters", [])),
                trumps_out=int(doc.get("trumps_out", 0)),
                loss=float(doc.get("loss", 0.0)),
                also=None if also is None else Card.from_code(also),
                also_edge=float(doc.get("also_edge", 0.0)),
                fewer_wins=tuple(Card.from_code(c) for c in doc.get("fewer_wins", [])),
                signal=doc.get("signal", False) is True,
                draw=None if draw is None else Card.from_code(draw),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"a reason is malformed: {exc}") from None


@dataclass(frozen=True, slots=True)
class _Facts:
    """What playing ``card`` does, as the seat can tell."""

    takes: bool  # the card is the best on the table once played
    mine: bool  # the trick's best card so far is the seat's side (before ``card``)
    table_points: int
    beaters: tuple[Card, ...]  # cards still out that later seats could take it with


def _facts(seen: PlayerView, kn: Knowledge, card: Card) -> _Facts:
    rules = seen.rules
    n = rules.players
    table = seen.table
    table_points = sum(c.points for _, c in table)
    mine = False
    if table:
        best_seat, best = table_winner(table, kn.trump, kn.strength)
        mine = kn.mates[best_seat] >= 1.0
        takes = beats(best, card, kn.trump, kn.strength)
        leader = table[0][0]
    else:
        takes = True
        leader = seen.seat
    top = card if takes else table_winner(table, kn.trump, kn.strength)[1]
    later = [(leader + i) % n for i in range(len(table) + 1, n)]
    pool: set[Card] = set()
    for seat in later:
        if kn.mates[seat] < 1.0:
            pool |= kn.unseen | kn.known[seat]
    beaters = tuple(sorted(kn.beaters(top, pool), key=lambda c: c.index)) if takes else ()
    return _Facts(takes=takes, mine=mine, table_points=table_points, beaters=beaters)


def explain(seen: PlayerView, found: Assessment, card: Card | None = None) -> Reason:
    """A reason for ``card`` (by default the best card of ``found``): why it is the best,
    or, for another card, what it gave up against the best."""
    kn = Knowledge.of(seen)
    best = found.best
    card = best if card is None else card
    trumps_out = sum(1 for c in kn.outstanding() if c.suit is seen.trump)
    facts = _facts(seen, kn, card)

    def reason(key: str, other: Card | None = None, beaters: tuple[Card, ...] = ()) -> Reason:
        return Reason(
            key=key,
            card=card,
            other=other,
            table_points=facts.table_points,
            beaters=beaters,
            trumps_out=trumps_out,
            loss=found.loss(card),
        )

    if len(found.values) == 1:
        return reason("only")
    if card != best:
        return _why_worse(seen, kn, found, card, facts, reason)
    also = found.runner_up()
    key, other, named = _why_best(seen, kn, found, card, facts)
    return replace(
        reason(key, other, named),
        also=also,
        also_edge=round(found.edge(also), 2) if also is not None and found.ahead(also) else 0.0,
        fewer_wins=found.wins_less(),
        signal=any(found.ahead(c) == "signal" for c, _ in found.values),
    )


def _kept(found: Assessment, card: Card, trump: object) -> Card:
    """The card of the hand most worth keeping once ``card`` is played: a trump first, then
    the most points, then the highest rank."""
    others = [c for c, _ in found.values if c != card]
    return max(others, key=lambda c: (c.suit is trump, c.points, int(c.rank), -c.index))


def _why_best(
    seen: PlayerView, kn: Knowledge, found: Assessment, card: Card, facts: _Facts
) -> tuple[str, Card | None, tuple[Card, ...]]:
    """The key, the other card named and the beaters named of the reason for the best card:
    always what it takes, saves or risks, what it keeps, or what is still out."""
    trump = seen.trump
    others = [c for c, _ in found.values if c != card]
    trumps_kept = card.suit is not trump and any(c.suit is trump for c in others)
    kept = _kept(found, card, trump)
    few = len(facts.beaters) <= FEW
    if seen.table:
        if facts.takes and not facts.mine and facts.table_points > 0:
            if not facts.beaters:
                return "take_safe", None, ()
            if few:
                return "take_few", None, facts.beaters
            return "take", None, facts.beaters
        if facts.mine and card.points > 0:
            return "load", None, ()
        if not facts.takes or facts.mine:
            if card.points == 0:
                return ("keep_trumps" if trumps_kept else "let_go"), None, ()
            cheaper = [c for c in others if c.points < card.points]
            if cheaper:
                # Points given away although a cheaper card was there: the higher cards of
                # its suit still out, which could catch it later, else for what it keeps
                # (the cheaper card the search likes best: the one a player would weigh).
                kept_card = max(cheaper, key=found.value)
                if card.suit is not trump:
                    above = kn.beaters(card, (c for c in kn.outstanding() if c.suit is card.suit))
                    if 0 < len(above) <= FEW:
                        return (
                            "spare_caught",
                            kept_card,
                            tuple(sorted(above, key=lambda c: c.index)),
                        )
                return "spare", kept_card, ()
            return "let_go", None, ()
        # It takes a trick worth nothing so far.
        if card.points == 0:
            return ("take_lead" if not facts.beaters else "risk_nothing"), None, ()
        if not facts.beaters:
            return "secure", None, ()
        if few:
            return "secure_few", None, facts.beaters
        return "keep", kept, ()
    if not facts.beaters:
        return "lead_safe", None, ()
    if card.points <= 4 and card.suit is not trump:
        if card.points == 0 and trumps_kept:
            return "keep_trumps", None, ()
        return "lead_cheap", None, facts.beaters
    if few:
        return "lead_few", None, facts.beaters
    if card.suit is trump:
        return "lead_trump", None, ()
    if trump is not None and all(c.suit is trump for c in facts.beaters):
        return "lead_top", None, ()
    return "keep", kept, ()


def _why_worse(
    seen: PlayerView,
    kn: Knowledge,
    found: Assessment,
    card: Card,
    facts: _Facts,
    reason: Callable[..., Reason],
) -> Reason:
    best = found.best
    trump = seen.trump
    ahead = found.ahead(card)
    if ahead == "wins":
        return reason("fewer_wins", best)
    if ahead == "signal":
        return reason("signal", best)
    if found.about_as_good(card):
        return reason("close", best)
    best_facts = _facts(seen, kn, best)
    if seen.table:
        if best_facts.takes and not facts.takes and not best_facts.mine:
            return reason("missed", best)
        if not facts.takes and not facts.mine and card.points > best.points:
            return reason("gift", best)
        if card.suit is trump and best.suit is not trump and facts.table_points + card.points < 10:
            return reason("wasted_trump", best)
    draw = last_draw(seen)
    if draw is not None:
        # Who takes the face-up Ace or Three weighs more than the beaters (issue 50: a
        # 10-point Three called the "safer" lead).
        return replace(reason("draw", best), draw=draw)
    exposed = len(best_facts.beaters) < len(facts.beaters) and card.points > 0
    if not seen.table and exposed:
        return reason("exposed", best, facts.beaters)
    return reason("worse", best)


def last_draw(seen: PlayerView) -> Card | None:
    """The face-up briscola when this trick decides who takes it: two players, the stock's
    last two cards (the winner draws the covered one, the loser the briscola), and it is an
    Ace or a Three; else None."""
    briscola = seen.briscola
    if seen.rules.players != 2 or not seen.briscola_in_stock or briscola is None:
        return None
    return briscola if seen.stock_size == 2 and briscola.points >= 10 else None
