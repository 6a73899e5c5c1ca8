"""The solve driver, strengths, explanations and alternatives on DATC positions."""

from __future__ import annotations

import pytest

import dipsat
from dipsat.printers.alternatives import alternatives
from dipsat.printers.explain import explain
from dipsat.notation import format_order
from dipsat.encodings.decisions import TermKind

from .conftest import CASES, all_cases, case_position, datc_case


def _datc(case_id: str):
    return dipsat.adjudicate(*case_position(datc_case(case_id)))


def _strength(result, kind: TermKind, order_text: str) -> int:
    trace = result.trace
    for k, order in enumerate(trace.orders):
        if format_order(order).endswith(order_text):
            return trace.solved.strengths[(kind, trace.scan.move_of[k])]
    raise KeyError(order_text)


def test_acyclic_phase_takes_one_solver_call():
    result = _datc("6.A.11")
    assert result.solver_calls == 1
    assert result.resolutions is None  # static check: no cycle, nothing to enumerate


def test_6_A_11_bounce_strengths():
    result = _datc("6.A.11")
    assert _strength(result, TermKind.ATTACK, "A ven - tyr") == 1
    assert _strength(result, TermKind.PREVENT, "A vie - tyr") == 1
    assert not any(r.succeeded for r in result.results)


def test_6_E_1_head_to_head_defend_strength():
    result = _datc("6.E.1")
    # Germany A ber - pru supported by A sil: attack 2 beats the Russian defend strength 1
    assert _strength(result, TermKind.ATTACK, "A ber - pru") == 2


def test_6_C_1_circular_movement_has_two_resolutions_and_all_moves_succeed():
    result = _datc("6.C.1")
    alt = alternatives(result)
    assert alt.count == 2
    assert alt.chosen is not None and all(kind == "moves" and v.endswith("succeeds") for kind, v in alt.resolutions[alt.chosen])
    assert any("circular movement" in rule for rule in result.backup_rules)
    assert all(r.succeeded for r in result.results)


def test_6_F_14_simple_convoy_paradox_settled_by_szykman():
    result = _datc("6.F.14")
    alt = alternatives(result)
    assert alt.count == 2
    assert result.backup_rules and result.backup_rules[0].startswith("szykman")
    convoy = next(r for r in result.results if isinstance(r.order, dipsat.Convoy))
    assert not convoy.succeeded and convoy.reason is dipsat.Reason.PARADOX


def test_6_F_16_pandins_paradox_has_no_resolution_and_a_core():
    result = _datc("6.F.16")
    alt = alternatives(result)
    assert alt.count == 0
    assert "France: F eng C A bre - lon" in alt.core
    assert "France: A bre - lon" in alt.core


def test_explanations_name_the_cutting_unit():
    result = _datc("6.D.2")
    facts = dict(zip((format_order(r.order) for r in result.results), explain(result)))
    support = next(text for text in facts if " S " in text and text.startswith("Italy"))
    assert any("cut by" in fact for fact in facts[support]), facts[support]


def test_same_input_same_output():
    a, b = _datc("6.F.24"), _datc("6.F.24")
    assert a.results == b.results and a.after == b.after and a.backup_rules == b.backup_rules


@pytest.mark.parametrize("case_id", ["6.F.17", "6.F.17[2000]"])
def test_2000_rule_and_szykman_differ_only_in_6_F_17(case_id):
    result = _datc(case_id)
    london = {u.province for u in result.after.units if u.power == "England"}
    assert ("lon" in london) == (case_id == "6.F.17")


def _datc_cases_with_cycles():
    for case in all_cases(CASES / "datc"):
        state, orders, rules = case_position(case)
        if state.phase.kind is dipsat.PhaseKind.MOVEMENT:
            result = dipsat.adjudicate(state, orders, rules)
            if result.backup_rules:
                yield pytest.param(case.id, result, id=case.id)


@pytest.mark.parametrize("case_id,result", list(_datc_cases_with_cycles()))
def test_all_lists_resolutions_or_core_and_names_the_rule(case_id, result):
    from dipsat.printers.text import render_alternatives

    alt = alternatives(result)
    text = render_alternatives(result)
    assert alt.rules and "Settled by:" in text
    if alt.count == 0:
        assert alt.core and "core" in text
        assert any(" C " in order for order in alt.core)  # a convoy paradox: its convoy is in the core
    else:
        assert alt.count >= 2 and len(alt.resolutions) == alt.count
        assert all(f"Resolution {i}" in text for i in range(1, alt.count + 1))


def test_batch_mode_gives_the_same_results_as_one_by_one():
    from dipsat.adjudicator import adjudicate_many

    items = []
    for case in all_cases(CASES / "datc", CASES / "rulebook"):
        items.append(case_position(case))
    single = [dipsat.adjudicate(*item) for item in items]
    batched = adjudicate_many(items, batch=16)
    assert [(r.results, r.after, r.backup_rules) for r in single] == \
           [(r.results, r.after, r.backup_rules) for r in batched]


def test_batch_mode_takes_orders_as_adjudicate_does_any_iterable():
    """adjudicate takes a phase's orders as any iterable (it makes a list of them); batch
    mode must too, though the movement turn it hands them to is compiled code that
    checks for a list (setup.py)."""
    from dipsat.adjudicator import adjudicate_many

    items = [case_position(case) for case in all_cases(CASES / "datc")][:40]
    single = [dipsat.adjudicate(state, tuple(orders), rules) for state, orders, rules in items]
    batched = adjudicate_many(tuple((state, tuple(orders), rules) for state, orders, rules in items))  # type: ignore[arg-type]
    assert [(r.results, r.after) for r in single] == [(r.results, r.after) for r in batched]
    assert all(isinstance(r.results, tuple) for r in batched)


# --- explanations name the culprit (read off the solved model) ---------------------------


def _facts(case_id: str) -> dict[str, str]:
    result = _datc(case_id)
    return {format_order(r.order): " | ".join(f) for r, f in zip(result.results, explain(result))}


def test_explanation_names_the_standoff_6_A_11():
    facts = _facts("6.A.11")
    assert facts["Austria: A vie - tyr"].startswith(
        "fails: bounced (DATC 5.B.1): standoff with A ven - tyr (prevent strength 1 = attack strength 1")


def test_explanation_reads_head_to_head_off_the_routes_6_E_15_and_6_C_7():
    # equal strengths head to head: a standoff in the battle, not "fails to move away"
    assert "standoff in a head-to-head battle with A kie - ber" in _facts("6.E.15")["Germany: A ber - kie"]
    # a convoyed swap is no head-to-head battle
    assert "no head-to-head battle" in _facts("6.C.7")["England: A lon - bel"]


def test_explanation_names_self_dislodgement_6_D_10():
    facts = _facts("6.D.10")
    assert "cannot dislodge A ber, a unit of its own power" in facts["Germany: F kie - ber"]
    assert "does not count against A ber" in facts["Germany: A mun S F kie - ber"]


def test_support_against_own_unit_still_prevents_6_E_12():
    facts = _facts("6.E.12")
    assert "not counted against A bud, a unit of Austria: A ser" in facts["Italy: A vie - bud"]
    support = facts["Austria: A ser S A vie - bud"]
    assert "still adds to the prevent strength of A vie - bud against A gal - bud" in support


def test_dislodged_unit_still_cuts_6_D_21():
    facts = _facts("6.D.21")
    assert "cut by A mun from mun, which is dislodged but still cuts" in facts["Italy: A tyr S A ven - tri"]
    assert "A mun is dislodged by A sil (attack strength 2; supports: A ber)" in facts["Germany: A mun - tyr"]


def test_dislodged_unit_has_no_effect_on_its_attackers_area_6_E_1():
    facts = _facts("6.E.1")
    assert "lost the head-to-head battle with A ber - pru" in facts["Russia: A pru - ber"]
    assert "A pru is dislodged by A ber" in facts["Russia: A pru - ber"]
    assert "no effect on the area its attacker came from" in facts["Germany: F kie - ber"]


def test_convoy_rule_names_the_protected_support_6_F_17_2000():
    facts = _facts("6.F.17[2000]")
    support = facts["England: F lon S F wal - eng"]
    assert "counts though F lon is dislodged by A bre" in support
    assert "A bre comes by convoy through F eng" in support and "DATC 4.A.2 c" in support
