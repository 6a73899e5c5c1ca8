"""The retreat phase: options, simultaneous retreats, disbands (DATC 6.H, 4.A.5)."""

from __future__ import annotations

from collections import Counter

from .board import Location, UnitKind
from .orders import Disband, Order, Retreat
from .phases import after_retreats
from .results import OrderResult, PhaseResult, Reason
from .rules import Rules
from .state import Dislodged, State


def retreat_options(state: State, dislodged: Dislodged, rules: Rules) -> tuple[Location, ...]:
    """Where a dislodged unit may retreat: adjacent for its kind, not occupied,
    not the attacker's origin, not left empty by a standoff this turn."""
    the_map = state.map
    unit = dislodged.unit
    if unit.kind is UnitKind.FLEET:
        candidates = sorted(the_map.fleet_adjacency.get(unit.location, ()))
    elif unit.kind is UnitKind.ARMY:
        candidates = [Location(p) for p in sorted(the_map.army_adjacency.get(unit.province, ()))]
    else:
        candidates = [Location(p) for p in sorted(the_map.neighbours(unit.province))]
    attacker_origin_open = dislodged.by_convoy and rules.choice("4.A.5") == "b"  # DATC 4.A.5
    out = []
    for loc in candidates:
        if state.unit_at(loc.province) is not None:
            continue  # occupied
        if loc.province == dislodged.attacker_origin and not attacker_origin_open:
            continue  # not where the attacker came from
        if loc.province in state.standoffs:
            continue  # not an area left empty by a standoff
        out.append(loc)
    return tuple(out)


def adjudicate_retreats(state: State, orders: list[Order], rules: Rules) -> PhaseResult:
    """Retreats to the same area all fail; unordered dislodged units are disbanded."""
    by_province = {d.unit.province: d for d in state.dislodged}
    results: dict[int, OrderResult] = {}
    chosen: dict[str, int] = {}
    for k, order in enumerate(orders):
        why = _problem(state, order, by_province, rules)
        d = by_province.get(order.unit.province) if isinstance(order, (Retreat, Disband)) else None
        if why is None and order.unit.province in chosen:
            why = "the unit has more than one order (DATC 4.D.3)"
            first = chosen.pop(order.unit.province)
            results[first] = OrderResult(orders[first], d.unit if d else None, False, Reason.ILLEGAL, why)
        if why is not None:
            results[k] = OrderResult(order, d.unit if d else None, False, Reason.ILLEGAL, why)
            continue
        chosen[order.unit.province] = k
    targets = Counter(orders[k].dest.province for k in chosen.values() if isinstance(orders[k], Retreat))
    survivors = []
    for province, k in chosen.items():
        order, unit = orders[k], by_province[province].unit
        if isinstance(order, Disband):
            results[k] = OrderResult(order, unit, True)
        elif targets[order.dest.province] > 1:
            results[k] = OrderResult(order, unit, False, Reason.BOUNCED,
                                     f"several units retreat to {order.dest.province}: all are disbanded")
        else:
            results[k] = OrderResult(order, unit, True)
            survivors.append(type(unit)(unit.power, unit.kind, _retreat_location(state, by_province[province], order, rules)))
    after = after_retreats(state.with_(units=state.units + tuple(survivors)))
    return PhaseResult(state, after, tuple(results[k] for k in range(len(orders))), rules)


def _retreat_location(state: State, d: Dislodged, order: Retreat, rules: Rules) -> Location:
    options = retreat_options(state, d, rules)
    exact = [o for o in options if o == order.dest]
    return exact[0] if exact else next(o for o in options if o.province == order.dest.province)


def _problem(state: State, order: Order, by_province: dict[str, Dislodged], rules: Rules) -> str | None:
    if not isinstance(order, (Retreat, Disband)):
        return f"not a retreat-phase order ({type(order).__name__})"
    d = by_province.get(order.unit.province)
    if d is None:
        return f"no dislodged unit in {order.unit.province}"
    if order.power is not None and order.power != d.unit.power:
        return f"the unit belongs to {d.unit.power}"
    if isinstance(order, Disband):
        return None
    options = retreat_options(state, d, rules)
    matching = [o for o in options if o.province == order.dest.province]
    if not matching:
        return f"{order.dest} is not a possible retreat (options: {', '.join(map(str, options)) or 'none'})"
    if len(matching) > 1 and order.dest.coast is None:
        return "the coast must be named (DATC 4.B.1)"
    if order.dest.coast is not None and order.dest not in matching and len(matching) > 1:
        return f"{order.dest} is not a possible retreat"
    return None
