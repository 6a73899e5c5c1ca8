"""The case-file reader and `dipsat cases`: lenient reading, one clear error per problem."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from dipsat.runners.cases import run_case
from dipsat.formats.casefile import parse_phase, read_cases, write_case
from dipsat.board import Location, Phase, PhaseKind, Season, Unit, UnitKind

from .conftest import run

GOOD = """VARIANT_ALL Standard
CASE good.1 a simple bounce
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
\tAustria: A vie
\tItaly: A ven
ORDERS
\tAustria: A vie - tyr
\tItaly: A ven - tyr
POSTSTATE_SAME
END
"""

BROKEN = """VARIANT_ALL Standard
CASE bad.keyword
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
\tAustria: A vie
PRESTATEX
ORDERS
\tAustria: A vie H
POSTSTATE_SAME
END
CASE bad.province
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
\tAustria: A atlantis
ORDERS
\tAustria: A vie H
POSTSTATE_SAME
END
CASE bad.order
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
\tAustria: A vie
ORDERS
\tAustria: A vie ~~ zzz
POSTSTATE_SAME
END
CASE bad.phase
PRESTATE_SETPHASE Summer 1901
PRESTATE
\tAustria: A vie
ORDERS
POSTSTATE_SAME
END
CASE bad.noend
PRESTATE_SETPHASE Spring 1901, Movement
"""


def _cases(text: str, name: str = "t.txt"):
    return read_cases(io.StringIO(text), name)


def test_good_case_passes():
    cases, errors = _cases(GOOD)
    assert not errors and len(cases) == 1
    run = run_case(cases[0])
    assert run.status == "PASS", run.problems


def test_each_problem_names_file_line_and_expectation():
    cases, errors = _cases(BROKEN, "broken.txt")
    runs = {c.id: run_case(c) for c in cases}
    assert set(runs) == {"bad.keyword", "bad.province", "bad.order", "bad.phase", "bad.noend"}
    assert all(r.status == "ERROR" for r in runs.values())
    assert "broken.txt:6: unknown keyword 'PRESTATEX'" in runs["bad.keyword"].problems[0]
    assert "broken.txt:14" in runs["bad.province"].problems[0] and "atlantis" in runs["bad.province"].problems[0]
    assert "broken.txt:24" in runs["bad.order"].problems[0] and "expected" in runs["bad.order"].problems[0]
    assert "Summer 1901" in runs["bad.phase"].problems[0]
    assert "has no END" in runs["bad.noend"].problems[0]
    for ran in runs.values():
        assert all("\n" not in p for p in ran.problems)  # one line per problem


def test_cli_continues_after_bad_cases(tmp_path):
    (tmp_path / "a_broken.txt").write_text(BROKEN)
    (tmp_path / "b_good.txt").write_text(GOOD)
    result = run("cases", str(tmp_path))
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert "PASS good.1" in lines
    assert lines[-1] == "1 passed, 5 failed"
    assert "Traceback" not in result.output


def test_failure_shows_expected_and_got(tmp_path):
    wrong = GOOD.replace("POSTSTATE_SAME", "POSTSTATE\n\tAustria: A tyr\n\tItaly: A ven")
    (tmp_path / "w.txt").write_text(wrong)
    result = run("cases", str(tmp_path))
    assert result.exit_code == 1
    assert "expected but missing: Austria: A tyr" in result.output
    assert "not expected: Austria: A vie" in result.output
    assert result.output.strip().splitlines()[-1] == "0 passed, 1 failed"


def test_rules_profile_skips_cases_written_for_another(tmp_path):
    text = GOOD.replace("CASE good.1 a simple bounce", "CASE good.1 a simple bounce\nRULES 2000")
    (tmp_path / "r.txt").write_text(text)
    result = run("cases", "--rules", "2023", str(tmp_path))
    assert result.exit_code == 0
    assert result.output.strip().splitlines()[-1] == "0 passed, 0 failed, 1 skipped"


def test_phase_forms():
    assert parse_phase("Spring 1901, Movement") == Phase(1901, Season.SPRING, PhaseKind.MOVEMENT)
    assert parse_phase("Fall 1902, Retreat") == Phase(1902, Season.FALL, PhaseKind.RETREAT)
    assert parse_phase("Winter 1902") == Phase(1902, Season.FALL, PhaseKind.ADJUSTMENT)
    assert parse_phase("Autumn 1903, Adjustment").kind is PhaseKind.ADJUSTMENT


def test_written_case_reads_back_and_passes():
    out = io.StringIO()
    units = [Unit("France", UnitKind.ARMY, Location("mar")), Unit("France", UnitKind.ARMY, Location("gas")),
             Unit("Germany", UnitKind.ARMY, Location("bur"))]
    after = [Unit("France", UnitKind.ARMY, Location("bur")), Unit("France", UnitKind.ARMY, Location("gas"))]
    write_case(out, "w.1", Phase(1901, Season.SPRING, PhaseKind.MOVEMENT), units,
               ["France: A mar - bur", "France: A gas S A mar - bur", "Germany: A bur H"], after,
               dislodged=[Unit("Germany", UnitKind.ARMY, Location("bur"))], rules="2000")
    cases, errors = _cases(out.getvalue())
    assert not errors
    assert run_case(cases[0]).status == "PASS"


# What case files in the wild do (jDip's DATC files, for instance): no phase line,
# a misspelt power, a unit line without its colon, extra spaces, comments after
# keywords, old abbreviations (ech, eme, nrg), ids followed by a title.
WILD = """VARIANT_ALL Standard
CASE 6.Z.1. TEST CASE, NO PHASE LINE AND A MISSPELT POWER
PRESTATE
\tGermany:  A ber
\tGermany: A sil
\tRussia: A pru
ORDERS
\tGermany:  A ber-pru
\tGermnay: A sil S A ber-pru
\tRussia:   A pru H\t\t# holds
POSTSTATE
\tGermany  A pru
\tGermany: A sil
POSTSTATE_DISLODGED
\tRussia: A pru
END

CASE 6.Z.2 (old abbreviations)
PRESTATE_SETPHASE Spring 1901, Movement\t\t# a comment after the keyword
PRESTATE
\tFrance: F ech
\tTurkey: F eme
\tRussia: F nrg
ORDERS
\tFrance: F ech-nth
\tTurkey: F eme-aeg
\tRussia: F Norwegian - Barents
POSTSTATE
\tFrance: F nth
\tTurkey: F aeg
\tRussia: F bar
END
"""


def test_case_files_in_the_wild_are_read_leniently():
    cases, errors = _cases(WILD, "wild.txt")
    assert not errors
    assert [c.id for c in cases] == ["6.Z.1.", "6.Z.2"]
    runs = [run_case(c) for c in cases]
    assert [r.status for r in runs] == ["PASS", "PASS"], [r.problems for r in runs]
    assert runs[0].result.before.phase == Phase(1901, Season.SPRING, PhaseKind.MOVEMENT)


STACKED = """VARIANT_ALL Standard
CASE stacked.two two units in one province
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
	France: A par
	Germany: A par
ORDERS
	France: A par H
POSTSTATE_SAME
END
CASE stacked.twice the same unit twice
PRESTATE
	France: A par
	France: A par
ORDERS
	France: A par - bur
POSTSTATE
	France: A bur
END
"""


def test_a_stacked_position_is_an_error_everywhere(tmp_path):
    """cases, validate and adjudicate check a case's position alike, with the same words
    (issue 12 item 6: cases and validate gave PASS/FAIL)."""
    path = tmp_path / "stacked.txt"
    path.write_text(STACKED)
    expected = {"stacked.two": f"{path}:6: case stacked.two: Germany: A par: par already holds France: A par (line 5)",
                "stacked.twice": f"{path}:14: case stacked.twice: France: A par: par already holds France: A par "
                                 "(line 13)"}  # the unit's line (issue 17)
    cases = run("cases", str(path))
    assert cases.exit_code == 1 and cases.output.strip().splitlines()[-1] == "0 passed, 2 failed"
    report = tmp_path / "report.jsonl"
    validate = run("validate", str(path), "--workers", "1", "--report", str(report))
    assert validate.exit_code == 1 and "2 records read" in validate.output
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    reasons = [line["reason"] for line in lines if line["type"] == "rejected"]
    for case_id, message in expected.items():
        assert f"ERROR {case_id} " in cases.output and f"    {message}\n" in cases.output
        adjudicate = run("adjudicate", str(path), "--case", case_id)
        assert adjudicate.exit_code == 2 and message in adjudicate.output
    assert reasons == list(expected.values())


@pytest.mark.parametrize("players, message", [
    ("8", "t.txt:3: PLAYERS: the standard variant has no set-up for 8 players (set-ups: 2, 3, 4, 5, 6, 7)"),
    ("²", "t.txt:3: PLAYERS needs one number, e.g. 'PLAYERS 6', found '²'"),
    ("9" * 5000, "t.txt:3: PLAYERS needs one number, e.g. 'PLAYERS 6', found '99999999999999999999'"),
])
def test_a_players_count_without_a_set_up_is_an_error_of_its_case(tmp_path, monkeypatch, players, message):
    """Issue 12 item 7: a traceback that aborted the whole folder."""
    monkeypatch.chdir(tmp_path)
    Path("t.txt").write_text(GOOD.replace("CASE good.1 a simple bounce", f"CASE bad.1\nPLAYERS {players}")
                             + GOOD.replace("good.1", "good.2"))
    for command in (["cases", "t.txt"], ["validate", "--workers", "1", "--report", "r.jsonl", "t.txt"]):
        result = run(*command)
        assert result.exit_code == 1 and result.exception is None or isinstance(result.exception, SystemExit)
    assert run("cases", "t.txt").output.splitlines() == [
        "ERROR bad.1 (t.txt:2)" + (" [rules 2000]" if players == "8" else ""), f"    {message}", "PASS good.2",
        "1 passed, 1 failed"]
    assert json.loads(Path("r.jsonl").read_text().splitlines()[0])["reason"] == message
    adjudicate = run("adjudicate", "t.txt")  # not adjudicated without its set-up
    assert adjudicate.exit_code == 2 and adjudicate.output == message + "\n"


def test_a_byte_order_mark_starts_a_case_file(tmp_path):
    """Issue 12 item 9: 'CASE outside a case', and every line counted as a failed case."""
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    assert run("cases", str(path)).output.splitlines() == ["PASS good.1", "1 passed, 0 failed"]
    assert run("adjudicate", str(path)).exit_code == 0
    validate = run("validate", "--workers", "1", str(path))
    assert validate.exit_code == 0 and "1 records read" in validate.output


def test_lines_outside_any_case_are_not_counted_as_cases(tmp_path):
    (tmp_path / "junk.txt").write_text("junk\nmore junk\n" + GOOD + "END\n")
    cases = run("cases", str(tmp_path / "junk.txt"))
    assert cases.exit_code == 1
    assert cases.output.splitlines()[-1] == "1 passed, 0 failed, 3 problems outside any case"
    assert sum(line.startswith("ERROR ") for line in cases.output.splitlines()) == 3
    validate = run("validate", "--workers", "1", str(tmp_path / "junk.txt"))
    assert "2 records read (games, or cases of case files), 1 rejected as a whole" in validate.output


def test_a_case_without_poststate_is_an_error_not_a_failure(tmp_path):
    """A case with nothing to compare with (e.g. game show --format case of a phase not yet
    played) is an ERROR naming why, not a FAIL listing every unit as unexpected."""
    game = tmp_path / "g.json"
    assert run("game", "new", str(game)).exit_code == 0
    case = tmp_path / "now.txt"
    assert run("game", "show", str(game), "--format", "case", "-o", str(case)).exit_code == 0
    result = run("cases", str(case))
    assert result.exit_code == 1
    assert result.output.splitlines()[0].startswith("ERROR g.S1901M")
    assert "no POSTSTATE or POSTSTATE_SAME: nothing to compare with" in result.output
    assert run("adjudicate", str(case)).exit_code == 0


def _lines_read(text: str, name: str = "t.txt"):
    cases, errors = _cases(text, name)
    return ([(c.id, c.line, {k: [(ln.number, ln.text, ln.blank_before, ln.comment) for ln in v]
                             for k, v in c.blocks.items()}, [str(e) for e in c.errors]) for c in cases],
            [str(e) for e in errors])


def test_lines_read_together_as_read_one_by_one():
    """A block's tab-indented data lines are taken together; a text holding the character
    that joins them is read line by line: both give the same cases, lines and errors."""
    folder = Path(__file__).resolve().parent.parent / "cases"
    paths = sorted(folder.rglob("*.txt"))
    assert len(paths) > 10
    for path in paths:
        text = path.read_text(encoding="utf-8")
        together = _lines_read(text, path.name)
        assert together == _lines_read(text + "\n# \x00\n", path.name), path
        assert together[0] or together[1], path  # something was read


def test_block_lines_keep_numbers_blanks_and_comments():
    text = ("CASE mixed\nPRESTATE_SETPHASE Fall 1901, Retreat\nPOSTSTATE_DISLODGED\n"
            "\tAustria: A vie\n\t Italy: A ven \n\n\tFrance: A par  # retreats: bur\n"
            "# a comment line\nGermany: A mun\n\tRussia: A mos\nEND\n")
    (case,), errors = _cases(text)
    lines = case.block("POSTSTATE_DISLODGED")
    assert not errors and not case.errors
    assert [(ln.number, ln.text, ln.blank_before, ln.comment) for ln in lines] == [
        (4, "Austria: A vie", False, ""), (5, "Italy: A ven", False, ""),
        (7, "France: A par", True, "retreats: bur"), (9, "Germany: A mun", False, ""),
        (10, "Russia: A mos", False, "")]
    assert lines[-1] == lines[4] and lines[1:3] == [lines[1], lines[2]] and len(lines) == 5
    assert lines == list(lines) and case.block("ORDERS") == []
    with pytest.raises(IndexError):
        lines[5]
