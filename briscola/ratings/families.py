"""Rating families: the tables whose players are rated together.

Every preset of :data:`~briscola.engine.rules.VARIANTS` belongs to one family by the shape
of its table (how many play and who with whom), whatever its deck or options:

* ``two``: two players (``classic2``, ``scoperta2``, ``briscolone2``);
* ``three``: three players, each for themselves (``classic3``);
* ``teams4``: four players in two teams (``teams4``, ``briscolone4``);
* ``chiamata``: Briscola Chiamata, the caller and partner against the other three;
* ``six``: six players in two teams of three (``teams6``).

>>> family_of(Rules.preset("scoperta2")), family_of(Rules.preset("chiamata5"))
('two', 'chiamata')
>>> FAMILY_PRESETS["teams4"]
('teams4', 'briscolone4')
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, Literal, get_args

from briscola.engine.rules import VARIANTS, Rules

__all__ = ["FAMILIES", "FAMILY_PRESETS", "Family", "check_family", "family_of"]

Family = Literal["two", "three", "teams4", "chiamata", "six"]
#: The families, in the order a leaderboard lists them.
FAMILIES: Final[tuple[Family, ...]] = get_args(Family)


def family_of(rules: Rules) -> Family:
    """The family of a table of ``rules``."""
    if rules.chiamata:
        return "chiamata"
    if rules.players == 2:
        return "two"
    if rules.players == 3:
        return "three"
    if rules.players == 4:
        return "teams4"
    return "six"


def check_family(name: str) -> Family:
    """``name`` as a family, or a ``ValueError`` listing the families."""
    for family in FAMILIES:
        if name == family:
            return family
    raise ValueError(f"unknown rating family {name!r}: expected one of {', '.join(FAMILIES)}")


#: The presets of each family, in the order of :data:`VARIANTS`.
FAMILY_PRESETS: Final[Mapping[Family, tuple[str, ...]]] = MappingProxyType(
    {family: tuple(v.name for v in VARIANTS if family_of(v.rules) == family) for family in FAMILIES}
)
