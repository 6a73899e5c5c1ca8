"""`dipsat validate` on real archives' formats: records without per-order results
(webDiplomacy exports in the `diplomacy` package's JSON), Droidippy/godip histories, the
rules a record follows inferred once per game, the terminal report, case files.

Every record here is our own: a short game played with dipsat itself and written out
in both formats, and small hand-made records.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from dipsat.runners.cases import load_cases, run_case
from dipsat.formats.diplomacy_json import read_game, write_game
from dipsat.formats.godip import write_godip_game
from dipsat.game import new_game
from dipsat.notation import parse_orders
from dipsat.runners.recorded import game_record
from dipsat.rules import Rules
from dipsat.runners.validate import (AGREED, DISAGREED, FINAL, POSITIONS, REJECTED, RULE_DIFFERENCE, validate_game,
                             validate_recorded)

from .conftest import CASES, run
from .test_validate import fallback_game, fallback_twice

RULES = Rules.profile()

TURNS = [
    """England: F lon - nth
England: A lvp - yor
England: F edi - nwg
France: A par - bur
France: A mar S A par - bur
Germany: A mun - bur
Russia: A mos - ukr
Russia: F sev - bla
Turkey: F ank - bla
Austria: A vie - gal
Russia: A war - gal""",
    """England: F nth C A yor - nwy
England: A yor - nwy via convoy
France: A bur - mun
France: F bre - pic
Germany: A ber - kie
Austria: A bud - ser
Turkey: A con - bul
Italy: F nap - ion""",
    """England: Build F lon
France: Build A par
Austria: Build A bud
Turkey: Build F con""",
]


@pytest.fixture(scope="module")
def played():
    game = new_game("standard")
    for text in TURNS:
        orders, errors = parse_orders(text, game.state.variant, game.state.phase.kind)
        assert not errors
        game.play(orders)
    return game


@pytest.fixture()
def record(played) -> dict:
    """The played game as a saved game of the `diplomacy` package without results."""
    return write_game(game_record(played))


def _units(record: dict, phase: str) -> dict[str, list[str]]:
    return next(p for p in record["phases"] if p["name"] == phase)["state"]["units"]


# --- records without results ---------------------------------------------------------------------

def test_a_record_without_results_is_judged_on_positions(record: dict) -> None:
    assert all(p["results"] == {} for p in record["phases"])
    assert all(not p.results_recorded for p in read_game(record).phases)
    report = validate_game(record, RULES, "own.json")
    assert [p.status for p in report.phases] == [AGREED] * (len(report.phases) - 1) + [FINAL]
    assert all(p.basis == POSITIONS for p in report.phases)
    line = report.record_line()
    assert line["positions_only"] == {"adjustment": 1, "movement": 2} and line["inferred_rules"] == ""


def test_a_position_that_differs_is_a_disagreement_not_a_rejection(record: dict) -> None:
    # as if Russia's A war - gal had won the standoff with Austria's A vie - gal, from then on
    for phase in record["phases"][1:]:
        units = phase["state"]["units"]
        units["RUSSIA"] = ["A GAL" if u == "A WAR" else u for u in units["RUSSIA"]]
    report = validate_game(record, RULES)
    first = report.phases[0]
    assert first.status == DISAGREED and first.board_differs
    assert {(d.what, d.subject, d.recorded, d.ours) for d in first.differences} == {
        ("unit", "RUSSIA A GAL", "present", "absent"), ("unit", "RUSSIA A WAR", "absent", "present")}
    assert all(d.what != "order" for d in first.differences)  # no result code is invented
    assert [p.status for p in report.phases[1:]] == [AGREED, AGREED, FINAL]  # judged from the record's position


def test_a_record_that_contradicts_itself_is_judged(record: dict) -> None:
    _units(record, "F1901M")["ITALY"].append("A BOH")  # from nowhere: no unit stood or moved there
    report = validate_game(record, RULES)
    first = report.phases[0]  # the phase whose outcome is wrong disagrees, naming the unit
    assert first.status == DISAGREED and ("unit", "ITALY A BOH", "present", "absent") in [
        (d.what, d.subject, d.recorded, d.ours) for d in first.differences]
    assert "found Italy A BOH: no unit stood or was ordered there" in first.note
    assert report.phases[1].status != REJECTED  # judged from its own position


def test_a_dislodged_unit_without_a_retreat_listed_by_the_record() -> None:
    """webDiplomacy keeps a dislodged unit that cannot retreat in a retreat phase, with no
    retreat options ([]); dipsat disbands it at once and skips that phase: the same outcome.
    Its attacker is found from the positions (the unit that now stands in its province)."""
    import dipsat
    variant = dipsat.load_variant("standard")
    start = variant.initial_state()
    units = [dipsat.Unit("Italy", dipsat.UnitKind.ARMY, dipsat.Location(p)) for p in ("ven", "pie", "tus", "rom", "apu")]
    units += [dipsat.Unit("Austria", dipsat.UnitKind.ARMY, dipsat.Location(p)) for p in ("tyr", "tri")]
    state = start.with_(units=tuple(units))
    orders, _ = parse_orders("Austria: A tyr - ven\nAustria: A tri S A tyr - ven", variant)
    result = dipsat.adjudicate(state, orders)
    assert not result.after.dislodged and len(result.dislodgements) == 1  # no retreat: disbanded at once

    def phase(name: str, units: list, dislodged: tuple = (), orders: dict | None = None, retreats=None) -> dict:
        table: dict[str, list[str]] = {}
        for u in units:
            table.setdefault(u.power.upper(), []).append(f"{u.kind} {str(u.location).upper()}")
        for u in dislodged:
            table.setdefault(u.power.upper(), []).append(f"*{u.kind} {str(u.location).upper()}")
        centres: dict[str, list[str]] = {}
        for c, p in start.owners:
            centres.setdefault(p.upper(), []).append(c.upper())
        return {"name": name, "state": {"name": name, "units": table, "centers": centres,
                                        "retreats": retreats or {}}, "orders": orders or {}, "results": {}}

    gone = result.dislodgements[0].unit
    record = {"id": "no-retreat", "map": "standard", "phases": [
        phase("S1901M", units, orders={"AUSTRIA": ["A TYR - VEN", "A TRI S A TYR - VEN"]}),
        phase("S1901R", list(result.after.units), (gone,), retreats={"ITALY": {"A VEN": []}}),
        phase("F1901M", list(result.after.units))]}
    report = validate_game(record, RULES)
    assert [p.status for p in report.phases] == [AGREED, AGREED, FINAL], [(p.name, p.differences, p.reason)
                                                                          for p in report.phases]
    retreat = read_game(record).phases[1]
    assert retreat.state is not None and retreat.state.dislodged[0].attacker_origin is None  # not in the record


# --- rules inferred once per game ---------------------------------------------------------------

def test_the_rules_a_record_follows_are_inferred() -> None:
    """A record without results where an army ordered VIA to an adjacent province, with
    no fleet to convoy it, goes by land, twice. Without per-order results the record is taken
    for a webDiplomacy export, whose reading is judged by: 4.A.3=via (intent and fallback
    explain it as well, and are named)."""
    record = fallback_twice()
    for phase in record["phases"]:
        phase["results"] = {}
    report = validate_game(record, RULES)
    first = report.phases[0]
    assert first.status == RULE_DIFFERENCE and first.rule == "4.A.3=via" and first.basis == POSITIONS
    assert {"4.A.3=intent", "4.A.3=fallback"} <= set(first.rule_options)
    assert report.inferred == "4.A.3=via" and report.record_line()["inferred_rules"] == "4.A.3=via"
    assert [p[0] for p in report.record_line()["evidence"]["4.A.3"]] == ["S1901M", "F1901M"]
    # judged under the reading it follows, it simply agrees
    again = validate_game(record, Rules.profile("2000", {"4.A.3": "fallback"}))
    assert again.phases[0].status == AGREED and again.inferred == ""


def test_an_option_that_breaks_other_phases_is_not_inferred() -> None:
    """One phase follows the land fallback, another (also touching 4.A.3) the DATC v3.0
    reading: the option would fix one and break the other, so the record is not said to
    follow it and the first phase stays a disagreement, with a note."""
    record = fallback_game()
    spring, fall = record["phases"]
    for phase in (spring, fall):
        phase["results"] = {}
    second = copy.deepcopy(fall)
    second["name"] = second["state"]["name"] = "W1901A"
    fall["orders"] = {"ENGLAND": ["A EDI - LVP VIA"]}  # no convoy; the record keeps the army in Edinburgh
    record["phases"].append(second)
    report = validate_game(record, RULES)
    statuses = [p.status for p in report.phases]
    assert report.inferred == "" and statuses[:2] == [DISAGREED, AGREED]
    assert "4.A.3=via" in report.phases[0].note and "would agree under" in report.phases[0].note


# --- the command ------------------------------------------------------------------------------------

def test_godip_histories_and_the_terminal_report(tmp_path: Path, played) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "game_1.txt").write_text(write_godip_game(game_record(played)), encoding="utf-8")
    bad = write_godip_game(game_record(played)).replace("England: fleet nth\n", "England: fleet lon\n", 1)
    (folder / "game_2.txt").write_text(bad, encoding="utf-8")
    cases = tmp_path / "cases"
    result = run("validate", str(folder), "--workers", "1", "--show", "1", "--write-cases", str(cases))
    assert result.exit_code == 1, result.output
    out = result.output.splitlines()
    assert "2 records read" in out[0]
    assert out[1].split() == ["kind", "phases", "agreed", "board", "codes", "rule", "diff", "rejected", "gap",
                              "final"]
    total = next(line for line in out if line.startswith("total")).split()
    # game_2: S1901M shows F lon where F nth should be (board differs); F1901M is judged from
    # that position, and W1901A has F nth again from nowhere (F1901M's board differs too)
    assert total[1:] == ["8", "4", "2", "0", "0", "0", "0", "2"]
    assert any("judged on positions only (the record has no per-order results): 6 phases" in line for line in out)
    first = out.index(next(line for line in out if line.startswith("first disagreements")))
    assert "(1 of 2;" in out[first] and out[first + 1].startswith("  game_2 S1901M: unit ENGLAND F LON: record present")
    written = sorted(p.name for p in cases.iterdir())
    assert written == ["game_2.F1901M.txt", "game_2.S1901M.txt"]
    loaded, errors = load_cases(cases / written[1])
    assert not errors and [c.id for c in loaded] == ["game_2.S1901M", "game_2.S1901M.min"]
    for case in loaded:  # the record's outcome as POSTSTATE: dipsat disagrees, as it said; the minimal case too
        ran = run_case(case)
        assert ran.status == "FAIL" and any("F lon" in p for p in ran.problems)


def test_summary_as_json(tmp_path: Path) -> None:
    record = fallback_twice()
    for phase in record["phases"]:
        phase["results"] = {}
    (tmp_path / "g.json").write_text(json.dumps(record), encoding="utf-8")
    result = run("validate", str(tmp_path / "g.json"), "--summary", "json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["phases"]["total"] == {"phases": 3, "agreed": 0, "board": 0, "codes": 0, "rule diff": 2,
                                          "rejected": 0, "gap": 0, "final": 1}
    assert summary["inferred_rules"] == {"4.A.3=via": 1} and summary["rule_differences"] == {"4.A.3=via": 2}
    assert summary["readings"][0].startswith("4.A.3=")
    text = summary["readings"][0]  # every option that fits is named, the one judged by first
    assert text.startswith("4.A.3=via or ") and "4.A.3=intent" in text
    assert text.endswith(": 2 phases agree only under it, none contradicts it")
    assert summary["positions_only"] == 2 and summary["records"] == 1


def test_case_files_are_judged_under_the_rules_asked_for(tmp_path: Path) -> None:
    """A case written for 4.C.1 a passes under its own RULES line; asked to judge it under
    4.C.1 a, validate does so (like `dipsat cases --rules`): the issue is pinned, so the
    case is a disagreement, whose note names the reading that would reproduce it."""
    text = (CASES / "options" / "chapter4.txt").read_text(encoding="utf-8")
    start = text.index("CASE options.4.C.1=b")
    case = "VARIANT_ALL Standard\n" + text[start:text.index("END", start) + 3] + "\n"
    (tmp_path / "c.txt").write_text(case, encoding="utf-8")
    assert run("validate", str(tmp_path / "c.txt")).exit_code == 0
    report = tmp_path.parent / f"{tmp_path.name}-report.jsonl"
    result = run("validate", str(tmp_path / "c.txt"), "--rule", "4.C.1=a", "--report", str(report))
    assert "rules 2000 4.C.1=a" in result.output.splitlines()[0]
    line = json.loads(report.read_text(encoding="utf-8").splitlines()[0])
    assert result.exit_code == 1 and line["type"] == DISAGREED and "would agree under 4.C.1=b" in line["note"], line


def test_recorded_game_api_matches_the_json_entry_point(record: dict) -> None:
    assert validate_recorded(read_game(record), RULES, "x").record_line() == validate_game(record, RULES, "x").record_line()
