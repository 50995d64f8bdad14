"""What a new game is: the rules and who sits where (human or computer, strength, name)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from briscola.engine import Rules

LEVELS = ("easy", "medium", "hard")


@dataclass
class SeatConfig:
    name: str
    human: bool = False
    level: str = "medium"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "human": self.human, "level": self.level}

    @classmethod
    def from_json(cls, data: Any) -> SeatConfig:
        if not isinstance(data, dict):
            raise ValueError("a seat must be an object")
        level = data.get("level", "medium")
        if level not in LEVELS:
            level = "medium"
        name = "".join(ch for ch in str(data.get("name", "?")) if ch.isprintable())[:24]
        return cls(name or "?", bool(data.get("human", False)), level)


@dataclass
class GameSetup:
    """A new game: rules (match format included) and one :class:`SeatConfig` per seat.

    Seat 0 sits at the bottom of the screen; seats go counterclockwise in playing order.
    """

    rules: Rules
    seats: list[SeatConfig] = field(default_factory=list)
    seed: int | None = None

    def __post_init__(self) -> None:
        if len(self.seats) != self.rules.players:
            raise ValueError(f"{self.rules.players} seats needed, got {len(self.seats)}")

    @property
    def humans(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat.human]

    @property
    def hot_seat(self) -> bool:
        return len(self.humans) >= 2

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "seats": [seat.to_json() for seat in self.seats],
            "seed": self.seed,
        }

    @classmethod
    def from_json(cls, data: Any) -> GameSetup:
        if not isinstance(data, dict):
            raise ValueError("a game setup must be an object")
        rules = Rules.from_dict(data["rules"])
        seats = [SeatConfig.from_json(seat) for seat in data["seats"]]
        seed = data.get("seed")
        return cls(rules, seats, seed if isinstance(seed, int) else None)


#: The computer players' names: the first six by seat, the others spare (a person who
#: sits down with a computer's name: :func:`spare_computer_name`).
COMPUTER_NAMES: Final = (
    "Anna",
    "Bruno",
    "Carla",
    "Dario",
    "Elena",
    "Franco",
    "Giulia",
    "Marco",
    "Nadia",
    "Paolo",
    "Rita",
    "Sergio",
)


def computer_name(seat: int, level: str) -> str:
    return COMPUTER_NAMES[seat % 6]


def spare_computer_name(taken: Iterable[str]) -> str:
    """A computer's name that none of ``taken`` is (letter case aside).

    >>> spare_computer_name(["anna", "Bruno", "Carla"])
    'Dario'
    """
    used = {name.casefold() for name in taken}
    spare = (name for name in COMPUTER_NAMES if name.casefold() not in used)
    return next(spare, f"{COMPUTER_NAMES[0]} {len(used) + 1}")


def default_setup(rules: Rules, level: str = "medium", player: str = "You") -> GameSetup:
    """One human at the bottom (seat 0) called ``player``, computers elsewhere."""
    seats = [SeatConfig(player, human=True)]
    seats += [SeatConfig(computer_name(i, level), level=level) for i in range(1, rules.players)]
    return GameSetup(rules, seats)


def demo_setup(preset: str = "classic2", seed: int | None = None) -> GameSetup:
    """Computers only (for --demo): mixed strengths so the show is varied."""
    base = Rules.preset(preset)
    if base.chiamata:
        rules = base.replace(match="hands-3")
    elif base.match.kind == "points":
        rules = base
    else:
        rules = base.replace(match="best-of-3")
    levels = ["medium", "hard", "easy", "medium", "hard", "easy"]
    seats = [SeatConfig(computer_name(i, levels[i]), level=levels[i]) for i in range(rules.players)]
    return GameSetup(rules, seats, seed)
