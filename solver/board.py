"""Small value types of the board: unit kinds, locations, units and phases."""

from __future__ import annotations

import enum
from dataclasses import dataclass

Power = str
"""A power is named by its canonical English name (``"England"``)."""


class UnitKind(enum.Enum):
    """The kind of a unit: army, fleet, or (Modern) wing."""

    ARMY = "A"
    FLEET = "F"
    WING = "W"

    def __str__(self) -> str:
        return self.value


class Season(enum.Enum):
    SPRING = "Spring"
    FALL = "Fall"

    def __str__(self) -> str:
        return self.value


class PhaseKind(enum.Enum):
    MOVEMENT = "Movement"
    RETREAT = "Retreat"
    ADJUSTMENT = "Adjustment"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True, order=True)
class Location:
    """A province, or one coast of a split-coast province (``spa/nc``)."""

    province: str
    coast: str | None = None

    def __str__(self) -> str:
        return f"{self.province}/{self.coast}" if self.coast else self.province

    @classmethod
    def parse(cls, text: str) -> Location:
        """Read the canonical ``prov`` or ``prov/cc`` form (ids only, no aliases)."""
        province, _, coast = text.strip().lower().partition("/")
        return cls(province, coast or None)


@dataclass(frozen=True, slots=True, order=True)
class Unit:
    """A unit on the board."""

    power: Power
    kind: UnitKind
    location: Location

    @property
    def province(self) -> str:
        return self.location.province

    def __str__(self) -> str:
        return f"{self.power}: {self.kind} {self.location}"


@dataclass(frozen=True, slots=True)
class Phase:
    """A phase of the game, written like ``S1901M`` in short form."""

    year: int
    season: Season
    kind: PhaseKind

    def __str__(self) -> str:
        return f"{self.season} {self.year}, {self.kind}"

    @property
    def short(self) -> str:
        return f"{self.season.value[0]}{self.year}{self.kind.value[0]}"
