"""The rules engine: pure Python (standard library only), no pygame.

Data flows one way: a :class:`GameState` holds everything; :func:`view` gives what one seat
may know; the GUI and the computer players act only through that view; actions go back
through :meth:`GameState.apply`, which raises :class:`IllegalMoveError` for a move the rules
forbid.
"""

from __future__ import annotations

from .actions import (
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
from .cards import DECK, Card, Rank, Suit, cards_from_codes, codes
from .codec import CodecError, ViewError, parse_json, view_from_json, view_to_json
from .events import (
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
    Swapped,
    TrickWon,
)
from .match import Match
from .record import FORMAT, ReplayError, read_records, replay, to_record, write_records
from .rules import PRESET_DESCRIPTIONS, PRESETS, MatchFormat, Rules
from .sim import Sim
from .state import GameState, HandResult, SwapRecord, Trick, trick_winner
from .view import PlayerView, determinize, view

__all__ = [
    "DECK",
    "FORMAT",
    "PASS",
    "PRESETS",
    "PRESET_DESCRIPTIONS",
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
    "Sim",
    "Suit",
    "Swap",
    "SwapRecord",
    "Swapped",
    "Trick",
    "TrickWon",
    "ViewError",
    "action_from_json",
    "cards_from_codes",
    "codes",
    "determinize",
    "parse_action",
    "parse_json",
    "read_records",
    "replay",
    "to_record",
    "trick_winner",
    "view",
    "view_from_json",
    "view_to_json",
    "write_records",
]
