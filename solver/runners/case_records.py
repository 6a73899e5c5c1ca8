"""A case of a case file judged as ``dipsat validate`` judges a record: a game of one phase.

A case file is a record like any other (a program's results written as jDip cases): its
cases take part in the archive's rule inference (:mod:`dipsat.runners.inference`) as the
phases of saved games do. Each case gathers its evidence: for every DATC chapter-4 issue
its position and orders can touch (:func:`dipsat.runners.rule_scope.issues_touched`),
the options under which its POSTSTATE is dipsat's. A case is then

- *agreed* (PASS under its rules),
- a *rule difference* when it FAILs under its rules but PASSes under the readings the
  archive follows (options inferred from at least two cases and contradicted by none, as
  for any record),
- a *disagreement* otherwise, whatever a single option would say of it alone (its note
  says which would reproduce it, as a fact, not a verdict),
- *rejected* when it cannot be run (ERROR, or written for other rules: SKIP).

A case judged by its own ``RULES`` line (no ``--rules``/``--rule``) states the readings it
follows: the issues where they differ from the run's rules, and those its line names, are
never inferred for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ..board import PhaseKind
from ..errors import DipsatError
from ..rules import DEFAULT_PROFILE, ISSUES, Rules
from .inference import GAME, NONE, Inference, PhaseEvidence, decide, readings_text
from .rule_scope import issues_touched

if TYPE_CHECKING:
    from ..formats.casefile import Case
    from .cases import CaseRun
    from .validate import GameReport

__all__ = ["validate_case"]


class _CaseJudge:
    """Runs one case under its rules and under other options of the issues it touches (cached)."""

    def __init__(self, case: Case, run: CaseRun, base: Rules, pinned: frozenset[str]) -> None:
        from .cases import build_position

        assert run.rules is not None
        self.case = case
        self.rules = run.rules
        state, orders, _ = build_position(case, self.rules)
        own = set(self.rules.overrides) | {n for n in ISSUES if self.rules.choice(n) != base.choice(n)}
        self.touched = sorted(n for n in issues_touched(state, orders) if n in ISSUES)
        self.issues = [n for n in self.touched if n not in pinned and n not in own]
        """The issues evidence is gathered for and readings are inferred on."""
        self.cache: dict[tuple[tuple[str, str], ...], bool] = {(): run.status == "PASS"}

    def rules_with(self, overrides: Mapping[str, str]) -> Rules:
        return Rules.profile(self.rules.profile_name, {**self.rules.overrides, **overrides}) if overrides else self.rules

    def agrees(self, overrides: Mapping[str, str]) -> bool:
        """Does the case PASS with `overrides` (issue -> option)? A case that cannot be
        run under them (an order they make unreadable) does not."""
        from .cases import run_case

        key = tuple(sorted((n, o) for n, o in overrides.items() if o != self.rules.choice(n)))
        if key not in self.cache:
            try:
                self.cache[key] = run_case(self.case, rules=self.rules_with(dict(key))).status == "PASS"
            except DipsatError:
                self.cache[key] = False
        return self.cache[key]

    def evidence(self, options: Mapping[str, Sequence[str]]) -> tuple[dict[str, list[PhaseEvidence]],
                                                                   dict[str, list[str]]]:
        """The case's evidence on the issues of `options`, each judged under those options
        and its given one: a row where some but not all agree; and per issue the options
        tried when not every one was (``unchecked``)."""
        evidence: dict[str, list[PhaseEvidence]] = {}
        unchecked: dict[str, list[str]] = {}
        for issue, wanted in sorted(options.items()):
            every = list(ISSUES[issue].options)
            tried = sorted((set(wanted) | {self.rules.choice(issue)}) & set(every))
            agreeing = tuple(o for o in tried if self.agrees({issue: o}))
            partial = () if len(tried) == len(every) else tuple(tried)
            if agreeing and len(agreeing) < len(tried):
                evidence[issue] = [PhaseEvidence(self.case.id, self.case.id, agreeing, partial)]
            if partial:
                unchecked[issue] = list(partial)
        return evidence, unchecked

    def needed(self, inferred: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
        """The inferred options the case needs to PASS (each dropped when it passes without)."""
        used = dict(inferred)
        for n in sorted(used):
            if len(used) > 1 and self.agrees({k: v for k, v in used.items() if k != n}):
                del used[n]
        return tuple(sorted(used.items()))


def validate_case(case: Case, source: str, rules: Rules | None = None, pictures: bool = False,
                  inference: Inference = Inference(), given: Rules | None = None) -> GameReport:
    """One case as a one-phase record (see the module docstring), judged under `rules`
    when given (``--rules``/``--rule``), else under its own RULES line; `given` is the run's
    rules (the readings the archive's evidence is weighed against), and `inference` says
    what to do about rule readings as for any record
    (:func:`dipsat.runners.validate.validate_recorded`)."""
    from ..formats.casefile import parse_phase
    from ..notation import format_order
    from ..printers.explain import explain
    from ..printers.pictures import validation_pictures
    from .cases import run_case
    from .validate import (AGREED, DISAGREED, REJECTED, RULE_DIFFERENCE, Difference, GameReport, PhaseReport,
                           kind_name)

    run = run_case(case, rules=rules)
    try:  # the phase the case ran in (no phase line: the variant's first, a movement)
        phase_kind = run.result.before.phase.kind if run.result is not None else (
            parse_phase(case.phase_text).kind if case.phase_text else PhaseKind.MOVEMENT)
        kind = kind_name(phase_kind)
    except ValueError:
        kind = "other"
    rules_text = str(run.rules) if run.rules else " ".join(case.rules or [DEFAULT_PROFILE])
    report = GameReport(case.id, source, rules_text)
    phase = PhaseReport(0, case.id, kind, AGREED)
    report.phases.append(phase)
    if run.status in ("ERROR", "SKIP") or run.result is None or run.rules is None:
        phase.status = REJECTED
        phase.reason = "; ".join(run.problems) or run.status
        return report
    base = given or Rules.profile()
    judge = _CaseJudge(case, run, base, inference.pinned | frozenset(base.overrides))
    fitting: dict[str, tuple[str, ...]] = {}
    if inference.check is not None:
        if case.id not in inference.disagreeing:
            report.evidence, report.unchecked = judge.evidence({n: o for n, o in inference.check if n in judge.issues})
        if inference.only is None:
            report.phases = []
            return report
    if inference.readings is not None:
        fitting = {n: o for n, o in inference.readings if n in judge.issues and o}
    elif inference.mode != NONE:
        complete = run.status != "PASS" or inference.complete or inference.mode == GAME
        report.evidence, report.unchecked = judge.evidence(
            {n: list(ISSUES[n].options) if complete else [] for n in judge.issues})
        if inference.mode == GAME:
            fitting = {n: r.fitting for n, r in decide([report.evidence], base).items() if r.fitting}
    report.judged_by = dict(sorted(fitting.items()))
    inferred = {n: o[0] for n, o in fitting.items()}
    report.inferred = readings_text(inferred)
    if inference.only is not None and case.id not in inference.only:
        report.phases = []
        return report
    if run.status == "PASS":
        return report
    phase.status = DISAGREED
    phase.differences = [Difference("poststate", case.id, "as the case file says", p) for p in run.problems]
    if pictures:
        area = sorted({u.province for u in [*run.result.before.units, *run.result.after.units]})
        phase.pictures = validation_pictures(run.result, area)  # the case's corner of the map
    facts = explain(run.result)
    for k, r in enumerate(run.result.results):
        label = format_order(r.order)
        phase.orders.append(label)
        phase.explanation[label] = [r.status + (f" ({r.detail})" if r.detail else "")] + [
            f for f in facts[k] if f != r.status]
    if inferred and judge.agrees(inferred):
        used = judge.needed(inferred)
        phase.status = RULE_DIFFERENCE
        phase.rule = " ".join(f"{n}={o}" for n, o in used)
        phase.rule_title = "; ".join(f"DATC {n} {ISSUES[n].title}: {ISSUES[n].options[o]}" for n, o in used)
        phase.rule_options = [f"{n}={o}" for n, _ in used for o in fitting[n]]  # every option that fits
        return report
    judged_by = judge.rules_with(inferred)
    others = [f"{n}={o}" for n in judge.touched for o in sorted(ISSUES[n].options)
              if o != judged_by.choice(n) and judge.agrees({**inferred, n: o})]
    if others:
        phase.note = ("would agree under " + ", ".join(others) + " (a fact, not a verdict: the readings judged "
                      "by are inferred from all the cases, see --infer)")
    return report
