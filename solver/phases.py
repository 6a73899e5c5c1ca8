"""The phase sequence and centre ownership.

movement -> retreats (only when a dislodged unit can retreat) -> next movement,
or after the fall turn (and its retreats) centre ownership changes and the
adjustment phase follows.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Final

from .board import Location, Phase, PhaseKind, Season, Unit, UnitKind
from .rules import RetreatAfterConvoy, Rules
from .state import Dislodged, State, in_place_order

_SPRING: Final = Season.SPRING
_FALL: Final = Season.FALL
_MOVEMENT: Final = PhaseKind.MOVEMENT
_RETREAT: Final = PhaseKind.RETREAT
_ADJUSTMENT: Final = PhaseKind.ADJUSTMENT
_ARMY: Final = UnitKind.ARMY
_FLEET: Final = UnitKind.FLEET
_WING: Final = UnitKind.WING
"""Read once: an enum member read off its class goes through the metaclass's attribute hook
each time (Python 3.11), and every phase asks for these."""

_CENTRE: Final = itemgetter(0)


def after_movement(state: State, units: tuple[Unit, ...], dislodged: tuple[Dislodged, ...],
                   standoffs: frozenset[str], rules: Rules) -> tuple[State, dict[Unit, tuple[Location, ...]]]:
    """The state after a movement turn (the retreat phase, or the phase after it) and
    the retreat options of each dislodged unit that can retreat. `units` (the units after
    the turn) and `dislodged` in place order, as a state keeps them."""
    if dislodged:
        phase = Phase(state.phase.year, state.phase.season, _RETREAT)
        staged = State.in_order(state.variant, phase, units, state.owners, dislodged, standoffs)
        options = {d.unit: retreat_options(staged, d, rules) for d in dislodged}
        # A dislodged unit with nowhere to go is disbanded at once (jDip's convention).
        can_retreat = tuple(d for d in dislodged if options[d.unit])
        if can_retreat:  # a new value: the staged state keeps what retreat_options cached
            return (State.in_order(state.variant, phase, units, state.owners, can_retreat, standoffs),
                    {d.unit: options[d.unit] for d in can_retreat})
    return after_retreats(state, units), {}


def retreat_choices(state: State, rules: Rules) -> dict[Unit, tuple[Location, ...]]:
    """Where each dislodged unit of a retreat phase may retreat under the rules."""
    return {d.unit: retreat_options(state, d, rules) for d in state.dislodged}


def retreat_options(state: State, dislodged: Dislodged, rules: Rules) -> tuple[Location, ...]:
    """Where a dislodged unit may retreat: adjacent for its kind, not occupied,
    not the attacker's origin, not left empty by a standoff this turn."""
    the_map = state.map
    unit = dislodged.unit
    attacker_origin_open = dislodged.by_convoy and rules.retreat_after_convoy is RetreatAfterConvoy.ALLOWED  # DATC 4.A.5 b

    def open_to(province: str) -> bool:
        if state.unit_at(province) is not None:
            return False  # occupied
        if province == dislodged.attacker_origin and not attacker_origin_open:
            return False  # not where the attacker came from
        return province not in state.standoffs  # not an area left empty by a standoff

    if unit.kind is _FLEET:
        return tuple(sorted(loc for loc in the_map.fleet_adjacency.get(unit.location, ()) if open_to(loc.province)))
    if unit.kind is _ARMY:
        provinces = the_map.army_adjacency.get(unit.province, frozenset())
    else:
        provinces = the_map.neighbours(unit.province)
    return tuple(Location(p) for p in sorted(provinces) if open_to(p))


def after_retreats(state: State, units: tuple[Unit, ...] | None = None) -> State:
    """The state after the retreat phase (or a movement turn without one), with `units`
    (default: the state's; in place order, as a state keeps them)."""
    phase = state.phase
    units = state.units if units is None else units
    if phase.season is _SPRING:
        return State.in_order(state.variant, Phase(phase.year, _FALL, _MOVEMENT), units, state.owners)
    return State.in_order(state.variant, Phase(phase.year, _FALL, _ADJUSTMENT), units,
                          owners_after_fall(state, units))


def after_adjustments(state: State, units: tuple[Unit, ...] | None = None, ordered: bool = False) -> State:
    """The state after the adjustment phase, with `units` (default: the state's; in any
    order: they are put in place order, unless `ordered` says they are in it already)."""
    phase = Phase(state.phase.year + 1, _SPRING, _MOVEMENT)
    if units is None:
        return state.with_(phase=phase)
    return State.in_order(state.variant, phase, units if ordered else in_place_order(units), state.owners,
                          state.dislodged, state.standoffs)


def owners_after_fall(state: State, units: tuple[Unit, ...]) -> tuple[tuple[str, str], ...]:
    """After the fall turn a centre belongs to the power whose unit stands in it
    (wings cannot capture centres). In order by centre, as a state keeps them."""
    owners = dict(state.owners)  # in order by centre: a centre changing hands keeps its place
    known = len(owners)
    centres, wing = state.variant.centres, _WING
    changed = False
    for unit in units:
        province = unit.location.province
        if province in centres and unit.kind is not wing and owners.get(province) != unit.power:
            owners[province] = unit.power
            changed = True
    if not changed and known == len(state.owners):
        return state.owners  # no centre changed hands
    if len(owners) == known:  # no centre owned for the first time: still in order
        return tuple(owners.items())
    return tuple(sorted(owners.items(), key=_CENTRE))  # by centre: each is named once
