"""What every adjudicated phase keeps, and random positions to check it on.

:func:`phase_problems` checks one :class:`~dipsat.results.PhaseResult` against the
invariants that hold under every rules profile, whatever the orders:

- after the phase at most one unit stands in each province (and at most one
  dislodged unit waits in each);
- every unit is accounted for exactly once: it moved (a successful move or
  retreat, and it stands at the destination), stayed (same place), was dislodged
  (it waits to retreat) or was disbanded / removed; no unit appears from nowhere
  (a new unit needs a successful build);
- every order has exactly one result;
- a movement turn's decisions, strengths and resolutions are the same whether the
  solver is skipped where constant folding fixed every decision (at once or built
  again: :func:`~dipsat.movement.driver.folded_again`) or CP-SAT settles the model
  (:func:`folding_problems`).

:func:`random_state` and :func:`random_orders` make dense random positions (both
bundled maps, every phase kind) and random orders, legal and illegal (moves to
anywhere, supports and convoys that match nothing, orders for empty provinces or
another power's units, two orders for one unit, orders of the wrong phase). The
property tests (``tests/test_invariants.py``) draw them through hypothesis;
``scripts/fuzz.py`` draws many more.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from ..adjudicator import adjudicate, adjudicate_many
from ..board import Location, Phase, PhaseKind, Season, Unit, UnitKind
from ..maps import Variant
from ..orders import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, SupportHold, SupportMove,
                     UnitRef, Waive)
from ..results import PhaseResult
from ..rules import Rules
from ..state import Dislodged, State

__all__ = ["phase_problems", "batch_problems", "random_state", "random_orders", "random_phase", "random_phases"]


# --- the invariants -----------------------------------------------------------------


def phase_problems(result: PhaseResult, orders: list[Order]) -> list[str]:
    """Every broken invariant of one adjudicated phase (empty: all hold)."""
    before, after = result.before, result.after
    problems: list[str] = []
    if len(result.results) != len(orders):
        problems.append(f"{len(orders)} orders but {len(result.results)} results")
    for where, units in (("units", [u for u in after.units]), ("dislodged", [d.unit for d in after.dislodged])):
        for province, n in Counter(u.province for u in units).items():
            if n > 1:
                problems.append(f"{n} {where} in {province} after the phase: "
                                + ", ".join(str(u) for u in units if u.province == province))
    if after.dislodged and after.phase.kind is not PhaseKind.RETREAT:
        problems.append(f"dislodged units outside a retreat phase ({after.phase})")
    kind = before.phase.kind
    if kind is PhaseKind.MOVEMENT:
        problems += _movement_fates(result)
    elif kind is PhaseKind.RETREAT:
        problems += _retreat_fates(result)
    else:
        problems += _adjustment_fates(result)
    return problems


def _moved_to(result: PhaseResult, kind: type[Move] | type[Retreat]) -> dict[Unit, str]:
    """Units with a successful order of `kind` (a move, a retreat) -> the province it goes to."""
    out: dict[Unit, str] = {}
    for r in result.results:
        if r.succeeded and isinstance(r.order, kind) and r.unit is not None:
            out[r.unit] = r.order.dest.province
    return out


def _movement_fates(result: PhaseResult) -> list[str]:
    before, after = result.before, result.after
    problems = []
    moved = _moved_to(result, Move)
    left = {u: None for u in after.units}  # after-units not yet traced back to a unit before
    waiting = {d.unit for d in after.dislodged} if after.phase.kind is PhaseKind.RETREAT else set()
    entered = set(moved.values())
    for unit in before.units:
        fates = []
        if unit in moved:
            arrived = [a for a in left if a.province == moved[unit] and a.power == unit.power and a.kind is unit.kind]
            if len(arrived) != 1:
                problems.append(f"{unit} moved to {moved[unit]} but is not there")
            else:
                left.pop(arrived[0])
            fates.append("moved")
        if unit in left and unit not in moved:
            left.pop(unit)
            fates.append("stayed")
        if unit in waiting:
            fates.append("dislodged")
            if unit.province not in entered:
                problems.append(f"{unit} is dislodged but no move into {unit.province} succeeded")
        if not fates:
            if unit.province not in entered:
                problems.append(f"{unit} vanished: not moved, not in place, not dislodged, and nobody entered "
                                f"{unit.province}")
            continue  # dislodged with no retreat: disbanded at once
        if len(fates) > 1:
            problems.append(f"{unit} is both {' and '.join(fates)}")
    problems += [f"{u} appeared from nowhere" for u in left]
    return problems


def _retreat_fates(result: PhaseResult) -> list[str]:
    before, after = result.before, result.after
    problems = []
    if set(before.units) - set(after.units):
        problems.append("units not dislodged changed in a retreat phase: "
                        + ", ".join(map(str, sorted(set(before.units) - set(after.units), key=str))))
    retreated = _moved_to(result, Retreat)
    new = set(after.units) - set(before.units)
    for d in before.dislodged:
        if d.unit in retreated:
            there = [u for u in new if u.province == retreated[d.unit] and u.power == d.unit.power]
            if len(there) != 1:
                problems.append(f"{d.unit} retreated to {retreated[d.unit]} but is not there")
            new -= set(there)
    problems += [f"{u} appeared from nowhere" for u in sorted(new, key=str)]
    return problems


def _adjustment_fates(result: PhaseResult) -> list[str]:
    before, after = result.before, result.after
    problems = []
    built = [r.order for r in result.results if r.succeeded and isinstance(r.order, Build)]
    new = set(after.units) - set(before.units)
    for order in built:
        there = [u for u in new if u.province == order.location.province]
        if len(there) != 1:
            problems.append(f"build in {order.location} succeeded but no unit is there")
        new -= set(there)
    problems += [f"{u} appeared from nowhere" for u in sorted(new, key=str)]
    removed = set(before.units) - set(after.units)
    occupied = {u.province for u in before.units}
    problems += [f"built in occupied {o.location.province}" for o in built if o.location.province in occupied]
    for power in {u.power for u in removed} & {u.power for u in set(after.units) - set(before.units)}:
        problems.append(f"{power} both built and removed units")
    return problems


# --- random positions and orders -------------------------------------------------------


def _spots(variant: Variant) -> list[tuple[UnitKind, Location]]:
    the_map = variant.map
    kinds = (UnitKind.ARMY, UnitKind.FLEET) + ((UnitKind.WING,) if variant.wings else ())
    locations = [Location(p) for p in the_map.provinces] + [
        Location(p, c) for p, prov in the_map.provinces.items() for c in prov.coasts]
    return [(k, loc) for k in kinds for loc in sorted(locations, key=str) if the_map.can_occupy(k, loc)]


def _nearest_power(variant: Variant) -> dict[str, str]:
    """Each province's nearest home centre's power (ties: the first found)."""
    out = {c: p.name for p in variant.powers for c in p.home_centres}
    frontier = sorted(out)
    while frontier:
        nxt = []
        for province in frontier:
            for near in sorted(variant.map.neighbours(province)):
                if near not in out:
                    out[near] = out[province]
                    nxt.append(near)
        frontier = nxt
    return out


def random_state(rng: random.Random, variant: Variant, kind: PhaseKind = PhaseKind.MOVEMENT,
                 density: float | None = None) -> State:
    """A random position: each province holds a unit with probability `density` (random
    when not given, mostly dense); random centre owners; a retreat phase gets dislodged
    units (with random attacker origins) and standoffs in empty provinces."""
    the_map = variant.map
    if density is None:  # adjustments: sparser, so that powers have builds to make
        density = rng.choice((0.15, 0.3, 0.5) if kind is PhaseKind.ADJUSTMENT else (0.3, 0.6, 0.8, 0.95))
    powers = [p.name for p in variant.powers]
    by_province: dict[str, list[tuple[UnitKind, Location]]] = {}
    for k, loc in _spots(variant):
        by_province.setdefault(loc.province, []).append((k, loc))
    nearest = _nearest_power(variant)
    units = []
    for province in sorted(by_province):
        if rng.random() < density:  # mostly the nearest power's unit: neighbours often share a power
            k, loc = rng.choice(by_province[province])
            power = nearest[province] if province in nearest and rng.random() < 0.6 else rng.choice(powers)
            units.append(Unit(power, k, loc))
    home = variant.home_of
    owners = tuple((c, home[c] if c in home and rng.random() < 0.6 else rng.choice(powers))
                   for c in sorted(variant.centres) if rng.random() < 0.85)
    season = rng.choice((Season.SPRING, Season.FALL)) if kind is not PhaseKind.ADJUSTMENT else Season.FALL
    phase = Phase(variant.start_year + rng.randrange(3), season, kind)
    dislodged: list[Dislodged] = []
    standoffs: frozenset[str] = frozenset()
    if kind is PhaseKind.RETREAT:
        for attacker in rng.sample(units, k=min(len(units), rng.randrange(1, 6))):
            k, loc = rng.choice(by_province[attacker.province])  # dislodged by the unit now there
            unit = Unit(rng.choice([p for p in powers if p != attacker.power] or powers), k, loc)
            origins = sorted(the_map.neighbours(unit.province))
            origin = rng.choice(origins) if origins and rng.random() < 0.9 else None
            dislodged.append(Dislodged(unit, origin, rng.random() < 0.2 and unit.kind is UnitKind.ARMY))
        empty = sorted(set(the_map.provinces) - {u.province for u in units})
        standoffs = frozenset(rng.sample(empty, k=min(len(empty), rng.randrange(0, 4))))
    return State(variant, phase, tuple(units), owners, tuple(dislodged), standoffs)


def _destinations(state: State, unit: Unit) -> list[Location]:
    """Where the unit could move without a convoy."""
    the_map = state.map
    if unit.kind is UnitKind.FLEET:
        return sorted(the_map.fleet_adjacency.get(unit.location, ()), key=str)
    adjacency = the_map.army_adjacency if unit.kind is UnitKind.ARMY else the_map.wing_adjacency
    return [Location(p) for p in sorted(adjacency.get(unit.province, ()))]


def _convoy_route(rng: random.Random, state: State, army: Unit) -> tuple[str, list[str]] | None:
    """A coast the army could reach through seas holding fleets, and those seas."""
    the_map = state.map
    fleets = state.sea_fleets
    start = [s for s in sorted(the_map.sea_neighbours.get(army.province, ())) if s in fleets]
    parent: dict[str, str | None] = {s: None for s in start}
    frontier = list(start)
    ends: list[tuple[str, str]] = []
    while frontier:
        sea = frontier.pop(0)
        ends += [(p, sea) for p in sorted(the_map.neighbours(sea))
                 if p != army.province and not the_map.provinces[p].is_sea and the_map.sea_neighbours.get(p)]
        for nxt in sorted(the_map.sea_neighbours[sea]):
            if nxt in fleets and nxt not in parent:
                parent[nxt] = sea
                frontier.append(nxt)
    if not ends:
        return None
    beside = [e for e in ends if e[0] in the_map.neighbours(army.province)]
    dest, last = rng.choice(beside if beside and rng.random() < 0.6 else ends)  # beside: a swap can follow
    route: list[str] = []
    here: str | None = last
    while here is not None:
        route.append(here)
        here = parent[here]
    return dest, route


def random_orders(rng: random.Random, state: State, notation_mistakes: bool = True) -> list[Order]:
    """Random orders for a position: mostly sensible (moves to neighbours, swaps, supports
    of planned moves, convoys along fleets at sea), some illegal or void, some for the
    wrong unit or phase, some given twice. Every order can be written as text and read
    back (:func:`dipsat.notation.format_order`), so a game can record them. Without
    `notation_mistakes`, every order names its unit's kind and coast and no wrong
    nationality (DATC 4.C: questions of reading orders, not of adjudicating them)."""
    the_map = state.map
    provinces = sorted(the_map.provinces)
    powers = [p.name for p in state.variant.powers]

    def ref(unit: Unit, nationality: bool = False) -> UnitRef:
        """The unit as an order names it; a support or convoy may name a target's
        nationality ("Turkish F con"), maybe wrongly."""
        r = rng.random()
        if r < 0.85 or not notation_mistakes:
            return UnitRef(unit.location, unit.kind)
        if r < 0.95:
            return UnitRef(Location(unit.province))  # kind and coast left out
        return UnitRef(unit.location, rng.choice(list(UnitKind)),  # maybe the wrong kind
                       rng.choice(powers) if nationality else None)

    def anywhere(province: str) -> Location:
        near = sorted(the_map.neighbours(province))
        target = rng.choice(near) if near and rng.random() < 0.85 else rng.choice(provinces)
        coasts = the_map.provinces[target].coasts
        return Location(target, rng.choice(coasts)) if coasts and rng.random() < 0.7 else Location(target)

    def power_of(unit: Unit) -> str | None:
        r = rng.random()
        return unit.power if r < 0.75 else None if r < 0.97 else rng.choice(powers)

    def via(unit: Unit, chance: float) -> bool:
        """'via convoy' on a move, now and then; on a fleet's only as a mistake of notation."""
        return rng.random() < chance and (notation_mistakes or unit.kind is UnitKind.ARMY)

    orders: list[Order] = []
    kind = state.phase.kind
    if kind is PhaseKind.MOVEMENT:
        orders = _movement_orders(rng, state, ref, anywhere, power_of, via)
    elif kind is PhaseKind.RETREAT:
        for d in state.dislodged:
            if rng.random() < 0.1:
                continue
            if rng.random() < 0.8:
                options = _destinations(state, d.unit)
                free = [o for o in options if state.unit_at(o.province) is None]
                dest = rng.choice(free or options) if options and rng.random() < 0.9 else anywhere(d.unit.province)
                orders.append(Retreat(ref(d.unit), dest, power_of(d.unit)))
            else:
                orders.append(Disband(ref(d.unit), power_of(d.unit)))
    else:
        for _ in range(rng.randrange(0, 12)):
            r = rng.random()
            power = rng.choice(powers)
            if r < 0.5:
                homes = [c for p in state.variant.powers for c in p.home_centres]
                centre = rng.choice(homes) if rng.random() < 0.8 else rng.choice(provinces)
                coasts = the_map.provinces[centre].coasts
                loc = Location(centre, rng.choice(coasts)) if coasts and rng.random() < 0.7 else Location(centre)
                build_kind = rng.choice((UnitKind.ARMY, UnitKind.FLEET, UnitKind.WING, None) if notation_mistakes
                                        else (UnitKind.ARMY, UnitKind.FLEET))
                orders.append(Build(loc, build_kind, state.variant.home_of.get(centre) if rng.random() < 0.6 else power))
            elif r < 0.85 and state.units:
                unit = rng.choice(state.units)
                orders.append(Remove(ref(unit), power_of(unit)))
            else:
                orders.append(Waive(power))
    # the odd mistake: an order for an empty province, one of another phase, one given twice
    if rng.random() < 0.3:
        empty = sorted(set(provinces) - {u.province for u in state.units})
        if empty:
            province = rng.choice(empty)
            orders.append(Move(UnitRef(Location(province), UnitKind.ARMY), anywhere(province)))
    if rng.random() < 0.2 and state.units:
        unit = rng.choice(state.units)
        orders.append(rng.choice((Retreat(ref(unit), anywhere(unit.province)), Disband(ref(unit)),
                                  Remove(ref(unit)), Hold(ref(unit)))))
    if rng.random() < 0.2 and orders:
        orders.append(rng.choice(orders))
    rng.shuffle(orders)
    return orders


def _movement_orders(rng: random.Random, state: State, ref: Callable[..., UnitRef],
                     anywhere: Callable[[str], Location], power_of: Callable[[Unit], str | None],
                     via: Callable[[Unit, float], bool]) -> list[Order]:
    the_map = state.map
    by_province: dict[str, Order] = {}
    moves: list[Move] = []
    units = list(state.units)
    rng.shuffle(units)

    def give(unit: Unit, order: Order) -> None:
        by_province[unit.province] = order
        if isinstance(order, Move):
            moves.append(order)

    def convoyed(army: Unit, swap: float) -> bool:
        """The army goes by convoy; the unit at the far end may come back (a convoyed swap),
        with outside attacks on both ends and supports for all of it (DATC 4.A.7)."""
        found = _convoy_route(rng, state, army)
        if found is None:
            return False
        dest, route = found
        beside = dest in the_map.neighbours(army.province)
        give(army, Move(ref(army), Location(dest), rng.random() < (0.9 if beside else 0.5), power_of(army)))
        for sea in route:
            fleet = state.unit_at(sea)
            if fleet is not None and rng.random() < 0.95:
                give(fleet, Convoy(ref(fleet), ref(army, True), Location(dest), power_of(fleet)))
        other = state.unit_at(dest)
        if other is None or other.province in by_province or rng.random() >= swap:
            return True
        back = [d for d in _destinations(state, other) if d.province == army.province]
        give(other, Move(ref(other), back[0] if back else Location(army.province), via(other, 0.2),
                         power_of(other)))
        swap_moves, attacks = moves[-2:], len(moves)
        for target in (dest, army.province):
            for near in sorted(the_map.neighbours(target)):
                attacker = state.unit_at(near)
                if attacker is None or attacker.province in by_province or rng.random() < 0.3:
                    continue
                into = [d for d in _destinations(state, attacker) if d.province == target]
                if into:
                    give(attacker, Move(ref(attacker), into[0], False, power_of(attacker)))
        for m in swap_moves + moves[attacks:]:  # supports for the swap (most) and the attacks
            for near in sorted(the_map.neighbours(m.dest.province)):
                helper = state.unit_at(near)
                if (helper is not None and helper.province not in by_province
                        and rng.random() < (0.8 if m in swap_moves else 0.2)
                        and the_map.can_reach_province(helper.kind, helper.location, m.dest.province)):
                    give(helper, SupportMove(ref(helper), m.unit, m.dest, power_of(helper)))
        return True

    armies = [u for u in units if u.kind is UnitKind.ARMY and the_map.sea_neighbours.get(u.province)]
    for army in armies[:rng.choice((0, 1, 2, 3))]:  # a few convoys first, while every unit is free
        if army.province not in by_province:
            convoyed(army, 0.9)
    for unit in units:
        if unit.province in by_province or rng.random() < 0.08:
            continue  # ordered already (a convoy, a swap), or no order: it holds
        r = rng.random()
        options = _destinations(state, unit)
        if r < 0.4 and options:
            dest = rng.choice(options)
            give(unit, Move(ref(unit), dest, via(unit, 0.05), power_of(unit)))
            other = state.unit_at(dest.province)
            if other is not None and other.province not in by_province and rng.random() < 0.3:
                back = [d for d in _destinations(state, other) if d.province == unit.province]
                if back:  # a head-to-head battle
                    give(other, Move(ref(other), back[0], False, power_of(other)))
        elif r < 0.55 and unit.kind is UnitKind.ARMY:
            if not convoyed(unit, 0.4):
                give(unit, Hold(ref(unit), power_of(unit)))
        elif r < 0.85:
            reach = [m for m in moves if m.unit.province != unit.province
                     and the_map.can_reach_province(unit.kind, unit.location, m.dest.province)]
            if reach and rng.random() < 0.75:
                m = rng.choice(reach)
                give(unit, SupportMove(ref(unit), m.unit, m.dest, power_of(unit)))
            else:
                near = [state.unit_at(d.province) for d in options if state.unit_at(d.province) is not None]
                if near:
                    give(unit, SupportHold(ref(unit), ref(rng.choice(near), True), power_of(unit)))
                else:
                    give(unit, Hold(ref(unit), power_of(unit)))
        elif r < 0.92:
            give(unit, Hold(ref(unit), power_of(unit)))
        else:  # nonsense: a move anywhere, a support or a convoy of anything
            other = rng.choice(units)
            give(unit, rng.choice((
                Move(ref(unit), anywhere(unit.province), via(unit, 0.5), power_of(unit)),
                SupportMove(ref(unit), ref(other, True), anywhere(other.province), power_of(unit)),
                SupportHold(ref(unit), ref(other, True), power_of(unit)),
                Convoy(ref(unit), ref(other, True), anywhere(other.province), power_of(unit)))))
    return list(by_province.values())


def random_phase(rng: random.Random, variant: Variant, kind: PhaseKind | None = None) -> tuple[State, list[Order]]:
    """A random position of `kind` (random when not given: mostly movement) and orders for it."""
    kind = kind or rng.choice((PhaseKind.MOVEMENT, PhaseKind.MOVEMENT, PhaseKind.RETREAT, PhaseKind.ADJUSTMENT))
    state = random_state(rng, variant, kind)
    return state, random_orders(rng, state)


def random_phases(rng: random.Random, variants: list[Variant], rules: Rules) -> list[tuple[State, list[Order], Rules]]:
    """Phases to adjudicate (position, orders, rules): a random movement phase on each of
    `variants` played on through its retreats and adjustments (random orders each time),
    and a random retreat and adjustment position."""
    items = []
    for variant in variants:
        state = random_state(rng, variant, PhaseKind.MOVEMENT)
        for _ in range(3):
            orders = random_orders(rng, state)
            items.append((state, orders, rules))
            state = adjudicate(state, orders, rules).after
            if state.phase.kind is PhaseKind.MOVEMENT:
                break
    for kind in (PhaseKind.RETREAT, PhaseKind.ADJUSTMENT):
        state = random_state(rng, rng.choice(variants), kind)
        items.append((state, random_orders(rng, state), rules))
    return items


def folding_problems(state: State, orders: list[Order], rules: Rules) -> list[str]:
    """Whether a movement turn's model solved by CP-SAT gives what the driver gives with the
    solver skipped where constant folding fixed every decision (the same values,
    strengths, calls, resolutions and backup rules)."""
    from ..movement.driver import solve
    from ..movement.prescan import prescan

    problem = prescan(state, orders, rules).problem
    if solve(problem, rules) != solve(problem, rules, shortcut=False):
        return ["the folded decisions differ from the model's solution (driver.solve with shortcut=False)"]
    return []


def batch_problems(items: list[tuple[State, list[Order], Rules]]) -> list[str]:
    """Every broken invariant of `items` adjudicated one by one (with :func:`folding_problems`
    for the movement turns), and whether batch mode
    (:func:`dipsat.adjudicator.adjudicate_many`) gives the same results."""
    one_by_one = [adjudicate(state, orders, rules) for state, orders, rules in items]
    problems = [f"{state.variant.name} {state.phase} under {rules}: {p}"
                for (state, orders, rules), result in zip(items, one_by_one)
                for p in phase_problems(result, orders)
                + (folding_problems(state, orders, rules) if state.phase.kind is PhaseKind.MOVEMENT else [])]
    if adjudicate_many(items) != one_by_one:
        problems.append("batch mode (adjudicate_many) differs from one phase at a time")
    return problems
