"""`dipsat validate`: recorded games of the `diplomacy` package, judged phase by phase."""

from __future__ import annotations

import copy
import gzip
import json
import re
from pathlib import Path

import pytest

import dipsat
from dipsat.formats.diplomacy_json import RecordError, parse_phase_name, read_game
from dipsat.rules import Rules
from dipsat.runners.validate import (AGREED, DISAGREED, FINAL, REJECTED, RULE_DIFFERENCE, validate_game,
                             validate_text)

from .conftest import CASES, all_cases, run

CORPUS = CASES / "corpus" / "random_games.jsonl.gz"
AGREEING = ("random-2024-003", "random-2024-004", "random-2024-014")  # every phase agrees
RULES = Rules.profile()


@pytest.fixture(scope="module")
def corpus() -> dict[str, dict]:
    games = {}
    with gzip.open(CORPUS, "rt", encoding="utf-8") as handle:
        for n, line in enumerate(handle):
            if n > 20:
                break
            record = json.loads(line)
            games[record["id"]] = record
    return games


# --- hand-made records ---------------------------------------------------------------------

def _units(state: dipsat.State) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {p.name.upper(): [] for p in state.variant.powers}
    for u in state.units:
        out[u.power.upper()].append(f"{u.kind} {str(u.location).upper()}")
    return out


def _centres(state: dipsat.State) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {p.name.upper(): [] for p in state.variant.powers}
    for centre, power in state.owners:
        out[power.upper()].append(centre.upper())
    return out


def _phase(name: str, units: dict, centres: dict, orders: dict | None = None, results: dict | None = None) -> dict:
    return {"name": name, "state": {"name": name, "units": units, "centers": centres,
                                    "retreats": {p: {} for p in units}},
            "orders": orders or {}, "results": results or {}}


def fallback_game() -> dict:
    """S1901M: England orders A LVP - EDI VIA with no fleet convoying. The package takes
    the land route (the army arrives, as the fleet leaves Edinburgh); DATC v3.0 (and
    dipsat's 2000 profile) keeps it in Liverpool, the order illegal (4.E.1: no fleet at sea could
    ever convoy it): the DATC v2.x reading, 4.A.3=intent
    (4.A.3=fallback gives the same here)."""
    variant = dipsat.load_variant("standard")
    start = variant.initial_state()
    units, centres = _units(start), _centres(start)
    after = copy.deepcopy(units)
    after["ENGLAND"] = ["F NTH", "F LON", "A EDI"]
    results = {u: [] for us in units.values() for u in us}
    orders = {"ENGLAND": ["F EDI - NTH", "A LVP - EDI VIA", "F LON H"]}
    return {"id": "hand-fallback", "map": "standard", "rules": [],
            "phases": [_phase("S1901M", units, centres, orders, results), _phase("F1901M", after, centres)]}


def fallback_twice() -> dict:
    """:func:`fallback_game` with the army going back the same way in the fall (A EDI - LVP
    VIA, no fleet convoying, the record has it in Liverpool): two phases that agree only under
    the DATC v2.x readings of 4.A.3, enough for them to be inferred (one phase is not)."""
    record = fallback_game()
    spring, fall = record["phases"]
    fall["orders"] = {"ENGLAND": ["A EDI - LVP VIA"]}
    fall["results"] = {u: [] for us in fall["state"]["units"].values() for u in us}
    after = copy.deepcopy(fall["state"]["units"])
    after["ENGLAND"] = ["F NTH", "F LON", "A LVP"]
    record["phases"].append(_phase("S1902M", after, copy.deepcopy(fall["state"]["centers"])))
    return record


# --- agreement ----------------------------------------------------------------------------------

@pytest.mark.parametrize("game_id", AGREEING)
def test_corpus_games_agree(corpus: dict, game_id: str) -> None:
    report = validate_game(corpus[game_id], RULES, game_id)
    assert report.error is None
    statuses = {p.status for p in report.phases}
    assert statuses <= {AGREED, FINAL}, [(p.name, p.status, p.differences) for p in report.phases]
    assert sum(p.status == AGREED for p in report.phases) == len(report.phases) - 1
    assert report.phases[-1].status == FINAL and [line["type"] for line in report.report_lines()] == ["record"]


def test_every_phase_is_counted_once(corpus: dict) -> None:
    record = corpus["random-2024-000"]
    report = validate_game(record, RULES)
    assert [p.name for p in report.phases] == [p["name"] for p in record["phases"]]


def test_reader_builds_states_orders_and_results(corpus: dict) -> None:
    game = read_game(corpus["random-2024-003"])
    first = game.phases[0]
    assert first.phase == parse_phase_name("S1901M") and first.state is not None
    assert len(first.state.units) == 22 and len(first.state.owners) == 22
    assert all(order.power is not None for order, _ in first.orders)
    assert set(first.results) == {u.province for u in first.state.units}
    retreats = [p for p in game.phases if p.kind is dipsat.PhaseKind.RETREAT]
    assert retreats and all(d.attacker_origin for p in retreats for d in p.state.dislodged)
    assert parse_phase_name("W1901A") == dipsat.Phase(1901, dipsat.Season.FALL, dipsat.PhaseKind.ADJUSTMENT)
    assert parse_phase_name("COMPLETED") is None


def test_package_spelling() -> None:
    record = fallback_game()
    record["phases"][0]["orders"] = {
        "RUSSIA": ["F STP/SC - BOT", "A MOS S A WAR - UKR", "A WAR - UKR", "F SEV H"],
        "ENGLAND": ["F EDI - NTH", "F LON C A LVP - NWY", "A LVP - EDI VIA"],
    }
    orders = {text: order for order, text in read_game(record).phases[0].orders}
    assert orders["F STP/SC - BOT"] == dipsat.Move(dipsat.UnitRef(dipsat.Location("stp", "sc"), dipsat.UnitKind.FLEET),
                                                   dipsat.Location("bot"), False, "Russia")
    assert orders["A LVP - EDI VIA"].via_convoy
    assert isinstance(orders["A MOS S A WAR - UKR"], dipsat.SupportMove)
    assert isinstance(orders["F LON C A LVP - NWY"], dipsat.Convoy)


# --- rule differences ----------------------------------------------------------------------

def test_land_fallback_is_a_rule_difference() -> None:
    report = validate_game(fallback_twice(), RULES)
    first = report.phases[0]
    assert first.status == RULE_DIFFERENCE, first
    assert first.rule == "4.A.3=intent" and "4.A.3" in first.rule_title  # the package's known reading
    assert {"4.A.3=intent", "4.A.3=fallback", "4.A.3=via"} <= set(first.rule_options)  # every option that fits
    assert report.phases[1].status == RULE_DIFFERENCE and report.inferred == "4.A.3=intent"
    # one such phase alone is no evidence of a reading: a disagreement, saying what would reproduce it
    alone = validate_game(fallback_game(), RULES).phases[0]
    assert alone.status == DISAGREED and "would agree under" in alone.note and "4.A.3=intent" in alone.note
    assert any(d.subject == "ENGLAND: A LVP - EDI VIA" and d.recorded == "moves" and d.ours == "void"
               for d in first.differences)  # no fleet at sea: 'via convoy' can never be carried out (4.E.1)
    assert "ENGLAND: A LVP - EDI VIA" in first.explanation
    # under the rule the record follows, the phase simply agrees
    again = validate_game(fallback_game(), Rules.profile("2000", {"4.A.3": "fallback"}))
    assert again.phases[0].status == AGREED


def test_genuine_disagreement() -> None:
    """A record no rule option explains: a one-to-one standoff the record lets France win."""
    record = fallback_game()
    first, second = record["phases"]
    first["orders"] = {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]}
    first["results"]["A MUN"] = ["bounce"]
    second["state"]["units"] = copy.deepcopy(first["state"]["units"])
    second["state"]["units"]["FRANCE"] = ["F BRE", "A MAR", "A BUR"]
    report = validate_game(record, RULES)
    phase = report.phases[0]
    assert phase.status == DISAGREED and phase.rule is None
    assert {(d.what, d.subject, d.recorded, d.ours) for d in phase.differences} >= {
        ("order", "FRANCE: A PAR - BUR", "moves", "bounce"), ("unit", "FRANCE A BUR", "present", "absent")}
    assert set(phase.orders) == {"FRANCE: A PAR - BUR", "GERMANY: A MUN - BUR"}
    line = report.report_lines()[0]
    assert line["type"] == DISAGREED and line["phase"] == "S1901M" and line["game"] == "hand-fallback"


# --- rejected records and phases -------------------------------------------------------------

def test_unknown_province_is_rejected_with_its_name() -> None:
    record = fallback_game()
    record["phases"][0]["orders"]["FRANCE"] = ["A PAR - XYZ"]
    report = validate_game(record, RULES)
    assert report.phases[0].status == REJECTED
    assert "XYZ" in report.phases[0].reason and "S1901M" in report.phases[0].reason
    assert "hand-fallback" in report.phases[0].reason
    with pytest.raises(RecordError):
        raise read_game(record).phases[0].error  # type: ignore[misc]


def test_a_position_contradicting_the_results_is_a_disagreement(corpus: dict) -> None:
    """A unit lost with nobody moving in is what a buggy adjudicator writes: the phase
    that lost it disagrees, naming the unit; the next phase is judged from its own position."""
    record = copy.deepcopy(corpus["random-2024-003"])
    second = record["phases"][1]["state"]["units"]
    power = sorted(p for p in second if second[p])[0]
    lost = second[power].pop(0)  # a unit vanishes between S1901M and F1901M
    report = validate_game(record, RULES)
    first = report.phases[0]
    assert first.status == DISAGREED and first.board_differs
    assert ("unit", f"{power} {lost}", "absent", "present") in [
        (d.what, d.subject, d.recorded, d.ours) for d in first.differences]
    assert "the record contradicts itself: position contradicts the recorded result of S1901M" in first.note
    second = report.phases[1]  # judged from its own position: the record has the unit back in F1901M
    assert second.status == DISAGREED and ("unit", f"{power} {lost}", "present", "absent") in [
        (d.what, d.subject, d.recorded, d.ours) for d in second.differences]
    assert all(p.status in (AGREED, FINAL) for p in report.phases[2:])


def test_not_a_saved_game() -> None:
    for junk in ([], {"phases": "none"}, {"map": "ancmed", "phases": []}):
        report = validate_game(junk, RULES, "junk")  # type: ignore[arg-type]
        assert report.error is not None and report.phases == []
    assert "malformed JSON" in (validate_text('{"id": "x", "phases": [', "x:1", RULES).error or "")


# --- the command -----------------------------------------------------------------------------------

def _write_jsonl(path: Path, lines: list[str]) -> None:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def test_command_counts_a_corrupt_line_and_goes_on(tmp_path: Path, corpus: dict) -> None:
    good = [json.dumps(corpus[g]) for g in AGREEING[:2]]
    _write_jsonl(tmp_path / "games.jsonl", [good[0], good[1][: len(good[1]) // 2], good[1]])
    report = tmp_path / "report.jsonl"
    result = run("validate", str(tmp_path / "games.jsonl"), "--report", str(report))
    assert result.exit_code == 1, result.output
    phases = sum(len(corpus[g]["phases"]) for g in AGREEING[:2])
    total = [line for line in result.output.splitlines() if line.startswith("total")][0].split()
    assert total[1:] == [str(phases), str(phases - 2), "0", "0", "0", "0", "0", "2"]  # board, codes, rule diff, rejected, gap
    assert "3 records read (games, or cases of case files), 1 rejected as a whole" in result.output
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    lines = [line for line in lines if line["type"] not in ("record", "readings")]  # counts, the archive's readings
    assert len(lines) == 1 and lines[0]["type"] == "rejected"
    assert lines[0]["source"].endswith("games.jsonl:2") and "malformed JSON" in lines[0]["reason"]


@pytest.mark.slow
def test_report_is_byte_identical(tmp_path: Path, corpus: dict) -> None:
    games = [json.dumps(fallback_twice())] + [json.dumps(corpus[g]) for g in ("random-2024-000", "random-2024-012")]
    with gzip.open(tmp_path / "games.jsonl.gz", "wt", encoding="utf-8") as handle:
        handle.write("\n".join(games) + "\n")
    outputs = []
    for n in range(2):
        report = tmp_path.parent / f"{tmp_path.name}-report{n}.jsonl"  # not in the input folder
        result = run("validate", str(tmp_path), "--report", str(report))
        assert result.exit_code == 1, result.output  # random-2024-012 has disagreements
        outputs.append((report.read_bytes(), result.output))
    assert outputs[0] == outputs[1]
    kinds = [json.loads(line)["type"] for line in outputs[0][0].decode().splitlines()]
    assert RULE_DIFFERENCE in kinds and DISAGREED in kinds


def test_command_reads_case_files_and_rules(tmp_path: Path) -> None:
    result = run("validate", str(CASES / "peers"))
    assert result.exit_code == 0, result.output
    n = len(all_cases(CASES / "peers"))  # every case a record of one phase, each agreeing
    assert re.search(rf"^total +{n} +{n} +0 +0 +0 +0 +0 +0$", result.output, re.M), result.output
    (tmp_path / "g.json").write_text(json.dumps(fallback_game()), encoding="utf-8")
    result = run("validate", str(tmp_path / "g.json"), "--rule", "4.A.3=fallback")
    assert result.exit_code == 0, result.output
    result = run("validate", str(tmp_path / "g.json"), "--rule", "4.Z.9=x")
    assert result.exit_code != 0


FALLBACK_CASE = """VARIANT_ALL Standard
CASE fallback.1 written for the DATC v2 reading of 4.A.3
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
	England: A lvp
ORDERS
	England: A lvp - edi via convoy
POSTSTATE
	England: A edi
END
"""


SECOND_FALLBACK_CASE = FALLBACK_CASE.replace("fallback.1", "fallback.2").replace("lvp", "bre").replace("edi", "gas")


def test_a_lone_case_that_another_reading_explains_is_a_disagreement(tmp_path: Path) -> None:
    """One phase alone never makes a reading (it may be a bug that happens to match): the
    case is a disagreement, and its note says which options would reproduce it."""
    (tmp_path / "fallback.txt").write_text(FALLBACK_CASE, encoding="utf-8")
    report = tmp_path.parent / f"{tmp_path.name}.jsonl"
    result = run("validate", str(tmp_path), "--report", str(report))
    assert result.exit_code == 1, result.output
    line = json.loads(report.read_text(encoding="utf-8").splitlines()[0])
    assert line["type"] == DISAGREED and line["phase"] == "fallback.1"
    assert "would agree under" in line["note"] and "4.A.3=fallback" in line["note"]


@pytest.mark.slow
def test_case_file_rule_difference(tmp_path: Path) -> None:
    """Two cases that agree only under the same readings, and none that contradicts them:
    the archive follows them, and each case is a rule difference naming every option that fits."""
    (tmp_path / "fallback.txt").write_text(FALLBACK_CASE + SECOND_FALLBACK_CASE.replace("VARIANT_ALL Standard\n", ""),
                                           encoding="utf-8")
    report = tmp_path.parent / f"{tmp_path.name}.jsonl"
    result = run("validate", str(tmp_path), "--report", str(report))
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in report.read_text(encoding="utf-8").splitlines()]
    differences = [x for x in lines if x["type"] == RULE_DIFFERENCE]
    assert [x["phase"] for x in differences] == ["fallback.1", "fallback.2"]
    for line in differences:
        assert line["rule"].startswith("4.A.3=") and "4.A.3=fallback" in line["rule_options"]
        assert "4.A.3=c" not in line["rule_options"]
    (reading,) = lines[-1]["readings"]
    assert reading["issue"] == "4.A.3" and "fallback" in reading["inferred"] and "c" not in reading["inferred"]


def test_corpus_is_not_a_case_file() -> None:
    from dipsat.runners.cases import case_files
    assert CORPUS not in set(case_files([CASES]))
