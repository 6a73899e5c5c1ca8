"""The typed decision layer: decisions keyed by kind, facts defined once and read off the
solution through the same definitions, backup rules reported as enum values."""

from __future__ import annotations

import json

import pytest

import dipsat
from dipsat.formats.outcome_json import outcome_json
from dipsat.encodings.decisions import CONVOY, MOVE, SUPPORT, BackupRule, DecisionKind
from dipsat.encodings.support import attack_on_support
from dipsat.encodings.values import Values
from dipsat.movement import MovementTrace
from dipsat.outcomes import Cut, Paradox

from .conftest import CASES, all_cases, case_position


def _movement_results() -> list[tuple[str, dipsat.PhaseResult]]:
    out = []
    for case in all_cases(CASES / "datc"):
        state, orders, rules = case_position(case)
        if state.phase.kind is dipsat.PhaseKind.MOVEMENT:
            out.append((case.id, dipsat.adjudicate(state, orders, rules)))
    return out


@pytest.fixture(scope="module")
def datc() -> list[tuple[str, dipsat.PhaseResult]]:
    return _movement_results()


def _trace(result: dipsat.PhaseResult) -> MovementTrace:
    assert isinstance(result.trace, MovementTrace)
    return result.trace


def test_every_decision_is_keyed_by_its_kind(datc):
    for case_id, result in datc:
        trace = _trace(result)
        for key in trace.scan.problem.decisions():
            assert isinstance(key[0], DecisionKind) and isinstance(key[1], int), (case_id, key)
        assert all(isinstance(kind, DecisionKind) for kind, _ in trace.solved.values), case_id


def test_support_decisions_agree_with_the_cut_rule_read_off_the_solution(datc):
    """The model's support decision (5.B.2) equals the one definition of what each attack
    does to the support, evaluated over the solved decisions: defined once, read alike."""
    checked = 0
    for case_id, result in datc:
        trace = _trace(result)
        if trace.solved.backups:
            continue  # a backup rule replaces some definitions by constants
        problem = trace.scan.problem
        values = Values(problem, result.rules.model, trace.solved.values)
        for support in problem.supports:
            attacks = [attack_on_support(values, m, support.index)
                       for m in problem.moves_into.get(support.province, [])]
            fails = any(a.cuts or bool(a.dislodges) for a in attacks)
            assert values.given(support.index) is not fails, (case_id, support)
            checked += 1
    assert checked > 50


def test_a_support_cut_names_its_cutters(datc):
    """Every support that fails without its unit being dislodged names who cut it."""
    found = 0
    for case_id, result in datc:
        for order_result in result.results:
            if isinstance(order_result.outcome, Cut):
                assert order_result.outcome.by, (case_id, str(order_result.order))
                found += 1
    assert found > 10


@pytest.mark.parametrize("case_id,rule,kind", [("6.C.1", BackupRule.CIRCULAR_MOVEMENT, MOVE),
                                               ("6.F.14", BackupRule.SZYKMAN, CONVOY)])
def test_backup_rules_are_reported_as_enum_values_with_the_decisions_they_settled(datc, case_id, rule, kind):
    result = dict(datc)[case_id]
    backups = _trace(result).solved.backups
    assert [b.rule for b in backups] == [rule]
    assert backups[0].settled and all(key[0] is kind for key in backups[0].settled)
    assert result.backup_rules[0].startswith(f"{rule.value}: ")


def test_a_paradox_outcome_prints_the_rule_by_its_old_name(datc):
    paradoxes = [(case_id, r.outcome) for case_id, result in datc for r in result.results
                 if isinstance(r.outcome, Paradox)]
    assert paradoxes
    for case_id, outcome in paradoxes:
        rule = BackupRule(outcome.rule)
        assert json.loads(json.dumps(outcome_json(outcome)))["rule"] == rule.value, case_id
        assert f"{outcome.rule}" == rule.value and str(outcome.rule) == rule.value


def test_strengths_are_keyed_by_term_kind(datc):
    for case_id, result in datc:
        for kind, _ in _trace(result).solved.strengths:
            assert kind.strength, (case_id, kind)


def test_decision_keys_sort_as_their_kind_names():
    """The driver visits decisions in sorted order: the enum sorts as its words did."""
    keys = [(MOVE, 1), (CONVOY, 2), (SUPPORT, 0), (MOVE, 0)]
    assert sorted(keys) == [(CONVOY, 2), (MOVE, 0), (MOVE, 1), (SUPPORT, 0)]
    assert sorted(DecisionKind) == sorted(DecisionKind, key=lambda kind: kind.value)
