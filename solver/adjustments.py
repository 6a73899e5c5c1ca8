"""The adjustment phase: builds, removals, waives, civil-disorder removals (DATC 6.I, 6.J, 4.D)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from .board import Location, Power, Unit, UnitKind
from .movement.legality import default_coast, impassable_problem
from .maps import ProvinceKind
from .orders import Build, Order, Remove, Waive, kind_name, order_power
from .phases import after_adjustments
from .outcomes import (BuildRefused, BuildRefusedCode, Built, DisorderRemoval, Illegal, IllegalCode, NoBuildsLeft,
                       NoRemovalsLeft, Removed, TieBreak, Waived)
from .results import OrderResult, PhaseResult
from .rules import (BuildCoast, CivilDisorderRemoval, FleetBuildInland, MissingBuildDesignation, MultipleBuilds,
                    Rules, TooManyBuilds, TooManyDisbands, WaivingBuilds)
from .state import State


_REMOVED, _WAIVED, _NO_BUILDS_LEFT = Removed(), Waived(), NoBuildsLeft()
"""Outcomes with no fields: one value for every such order (as ``Convoys``)."""


def blockaded_centres(state: State) -> dict[str, Power]:
    """Centres blockaded by a wing (seed 004, 4.5-4.8): an owned centre in which
    another power's wing stands. Centre -> the power whose wing blockades it.

    A blockaded centre still belongs to its owner but counts for nobody and cannot be
    built in; the blockade lasts as long as the wing stays. It is read off the board
    of the adjustment phase, i.e. as the fall turn (and its retreats) left it."""
    owners = state.owner_of
    return {u.province: u.power for u in state.units
            if u.kind is UnitKind.WING and owners.get(u.province) not in (None, u.power)}


def counted_centres(state: State, power: Power) -> tuple[str, ...]:
    """The centres that count for `power`: owned and not blockaded (seed 004, 4.7)."""
    return tuple(c for c, owner in _counting(state) if owner == power)


def _counting(state: State) -> list[tuple[str, Power]]:
    """The owned centres that count, with their owners: not blockaded (seed 004, 4.7)."""
    if not state.variant.wings:
        return list(state.owners)
    blockaded = blockaded_centres(state)
    return [(c, p) for c, p in state.owners if c not in blockaded]


def adjustment_count(state: State, power: Power) -> int:
    """Centres that count minus units: positive builds, negative removals."""
    return adjustment_deltas(state).get(power, 0)


def adjustment_deltas(state: State) -> dict[Power, int]:
    """:func:`adjustment_count` of every power with a centre or a unit, in the order first seen
    (the centres', then the units')."""
    deltas: dict[Power, int] = {}
    get = deltas.get
    for _, owner in _counting(state):  # (a loop: two Counters cost twice as much, for 30 centres)
        deltas[owner] = get(owner, 0) + 1
    for unit in state.units:
        power = unit.power
        deltas[power] = get(power, 0) - 1
    return deltas


def adjudicate_adjustments(state: State, orders: list[Order], rules: Rules,
                           silent: Mapping[Power, str] | None = None) -> PhaseResult:
    """Builds, removals and waives (DATC 4.D.4-4.D.8); a power that removes too few units
    has the rest chosen by the civil-disorder rule. The orders of the powers in `silent`
    (power -> why) are illegal with that reason."""
    results: dict[int, OrderResult] = {}
    built: list[Unit] = []
    removed: set[Unit] = set()
    disorder: list[DisorderRemoval] = []
    by_owner: dict[Power, list[int]] = {}  # each power's orders to adjudicate, in the order given
    for k, order in enumerate(orders):  # (a power's adjustments give results to its own orders only)
        power = _power_of(state, order)  # whose adjustments the order counts toward
        if power is None:
            continue
        if silent and power in silent:
            results[k] = OrderResult(order, None, Illegal(IllegalCode.SILENCED, silent[power]))
        else:
            by_owner.setdefault(power, []).append(k)
    deltas = adjustment_deltas(state)
    for power in state.variant.power_order:
        mine = by_owner.get(power, ())
        delta = deltas.get(power, 0)
        if delta > 0:
            built += _builds(state, orders, mine, delta, rules, results)
        elif delta < 0:
            removed |= _removals(state, power, orders, mine, -delta, rules, results, disorder)
        for k in mine:
            if k not in results:  # (the result made only where it is the one kept)
                results[k] = OrderResult(orders[k], None, Illegal(
                    IllegalCode.ADJUSTMENT, f"{power} has no {'builds' if delta <= 0 else 'removals'} to make"))
    for k, order in enumerate(orders):
        if k not in results:
            results[k] = OrderResult(order, None, _unowned(state, order))
    units = state.units  # in place order: it stays so unless a unit is built
    if removed:
        gone = {u.province for u in removed}  # a unit's area is read first: a set of strings hashes in C
        units = tuple([u for u in units if u.province not in gone or u not in removed])
    after = after_adjustments(state, units + tuple(built), ordered=not built)  # (a build stands where none stood)
    return PhaseResult(state, after, tuple(results[k] for k in range(len(orders))), rules,
                       civil_disorder=tuple(disorder))


def _power_of(state: State, order: Order) -> Power | None:
    """The power whose adjustments an order counts toward. Unlike ``orders.order_power``
    (who gave it), a removal whose prefix names another power than the unit's owner
    counts for nobody, and orders of other phases count for nobody."""
    if isinstance(order, Remove):
        unit = state.unit_at(order.unit.province)
        if unit is None:
            return order.power
        return unit.power if order.power in (None, unit.power) else None
    if isinstance(order, (Build, Waive)):
        return order_power(state, order)
    return None


def _unowned(state: State, order: Order) -> Illegal:
    if not isinstance(order, (Build, Remove, Waive)):
        return Illegal(IllegalCode.WRONG_PHASE, f"a {kind_name(order)} order is not an adjustment-phase order")
    unit = state.unit_at(order.unit.province) if isinstance(order, Remove) else None
    if unit is not None:
        return Illegal(IllegalCode.FOREIGN_UNIT, f"the unit in {unit.province} belongs to {unit.power}")
    return Illegal(IllegalCode.ADJUSTMENT, "no power can give this order")


def _builds(state: State, orders: list[Order], mine: Sequence[int], allowed: int, rules: Rules,
            results: dict[int, OrderResult]) -> list[Unit]:
    """Builds in order given; extra builds fail (4.D.4 b), a waive uses one build (4.D.7)."""
    built: list[Unit] = []
    used = 0
    candidates = [k for k in mine if isinstance(orders[k], (Build, Waive))]
    if rules.too_many_builds is TooManyBuilds.LAST:  # DATC 4.D.4 c
        candidates = list(reversed(candidates))
    candidates = _one_build_per_province(orders, candidates, rules, results)
    legal: list[tuple[int, Unit | None]] = []  # a build's unit, None for a waive
    for k in candidates:
        order = orders[k]
        assert isinstance(order, (Build, Waive))  # the candidates are builds and waives
        if isinstance(order, Waive):
            if rules.waiving_builds is WaivingBuilds.FORBIDDEN:
                results[k] = OrderResult(order, None, BuildRefused(
                    IllegalCode.ADJUSTMENT, "waiving builds is not allowed (DATC 4.D.7 b)", BuildRefusedCode.WAIVE))
            else:
                legal.append((k, None))
            continue
        unit, why = _build_unit(state, order, built + [u for _, u in legal if u], rules)
        if why is not None:
            results[k] = OrderResult(order, None, why)
        else:
            legal.append((k, unit))
    if rules.too_many_builds is TooManyBuilds.ALL_INVALID and len(legal) > allowed:
        for k, _ in legal:
            results[k] = OrderResult(orders[k], None, BuildRefused(IllegalCode.ADJUSTMENT, "too many builds (DATC 4.D.4 a)",
                                                                   BuildRefusedCode.TOO_MANY))
        return []
    for k, unit in legal:
        if used >= allowed:
            results[k] = OrderResult(orders[k], unit, _NO_BUILDS_LEFT)
            continue
        used += 1
        results[k] = OrderResult(orders[k], unit, Built(unit) if unit is not None else _WAIVED)
        if unit is not None:
            built.append(unit)
    return built


def _one_build_per_province(orders: list[Order], candidates: list[int], rules: Rules,
                            results: dict[int, OrderResult]) -> list[int]:
    """DATC 4.D.5: several builds for one province: the first (b), the last (c) or none (a)."""
    choice = rules.builds_in_one_province
    builds = {k: order for k in candidates if isinstance(order := orders[k], Build)}
    if len({build.location.province for build in builds.values()}) == len(builds):
        return candidates  # the common case: one build a province
    by_province: dict[str, list[int]] = {}
    for k, build in builds.items():
        by_province.setdefault(build.location.province, []).append(k)
    dropped: set[int] = set()
    for province, ks in by_province.items():
        if len(ks) > 1 and choice is MultipleBuilds.BOTH_FAIL:
            dropped |= set(ks)
        elif len(ks) > 1 and choice is MultipleBuilds.LAST:
            dropped |= set(ks[:-1])
    for k in dropped:
        results[k] = OrderResult(orders[k], None, BuildRefused(
            IllegalCode.ADJUSTMENT, f"several builds for {builds[k].location.province} (DATC 4.D.5 {choice})",
            BuildRefusedCode.SEVERAL))
    return [k for k in candidates if k not in dropped]


def _refused(code: BuildRefusedCode, text: str) -> tuple[None, BuildRefused]:
    return None, BuildRefused(IllegalCode.ADJUSTMENT, text, code)


def _build_unit(state: State, order: Build, pending: list[Unit],
                rules: Rules) -> tuple[Unit | None, BuildRefused | None]:
    the_map = state.map
    closed = impassable_problem(the_map, order)
    if closed is not None:
        return None, BuildRefused(IllegalCode.IMPASSABLE, closed.text, BuildRefusedCode.NOT_HOME)
    province = order.location.province
    power = order.power or state.variant.home_of.get(province)
    if power is None:  # no power named, and not a home centre
        return _refused(BuildRefusedCode.NOT_HOME, f"{province} is not a home centre (DATC 6.I.6)")
    if state.variant.home_of.get(province) != power:
        return _refused(BuildRefusedCode.NOT_HOME, f"{province} is not a home centre of {power} (DATC 6.I.6)")
    if state.owner_of.get(province) != power:
        return _refused(BuildRefusedCode.NOT_OWNED, f"{power} does not own {province} (DATC 6.I.5)")
    blocker = blockaded_centres(state).get(province) if state.variant.wings else None
    if blocker is not None:
        return _refused(BuildRefusedCode.BLOCKADED, f"{province} is blockaded by a {blocker} wing (seed 004, 4.7)")
    occupant = state.unit_at(province)
    if occupant is not None:
        if None not in (order.location.coast, occupant.location.coast) and order.location.coast != occupant.location.coast:
            # DATC 6.I.4: a unit on one coast occupies the whole province
            return _refused(BuildRefusedCode.OCCUPIED, f"{province} is occupied by {occupant.kind} {occupant.location}, "
                                                       f"on another coast of the province (DATC 6.I.4)")
        return _refused(BuildRefusedCode.OCCUPIED, f"{province} is occupied (DATC 6.I.3)")
    if any(u.province == province for u in pending):
        return _refused(BuildRefusedCode.OCCUPIED, f"{province} already has a build (DATC 6.I.7)")
    kind = order.kind
    prov = the_map.provinces[province]
    if kind is None:
        choice = rules.build_designation
        if choice is MissingBuildDesignation.FAILS:
            return _refused(BuildRefusedCode.KIND, "the build does not say army or fleet (DATC 4.C.3 a)")
        if prov.kind is ProvinceKind.LAND:
            kind = UnitKind.ARMY  # 4.C.3 b, c: an army inland
        elif order.location.coast is not None and choice is MissingBuildDesignation.BEST_EFFORT:
            kind = UnitKind.FLEET  # 4.C.3 c: a fleet where a coast is named
        else:
            return _refused(BuildRefusedCode.KIND, f"army or fleet? (DATC 4.C.3 {choice})")
    if kind is UnitKind.FLEET:
        if prov.kind is ProvinceKind.LAND and rules.fleet_build_inland is FleetBuildInland.FAILS:
            return _refused(BuildRefusedCode.KIND, "a fleet cannot be built inland (DATC 4.C.4, 6.I.2)")
        if prov.kind is ProvinceKind.LAND:
            kind = UnitKind.ARMY  # 4.C.4 b: an army is built instead
        if prov.coasts and order.location.coast is None:
            if rules.build_coast is not BuildCoast.DEFAULT_COAST:
                return _refused(BuildRefusedCode.COAST, "the coast must be named (DATC 4.B.7, 6.B.14)")
            location = default_coast(the_map, province)  # 4.B.7 v2 b: the default coast
        else:
            location = order.location if prov.coasts else Location(province)
    else:
        if kind is UnitKind.WING and not state.variant.wings:
            return _refused(BuildRefusedCode.WINGS, "wings are not used in this variant")
        location = Location(province)
    return Unit(power, kind, location), None


def _removals(state: State, power: Power, orders: list[Order], mine: Sequence[int], required: int, rules: Rules,
              results: dict[int, OrderResult], disorder: list[DisorderRemoval]) -> set[Unit]:
    """Removals as ordered; too many per DATC 4.D.6, too few -> the civil-disorder rule (4.D.8)."""
    legal: list[tuple[int, Unit]] = []
    for k in mine:
        order = orders[k]
        unit = state.unit_at(order.unit.province) if isinstance(order, Remove) else None
        if not isinstance(order, Remove):
            results[k] = OrderResult(order, None, Illegal(IllegalCode.ADJUSTMENT, "the power must remove units, not build"))
        elif unit is None:
            results[k] = OrderResult(order, unit, Illegal(IllegalCode.NO_UNIT, "no such unit"))
        elif any(unit == u for _, u in legal):
            results[k] = OrderResult(order, unit, Illegal(IllegalCode.SEVERAL_ORDERS, "already removed (DATC 6.J.2)"))
        else:
            legal.append((k, unit))
    choice = rules.too_many_disbands
    if len(legal) > required and choice is TooManyDisbands.CIVIL_DISORDER:
        for k, unit in legal:  # 4.D.6 a: too many -> the civil-disorder rule decides
            results[k] = OrderResult(orders[k], unit, Illegal(IllegalCode.ADJUSTMENT, "too many removals (DATC 4.D.6 a)"))
        legal = []
    elif choice is TooManyDisbands.LAST:
        legal.reverse()  # 4.D.6 c: the last legal disband orders are used
    removed: set[Unit] = set()
    for k, unit in legal:
        if len(removed) >= required:
            results[k] = OrderResult(orders[k], unit, NoRemovalsLeft())
            continue
        removed.add(unit)
        results[k] = OrderResult(orders[k], unit, _REMOVED)
    if len(removed) < required:
        chosen = civil_disorder_removals(state, list(state.units_of(power)), removed, required - len(removed), rules)
        disorder += chosen
        removed |= {c.unit for c in chosen}
    return removed


def civil_disorder_removals(state: State, units: list[Unit], already: set[Unit], count: int,
                            rules: Rules) -> list[DisorderRemoval]:
    """DATC 4.D.8: the units farthest away first; ties: fleets before armies, then
    alphabetically (by English name; by abbreviation in the readings of the `diplomacy`
    package and godip). The reading says to what the distance is counted and how each
    unit kind moves (see :class:`~dipsat.rules.CivilDisorderRemoval`). Each removal says
    its distance and what chose it over the first unit kept."""
    if not units:
        return []
    reading = rules.civil_disorder
    distance = removal_distances(state, units, reading)
    if reading.ties_by_abbreviation:
        name = {u: u.province for u in units}
    else:
        name = {u: _alphabetical(state.map.province_title(u.province)) for u in units}
    ranked = sorted((u for u in units if u not in already),
                    key=lambda u: (-distance[u], u.kind is not UnitKind.FLEET, name[u]))
    chosen, kept = ranked[:count], ranked[count:]
    first_kept = kept[0] if kept else None
    out = []
    for unit in chosen:
        if first_kept is None:
            why = TieBreak.NONE
        elif distance[unit] > distance[first_kept]:
            why = TieBreak.FARTHER
        elif unit.kind is UnitKind.FLEET and first_kept.kind is not UnitKind.FLEET:
            why = TieBreak.FLEET
        else:
            why = TieBreak.ALPHABETICAL if not reading.ties_by_abbreviation else TieBreak.ABBREVIATION
        names: tuple[str, ...] = ()
        if why in (TieBreak.ALPHABETICAL, TieBreak.ABBREVIATION):
            assert first_kept is not None
            shown = (lambda u: u.province) if reading.ties_by_abbreviation else \
                (lambda u: state.map.province_title(u.province))
            names = (shown(unit), shown(first_kept))
        out.append(DisorderRemoval(unit, distance[unit], reading, why,
                                   tuple((u, distance[u]) for u in kept), names))
    return out


UNREACHABLE = 99
"""The distance of a unit that cannot reach its targets at all (it goes first)."""


def removal_distances(state: State, units: list[Unit], reading: CivilDisorderRemoval) -> dict[Unit, int]:
    """Each unit's distance as the DATC 4.D.8 reading counts it (UNREACHABLE: never there),
    from the map's distances (:meth:`~dipsat.maps.Map.distances_to` and the like)."""
    power = units[0].power
    the_map = state.map
    if reading is CivilDisorderRemoval.R2000:  # 2000: to the home country, over land and sea
        land_and_sea = the_map.distances_to(frozenset(state.variant.power(power).country))
        return {u: land_and_sea.get(u.province, UNREACHABLE) for u in units}
    if reading is CivilDisorderRemoval.R2023:  # 2023: to the nearest owned centre, over land and sea
        land_and_sea = the_map.distances_to(frozenset(state.centres_of(power)))
        return {u: land_and_sea.get(u.province, UNREACHABLE) for u in units}
    homes = frozenset(state.variant.power(power).home_centres)  # DATC v2.x: to the home supply centres
    land_and_sea = the_map.distances_to(homes)
    out = {}
    seas: frozenset[str] | None = None  # the seas a convoy may cross, found when an army asks
    for u in units:
        found: int | None
        if u.kind is UnitKind.WING or reading in (CivilDisorderRemoval.LAND_AND_SEA, CivilDisorderRemoval.GODIP):
            found = land_and_sea.get(u.province)  # v2 e: both kinds over land and sea
        elif u.kind is UnitKind.FLEET:
            found = the_map.fleet_distance(u.location, homes)  # v2 a-d: fleets move as fleets
        elif reading in (CivilDisorderRemoval.ARMIES_AT_SEA, CivilDisorderRemoval.DIPLOMACY):
            found = land_and_sea.get(u.province)  # v2 d: armies also move as fleets
        else:  # v2 a-c: a convoy is one move
            if seas is None:
                seas = _convoy_seas(state, power, reading)
            found = the_map.army_distance(u.province, homes, seas)
        out[u] = UNREACHABLE if found is None else found
    return out


@functools.lru_cache(maxsize=1024)  # a pure function of a province's name, asked every adjustment phase
def _alphabetical(title: str) -> str:
    """A name for alphabetical order: case, spaces, dots and hyphens ignored (DATC v2.x 4.D.8)."""
    return "".join(ch for ch in title.casefold() if ch.isalnum())


def _convoy_seas(state: State, power: Power, reading: CivilDisorderRemoval) -> frozenset[str]:
    """The seas a convoy may cross where an army's distance counts a convoy as one move (DATC
    v2.x 4.D.8 a-c): any sea (a), seas with a fleet of the unit's power (b) or with any fleet (c)."""
    the_map = state.map
    fleets_at_sea = [u for u in state.units if u.kind is UnitKind.FLEET and u.province in the_map.sea_provinces]
    if reading is CivilDisorderRemoval.OWN_FLEETS:
        return frozenset(u.province for u in fleets_at_sea if u.power == power)
    if reading is CivilDisorderRemoval.ANY_FLEETS:
        return frozenset(u.province for u in fleets_at_sea)
    return the_map.sea_provinces
