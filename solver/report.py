"""What the reports of a phase say, whatever the output: the order of the results,
each result's status word, the dislodged and disbanded units and why.

The text report (:mod:`dipsat.printers.text`), the JSON documents
(:mod:`dipsat.formats.dipsat_json`) and the pictures (:mod:`dipsat.printers.svg`) all print
these, so they say the same.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Location, PhaseKind, Unit, UnitKind
from .orders import Build, Order, Waive, ordered_province
from .outcomes import Built, DisorderRemoval, Illegal, Reason, TieBreak, Waived
from .results import OrderResult, PhaseResult
from .state import Dislodged

__all__ = ["order_power", "status_word", "sorted_results", "DislodgedInfo", "DisbandedInfo", "dislodged_report",
           "disbanded_report", "disorder_reason", "loc_key", "unit_key", "power_key"]


def loc_key(loc: Location) -> tuple[str, str]:
    return (loc.province, loc.coast or "")


def unit_key(unit: Unit) -> tuple[str, str, str, str]:
    return (*loc_key(unit.location), unit.power, unit.kind.value)


def power_key(unit: Unit) -> tuple[str, str, str]:
    return (unit.power, *loc_key(unit.location))


def order_power(result: OrderResult) -> str | None:
    """Who gave the order: its power prefix, else the owner of the unit it went to."""
    return result.order.power or (result.unit.power if result.unit else None)


def status_word(result: OrderResult) -> str:
    """``succeeds``, or the reason it failed (``bounced``, ``cut``, ``illegal`` ...)."""
    if result.succeeded:
        return "succeeds"
    return str(result.reason) if result.reason else "fails"


def sorted_results(result: PhaseResult) -> list[tuple[int, OrderResult]]:
    """The order results with their index in the given orders, sorted by power,
    then the ordered unit's location, then the index (orders without a power last)."""
    def key(item: tuple[int, OrderResult]) -> tuple[bool, str, str, str, int]:
        index, r = item
        power = order_power(r)
        where = r.unit.location if r.unit else _order_location(r.order)
        return (power is None, power or "", *(loc_key(where) if where else ("", "")), index)
    return sorted(enumerate(result.results), key=key)


def _order_location(order: Order) -> Location | None:
    if isinstance(order, Build):
        return order.location
    if isinstance(order, Waive):
        return None
    return order.unit.location if ordered_province(order) else None


@dataclass(frozen=True)
class DislodgedInfo:
    """A unit dislodged by a movement phase, with where it may go."""

    dislodged: Dislodged
    options: tuple[Location, ...]

    @property
    def disbanded(self) -> bool:
        """No retreat is possible: the unit is disbanded at once."""
        return not self.options


@dataclass(frozen=True)
class DisbandedInfo:
    """A unit that left the board without a successful order of its own."""

    unit: Unit
    reason: str


def dislodged_report(result: PhaseResult) -> list[DislodgedInfo]:
    """Every unit the movement phase dislodged, including those with no retreat
    (which the new state no longer holds: they are disbanded at once)."""
    if result.before.phase.kind is not PhaseKind.MOVEMENT:
        return []
    out = [DislodgedInfo(d, tuple(result.retreat_options.get(d.unit, ()))) for d in result.dislodgements]
    return sorted(out, key=lambda i: power_key(i.dislodged.unit))


def disbanded_report(result: PhaseResult) -> list[DisbandedInfo]:
    """Units removed from the board without a successful order of their own:
    dislodged with no retreat (movement), retreat failed or not ordered (retreat),
    removed in civil disorder (adjustment)."""
    before = result.before
    kind = before.phase.kind
    out: list[DisbandedInfo] = []
    if kind is PhaseKind.MOVEMENT:
        out = [DisbandedInfo(i.dislodged.unit, "dislodged with no possible retreat")
               for i in dislodged_report(result) if i.disbanded]
    elif kind is PhaseKind.RETREAT:
        by_unit: dict[Unit, list[OrderResult]] = {}
        for r in result.results:
            if r.unit is not None:
                by_unit.setdefault(r.unit, []).append(r)
        for d in before.dislodged:
            rs = by_unit.get(d.unit, [])
            if any(r.succeeded for r in rs):
                continue  # retreated, or disbanded as ordered
            if any(r.reason is Reason.BOUNCED for r in rs):
                why = "retreat failed: disbanded"
            elif rs:
                why = "no legal retreat order: disbanded"
            else:
                why = "no retreat order: disbanded"
            out.append(DisbandedInfo(d.unit, why))
    else:
        out = [DisbandedInfo(d.unit, "removed in civil disorder: " + disorder_reason(d)) for d in result.civil_disorder]
    return sorted(out, key=lambda i: power_key(i.unit))


@dataclass(frozen=True)
class AdjustmentCount:
    """A power that adjusts: its centres (as counted: blockaded ones not), its units, and
    the builds (positive) or removals (negative) it has (DATC 6.I, 6.J); for builds, how
    many were used: units built, builds waived (DATC 4.D.7), build orders refused (illegal),
    and the rest, not ordered."""

    power: str
    centres: int
    units: int
    delta: int
    built: int = 0
    waived: int = 0
    refused: int = 0  # builds not used because their orders were refused (at most the builds left)

    @property
    def unused(self) -> int:
        """Builds not used: waived, refused or not ordered."""
        return max(self.delta - self.built, 0)

    @property
    def not_ordered(self) -> int:
        return self.unused - self.waived - self.refused

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"power": self.power, "centres": self.centres, "units": self.units,
                                  "builds": max(self.delta, 0), "removals": max(-self.delta, 0)}
        if self.delta > 0:
            out.update(built=self.built, unused=self.unused, waived=self.waived, refused=self.refused,
                       not_ordered=self.not_ordered)
        return out


def adjustment_counts(result: PhaseResult) -> list[AdjustmentCount]:
    """The powers that adjust in an adjustment phase, in the variant's order (none in other phases)."""
    from .adjustments import adjustment_count, counted_centres
    state = result.before
    if state.phase.kind is not PhaseKind.ADJUSTMENT:
        return []
    out = []
    for power in (p.name for p in state.variant.powers):
        delta = adjustment_count(state, power)
        if delta == 0:
            continue
        mine = [r for r in result.results if order_power(r) == power and isinstance(r.order, (Build, Waive))]
        built = sum(1 for r in mine if isinstance(r.outcome, Built))
        waived = sum(1 for r in mine if isinstance(r.outcome, Waived))
        refused = sum(1 for r in mine if isinstance(r.outcome, Illegal))
        left = max(delta - built - waived, 0)
        out.append(AdjustmentCount(power, len(counted_centres(state, power)), len(state.units_of(power)), delta,
                                   built, waived, min(refused, left)))
    return out


def disorder_facts(d: DisorderRemoval) -> list[str]:
    """A civil-disorder removal explained: why it went, and the units kept with their distances."""
    facts = [disorder_reason(d)]
    if d.names:
        facts.append(disorder_alphabet(d))
    if d.others:
        facts.append("kept: " + ", ".join(f"{u.kind} {u.location} ({n})" for u, n in d.others))
    return facts


def disorder_reason(d: DisorderRemoval) -> str:
    """Why the civil-disorder rule removed this unit (DATC 4.D.8): its distance and what
    chose it over the first unit kept."""
    text = f"distance {d.distance} (DATC 4.D.8, reading {d.reading})"
    if d.others:
        kept, distance = d.others[0]
        how = {TieBreak.FARTHER: "farther than", TieBreak.FLEET: "a fleet before the army",
               TieBreak.ALPHABETICAL: "alphabetically before", TieBreak.ABBREVIATION: "by abbreviation before",
               TieBreak.NONE: "before"}[d.tie_break]
        if d.tie_break in (TieBreak.ALPHABETICAL, TieBreak.ABBREVIATION) and d.unit.kind is UnitKind.FLEET:
            armies = [u for u, n in d.others if n == d.distance and u.kind is not UnitKind.FLEET]
            if armies:  # fleets go before armies at the same distance, then the names decide among fleets
                text += "; a fleet before the " + ("army " if len(armies) == 1 else "armies ") + \
                    ", ".join(f"{u.kind} {u.location}" for u in armies) + f" ({d.distance})"
        text += f"; {how} {kept.kind} {kept.location} ({distance})"
        if d.names:
            names = "abbreviations" if d.tie_break is TieBreak.ABBREVIATION else "English names"
            text += f": {d.names[0]} before {d.names[1]} ({names})"
    return text


def disorder_alphabet(d: DisorderRemoval) -> str:
    """Which names and alphabet a tie by name used (DATC 4.D.8 leaves the language open); ""
    when no tie by name chose the unit."""
    if not d.names:
        return ""
    if d.tie_break is TieBreak.ABBREVIATION:
        return f"the tie is broken by the map's province abbreviations, a to z: {d.names[0]} before {d.names[1]}"
    return (f"the tie is broken by the map's English province names, letters a to z, ignoring case, spaces, dots "
            f"and hyphens: {d.names[0]} before {d.names[1]} (DATC 4.D.8 prefers English)")


