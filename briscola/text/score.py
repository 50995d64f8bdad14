"""What the score screen says about a hand: the verdict, the match, the details of a
Chiamata auction, the standing, who else has asked to go on (online). Plain text from a
:class:`HandSummary` (no drawing)."""

from __future__ import annotations

from typing import Any

from briscola.engine.fairdeal import record_verdict
from briscola.game.session import TableNews
from briscola.game.summary import HandSummary
from briscola.text.i18n import _, ngettext
from briscola.text.labels import bid_label, match_label, preset_label
from briscola.text.names import card_the


class HandTexts:
    """The sentences about ``summary`` (a mixin of the score screen; ``card_style`` is the
    deck style the card names follow)."""

    summary: HandSummary

    @property
    def card_style(self) -> str:
        """The naming style of the deck shown (``italian`` or ``french``)."""
        raise NotImplementedError

    def viewer_side(self) -> int | None:
        viewer = self.summary.viewer
        if viewer is None:
            return None
        for index, side in enumerate(self.summary.result.sides):
            if viewer in side:
                return index
        return None

    def side_label(self, side: int) -> str:
        return self.summary.side_name(side)

    def role(self, side: int) -> str:
        """What a side is, under its names (Chiamata roles, teams)."""
        summary = self.summary
        if summary.rules.chiamata:
            if side == 0:
                if summary.caller == summary.partner:
                    return _("The caller, alone")
                return _("The caller and the partner")
            return _("The other players")
        if summary.rules.teams:
            return _("Team {n}").format(n=side + 1)
        return ""

    def verdict(self) -> str:
        """The result in one line, from the viewer's point of view when there is one."""
        summary = self.summary
        result = summary.result
        if result.winner is None:
            if len(result.sides) > 2 and result.tied:
                names = " & ".join(self.side_label(side) for side in result.tied)
                points = result.side_points[result.tied[0]]
                return _("Draw between {names}: {points} points each").format(
                    names=names, points=points
                )
            a, b = result.side_points[0], result.side_points[1]
            return _("Draw {a}-{b}").format(a=a, b=b)
        mine = self.viewer_side()
        winners = result.sides[result.winner]
        if mine is not None:
            won = mine == result.winner
            group = len(result.sides[mine])
            if summary.rules.chiamata and group > 1:
                return _("Your side wins!") if won else _("Your side loses.")
            if summary.rules.teams:
                return _("Your team wins!") if won else _("Your team loses.")
            return _("You win!") if won else _("You lose.")
        if len(winners) == 1:
            return _("{name} wins!").format(name=self.side_label(result.winner))
        return _("{names} win!").format(names=self.side_label(result.winner))

    def title(self) -> str:
        """The title while the cards are counted (the verdict replaces it)."""
        return _("Counting the points")

    def subtitle(self) -> str:
        """The game, and the match with the hand's number."""
        summary = self.summary
        game = preset_label(summary.rules.name)
        if summary.rules.match.kind == "single":
            return game
        return _("Hand {n}: {game}, {match}").format(
            n=summary.hand_number, game=game, match=match_label(str(summary.rules.match))
        )

    def details(self) -> list[str]:
        """Sentences about the hand: the Chiamata auction, cappotto, who took what."""
        summary = self.summary
        result = summary.result
        style = self.card_style
        names = summary.names
        viewer = summary.viewer
        lines: list[str] = []
        if summary.rules.chiamata and summary.caller is not None:
            caller, partner = summary.caller, summary.partner
            bid = bid_label(summary.bid, style) if summary.bid is not None else ""
            card = card_the(summary.called, style) if summary.called is not None else "?"
            if caller == viewer:
                lines.append(_("You bid {bid} and called {card}.").format(bid=bid, card=card))
            else:
                lines.append(
                    _("{caller} bid {bid} and called {card}.").format(
                        caller=names[caller], bid=bid, card=card
                    )
                )
            if partner == caller:
                if caller == viewer:
                    lines.append(_("You played alone against the other four."))
                else:
                    lines.append(
                        _("{caller} played alone against the other four.").format(
                            caller=names[caller]
                        )
                    )
            elif partner is not None:
                if partner == viewer:
                    lines.append(_("You were the partner."))
                else:
                    lines.append(_("{partner} was the partner.").format(partner=names[partner]))
            lines.append(
                _("The caller's side took {points} points and needed {target}.").format(
                    points=result.side_points[0], target=result.target
                )
            )
        if result.cappotto:
            if summary.rules.chiamata:
                lines.append(_("Cappotto: all 120 points! Match points are doubled."))
            else:
                lines.append(_("Cappotto: all 120 points!"))
        if summary.rules.teams:
            for side in result.sides:
                parts = ", ".join(f"{names[seat]} {result.points[seat]}" for seat in side)
                lines.append(_("Points by player: {list}").format(list=parts))
        checked = deal_check(summary.record)
        if checked is not None:
            lines.insert(0, checked[1])
        rated = rating_change(summary.record, len(summary.rules.sides) or 2)
        if rated is not None:
            lines.insert(0, rated)
        return lines

    def standing_title(self) -> str:
        """The match: its format and progress, or its result once over."""
        summary = self.summary
        if summary.match_over and summary.rules.match.kind != "single":
            return self.match_result()
        match = summary.rules.match
        if match.kind == "single":
            return _("Single hand")
        if match.kind == "hands":
            return _("Hand {n} of {total}").format(n=summary.hand_number, total=match.target)
        return match_label(str(match))

    def match_result(self) -> str:
        summary = self.summary
        winners = summary.match_winners
        if not winners:
            return _("The match is drawn.")
        viewer = summary.viewer
        if summary.rules.chiamata:
            if viewer is not None and viewer in winners:
                return _("You win the match!") if len(winners) == 1 else _("You share the win!")
            names = " & ".join(summary.names[seat] for seat in winners)
            if len(winners) == 1:
                return _("{name} wins the match!").format(name=names)
            return _("{names} win the match!").format(names=names)
        side = winners[0]
        members = summary.rules.sides[side] if summary.rules.sides else (side,)
        if viewer is not None:
            mine = viewer in members
            if summary.rules.teams:
                return _("Your team wins the match!") if mine else _("Your team loses the match.")
            return _("You win the match!") if mine else _("You lose the match.")
        names = " & ".join(summary.names[seat] for seat in members)
        if len(members) == 1:
            return _("{name} wins the match!").format(name=names)
        return _("{names} win the match!").format(names=names)

    def standing_rows(self) -> tuple[str, list[tuple[str, str]]]:
        """The column heading and one ``(name, value)`` per side (per seat in Chiamata)."""
        summary = self.summary
        rules = summary.rules
        kind = rules.match.kind
        if kind == "single":
            return "", []
        if rules.chiamata:
            rows = []
            for seat, total in enumerate(summary.standing):
                delta = summary.result.returns[seat]
                rows.append((summary.names[seat], f"{total:+d}  ({delta:+d})"))
            return _("Match points (this hand)"), rows
        sides = rules.sides
        names = [" & ".join(summary.names[seat] for seat in side) for side in sides]
        if kind == "points":
            target = rules.match.target
            values = [f"{value} / {target}" for value in summary.standing]
            return _("Points"), list(zip(names, values, strict=True))
        values = [str(value) for value in summary.standing]
        return _("Hands won"), list(zip(names, values, strict=True))

    def going_on(self, news: TableNews) -> str:
        """Online, under the result: who else has asked to go on, or that the next hand
        (the new match) has begun already ("" when there is nothing to say)."""
        over = self.summary.match_over
        if news.dealt:
            if over:
                return _("The new match has begun: Rematch takes you to the table.")
            return _("The next hand has been dealt: Next hand takes you to it.")
        if not news.ready:
            return ""
        names = ", ".join(news.ready)
        if over:
            return ngettext(
                "{names} would like a rematch.", "{names} would like a rematch.", len(news.ready)
            ).format(names=names)
        return ngettext(
            "{names} is ready for the next hand.",
            "{names} are ready for the next hand.",
            len(news.ready),
        ).format(names=names)


def deal_check(record: dict[str, Any]) -> tuple[str, str] | None:
    """What an online hand's record says of its deal (docs/fairness.md): a short label and
    a sentence; None for a hand without a proof (a game on this computer).

    >>> deal_check({})
    """
    verdict = record_verdict(record)
    if verdict is None:
        return None
    if verdict == "checked":
        return _("Deal checked"), _(
            "Deal checked: every card you saw is where the server's revealed seed and every"
            " player's number put it."
        )
    meta = record.get("meta")
    late = (
        isinstance(meta, dict) and isinstance(meta.get("fair"), dict) and meta["fair"].get("late")
    )
    if verdict == "unchecked" and late:
        return _("Deal not checked"), _(
            "Deal not checked: your game was not connected when this hand was dealt, so it"
            " did not see what the server promised before it."
        )
    if verdict == "unchecked":
        return _("Deal not checked"), _(
            "Deal not checked: the server did not reveal its seed for this hand."
        )
    return _("Deal does not match!"), _(
        "Warning: this deal does not match what the server promised. Save the record: it"
        " keeps the evidence."
    )


def rating_change(record: dict[str, Any], sides: int = 2) -> str | None:
    """What a rated online hand changed, in one sentence (the server's ``rated``, kept in
    the record's meta): the rating before and after, and why, with the luck of the cards
    taken out (``sides``: the hand's sides; their even share of the 120 points). None for
    a hand that was not rated.

    >>> rating_change({"meta": {"rated": {"before": 3.1, "after": 4.4, "change": 1.3,
    ...     "points": 74, "luck": 8.5, "abandoned": False, "family": "two"}}})
    'Your rating: 3.1 → 4.4 (+1.3): you scored 6 points more than your cards were worth.'
    >>> rating_change({"meta": {"rated": {}}}) is None
    True
    """
    rated = record.get("meta", {}).get("rated") or {}
    if "after" not in rated:
        return None
    head = _("Your rating: {before} → {after} ({change})").format(
        before=f"{rated['before']:.1f}",
        after=f"{rated['after']:.1f}",
        change=f"{rated['change']:+.1f}",
    )
    if rated.get("abandoned"):
        why = _("a player left the hand, which counts as their loss.")
    elif rated.get("family") == "chiamata":
        why = _("the bid made or lost counts, not the cards.")
    else:
        more = round(rated["points"] - (120 / max(1, sides) + rated["luck"]))
        if more > 0:
            why = ngettext(
                "you scored {n} point more than your cards were worth.",
                "you scored {n} points more than your cards were worth.",
                more,
            ).format(n=more)
        elif more < 0:
            why = ngettext(
                "you scored {n} point less than your cards were worth.",
                "you scored {n} points less than your cards were worth.",
                -more,
            ).format(n=-more)
        else:
            why = _("you scored just what your cards were worth.")
    return _("{rating}: {why}").format(rating=head, why=why)
