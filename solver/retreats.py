"""The retreat phase: options, simultaneous retreats, disbands (DATC 6.H, 4.A.5)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from .board import Location, Power, Unit, UnitKind
from .orders import Disband, Order, Retreat, kind_name
from .movement.legality import fleet_destination, impassable_problem
from .phases import after_retreats, retreat_choices
from .phases import retreat_options as retreat_options  # the rule lives in phases; read here too
from .outcomes import Disbands, Illegal, IllegalCode, RetreatBounced, RetreatCode, RetreatRefused, Retreats
from .results import OrderResult, PhaseResult
from .rules import MultipleOrders, Rules
from .state import Dislodged, State, in_place_order


_DISBANDS = Disbands()
"""An outcome with no fields: one value for every disband (as ``Convoys``)."""


def adjudicate_retreats(state: State, orders: list[Order], rules: Rules,
                        silent: Mapping[Power, str] | None = None) -> PhaseResult:
    """Retreats to the same area all fail; unordered dislodged units are disbanded. The
    orders of the powers in `silent` (power -> why) are illegal with that reason."""
    by_province = {d.unit.province: d for d in state.dislodged}
    choices = retreat_choices(state, rules)  # where each may go: for the orders and the result
    results: dict[int, OrderResult] = {}
    legal: dict[str, list[tuple[int, Location | None]]] = {}  # province -> (order, where it goes)
    for k, order in enumerate(orders):
        d = by_province.get(order.unit.province) if isinstance(order, (Retreat, Disband)) else None
        power = order.power or (d.unit.power if d else None)
        why: Illegal | None
        if silent and power is not None and power in silent:
            where, why = None, Illegal(IllegalCode.SILENCED, silent[power])
        else:
            where, why = _destination(state, order, by_province, choices, rules)
        if why is not None:
            results[k] = OrderResult(order, d.unit if d else None, why)
        else:
            assert isinstance(order, (Retreat, Disband))  # _destination finds every other order illegal
            legal.setdefault(order.unit.province, []).append((k, where))
    chosen: dict[str, tuple[int, Location | None]] = {}
    for province, candidates in legal.items():
        pick = _one_order(orders, candidates, rules)
        unit = by_province[province].unit
        for k, _ in candidates:
            if pick is None or (k != pick[0] and orders[k] != orders[pick[0]]):
                results[k] = OrderResult(orders[k], unit, Illegal(IllegalCode.SEVERAL_ORDERS,
                                                                  "the unit has more than one order (DATC 4.D.3)"))
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
                results[j] = OrderResult(orders[j], unit, _DISBANDS)
            elif targets[where.province] > 1:
                others = tuple(sorted((by_province[p].unit for p, (_, w) in chosen.items()
                                       if p != province and w is not None and w.province == where.province),
                                      key=lambda u: u.province))  # units do not order (their kinds do not)
                results[j] = OrderResult(orders[j], unit, RetreatBounced(where.province, others))
            else:
                results[j] = OrderResult(orders[j], unit, Retreats(where))
        if where is not None and targets[where.province] == 1:
            survivors.append(Unit(unit.power, unit.kind, where))
    after = after_retreats(state, in_place_order(state.units + tuple(survivors)))  # the survivors placed in order
    return PhaseResult(state, after, tuple(results[k] for k in range(len(orders))), rules,
                       retreat_choices=choices)


def _one_order(orders: list[Order], candidates: list[tuple[int, Location | None]],
               rules: Rules) -> tuple[int, Location | None] | None:
    """DATC 4.D.3 for retreats: identical orders are one; different ones per the rule."""
    if len({orders[k] for k, _ in candidates}) == 1:
        return candidates[0]
    choice = rules.multiple_orders
    return (candidates[0] if choice is MultipleOrders.FIRST else candidates[-1] if choice is MultipleOrders.LAST
            else None)


def _destination(state: State, order: Order, by_province: dict[str, Dislodged],
                 choices: Mapping[Unit, tuple[Location, ...]], rules: Rules) -> tuple[Location | None, Illegal | None]:
    """Where a retreat order goes (None for a disband), or why it is illegal."""
    if not isinstance(order, (Retreat, Disband)):
        return None, Illegal(IllegalCode.WRONG_PHASE, f"a {kind_name(order)} order is not a retreat-phase order")
    closed = impassable_problem(state.map, order)
    if closed is not None:
        return None, closed
    d = by_province.get(order.unit.province)
    if d is None:
        return None, Illegal(IllegalCode.NO_UNIT, f"no dislodged unit in {order.unit.province}")
    if order.power is not None and order.power != d.unit.power:
        return None, Illegal(IllegalCode.FOREIGN_UNIT, f"the unit belongs to {d.unit.power}")
    if isinstance(order, Disband):
        return None, None
    options = choices[d.unit]
    dest = order.dest
    if d.unit.kind is UnitKind.FLEET:  # coasts as in a move (DATC 4.B.1-4.B.3)
        exact, why = fleet_destination(state.map, d.unit.location, dest, rules)
        if exact is None:
            assert why is not None
            code = RetreatCode.OTHER_COAST if why.why is IllegalCode.COAST else RetreatCode.NOT_ADJACENT
            return None, RetreatRefused(IllegalCode.NOT_RETREATABLE, why.text, code)
        dest = exact
    else:
        dest = Location(dest.province)
    if dest not in options:
        code, words = _refusal(state, d, dest)
        listed = ", ".join(map(str, options)) or "none"
        return None, RetreatRefused(IllegalCode.NOT_RETREATABLE, f"{order.dest}: {words} (options: {listed})", code)
    return dest, None


def _refusal(state: State, d: Dislodged, dest: Location) -> tuple[RetreatCode, str]:
    """Why `dest` is not among a dislodged unit's retreat options (DATC 6.H)."""
    if state.unit_at(dest.province) is not None:
        return RetreatCode.OCCUPIED, "occupied"
    if dest.province == d.attacker_origin:
        if d.by_convoy:  # allowed by 4.A.5 b: refused, so the reading is a
            return RetreatCode.ATTACKER_ORIGIN, ("the area the attacker came from by convoy (DATC 4.A.5 a: not even "
                                                 "after a convoy, 6.H.11)")
        return RetreatCode.ATTACKER_ORIGIN, "the area the attacker came from (DATC 6.H.5)"
    if dest.province in state.standoffs:
        return RetreatCode.STANDOFF, "left empty by a standoff (DATC 6.H.6)"
    return RetreatCode.NOT_ADJACENT, "not a possible retreat"
