"""A conclusion per order of a disagreeing phase: what the record implies happened to it,
against dipsat's outcome and its reason.

A record without per-order results (godip histories, webDiplomacy exports) only shows the
next position; from it each order involved gets what the record implies (the unit moved,
stayed, was dislodged, was removed, was built, retreated ...), written beside dipsat's
outcome with the deciding strengths, e.g. ``A GAL - RUM: the record implies it moved;
dipsat: fails (bounced; attack 2 vs prevent 2 of A ukr)``. Civil-disorder removals (no
order of their own) get dipsat's distances and tie-break (DATC 4.D.8).
"""

from __future__ import annotations

from ..board import PhaseKind, Unit
from ..formats.records import RecordedPhase, format_unit
from ..orders import Build, Disband, Move, Order, Remove, Retreat
from ..report import disorder_facts
from ..results import OrderResult, PhaseResult

__all__ = ["conclusions", "disorder_explanation"]


def conclusions(rec: RecordedPhase, nxt: RecordedPhase | None, result: PhaseResult, involved: list[str],
                subjects: set[str]) -> list[str]:
    """One line per order `involved` (labels as the report gives them, ``POWER: text``) and
    per civil-disorder removal of a unit in `subjects` (provinces the differences name)."""
    after = nxt.state if nxt is not None else None
    dislodged = {d.unit for d in after.dislodged} if after is not None and nxt is not None and (
        nxt.kind is PhaseKind.RETREAT) else set()
    units = set(after.units) if after is not None else None
    lines = []
    for (order, text), r in zip(rec.orders, result.results):
        label = f"{order.power.upper() if order.power else '?'}: {text}"
        if label not in involved:
            continue
        implied = _implied(order, r, units, dislodged) if units is not None else "(the record shows no next position)"
        lines.append(f"{label}: the record implies {implied}; dipsat: {_ours(r)}")
    for d in result.civil_disorder:
        if d.unit.province not in subjects:
            continue
        kept = units is not None and d.unit in units
        implied = "it was kept" if kept else "it was removed" if units is not None else "(no next position)"
        lines.append(f"{d.unit.power.upper()}: {format_unit(d.unit)} (civil disorder): the record implies {implied}; "
                     f"dipsat: removed, " + "; ".join(disorder_facts(d)))
    return lines


def _ours(r: OrderResult) -> str:
    return r.status + (f"; {r.detail}" if r.detail else "")


def _implied(order: Order, r: OrderResult, units: set[Unit], dislodged: set[Unit]) -> str:
    """What the next position says of one order's unit."""
    unit = r.unit
    if isinstance(order, Build):
        built = any(u.power == order.power and u.province == order.location.province for u in units)
        return "it was built" if built else "it was not built"
    if unit is None:
        return "nothing (no unit)"
    if isinstance(order, (Remove, Disband)):
        return "it was removed" if unit not in units else "it was kept"
    if unit in dislodged:
        return "it was dislodged"
    if isinstance(order, (Move, Retreat)):
        there = [u for u in units if u.power == unit.power and u.kind == unit.kind and u.province == order.dest.province]
        if there and unit not in units:
            return "it moved" if isinstance(order, Move) else f"it retreated to {order.dest.province.upper()}"
        if unit in units:
            return "it stayed (the move failed)"
        return "it is gone (dislodged or destroyed)" if isinstance(order, Move) else "it was disbanded"
    return "it stayed" if unit in units else "it is gone (dislodged or destroyed)"



def disorder_explanation(result: PhaseResult, subjects: set[str]) -> dict[str, list[str]]:
    """The civil-disorder removals of units in `subjects`, labelled as the report's orders
    are, each with dipsat's outcome, distances and tie-break."""
    return {f"{d.unit.power.upper()}: {format_unit(d.unit)} (civil disorder)": ["removed", *disorder_facts(d)]
            for d in result.civil_disorder if d.unit.province in subjects}
