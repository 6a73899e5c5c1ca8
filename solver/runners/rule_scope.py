"""Which DATC chapter-4 issues a phase can touch, decided from the position and the
orders alone, before any adjudication.

:func:`issues_touched` answers it for one phase: a superset of the issues whose
option can change that phase's result (it may name an issue whose options all give
the same result there; it never leaves out one that could matter). Validation uses
it to re-judge only the phases an option can affect when it infers the rules a
recorded game follows, instead of re-adjudicating whole games per candidate option.

Each test names the situation the DATC describes for the issue (chapter 4); the
ones that need a convoy look for a convoy order, since without one no convoy rule
applies (an army that cannot reach its destination over land is illegal without
fleets, and a ``via convoy`` move with no convoying fleet is 4.A.3's question).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..board import Location, PhaseKind, Unit, UnitKind
from ..adjustments import adjustment_deltas
from ..maps import ProvinceKind
from ..orders import (Build, Convoy, Disband, Move, Order, Remove, Retreat, SupportHold, SupportMove, Waive,
                     order_power)
from ..state import State

__all__ = ["issues_touched"]


def issues_touched(state: State, orders: Iterable[Order]) -> frozenset[str]:
    """The DATC chapter-4 issue numbers (``"4.A.3"``, ...) whose option could change
    the result of `orders` in `state` (a superset; see the module docstring)."""
    orders = list(orders)
    kind = state.phase.kind
    units = state.units_by_province  # (read once: the tests below look up units by province many times)
    out, ordered = _designation_issues(state, orders, units)
    if kind is PhaseKind.MOVEMENT:
        out |= _movement_issues(state, orders, units, ordered)
    elif kind is PhaseKind.RETREAT:
        out |= _retreat_issues(state, orders)
    else:
        out |= _adjustment_issues(state, orders)
    return frozenset(out)


def _designation_issues(state: State, orders: list[Order], units: Mapping[str, Unit]) -> tuple[set[str], set[str]]:
    """4.C: a missing or wrong unit kind or nationality; 4.B.5: the wrong coast of the
    ordered unit; 4.B.6: a coast where there is none; 4.D.3: several orders to one unit.
    And the provinces of the units ordered (:func:`_movement_issues` asks them too)."""
    out: set[str] = set()
    dislodged = {d.unit.province: d.unit for d in state.dislodged} if state.phase.kind is PhaseKind.RETREAT else {}
    unit_of = dislodged.get if dislodged else units.get  # the unit an order goes to
    provinces = state.map.provinces
    ordered: set[str] = set()
    for order in orders:
        if isinstance(order, (Build, Waive)):
            continue
        ref = order.unit
        where = ref.location
        if where.province in ordered:
            out.add("4.D.3")  # 4.D.3: multiple orders to the same unit
        ordered.add(where.province)
        unit = unit_of(where.province)
        if unit is None:
            continue
        if ref.kind is not unit.kind:
            out.add("4.C.1" if ref.kind is None else "4.C.2")
        if where.coast is not None and where.coast != unit.location.coast:
            out.add("4.B.5")
        if isinstance(order, (SupportHold, SupportMove, Convoy)):
            target = units.get(order.target.location.province)
            if target is not None:
                if order.target.kind is not target.kind:
                    out.add("4.C.1" if order.target.kind is None else "4.C.2")
                if target.power != unit.power:
                    out.add("4.C.5" if order.target.power is None else "4.C.6")
        if isinstance(order, (Move, SupportMove, Convoy, Retreat)) and order.dest.coast is not None:
            dest = order.dest.province
            if dest in provinces and not provinces[dest].coasts:
                out.add("4.B.6")  # 4.B.6: a coast for an area that has none
            if isinstance(order, Move) and unit.kind is not UnitKind.FLEET:
                out.add("4.B.6")  # an army ordered to a coast
    return out, ordered


def _movement_issues(state: State, orders: list[Order], units: Mapping[str, Unit], ordered: set[str]) -> set[str]:
    """The issues of moves, supports and convoys; `ordered`: the provinces of the units ordered."""
    out: set[str] = set()
    the_map = state.map
    unit_at = units.get
    moves: dict[str, Move] = {}  # the last move ordered to each unit
    convoys: list[Convoy] = []
    supports: list[SupportHold | SupportMove] = []
    for o in orders:
        if isinstance(o, Move):
            moves[o.unit.location.province] = o
            if o.path:
                out.add("4.A.6")  # a written-out convoy path
        elif isinstance(o, Convoy):
            convoys.append(o)
        elif isinstance(o, (SupportHold, SupportMove)):
            supports.append(o)
    convoyed: dict[tuple[str, str], list[Convoy]] = {}
    for c in convoys:
        convoyed.setdefault((c.target.province, c.dest.province), []).append(c)
    if convoyed:
        out |= _convoy_issues(convoyed, moves, supports, units)
    for move in moves.values():
        unit = unit_at(move.unit.location.province)
        if unit is None:
            continue
        to = move.dest
        if unit.kind is UnitKind.ARMY:
            if move.via_convoy or (unit.location.province, to.province) in convoyed:
                if the_map.can_move(UnitKind.ARMY, unit.location, Location(to.province)):
                    out.add("4.A.3")  # convoying to an adjacent province
        elif unit.kind is UnitKind.FLEET and to.province in the_map.provinces:
            coasts = the_map.provinces[to.province].coasts
            if coasts:
                reachable = the_map.reachable_coasts(unit.location, to.province)
                if to.coast is None and reachable:
                    out.add("4.B.1" if len(reachable) > 1 else "4.B.2")  # the coast left out
                elif to.coast is not None and to not in reachable:
                    out.add("4.B.3")  # an impossible coast
    ordering: set[str | None] | None = None  # the powers that gave an order (found when asked)
    for order in (*supports, *convoys):
        target = unit_at(order.target.location.province)
        if target is None:
            continue
        if isinstance(order, SupportMove):
            if (target.kind is UnitKind.FLEET and order.dest.province in the_map.provinces
                    and the_map.provinces[order.dest.province].coasts):
                out.add("4.B.4")  # a support into a split-coast area, with a coast or without (4.B.4 v2 e: ignored)
        if isinstance(order, SupportHold):
            if ordering is None:
                ordering = {o.power or order_power(state, o) for o in orders} - {None}  # (a call only if no power)
            if target.power not in ordering:
                out.add("4.D.9")  # hold support for a unit in civil disorder
        else:
            supporter = unit_at(order.unit.location.province)
            if supporter is not None and target.power == supporter.power and target.location.province not in ordered:
                out.add("4.E.3")  # an unordered unit its own power supports or convoys
    return out


def _convoy_issues(convoyed: dict[tuple[str, str], list[Convoy]], moves: dict[str, Move],
                   supports: list[SupportHold | SupportMove], units: Mapping[str, Unit]) -> set[str]:
    """The issues of the convoys ordered (`convoyed`: by the army's origin and destination),
    each route checked against sets of the moves and supports made once."""
    out: set[str] = set()
    convoying = {c.unit.location.province for cs in convoyed.values() for c in cs}
    attacked = {m.dest.province for m in moves.values()}
    # the units supporting a hold or a move into the area of a convoying fleet
    supporting_convoying = {o.unit.location.province for o in supports
                            if (o.dest if isinstance(o, SupportMove) else o.target.location).province in convoying}
    # (supporter, destination) of each support of a move
    supported_attacks = {(o.unit.location.province, o.dest.province) for o in supports if isinstance(o, SupportMove)}
    for (origin, dest), fleets in convoyed.items():
        if len(fleets) > 1:
            out.add("4.A.1")  # several convoying fleets: more than one route may exist
        if any(c.unit.location.province in attacked for c in fleets):
            out.add("4.A.2")  # a convoying fleet is attacked: disruption, paradoxes
        if dest in supporting_convoying:
            out.add("4.A.2")  # the army attacks a unit supporting an action where a convoying fleet is
        back = moves.get(dest)
        if back is not None and back.dest.province == origin:
            out.add("4.A.7")  # a convoyed army and a unit moving the opposite way
        if (dest, origin) in supported_attacks and dest in units:
            out.add("4.A.4")  # a convoyed army attacks a unit supporting an attack on its own origin
    return out


def _retreat_issues(state: State, orders: list[Order]) -> set[str]:
    out: set[str] = set()
    if any(d.by_convoy or d.attacker_origin is None for d in state.dislodged):
        out.add("4.A.5")  # a retreat after a dislodgement by convoy
    for order in orders:
        if isinstance(order, Retreat) and order.dest.province in state.map.provinces:
            if state.map.provinces[order.dest.province].coasts:
                out |= {"4.B.1", "4.B.2", "4.B.3"}  # a retreat to a split-coast area, coasts as in moves
    return out


def _adjustment_issues(state: State, orders: list[Order]) -> set[str]:
    out: set[str] = set()
    builds: dict[str | None, list[Build]] = {}
    removals: dict[str | None, list[Order]] = {}
    for order in orders:
        power = order_power(state, order)
        if isinstance(order, Build):
            builds.setdefault(power, []).append(order)
            prov = state.map.provinces.get(order.location.province)
            if order.kind is None:
                out.add("4.C.3")  # a build without unit kind
            elif order.kind is UnitKind.FLEET and prov is not None:
                if prov.coasts and order.location.coast is None:
                    out.add("4.B.7")  # a fleet built without its coast
                if prov.kind is ProvinceKind.LAND:
                    out.add("4.C.4")  # a fleet built in a land area
        elif isinstance(order, (Remove, Disband)):
            removals.setdefault(power, []).append(order)
        elif isinstance(order, Waive):
            out.add("4.D.7")  # waiving a build
    deltas = adjustment_deltas(state)
    for power in {p.name for p in state.variant.powers}:
        count = deltas.get(power, 0)
        mine = builds.get(power, [])
        if count > 0 and len(mine) > count:
            out.add("4.D.4")  # too many build orders
        if len(mine) > 1 and len({b.location.province for b in mine}) < len(mine):
            out.add("4.D.5")  # several builds for one province
        gone = removals.get(power, [])
        if count < 0 and len(gone) > -count:
            out.add("4.D.6")  # too many disband orders
        if count < 0 and len({o.unit.province for o in gone if isinstance(o, (Remove, Disband))}) < -count:
            out.add("4.D.8")  # fewer removals than needed: civil disorder decides
    return out

