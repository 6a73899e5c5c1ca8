"""The record against our adjudication (:mod:`dipsat.runners.validate`): each order's result
code where the record has them, and the next position; the orders involved in a difference
and our explanation of them."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import get_args

from ..adjudicator import adjudicate
from ..board import Location, PhaseKind, Unit, UnitKind
from ..formats.records import RecordedPhase, format_location, format_unit, package_phase_name
from ..orders import Build, Convoy, Disband, Move, Order, SupportHold, SupportMove, Waive, ordered_province
from ..printers.explain import explain
from ..outcomes import Outcome
from ..results import OrderResult, PhaseResult, Reason
from ..rules import Rules
from ..state import State
from .gaps import through_missing_retreat
from .validation_report import Difference
from .written_cases import Status

__all__ = ["compare_recorded", "compare", "RecordedCodes", "OrderTexts", "movement_class", "ours_after", "involved",
           "involved_provinces", "subject_provinces"]


def compare_recorded(rec: RecordedPhase, nxt: RecordedPhase | None, rules: Rules) -> list[Difference]:
    """What differs between a recorded phase (and the next recorded position) and dipsat's
    adjudication of it under exactly `rules`."""
    assert rec.state is not None
    return compare(rec, adjudicate(rec.state, [o for o, _ in rec.orders], rules), nxt, rules)


def compare(rec: RecordedPhase, result: PhaseResult, nxt: RecordedPhase | None, rules: Rules,
            codes: RecordedCodes | None = None) -> list[Difference]:
    """What differs between the record and our result: each order's result code (only
    where the record has them: no code is ever invented) and the next position. `codes`:
    the record's :class:`RecordedCodes` of `rec`, made once by a caller comparing many results."""
    diffs = _order_differences(rec, result, codes or RecordedCodes(rec)) if rec.results_recorded else []
    if nxt is not None:
        diffs += _position_differences(rec, result, nxt, rules)
    return diffs


class RecordedCodes:
    """What a recorded phase says of its orders, the same against every result of that phase:
    for each order given to a unit (or a build), its index, its province, the order, how the
    record classes it (by its codes), its kind (:data:`_KINDS`, for our class) and, in a
    movement phase, the outcome classes we class so too (:data:`_AGREEING`)."""

    __slots__ = ("rows", "first")

    def __init__(self, rec: RecordedPhase) -> None:
        self.rows: list[tuple[int, str, Order, str, int, frozenset[type]]] = []
        self.first: dict[str, int] = {}
        """Each province's first order (whose result the package reports for the unit there)."""
        kind = rec.kind
        results = rec.results
        first = self.first
        rows = self.rows
        for k, (order, _) in enumerate(rec.orders):
            if isinstance(order, Build):  # (ordered_province, inline)
                p = order.location.province
            elif isinstance(order, Waive):
                continue
            else:
                p = order.unit.location.province
            first.setdefault(p, k)
            codes = results.get(p, ())
            if kind is PhaseKind.MOVEMENT:
                order_kind = _KINDS.get(type(order), _OTHER)
                recorded, agreeing = _movement_reading(order_kind, codes)
                rows.append((k, p, order, recorded, order_kind, agreeing))
                continue
            if kind is PhaseKind.RETREAT:
                recorded = "disband" if ({"disband", "bounce"} & set(codes)) else "void" if "void" in codes else (
                    "disband" if isinstance(order, Disband) else "retreats")
            else:
                recorded = ("built" if isinstance(order, Build) else "removed") if codes and set(codes) == {""} else "void"
            rows.append((k, p, order, recorded, _kind_of(order), frozenset()))


def _order_differences(rec: RecordedPhase, result: PhaseResult, codes: RecordedCodes) -> list[Difference]:
    kind = rec.kind
    texts = OrderTexts(rec)
    results = result.results
    n = len(results)
    diffs = []
    if kind is PhaseKind.MOVEMENT:  # (most rows: a loop of its own, without the other kinds' tests)
        for k, p, order, recorded, order_kind, agreeing in codes.rows:
            if k >= n:
                break
            outcome = results[k].outcome
            if type(outcome) in agreeing:
                continue  # (most orders: our class is the recorded one)
            ours = _class_of(order_kind, outcome.succeeds, outcome.code)
            if recorded != ours and not _immaterial(rec, order, recorded, ours, codes.first, results):
                diffs.append(Difference("order", texts[k], recorded, ours))
        return diffs
    for k, p, order, recorded, _, _ in codes.rows:
        if k >= n:
            break
        r = results[k]
        if kind is PhaseKind.RETREAT:
            ours = ("disband" if isinstance(order, Disband) and r.succeeded else "retreats" if r.succeeded
                    else "disband" if r.reason is Reason.BOUNCED else "void")
            if recorded != ours:
                diffs.append(Difference("order", texts[k], recorded, ours))
        else:
            done = "built" if isinstance(order, Build) else "removed"
            ours = done if r.succeeded else "void"
            if recorded != ours:
                diffs.append(Difference("order", texts[k], recorded, ours + (f" ({r.detail})" if r.detail else "")))
    return diffs


class OrderTexts:
    """An order as recorded, with its power (``ENGLAND: A LVP - EDI VIA``), made when asked for."""

    def __init__(self, rec: RecordedPhase) -> None:
        self.orders = rec.orders

    def __getitem__(self, k: int) -> str:
        order, text = self.orders[k]
        return f"{order.power.upper() if order.power else '?'}: {text}"


@functools.lru_cache(maxsize=1024)
def _movement_reading(order_kind: int, codes: tuple[str, ...]) -> tuple[str, frozenset[type]]:
    """How the record classes a movement order of `order_kind` (:func:`_kind_of`) with these
    codes, and the outcome classes we class so too (:data:`_AGREEING`): a pure function of
    few distinct arguments, memoised."""
    recorded = _recorded_movement_class(order_kind, codes)
    return recorded, _AGREEING[order_kind, recorded]


def _recorded_movement_class(order_kind: int, codes: tuple[str, ...]) -> str:
    """How the record classes a movement order of `order_kind` (:func:`_kind_of`) with these codes."""
    c = set(codes)
    if order_kind == _MOVE:
        return "no convoy" if c & {"no convoy", "disrupted"} else "bounce" if "bounce" in c else (
            "void" if "void" in c else "moves")
    if order_kind == _SUPPORT:
        return "void" if "void" in c else "no convoy" if "no convoy" in c else (
            "cut" if c & {"cut", "dislodged"} else "supports")
    if order_kind == _CONVOY:
        return "void" if c & {"void", "no convoy"} else "dislodged" if "dislodged" in c else (
            "disrupted" if "disrupted" in c else "convoys")
    return "void" if "void" in c else "holds"


def _our_movement_class(order: Order, r: OrderResult) -> str:
    return _class_of(_kind_of(order), r.succeeded, r.reason)


_MOVE, _SUPPORT, _CONVOY, _OTHER = range(4)
"""The kinds of movement orders our class is read by (:func:`_kind_of`)."""


_KINDS: Mapping[type, int] = MappingProxyType({Move: _MOVE, SupportHold: _SUPPORT, SupportMove: _SUPPORT,
                                                Convoy: _CONVOY})
"""The kind of each class of order (:data:`~dipsat.orders.Order` is a closed set); the rest are _OTHER."""


def _kind_of(order: Order) -> int:
    return _KINDS.get(type(order), _OTHER)


def _class_of(kind: int, succeeded: bool, reason: Reason | None) -> str:
    """Our class of a movement order of `kind` (:func:`_kind_of`) with this outcome."""
    if reason is Reason.ILLEGAL:
        return "void"
    if kind == _MOVE:
        if succeeded:
            return "moves"
        return "no convoy" if reason in (Reason.NO_PATH, Reason.PARADOX) else "bounce"
    if kind == _SUPPORT:
        return "supports" if succeeded else "void" if reason is Reason.VOID else "cut"
    if kind == _CONVOY:
        if succeeded:
            return "convoys"
        return {Reason.DISLODGED: "dislodged", Reason.PARADOX: "disrupted"}.get(reason, "void")  # type: ignore[arg-type]
    return "holds"


_SAID: dict[type, tuple[bool, Reason | None]] = {c: (made.succeeds, made.code) for c in get_args(Outcome)
                                                 for made in (c(),)}
"""Each outcome class's success and code, read off one made with its defaults (as every outcome can be)."""

_AGREEING: Mapping[tuple[int, str], frozenset[type]] = MappingProxyType({
    (kind, recorded): frozenset(c for c, said in _SAID.items() if _class_of(kind, *said) == recorded)
    for kind in (_MOVE, _SUPPORT, _CONVOY, _OTHER)
    for recorded in ("moves", "bounce", "no convoy", "void", "supports", "cut", "convoys", "dislodged", "disrupted",
                     "holds")})
"""The outcome classes whose order of a kind (:func:`_kind_of`) we class as the record does
(an outcome's success and code are those of its class, :data:`_SAID`): most orders are compared by one
look-up, the rest by :func:`_class_of`."""


def movement_class(order: Order, status: Status) -> str:
    """:func:`_our_movement_class` of an outcome alone (for a written case's ``# result:``)."""
    return _our_movement_class(order, status)  # type: ignore[arg-type]  # it reads .succeeded and .reason only


def _immaterial(rec: RecordedPhase, order: Order, recorded: str, ours: str, first: dict[str, int],
                results: tuple[OrderResult, ...]) -> bool:
    """The known reporting differences of the package (see the module docstring). `first`:
    each province's first order (:attr:`RecordedCodes.first`), `results`: ours."""
    state = rec.state
    assert state is not None
    if isinstance(order, (SupportHold, SupportMove, Convoy)):
        # Orders for an army whose convoy failed (on either side) cannot matter; the
        # army's own outcome and every unit's dislodgement are compared elsewhere.
        target = order.target.province
        j = first.get(target)
        target_ours = results[j] if j is not None and j < len(results) else None  # (its first order's)
        if set(rec.results.get(target, ())) & {"no convoy", "disrupted"} or (
                target_ours is not None and target_ours.reason in (Reason.NO_PATH, Reason.PARADOX)):
            return True
    if isinstance(order, SupportMove) and recorded == "void" and ours == "supports":
        supporter = state.unit_at(order.unit.province)
        defender = state.unit_at(order.dest.province)
        if supporter is not None and defender is not None and defender.power == supporter.power:
            return True  # support against one's own unit: given, but not counted
    return False


def _position_differences(rec: RecordedPhase, result: PhaseResult, nxt: RecordedPhase, rules: Rules) -> list[Difference]:
    """The record's next position against ours: units, dislodged units and their retreat
    options (where the record lists them), the phase, centre ownership.

    Dislodged units follow jDip's convention on our side: a unit with no retreat is
    disbanded at once and is not in our retreat phase. A record that keeps such a unit
    (webDiplomacy lists it with no retreat options; godip records list no options at
    all) agrees when we dislodged it too, and a retreat phase in which no recorded unit
    has a retreat is the same as the phase we go to instead."""
    assert nxt.state is not None
    after = ours_after(result, nxt, rules)
    diffs: list[Difference] = []
    retreat_skipped = nxt.kind is PhaseKind.RETREAT and after.phase.kind is not PhaseKind.RETREAT
    if nxt.state.dislodged or (after.dislodged and after.phase.kind is PhaseKind.RETREAT):  # (most phases: none)
        diffs, retreat_shown = _dislodged_differences(result, after, nxt)
        retreat_skipped = retreat_skipped and not retreat_shown
    same_stage = nxt.phase is None or package_phase_name(after.phase) == nxt.name
    if not same_stage and not retreat_skipped:
        diffs.append(Difference("phase", "next phase", nxt.name, package_phase_name(after.phase)))
    # units and centres are kept in one order (State): equal tuples, nothing to list (most phases)
    if after.units != nxt.state.units:
        ours_units, recorded_units = set(after.units), set(nxt.state.units)
        for unit in sorted(ours_units ^ recorded_units, key=lambda u: (u.province, str(u))):
            where = "recorded" if unit in recorded_units else "ours"
            diffs.append(Difference("unit", f"{unit.power.upper()} {format_unit(unit)}",
                                    "present" if where == "recorded" else "absent",
                                    "present" if where == "ours" else "absent"))
    if not same_stage:
        return diffs  # centres change at the adjustment phase: not comparable across stages
    if after.owners == nxt.state.owners:
        return diffs
    ours_owners, recorded_owners = dict(after.owners), dict(nxt.state.owners)
    for centre in sorted(set(ours_owners) | set(recorded_owners)):
        if ours_owners.get(centre) != recorded_owners.get(centre):
            diffs.append(Difference("centre", centre.upper(), recorded_owners.get(centre, "unowned"),
                                    ours_owners.get(centre, "unowned")))
    return diffs


def _dislodged_differences(result: PhaseResult, after: State, nxt: RecordedPhase) -> tuple[list[Difference], bool]:
    """The dislodged units and their retreat options of :func:`_position_differences`, and
    whether the record gives a dislodged unit a retreat option."""
    assert nxt.state is not None
    retreat_options = result.retreat_options
    diffs = []
    ours_all = {d.unit for d in result.dislodgements}
    ours_open = {d.unit for d in after.dislodged} if after.phase.kind is PhaseKind.RETREAT else set()
    recorded = {d.unit for d in nxt.state.dislodged}
    recorded_options = {u: _recorded_options(u, nxt.retreat_options.get(u.province, ())) for u in recorded
                        if nxt.retreat_options_recorded}
    for unit in sorted(recorded | ours_open, key=lambda u: (u.province, str(u))):
        subject = f"{unit.power.upper()} {format_unit(unit)}"
        if unit in recorded and unit not in ours_all:
            diffs.append(Difference("dislodged", subject, "dislodged", "not dislodged"))
        elif unit in ours_open and unit not in recorded:
            diffs.append(Difference("dislodged", subject, "not dislodged (or no retreat)", "dislodged"))
        elif unit in recorded_options:
            ours = _options(unit, retreat_options.get(unit, ()))
            if ours != recorded_options[unit]:
                diffs.append(Difference("retreats", subject, " ".join(sorted(recorded_options[unit])) or "-",
                                        " ".join(sorted(ours)) or "-"))
    return diffs, any(recorded_options.get(u) for u in recorded)


def ours_after(result: PhaseResult, nxt: RecordedPhase, rules: Rules) -> State:
    """Our position to compare with the record's next one."""
    missing = through_missing_retreat(result, nxt, rules)  # a retreat phase the record lacks, played as it shows
    after = result.after if missing is None else missing.after
    if after.phase.kind is PhaseKind.ADJUSTMENT and nxt.kind is PhaseKind.MOVEMENT:
        after = adjudicate(after, [], rules).after  # the record skipped an adjustment phase with nothing to do
    return after


def _options(unit: Unit, options: Iterable[Location]) -> set[str]:
    if unit.kind is UnitKind.ARMY:
        return {o.province.upper() for o in options}
    return {format_location(o) for o in options}


def _recorded_options(unit: Unit, options: tuple[str, ...]) -> set[str]:
    if unit.kind is UnitKind.ARMY:
        return {o.split("/")[0] for o in options}
    with_coast = {o.split("/")[0] for o in options if "/" in o}
    return {o for o in options if "/" in o or o not in with_coast}


_LOCATION_WORD = re.compile(r"^[A-Z]{3}(/[A-Z]{2})?$")


def involved(rec: RecordedPhase, result: PhaseResult, diffs: list[Difference]) -> tuple[list[str], dict[str, list[str]]]:
    """The recorded orders that touch the provinces of the differences, or the provinces
    those orders touch (one step further: the convoying fleets, the attacks on them, the
    supports ...), and our explanation of each."""
    touched, wider = involved_provinces(rec, diffs)
    shown = {k for k in range(min(len(rec.orders), len(result.results))) if touched[k] & wider}
    try:
        facts = explain(result, shown)  # (only the orders involved: the others are not shown)
    except Exception as exc:  # noqa: BLE001 - an explanation must not sink the report
        facts = [[f"(no explanation: {type(exc).__name__}: {exc})"]] * len(result.results)
    orders, explanation = [], {}
    for k, ((order, text), r) in enumerate(zip(rec.orders, result.results)):
        if k in shown:
            label = f"{order.power.upper() if order.power else '?'}: {text}"
            orders.append(label)
            explanation[label] = [r.status + (f" ({r.detail})" if r.detail else "")] + [
                f for f in facts[k] if f != r.status]
    return orders, explanation


def involved_provinces(rec: RecordedPhase, diffs: list[Difference]) -> tuple[list[set[str]], set[str]]:
    """The provinces each recorded order touches, and those of the differences with those
    of the orders touching them."""
    provinces = subject_provinces(diffs)
    touched = [_touched(order) for order, _ in rec.orders]
    first = [t for t in touched if t & provinces]
    return touched, provinces.union(*first) if first else provinces


def subject_provinces(diffs: list[Difference]) -> set[str]:
    """The provinces the differences name (words such as ``BUR``, ``STP/NC``)."""
    return {word[:3].lower() for d in diffs for word in d.subject.replace(":", " ").split()
            if _LOCATION_WORD.match(word)}


def _touched(order: Order) -> set[str]:
    out = {p for p in (ordered_province(order),) if p is not None}
    for attr in ("dest", "target", "location"):
        value = getattr(order, attr, None)
        if value is not None:
            out.add(value.province)
    return out
