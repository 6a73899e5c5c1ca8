"""Recorded games, whatever the archive format: positions, orders and what the record says.

The readers (:mod:`dipsat.formats.diplomacy_json` for the ``diplomacy`` package's
saved games and webDiplomacy exports, :mod:`dipsat.formats.godip` for the
Droidippy/godip game histories) turn an archive's record into a
:class:`RecordedGame`: for each phase dipsat's :class:`~dipsat.state.State` before
the orders, the typed orders as recorded and, where the archive has them, the
per-order result codes. :mod:`dipsat.runners.validate` judges it.

A phase's result is what the *next* phase's position says. Some archives record
per-order results as well (the ``diplomacy`` package's ``results``); others only
positions (webDiplomacy exports have ``"results": {}``, godip histories have none):
:attr:`RecordedPhase.results_recorded` says which, and a phase without results is
judged on the positions alone.

:func:`contradiction` replays a phase's recorded result codes against the next
position; :func:`position_contradiction` is the record-against-itself check that needs no
result codes: a position that no adjudication of the orders before it could give
(a unit appearing from nowhere, a unit lost without being dislodged or removed). It
rejects nothing: an adjudicator's bug writes such positions, and the phase is judged
(see :attr:`RecordedPhase.contradiction`).
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ..board import Location, Phase, PhaseKind, Season, Unit, UnitKind
from ..errors import DipsatError
from ..maps import Variant
from ..orders import Build, Move, Order, Remove, Retreat, Waive
from ..results import PhaseResult
from ..state import Dislodged, State

__all__ = ["RecordError", "RecordedPhase", "RecordedGame", "package_phase_name", "format_location",
           "format_unit", "next_phase_names", "MOVE_FAILURES", "contradiction", "position_contradiction",
           "with_attackers"]


class RecordError(DipsatError, ValueError):
    """A recorded game (or one of its phases) that cannot be used.

    ``game`` is the record's id, ``phase`` the phase name (None: the whole
    record), ``message`` what is wrong and what was expected.
    """

    def __init__(self, game: str | None, phase: str | None, message: str) -> None:
        self.game = game
        self.phase = phase
        self.message = message
        where = f"game {game!r}" if game is not None else "record"
        if phase is not None:
            where += f", phase {phase}"
        super().__init__(f"{where}: {message}")


@dataclass
class RecordedPhase:
    """One phase of a record: the position, the orders and the recorded results."""

    index: int
    name: str
    phase: Phase | None = None  # None: COMPLETED / FORMING
    state: State | None = None
    orders: list[tuple[Order, str]] = field(default_factory=list)  # (order, text as recorded)
    results: dict[str, tuple[str, ...]] = field(default_factory=dict)  # province -> codes
    result_units: dict[str, str] = field(default_factory=dict)  # province -> unit as recorded ('F STP/SC')
    retreat_options: dict[str, tuple[str, ...]] = field(default_factory=dict)  # province -> recorded options
    results_recorded: bool = True
    """The record carries per-order results for this phase. False: only positions are
    recorded (webDiplomacy exports, Droidippy histories); the phase is judged on the
    next phase's position alone and no result code is ever invented."""
    retreat_options_recorded: bool = False
    """A retreat phase's record lists each dislodged unit's retreat options."""
    error: RecordError | None = None
    contradiction: str = ""
    """Why the next phase's recorded position cannot follow from this phase under any
    adjudication (:func:`position_contradiction`), or "". A buggy adjudicator writes
    such records: the phase is judged (a disagreement), the next one from its own
    position; only what no adjudicator could write rejects a phase."""

    @property
    def kind(self) -> PhaseKind | None:
        return self.phase.kind if self.phase else None

    @property
    def processed(self) -> bool:
        """Orders were given (or results recorded): the phase was adjudicated."""
        return bool(self.orders) or bool(self.results)


@dataclass
class RecordedGame:
    id: str
    map: str
    rules: tuple[str, ...]
    variant: Variant
    phases: list[RecordedPhase]
    format: str = "diplomacy"
    """The archive (and so the adjudicator) it comes from: ``diplomacy`` (the package's
    saved-game JSON), ``webdiplomacy`` (exports in that format without per-order
    results), ``godip`` (Droidippy/godip histories) or ``dipsat`` (a dipsat game file)."""


MOVE_FAILURES = frozenset({"bounce", "void", "no convoy", "disrupted", "maybe", "dislodged"})
"""The package's result codes of a move that did not go through."""


# --- names -------------------------------------------------------------------------------


def package_phase_name(phase: Phase) -> str:
    """The short name of one of our phases as recorded games write it (``S1901M``,
    ``F1901R``; adjustments are ``W1901A``)."""
    if phase.kind is PhaseKind.ADJUSTMENT:
        return f"W{phase.year}A"
    return phase.short


def format_location(loc: Location) -> str:
    return str(loc).upper()


def format_unit(unit: Unit) -> str:
    return f"{unit.kind} {format_location(unit.location)}"


@functools.lru_cache(maxsize=1024)  # asked twice for each phase of a record read (a pure function)
def next_phase_names(phase: Phase) -> frozenset[str]:
    """The names the phase after `phase` may have (phases with nothing to do skipped)."""
    y = phase.year
    if phase.kind is PhaseKind.ADJUSTMENT:
        return frozenset({f"S{y + 1}M", "COMPLETED"})
    if phase.season is Season.SPRING:
        return frozenset({f"S{y}R", f"F{y}M", "COMPLETED"} if phase.kind is PhaseKind.MOVEMENT
                         else {f"F{y}M", "COMPLETED"})
    base = {f"W{y}A", f"S{y + 1}M", "COMPLETED"}
    return frozenset(base | {f"F{y}R"} if phase.kind is PhaseKind.MOVEMENT else base)


# --- the record against itself, by its result codes -------------------------------------------


_UnitKey = tuple[str, UnitKind, str, str | None]
"""A unit's value as a tuple of its fields (power, kind, province, coast): equal for equal
units, and hashed without a Python call (a unit's own hash makes two)."""


def _unit_key(unit: Unit) -> _UnitKey:
    location = unit.location
    return unit.power, unit.kind, location.province, location.coast


_PROVINCE_OF_UNIT = operator.attrgetter("location.province")  # a state's units are in its order


def contradiction(prev: RecordedPhase, nxt: RecordedPhase) -> str | None:
    """Why `nxt`'s recorded position cannot follow from `prev`'s recorded results, or None.

    Replays the *recorded* results (not an adjudication): a move whose result
    has no failure code went through, a unit marked ``dislodged`` left the
    board or waits to retreat, a retreat without ``disband``/``bounce``/``void``
    went through, a build or removal recorded as ``""`` happened.
    """
    if prev.phase is None or prev.state is None:
        return None
    if nxt.name not in next_phase_names(prev.phase):
        names = " or ".join(sorted(next_phase_names(prev.phase)))
        return f"phase {nxt.name} cannot follow {prev.name} (expected {names})"
    if not prev.processed and nxt.phase is not None:
        return None  # nothing was ordered or recorded: nothing to replay
    assert nxt.state is not None
    before = prev.state
    kind = prev.phase.kind
    orders = {o.unit.location.province: o for o, _ in prev.orders if not isinstance(o, (Build, Waive))}
    results = prev.results
    expected_units: list[Unit] = []  # the units expected (a unit may be there twice)
    if kind is PhaseKind.MOVEMENT:
        no_codes: tuple[str, ...] = ()
        for unit in before.units:
            province = unit.location.province
            codes = results.get(province, no_codes)
            if "dislodged" in codes:
                continue
            order = orders.get(province)
            if type(order) is Move and MOVE_FAILURES.isdisjoint(codes):
                dest = order.dest
                if unit.kind is UnitKind.ARMY:
                    dest = Location(dest.province)
                unit = Unit(unit.power, unit.kind, dest)
            expected_units.append(unit)
    elif kind is PhaseKind.RETREAT:
        expected_units.extend(before.units)
        for d in before.dislodged:
            codes = results.get(d.unit.province, ())
            order = orders.get(d.unit.province)
            if isinstance(order, Retreat) and not (set(codes) & {"disband", "bounce", "void"}):
                dest = order.dest if d.unit.kind is UnitKind.FLEET else Location(order.dest.province)
                expected_units.append(Unit(d.unit.power, d.unit.kind, dest))
    else:
        for unit in before.units:
            recorded = results.get(unit.location.province)
            if recorded and set(recorded) == {""}:
                order = orders.get(unit.location.province)
                if order is None or isinstance(order, Remove):
                    continue  # removed as ordered, or by the civil-disorder rule
            expected_units.append(unit)
        for given, _ in prev.orders:
            if isinstance(given, Build) and set(results.get(given.location.province, ("void",))) <= {""}:
                if given.kind is not None:
                    expected_units.append(Unit(given.power or "?", given.kind, given.location))
    problems = _unit_problems(expected_units, nxt.state.units)
    if kind is PhaseKind.MOVEMENT and nxt.state.dislodged:  # (without any, nothing is odd)
        marked = {u.province for u in before.units if "dislodged" in prev.results.get(u.province, ())}
        standing = {_unit_key(u) for u in before.units}
        odd = [d.unit for d in nxt.state.dislodged if d.unit.province not in marked or _unit_key(d.unit) not in standing]
        if odd:
            problems.append("dislodged " + ", ".join(format_unit(u) for u in odd) + " without a 'dislodged' result")
    elif nxt.state.dislodged:
        problems.append("dislodged units after a non-movement phase")
    if before.owners != nxt.state.owners:
        centre_change = (prev.phase.season is Season.FALL and prev.phase.kind is not PhaseKind.ADJUSTMENT
                         and nxt.name[0] in ("W", "S", "C"))
        if not centre_change:
            changed = sorted(set(before.owners) ^ set(nxt.state.owners))
            problems.append("centre ownership changed outside the fall: " + ", ".join(f"{c.upper()}" for c, _ in changed[:6]))
        else:
            occupant = {u.province: u.power for u in nxt.state.units}
            owned_before = dict(before.owners)
            wrong = [c for c, p in nxt.state.owners if owned_before.get(c) != p and occupant.get(c) != p]
            if wrong:
                problems.append("centres changed owner without being occupied: " + ", ".join(c.upper() for c in sorted(wrong)))
    if not problems:
        return None
    return f"position contradicts the recorded result of {prev.name}: " + "; ".join(problems)


def _unit_problems(expected_units: list[Unit], units: tuple[Unit, ...]) -> list[str]:
    """The units expected (one may be there twice) that are not among `units` (a state's),
    and those of `units` not expected: a fleet's coast aside, which the package may write
    where the order did not say it (supports and convoys drop coasts)."""
    # the common case, hashing no unit: the units expected, put in a state's order, are its
    # units (one a province; the units a reader makes of one text are one object)
    if tuple(sorted(expected_units, key=_PROVINCE_OF_UNIT)) == units:
        return []
    expected = {_unit_key(u): u for u in expected_units}
    found = {_unit_key(u): u for u in units}
    problems = []
    if expected.keys() != found.keys():
        loose = {k[:3] for k in found}
        missing = sorted((u for k, u in expected.items() if k not in found and k[:3] not in loose), key=str)
        extra_keys = {k[:3] for k in expected}
        extra = sorted((u for k, u in found.items() if k not in expected and k[:3] not in extra_keys), key=str)
        if missing:
            problems.append("expected " + ", ".join(f"{u.power} {format_unit(u)}" for u in missing[:6]))
        if extra:
            problems.append("found " + ", ".join(f"{u.power} {format_unit(u)}" for u in extra[:6]) + " unaccounted for")
    return problems


# --- the record against itself, without result codes --------------------------------------------


def position_contradiction(prev: RecordedPhase, nxt: RecordedPhase) -> str | None:
    """Why `nxt`'s recorded position cannot follow from `prev`'s position and orders
    under any adjudication, or None. Needs no result codes.

    - the phase sequence must be possible (phases with nothing to do may be skipped);
    - movement: every unit afterwards stands where a unit of its power and kind stood,
      or where one was ordered to move (a unit of the previous position that is gone
      must have been dislodged: some unit ordered to move into its province);
    - retreat: the units that were not dislodged stay; a dislodged unit is gone or
      stands where it was ordered to retreat;
    - adjustment: units stay, or go (removals, civil disorder); new units stand where
      a build was ordered, or on an empty home centre of their power (a record may
      keep builds but not their orders).
    - no power has more units after an adjustment than it owns centres (unless it had
      them before);
    - centre ownership changes only at the end of the fall turn (written with the
      adjustment phase, or the spring after it).
    """
    if prev.phase is None or prev.state is None or nxt.state is None:
        return None
    if nxt.name not in next_phase_names(prev.phase):
        expected = " or ".join(sorted(next_phase_names(prev.phase)))
        return f"phase {nxt.name} cannot follow {prev.name} (expected {expected})"
    before, after = prev.state, nxt.state
    kind = prev.phase.kind
    orders = prev.orders
    problems = [] if _units_follow(kind, before, after, orders) else _units_problems(kind, before, after, orders)
    if before.owners != after.owners:
        fall_turn = prev.phase.season is Season.FALL and kind is not PhaseKind.ADJUSTMENT
        if not (fall_turn and nxt.kind is not PhaseKind.RETREAT):
            changed = sorted(dict.fromkeys(c for c, _ in set(before.owners) ^ set(after.owners)))
            problems.append("centre ownership changed outside the end of the fall turn: " + ", ".join(changed))
    if not problems:
        return None
    return f"position contradicts the orders of {prev.name}: " + "; ".join(problems)


def _units_problems(kind: PhaseKind, before: State, after: State, orders: list[tuple[Order, str]]) -> list[str]:
    """What :func:`position_contradiction` finds wrong with the units of `after`, checked unit by unit."""
    problems = []
    after_units = list(after.units) + [d.unit for d in after.dislodged]
    if kind is PhaseKind.MOVEMENT:
        # (power, kind, province): where each unit stood, or was ordered to move (its targets)
        reachable = {(u.power, u.kind, u.location.province) for u in before.units}
        ordered_to: dict[str, list[str]] = {}  # a unit's province -> where it was ordered to move
        attacked: set[str] = set()
        for order, _ in orders:
            if isinstance(order, Move):
                mover = before.unit_at(order.unit.location.province)
                if mover is not None:
                    dest = order.dest.province
                    reachable.add((mover.power, mover.kind, dest))
                    ordered_to.setdefault(mover.location.province, []).append(dest)
                    attacked.add(dest)
        extra = [u for u in after.units if (u.power, u.kind, u.location.province) not in reachable]
        if extra:
            problems.append("found " + ", ".join(f"{u.power} {format_unit(u)}" for u in extra[:6])
                            + ": no unit stood or was ordered there")
        moved_to = {(u.power, u.kind, u.location.province) for u in after_units}
        lost = []
        for unit in before.units:  # gone from every target, and nobody moved into its province
            here = unit.location.province
            if (unit.power, unit.kind, here) in moved_to or here in attacked:
                continue
            if not any((unit.power, unit.kind, d) in moved_to for d in ordered_to.get(here, ())):
                lost.append(unit)
        if lost:
            problems.append("lost " + ", ".join(f"{u.power} {format_unit(u)}" for u in lost[:6])
                            + ": nobody moved into its province")
    elif kind is PhaseKind.RETREAT:
        staying = {(u.power, u.kind, u.province) for u in before.units}
        retreats = {o.unit.province: o.dest.province for o, _ in orders if isinstance(o, Retreat)}
        allowed = set(staying)
        for d in before.dislodged:
            if d.unit.province in retreats:
                allowed.add((d.unit.power, d.unit.kind, retreats[d.unit.province]))
        extra = [u for u in after.units if (u.power, u.kind, u.province) not in allowed]
        after_keys = {(a.power, a.kind, a.location.province) for a in after.units}
        missing = [u for u in before.units if (u.power, u.kind, u.location.province) not in after_keys]
        if extra:
            problems.append("found " + ", ".join(f"{u.power} {format_unit(u)}" for u in extra[:6])
                            + " unaccounted for")
        if missing:
            problems.append("expected " + ", ".join(f"{u.power} {format_unit(u)}" for u in missing[:6])
                            + " (not dislodged)")
        if after.dislodged:
            problems.append("dislodged units after a retreat phase")
    elif kind is PhaseKind.ADJUSTMENT:
        present = {(u.power, u.kind, u.province) for u in before.units}
        builds = {o.location.province for o, _ in orders if isinstance(o, Build)}
        homes = before.variant.home_of
        extra = [u for u in after.units if (u.power, u.kind, u.province) not in present
                 and u.province not in builds and homes.get(u.province) != u.power]
        if extra:
            problems.append("found " + ", ".join(f"{u.power} {format_unit(u)}" for u in extra[:6])
                            + ": neither built nor there before")
        if after.dislodged:
            problems.append("dislodged units after an adjustment phase")
        before_count, after_count = _unit_counts(before), _unit_counts(after)
        owned: dict[str, int] = {}  # power -> its centres after
        for _, power in after.owners:
            owned[power] = owned.get(power, 0) + 1
        over = sorted(p for p, n in after_count.items() if n > max(before_count.get(p, 0), owned.get(p, 0)))
        if over:
            problems.append(f"{', '.join(over)} built beyond its supply centres")
    return problems


def _unit_counts(state: State) -> dict[str, int]:
    counts: dict[str, int] = {}
    for unit in (*state.units, *(d.unit for d in state.dislodged)):
        counts[unit.power] = counts.get(unit.power, 0) + 1
    return counts


_POWER_OF_UNIT = operator.attrgetter("power")
_OWNER = operator.itemgetter(1)


def _units_follow(kind: PhaseKind, before: State, after: State, orders: list[tuple[Order, str]]) -> bool:
    """Whether :func:`_units_problems` finds nothing (True), told from the provinces the
    orders name alone (most of the board is as it was); False: it may find something, and is
    asked. Most phases of a record end here, in half the full check's time.

    Outside those provinces, the units after must be the units before (compared by identity
    first: a reader makes the units of one text one object). Inside, each unit that is not
    the one before is checked on part of the evidence the full check takes (a move counts
    when a unit of its power and kind now stands where it went): less evidence can only say
    False where the full check finds nothing, never True where it finds something."""
    old, new = before.units_by_province, after.units_by_province
    if len(old) != len(before.units) or len(new) != len(after.units):
        return False  # two units in a province: the index keeps one
    if kind is PhaseKind.MOVEMENT:
        touched: set[str] = set()  # where a unit was ordered to move, or from
        attacked: set[str] = set()  # where a unit of the board was ordered to move
        arrived: set[str] = set()  # where one of those stands now (one of its power and kind)
        left: set[str] = set()  # where those stood
        for order, _ in orders:
            if type(order) is Move:
                here, dest = order.unit.location.province, order.dest.province
                touched.add(here)
                touched.add(dest)
                mover = old.get(here)
                if mover is not None:
                    attacked.add(dest)
                    there = new.get(dest)
                    if there is not None and there.power == mover.power and there.kind is mover.kind:
                        arrived.add(dest)
                        left.add(here)
        if not _same_elsewhere(old, new, touched):
            return False
        for province in touched:
            was, now = old.get(province), new.get(province)
            if now is not was and (
                    now is not None and province not in arrived and not _same_kind(was, now)
                    or was is not None and province not in attacked and province not in left
                    and not _same_kind(now, was)):
                return False  # a unit from nowhere, or one lost
        return True
    if after.dislodged:
        return False  # a problem after a retreat or an adjustment
    if kind is PhaseKind.RETREAT:
        retreats = {o.unit.province: o.dest.province for o, _ in orders if type(o) is Retreat}
        if not _same_elsewhere(old, new, retreats.values()):
            return False
        allowed = {(d.unit.power, d.unit.kind, retreats.get(d.unit.province)) for d in before.dislodged}
        for dest in retreats.values():
            was, now = old.get(dest), new.get(dest)
            if now is not was and (was is not None or now is None or (now.power, now.kind, dest) not in allowed):
                return False  # a unit gone, or one that did not retreat there
        return True
    if kind is PhaseKind.ADJUSTMENT:
        builds = {o.location.province for o, _ in orders if type(o) is Build}
        rest_new = dict(new)
        for province in builds:
            rest_new.pop(province, None)
        if not rest_new.items() <= old.items():  # each unit the one before in its province (units may go)
            return False
        built = [u for province in builds if (u := new.get(province)) is not None and u is not old.get(province)]
        if built:  # no more units than centres, or than before (a power that built none has no more)
            powers, owners = list(map(_POWER_OF_UNIT, after.units)), list(map(_OWNER, after.owners))
            before_powers = list(map(_POWER_OF_UNIT, before.units))
            return all(powers.count(u.power) <= max(before_powers.count(u.power), owners.count(u.power))
                       for u in built)
        return True
    return False


def _same_elsewhere(old: Mapping[str, Unit], new: Mapping[str, Unit], provinces: Iterable[str]) -> bool:
    """The units of `old` and `new` (by province) are the same (equal) outside `provinces`."""
    rest_old, rest_new = dict(old), dict(new)
    for province in provinces:
        rest_old.pop(province, None)
        rest_new.pop(province, None)
    return rest_old == rest_new  # (identical units compared by identity alone)


def _same_kind(unit: Unit | None, other: Unit) -> bool:
    """`unit` is a unit of the power and kind of `other`."""
    return unit is not None and unit.power == other.power and unit.kind is other.kind


# --- a retreat phase from a record without results ---------------------------------------------


def with_attackers(movement: RecordedPhase, retreat: RecordedPhase, result: PhaseResult) -> State:
    """The position of `retreat` (a retreat phase whose record does not say who
    dislodged whom) completed from `result`, our adjudication of the recorded
    `movement` before it: each dislodged unit's attacker (ours, when we dislodged that
    unit too; else as the positions show it: the unit ordered into its province that
    now stands there) and the standoffs (ours; the records do not keep them)."""
    assert movement.state is not None and retreat.state is not None
    ours = {d.unit: d for d in result.dislodgements}
    dislodged = []
    for d in retreat.state.dislodged:
        if d.attacker_origin is not None:
            dislodged.append(d)
        else:
            found = ours.get(d.unit)
            dislodged.append(found if found is not None else _attacker_from_positions(d, movement, retreat))
    occupied = {u.province for u in retreat.state.units}
    standoffs = frozenset(p for p in result.standoffs if p not in occupied)
    return retreat.state.with_(dislodged=tuple(dislodged), standoffs=standoffs)


def _attacker_from_positions(d: Dislodged, movement: RecordedPhase, retreat: RecordedPhase) -> Dislodged:
    """The attacker of a dislodged unit as the record shows it: the unit ordered to move
    into its province that now stands there (by convoy: ordered so, or not adjacent)."""
    assert movement.state is not None and retreat.state is not None
    occupant = retreat.state.unit_at(d.unit.province)
    for order, _ in movement.orders:
        if isinstance(order, Move) and order.dest.province == d.unit.province:
            mover = movement.state.unit_at(order.unit.province)
            if mover is not None and occupant is not None and (mover.power, mover.kind) == (occupant.power, occupant.kind):
                over_land = movement.state.map.can_move(mover.kind, mover.location, Location(d.unit.province))
                by_convoy = mover.kind is UnitKind.ARMY and (order.via_convoy or not over_land)
                return Dislodged(d.unit, mover.province, by_convoy)
    return d
