"""`dipsat adjudicate` and the dipsat JSON format (docs/json.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import dipsat
from dipsat.board import Location, Phase, PhaseKind, Season, Unit, UnitKind
from dipsat.runners.cases import build_position
from dipsat.formats.dipsat_json import (FORMAT, JsonFormatError, position_from_json, result_to_json,
                                        state_from_json, state_to_json)
from dipsat.notation import parse_orders
from dipsat.rules import Rules
from dipsat.state import Dislodged, State

from .conftest import CASES, all_cases, load_case, run, unit_doc

FIGURES = str(CASES / "rulebook" / "figures.txt")
GAME = str(CASES / "rulebook" / "sample_game.txt")
RETREATS = str(CASES / "datc" / "6h_retreats.txt")


def case_state(path: str, case_id: str) -> tuple[State, list]:
    case = load_case(Path(path), case_id)
    state, orders, problems = build_position(case, Rules.profile())
    assert not problems
    return state, orders


# --- text output -------------------------------------------------------------------------


FIG08_TEXT = """\
rulebook.fig08: Spring 1901, Movement (rules 2000)
Orders:
  France   A mar - bur          succeeds   attack 2 vs hold 1
  France   A gas S A mar - bur  succeeds
  Germany  A bur H              dislodged
Dislodged:
  Germany  A bur     attacked from mar; retreats: bel, mun, par, pic, ruh
New position:
  France   A bur, A gas
  Germany  dislodged: A bur
Next phase: Spring 1901, Retreat
"""


def test_text_report_of_rulebook_figure_8():
    res = run("adjudicate", FIGURES, "--case", "rulebook.fig08")
    assert res.exit_code == 0, res.output
    assert res.stderr == ""
    assert res.stdout == FIG08_TEXT
    lines = res.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines)
    dislodged = lines[lines.index("Dislodged:") + 1]
    assert dislodged.split()[:3] == ["Germany", "A", "bur"]
    assert dislodged.endswith("retreats: bel, mun, par, pic, ruh")
    position = lines[lines.index("New position:") + 1:-1]
    assert [line.split(None, 1) for line in position] == [["France", "A bur, A gas"], ["Germany", "dislodged: A bur"]]


def test_text_report_shows_centre_changes_and_adjustments():
    res = run("adjudicate", GAME, "--case", "rulebook.game.F1901M")
    assert res.exit_code == 0
    lines = res.stdout.splitlines()
    assert "Centres changed:" in lines
    assert "  nwy  England (was unowned)" in lines
    assert lines[-1] == "Next phase: Fall 1901, Adjustment"
    assert all(len(line) <= 80 for line in lines)


def test_text_report_lists_units_disbanded_in_retreat_phase():
    res = run("adjudicate", RETREATS, "--case", "6.H.2.retreat")
    assert res.exit_code == 0
    lines = res.stdout.splitlines()
    assert "Disbanded:" in lines
    gone = lines[lines.index("Disbanded:") + 1:lines.index("New position:")]
    assert [line.split()[:3] for line in gone] == [["England", "F", "nwy"], ["Russia", "F", "edi"], ["Russia", "F", "hol"]]
    assert "retreat failed" in gone[0]


# --- JSON output -------------------------------------------------------------------------


def test_json_names_the_strengths_and_orders_that_bounced_a_move(tmp_path):
    """A bounced move's outcome in JSON: its attack strength and the opposing strength and
    order as numbers and orders (docs/json.md), not only text; and a cut support with its cutter."""
    case = tmp_path / "bounce.txt"
    case.write_text("""VARIANT_ALL Standard
CASE json.bounce
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
    France: A par
    France: A pic
    Germany: A mun
    Germany: A ruh
    England: A bel
ORDERS
    France: A par - bur
    France: A pic S A par - bur
    Germany: A mun - bur
    Germany: A ruh S A mun - bur
    England: A bel - pic
END
""", encoding="utf-8")
    res = run("adjudicate", str(case), "--format", "json")
    assert res.exit_code == 0, res.output
    by_order = {o["order"]: o for o in json.loads(res.stdout)["orders"]}
    bounced = by_order["France: A par - bur"]["outcome"]
    assert bounced["kind"] == "bounced"
    assert bounced["attack"] == {"kind": "attack", "value": 1, "unit": unit_doc("France: A par"),
                                 "order": "France: A par - bur", "supports": [],
                                 "not_counted": [{"unit": unit_doc("France: A pic"), "why": "cut",
                                                  "by": ["England: A bel - pic"]}]}
    (culprit,) = bounced["by"]
    assert culprit["order"] == "Germany: A mun - bur" and culprit["unit"] == unit_doc("Germany: A mun")
    assert culprit["strength"] == {"kind": "prevent", "value": 2, "unit": unit_doc("Germany: A mun"),
                                   "order": "Germany: A mun - bur", "supports": [unit_doc("Germany: A ruh")],
                                   "not_counted": []}
    assert by_order["France: A pic S A par - bur"]["outcome"]["by"] == ["England: A bel - pic"]
    assert by_order["Germany: A mun - bur"]["outcome"]["kind"] == "moves"


def test_json_result_of_rulebook_figure_8():
    res = run("adjudicate", FIGURES, "--case", "rulebook.fig08", "--format", "json")
    assert res.exit_code == 0
    doc = json.loads(res.stdout)
    assert list(doc) == ["format", "type", "rules", "phase", "next_phase", "orders", "rejected", "dislodged",
                         "disbanded", "civil_disorder", "adjustments", "solver", "after", "before"]
    assert doc["format"] == FORMAT and doc["type"] == "result" and doc["rules"] == "2000"
    assert doc["phase"] == {"year": 1901, "season": "Spring", "kind": "Movement"}
    assert doc["next_phase"] == {"year": 1901, "season": "Spring", "kind": "Retreat"}
    orders = {o["order"]: o for o in doc["orders"]}
    move = dict(orders["France: A mar - bur"])
    outcome = move.pop("outcome")
    assert move == {
        "index": 0, "order": "France: A mar - bur", "type": "move", "power": "France",
        "unit": {"power": "France", "kind": "A", "location": "mar"}, "succeeded": True,
        "result": "succeeds", "reason": None, "detail": "attack 2 vs hold 1"}
    assert outcome["kind"] == "moves"
    assert outcome["attack"] == {"kind": "attack", "value": 2, "unit": unit_doc("France: A mar"),
                                 "order": "France: A mar - bur", "supports": [unit_doc("France: A gas")],
                                 "not_counted": []}
    assert (outcome["resistance"]["kind"], outcome["resistance"]["value"], outcome["resistance"]["unit"]) == (
        "hold", 1, unit_doc("Germany: A bur"))
    assert outcome["dislodged_by"] is None if "dislodged_by" in outcome else True
    assert orders["Germany: A bur H"]["outcome"]["by"] == {
        "unit": unit_doc("Germany: A bur"), "by": "France: A mar - bur", "by_convoy": False, "attack": 2,
        "supports": [unit_doc("France: A gas")]}
    assert orders["France: A gas S A mar - bur"]["succeeded"] is True
    hold = orders["Germany: A bur H"]
    assert (hold["succeeded"], hold["reason"], hold["type"]) == (False, "dislodged", "hold")
    assert [o["index"] for o in doc["orders"]] == [1, 0, 2]  # sorted by power, then location
    assert doc["dislodged"] == [{"power": "Germany", "kind": "A", "location": "bur", "attacker_origin": "mar",
                                 "by_convoy": False, "retreat_options": ["bel", "mun", "par", "pic", "ruh"]}]
    assert doc["disbanded"] == []
    assert doc["solver"]["calls"] >= 1
    after = state_from_json(doc["after"])
    assert after.phase == Phase(1901, Season.SPRING, PhaseKind.RETREAT)
    assert set(after.units) == {Unit("France", UnitKind.ARMY, Location("bur")), Unit("France", UnitKind.ARMY, Location("gas"))}
    assert after.dislodged == (Dislodged(Unit("Germany", UnitKind.ARMY, Location("bur")), "mar", False),)
    before, _ = case_state(FIGURES, "rulebook.fig08")
    assert state_from_json(doc["before"]) == before


def test_json_lists_dislodged_unit_without_retreat_as_disbanded(variant):
    # 6.H.15-like: the dislodged fleet has nowhere to go; the new state drops it.
    state = State(variant, Phase(1901, Season.SPRING, PhaseKind.MOVEMENT),
                  (Unit("England", UnitKind.FLEET, Location("nth")), Unit("England", UnitKind.FLEET, Location("hel")),
                   Unit("England", UnitKind.FLEET, Location("ska")), Unit("England", UnitKind.FLEET, Location("nwg")),
                   Unit("England", UnitKind.ARMY, Location("bel")), Unit("England", UnitKind.ARMY, Location("kie")),
                   Unit("Germany", UnitKind.FLEET, Location("hol"))),
                  State.initial(variant).owners)
    orders, errors = parse_orders("England: F nth - hol\nEngland: F hel S F nth - hol\nGermany: F hol H", variant)
    assert not errors
    doc = result_to_json(dipsat.adjudicate(state, orders))
    assert doc["dislodged"] == [{"power": "Germany", "kind": "F", "location": "hol", "attacker_origin": "nth",
                                 "by_convoy": False, "retreat_options": []}]
    assert doc["disbanded"] == [{"power": "Germany", "kind": "F", "location": "hol",
                                 "reason": "dislodged with no possible retreat"}]
    assert doc["after"]["dislodged"] == []


# --- JSON states ---------------------------------------------------------------------------


def _round_trip(state: State) -> State:
    text = json.dumps(state_to_json(state), indent=2)
    return state_from_json(json.loads(text))


def test_state_round_trip(variant):
    states = [State.initial(variant)]
    fig08, orders = case_state(FIGURES, "rulebook.fig08")
    retreat = dipsat.adjudicate(fig08, orders).after  # a retreat phase with a dislodged unit
    assert retreat.phase.kind is PhaseKind.RETREAT and retreat.dislodged
    states += [fig08, retreat]
    h6, orders = case_state(RETREATS, "6.H.6")
    with_standoff = dipsat.adjudicate(h6, orders, Rules.profile("2023")).after
    assert with_standoff.standoffs == frozenset({"boh"}) and with_standoff.dislodged
    states.append(with_standoff)
    f1901, orders = case_state(GAME, "rulebook.game.F1901M")
    adjustment = dipsat.adjudicate(f1901, orders).after
    assert adjustment.phase.kind is PhaseKind.ADJUSTMENT
    states += [f1901, adjustment, dipsat.adjudicate(adjustment, case_state(GAME, "rulebook.game.W1901A")[1]).after]
    # by convoy, on a split coast, and with wings
    winged = replace(variant, wings=True)
    states.append(State(winged, Phase(1905, Season.FALL, PhaseKind.RETREAT),
                        (Unit("France", UnitKind.WING, Location("bur")), Unit("Russia", UnitKind.FLEET, Location("stp", "nc")),
                         Unit("England", UnitKind.ARMY, Location("nwy"))),
                        (("nwy", "England"), ("stp", "Russia")),
                        (Dislodged(Unit("Germany", UnitKind.ARMY, Location("nwy")), "edi", True),),
                        frozenset({"fin"})))
    for state in states:
        assert _round_trip(state) == state, state.phase
        assert state_to_json(_round_trip(state)) == state_to_json(state)


def test_round_trip_of_every_bundled_case_position():
    """Case files list dislodged units in any order; JSON sorts them by location."""
    count = 0
    for case in all_cases():
        state, _, problems = build_position(case, Rules.profile())
        assert not problems
        expected = state.with_(dislodged=tuple(sorted(state.dislodged, key=lambda d: d.unit.location.province)))
        assert _round_trip(state) == expected, case.id
        count += 1
    assert count > 200


def test_state_reader_is_lenient_about_spelling(variant):
    state = state_from_json({
        "variant": "Standard", "phase": "S1901R",
        "units": [{"power": "ENG", "kind": "army", "location": "Edinburgh"},
                  {"power": "russia", "kind": "Fleet", "location": "St. Petersburg (north coast)"},
                  {"power": "French", "kind": "F", "location": "spa(sc)"}],
        "owners": {"England": ["edi", "lon"]},
        "dislodged": [{"power": "Russia", "kind": "F", "location": "nwy", "attacker_origin": "nth"}],
    })
    assert state.phase == Phase(1901, Season.SPRING, PhaseKind.RETREAT)
    assert {str(u) for u in state.units} == {"England: A edi", "Russia: F stp/nc", "France: F spa/sc"}
    assert state.owners == (("edi", "England"), ("lon", "England"))
    assert state.dislodged == (Dislodged(Unit("Russia", UnitKind.FLEET, Location("nwy")), "nth", False),)


def test_state_reader_names_every_bad_field(variant):
    with pytest.raises(JsonFormatError) as info:
        state_from_json({
            "format": FORMAT, "variant": "standard", "phase": {"year": "1901", "season": "Summer", "kind": "Movement"},
            "units": [{"power": "England", "kind": "F", "location": "spa"},
                      {"power": "Franc", "kind": "A", "location": "par"},
                      {"power": "France", "kind": "A", "location": "nth"},
                      {"power": "France", "kind": "W", "location": "bur"},
                      {"power": "Germany", "kind": "A", "location": "xyz"},
                      {"power": "Germany", "kind": "A", "location": "lon"},
                      {"power": "Italy", "kind": "A", "location": "lon"}],
            "owners": {"bur": "France"},
            "dislodged": [{"power": "Italy", "kind": "A", "location": "rom"}],
        }, source="pos.json")
    problems = info.value.problems
    assert isinstance(info.value, dipsat.DipsatError)
    assert problems == [
        "pos.json: $.phase.year: expected a year such as 1901 (1 to 9999), found '1901'",
        "pos.json: $.phase.season: expected 'Spring' or 'Fall', found 'Summer'",
        "pos.json: $.units[0].location: a fleet in Spain must name its coast (expected one of 'spa/nc', 'spa/sc')",
        "pos.json: $.units[1].power: expected a power of standard (Austria, England, France, Germany, Italy, Russia, Turkey), found 'Franc'",
        "pos.json: $.units[2].location: an army cannot stand in North Sea (a sea)",
        "pos.json: $.units[3].kind: wings are not used in this variant (expected 'A' or 'F'; set \"wings\": true to allow them)",
        "pos.json: $.units[4].location: unknown location 'xyz' (expected a province id of the standard map, such as 'lon' or 'stp/nc')",
        "pos.json: $.units[6].location: lon already holds the unit at $.units[5] (expected one unit per province)",
        "pos.json: $.owners.bur: Burgundy is not a supply centre",
    ]


def test_state_reader_rejects_other_formats_and_non_objects():
    with pytest.raises(JsonFormatError, match=r"\$\.format: unsupported format 'dipsat/9'"):
        state_from_json({"format": "dipsat/9"})
    with pytest.raises(JsonFormatError, match=r"\$: expected a JSON object"):
        state_from_json([1, 2])
    with pytest.raises(JsonFormatError, match=r"\$\.dislodged: dislodged units only exist in a retreat phase"):
        state_from_json({"variant": "standard", "phase": "S1901M", "units": [],
                         "dislodged": [{"power": "Italy", "kind": "A", "location": "rom"}]})


def test_dipsat_1_documents_are_still_read_as_they_were():
    """dipsat/2 changed only how results write units in outcome facts: a dipsat/1 state reads
    to the same position as its dipsat/2 copy."""
    res = run("adjudicate", FIGURES, "--case", "rulebook.fig08", "--format", "json")
    result = json.loads(res.stdout)
    assert result["format"] == FORMAT == "dipsat/2"
    doc = {"format": FORMAT, "type": "state", **result["before"]}
    old, _ = position_from_json({**doc, "format": "dipsat/1"})
    new, _ = position_from_json(doc)
    assert old == new


def test_position_from_result_document_is_its_new_state():
    res = run("adjudicate", FIGURES, "--case", "rulebook.fig08", "--format", "json")
    state, orders = position_from_json(json.loads(res.stdout))
    assert orders is None and state.phase.kind is PhaseKind.RETREAT


# --- the command line -----------------------------------------------------------------------


def test_orders_from_stdin_on_the_initial_position():
    res = run("adjudicate", "--initial", "-", "--format", "json",
              input="England: F lon - nth\nFrance: A par - bur\nGermany: A mun - bur\n")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    units = {(u["power"], u["kind"], u["location"]) for u in doc["after"]["units"]}
    assert ("England", "F", "nth") in units and ("France", "A", "par") in units and ("Germany", "A", "mun") in units
    assert [o["result"] for o in doc["orders"]] == ["succeeds", "bounced", "bounced"]
    assert doc["next_phase"]["season"] == "Fall"


def test_position_json_with_orders_on_stdin(tmp_path):
    fig08, _ = case_state(FIGURES, "rulebook.fig08")
    path = tmp_path / "fig08.json"
    path.write_text(json.dumps(state_to_json(fig08)))
    res = run("adjudicate", str(path), "-", input="France: A mar - bur\nFrance: A gas S A mar - bur\n")
    assert res.exit_code == 0 and res.stderr == ""
    assert "retreats: bel, mun, par, pic, ruh" in res.stdout


def test_garbled_order_line_is_reported_and_the_rest_adjudicated(tmp_path):
    orders = tmp_path / "orders.txt"
    orders.write_text("France: A mar - bur\nFrance: A gas supprots A mar - bur\n\n# a comment\n"
                      "France: A gas S A mar - bur\nGermany A bur ->\n")
    res = run("adjudicate", FIGURES, str(orders), "--case", "rulebook.fig08")
    assert res.exit_code == 0
    errors = res.stderr.splitlines()
    assert len(errors) == 2
    assert errors[0].startswith(f"{orders}:2: ") and "supprots" in errors[0] and errors[0].endswith("(order skipped)")
    assert errors[1].startswith(f"{orders}:6: ")
    assert "Germany  A bur     attacked from mar; retreats: bel, mun, par, pic, ruh" in res.stdout


def test_garbled_line_in_case_orders_block_names_the_case_file_line(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text("VARIANT_ALL Standard\nCASE x\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n"
                    "\tFrance: A mar\n\tGermany: A bur\nORDERS\n\tFrance: A mar - xyz\n\tGermany: A bur - mun\nEND\n")
    res = run("adjudicate", str(path))
    assert res.exit_code == 0
    assert res.stderr.splitlines()[0].startswith(f"{path}:8: ")
    assert "A bur - mun" in res.stdout and "Germany  A mun" in res.stdout


def test_malformed_json_position_exits_2_with_one_line(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "dipsat/1",\n "variant": "standard"\n "units": []}')
    res = run("adjudicate", str(path))
    assert res.exit_code == 2
    assert res.stdout == ""
    assert res.stderr.splitlines() == [f"{path}:3:2: not valid JSON: Expecting ',' delimiter"]


def test_bad_json_state_exits_2_naming_each_field(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"variant": "standard", "phase": "S1901M",
                                "units": [{"power": "England", "kind": "A", "location": "nth"},
                                          {"power": "England", "kind": "F", "location": "lon"}]}))
    res = run("adjudicate", str(path))
    assert res.exit_code == 2
    assert res.stderr.splitlines() == [f"{path}: $.units[0].location: an army cannot stand in North Sea (a sea)"]


def test_unreadable_position_and_unknown_case_exit_2(tmp_path):
    res = run("adjudicate", str(tmp_path / "missing.txt"))
    assert res.exit_code == 2
    assert res.stderr.splitlines() == [f"{tmp_path / 'missing.txt'}: cannot read: No such file or directory"]
    res = run("adjudicate", FIGURES, "--case", "rulebook.fig99")
    assert res.exit_code == 2 and len(res.stderr.splitlines()) == 1 and "no case 'rulebook.fig99'" in res.stderr


def test_rules_options():
    res = run("adjudicate", FIGURES, "--case", "rulebook.fig08", "--rules", "2023", "--rule", "4.A.5=a")
    assert res.exit_code == 0
    assert res.stdout.splitlines()[0] == "rulebook.fig08: Spring 1901, Movement (rules 2023 4.A.5=a)"
    res = run("adjudicate", FIGURES, "--case", "rulebook.fig08", "--rule", "4.A.5=nonsense")
    assert res.exit_code == 2 and res.stderr.startswith("rules: ")


def test_output_is_byte_identical_across_runs():
    for fmt in ("text", "json", "case"):
        first = run("adjudicate", GAME, "--case", "rulebook.game.F1902M", "--format", fmt)
        second = run("adjudicate", GAME, "--case", "rulebook.game.F1902M", "--format", fmt)
        assert first.exit_code == 0
        assert first.stdout_bytes == second.stdout_bytes


def test_output_is_byte_identical_across_processes():
    """Different hash seeds (set and dict iteration) must not change a byte."""
    args = [sys.executable, "-m", "dipsat.cli", "adjudicate", str(CASES / "datc" / "6c_circular.txt"),
            "--case", "6.C.1", "--format", "json"]
    outputs = [subprocess.run(args, capture_output=True, check=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
               for seed in ("1", "2")]
    assert outputs[0] == outputs[1]
    assert json.loads(outputs[0])["solver"]["backup_rules"]  # a circular movement: the interesting path


def test_json_output_does_not_depend_on_the_order_orders_are_given_in(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    lines = ["France: A mar - bur", "France: A gas S A mar - bur", "Germany: A bur H"]
    a.write_text("\n".join(lines))
    b.write_text("\n".join(reversed(lines)))
    docs = [json.loads(run("adjudicate", FIGURES, str(p), "--case", "rulebook.fig08", "--format", "json").stdout)
            for p in (a, b)]
    for doc in docs:
        for entry in doc["orders"]:
            del entry["index"]
    assert docs[0] == docs[1]


@pytest.mark.parametrize("source, case_id, orders", [
    (FIGURES, "rulebook.fig08", None),  # movement with a dislodged unit
    (GAME, "rulebook.game.F1901M", None),  # fall movement, centres change
    (GAME, "rulebook.game.W1901A", None),  # builds
    (RETREATS, "6.H.2.retreat", None),  # retreat phase: bounced retreats
])
def test_case_output_passes_dipsat_cases(tmp_path, source, case_id, orders):
    res = run("adjudicate", source, "--case", case_id, "--format", "case")
    assert res.exit_code == 0
    path = tmp_path / "out.txt"
    path.write_text(res.stdout)
    assert f"CASE {case_id}\n" in res.stdout and "POSTSTATE\n" in res.stdout
    check = run("cases", str(path))
    assert check.exit_code == 0, check.output + res.stdout
    assert check.stdout.splitlines() == [f"PASS {case_id}", "1 passed, 0 failed"]


def test_case_output_of_a_retreat_phase_keeps_origins_and_standoffs(tmp_path):
    """A chained retreat phase: the case must carry the attacker's origin and the standoff
    (as PRESTATE_RESULTS) so that `dipsat cases` forbids the same retreats."""
    movement = run("adjudicate", RETREATS, "--case", "6.H.6", "--format", "json")
    result = tmp_path / "h6.json"
    result.write_text(movement.stdout)
    doc = json.loads(movement.stdout)
    assert doc["after"]["standoffs"] == ["boh"]
    (dislodged,) = doc["after"]["dislodged"]
    unit = f"{dislodged['power']}: {dislodged['kind']} {dislodged['location']}"
    for target in ["boh", dislodged["attacker_origin"], doc["dislodged"][0]["retreat_options"][0]]:
        res = run("adjudicate", str(result), "-", "--format", "case", input=f"{unit} R {target}\n")
        assert res.exit_code == 0, res.stderr
        assert "PRESTATE_RESULTS" in res.stdout
        path = tmp_path / f"retreat_{target}.txt"
        path.write_text(res.stdout)
        assert run("cases", str(path)).exit_code == 0, res.stdout
    moved = run("adjudicate", str(result), "-", "--format", "json", input=f"{unit} R boh\n")
    (order,) = json.loads(moved.stdout)["orders"]
    assert order["reason"] == "illegal"


def test_existing_commands_still_work():
    res = run("cases", FIGURES)
    assert res.exit_code == 0 and res.stdout.splitlines()[-1] == "29 passed, 0 failed"
    assert run("rules").exit_code == 0


def test_initial_with_no_orders_holds_everything():
    res = run("adjudicate", "--initial")
    assert res.exit_code == 0
    assert "Orders: none (every unit holds)" in res.stdout
    assert res.stdout.splitlines()[-1] == "Next phase: Fall 1901, Movement"


def _bundled_cases():
    for case in all_cases():
        yield pytest.param(case.source, case.id, id=case.id)


@pytest.mark.parametrize("source, case_id", list(_bundled_cases()))
def test_every_bundled_case_through_adjudicate(tmp_path, source, case_id):
    """Text fits 80 columns, JSON reads back, and the case output passes `dipsat cases`."""
    text = run("adjudicate", source, "--case", case_id)
    assert text.exit_code == 0 and text.stderr == ""
    assert all(len(line) <= 80 for line in text.stdout.splitlines())
    doc = json.loads(run("adjudicate", source, "--case", case_id, "--format", "json").stdout)
    assert state_to_json(state_from_json(doc["after"]))["units"] == doc["after"]["units"]
    path = tmp_path / "case.txt"
    path.write_text(run("adjudicate", source, "--case", case_id, "--format", "case").stdout)
    check = run("cases", str(path))
    assert check.exit_code == 0, check.stdout


@pytest.mark.parametrize("text, message", [
    ("[" * 5000, "pos.json: cannot read this JSON: arrays or objects nested too deeply"),
    ('{"variant": "standard", "phase": "S1901M", "units": [], "x": ' + "9" * 5000 + "}",
     "pos.json: cannot read this JSON: a number with more than 4300 digits"),
    ('{"variant": "' + "x" * 300 + '", "phase": "S1901M", "units": []}',
     "pos.json: $.variant: expected the name of a bundled variant (modern, standard), found 'xxxxxxxx"),
    ('{"variant": "/etc/hostname", "phase": "S1901M", "units": []}', "pos.json: $.variant: expected the name"),
    ('{"variant": "standard", "phase": {"year": ' + "9" * 4000 + ', "season": "Spring", "kind": "Movement"}, '
     '"units": []}', "pos.json: $.phase.year: expected a year such as 1901 (1 to 9999)"),
])
def test_unreadable_json_states_are_one_clear_error(tmp_path, monkeypatch, text, message):
    """Issue 12 item 8: tracebacks (RecursionError, integer conversion, 'File name too long')."""
    monkeypatch.chdir(tmp_path)
    Path("pos.json").write_text(text)
    out = run("adjudicate", "pos.json", "-", input="")
    assert out.exit_code == 2 and isinstance(out.exception, SystemExit)
    assert out.output.startswith(message)


@pytest.mark.parametrize("text, message", [
    ("[" * 5000, "g.json: cannot read this JSON: arrays or objects nested too deeply; expected a godip history"),
    ('{"id": ' + "9" * 5000 + "}", "g.json: cannot read this JSON: a number with more than 4300 digits;"),
])
def test_unreadable_json_of_a_recorded_game_is_one_clear_error(tmp_path, monkeypatch, text, message):
    """Found by scripts/fuzz.py: adjudicate GAME --phase gave a traceback."""
    monkeypatch.chdir(tmp_path)
    Path("g.json").write_text(text)
    out = run("adjudicate", "g.json", "--phase", "S1901M")
    assert out.exit_code == 2 and isinstance(out.exception, SystemExit)
    assert out.output.startswith(message)


SILENCED = """VARIANT_ALL Standard
CASE silenced.circle A circular movement beside a neutral power's order
PLAYERS 6
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
    Turkey: F ank
    Turkey: A con
    Turkey: A smy
    Italy: A ven
ORDERS
    Turkey: F ank - con
    Turkey: A con - smy
    Turkey: A smy - ank
{italy}END
"""


def test_explain_and_all_work_the_same_when_a_power_is_silenced(tmp_path):
    """Italy is neutral in the six-player game: its order is illegal (silenced), and
    --explain and --all still read the whole solved model, as without that order."""
    with_order, without = tmp_path / "with.txt", tmp_path / "without.txt"
    with_order.write_text(SILENCED.format(italy="    Italy: A ven - tri\n"), encoding="utf-8")
    without.write_text(SILENCED.format(italy=""), encoding="utf-8")
    outputs = []
    for path in (with_order, without):
        res = run("adjudicate", str(path), "--explain", "--all")
        assert res.exit_code == 0, res.output
        outputs.append(res.stdout)
    silenced, plain = outputs
    assert "Italy is neutral in the 6-player game" in silenced
    for text in (silenced, plain):
        assert "circular movement (DATC 5.B.9): every move in the cycle succeeds" in text
        assert "Consistent resolutions: 2" in text and "<- taken" in text
    explanations = lambda text: [line for line in text[text.index("Explanations:"):].splitlines()
                                 if "Italy" not in line and "illegal" not in line]
    assert explanations(silenced)[:12] == explanations(plain)[:12]


def test_json_explains_civil_disorder_and_counts_adjustments():
    """DATC 6.J.10: the text's explanation of a civil-disorder removal is in the JSON too,
    and each adjusting power's count (`France: 4 centres, 5 units: 1 removal`) is data."""
    text = run("adjudicate", str(CASES), "--case", "6.J.10", "--explain").output
    data = json.loads(run("adjudicate", str(CASES), "--case", "6.J.10", "--explain", "--format", "json").output)
    assert data["adjustments"] == [{"power": "Italy", "centres": 1, "units": 2, "builds": 0, "removals": 1}]
    assert "Italy: 1 centre, 2 units: 1 removal" in text
    removed = [e for e in data["explanations"] if e["order"] is None]
    assert [e["removed"] for e in removed] == [unit_doc("Italy: A pie")]
    for fact in removed[0]["facts"]:
        assert " ".join(fact.split()) in " ".join(text.split())
    assert removed[0]["facts"][0].startswith("distance 3 (DATC 4.D.8")


def test_a_whole_recorded_game_as_position_asks_for_a_phase(tmp_path):
    """A saved game, a game file, a .jsonl(.gz) or a godip history given as POSITION without
    --phase: one line saying what to do (before: 2,000 lines of a gzip file read as a case file)."""
    game = tmp_path / "g.json"
    run("game", "new", str(game))
    godip = tmp_path / "game_1.txt"
    godip.write_text("PHASE 1901 Spring Movement\nPOSITIONS\nEngland: fleet lon\nORDERS\n", encoding="utf-8")
    for path in (game, CASES / "corpus" / "random_games.jsonl.gz", godip):
        res = run("adjudicate", str(path))
        assert res.exit_code == 2
        assert res.stderr.splitlines() == [f"{path}: a recorded game, not a position: give a phase with dipsat "
                                           "adjudicate --phase (e.g. S1901M), or judge every phase with dipsat validate"]
    res = run("adjudicate", str(game), "--phase", "S1901M")
    assert res.exit_code == 0


def test_a_support_against_its_own_unit_is_not_counted_in_the_attack_either():
    """DATC 6.D.10: A mun S F kie - ber against the German A ber. The support outcome says it
    does not count against A ber; the attack's strength says the same (not counted, why),
    and a move into its own unit keeps others out with its prevent strength (rulebook figure 26)."""
    data = json.loads(run("adjudicate", str(CASES), "--case", "6.D.10", "--format", "json").output)
    by_order = {o["order"]: o["outcome"] for o in data["orders"]}
    attack = by_order["Germany: F kie - ber"]["attack"]
    assert attack["value"] == 0 and attack["supports"] == []
    assert attack["not_counted"] == [{"unit": unit_doc("Germany: A mun"), "why": "against own unit", "by": []}]
    assert "keeps_out" not in by_order["Germany: F kie - ber"]  # no other move into ber: nothing to keep out
    fig26 = json.loads(run("adjudicate", str(CASES), "--case", "rulebook.fig26", "--format", "json").output)
    nth = next(o["outcome"] for o in fig26["orders"] if o["order"] == "England: F nth - den")
    assert nth["attack"]["value"] == 0 and nth["keeps_out"]["value"] == 2
    assert nth["keeps_out"]["supports"] == [unit_doc("England: F hel")]
    support = by_order["Germany: A mun S F kie - ber"]
    assert support["kind"] == "given" and support["supported"] == "Germany: F kie - ber"
    assert support["not_counted_against"] == unit_doc("Germany: A ber")
    assert by_order["Germany: A ber H"]["hold"]["value"] == 1


# --- --case in a folder ------------------------------------------------------------------
# Only the files whose text holds the id are parsed (issue 22: a DATC case as a process); the
# file found is still the first, in order, whose cases hold it, and the error still names the
# ids of every file.
def _folder_case(case_id: str, title: str) -> str:
    return (f"CASE {case_id} {title}\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n\tEngland: F lon\n"
            f"ORDERS\n\tEngland: F lon - nth\nEND\n")


def test_a_case_is_found_in_the_first_file_that_holds_it_not_one_that_mentions_it(tmp_path):
    (tmp_path / "a.txt").write_text("# x.1 is in b.txt, and also in c.txt\n" + _folder_case("x.10", "ten"))
    (tmp_path / "b.txt").write_text(_folder_case("X.1", "one in b"))
    (tmp_path / "c.txt").write_text(_folder_case("x.1", "one in c"))
    assert run("adjudicate", str(tmp_path), "--case", "x.1").output.startswith("Case X.1: one in b\n")
    assert run("adjudicate", str(tmp_path), "--case", "x.10").output.startswith("Case x.10: ten\n")
    missing = run("adjudicate", str(tmp_path), "--case", "x.2")
    assert missing.exit_code == 2
    assert missing.output == f"{tmp_path}: no case 'x.2' in its case files (did you mean x.1?)\n"
    assert run("adjudicate", str(tmp_path), "--case", "X.10").output.startswith("Case x.10: ten\n")
