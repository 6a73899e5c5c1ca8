"""Reasons for retreat and adjustment phases (issue 11): outcome values, printed."""

from __future__ import annotations

import json


import dipsat
from dipsat.outcomes import BuildRefused, BuildRefusedCode, RetreatBounced, RetreatCode, RetreatRefused

from .conftest import CASES, case_position, load_case, run, unit_doc

DATC = CASES / "datc"


def _result(path, case_id):
    state, orders, rules = case_position(load_case(path, case_id))
    return dipsat.adjudicate(state, orders, rules)


def test_a_refused_retreat_says_why():
    """DATC 6.H.5: no retreat to the area the attacker came from."""
    result = _result(DATC / "6h_retreats.txt", "6.H.5.retreat")
    refused = [r for r in result.results if isinstance(r.outcome, RetreatRefused)]
    assert refused and refused[0].outcome.refused is RetreatCode.ATTACKER_ORIGIN
    assert "the area the attacker came from (DATC 6.H.5)" in refused[0].detail  # not by convoy: 6.H.5


def test_two_retreats_to_one_area_name_each_other():
    result = _result(DATC / "6h_retreats.txt", "6.H.7.retreat")
    bounced = [r.outcome for r in result.results]
    assert all(isinstance(o, RetreatBounced) and o.area == "tyr" for o in bounced)
    assert {u.province for o in bounced for u in o.others} == {"boh", "vie"}


def test_a_build_in_an_occupied_centre_cites_6_I_3():
    result = _result(DATC / "6i_builds.txt", "6.I.3")
    refused = [r.outcome for r in result.results if isinstance(r.outcome, BuildRefused)]
    assert refused and refused[0].refused is BuildRefusedCode.OCCUPIED
    assert "(DATC 6.I.3)" in refused[0].text and "4.D.5" not in refused[0].text


def test_adjustment_counts_and_civil_disorder_distances():
    """DATC 6.J.10: Italy must remove one unit and orders none: the report gives the count,
    and the civil-disorder rule's distances and tie-break, in text and JSON."""
    res = run("adjudicate", str(DATC / "6j_disbands.txt"), "--case", "6.J.10", "--explain")
    assert res.exit_code == 0, res.output
    text = res.output
    assert "Orders: none\n" in text and "every unit holds" not in text
    assert "Italy: 1 centre, 2 units: 1 removal; civil disorder removes A pie" in text
    assert "farther than A gre (2)" in text and "kept: A gre (2)" in text
    doc = json.loads(run("adjudicate", str(DATC / "6j_disbands.txt"), "--case", "6.J.10", "--format", "json").output)
    assert doc["civil_disorder"] == [{"unit": unit_doc("Italy: A pie"), "distance": 3, "reading": "2023",
                                      "tie_break": "farther", "kept": [{"unit": unit_doc("Italy: A gre"), "distance": 2}]}]


# --- paradoxes as the DATC defines them (issue 11) -------------------------------------------


def test_a_convoy_paradox_is_named_also_where_the_rulebook_rule_settles_it():
    """DATC 6.F.14 under the 2000 rulebook: its convoy rule leaves one resolution, but the
    DATC defines a paradox without that rule: two resolutions."""
    res = run("adjudicate", str(DATC / "6f_convoys.txt"), "--case", "6.F.14", "--all", "--rules", "2000")
    assert res.exit_code == 0, res.output
    assert ("A convoy paradox as the DATC defines it: 2 resolutions without the 2000 convoy\n"
            "    rule (DATC 4.A.2), 1 with it.") in res.output
    assert res.output.count("Consistent resolutions") == 1


def test_resolutions_differ_by_kind_of_decision():
    res = run("adjudicate", str(DATC / "6f_convoys.txt"), "--case", "6.F.14", "--all", "--rules", "datc")
    assert res.output.count("Consistent resolutions: 2") == 1
    section = res.output[res.output.index("Resolution 1"):]
    for kind in ("moves:", "dislodged:", "support given:", "convoy path:", "convoys:"):
        assert f"    {kind}" in section


def test_a_convoy_cancelled_by_szykman_is_not_called_dislodged():
    """DATC 6.F.16 (Pandin's paradox): the convoying fleet is not dislodged; Szykman
    cancels the convoy, and the army's reason says so."""
    result = _result(DATC / "6f_convoys.txt", "6.F.16")
    army = next(r for r in result.results if isinstance(r.order, dipsat.Move) and r.order.unit.province == "bre")
    assert "undislodged" not in army.detail and "dislodged" not in army.detail
    assert "cancelled by the Szykman rule: the convoying fleets of the paradox hold" in army.detail


def test_a_retreat_to_where_a_convoyed_attacker_came_from_cites_4A5():
    """DATC 6.H.11 under 4.A.5 a: the refusal names the option, not 6.H.5 (an attack over land)."""
    result = _result(DATC / "6h_retreats.txt", "6.H.11.retreat[4.A.5=a]")
    refused = [r for r in result.results if r.reason is not None]
    assert refused and "DATC 4.A.5 a" in refused[0].detail and "6.H.11" in refused[0].detail
    assert "6.H.5" not in refused[0].detail


def test_an_order_carried_out_for_another_unit_type_names_the_designation_rule():
    """DATC 4.C.2 b (profile datc): 'F par - bur' moves the army; 4.C.4 b: 'Build F mos'
    builds an army; 4.C.3 c: 'Build mos' too. The explanation says which rule read it."""
    from dipsat.printers.explain import explain

    variant = dipsat.load_variant("standard")
    state = variant.initial_state()
    orders, errors = dipsat.notation.parse_orders("France: F par - bur\nGermany: A kie - bal", variant)
    result = dipsat.adjudicate(state, orders, dipsat.Rules.profile("datc"))
    facts = explain(result)
    assert not errors and all(r.succeeded for r in result.results)
    assert "DATC 4.C.2 b" in facts[0][-1] and "the unit in par is an army" in facts[0][-1]
    assert "DATC 4.C.2 b" in facts[1][-1] and "the unit in kie is a fleet" in facts[1][-1]
    winter = state.with_(phase=dipsat.Phase(1901, dipsat.Season.FALL, dipsat.PhaseKind.ADJUSTMENT),
                         units=tuple(u for u in state.units if u.province != "mos"))
    for text, rule in (("Russia: Build F mos", "4.C.4=b"), ("Russia: Build mos", "4.C.3=c")):
        builds, _ = dipsat.notation.parse_orders(text, variant, dipsat.PhaseKind.ADJUSTMENT)
        result = dipsat.adjudicate(winter, builds, dipsat.Rules.parse(["datc", rule]))
        assert result.results[0].succeeded
        assert f"A mos is built (DATC {rule.replace('=', ' ')})" in explain(result)[0][-1]
    plain, _ = dipsat.notation.parse_orders("France: A par - bur", variant)
    assert all("4.C" not in fact for fact in explain(dipsat.adjudicate(state, plain))[0])
