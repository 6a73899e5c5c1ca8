"""The mutation test of ``dipsat validate``: realistic adjudicator bugs injected into
records of our own making, written out in every format validate reads, and the verdicts
counted (``scripts/mutate.py``, ``tests/test_mutations.py``).

A game is played with dipsat (:func:`play`): sensible random orders (those of
:func:`dipsat.runners.invariants.random_orders` that name their unit as it stands), each
phase adjudicated. At one phase (the first after a random start where it can happen) a
*buggy adjudicator* takes over: the phase's outcome is the bug's (:data:`BUGS`), and the
game goes on from that outcome, as the buggy program would have recorded it, so the bug
propagates into every later position of the record. Validate must report each bug as a
disagreement of the bugged phase naming the unit, centre or order concerned
(:func:`verdict`); the same games without a bug (the controls) must agree throughout.
"""

from __future__ import annotations

import gzip
import io
import json
import random
import tarfile
import zipfile
from collections.abc import Callable, Iterator
from typing import Any
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..adjudicator import adjudicate
from ..board import Location, PhaseKind, Season, Unit, UnitKind
from ..formats.casefile import write_case
from ..formats.diplomacy_json import write_game
from ..formats.godip import write_godip_game
from ..formats.records import RecordedGame, RecordedPhase, format_unit, package_phase_name
from ..maps import load_variant
from ..notation import format_order
from ..printers.text import prestate_results
from ..orders import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, SupportHold, SupportMove, UnitRef,
                      Waive)
from ..results import OrderResult, PhaseResult, Reason
from ..rules import Rules
from ..state import State
from .invariants import random_orders
from .validate import (AGREED, DISAGREED, FINAL, GAP, REJECTED, RULE_DIFFERENCE, GameReport, PhaseReport,
                       validate_godip, validate_text)

__all__ = ["BUGS", "FORMATS", "OUTCOMES", "Bugged", "Mutant", "play", "verdict", "judge", "clean", "run", "Tally",
           "detection_table", "formats_for", "write_archives", "archive_reports"]

FORMATS = ("godip", "json", "json-results", "case")
"""How a record is written for validate: a godip (Droidippy) history, a saved game of the
``diplomacy`` package without per-order results (as webDiplomacy exports are) and with
them (each phase's codes from dipsat's adjudication of it: the bugged phase's codes are
right, its next position is the buggy one), and the bugged phase alone as a jDip case
file (its POSTSTATE the buggy outcome)."""
CASE_KINDS_WITHOUT_OWNERS = ("centre-kept", "centre-changed")
"""Bugs a case file cannot show: its POSTSTATE has no centre ownership."""


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


@dataclass
class Mutant:
    """A game played with one bug (or none: a control) and where the bug is."""

    game: RecordedGame
    bug: str | None = None
    at: int | None = None  # the bugged phase's index
    subjects: frozenset[str] = frozenset()
    what: str = ""


# --- the games ---------------------------------------------------------------------------------


def _unit_ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.location, unit.kind)


def _clean(state: State, orders: list[Order]) -> list[Order]:
    """The orders that name their unit (and their target) as it stands, one per unit, the
    power its owner's: what every record format writes the same way."""
    out: list[Order] = []
    seen: set[str] = set()
    for order in orders:
        if not isinstance(order, (Hold, Move, SupportHold, SupportMove, Convoy)):
            continue  # a retreat in a movement phase: godip writes it as a move
        ref = order.unit
        unit = state.unit_at(ref.province)
        if unit is None or unit.location != ref.location or ref.kind not in (None, unit.kind) or unit.province in seen:
            continue
        clean: Order
        if isinstance(order, (SupportHold, SupportMove, Convoy)):
            aimed = state.unit_at(order.target.province)
            if aimed is None:
                continue
            clean = replace(order, unit=_unit_ref(unit), target=_unit_ref(aimed), power=unit.power)
        elif isinstance(order, Move):
            clean = replace(order, unit=_unit_ref(unit), power=unit.power, path=())
        else:
            clean = replace(order, unit=_unit_ref(unit), power=unit.power)
        seen.add(unit.province)
        out.append(clean)
    return out


def _retreat_orders(rng: random.Random, state: State, options: dict[Unit, tuple[Location, ...]]) -> list[Order]:
    orders: list[Order] = []
    for d in state.dislodged:
        choices = options.get(d.unit, ())
        roll = rng.random()
        if choices and roll < 0.8:
            orders.append(Retreat(_unit_ref(d.unit), rng.choice(choices), d.unit.power))
        elif roll < 0.9:
            orders.append(Disband(_unit_ref(d.unit), d.unit.power))
    return orders


def _build_places(state: State, power: str) -> list[Location]:
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


def _kind_for(state: State, loc: Location, rng: random.Random) -> UnitKind | None:
    kinds = [k for k in (UnitKind.ARMY, UnitKind.FLEET) if state.map.can_occupy(k, loc)]
    return rng.choice(kinds) if kinds else None


def _adjustment_orders(rng: random.Random, state: State) -> list[Order]:
    orders: list[Order] = []
    for power in sorted(p.name for p in state.variant.powers):
        units = [u for u in state.units if u.power == power]
        balance = len(state.centres_of(power)) - len(units)
        if balance > 0:
            places = _build_places(state, power)
            rng.shuffle(places)
            used: set[str] = set()
            for loc in places:
                kind = _kind_for(state, loc, rng)
                if len(used) < balance and loc.province not in used and kind is not None and rng.random() < 0.8:
                    orders.append(Build(loc, kind, power))
                    used.add(loc.province)
        elif balance < 0 and rng.random() < 0.8:  # else: civil disorder
            for unit in rng.sample(units, -balance):
                orders.append(Remove(_unit_ref(unit), power))
    return orders


def play(seed: int, phases: int = 14, bug: str | None = None, rules: Rules | None = None) -> Mutant | None:
    """A game of `phases` phases from the standard start, with `bug` injected at the first
    phase (after a random start) where it can happen; None if it never could."""
    rules = rules or Rules.profile()
    rng = random.Random(seed)
    state = load_variant("standard").initial_state()
    start = rng.randrange(0, max(1, phases // 2))
    recorded: list[RecordedPhase] = []
    options: dict[Unit, tuple[Location, ...]] = {}
    mutant = Mutant(RecordedGame(f"mutant-{bug or 'control'}-{seed}", "standard", (str(rules),), state.variant, []),
                    bug)
    for index in range(phases):
        kind = state.phase.kind
        if kind is PhaseKind.MOVEMENT:
            orders = _clean(state, random_orders(rng, state))
        elif kind is PhaseKind.RETREAT:
            orders = _retreat_orders(rng, state, options)
        else:
            orders = _adjustment_orders(rng, state)
        result = adjudicate(state, orders, rules)
        after = result.after
        if bug is not None and mutant.at is None and index >= start:
            bugged = BUGS[bug](rng, state, orders, result, rules)
            if bugged is not None:
                orders, after = bugged.orders, _settled(bugged.after, rules)
                mutant.at, mutant.subjects, mutant.what = index, bugged.subjects, bugged.what
        recorded.append(RecordedPhase(index, package_phase_name(state.phase), state.phase, state,
                                      [(o, format_order(o)) for o in orders], results_recorded=False))
        options = dict(result.retreat_options) if after is result.after else _options_of(after, rules)
        state = after
    recorded.append(RecordedPhase(phases, package_phase_name(state.phase), state.phase, state, [],
                                  results_recorded=False))
    mutant.game.phases = recorded
    return mutant if bug is None or mutant.at is not None else None


def _settled(after: State, rules: Rules) -> State:
    """A buggy outcome that leaves no unit to retreat goes on to the next phase."""
    if after.phase.kind is PhaseKind.RETREAT and not after.dislodged:
        return adjudicate(after, [], rules).after
    return after


def _options_of(state: State, rules: Rules) -> dict[Unit, tuple[Location, ...]]:
    """The retreat options of a buggy outcome's dislodged units (each retreat tried)."""
    if state.phase.kind is not PhaseKind.RETREAT:
        return {}
    out: dict[Unit, tuple[Location, ...]] = {}
    for d in state.dislodged:
        places = [Location(p) for p in sorted(state.map.neighbours(d.unit.province))]
        ok = []
        for loc in places:
            for place in [loc] + [Location(loc.province, c) for c in state.map.provinces[loc.province].coasts]:
                result = adjudicate(state, [Retreat(_unit_ref(d.unit), place, d.unit.power)], rules)
                if result.results and result.results[0].succeeded:
                    ok.append(place)
        out[d.unit] = tuple(ok)
    return out


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
            retreat = Retreat(_unit_ref(d.unit), loc, d.unit.power)
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
        for loc in _build_places(state, power):
            kind = _kind_for(state, loc, rng)
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


# --- judging ------------------------------------------------------------------------------------


def _codes(order: Order, r: OrderResult) -> list[str]:
    """The package's result codes for one order (see :mod:`dipsat.runners.validate`)."""
    if r.succeeded or isinstance(order, Hold):  # a hold only fails by being dislodged (its own code)
        return [""] if isinstance(order, (Build, Remove)) else []
    if isinstance(order, (Build, Remove)) or r.reason in (Reason.ILLEGAL, Reason.VOID):
        return ["void"]
    if isinstance(order, (Move, Retreat)) and r.reason is Reason.BOUNCED:
        return ["bounce"]
    if isinstance(order, Move):
        return ["no convoy"] if r.reason in (Reason.NO_PATH, Reason.PARADOX) else ["bounce"]
    if isinstance(order, Convoy):
        return ["disrupted"] if r.reason is Reason.PARADOX else []
    return ["cut"] if isinstance(order, (SupportHold, SupportMove)) else ["void"]


def with_results(game: RecordedGame, rules: Rules) -> dict[str, Any]:
    """The game as a saved game of the package with per-order result codes: each phase's
    from dipsat's adjudication of its recorded position and orders."""
    saved = write_game(game)
    for entry, raw in zip(game.phases[:-1], saved["phases"]):
        assert entry.state is not None
        result = adjudicate(entry.state, [o for o, _ in entry.orders], rules)
        codes: dict[str, list[str]] = {}
        for (order, _), r in zip(entry.orders, result.results):
            unit = Unit(order.power or "", order.kind, order.location) if isinstance(order, Build) and order.kind else (
                entry.state.unit_at(order.unit.province) if not isinstance(order, (Build, Waive)) else None)
            if entry.kind is PhaseKind.RETREAT and isinstance(order, (Retreat, Disband)):
                unit = next((d.unit for d in entry.state.dislodged if d.unit.province == order.unit.province), None)
            if unit is not None:
                codes[format_unit(unit)] = _codes(order, r)
        for d in result.dislodgements:
            codes.setdefault(format_unit(d.unit), []).append("dislodged")
        if entry.kind is PhaseKind.ADJUSTMENT:  # civil-disorder removals: done
            for unit in set(entry.state.units) - set(result.after.units):
                codes.setdefault(format_unit(unit), [""])
        raw["results"] = codes
    return saved


def _case_text(mutant: Mutant, index: int) -> str:
    """Phase `index` of the game as a case file, the record's next position as POSTSTATE."""
    phases = mutant.game.phases
    rec, nxt = phases[index], phases[index + 1]
    assert rec.state is not None and rec.phase is not None and nxt.state is not None
    handle = io.StringIO()
    handle.write("VARIANT_ALL Standard\n")
    dislodged = [d.unit for d in nxt.state.dislodged] if nxt.kind is PhaseKind.RETREAT else []
    write_case(handle, f"{mutant.game.id}.{rec.name}", rec.phase, list(rec.state.units),
               [format_order(o) for o, _ in rec.orders], list(nxt.state.units), dislodged, list(rec.state.owners),
               str(Rules.profile()), prestate_dislodged=[d.unit for d in rec.state.dislodged],
               prestate_results=prestate_results(rec.state))
    return handle.getvalue()


def judge(mutant: Mutant, fmt: str, rules: Rules | None = None) -> list[PhaseReport]:
    """Validate's phase reports of the mutant written in `fmt` (for ``case``: the bugged
    phase alone, or for a control every phase but the last, each as one case)."""
    rules = rules or Rules.profile()
    game = mutant.game
    if fmt == "godip":
        return validate_godip(write_godip_game(game), f"{game.id}.txt", rules).phases
    if fmt in ("json", "json-results"):
        saved = write_game(game) if fmt == "json" else with_results(game, rules)
        return validate_text(json.dumps(saved), f"{game.id}.json", rules).phases
    from ..formats.casefile import read_cases
    from .inputs import validate_case

    indices = [mutant.at] if mutant.at is not None else range(len(game.phases) - 1)
    out = []
    for i in indices:
        assert i is not None
        cases, _ = read_cases(io.StringIO(_case_text(mutant, i)), f"{game.id}.{i}.txt")
        report = validate_case(cases[0], f"{game.id}.{i}.txt")
        out.append(replace(report.phases[0], index=i))
    return out


FOUND, RULE, REJECTED_, GAP_, MISSED = "found", "rule difference", "rejected", "gap", "missed"
OUTCOMES = (FOUND, RULE, REJECTED_, GAP_, MISSED)


def verdict(mutant: Mutant, phases: list[PhaseReport]) -> str:
    """How validate reported the bug: ``found`` (a disagreement of the bugged phase naming
    one of its subjects), ``rule difference``, ``rejected``, ``gap`` or ``missed``."""
    at = next((p for p in phases if p.index == mutant.at), None)
    if at is None:
        return MISSED
    if at.status == DISAGREED:
        named = " ".join([f"{d.subject} {d.recorded} {d.ours}" for d in at.differences] + at.orders).lower()
        return FOUND if any(s in named for s in mutant.subjects) else MISSED
    return {RULE_DIFFERENCE: RULE, REJECTED: REJECTED_, GAP: GAP_}.get(at.status, MISSED)


def clean(phases: list[PhaseReport]) -> bool:
    return all(p.status in (AGREED, FINAL) for p in phases)


@dataclass
class Tally:
    """The detection table: per (bug, format) how many were injected and each outcome;
    per format how many controls were played and how many were clean."""

    rows: dict[tuple[str, str], dict[str, int]] = field(default_factory=dict)
    controls: dict[str, list[int]] = field(default_factory=dict)  # format -> [games, clean]
    misses: list[str] = field(default_factory=list)

    def add(self, bug: str, fmt: str, outcome: str, where: str = "") -> None:
        row = self.rows.setdefault((bug, fmt), {"injected": 0, **{o: 0 for o in OUTCOMES}})
        row["injected"] += 1
        row[outcome] += 1
        if outcome != FOUND:
            self.misses.append(f"{bug} [{fmt}] {where}: {outcome}")

    def add_control(self, fmt: str, ok: bool, where: str = "") -> None:
        count = self.controls.setdefault(fmt, [0, 0])
        count[0] += 1
        count[1] += ok
        if not ok:
            self.misses.append(f"control [{fmt}] {where}: not clean")


def formats_for(bug: str) -> tuple[str, ...]:
    return tuple(f for f in FORMATS if not (f == "case" and bug in CASE_KINDS_WITHOUT_OWNERS))


def run(seeds: range, bugs: tuple[str, ...] = tuple(BUGS), phases: int = 14, folder: Path | None = None) -> Tally:
    """Every bug in every format, one game per seed (seeds where a bug cannot happen are
    skipped), and the controls; read back from archive files in `folder` when given
    (:func:`archive_reports`), else judged from the texts."""
    mutants: list[Mutant] = []
    for seed in seeds:
        control = play(seed, phases)
        assert control is not None
        mutants.append(control)
        mutants += [m for m in (play(seed, phases, bug) for bug in bugs) if m is not None]
    read = archive_reports(mutants, folder) if folder is not None else None
    tally = Tally()
    for mutant in mutants:
        for fmt in formats_for(mutant.bug) if mutant.bug else FORMATS:
            phases_of = read[mutant.game.id, fmt] if read is not None else judge(mutant, fmt)
            if mutant.bug is None:
                tally.add_control(fmt, clean(phases_of), mutant.game.id)
            else:
                phase = mutant.game.phases[mutant.at or 0].name
                rule = next((f" ({p.rule})" for p in phases_of if p.index == mutant.at and p.rule), "")
                tally.add(mutant.bug, fmt, verdict(mutant, phases_of), f"{mutant.game.id} {phase}: {mutant.what}{rule}")
    return tally


ARCHIVES = {"godip": "histories.zip", "json": "games.jsonl.gz", "json-results": "results.jsonl",
            "case": "cases.tar.gz"}
"""How :func:`archive_reports` keeps each format: the way people keep archives."""


def write_archives(mutants: list[Mutant], folder: Path, rules: Rules) -> None:
    """Every mutant in every format (:data:`ARCHIVES`) in `folder`: godip histories in a
    zip, saved games as gzipped JSON lines (with results: plain JSON lines), the bugged
    phases (every phase of a control) as case files in a gzipped tar."""
    with zipfile.ZipFile(folder / ARCHIVES["godip"], "w") as histories:
        for mutant in mutants:
            histories.writestr(f"histories/{mutant.game.id}.txt", write_godip_game(mutant.game))
    lines = "".join(json.dumps(write_game(m.game)) + "\n" for m in mutants)
    (folder / ARCHIVES["json"]).write_bytes(gzip.compress(lines.encode("utf-8"), mtime=0))
    lines = "".join(json.dumps(with_results(m.game, rules)) + "\n" for m in mutants)
    (folder / ARCHIVES["json-results"]).write_text(lines, encoding="utf-8")
    with tarfile.open(folder / ARCHIVES["case"], "w:gz") as cases:
        for mutant in mutants:
            indices = [mutant.at] if mutant.at is not None else range(len(mutant.game.phases) - 1)
            data = "".join(_case_text(mutant, i) + "\n" for i in indices if i is not None).encode("utf-8")
            info = tarfile.TarInfo(f"cases/{mutant.game.id}.txt")
            info.size = len(data)
            cases.addfile(info, io.BytesIO(data))


def archive_reports(mutants: list[Mutant], folder: Path, rules: Rules | None = None) -> dict[tuple[str, str], list[PhaseReport]]:
    """Validate's phase reports of each mutant in each format, read back from the archives
    :func:`write_archives` wrote (through the reader ``dipsat validate`` uses), by (game id, format)."""
    from .inputs import Judging, iter_items, validate_item

    how = Judging(rules or Rules.profile())
    write_archives(mutants, folder, how.rules)
    out: dict[tuple[str, str], list[PhaseReport]] = {}
    fmt_of = {name: fmt for fmt, name in ARCHIVES.items()}
    phase_index = {(m.game.id, p.name): p.index for m in mutants for p in m.game.phases}
    for item in iter_items([str(folder / name) for name in ARCHIVES.values()]):
        fmt = fmt_of[Path(item.source.split(":", 1)[0]).name]
        report = validate_item(item, how)
        if fmt == "case":
            game, _, name = report.game.rpartition(".")
            out.setdefault((game, fmt), []).extend(replace(p, index=phase_index[game, name]) for p in report.phases)
        else:
            out[(report.game, fmt)] = report.phases
    return out


def detection_table(tally: Tally) -> Iterator[str]:
    """The table as Markdown: one row per bug and format, then the controls."""
    yield "| bug | format | injected | found at the phase | rule difference | rejected | gap | missed |"
    yield "|---|---|---:|---:|---:|---:|---:|---:|"
    for (bug, fmt), row in sorted(tally.rows.items(), key=lambda kv: (list(BUGS).index(kv[0][0]), kv[0][1])):
        yield (f"| {bug} | {fmt} | {row['injected']} | {row[FOUND]} | {row[RULE]} | {row[REJECTED_]} | {row[GAP_]} "
               f"| {row[MISSED]} |")
    for fmt, (games, ok) in sorted(tally.controls.items()):
        yield f"| (control: no bug) | {fmt} | {games} games | {ok} clean | | | | {games - ok} not clean |"
