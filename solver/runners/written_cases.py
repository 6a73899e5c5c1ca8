"""The case files ``dipsat validate --write-cases`` writes: each phase that differs from
its record as a jDip case, and beside it the minimal case that shows the same difference.

A written case reproduces what validate said of the phase when ``dipsat cases`` runs it:

- its ``RULES`` line is the rules the phase was judged by in the end: the run's rules
  with the options inferred for the record (``RULES 2000 4.A.3=intent``);
- ``POSTSTATE`` is the record's next position: its units, the units it dislodged with the
  retreat options it offered them (a ``# retreats: bel, pic`` comment on each
  ``POSTSTATE_DISLODGED`` line, dipsat's addition that other readers skip as a comment),
  and its centre owners (``POSTSTATE_SUPPLYCENTER_OWNERS``) where the record's next
  phase and dipsat's are at the same stage (owners change after a fall turn);
- ``PRESTATE_SUPPLYCENTER_OWNERS`` is the phase's own ownership;

so a disagreement FAILs and a rule difference PASSes (both are checked by running the
written case, and a case that would not is said so in its comments).

The minimal case (``CASE ID.min``, the second case of the same file) is the full case
shrunk by :func:`dipsat.runners.shrink.shrink`: the fewest units, orders and centres under
which dipsat, under the same rules, still does what it did where the record differs
(each unit present or absent, dislodged, its retreat options, each centre's owner that
differs), and for a rule difference, still does what the record did under the inferred
options. Its ``POSTSTATE`` is dipsat's result on the smaller position with the record's
side of each difference put in: an adjudicator with the record's bug still gets it wrong
there. Candidates are adjudicated, never assumed.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from ..adjudicator import adjudicate
from ..board import Location, PhaseKind, Unit, UnitKind
from ..formats.casefile import format_unit_line, read_cases, write_case
from ..formats.records import RecordedPhase
from ..notation import format_order
from ..printers.text import prestate_results
from ..orders import Order, order_unit
from ..outcomes import Reason
from ..results import PhaseResult
from ..rules import Rules
from ..state import State, state_problems
from .cases import run_case
from .shrink import Candidate, Shrunk, shrink

__all__ = ["Outcome", "case_name", "disagreement_case", "minimal_candidate", "observed", "recorded_case",
           "recorded_outcome"]

Fact = tuple[str, object]
"""One thing a case file can show of a phase's result: ``("unit", unit)`` (on the board),
``("dislodged", unit)``, ``("retreat", (unit, location))`` (one of its retreat options),
``("owner", centre)`` (valued by its owner)."""


class _Difference(Protocol):
    @property
    def what(self) -> str: ...
    @property
    def subject(self) -> str: ...
    @property
    def recorded(self) -> str: ...
    @property
    def ours(self) -> str: ...


class _Report(Protocol):
    """What a written case needs of validate's report of the phase."""

    @property
    def status(self) -> str: ...
    @property
    def rule(self) -> str | None: ...
    @property
    def rule_title(self) -> str: ...
    @property
    def differences(self) -> Sequence[_Difference]: ...
    @property
    def conclusions(self) -> Sequence[str]: ...


@dataclass(frozen=True, slots=True)
class Outcome:
    """A phase's result as a case file shows it: the units on the board, the dislodged
    units (with their retreat options, None where not given) and the centre owners (None:
    not compared, the next phase is at another stage), and some orders' outcomes."""

    units: frozenset[Unit]
    dislodged: Mapping[Unit, tuple[Location, ...] | None]
    owners: Mapping[str, str] | None
    results: Mapping[Order, str] = field(default_factory=dict)
    """The outcome of some orders, as the comparison names it (validate: the record's
    result code's class, ``cut``): only of the orders whose recorded code differs."""

    def facts(self, options: bool, owners: bool) -> dict[Fact, object]:
        """Each fact with its value (absent: not so); retreat options and owners only
        when `options` and `owners` say they are compared."""
        out: dict[Fact, object] = {("unit", u): True for u in self.units}
        for unit, choices in self.dislodged.items():
            out[("dislodged", unit)] = True
            if options and choices is not None:
                out.update({("retreat", (unit, place)): True for place in choices})
        if owners and self.owners is not None:
            out.update({("owner", c): p for c, p in self.owners.items()})
        out.update({("result", o): c for o, c in self.results.items()})
        return out


def _from_facts(facts: Mapping[Fact, object], options: bool, owners: bool) -> Outcome:
    dislodged: dict[Unit, tuple[Location, ...] | None] = {}
    places: dict[Unit, list[Location]] = {}
    for what, subject in facts:
        if what == "retreat" and isinstance(subject, tuple):
            places.setdefault(subject[0], []).append(subject[1])
    for what, subject in facts:
        if what == "dislodged" and isinstance(subject, Unit):
            dislodged[subject] = tuple(sorted(places.get(subject, ()))) if options else None
    return Outcome(frozenset(s for (w, s) in facts if w == "unit" and isinstance(s, Unit)), dislodged,
                   {str(s): str(v) for (w, s), v in facts.items() if w == "owner"} if owners else None,
                   {s: str(v) for (w, s), v in facts.items() if w == "result"})  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class Status:
    """An order's outcome as dipsat states it (:attr:`dipsat.results.OrderResult.status`):
    what a recorded result code is translated into for a case's ``# result:`` comment."""

    succeeded: bool
    reason: Reason | None = None

    def __str__(self) -> str:
        return "succeeds" if self.succeeded else f"fails ({self.reason})" if self.reason else "fails"


STATUSES = (Status(True), *(Status(False, r) for r in Reason))
"""Every outcome an order can have."""

Classify = Callable[[Order, Status], str]
"""How a comparison names an outcome (validate: the recorded result code's class, ``cut``)."""


def allowed_statuses(order: Order, recorded: str, classify: Classify) -> list[str]:
    """The outcomes of `order` that `classify` names `recorded` (the record's class of it)."""
    return [str(s) for s in STATUSES if classify(order, s) == recorded]


def case_name(game_id: str, phase: str) -> str:
    """The case id (and file name, with ``.txt``) of a phase written as a case file."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{game_id}.{phase}")


def _recorded_locations(unit: Unit, options: tuple[str, ...]) -> tuple[Location, ...]:
    """Recorded retreat options (``BEL``, ``SPA/NC``) as locations: an army's without
    coasts; a fleet's province without a coast only where no coast of it is named."""
    out = set()
    for text in options:
        province, _, coast = text.lower().partition("/")
        out.add(Location(province, coast or None if unit.kind is not UnitKind.ARMY else None))
    coasted = {loc.province for loc in out if loc.coast}
    return tuple(sorted(loc for loc in out if loc.coast or loc.province not in coasted))


def recorded_outcome(nxt: RecordedPhase | None, ours: State | None = None) -> Outcome | None:
    """The record's outcome of a phase, from its next phase (None: the record gives no
    position after it). Owners are given when `ours` (our position after the phase) is at
    the record's next stage, or the record skipped our adjustment phase."""
    if nxt is None or nxt.state is None:
        return None
    dislodged: dict[Unit, tuple[Location, ...] | None] = {}
    if nxt.kind is PhaseKind.RETREAT:
        for d in nxt.state.dislodged:
            recorded = nxt.retreat_options.get(d.unit.province, ())
            if nxt.retreat_options_recorded and not recorded:
                continue  # no retreat: disbanded at once (jDip's convention, the case format's)
            dislodged[d.unit] = _recorded_locations(d.unit, recorded) if nxt.retreat_options_recorded else None
    same_stage = ours is not None and nxt.phase is not None and (
        ours.phase == nxt.phase or (ours.phase.kind is PhaseKind.ADJUSTMENT and nxt.kind is PhaseKind.MOVEMENT
                                    and nxt.phase.year == ours.phase.year + 1))
    return Outcome(frozenset(nxt.state.units), dislodged, dict(nxt.state.owners) if same_stage else None)


def recorded_case(case_id: str, rec: RecordedPhase, nxt: RecordedPhase, rules: Rules) -> str:
    """A recorded phase as a case under `rules`: its position and orders, and as POSTSTATE
    the record's next position as a written case gives it (the units, those dislodged with
    the retreat options the record offered them, the owners when the next phase is at
    dipsat's next stage): what a program that keeps its results as case files writes."""
    assert rec.state is not None
    orders = tuple(o for o, _ in rec.orders)
    ours = adjudicate(rec.state, list(orders), rules).after
    handle = io.StringIO()
    _write(handle, case_id, Candidate(rec.state, orders), recorded_outcome(nxt, ours), rules, None)
    return handle.getvalue()


def observed(result: PhaseResult, classify: Classify | None = None, watched: Collection[Order] = ()) -> Outcome:
    """dipsat's outcome of a phase as ``dipsat cases`` compares it (:func:`dipsat.runners.cases.compare`),
    with the outcome of the `watched` orders named by `classify`."""
    after = result.after
    dislodged: dict[Unit, tuple[Location, ...] | None] = {}
    if result.before.phase.kind is PhaseKind.MOVEMENT and after.phase.kind is PhaseKind.RETREAT:
        dislodged = {d.unit: tuple(sorted(result.retreat_options.get(d.unit, ()))) for d in after.dislodged}
    results = {r.order: classify(r.order, Status(r.succeeded, r.reason)) for r in result.results
               if r.order in watched} if classify is not None else {}
    return Outcome(frozenset(after.units), dislodged, dict(after.owners), results)


def _modes(expected: Outcome) -> tuple[bool, bool]:
    return any(v is not None for v in expected.dislodged.values()), expected.owners is not None


def disagreement_case(game_id: str, rec: RecordedPhase, nxt: RecordedPhase | None, result: PhaseResult,
                      report: _Report, base: PhaseResult | None = None, minimal: bool = True,
                      checked: bool = True, codes: Mapping[int, str] | None = None,
                      classify: Classify | None = None, written_by: str = "dipsat validate") -> str:
    """A phase that differs from its record as a jDip case file: the recorded position and
    orders under `result`'s rules, the record's outcome as POSTSTATE (what another
    adjudicator should reproduce), ours and the differences as comments; then, with
    `minimal`, the minimal case (``CASE ID.min``). `result` is ours under the rules the
    case is written for (the inferred ones); `base`, ours under the run's rules (those
    `report`'s differences are under; for a rule difference, where the record differs). With `checked`, the case is run as ``dipsat
    cases`` runs it, and a comment says so if it does not give validate's verdict. `codes`
    (order index -> the record's class of its result, where it differs from ours under
    `result`'s rules) and `classify` (how the comparison names an outcome) give those
    orders a ``# result:`` comment: the outcomes the record's code allows. `written_by` names
    the writer in the first line (``dipsat fuzz against ENGINE``: the record is its answer)."""
    state = result.before
    expected = recorded_outcome(nxt, result.after)
    judged = base.rules if base is not None else result.rules
    head = f"# POSTSTATE is what the record shows after this phase; dipsat (rules {judged}) differs:"
    if codes and classify is not None:
        recorded = {rec.orders[k][0]: code for k, code in codes.items()}
        if expected is None:  # only result codes to go by: the board is dipsat's own, the results the record's
            ours = observed(result)
            expected = Outcome(ours.units, {u: None for u in ours.dislodged}, None, recorded)
            head = (f"# The record shows no usable position after this phase: POSTSTATE is dipsat's, only the "
                    f"'# result:' comments are the record's; dipsat (rules {judged}) differs from its result codes:")
        else:
            expected = replace(expected, results=recorded)
    if expected is None:
        head = (f"# The record shows no usable position after this phase (no POSTSTATE: dipsat cases calls "
                f"this case an ERROR); dipsat (rules {judged}) differs from its result codes:")
    lines = [f"# Written by {written_by}: game {game_id}, phase {rec.name} ({report.status}).", head]
    lines += [f"#   {d.what} {d.subject}: record {d.recorded}, dipsat {d.ours}" for d in report.differences]
    if report.conclusions:
        lines.append("# What the record implies of each order involved, against dipsat's outcome:")
        lines += [f"#   {c}" for c in report.conclusions]
    if report.rule:
        lines.append(f"# The record follows {report.rule} ({report.rule_title}): the case is written under "
                     f"those rules, where dipsat agrees with the record.")
    lines.append(f"# dipsat's results (rules {result.rules}):")
    lines += [f"#   {format_order(r.order)}: {r.status}" + (f" ({r.detail})" if r.detail else "") for r in result.results]
    lines.append("# dipsat's position after it: " + ", ".join(format_unit_line(u) for u in result.after.units))
    variant = state.variant.name
    if variant == "standard":
        variant = "DATC_Standard" if state.variant.wings else "Standard"
    case_id = case_name(game_id, rec.name)
    agree = report.rule is not None
    full = Candidate(state, tuple(o for o, _ in rec.orders))
    parts: list[tuple[str, Candidate, Outcome | None, list[str]]] = [(case_id, full, expected, [])]
    skipped = _skipped_adjustment(nxt, result) if not agree else None
    if skipped is not None and expected is not None:
        if not _delta(full, expected, result.rules, classify)[0]:
            parts = []  # the movement agrees: the difference is the adjustment the record skipped
        parts.append((f"{case_id}.adjustment", skipped[0], skipped[1], [
            f"# The record goes on to {nxt.name if nxt else '?'} without an adjustment phase, but dipsat's adjustment "
            f"of the record's position (with no orders) changes it: the case of that adjustment phase."]))
    text = "\n".join(lines) + f"\nVARIANT_ALL {variant}\n"
    for part_id, candidate, outcome, notes in parts:
        handle = io.StringIO()
        _write(handle, part_id, candidate, outcome, result.rules, classify)
        notes = notes + (_check(handle.getvalue(), agree, "this case") if checked else [])
        text += "\n" + "".join(f"{note}\n" for note in notes) + handle.getvalue()
        if minimal and outcome is not None:
            text += "\n" + _minimal_text(part_id, candidate, outcome, result.rules, base.rules if agree and base else None,
                                         classify)
    return text


def _skipped_adjustment(nxt: RecordedPhase | None, result: PhaseResult) -> tuple[Candidate, Outcome] | None:
    """Where the record goes from a fall turn straight to the next spring and dipsat's
    adjustment of the record's position, with no orders, changes it (a civil-disorder
    removal the record did not make): that adjustment phase, and the record's outcome of it
    (nothing changed)."""
    if nxt is None or nxt.state is None or nxt.kind is not PhaseKind.MOVEMENT:
        return None
    if result.after.phase.kind is not PhaseKind.ADJUSTMENT:
        return None
    state = State(result.after.variant, result.after.phase, nxt.state.units, nxt.state.owners)
    if set(adjudicate(state, [], result.rules).after.units) == set(nxt.state.units):
        return None
    return Candidate(state, ()), Outcome(frozenset(nxt.state.units), {}, dict(nxt.state.owners))


def _delta(candidate: Candidate, expected: Outcome, rules: Rules,
           classify: Classify | None) -> tuple[list[Fact], dict[Fact, object]]:
    """The facts where dipsat's result of `candidate` under `rules` differs from `expected`,
    and dipsat's facts."""
    options, owners = _modes(expected)
    theirs = observed(adjudicate(candidate.state, list(candidate.orders), rules), classify,
                      set(expected.results)).facts(options, owners)
    want = expected.facts(options, owners)
    return [k for k in sorted(set(want) | set(theirs), key=str) if want.get(k) != theirs.get(k)], theirs


def _write(handle: io.StringIO, case_id: str, candidate: Candidate, expected: Outcome | None, rules: Rules,
           classify: Classify | None) -> None:
    state = candidate.state
    results = {k: allowed_statuses(o, expected.results[o], classify) for k, o in enumerate(candidate.orders)
               if o in expected.results} if expected is not None and classify is not None else None
    options, owners = _modes(expected) if expected is not None else (False, False)
    dislodged = sorted(expected.dislodged, key=_by_place) if expected is not None else []
    write_case(handle, case_id, state.phase, list(state.units), [format_order(o) for o in candidate.orders],
               sorted(expected.units, key=_by_place) if expected is not None else None, dislodged, list(state.owners),
               str(rules), prestate_dislodged=[d.unit for d in state.dislodged], prestate_results=prestate_results(state),
               retreats={u: c for u, c in expected.dislodged.items() if c is not None} if expected and options else None,
               post_owners=sorted(expected.owners.items()) if expected is not None and expected.owners is not None
               and owners else None, results=results)


def _by_place(unit: Unit) -> tuple[str, str]:
    return unit.province, str(unit)


def _check(text: str, agree: bool, what: str) -> list[str]:
    """Comment lines saying that a written case does not do what validate said of the phase
    (none when it does): run through ``dipsat cases``' own code path."""
    cases, errors = read_cases(io.StringIO(text), "<written>")
    run = run_case(cases[0]) if cases and not errors else None
    want = "PASS" if agree else "FAIL"
    if run is None or run.status == want:
        return []
    why = "; ".join(run.problems[:3]) if run.problems else "dipsat agrees with the record's position"
    return [f"# NOTE: dipsat cases gives {what} {run.status}, where validate's verdict means {want}: {why} "
            f"(the difference lies where a case file cannot show it, e.g. a recorded result code)."]


def minimal_candidate(full: Candidate, expected: Outcome, rules: Rules, base: Rules | None = None,
                      classify: Classify | None = None) -> tuple[Shrunk, Outcome] | None:
    """The full phase shrunk to the fewest units, orders and centres where dipsat under
    `rules` still differs from `expected` as it does on the full phase (with `base`, a rule
    difference: where dipsat under `base` still differs as on the full phase, and under
    `rules` still does what the record did), and the expected outcome of the shrunk
    position. None when the full phase shows no difference a case file can show."""
    options, owners = _modes(expected)
    differing_rules = base if base is not None else rules
    watched = set(expected.results)
    want = expected.facts(options, owners)
    delta, theirs = _delta(full, expected, differing_rules, classify)
    if not delta:
        return None
    # a retreat option differs only of a unit dislodged alike: that dislodgement is kept too
    anchors = delta + sorted({("dislodged", k[1][0]) for k in delta if k[0] == "retreat" and isinstance(k[1], tuple)
                              and ("dislodged", k[1][0]) not in delta}, key=str)
    # a unit a difference names stays on the board where it stood (else "absent" would hold trivially)
    named = {k[1] if isinstance(k[1], Unit) else k[1][0] for k in delta if k[0] in ("unit", "dislodged", "retreat")
             and isinstance(k[1], (Unit, tuple))}
    standing = {u for u in full.state.units if u in named} | {d.unit for d in full.state.dislodged if d.unit in named}
    # and keeps its order: the record's claim is about what that order did
    kept = {o for o in full.orders if order_unit(full.state, o) in named}

    def outcome(candidate: Candidate, under: Rules) -> dict[Fact, object] | None:
        try:
            return observed(adjudicate(candidate.state, list(candidate.orders), under), classify, watched).facts(
                options, owners)
        except Exception:  # noqa: BLE001 - a candidate dipsat cannot judge is not a smaller case
            return None

    def spliced(candidate: Candidate) -> Outcome | None:
        if not standing <= set(candidate.state.units) | {d.unit for d in candidate.state.dislodged}:
            return None
        if not kept <= set(candidate.orders):
            return None
        got = outcome(candidate, differing_rules)
        if got is None or any(got.get(k) != theirs.get(k) for k in anchors):
            return None
        if base is not None:
            agreed = outcome(candidate, rules)
            if agreed is None or any(agreed.get(k) != want.get(k) for k in delta):
                return None
            facts = agreed
        else:
            facts = {**got, **{k: want.get(k) for k in delta}}
        result = _from_facts({k: v for k, v in facts.items() if v is not None}, options, owners)
        provinces = [u.province for u in result.units]
        return result if len(provinces) == len(set(provinces)) else None  # a legal board

    keeps: Callable[[Candidate], bool] = lambda c: spliced(c) is not None  # noqa: E731
    if not keeps(full):
        return None
    shrunk = shrink(full, keeps)
    out = spliced(shrunk.candidate)
    assert out is not None  # the shrinker only returns candidates the predicate held for
    return shrunk, out


def _minimal_text(case_id: str, full: Candidate, expected: Outcome, rules: Rules, base: Rules | None,
                  classify: Classify | None) -> str:
    found = minimal_candidate(full, expected, rules, base, classify)
    if found is None:
        return (f"# No minimal case: the difference of {case_id} is not one a case file shows "
                f"(units, dislodgements, retreat options, centres, order results).\n")
    shrunk, outcome = found
    small = shrunk.candidate
    units, orders, centres = small.size
    all_units, all_orders, all_centres = full.size
    handle = io.StringIO()
    _write(handle, f"{case_id}.min", small, outcome, rules, classify)
    lines = [f"# The minimal case: {units} of {all_units} units, {orders} of {all_orders} orders, {centres} of "
             f"{all_centres} owned centres, where dipsat (rules {base or rules}) still "
             f"differs from the record as above ({shrunk.tests} positions adjudicated)."]
    if problems := state_problems(small.state):
        lines.append(f"# NOTE: the shrunk position is not a legal one: {'; '.join(problems)}")
    lines += _check(handle.getvalue(), base is not None, "the minimal case")
    return "\n".join(lines) + "\n" + handle.getvalue()
