"""Gaps in a record: phases the archive did not keep.

A record may lack a phase that was played: Droidippy histories skip a retreat phase
now and then (a dislodged unit is simply gone in the next recorded phase) or a whole
spring turn (a winter followed by a fall). Neither is an adjudicator's bug, and neither
makes the record unreadable: the phase before the gap has no next position to be judged
on (or, for a missing retreat phase, only one that includes the retreats), and the
phase after it has its own recorded position to be judged from.

- :func:`skipped_phases`: the phases missing between two recorded phases whose names
  cannot follow each other (``W1901A`` then ``F1902M``: ``S1902M`` is missing). The
  phase before is reported as a ``gap``; it is never compared with a position a whole
  turn later.
- :func:`through_missing_retreat`: our position after a movement phase whose record goes
  on past the retreat phase we go to (a dislodged unit with somewhere to retreat). The
  retreat phase is played as the record shows it: a dislodged unit that now stands, of
  its power and kind, on one of the places it could retreat to retreated there; any
  other was disbanded. Likewise an adjustment phase the record skips although the next
  spring shows builds or removals: they are played as shown (and checked: a build
  beyond the allowance is not made). What the record shows is then compared with that
  position, so a bug of the phase itself still shows as a disagreement.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..adjudicator import adjudicate
from ..board import Phase, PhaseKind, Season
from ..formats.records import RecordedPhase, format_unit, next_phase_names, package_phase_name
from ..orders import Build, Disband, Order, Remove, Retreat, UnitRef
from ..results import PhaseResult
from ..rules import Rules
from ..state import State

__all__ = ["MissingRetreat", "skipped_phases", "through_missing_retreat"]

_MAX_SKIPPED = 40  # phases named at most (a record jumping decades is named by its ends)


def _following(phase: Phase) -> Phase:
    """The phase after `phase` when every phase is played (retreats and adjustments too)."""
    if phase.kind is PhaseKind.MOVEMENT:
        return Phase(phase.year, phase.season, PhaseKind.RETREAT)
    if phase.season is Season.SPRING:
        return Phase(phase.year, Season.FALL, PhaseKind.MOVEMENT)
    if phase.kind is PhaseKind.RETREAT:
        return Phase(phase.year, Season.FALL, PhaseKind.ADJUSTMENT)
    return Phase(phase.year + 1, Season.SPRING, PhaseKind.MOVEMENT)


def skipped_phases(rec: RecordedPhase, nxt: RecordedPhase | None) -> str | None:
    """Why `nxt` cannot be the phase after `rec` (phases missing between them), or None.

    Phases with nothing to do may be skipped by any archive (no retreat phase without a
    dislodged unit, no adjustment phase without builds or removals): they are not gaps.
    A next phase that comes earlier is a gap too (each phase is judged from its own
    recorded position)."""
    if rec.phase is None or nxt is None or nxt.phase is None or nxt.name in next_phase_names(rec.phase):
        return None
    target = package_phase_name(nxt.phase)
    walk, missing = rec.phase, []
    for _ in range(_MAX_SKIPPED):
        walk = _following(walk)
        if package_phase_name(walk) == target:
            break
        if walk.kind is PhaseKind.MOVEMENT:
            missing.append(package_phase_name(walk))
    else:  # it comes earlier (or decades later): no phases to name
        return f"the record goes from {rec.name} to {nxt.name}, which cannot follow it"
    if not missing:  # only retreat or adjustment phases between them: names that may be skipped
        return None
    return (f"the record goes from {rec.name} to {nxt.name}: {', '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} missing, so {rec.name} has no recorded outcome to be judged on")


@dataclass(frozen=True)
class MissingRetreat:
    """Our position past a retreat phase the record does not have, and what happened in it."""

    after: State
    note: str


def through_missing_retreat(result: PhaseResult, nxt: RecordedPhase, rules: Rules) -> MissingRetreat | None:
    """Our position after `result` played through the retreat phase (a movement phase that
    leaves units to retreat) and the adjustment phase (builds or removals the next position
    shows) the record skips before `nxt`, or None when it skips neither."""
    retreat = _through_retreat(result, nxt, rules)
    after = retreat.after if retreat is not None else result.after
    adjustment = _through_adjustment(after, nxt, rules)
    if adjustment is None:
        return retreat
    return MissingRetreat(adjustment.after, "; ".join(m.note for m in (retreat, adjustment) if m is not None))


def _through_adjustment(after: State, nxt: RecordedPhase, rules: Rules) -> MissingRetreat | None:
    """An adjustment phase the record skips although its next position shows builds or
    removals, played as it shows them (each still checked: a build beyond the allowance
    is not made, a power that removes too few loses units by civil disorder)."""
    if after.phase.kind is not PhaseKind.ADJUSTMENT or nxt.kind is not PhaseKind.MOVEMENT or nxt.state is None:
        return None
    ours, recorded = set(after.units), set(nxt.state.units)
    builds = [u for u in sorted(recorded - ours, key=str) if after.map.provinces[u.province].centre]
    removals = sorted(ours - recorded, key=str)
    if not builds and not removals:
        return None  # nothing to do, or nothing done: the phase may be skipped
    orders: list[Order] = [Build(u.location, u.kind, u.power) for u in builds]
    orders += [Remove(UnitRef(u.location, u.kind, u.power), u.power) for u in removals]
    told = [f"{u.power} builds {format_unit(u)}" for u in builds] + [f"{u.power} removes {format_unit(u)}"
                                                                        for u in removals]
    return MissingRetreat(adjudicate(after, orders, rules).after,
                          f"the record has no adjustment phase {package_phase_name(after.phase)} before {nxt.name} "
                          f"(a gap in the record); as it shows: {', '.join(told)}")


def _through_retreat(result: PhaseResult, nxt: RecordedPhase, rules: Rules) -> MissingRetreat | None:
    after = result.after
    if after.phase.kind is not PhaseKind.RETREAT or nxt.kind is PhaseKind.RETREAT or nxt.state is None \
            or not after.dislodged:
        return None
    recorded = {(u.power, u.kind, u.province) for u in nxt.state.units}
    staying = {(u.power, u.kind, u.province) for u in after.units}
    orders: list[Order] = []
    told = []
    for d in after.dislodged:
        unit = d.unit
        ref = UnitRef(unit.location, unit.kind, unit.power)
        dest = next((loc for loc in result.retreat_options.get(unit, ())
                     if (unit.power, unit.kind, loc.province) in recorded - staying), None)
        if dest is None:
            orders.append(Disband(ref, unit.power))
            told.append(f"{unit.power} {format_unit(unit)} gone (disbanded)")
        else:
            orders.append(Retreat(ref, dest, unit.power))
            told.append(f"{unit.power} {format_unit(unit)} retreated to {str(dest).upper()}")
    played = adjudicate(after, orders, rules).after
    return MissingRetreat(played, f"the record has no retreat phase {package_phase_name(after.phase)} before "
                                  f"{nxt.name} (a gap in the record); as it shows: " + ", ".join(told))
