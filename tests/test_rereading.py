"""Shortcuts validation takes when it judges a phase under another option: the prescan
taken over (:func:`~dipsat.movement.prescan.rescan`) and the solved model read again
(:func:`~dipsat.movement.turn.reread`) must give exactly what adjudicating afresh gives.
Checked on every movement case under ``cases/``, for every option of the issues concerned."""

from __future__ import annotations

from collections import Counter

import pytest

from dipsat.adjudicator import adjudicate
from dipsat.board import PhaseKind
from dipsat.movement import prescan
from dipsat.movement.prescan import PRESCAN_OPTIONS, rescan
from dipsat.movement.turn import reread
from dipsat.outcomes import Illegal
from dipsat.rules import ISSUES, Rules
from dipsat.runners.cases import build_position, case_rules

from .conftest import all_cases


def _movement_cases() -> list[tuple[str, object, list, Rules]]:
    out = []
    for case in all_cases():
        rules = case_rules(case)
        if rules is None:
            continue
        state, orders, problems = build_position(case, rules)
        if not problems and state.phase.kind is PhaseKind.MOVEMENT:
            out.append((case.id, state, orders, rules))
    return out


MOVEMENT = _movement_cases()


def _legal(scan, k: int) -> bool:
    """Is order k of a prescan legal (DATC 4.E.1: no Illegal verdict)?"""
    return not isinstance(getattr(scan.verdicts.get(k), "outcome", None), Illegal)


def _with(rules: Rules, issue: str, option: str) -> Rules:
    return Rules.profile(rules.profile_name, {**rules.overrides, issue: option})


def test_the_cases_give_enough_movement_phases():
    assert len(MOVEMENT) > 250


@pytest.mark.parametrize("issue", sorted(n for n, i in ISSUES.items()
                                         if i.field not in PRESCAN_OPTIONS and i.field != "adjacent_convoy"))
def test_options_the_prescan_does_not_list_do_not_change_it(issue):
    """PRESCAN_OPTIONS is complete: every other option leaves every prescan as it was."""
    for case_id, state, orders, rules in MOVEMENT:
        scan = prescan(state, orders, rules)
        for option in ISSUES[issue].options:
            assert prescan(state, orders, _with(rules, issue, option)) == scan, (case_id, issue, option)


def test_a_prescan_taken_over_for_another_reading_of_4A3_is_the_prescan():
    seen: Counter[str] = Counter()
    for case_id, state, orders, rules in MOVEMENT:
        scan = prescan(state, orders, rules)
        for option in ISSUES["4.A.3"].options:
            other = _with(rules, "4.A.3", option)
            taken = rescan(scan, state, rules, other)
            fresh = prescan(state, orders, other)
            if taken is None:
                seen["scanned again"] += 1
                continue
            seen["taken over"] += 1
            assert taken == fresh, (case_id, option)
            if fresh != scan:
                seen["differs"] += 1
        coast = next(o for o in ISSUES["4.B.1"].options if _with(rules, "4.B.1", o) != rules)
        assert rescan(scan, state, rules, _with(rules, "4.B.1", coast)) is None  # an option the prescan reads
    assert seen["scanned again"] > 10 and seen["taken over"] > 1000 and not seen["differs"]


def test_a_model_read_again_under_another_reading_of_4A2_is_the_adjudication():
    seen: Counter[str] = Counter()
    for case_id, state, orders, rules in MOVEMENT:
        result = adjudicate(state, orders, rules)
        for option in ISSUES["4.A.2"].options:
            other = _with(rules, "4.A.2", option)
            again = reread(result, other)
            if again is None:
                seen["solved again"] += 1
                continue
            seen["read again"] += 1
            fresh = adjudicate(state, orders, other)
            assert again == fresh, (case_id, option)
            assert again.rules == other
            if [r.outcome for r in again.results] != [r.outcome for r in result.results]:
                seen["outcomes differ"] += 1
    assert seen["solved again"] > 10 and seen["read again"] > 1000
    assert seen["outcomes differ"] > 0  # the notes name the rule of `other`, read again


def test_a_prescan_taken_over_across_readings_of_via_convoy_is_the_prescan():
    """Where the readings differ in whether 'via convoy' binds the army to the convoy route
    (4.A.3 c and dptg against the others), the prescan is taken over when every army move
    written 'via convoy' could be carried by fleets now at sea (the reading then decides
    nothing in the legality check), and made again when one could not."""
    from dipsat.movement.prescan import _via_binding_matters

    seen: Counter[str] = Counter()
    binding = [o for o in ISSUES["4.A.3"].options if _with(Rules.profile(), "4.A.3", o).adjacent_convoy.via_binds]
    loose = [o for o in ISSUES["4.A.3"].options if o not in binding]
    assert binding and loose
    for case_id, state, orders, rules in MOVEMENT:
        via = [o for o in orders if getattr(o, "via_convoy", False)]
        if not via:
            continue
        for first in (binding[0], loose[0]):
            scanned = _with(rules, "4.A.3", first)
            scan = prescan(state, orders, scanned)
            matters = any(_via_binding_matters(state, o) for o in scan.orders)
            for option in binding + loose:
                other = _with(rules, "4.A.3", option)
                if other.adjacent_convoy.via_binds is scanned.adjacent_convoy.via_binds:
                    continue
                taken = rescan(scan, state, scanned, other)
                fresh = prescan(state, orders, other)
                if matters:
                    assert taken is None, (case_id, first, option)
                    seen["scanned again"] += 1
                elif taken is not None:
                    assert taken == fresh, (case_id, first, option)
                    seen["taken over"] += 1
                legal = [k for k, o in enumerate(scan.orders) if o in via and _legal(scan, k)]
                if legal != [k for k, o in enumerate(fresh.orders) if o in via and _legal(fresh, k)]:
                    seen["legality differs"] += 1  # a 'via convoy' move legal under one reading only
                    assert matters, (case_id, first, option)
    assert seen["taken over"] > 50 and seen["scanned again"] > 10 and seen["legality differs"] > 0


def test_a_prescan_taken_over_across_options_a_turn_does_not_ask_about_is_the_prescan():
    """DATC 4.A.1 and 4.B.4 are read by the prescan only where a turn's orders ask (the DPTG's
    own routes first, a coast in a matched support): rules that differ only in options a turn
    did not ask about take its prescan over (READ_WHEN_ASKED), and that must be the prescan
    those rules make, for every pair of readings of both (with every reading of 4.A.3 too)."""
    seen: Counter[str] = Counter()
    for case_id, state, orders, rules in MOVEMENT:
        readings = [Rules.profile(rules.profile_name, {**rules.overrides, "4.A.1": a, "4.B.4": b})
                    for a in sorted(ISSUES["4.A.1"].options) for b in sorted(ISSUES["4.B.4"].options)]
        readings += [_with(rules, "4.A.3", option) for option in sorted(ISSUES["4.A.3"].options)]
        fresh = [prescan(state, orders, reading) for reading in readings]
        for scanned, scan in zip(readings, fresh):
            for reading, wanted in zip(readings, fresh):
                taken = rescan(scan, state, scanned, reading)
                if taken is None:
                    seen["scanned again"] += 1
                    continue
                assert taken == wanted, (case_id, str(scanned), str(reading))
                if scanned.support_coast is not reading.support_coast:
                    seen["4.B.4 not asked"] += 1
                if scanned.multi_route_disruption is not reading.multi_route_disruption:
                    seen["4.A.1 not asked"] += 1
        n = len(ISSUES["4.A.1"].options) * len(ISSUES["4.B.4"].options)
        if any(scan != fresh[0] for scan in fresh[1:n]):
            seen["a turn the two options change"] += 1
    assert seen["4.B.4 not asked"] > 10_000 and seen["4.A.1 not asked"] > 10_000
    assert seen["scanned again"] > 1000 and seen["a turn the two options change"] >= 5
