"""Small value types of the board: unit kinds, locations, units and phases."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Any

from .frozen import direct_init

Power = str
"""A power is named by its canonical English name (``"England"``)."""


class UnitKind(enum.Enum):
    """The kind of a unit: army, fleet, or (Modern) wing."""

    ARMY = "A"
    FLEET = "F"
    WING = "W"

    def __str__(self) -> str:
        return self.value

    __hash__ = object.__hash__  # members are singletons: identity hashing (Enum's hashes the name, slowly)


class Season(enum.Enum):
    SPRING = "Spring"
    FALL = "Fall"

    def __str__(self) -> str:
        return self.value

    __hash__ = object.__hash__  # members are singletons: identity hashing (Enum's hashes the name, slowly)


class PhaseKind(enum.Enum):
    MOVEMENT = "Movement"
    RETREAT = "Retreat"
    ADJUSTMENT = "Adjustment"

    def __str__(self) -> str:
        return self.value

    __hash__ = object.__hash__  # members are singletons: identity hashing (Enum's hashes the name, slowly)


class Value:
    """The base of the board's, the orders' and the outcomes' values, frozen dataclasses made
    for every unit and order of every phase: pickled and copied as their class makes them from
    their fields.

    setup.py compiles this module, :mod:`dipsat.orders` and :mod:`dipsat.outcomes`: a class
    compiled is native, its fields read in C by the compiled movement turn (from an
    interpreted class, each read is a lookup), and Python's default pickling, which sets a
    slotted object's fields one by one past the frozen guard, cannot rebuild one. Each class
    with fields writes its ``__init__`` out, with ``object.__setattr__`` per field: compiled,
    each is a store in C (the dataclass's own ``__init__`` would be Python). From the sources,
    :func:`~dipsat.frozen.direct_init` puts a faster one in its place (called after the
    class, not as a decorator: mypyc compiles a class with any decorator but ``dataclass`` as
    an interpreted one)."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, tuple[object, ...]]:
        return type(self), tuple([getattr(self, name) for name in self.__dataclass_fields__])  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True, order=True)
class Location(Value):
    """A province, or one coast of a split-coast province (``spa/nc``)."""

    province: str
    coast: str | None = None

    def __init__(self, province: str, coast: str | None = None) -> None:
        object.__setattr__(self, "province", province)
        object.__setattr__(self, "coast", coast)

    def __str__(self) -> str:
        return f"{self.province}/{self.coast}" if self.coast else self.province

    @classmethod
    def parse(cls, text: str) -> Location:
        """Read the canonical ``prov`` or ``prov/cc`` form (ids only, no aliases)."""
        province, _, coast = text.strip().lower().partition("/")
        return cls(province, coast or None)


direct_init(Location)


@dataclass(frozen=True, slots=True, order=True)
class Unit(Value):
    """A unit on the board."""

    power: Power
    kind: UnitKind
    location: Location

    def __init__(self, power: Power, kind: UnitKind, location: Location) -> None:
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "location", location)

    @property
    def province(self) -> str:
        return self.location.province

    def __str__(self) -> str:
        return f"{self.power}: {self.kind} {self.location}"


direct_init(Unit)


@dataclass(frozen=True, slots=True)
class Phase(Value):
    """A phase of the game, written like ``S1901M`` in short form."""

    year: int
    season: Season
    kind: PhaseKind

    def __init__(self, year: int, season: Season, kind: PhaseKind) -> None:
        object.__setattr__(self, "year", year)
        object.__setattr__(self, "season", season)
        object.__setattr__(self, "kind", kind)

    def __str__(self) -> str:
        return f"{self.season} {self.year}, {self.kind}"

    @property
    def short(self) -> str:
        return f"{self.season.value[0]}{self.year}{self.kind.value[0]}"

    @classmethod
    def parse_short(cls, text: str, *, strict: bool = False) -> Phase:
        """``S1902M``, ``F1902R``, ``W1902A`` (or ``F1902A``, as :attr:`short` writes it).

        ``S`` is spring, ``F`` and ``W`` fall; ``M`` movement, ``R`` retreat, anything
        else adjustment. By default case and spaces do not matter and ``B`` (builds)
        means adjustment; ``strict`` takes only the exact form ``[SFW]`` + 1-4 digits
        + ``[MRA]`` (it does not check that the season letter fits the kind).
        Raises ValueError."""
        m = (_SHORT_STRICT if strict else _SHORT).match(text)
        if not m:
            raise ValueError(f"phase {text!r}: expected e.g. S1902M, F1902R or W1902A")
        season = Season.SPRING if m.group(1).upper() == "S" else Season.FALL
        kind = {"M": PhaseKind.MOVEMENT, "R": PhaseKind.RETREAT}.get(m.group(3).upper(), PhaseKind.ADJUSTMENT)
        return cls(int(m.group(2)), season, kind)

    @classmethod
    def parse_long(cls, text: str) -> Phase:
        """``Spring 1901, Movement`` (also Fall/Autumn/Winter, Retreat(s), Adjustment(s),
        Build(s); the kind may be left out: movement, or adjustment in winter), or the year
        first as godip histories write it (``1901 Fall Adjustment``). Raises ValueError."""
        m = _LONG.match(text)
        if m:
            season_word, year, kind_word = m.group(1).lower(), int(m.group(2)), (m.group(3) or "").lower()
        else:
            m = _YEAR_FIRST.match(text)
            if not m:
                raise ValueError(f"phase {text!r}: expected e.g. 'Spring 1901, Movement'")
            season_word, year, kind_word = m.group(2).lower(), int(m.group(1)), (m.group(3) or "").lower()
        season = Season.SPRING if season_word == "spring" else Season.FALL
        if kind_word.startswith("retreat"):
            kind = PhaseKind.RETREAT
        elif kind_word.startswith(("adjust", "build")) or season_word == "winter":
            kind = PhaseKind.ADJUSTMENT
        else:
            kind = PhaseKind.MOVEMENT
        return cls(year, season, kind)

    @classmethod
    def parse(cls, text: str) -> Phase:
        """The short form (:meth:`parse_short`, lenient) or the long one (:meth:`parse_long`).
        Raises ValueError."""
        try:
            return cls.parse_short(text)
        except ValueError:
            return cls.parse_long(text)


direct_init(Phase)

_SHORT = re.compile(r"^\s*([SFW])\s*(\d+)\s*([MRAB])\s*$", re.I)
_SHORT_STRICT = re.compile(r"^([SFW])(\d{1,4})([MRA])$")
_LONG = re.compile(r"^\s*(spring|fall|autumn|winter)\s+(\d+)\s*,?\s*(movement|retreats?|adjustments?|builds?)?\s*$", re.I)
_YEAR_FIRST = re.compile(r"^\s*(\d+)\s+(spring|fall|autumn|winter)\s*,?\s*(movement|retreats?|adjustments?|builds?)?\s*$",
                         re.I)
