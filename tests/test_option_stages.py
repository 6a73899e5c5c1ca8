"""The stages each issue's enum declares (``read_by``) are the stages its option can change:
an option no retreat-phase code reads leaves every retreat phase of the bundled cases as it
was, and likewise for adjustment phases. (The prescan's own list is checked in
tests/test_rereading.py; the model reads only ModelOptions, which the MODEL stage fills.)"""

from __future__ import annotations

import dataclasses

import pytest

from dipsat.adjudicator import adjudicate
from dipsat.board import PhaseKind
from dipsat.rules import ISSUES, Rules, Stage
from dipsat.runners.cases import build_position, case_rules

from .conftest import all_cases

STAGE_OF = {PhaseKind.RETREAT: Stage.RETREAT, PhaseKind.ADJUSTMENT: Stage.ADJUSTMENT}


def _phases(kind: PhaseKind) -> list[tuple[str, object, list, Rules]]:
    """The bundled cases' positions of phase `kind`, with their orders and rules."""
    built = [(case.id, *build_position(case, rules), rules) for case in all_cases() if (rules := case_rules(case))]
    return [(i, state, orders, rules) for i, state, orders, problems, rules in built
            if not problems and state.phase.kind is kind]


@pytest.mark.parametrize("kind", sorted(STAGE_OF, key=lambda k: k.name))
def test_options_a_stage_does_not_read_leave_its_phases_as_they_were(kind):
    phases = _phases(kind)
    assert len(phases) > 20
    unread = [n for n, i in ISSUES.items() if STAGE_OF[kind] not in i.read_by]
    assert unread and all(n not in unread for n, i in ISSUES.items() if STAGE_OF[kind] in i.read_by)
    for case_id, state, orders, rules in phases:
        result = adjudicate(state, orders, rules)
        for number in unread:
            for key in ISSUES[number].options:
                other = Rules.profile(rules.profile_name, {**rules.overrides, number: key})
                again = adjudicate(state, orders, other)
                assert dataclasses.replace(again, rules=rules) == result, (case_id, number, key)

