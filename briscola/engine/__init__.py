"""The rules engine: pure Python (standard library only), no pygame.

Data flows one way: a :class:`GameState` holds everything; :func:`view` gives what one seat
may know; the GUI and the computer players act only through that view; actions go back
through :meth:`GameState.apply`, which raises :class:`IllegalMoveError` for a move the rules
forbid.
"""

from __future__ import annotations

from briscola.engine.actions import (
    PASS,
    Action,
    Bid,
    Call,
    IllegalMoveError,
    Pass,
    Play,
    Swap,
    action_from_json,
    parse_action,
)
from briscola.engine.cards import DECK, Card, Rank, Suit, cards_from_codes, codes
from briscola.engine.codec import CodecError, ViewError, parse_json
from briscola.engine.determinize import determinize
from briscola.engine.events import (
    Auction,
    BriscolaTurned,
    Called,
    Dealt,
    Drew,
    Event,
    HandOver,
    HandStarted,
    MatchOver,
    PartnerRevealed,
    Played,
    Signalled,
    Swapped,
    TrickWon,
    action_of,
)
from briscola.engine.match import Match
from briscola.engine.record import (
    FORMAT,
    ReplayError,
    read_records,
    replay,
    to_record,
    write_records,
)
from briscola.engine.rules import (
    PRESET_DESCRIPTIONS,
    PRESETS,
    VARIANTS,
    MatchFormat,
    Rules,
    Variant,
)
from briscola.engine.signals import (
    SIGNAL_KINDS,
    Signal,
    legal_signals,
    signal_from_json,
    signal_kinds,
    view_signals,
)
from briscola.engine.sim import Sim
from briscola.engine.state import GameState, HandResult, SwapRecord, Trick, trick_winner
from briscola.engine.view import PlayerView, view, view_from_json, view_to_json

__all__ = [
    "DECK",
    "FORMAT",
    "PASS",
    "PRESETS",
    "PRESET_DESCRIPTIONS",
    "SIGNAL_KINDS",
    "VARIANTS",
    "Action",
    "Auction",
    "Bid",
    "BriscolaTurned",
    "Call",
    "Called",
    "Card",
    "CodecError",
    "Dealt",
    "Drew",
    "Event",
    "GameState",
    "HandOver",
    "HandResult",
    "HandStarted",
    "IllegalMoveError",
    "Match",
    "MatchFormat",
    "MatchOver",
    "PartnerRevealed",
    "Pass",
    "Play",
    "Played",
    "PlayerView",
    "Rank",
    "ReplayError",
    "Rules",
    "Signal",
    "Signalled",
    "Sim",
    "Suit",
    "Swap",
    "SwapRecord",
    "Swapped",
    "Trick",
    "TrickWon",
    "Variant",
    "ViewError",
    "action_from_json",
    "action_of",
    "cards_from_codes",
    "codes",
    "determinize",
    "legal_signals",
    "parse_action",
    "parse_json",
    "read_records",
    "replay",
    "signal_from_json",
    "signal_kinds",
    "to_record",
    "trick_winner",
    "view",
    "view_from_json",
    "view_signals",
    "view_to_json",
    "write_records",
]
