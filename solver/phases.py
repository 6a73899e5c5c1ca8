"""The phase sequence and centre ownership.

movement -> retreats (only when a dislodged unit can retreat) -> next movement,
or after the fall turn (and its retreats) centre ownership changes and the
adjustment phase follows.
"""

from __future__ import annotations

from .board import Phase, PhaseKind, Season, Unit, UnitKind
from .rules import Rules
from .state import Dislodged, State


def after_movement(state: State, units: list[Unit], dislodged: list[Dislodged],
                   standoffs: frozenset[str], rules: Rules) -> State:
    """The state after a movement turn: the retreat phase, or the phase after it."""
    from .retreats import retreat_options
    staged = state.with_(units=tuple(units), dislodged=tuple(dislodged), standoffs=standoffs,
                         phase=Phase(state.phase.year, state.phase.season, PhaseKind.RETREAT))
    # A dislodged unit with nowhere to go is disbanded at once (jDip's convention).
    can_retreat = tuple(d for d in dislodged if retreat_options(staged, d, rules))
    if can_retreat:
        return staged.with_(dislodged=can_retreat)
    return after_retreats(state.with_(units=tuple(units)))


def after_retreats(state: State) -> State:
    """The state after the retreat phase (or a movement turn without one)."""
    season, year = state.phase.season, state.phase.year
    cleared = state.with_(dislodged=(), standoffs=frozenset())
    if season is Season.SPRING:
        return cleared.with_(phase=Phase(year, Season.FALL, PhaseKind.MOVEMENT))
    owned = update_ownership(cleared)
    return owned.with_(phase=Phase(year, Season.FALL, PhaseKind.ADJUSTMENT))


def after_adjustments(state: State) -> State:
    return state.with_(phase=Phase(state.phase.year + 1, Season.SPRING, PhaseKind.MOVEMENT))


def update_ownership(state: State) -> State:
    """After the fall turn a centre belongs to the power whose unit stands in it
    (wings cannot capture centres)."""
    owners = dict(state.owners)
    for unit in state.units:
        if state.map.provinces[unit.province].centre and unit.kind is not UnitKind.WING:
            owners[unit.province] = unit.power
    return state.with_(owners=tuple(owners.items()))
