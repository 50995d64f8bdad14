"""What the player reads about partner signals (*segni*): the short words of the bubble, the
bar and the log; the gesture and the meaning of each, for the rules screen; the option's
choices and the first-time tip."""

from __future__ import annotations

from typing import Final

from briscola.engine import Rules
from briscola.text.i18n import N_, _

__all__ = [
    "SIGNAL_GESTURES",
    "SIGNAL_MEANINGS",
    "SIGNAL_MODES",
    "signal_label",
    "signal_log_line",
    "signals_fact",
    "signals_mode_label",
    "signals_tip",
]

#: The choices of the signals option, as the New game screen lists them.
SIGNAL_MODES: Final = ("off", "partner", "open")

#: The short word of each signal (bubble, bar, log).
SIGNAL_LABELS: Final[dict[str, str]] = {
    "ace": N_("Ace of trump"),
    "three": N_("Three of trump"),
    "king": N_("King of trump"),
    "trump": N_("A smaller trump"),
    "none": N_("No trump"),
    # Translators: a "carico" (an Ace or a Three) of a suit that is not trump.
    "carico": N_("An Ace or Three"),
    "take": N_("Take it!"),
    "leave": N_("Let it go"),
}

#: The face or gesture of each signal at a bar table.
SIGNAL_GESTURES: Final[dict[str, str]] = {
    "ace": N_("Lips pushed forward, as for a kiss"),
    "three": N_("The mouth twisted to one side"),
    "king": N_("Eyes raised to the sky"),
    "trump": N_("Thumb rubbing the forefinger"),
    "none": N_("Eyes narrowed"),
    "carico": N_("Cheeks puffed out"),
    "take": N_("Said aloud: \u201ctake it\u201d"),
    "leave": N_("Said aloud: \u201clet it go\u201d"),
}

#: What each signal tells the partner.
SIGNAL_MEANINGS: Final[dict[str, str]] = {
    "ace": N_("I hold the Ace of trump."),
    "three": N_("I hold the Three of trump."),
    "king": N_("I hold the King of trump."),
    "trump": N_("I hold a smaller trump."),
    "none": N_("I hold no trump."),
    "carico": N_("I hold an Ace or a Three of another suit."),
    "take": N_("Take this trick."),
    "leave": N_("Let this trick go."),
}


def signal_label(kind: str) -> str:
    """The short, translated word of ``kind``."""
    return _(SIGNAL_LABELS[kind])


def signal_log_line(name: str, kind: str, mine: bool, computer: bool = False) -> str:
    """One line of the hand's log of signals (``computer``: made by a computer for the
    person of that seat, away or out of time).

    >>> signal_log_line("Bruno", "ace", False, computer=True)
    'Bruno (computer): Ace of trump'
    """
    signal = signal_label(kind)
    if mine:
        if computer:
            return _("Computer for you: {signal}").format(signal=signal)
        return _("You: {signal}").format(signal=signal)
    if computer:
        return _("{name} (computer): {signal}").format(name=name, signal=signal)
    return _("{name}: {signal}").format(name=name, signal=signal)


def signals_mode_label(mode: str) -> str:
    """The New game choice of the signals option."""
    if mode == "partner":
        return _("To the partner")
    if mode == "open":
        return _("Open (all see)")
    return _("Off")


def signals_fact(rules: Rules) -> str:
    """The New game screen's line about the signals option (when it is on)."""
    if rules.signals == "open":
        return _("Partner signals are allowed, and everyone sees them.")
    if rules.chiamata:
        return _("Once the partner is known, each side may signal to itself.")
    return _("Partners may signal to each other; the opponents do not see it.")


def signals_tip(rules: Rules) -> str:
    """The first-time tip at a table with signals on."""
    if rules.chiamata:
        return _(
            "Signals are on: once the partner is known, tell your side about your trumps"
            " with the faces at the bottom right (or F1 to F8)."
        )
    return _(
        "Signals are on: tell your partner about your trumps with the faces at the bottom"
        " right (or F1 to F8)."
    )
