"""The position between two phases: immutable; phase logic returns a new one."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from .board import Location, Phase, PhaseKind, Power, Season, Unit, UnitKind
from .frozen import once

if TYPE_CHECKING:
    from .maps import Map, Variant


@dataclass(frozen=True, slots=True)
class Dislodged:
    """A unit dislodged in the last movement, waiting to retreat."""

    unit: Unit
    attacker_origin: str | None = None
    """Province the dislodging unit came from (None: unknown)."""
    by_convoy: bool = False
    """The dislodging army came by convoy (DATC 4.A.5: it may matter)."""


@dataclass(frozen=True)
class State:
    """Units, dislodged units, standoffs and centre ownership at a phase."""

    variant: Variant
    phase: Phase
    units: tuple[Unit, ...]
    owners: tuple[tuple[str, Power], ...]
    dislodged: tuple[Dislodged, ...] = ()
    standoffs: frozenset[str] = frozenset()
    """Provinces left empty by a standoff in the last movement (no retreat there)."""

    def __post_init__(self) -> None:
        _normalize(self.__dict__, _SORTED)

    @once
    def _index(self) -> dict[str, Unit]:
        """The unit in each province: derived from ``units`` on first use, by each
        state for itself (``dataclasses.replace`` makes a new state, with its own)."""
        return {u.location.province: u for u in self.units}

    @classmethod
    def initial(cls, variant: Variant) -> State:
        units = tuple(u for p in variant.powers for u in p.units)
        owners = tuple((c, p.name) for p in variant.powers for c in p.home_centres)
        return cls(variant, Phase(variant.start_year, Season.SPRING, PhaseKind.MOVEMENT), units, owners)

    @property
    def map(self) -> Map:
        return self.variant.map

    def unit_at(self, province: str) -> Unit | None:
        return self._index.get(province)

    @property
    def units_by_province(self) -> Mapping[str, Unit]:
        """The unit in each province: :meth:`unit_at` as one mapping, for callers that look
        up many (its ``get`` is a call of C, not of Python); one of two in one province (a
        record may have them)."""
        return self._index

    def units_of(self, power: Power) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.power == power)

    @once
    def owner_of(self) -> dict[str, Power]:
        return dict(self.owners)

    @once
    def sea_fleets(self) -> frozenset[str]:
        """Sea areas holding a fleet (the fleets that could convoy, DATC 6.D.32)."""
        seas, fleet = self.map.sea_provinces, _FLEET
        return frozenset(province for u in self.units
                         if u.kind is fleet and (province := u.location.province) in seas)

    def centres_of(self, power: Power) -> tuple[str, ...]:
        return tuple(c for c, p in self.owners if p == power)

    @classmethod
    def in_order(cls, variant: Variant, phase: Phase, units: tuple[Unit, ...], owners: tuple[tuple[str, Power], ...],
                 dislodged: tuple[Dislodged, ...] = (), standoffs: frozenset[str] = frozenset(),
                 by_province: dict[str, Unit] | None = None) -> State:
        """A new state from collections already in their one order (units and dislodged units
        by place, centres by name: as a state keeps them), not sorted again: phase logic that
        keeps them so makes the state after every phase this way. The same value as
        ``State(...)`` makes of them. `by_province`: the unit in each province, where the
        caller has it (a reader of positions, one unit a province): the state's, not made again
        (the caller changes it no more)."""
        new = object.__new__(cls)
        values = new.__dict__  # the fields in their order, as __init__ sets them
        values["variant"], values["phase"], values["units"], values["owners"] = variant, phase, units, owners
        values["dislodged"], values["standoffs"] = dislodged, standoffs
        if by_province is not None:
            values["_index"] = by_province  # (the cached property's value)
        return new

    def with_(self, **changes: Any) -> State:
        """A new state with these fields changed (what ``dataclasses.replace`` does, in a
        fraction of its time: phase logic calls it for every phase). Only the changed
        fields are put in order: the others are already."""
        if not changes.keys() <= _FIELD_SET:
            raise TypeError(f"State has no field {sorted(changes.keys() - _FIELD_SET)[0]!r}")
        new = object.__new__(State)
        values = new.__dict__  # a new value being made: frozen from here on
        mine = self.__dict__
        for name in _FIELDS:
            values[name] = mine[name]
        values.update(changes)
        _normalize(values, changes.keys() & _SORTED)
        return new

    def __hash__(self) -> int:
        return hash((self.phase, self.units, self.owners, self.dislodged, self.standoffs))

    def __repr__(self) -> str:
        """Compact, as python-chess shows a board: the variant, the phase and the counts
        (``str(state.units)`` and friends say the rest)."""
        extra = f", {len(self.dislodged)} dislodged" if self.dislodged else ""
        return (f"<State {self.variant.name} {self.phase}: {len(self.units)} units, "
                f"{len(self.owners)} centres owned{extra}>")

    def _repr_svg_(self) -> str:
        """The board, as notebooks show it (drawn by :mod:`dipsat.svg`)."""
        from .svg import position  # a printer, imported only when a notebook asks
        return position(self)


def _unit_key(unit: Unit) -> tuple[str, str]:
    return (unit.location.province, unit.location.coast or "")


_FLEET, _WING = UnitKind.FLEET, UnitKind.WING  # read once: an enum member read off its class goes through the metaclass
_FIELDS = ("variant", "phase", "units", "owners", "dislodged", "standoffs")
_FIELD_SET = frozenset(_FIELDS)
_SORTED = frozenset({"units", "owners", "dislodged"})


def _normalize(values: dict[str, Any], names: Iterable[str]) -> None:
    """A state's collections in their one order (units and dislodged units by place, centres
    by name), so equal positions are equal values: the fields `names` of `values`."""
    for name in names:
        if name == "units":
            values[name] = _sorted_by_place(values[name], _PROVINCE_OF_UNIT, _unit_key)
        elif name == "owners":
            values[name] = tuple(sorted(values[name]))
        elif values[name]:
            values[name] = _sorted_by_place(values[name], _PROVINCE_OF_DISLODGED, lambda d: _unit_key(d.unit))
        else:
            values[name] = ()


_PROVINCE_OF_UNIT = operator.attrgetter("location.province")
_PROVINCE_OF_DISLODGED = operator.attrgetter("unit.location.province")
_T = TypeVar("_T")


def in_place_order(units: Iterable[Unit], one_an_area: bool = False) -> tuple[Unit, ...]:
    """`units` in the one order a state keeps them: by place (province, then coast).
    `one_an_area`: the caller knows no two stand in one province (by province alone)."""
    if one_an_area:
        return tuple(sorted(units, key=_PROVINCE_OF_UNIT))
    return _sorted_by_place(units, _PROVINCE_OF_UNIT, _unit_key)


def _sorted_by_place(items: Iterable[_T], province: Callable[[_T], str], key: Callable[[_T], tuple[str, str]]) -> tuple[_T, ...]:
    """`items` sorted by `key` (province, then coast): by province alone where no province
    is named twice (the same order; a key read in C, three times faster: every new state sorts)."""
    out = sorted(items, key=province)
    if len(set(map(province, out))) < len(out):
        out = sorted(out, key=key)
    return tuple(out)


def placement_problem(variant: Variant, kind: UnitKind, loc: Location) -> str | None:
    """Why a unit of `kind` cannot stand at `loc` (None: it can)."""
    the_map = variant.map
    if the_map.can_occupy(kind, loc):  # the common case: asked of every unit a position is read with
        return None
    prov = the_map.provinces.get(loc.province)
    if prov is None:
        return f"unknown province {loc.province!r}"
    if kind is UnitKind.ARMY:
        if prov.is_sea:
            return f"an army cannot stand in {prov.name} (a sea)"
        return f"an army stands in {loc.province}, not on a coast (expected {loc.province!r})"
    if kind is UnitKind.FLEET:
        if prov.coasts and loc.coast is None:
            return (f"a fleet in {prov.name} must name its coast (expected one of "
                    f"{', '.join(repr(f'{loc.province}/{c}') for c in prov.coasts)})")
        return f"a fleet cannot stand in {prov.name} (inland)"
    return f"a wing stands in {loc.province}, not on a coast (expected {loc.province!r})"


def state_problems(state: State) -> list[str]:
    """What is wrong with a position (JSON states check this as they read; case files
    are checked with it by ``adjudicate``, ``cases`` and ``validate`` alike): unit
    placements, two units in a province (or the same unit twice), dislodged units
    outside a retreat phase, centres that are not centres."""
    problems = []
    seen: dict[str, Unit] = {}
    variant = state.variant
    can_occupy, wings = variant.map.can_occupy, variant.wings  # (read once: asked of every unit of every case)
    for unit in state.units:
        kind, loc = unit.kind, unit.location
        if not can_occupy(kind, loc):  # (placement_problem's common case, inline)
            problems.append(f"{unit}: {placement_problem(variant, kind, loc)}")
        if kind is _WING and not wings:
            problems.append(f"{unit}: wings are not used in this variant")
        province = loc.province
        if province in seen:
            problems.append(f"{unit}: {province} already holds {seen[province]}")
        seen[province] = unit
    dislodged_from: dict[str, Unit] = {}
    for d in state.dislodged:
        why = placement_problem(state.variant, d.unit.kind, d.unit.location)
        if why is not None:
            problems.append(f"dislodged {d.unit}: {why}")
        if d.unit.province in dislodged_from:
            problems.append(f"dislodged {d.unit}: {dislodged_from[d.unit.province]} is already dislodged from "
                            f"{d.unit.province}")
        dislodged_from[d.unit.province] = d.unit
    if state.dislodged and state.phase.kind is not PhaseKind.RETREAT:
        problems.append(f"dislodged units only exist in a retreat phase (the phase is {state.phase})")
    provinces = variant.map.provinces
    for centre, power in state.owners:
        prov = provinces.get(centre)
        if prov is None or not prov.centre:
            problems.append(f"{power} owns {centre}, which is not a supply centre")
    return problems
