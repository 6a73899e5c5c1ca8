"""One phase under several rules: everything that differs (``--compare``), as rows.

For each result (one per set of rules) :func:`comparison_rows` lists, one row per
difference and naming the order, unit, area or centre it is about:

- each order's result (``succeeds``, ``bounced``, ``paradox`` ...);
- each unit's fate: dislodged or not, and where it may retreat (DATC 6.H.11: under
  1982 and 2023 a unit dislodged by an adjacent convoy has other retreats);
- areas left empty by a standoff (no retreat there);
- in adjustment phases, which units are built and which removed (DATC 6.J.10,
  6.J.11: the civil-disorder readings remove different units);
- the units on the board and centre ownership afterwards, where not already said.

The printers (text, JSON) only lay these rows out.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ..board import PhaseKind
from ..notation import format_order
from ..results import OrderResult, PhaseResult

__all__ = ["Aspect", "Difference", "comparison_rows"]


class Aspect(enum.Enum):
    """What a difference between two results is about."""

    ORDER = "order"  # an order's result
    DISLODGED = "dislodged"  # whether a unit is dislodged
    RETREATS = "retreats"  # where a dislodged unit may retreat
    STANDOFF = "standoff"  # whether an area is left empty by a standoff
    REMOVED = "removed"  # a unit removed
    BUILT = "built"  # a unit built
    UNIT = "unit"  # a unit on the board after the phase
    OWNER = "owner"  # a centre's owner

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Difference:
    """One thing the results differ in: `what` (an :class:`Aspect`), its `subject` (an order, a
    unit, an area, a centre) and the value under each rule set, in the order given."""

    what: Aspect
    subject: str
    values: tuple[str, ...]

    def to_json(self, names: list[str]) -> dict[str, object]:
        return {"what": self.what.value, "subject": self.subject, "results": dict(zip(names, self.values))}


def _status(result: OrderResult) -> str:
    return "succeeds" if result.succeeded else str(result.reason) if result.reason else "fails"


def comparison_rows(results: dict[str, PhaseResult]) -> list[Difference]:
    """Every difference between the results of one phase under several rule sets."""
    names = list(results)
    rs = [results[n] for n in names]
    rows: list[Difference] = []

    def add(what: Aspect, subject: str, values: list[str]) -> None:
        if len(set(values)) > 1:
            rows.append(Difference(what, subject, tuple(values)))

    for k, r in enumerate(rs[0].results):
        add(Aspect.ORDER, format_order(r.order), [_status(x.results[k]) for x in rs])
    kind = rs[0].before.phase.kind
    if kind is PhaseKind.MOVEMENT:
        fates = [{d.unit: d for d in x.dislodgements} for x in rs]
        for unit in sorted(set().union(*fates), key=str):
            add(Aspect.DISLODGED, str(unit), ["dislodged" if unit in f else "stays" for f in fates])
            if all(unit in f for f in fates):
                add(Aspect.RETREATS, str(unit), [" ".join(map(str, x.retreat_options.get(unit, ()))) or "none (disbanded)"
                                             for x in rs])
        for area in sorted(set().union(*(x.standoffs for x in rs))):
            add(Aspect.STANDOFF, area, ["standoff" if area in x.standoffs else "-" for x in rs])
    if kind is PhaseKind.ADJUSTMENT:
        for what, lists in ((Aspect.REMOVED, [set(x.before.units) - set(x.after.units) for x in rs]),
                            (Aspect.BUILT, [set(x.after.units) - set(x.before.units) for x in rs])):
            for unit in sorted(set().union(*lists), key=str):
                add(what, str(unit), [what.value if unit in units else "-" for units in lists])
    said = {row.subject for row in rows}
    boards = [set(x.after.units) for x in rs]
    for unit in sorted(set().union(*boards) ^ set.intersection(*boards) if boards else (), key=str):
        if str(unit) not in said:
            add(Aspect.UNIT, str(unit), ["present" if unit in b else "-" for b in boards])
    owners = [dict(x.after.owners) for x in rs]
    for centre in sorted(set().union(*owners)):
        add(Aspect.OWNER, centre, [o.get(centre, "unowned") for o in owners])
    return rows
