"""The retreat phase: options, simultaneous retreats, disbands (DATC 6.H, 4.A.5)."""

from __future__ import annotations

from collections import Counter

from .board import Location, Unit, UnitKind
from .orders import Disband, Order, Retreat
from .legality import fleet_destination
from .phases import after_retreats, retreat_options
from .results import OrderResult, PhaseResult, Reason
from .rules import MultipleOrders, Rules
from .state import Dislodged, State


def adjudicate_retreats(state: State, orders: list[Order], rules: Rules) -> PhaseResult:
    """Retreats to the same area all fail; unordered dislodged units are disbanded."""
    by_province = {d.unit.province: d for d in state.dislodged}
    results: dict[int, OrderResult] = {}
    legal: dict[str, list[tuple[int, Location | None]]] = {}  # province -> (order, where it goes)
    for k, order in enumerate(orders):
        d = by_province.get(order.unit.province) if isinstance(order, (Retreat, Disband)) else None
        where, why = _destination(state, order, by_province, rules)
        if why is not None:
            results[k] = OrderResult(order, d.unit if d else None, False, Reason.ILLEGAL, why)
        else:
            assert isinstance(order, (Retreat, Disband))  # _destination finds every other order illegal
            legal.setdefault(order.unit.province, []).append((k, where))
    chosen: dict[str, tuple[int, Location | None]] = {}
    for province, candidates in legal.items():
        pick = _one_order(orders, candidates, rules)
        unit = by_province[province].unit
        for k, _ in candidates:
            if pick is None or (k != pick[0] and orders[k] != orders[pick[0]]):
                results[k] = OrderResult(orders[k], unit, False, Reason.ILLEGAL,
                                         "the unit has more than one order (DATC 4.D.3)")
        if pick is not None:
            chosen[province] = pick
    targets = Counter(where.province for _, where in chosen.values() if where is not None)
    survivors = []
    for province, (k, where) in chosen.items():
        unit = by_province[province].unit
        for j, _ in legal[province]:  # the order and any identical copy of it share the outcome
            if j in results:
                continue
            if where is None:
                results[j] = OrderResult(orders[j], unit, True)
            elif targets[where.province] > 1:
                results[j] = OrderResult(orders[j], unit, False, Reason.BOUNCED,
                                         f"several units retreat to {where.province}: all are disbanded")
            else:
                results[j] = OrderResult(orders[j], unit, True)
        if where is not None and targets[where.province] == 1:
            survivors.append(Unit(unit.power, unit.kind, where))
    after = after_retreats(state.with_(units=state.units + tuple(survivors)))
    return PhaseResult(state, after, tuple(results[k] for k in range(len(orders))), rules)


def _one_order(orders: list[Order], candidates: list[tuple[int, Location | None]],
               rules: Rules) -> tuple[int, Location | None] | None:
    """DATC 4.D.3 for retreats: identical orders are one; different ones per the rule."""
    if len({orders[k] for k, _ in candidates}) == 1:
        return candidates[0]
    choice = rules.multiple_orders
    return (candidates[0] if choice is MultipleOrders.FIRST else candidates[-1] if choice is MultipleOrders.LAST
            else None)


def _destination(state: State, order: Order, by_province: dict[str, Dislodged],
                 rules: Rules) -> tuple[Location | None, str | None]:
    """Where a retreat order goes (None for a disband), or why it is illegal."""
    if not isinstance(order, (Retreat, Disband)):
        return None, f"not a retreat-phase order ({type(order).__name__})"
    d = by_province.get(order.unit.province)
    if d is None:
        return None, f"no dislodged unit in {order.unit.province}"
    if order.power is not None and order.power != d.unit.power:
        return None, f"the unit belongs to {d.unit.power}"
    if isinstance(order, Disband):
        return None, None
    options = retreat_options(state, d, rules)
    dest = order.dest
    if d.unit.kind is UnitKind.FLEET:  # coasts as in a move (DATC 4.B.1-4.B.3)
        exact, why = fleet_destination(state.map, d.unit.location, dest, rules)
        if exact is None:
            return None, why
        dest = exact
    else:
        dest = Location(dest.province)
    if dest not in options:
        return None, f"{order.dest} is not a possible retreat (options: {', '.join(map(str, options)) or 'none'})"
    return dest, None
