"""Realistic adjudicator bugs, each a way a buggy program gets one phase wrong
(:data:`BUGS`), for the mutation test of ``dipsat validate`` (:mod:`dipsat.runners.mutations`).

A bug takes the phase's position, its orders and dipsat's result and returns the buggy
outcome (:class:`Bugged`: the orders as recorded, the position the game goes on from,
the provinces a report must name), or None when it cannot happen in that phase.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..adjudicator import adjudicate
from ..board import Location, PhaseKind, Season, Unit, UnitKind
from ..notation import format_order
from ..orders import Build, Disband, Hold, Move, Order, Remove, Retreat, SupportHold, SupportMove, UnitRef
from ..results import PhaseResult, Reason
from ..rules import Rules
from ..state import State

__all__ = ["BUGS", "Bug", "Bugged", "unit_ref", "build_places", "kind_for"]


@dataclass(frozen=True)
class Bugged:
    """A buggy adjudicator's outcome of one phase: the orders as recorded (a bug may need
    an order the players gave: an extra build), the position it went on from, and the
    provinces a report must name."""

    orders: list[Order]
    after: State
    subjects: frozenset[str]
    what: str


Bug = Callable[[random.Random, State, list[Order], PhaseResult, Rules], "Bugged | None"]


def unit_ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.location, unit.kind)


def build_places(state: State, power: str) -> list[Location]:
    """Where `power` may build: its empty home centres that it owns, coasts as places."""
    the_map = state.map
    home = next(p for p in state.variant.powers if p.name == power).home_centres
    owners = dict(state.owners)
    out = []
    for centre in home:
        if owners.get(centre) == power and state.unit_at(centre) is None:
            coasts = the_map.provinces[centre].coasts
            out += [Location(centre)] + [Location(centre, c) for c in coasts]
    return out


def kind_for(state: State, loc: Location, rng: random.Random) -> UnitKind | None:
    kinds = [k for k in (UnitKind.ARMY, UnitKind.FLEET) if state.map.can_occupy(k, loc)]
    return rng.choice(kinds) if kinds else None


# --- the bugs ------------------------------------------------------------------------------------


def _moved(unit: Unit, dest: Location) -> Unit | None:
    loc = dest if unit.kind is UnitKind.FLEET else Location(dest.province)
    return Unit(unit.power, unit.kind, loc)


def _replace_units(state: State, gone: list[Unit], new: list[Unit]) -> State:
    units = [u for u in state.units if u not in gone] + new
    return state.with_(units=tuple(sorted(units, key=lambda u: (u.province, str(u)))))


def _spring(state: State) -> bool:
    return state.phase.season is Season.SPRING


def bounce_as_move(rng: random.Random, state: State, orders: list[Order], result: PhaseResult,
                   rules: Rules) -> Bugged | None:
    """A move that bounced recorded as made (into the province left empty by the standoff)."""
    after = result.after
    if not _spring(state):
        return None
    for order, r in zip(orders, result.results):
        if isinstance(order, Move) and r.reason is Reason.BOUNCED and after.unit_at(order.dest.province) is None:
            unit = after.unit_at(order.unit.province)
            if unit is None or unit.location != order.unit.location:
                continue
            moved = _moved(unit, order.dest)
            if moved is None or not state.map.can_occupy(moved.kind, moved.location):
                continue
            return Bugged(orders, _replace_units(after, [unit], [moved]),
                          frozenset({order.unit.province, order.dest.province}), f"{format_order(order)} moved")
    return None


def dislodgement_ignored(rng: random.Random, state: State, orders: list[Order], result: PhaseResult,
                         rules: Rules) -> Bugged | None:
    """A dislodgement ignored: the attacker bounced back, the defender stayed."""
    after = result.after
    if not _spring(state):
        return None
    for d in after.dislodged:
        attacker = after.unit_at(d.unit.province)
        origin = d.attacker_origin
        if attacker is None or origin is None or after.unit_at(origin) is not None:
            continue
        back = next((u for u in state.units if u.province == origin), None)
        if back is None:
            continue
        bugged = _replace_units(after, [attacker], [back, d.unit])
        bugged = bugged.with_(dislodged=tuple(x for x in after.dislodged if x != d))
        return Bugged(orders, bugged, frozenset({d.unit.province, origin}), f"{d.unit} not dislodged")
    return None


def support_wrongly_cut(rng: random.Random, state: State, orders: list[Order], result: PhaseResult,
                        rules: Rules) -> Bugged | None:
    """A support that was given counted as cut, where that changes the board."""
    if not _spring(state):
        return None
    for k, (order, r) in enumerate(zip(orders, result.results)):
        if isinstance(order, (SupportHold, SupportMove)) and r.succeeded:
            cut = adjudicate(state, orders[:k] + [Hold(order.unit, order.power)] + orders[k + 1:], rules).after
            if (set(cut.units), set(cut.dislodged)) != (set(result.after.units), set(result.after.dislodged)):
                return Bugged(orders, cut, frozenset({order.unit.province}), f"{format_order(order)} cut")
    return None


def unit_lost(rng: random.Random, state: State, orders: list[Order], result: PhaseResult,
              rules: Rules) -> Bugged | None:
    """A unit lost in a movement phase (not dislodged, nobody attacked it)."""
    if state.phase.kind is not PhaseKind.MOVEMENT or not _spring(state) or not result.after.units:
        return None
    unit = rng.choice(sorted(result.after.units, key=lambda u: (u.province, str(u))))
    return Bugged(orders, _replace_units(result.after, [unit], []), frozenset({unit.province}), f"{unit} lost")


def _fall_to_adjustment(state: State, result: PhaseResult) -> bool:
    return (state.phase.kind is PhaseKind.MOVEMENT and state.phase.season is Season.FALL
            and result.after.phase.kind is PhaseKind.ADJUSTMENT)


def centre_kept(rng: random.Random, state: State, orders: list[Order], result: PhaseResult,
                rules: Rules) -> Bugged | None:
    """A centre taken at the end of the year left with its old owner."""
    if not _fall_to_adjustment(state, result):
        return None
    before, after = dict(state.owners), dict(result.after.owners)
    changed = sorted(c for c in after if before.get(c) != after[c] and c in before)
    if not changed:
        return None
    centre = rng.choice(changed)
    owners = {**after, centre: before[centre]}
    return Bugged(orders, result.after.with_(owners=tuple(owners.items())), frozenset({centre}),
                  f"{centre.upper()} kept by {before[centre]}")


def centre_changed(rng: random.Random, state: State, orders: list[Order], result: PhaseResult,
                   rules: Rules) -> Bugged | None:
    """An empty centre given to a power that does not stand there."""
    if not _fall_to_adjustment(state, result):
        return None
    after = result.after
    owners = dict(after.owners)
    powers = sorted(p.name for p in state.variant.powers)
    empty = sorted(c for c in owners if after.unit_at(c) is None)
    if not empty:
        return None
    centre = rng.choice(empty)
    other = rng.choice([p for p in powers if p != owners[centre]])
    return Bugged(orders, after.with_(owners=tuple({**owners, centre: other}.items())), frozenset({centre}),
                  f"{centre.upper()} given to {other}")


def retreat_option_added(rng: random.Random, state: State, orders: list[Order], result: PhaseResult,
                         rules: Rules) -> Bugged | None:
    """A retreat to where the unit may not go (the attacker's origin, a standoff), made."""
    if state.phase.kind is not PhaseKind.RETREAT:
        return None
    for d in state.dislodged:
        for province in sorted(state.map.neighbours(d.unit.province)):
            loc = Location(province)
            if d.unit.kind is UnitKind.FLEET:
                coasts = state.map.provinces[province].coasts
                loc = Location(province, coasts[0]) if coasts else loc
            if state.unit_at(province) is not None or not state.map.can_move(d.unit.kind, d.unit.location, loc):
                continue
            if province != d.attacker_origin and province not in state.standoffs:
                continue
            others = [o for o in orders if not isinstance(o, (Retreat, Disband)) or o.unit.province != d.unit.province]
            if any(isinstance(o, Retreat) and o.dest.province == province for o in others):
                continue
            retreat = Retreat(unit_ref(d.unit), loc, d.unit.power)
            true = adjudicate(state, others + [retreat], rules)
            if true.results[-1].succeeded:
                continue  # allowed under these rules (4.A.5: after a convoy)
            bugged = _replace_units(true.after, [], [_moved(d.unit, loc)])  # type: ignore[list-item]
            return Bugged(others + [retreat], bugged, frozenset({d.unit.province, province}),
                          f"{format_order(retreat)} allowed")
    return None


def retreat_option_missing(rng: random.Random, state: State, orders: list[Order], result: PhaseResult,
                           rules: Rules) -> Bugged | None:
    """A retreat the unit may make refused: the unit disbanded."""
    if state.phase.kind is not PhaseKind.RETREAT:
        return None
    for order, r in zip(orders, result.results):
        if isinstance(order, Retreat) and r.succeeded:
            made = _moved(Unit(order.power or "", order.unit.kind or UnitKind.ARMY, order.unit.location), order.dest)
            gone = [u for u in result.after.units if made is not None and (u.power, u.kind, u.province) ==
                    (made.power, made.kind, made.province)]
            return Bugged(orders, _replace_units(result.after, gone, []), frozenset({order.unit.province}),
                          f"{format_order(order)} refused")
    return None


def _balance(state: State, power: str) -> int:
    return len(state.centres_of(power)) - len([u for u in state.units if u.power == power])


def over_build(rng: random.Random, state: State, orders: list[Order], result: PhaseResult,
               rules: Rules) -> Bugged | None:
    """A build beyond the power's allowance, made (DATC 6.I, 4.D.4)."""
    if state.phase.kind is not PhaseKind.ADJUSTMENT:
        return None
    for power in sorted(p.name for p in state.variant.powers):
        built = {o.location.province for o in orders if isinstance(o, Build) and o.power == power}
        if _balance(state, power) < 0 or len(built) < _balance(state, power):
            continue
        for loc in build_places(state, power):
            kind = kind_for(state, loc, rng)
            if loc.province in built or kind is None or result.after.unit_at(loc.province) is not None or (loc.coast is None and state.map.provinces[loc.province].coasts
                                                         and kind is UnitKind.FLEET):
                continue
            build = Build(loc, kind, power)
            return Bugged(orders + [build], _replace_units(result.after, [], [Unit(power, kind, loc)]),
                          frozenset({loc.province}), f"{format_order(build)} made beyond the allowance")
    return None


def _builds_left(state: State, orders: list[Order]) -> list[str]:
    """The powers with builds to spare after their build orders (in an adjustment phase)."""
    if state.phase.kind is not PhaseKind.ADJUSTMENT:
        return []
    return [power for power in sorted(p.name for p in state.variant.powers)
            if _balance(state, power) > len([o for o in orders if isinstance(o, Build) and o.power == power])]


def _build_elsewhere(rng: random.Random, state: State, orders: list[Order], result: PhaseResult,
                     where: Callable[[str, str, str | None], bool], why: str) -> Bugged | None:
    """A build with builds to spare, in a centre `where(power, centre, owner)` says, made."""
    owners = dict(state.owners)
    for power in _builds_left(state, orders):
        for centre in sorted(owners):
            loc = Location(centre)
            if where(power, centre, owners.get(centre)) and state.unit_at(centre) is None \
                    and result.after.unit_at(centre) is None and state.map.can_occupy(UnitKind.ARMY, loc):
                build = Build(loc, UnitKind.ARMY, power)
                return Bugged(orders + [build], _replace_units(result.after, [], [Unit(power, UnitKind.ARMY, loc)]),
                              frozenset({centre}), f"{format_order(build)} made: {why}")
    return None


def _homes(state: State) -> dict[str, str]:
    return {c: p.name for p in state.variant.powers for c in p.home_centres}


def _build_rule(why: str, where: Callable[[dict[str, str], str, str, str | None], bool]) -> Bug:
    """A bug that makes a build `where(homes, power, centre, owner)` says (with builds to spare)."""
    def bug(rng: random.Random, state: State, orders: list[Order], result: PhaseResult, rules: Rules) -> Bugged | None:
        homes = _homes(state)
        return _build_elsewhere(rng, state, orders, result, lambda p, c, o: where(homes, p, c, o), why)
    return bug


build_not_home = _build_rule("not a home centre", lambda homes, power, c, owner: owner == power and c not in homes)
build_foreign = _build_rule("another power's centre",
                            lambda homes, power, c, owner: owner not in (None, power) and homes.get(c) == owner)


def build_occupied(rng: random.Random, state: State, orders: list[Order], result: PhaseResult,
                   rules: Rules) -> Bugged | None:
    """A build in an occupied home centre, made: the new unit takes the old one's place."""
    owners = dict(state.owners)
    for power in _builds_left(state, orders):
        for centre in sorted(c for c, p in _homes(state).items() if p == power and owners.get(c) == power):
            there = state.unit_at(centre)
            other = UnitKind.FLEET if there is not None and there.kind is UnitKind.ARMY else UnitKind.ARMY
            if there is None or there.power != power or not state.map.can_occupy(other, Location(centre)) \
                    or there not in result.after.units:
                continue
            build = Build(Location(centre), other, power)
            return Bugged(orders + [build], _replace_units(result.after, [there], [Unit(power, other, Location(centre))]),
                          frozenset({centre}), f"{format_order(build)} made over {there}")
    return None


def _removals(state: State, orders: list[Order], result: PhaseResult) -> Iterator[tuple[Remove, Unit]]:
    """The removals ordered and made, with the unit removed."""
    for order, r in zip(orders, result.results):
        unit = state.unit_at(order.unit.province) if isinstance(order, Remove) and r.succeeded else None
        if isinstance(order, Remove) and unit is not None:
            yield order, unit


def removal_not_made(rng: random.Random, state: State, orders: list[Order], result: PhaseResult,
                     rules: Rules) -> Bugged | None:
    """A removal ordered and not made: the unit kept."""
    for order, unit in _removals(state, orders, result):
        return Bugged(orders, _replace_units(result.after, [], [unit]), frozenset({unit.province}),
                      f"{format_order(order)} not made")
    return None


def removal_wrong(rng: random.Random, state: State, orders: list[Order], result: PhaseResult,
                  rules: Rules) -> Bugged | None:
    """Another unit of the power removed than the one ordered."""
    for order, ordered in _removals(state, orders, result):
        others = [u for u in result.after.units if u.power == ordered.power]
        if others:
            wrong = rng.choice(sorted(others, key=lambda u: u.province))
            return Bugged(orders, _replace_units(result.after, [wrong], [ordered]),
                          frozenset({ordered.province, wrong.province}), f"{wrong} removed for {format_order(order)}")
    return None


def civil_disorder_wrong(rng: random.Random, state: State, orders: list[Order], result: PhaseResult,
                         rules: Rules) -> Bugged | None:
    """A power in civil disorder loses another unit than the rule picks."""
    if state.phase.kind is not PhaseKind.ADJUSTMENT:
        return None
    ordered = {o.power for o in orders if isinstance(o, Remove)}
    for power in sorted(p.name for p in state.variant.powers):
        if _balance(state, power) >= 0 or power in ordered:
            continue
        removed = [u for u in state.units if u.power == power and u not in result.after.units]
        kept = [u for u in result.after.units if u.power == power]
        if removed and kept:
            wrong = rng.choice(sorted(kept, key=lambda u: u.province))
            right = removed[0]
            return Bugged(orders, _replace_units(result.after, [wrong], [right]),
                          frozenset({wrong.province, right.province}), f"{wrong} removed instead of {right}")
    return None


BUGS: dict[str, Bug] = {
    "bounce-as-move": bounce_as_move,
    "dislodgement-ignored": dislodgement_ignored,
    "support-wrongly-cut": support_wrongly_cut,
    "unit-lost": unit_lost,
    "centre-kept": centre_kept,
    "centre-changed": centre_changed,
    "retreat-option-added": retreat_option_added,
    "retreat-option-missing": retreat_option_missing,
    "over-build": over_build,
    "build-not-home": build_not_home,
    "build-foreign": build_foreign,
    "build-occupied": build_occupied,
    "removal-not-made": removal_not_made,
    "removal-wrong": removal_wrong,
    "civil-disorder-wrong": civil_disorder_wrong,
}
"""Each bug by name: how a buggy adjudicator gets one phase wrong."""
