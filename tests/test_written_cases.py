"""The case files `dipsat validate --write-cases` writes reproduce validate's verdicts under
`dipsat cases`: disagreements (centre ownership and retreat options among them) FAIL, rule
differences PASS under the RULES line naming the inferred options; beside each, a minimal
case that still shows the same difference; the shrinker on its own.

The records are our own (tests/records/written_cases, made by scripts/make_bugged_records.py
from a game dipsat played): a control and copies with one injected adjudicator bug each.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from dipsat.formats.case_comments import parse_retreats_comment
from dipsat.formats.casefile import read_cases, resolve_variant
from dipsat.game import new_game
from dipsat.notation import parse_orders
from dipsat.rules import Rules
from dipsat.runners.cases import load_cases, run_case, run_cases
from dipsat.runners.shrink import Candidate, ddmin, shrink
from dipsat.runners.validate import DISAGREED, RULE_DIFFERENCE, validate_game

from .test_validate import fallback_twice

from .conftest import run

RECORDS = Path(__file__).parent / "records" / "written_cases"


def written(tmp_path: Path, *inputs: Path) -> dict[str, list[tuple[str, list[str]]]]:
    folder = tmp_path / "written"
    result = run("validate", *map(str, inputs), "--workers", "1", "--write-cases", str(folder))
    assert result.exit_code in (0, 1), result.output
    out: dict[str, list[tuple[str, list[str]]]] = {}
    for path in sorted(folder.iterdir()) if folder.exists() else []:
        out[path.name] = list(run_cases([path]))
    return out


def test_injected_ownership_and_retreat_bugs_give_failing_cases_and_minimal_ones(tmp_path: Path) -> None:
    runs = written(tmp_path, RECORDS)
    assert sorted(runs) == ["code_bug.F1901M.txt", "game_2.F1901R.txt", "lost_retreat_option.F1901M.txt",
                            "ownership_bug.F1901R.txt", "removal_not_made.F1901R.txt",
                            "retreat_bug.F1901M.txt"]  # nothing from the controls
    for name, statuses in runs.items():
        assert [s for s, _ in statuses] == ["FAIL", "FAIL"], (name, statuses)
        full, minimal = (lines[1:] for _, lines in statuses)
        assert len(full) == len(minimal) == 1 and full[0].split(":")[0] == minimal[0].split(":")[0]
    assert runs["retreat_bug.F1901M.txt"][0][1][1].strip() == (
        "retreats of France: A bur: expected gas, mar, par, pic, ruh, got gas, mar, par, pic")
    assert runs["lost_retreat_option.F1901M.txt"][1][1][1].strip() == (
        "retreats of France: A bur: expected bel, gas, mar, par, got bel, gas, mar, par, pic")
    for name in ("ownership_bug.F1901R.txt", "game_2.F1901R.txt"):  # the package's format and godip's
        assert runs[name][0][1][1].strip() == "owners: not expected: Germany: hol"
    # the record skips an adjustment phase that had a removal to make: the case is that adjustment phase
    assert [lines[0].split()[1] for _, lines in runs["removal_not_made.F1901R.txt"]] == [
        "removal_not_made.F1901R.adjustment", "removal_not_made.F1901R.adjustment.min"]
    assert all(lines[1:] == ["    board: expected but missing: Russia: F sev"]
               for _, lines in runs["removal_not_made.F1901R.txt"])
    for _, lines in runs["code_bug.F1901M.txt"]:  # only a recorded result code differs: a '# result:' comment
        assert lines[1].strip().startswith("result of Germany: A mun S A ruh - bur: expected fails (bounced) or ")
        assert lines[1].strip().endswith(", got succeeds") and "fails (void)" not in lines[1]


def test_minimal_cases_keep_only_the_units_involved(tmp_path: Path) -> None:
    written(tmp_path, RECORDS)
    cases, errors = load_cases(tmp_path / "written" / "retreat_bug.F1901M.txt")
    assert not errors
    minimal = next(c for c in cases if c.id.endswith(".min"))
    assert [line.text for line in minimal.block("PRESTATE")] == ["France: A bur", "Germany: A mun", "Germany: A ruh"]
    assert [line.text for line in minimal.block("ORDERS")] == ["France: A bur H", "Germany: A ruh - bur",
                                                             "Germany: A mun S A ruh - bur"]
    cases, _ = load_cases(tmp_path / "written" / "ownership_bug.F1901R.txt")
    minimal = next(c for c in cases if c.id.endswith(".min"))
    assert [line.text for line in minimal.block("PRESTATE")] == ["Germany: F hol"]
    assert minimal.block("ORDERS") == [] and minimal.block("PRESTATE_SUPPLYCENTER_OWNERS") == []
    cases, _ = load_cases(tmp_path / "written" / "removal_not_made.F1901R.txt")  # a removal not made: Russia's fleet
    minimal = next(c for c in cases if c.id.endswith(".min"))  # alone, on no centre, is still not removed
    assert [line.text for line in minimal.block("PRESTATE")] == ["Russia: F sev"]


def test_a_record_that_ends_with_results_only_gives_a_case_that_fails_on_them() -> None:
    record = json.loads((RECORDS / "code_bug.json").read_text(encoding="utf-8"))
    record["phases"] = [p for p in record["phases"] if p["name"] in ("S1901M", "F1901M")]  # no position after F1901M
    report = validate_game(record, Rules.profile(), cases=True)
    phase = next(p for p in report.phases if p.name == "F1901M")
    assert phase.status == DISAGREED and "POSTSTATE is dipsat's" in phase.case
    cases, errors = read_cases(io.StringIO(phase.case))
    runs = [run_case(c) for c in cases]
    assert not errors and [r.status for r in runs] == ["FAIL", "FAIL"]
    assert all(r.problems == [runs[0].problems[0]] and r.problems[0].startswith("result of Germany: A mun S A ruh - bur")
               for r in runs)


def test_the_controls_write_nothing(tmp_path: Path) -> None:
    assert written(tmp_path, RECORDS / "control.json", RECORDS / "game_1.txt") == {}


def test_a_rule_difference_passes_under_its_rules_line(tmp_path: Path) -> None:
    record = fallback_twice()  # an army 'VIA' with no convoy ordered goes by land, twice: 4.A.3=intent
    report = validate_game(record, Rules.profile(), cases=True)
    differing = [p for p in report.phases if p.status == RULE_DIFFERENCE]
    assert differing and all(p.case for p in differing)
    for phase in differing:
        cases, errors = read_cases(io.StringIO(phase.case), "<written>")
        assert not errors and len(cases) == 2 and "4.A.3=" in " ".join(cases[0].rules or [])
        assert [run_case(c).status for c in cases] == ["PASS", "PASS"]
        assert [run_case(c, rules=Rules.profile()).status for c in cases] == ["FAIL", "FAIL"]  # the run's own rules


def test_retreat_options_are_a_comment_other_readers_skip() -> None:
    variant = resolve_variant("Standard")
    assert parse_retreats_comment("retreats: bel, spa/nc", variant)[1].coast == "nc"  # type: ignore[index]
    assert parse_retreats_comment("retreats: none", variant) == ()
    assert parse_retreats_comment("the army may go to bel", variant) is None
    with pytest.raises(ValueError):
        parse_retreats_comment("retreats: xyz", variant)
    text = ("CASE x\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n\tFrance: A bur\n\tGermany: A ruh\n"
            "\tGermany: A mun\nORDERS\n\tGermany: A ruh - bur\n\tGermany: A mun S A ruh - bur\nPOSTSTATE\n"
            "\tGermany: A bur\n\tGermany: A mun\nPOSTSTATE_DISLODGED\n\tFrance: A bur  # retreats: {}\nEND\n")
    right = "bel, gas, mar, par, pic"
    for options, status in ((right, "PASS"), ("bel, gas", "FAIL"), (right + ", ruh", "FAIL")):
        cases, errors = read_cases(io.StringIO(text.format(options)))
        assert not errors and run_case(cases[0]).status == status, options
    cases, _ = read_cases(io.StringIO(text.replace("  # retreats: {}", "")))
    assert run_case(cases[0]).status == "PASS"  # without the comment: the options are not compared


# --- the shrinker on its own ---------------------------------------------------------------------


def test_result_comments_on_orders() -> None:
    text = ("CASE x\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n\tGermany: A mun\n\tGermany: A ruh\n"
            "ORDERS\n\tGermany: A ruh - bur  # {}\n\tGermany: A mun S A ruh - bur\nPOSTSTATE\n"
            "\tGermany: A bur\n\tGermany: A mun\nEND\n")
    for comment, status in (("result: succeeds", "PASS"), ("result: fails (bounced) or succeeds", "PASS"),
                            ("result: fails (bounced)", "FAIL"), ("it moves away", "PASS")):
        cases, errors = read_cases(io.StringIO(text.format(comment)))
        assert not errors and run_case(cases[0]).status == status, comment
    cases, _ = read_cases(io.StringIO(text.format("result: maybe")))
    run = run_case(cases[0])
    assert run.status == "FAIL" and "expected 'succeeds', 'fails' or 'fails (reason)'" in run.problems[0]


def test_ddmin_is_one_minimal() -> None:
    calls: list[list[int]] = []

    def keeps(items: list[int]) -> bool:
        calls.append(items)
        return {3, 11, 17} <= set(items)

    assert ddmin(list(range(20)), keeps) == [3, 11, 17]
    assert ddmin([1, 2], lambda items: True) == []


def test_shrink_drops_orders_of_units_taken_away_and_simplifies() -> None:
    state = new_game("standard").state
    orders, errors = parse_orders("France: A par - bur\nFrance: A mar S A par - bur\nGermany: A mun - bur\n"
                                  "England: F lon - nth\nEngland: F edi S F lon - nth", state.variant, state.phase.kind)
    assert not errors

    def keeps(c: Candidate) -> bool:  # "Munich's army still attacks Burgundy"; every candidate legal
        provinces = [u.province for u in c.state.units]
        assert len(provinces) == len(set(provinces))
        assert all(c.state.unit_at(str(o.unit.location.province)) is not None for o in c.orders)  # type: ignore[union-attr]
        return any(str(o) == str(orders[2]) for o in c.orders)

    shrunk = shrink(Candidate(state, tuple(orders)), keeps)
    assert [str(u) for u in shrunk.candidate.state.units] == ["Germany: A mun"]
    assert shrunk.candidate.orders == (orders[2],) and shrunk.candidate.state.owners == ()


def test_shrink_drops_supports_and_convoys_of_units_taken_away() -> None:
    state = new_game("standard").state
    orders, errors = parse_orders("England: F lon - nth\nEngland: F edi S F lon - nth\nEngland: A lvp H",
                                  state.variant, state.phase.kind)
    assert not errors
    asked: list[Candidate] = []

    def keeps(c: Candidate) -> bool:  # "Edinburgh's fleet is still on the board"
        asked.append(c)
        return c.state.unit_at("edi") is not None

    shrunk = shrink(Candidate(state, tuple(orders)), keeps)
    assert [str(u) for u in shrunk.candidate.state.units] == ["England: F edi"] and shrunk.candidate.orders == ()
    for c in asked:  # never a support for a unit no longer on the board
        assert all(c.state.unit_at(o.target.province) is not None for o in c.orders if hasattr(o, "target"))


def test_shrink_keeps_the_dislodging_unit_of_a_retreat_phase() -> None:
    cases, _ = read_cases(io.StringIO(
        "CASE r\nPRESTATE_SETPHASE Spring 1901, Retreat\nPRESTATE\n\tGermany: A war\n\tGermany: A sil\n"
        "\tRussia: A mos\nPRESTATE_DISLODGED\n\tRussia: A war\nPRESTATE_RESULTS\n\tSUCCESS: Germany: A pru - war\n"
        "ORDERS\n\tRussia: A war - ukr\nPOSTSTATE\n\tGermany: A war\nEND\n"))
    run = run_case(cases[0])
    assert run.result is not None
    state = run.result.before

    def keeps(c: Candidate) -> bool:  # "the Russian army still retreats"
        return any(d.unit.province == "war" for d in c.state.dislodged) and len(c.orders) == 1

    shrunk = shrink(Candidate(state, tuple(r.order for r in run.result.results)), keeps)
    assert [str(u) for u in shrunk.candidate.state.units] == ["Germany: A war"]  # its attacker stays with it
    assert [str(d.unit) for d in shrunk.candidate.state.dislodged] == ["Russia: A war"]


@pytest.mark.parametrize("name", ["retreat_bug", "lost_retreat_option", "ownership_bug", "code_bug"])
def test_a_minimal_case_has_at_most_the_units_involved(name: str) -> None:
    record = json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))
    report = validate_game(record, Rules.profile(), cases=True)
    written = [p for p in report.phases if p.case]
    assert written and all(p.status == DISAGREED for p in written)
    for phase in written:
        cases, _ = read_cases(io.StringIO(phase.case))
        minimal = next(c for c in cases if c.id.endswith(".min"))
        units = {line.text for block in ("PRESTATE", "PRESTATE_DISLODGED") for line in minimal.block(block)}
        assert 1 <= len(units) <= max(1, len(phase.orders)), (phase.orders, units)


def test_written_cases_carry_the_conclusion_per_order(tmp_path: Path) -> None:
    """Issue 18 item 3: the case comments say what the record implies of each order
    involved, against dipsat's outcome and its reason, as the report does."""
    folder = tmp_path / "written"
    report = tmp_path / "report.jsonl"
    run("validate", str(RECORDS), "--workers", "1", "--write-cases", str(folder), "--report", str(report))
    lines = [json.loads(x) for x in report.read_text(encoding="utf-8").splitlines()]
    bug = next(x for x in lines if x.get("game") == "retreat_bug" and x["type"] == DISAGREED)
    assert bug["conclusions"]
    text = (folder / "retreat_bug.F1901M.txt").read_text(encoding="utf-8")
    head = text[:text.index("CASE ")]
    assert "# What the record implies of each order involved, against dipsat's outcome:" in head
    for conclusion in bug["conclusions"]:
        assert f"#   {conclusion}" in head
