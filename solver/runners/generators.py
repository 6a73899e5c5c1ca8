"""Positions where the rules are hard, for testing other adjudicators (``dipsat fuzz``).

Each family builds a phase (a legal position and orders for it) around one pattern of DATC
chapter 6, on a board that is otherwise random: the pattern's units are placed in a corner
of the map chosen at random, the rest of the board gets random units and the sensible,
sometimes mistaken orders of :func:`dipsat.runners.invariants.random_orders`. Everything
is drawn from the ``random.Random`` given, so a seed reproduces a run.

Families (``--family``): ``convoys`` (convoys and their disruptions, DATC 6.F/6.G),
``paradoxes`` (an army convoyed to a unit that supports an attack on its convoy, 6.F.14-24),
``rings`` (circular movement with supports and convoys, 6.C), ``head_to_head`` (battles
between units moving into each other, with supports, beleaguered garrisons and
self-dislodgement, 6.D/6.E), ``coasts`` (fleets and supports at split coasts, 6.B),
``retreats`` (a movement phase whose convoyed attacks dislodge units, and retreat phases,
6.H), ``adjustments`` (builds and removals, civil disorder with ties, 6.I/6.J) and
``games`` (whole random games: movement, retreats and adjustments in sequence).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from ..adjudicator import adjudicate
from ..board import Location, PhaseKind, Unit, UnitKind
from ..maps import ProvinceKind, Variant
from ..movement.legality import convoy_route_on_board
from ..orders import Convoy, Hold, Move, Order, SupportHold, SupportMove, UnitRef
from ..rules import Rules
from ..state import State, state_problems
from .invariants import random_orders, random_state

__all__ = ["FAMILIES", "Generated", "generate", "generate_item"]


@dataclass(frozen=True)
class Generated:
    """One generated phase: its family, the position and the orders, and its id
    (``fuzz-SEED-ITEM``; a game's phases ``fuzz-SEED-ITEM.PHASE``)."""

    family: str
    state: State
    orders: tuple[Order, ...]
    id: str = ""


def _ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.location, unit.kind)


def _place(state: State, units: list[Unit]) -> State:
    """`state` with `units` placed (replacing whatever stood in their provinces)."""
    taken = {u.province for u in units}
    kept = [u for u in state.units if u.province not in taken]
    return state.with_(units=tuple(kept + units))


def _army_spots(variant: Variant) -> list[str]:
    return sorted(p for p, prov in variant.map.provinces.items() if prov.kind is not ProvinceKind.SEA)


def _sparse(rng: random.Random, variant: Variant, kind: PhaseKind = PhaseKind.MOVEMENT) -> State:
    return random_state(rng, variant, kind, density=rng.choice((0.15, 0.3)))


def _orders(rng: random.Random, state: State) -> list[Order]:
    """Random orders, without mistakes of notation (an engine is tested on adjudication).
    An army's move says 'via convoy' only where a chain of fleets at sea could carry it:
    players write it for a convoy they see on the board. One that no fleet could carry is
    illegal where 'via convoy' binds the army to the convoy route and the land move it names
    under the other readings of DATC 4.A.3 (4.E.1, 4.E.2, 6.D.32), and programs refuse it
    when it is given (the ``diplomacy`` package drops it): a matter of order entry, which
    would hide the reading of 4.A.3 an engine follows in adjudication."""
    orders = random_orders(rng, state, notation_mistakes=False)
    return [replace(o, via_convoy=False) if isinstance(o, Move) and o.via_convoy and not _carried(state, o) else o
            for o in orders]


def _carried(state: State, move: Move) -> bool:
    """Whether a chain of fleets now at sea could carry the army `move` names."""
    unit = state.unit_at(move.unit.province)
    return (unit is None or unit.kind is not UnitKind.ARMY
            or convoy_route_on_board(state, move.unit.province, move.dest.province))


def _background(rng: random.Random, state: State, fixed: dict[str, Order]) -> list[Order]:
    """Random orders for the units the pattern does not order, then the pattern's orders."""
    others = [o for o in _orders(rng, state) if getattr(getattr(o, "unit", None), "province", None) not in fixed]
    orders = others + list(fixed.values())
    rng.shuffle(orders)
    return orders


def _other_power(rng: random.Random, variant: Variant, power: str) -> str:
    return rng.choice([p.name for p in variant.powers if p.name != power] or [power])


def _fleet_location(variant: Variant, province: str) -> Location | None:
    locations = variant.map.fleet_locations(province)
    return locations[0] if locations else None


# --- the families -------------------------------------------------------------------------------


def _convoy_route(rng: random.Random, variant: Variant) -> tuple[str, list[str], str] | None:
    """A random convoy: the army's coastal province, a chain of one to three seas each
    touching the next, and a coastal destination the last sea touches (None when thirty
    tries found none)."""
    the_map = variant.map
    coasts = [p for p in _army_spots(variant) if the_map.sea_neighbours.get(p)]
    for _ in range(30):
        origin = rng.choice(coasts)
        chain = [rng.choice(sorted(the_map.sea_neighbours[origin]))]
        for _ in range(rng.choice((0, 0, 1, 2))):
            nxt = sorted(the_map.sea_neighbours[chain[-1]] - set(chain))
            if nxt:
                chain.append(rng.choice(nxt))
        ends = sorted(p for p in the_map.neighbours(chain[-1]) if p in coasts and p != origin)
        if ends:
            return origin, chain, rng.choice(ends)
    return None


def _convoys(rng: random.Random, variant: Variant) -> tuple[State, list[Order]]:
    """A chain of fleets convoying an army (sometimes to an adjacent area, sometimes a swap),
    the fleets attacked with support, the attacked province's unit supporting an attack
    on a fleet: disruptions and paradoxes (DATC 6.F, 6.G)."""
    the_map = variant.map
    state = _sparse(rng, variant)
    route = _convoy_route(rng, variant)
    if route is None:
        return state, _orders(rng, state)
    origin, chain, dest = route
    power = rng.choice([p.name for p in variant.powers])
    army = Unit(power, UnitKind.ARMY, Location(origin))
    fleets = [Unit(power if rng.random() < 0.7 else _other_power(rng, variant, power), UnitKind.FLEET, Location(s))
              for s in chain]
    placed = [army, *fleets]
    fixed: dict[str, Order] = {origin: Move(_ref(army), Location(dest), rng.random() < 0.5, power)}
    for f in fleets:
        fixed[f.province] = Convoy(_ref(f), _ref(army), Location(dest), f.power)
    defender_power = _other_power(rng, variant, power)
    if rng.random() < 0.8:  # someone at the destination, maybe moving back (a convoyed swap)
        defender = Unit(defender_power, UnitKind.ARMY, Location(dest))
        placed.append(defender)
        if rng.random() < 0.4 and dest in the_map.neighbours(origin):
            fixed[dest] = Move(_ref(defender), Location(origin), False, defender_power)
        else:
            target = rng.choice(fleets)
            if target.province in the_map.neighbours(dest):  # an army cannot support a fleet at sea: a mistake
                fixed[dest] = SupportHold(_ref(defender), _ref(target), defender_power)
    for f in fleets:  # attacks on the convoying fleets, with support
        if rng.random() < 0.6:
            near = sorted(p for p in the_map.sea_neighbours.get(f.province, ()) if p not in chain)
            near += sorted(p for p in the_map.neighbours(f.province) if p not in chain and p != origin and p != dest
                           and the_map.provinces[p].kind is ProvinceKind.COAST)
            spots = [p for p in near if p not in {u.province for u in placed}]
            if not spots:
                continue
            where = _fleet_location(variant, rng.choice(spots))
            if where is None:
                continue
            attacker = Unit(defender_power, UnitKind.FLEET, where)
            placed.append(attacker)
            if variant.map.can_move(UnitKind.FLEET, attacker.location, f.location):
                fixed[attacker.province] = Move(_ref(attacker), f.location, False, defender_power)
                helper_spots = [p for p in near if p not in {u.province for u in placed}]
                if helper_spots and rng.random() < 0.7:
                    at = _fleet_location(variant, rng.choice(helper_spots))
                    if at is not None and variant.map.can_reach_province(UnitKind.FLEET, at, f.province):
                        helper = Unit(defender_power, UnitKind.FLEET, at)
                        placed.append(helper)
                        fixed[helper.province] = SupportMove(_ref(helper), _ref(attacker), f.location, defender_power)
    state = _place(state, placed)
    return state, _background(rng, state, fixed)


def _fleet_towards(rng: random.Random, variant: Variant, province: str, sea: str) -> Location | None:
    """Where a fleet in `province` may stand to move (or support) into `sea`: one of the
    province's coasts that touch it (None: none does)."""
    places = [loc for loc in variant.map.fleet_locations(province)
              if variant.map.can_reach_province(UnitKind.FLEET, loc, sea)]
    return rng.choice(places) if places else None


def _touches(variant: Variant, province: str, sea: str) -> bool:
    """Whether a fleet in `province` (on some coast of it) could move into `sea`."""
    return any(variant.map.can_reach_province(UnitKind.FLEET, loc, sea) for loc in variant.map.fleet_locations(province))


def _paradox_core(rng: random.Random, variant: Variant) -> tuple[str, list[str], str, str, list[str]] | None:
    """A convoy route (origin, seas, destination), the sea of the route to attack -- one a
    fleet at the destination could support an attack into -- and the provinces an attack
    on it could come from (None when ten routes drawn had none)."""
    for _ in range(10):
        route = _convoy_route(rng, variant)
        if route is None:
            return None
        origin, chain, dest = route
        targets = [s for s in chain if _touches(variant, dest, s)]
        if not targets:
            continue
        sea = rng.choice(targets)
        taken = {origin, dest, *chain}
        spots = sorted(p for p in variant.map.neighbours(sea) if p not in taken and _touches(variant, p, sea))
        if spots:
            return origin, chain, dest, sea, spots
    return None


def _paradoxes(rng: random.Random, variant: Variant) -> tuple[State, list[Order]]:
    """Convoy paradoxes and their near misses (DATC 6.F.14-6.F.24, issue 4.A.2): an army
    convoyed to a province whose fleet supports an attack on one of the convoying fleets,
    so that the army, arriving, would cut the support that disrupts its own convoy. The
    rule: a convoyed army does not cut a support for an attack on a fleet of its convoy
    (the 2000 and 2023 rulebooks; 4.A.2 names the other readings), and a support counts
    for dislodging only against another power's unit (5.B.8, 6.D.12). So the supporter is
    of any power -- the convoying fleet's own too, when the attack cannot dislodge the fleet
    and there is no paradox at all -- and the attacker of any other power than the fleet's.
    Around that core, now and then: a second route for the army (6.F.19, 6.F.20), a
    beleaguered garrison (a third power attacking the fleet with equal strength, 6.F.16),
    more support for the attack, a support for the army's attack (6.F.17), an attack on
    the supporter over land, the supporter supporting the fleet instead (the betrayal,
    6.F.18) or attacking it itself."""
    the_map = variant.map
    state = _sparse(rng, variant)
    powers = [p.name for p in variant.powers]
    core = _paradox_core(rng, variant)
    if core is None:
        return state, _orders(rng, state)
    origin, chain, dest, sea, spots = core
    army_power = rng.choice(powers)
    army = Unit(army_power, UnitKind.ARMY, Location(origin))
    fleets = {s: Unit(army_power if rng.random() < 0.7 else _other_power(rng, variant, army_power), UnitKind.FLEET,
                      Location(s)) for s in chain}
    target = fleets[sea]
    attacker_power = _other_power(rng, variant, target.power)
    r = rng.random()
    supporter_power = (target.power if r < 0.35 else army_power if r < 0.5 else attacker_power if r < 0.75
                       else rng.choice(powers))
    where = _fleet_towards(rng, variant, dest, sea)
    assert where is not None
    supporter = Unit(supporter_power, UnitKind.FLEET, where)
    spot = spots.pop(rng.randrange(len(spots)))
    at = _fleet_towards(rng, variant, spot, sea)
    assert at is not None
    attacker = Unit(attacker_power, UnitKind.FLEET, at)
    placed = [army, *fleets.values(), supporter, attacker]
    fixed: dict[str, Order] = {origin: Move(_ref(army), Location(dest), rng.random() < 0.5, army_power),
                               attacker.province: Move(_ref(attacker), target.location, False, attacker_power)}
    for f in fleets.values():
        fixed[f.province] = Convoy(_ref(f), _ref(army), Location(dest), f.power)
    r = rng.random()
    fixed[dest] = (SupportMove(_ref(supporter), _ref(attacker), target.location, supporter_power) if r < 0.75
                   else SupportHold(_ref(supporter), _ref(target), supporter_power) if r < 0.87
                   else Move(_ref(supporter), target.location, False, supporter_power))

    def free(candidates: list[str]) -> list[str]:
        return [p for p in candidates if p not in {u.province for u in placed}]

    def fleet_near(power: str, into: str) -> Unit | None:
        """A fleet of `power` placed next to `into`, able to move there (None: no room)."""
        room = free(sorted(p for p in the_map.neighbours(into) if _touches(variant, p, into)))
        if not room:
            return None
        loc = _fleet_towards(rng, variant, rng.choice(room), into)
        assert loc is not None
        unit = Unit(power, UnitKind.FLEET, loc)
        placed.append(unit)
        return unit

    if rng.random() < 0.25:  # a second route (6.F.19, 6.F.20)
        seas = free(sorted(s for s in the_map.sea_neighbours[origin] if dest in the_map.neighbours(s)))
        if seas:
            other = Unit(rng.choice((army_power, rng.choice(powers))), UnitKind.FLEET, Location(rng.choice(seas)))
            placed.append(other)
            fixed[other.province] = Convoy(_ref(other), _ref(army), Location(dest), other.power)
    if rng.random() < 0.4:  # more support for the attack
        helper = fleet_near(rng.choice(powers), sea)
        if helper is not None:
            fixed[helper.province] = SupportMove(_ref(helper), _ref(attacker), target.location, helper.power)
    if rng.random() < 0.3:  # a beleaguered garrison (6.F.16): a third power attacks the fleet too
        third = rng.choice([p for p in powers if p not in (target.power, attacker_power)] or [attacker_power])
        rival = fleet_near(third, sea)
        if rival is not None:
            fixed[rival.province] = Move(_ref(rival), target.location, False, third)
            if rng.random() < 0.6:
                helper = fleet_near(third, sea)
                if helper is not None:
                    fixed[helper.province] = SupportMove(_ref(helper), _ref(rival), target.location, third)
    for purpose in ("support the army", "attack the supporter"):  # 6.F.17; a cut over land
        if rng.random() < (0.35 if purpose == "support the army" else 0.25):
            room = free(sorted(the_map.neighbours(dest)))
            if not room:
                continue
            p = rng.choice(room)
            if dest in the_map.army_adjacency.get(p, ()):
                helper = Unit(rng.choice((army_power, rng.choice(powers))), UnitKind.ARMY, Location(p))
            else:
                loc = _fleet_towards(rng, variant, p, dest)
                if loc is None:
                    continue
                helper = Unit(rng.choice((army_power, rng.choice(powers))), UnitKind.FLEET, loc)
            placed.append(helper)
            into = (Location(dest) if helper.kind is UnitKind.ARMY
                    else rng.choice(the_map.reachable_coasts(helper.location, dest)))
            fixed[p] = (SupportMove(_ref(helper), _ref(army), Location(dest), helper.power)
                        if purpose == "support the army" else Move(_ref(helper), into, False, helper.power))
    state = _place(state, placed)
    return state, _background(rng, state, fixed)


def _ring_cycle(rng: random.Random, variant: Variant, length: int) -> list[str] | None:
    the_map = variant.map
    spots = _army_spots(variant)
    for _ in range(40):
        path = [rng.choice(spots)]
        while len(path) < length:
            nxt = sorted(p for p in the_map.army_adjacency.get(path[-1], ()) if p not in path)
            if not nxt:
                break
            path.append(rng.choice(nxt))
        if len(path) == length and path[0] in the_map.army_adjacency.get(path[-1], ()):
            return path
    return None


def _rings(rng: random.Random, variant: Variant) -> tuple[State, list[Order]]:
    """Armies moving round a ring, with supports, an attack from outside, sometimes a unit
    in the ring that holds (DATC 6.C)."""
    state = _sparse(rng, variant)
    ring = _ring_cycle(rng, variant, rng.choice((3, 3, 4, 5)))
    if ring is None:
        return state, _orders(rng, state)
    powers = [p.name for p in variant.powers]
    units = [Unit(rng.choice(powers), UnitKind.ARMY, Location(p)) for p in ring]
    fixed: dict[str, Order] = {}
    for i, u in enumerate(units):
        nxt = ring[(i + 1) % len(ring)]
        fixed[u.province] = Move(_ref(u), Location(nxt), False, u.power) if rng.random() < 0.9 else Hold(_ref(u), u.power)
    placed = list(units)
    taken = set(ring)
    for u in units:  # an outside attack or a support, now and then
        if rng.random() < 0.4:
            near = sorted(p for p in variant.map.army_adjacency.get(u.province, ()) if p not in taken)
            if near:
                spot = rng.choice(near)
                other = Unit(rng.choice(powers), UnitKind.ARMY, Location(spot))
                taken.add(spot)
                placed.append(other)
                move = fixed[u.province]
                if isinstance(move, Move) and rng.random() < 0.5 and move.dest.province in variant.map.army_adjacency.get(spot, ()):
                    fixed[spot] = SupportMove(_ref(other), _ref(u), move.dest, other.power)
                else:
                    fixed[spot] = Move(_ref(other), u.location, False, other.power)
    state = _place(state, placed)
    return state, _background(rng, state, fixed)


def _head_to_head(rng: random.Random, variant: Variant) -> tuple[State, list[Order]]:
    """Two units moving into each other, supported on both sides (sometimes by the other
    side's own power), a third attacking one of them; beleaguered garrisons; supports
    against one's own unit (DATC 6.D, 6.E)."""
    state = _sparse(rng, variant)
    the_map = variant.map
    a_spot = rng.choice(_army_spots(variant))
    near = sorted(the_map.army_adjacency.get(a_spot, ()))
    if not near:
        return state, _orders(rng, state)
    b_spot = rng.choice(near)
    powers = [p.name for p in variant.powers]
    pa = rng.choice(powers)
    pb = pa if rng.random() < 0.15 else _other_power(rng, variant, pa)
    a, b = Unit(pa, UnitKind.ARMY, Location(a_spot)), Unit(pb, UnitKind.ARMY, Location(b_spot))
    fixed: dict[str, Order] = {a_spot: Move(_ref(a), b.location, False, pa), b_spot: Move(_ref(b), a.location, False, pb)}
    placed, taken = [a, b], {a_spot, b_spot}
    for mover, dest in ((a, b_spot), (b, a_spot)):
        for spot in sorted(set(the_map.army_adjacency.get(dest, ())) - taken):
            r = rng.random()
            if r < 0.25:
                helper = Unit(rng.choice((pa, pb, rng.choice(powers))), UnitKind.ARMY, Location(spot))
                fixed[spot] = SupportMove(_ref(helper), _ref(mover), Location(dest), helper.power)
            elif r < 0.4:
                helper = Unit(rng.choice(powers), UnitKind.ARMY, Location(spot))
                fixed[spot] = Move(_ref(helper), Location(dest), False, helper.power)  # a third attacker
            elif r < 0.5:
                helper = Unit(rng.choice(powers), UnitKind.ARMY, Location(spot))
                fixed[spot] = SupportHold(_ref(helper), _ref(mover), helper.power)  # void: the unit moves
            else:
                continue
            placed.append(helper)
            taken.add(spot)
    state = _place(state, placed)
    return state, _background(rng, state, fixed)


def _coasts(rng: random.Random, variant: Variant) -> tuple[State, list[Order]]:
    """Fleets ordered to split-coast provinces, with the coast named, left out or wrong;
    supports naming a coast or not (DATC 6.B, 4.B)."""
    state = _sparse(rng, variant)
    the_map = variant.map
    split = sorted(p for p, prov in the_map.provinces.items() if prov.coasts)
    if not split:
        return state, _orders(rng, state)
    target = rng.choice(split)
    powers = [p.name for p in variant.powers]
    placed: list[Unit] = []
    fixed: dict[str, Order] = {}
    taken = {target}
    for coast in the_map.provinces[target].coasts:
        for loc in sorted(the_map.fleet_adjacency.get(Location(target, coast), ()), key=str):
            if loc.province in taken or rng.random() < 0.5:
                continue
            fleet = Unit(rng.choice(powers), UnitKind.FLEET, loc)
            taken.add(loc.province)
            placed.append(fleet)
            r = rng.random()
            dest = Location(target, coast) if r < 0.5 else Location(target) if r < 0.75 else Location(
                target, rng.choice(the_map.provinces[target].coasts))
            if placed[:-1] and rng.random() < 0.4:
                other = placed[0]
                order = fixed.get(other.province)
                if isinstance(order, Move):
                    written = order.dest if rng.random() < 0.5 else Location(order.dest.province)
                    fixed[fleet.province] = SupportMove(_ref(fleet), _ref(other), written, fleet.power)
                    continue
            fixed[fleet.province] = Move(_ref(fleet), dest, False, fleet.power)
    if rng.random() < 0.5:  # someone at home there
        kind = rng.choice((UnitKind.ARMY, UnitKind.FLEET))
        loc = Location(target) if kind is UnitKind.ARMY else Location(target, rng.choice(the_map.provinces[target].coasts))
        placed.append(Unit(rng.choice(powers), kind, loc))
    state = _place(state, placed)
    return state, _background(rng, state, fixed)


def _retreats(rng: random.Random, variant: Variant) -> tuple[State, list[Order]]:
    """A convoyed attack that dislodges a unit (DATC 4.A.5, 6.H) -- played on to the retreat
    phase half the time, with random retreat orders -- or a random retreat phase."""
    if rng.random() < 0.3:
        state = random_state(rng, variant, PhaseKind.RETREAT)
        return state, _orders(rng, state)
    state, orders = _convoys(rng, variant)
    if rng.random() < 0.5:
        return state, orders
    after = adjudicate(state, orders, Rules.profile("datc")).after
    if after.phase.kind is not PhaseKind.RETREAT:
        return state, orders
    return after, _orders(rng, after)


def _adjustments(rng: random.Random, variant: Variant) -> tuple[State, list[Order]]:
    """Builds and removals: too many, in occupied, foreign or non-home centres, twice in one
    province, and powers in civil disorder that must remove units (ties in distance)."""
    state = random_state(rng, variant, PhaseKind.ADJUSTMENT)
    orders = _orders(rng, state)
    if rng.random() < 0.5:  # a power in civil disorder: its orders dropped
        powers = sorted({u.power for u in state.units})
        if powers:
            silent = rng.choice(powers)
            orders = [o for o in orders if o.power != silent]
    return state, orders


FAMILIES: dict[str, Callable[[random.Random, Variant], tuple[State, list[Order]]]] = {
    "convoys": _convoys, "paradoxes": _paradoxes, "rings": _rings, "head_to_head": _head_to_head, "coasts": _coasts,
    "retreats": _retreats, "adjustments": _adjustments,
}
"""The families of generated phases (``games`` is :func:`generate`'s own: whole games)."""


def _game(rng: random.Random, variant: Variant, rules: Rules, phases: int) -> Iterator[tuple[State, list[Order]]]:
    """A random game from the initial position: each phase's random orders, adjudicated under
    `rules` to reach the next."""
    state = State.initial(variant)
    for _ in range(phases):
        orders = _orders(rng, state)
        yield state, orders
        state = adjudicate(state, orders, rules).after


def generate_item(seed: int, n: int, variants: list[Variant], families: list[str], rules: Rules) -> list[Generated]:
    """Item `n` of the run seeded `seed`: one phase of family ``families[n % len]`` (a whole
    game's phases for ``games``), on a variant drawn from `variants`. Each item is drawn
    from its own random stream, so any item can be made again alone (workers, --resume)."""
    rng = random.Random(f"{seed}-{n}")
    family = families[n % len(families)]
    variant = rng.choice(variants)
    base = f"fuzz-{seed}-{n:06d}"
    if family == "games":
        return [Generated(family, _legal(state), tuple(orders), f"{base}.{j:02d}")
                for j, (state, orders) in enumerate(_game(rng, variant, rules, rng.randrange(4, 12)))]
    state, orders = FAMILIES[family](rng, variant)
    return [Generated(family, _legal(state), tuple(orders), base)]


def generate(seed: int, variants: list[Variant], families: list[str], rules: Rules) -> Iterator[Generated]:
    """The endless stream of generated phases of the run seeded `seed`, item by item."""
    n = 0
    while True:
        yield from generate_item(seed, n, variants, families, rules)
        n += 1


def _legal(state: State) -> State:
    """Generated positions are legal: one unit per province, every unit where its kind may
    stand (a placed unit replaced whatever stood in its province)."""
    problems = state_problems(state)
    if problems:
        raise AssertionError(f"a generated position is not legal: {problems[0]}")
    return state
