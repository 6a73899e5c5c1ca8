"""The ``#=`` lines of case files (cases/README.md): one order's expected outcome kind, read as
a comment by every other program, checked by ``dipsat cases`` against the outcome values."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from dipsat.formats.case_comments import EXPECT_KINDS, is_expectation, parse_expectation
from dipsat.formats.casefile import read_cases
from dipsat.formats.outcome_json import KINDS
from dipsat.runners.cases import CaseStatus, build_position, case_rules, run_case
from dipsat.runners.expected import diff_expected, expected_orders

from .conftest import CASES, all_cases, datc_case, run

CASE = """VARIANT_ALL Standard
CASE t.1 a supported attack
RULES datc
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
	France: A mar
	France: A gas
	Germany: A bur
ORDERS
	France: A Marseilles - Burgundy
	France: A Gascony Supports A Marseilles - Burgundy
	Germany: A Burgundy Hold
{lines}
POSTSTATE
	France: A bur
	France: A gas
POSTSTATE_DISLODGED
	Germany: A bur
END
"""


def _write(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "case.txt"
    path.write_text(CASE.format(lines="\n".join(lines)), encoding="utf-8")
    return path


def test_right_annotations_pass(tmp_path):
    path = _write(tmp_path, "#= France: A mar - bur: moves", "\t#= France: A gas S A mar - bur: given",
                  "#= Germany: A Burgundy Hold: holds or dislodged")
    result = run("cases", str(path))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == ["PASS t.1", "1 passed, 0 failed"]


def test_a_wrong_annotation_fails_the_case_naming_order_and_kinds(tmp_path):
    path = _write(tmp_path, "#= France: A mar - bur: moves", "#= France: A Gascony S A Marseilles - Burgundy: cut")
    result = run("cases", str(path))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0].startswith("FAIL t.1 (")
    assert lines[1] == "    outcome of France: A gas S A mar - bur: expected cut, got given (line 14)"
    assert lines[-1] == "0 passed, 1 failed"


@pytest.mark.parametrize("line, message", [
    ("#= France: A mar - bur: mvoes", ":13: #= line: expected an outcome kind after the last ':', found 'mvoes' "
                                      "(did you mean moves?"),
    ("#= France: A mar - bur", ":13: #= line: expected '#= <order as in ORDERS>: <kind>'"),
    ("#= France: A mar - bur: moves bounced", ":13: #= line: expected '#= <order as in ORDERS>: <kind>'"),
    ("#= moves", ":13: #= line: expected '#= <order as in ORDERS>: <kind>' (alternatives joined by ' or '), "
                 "found '#= moves'"),
    ("#= France: A mar - bur: moves or", ":13: #= line: expected '#= <order as in ORDERS>: <kind>'"),
    ("#= France: A gas - bur: holds", ":13: #= line: expected an order of the case's ORDERS, found "
                                      "'France: A gas - bur' (no such order)"),
    ("#= France: A gas - xyz: holds", ":13: #= line: expected an order of ORDERS before the last ':'"),
])
def test_a_bad_annotation_is_a_one_line_error_naming_file_and_line(tmp_path, line, message):
    path = _write(tmp_path, line)
    result = run("cases", str(path))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0].startswith("ERROR t.1 (")
    assert lines[1].startswith(f"    {path}:"), lines
    assert message in lines[1], lines[1]
    assert len(lines) == 3 and lines[2] == "0 passed, 1 failed"


def test_an_annotation_outside_a_case_is_an_error(tmp_path):
    path = tmp_path / "case.txt"
    path.write_text(CASE.format(lines="") + "#= France: A mar - bur: moves\n", encoding="utf-8")
    result = run("cases", str(path))
    assert f"ERROR {path}:20: #= line outside a case (expected it between CASE and END)" in result.output


def test_the_line_without_a_power_names_the_order_of_any_power(tmp_path):
    path = _write(tmp_path, "#= A Gascony Supports A Marseilles - Burgundy: void")
    result = run("cases", str(path))
    assert "outcome of France: A gas S A mar - bur: expected void, got given (line 13)" in result.output


def test_an_order_given_twice_has_one_line_per_time(tmp_path):
    """DATC 6.I.7: Russia may build two and orders 'Build A Moscow' twice: the first is
    built, the second fails. The first '#=' line naming the order is about the first."""
    case = datc_case("6.I.7")
    text = Path(case.source).read_text(encoding="utf-8").splitlines()
    start = case.line - 1
    end = next(i for i in range(start, len(text)) if text[i] == "END")
    body = [line for line in text[start:end + 1] if not is_expectation(line)]
    orders = body.index("ORDERS") + 3

    def check(*lines: str) -> list[str]:
        path = tmp_path / "case.txt"
        path.write_text("\n".join(["VARIANT_ALL Standard", *body[:orders], *lines, *body[orders:]]) + "\n",
                        encoding="utf-8")
        return run("cases", str(path)).output.splitlines()

    build, first = "#= Russia: Build A Moscow", orders + 2  # the number of the first line added
    assert check(f"{build}: built", f"{build}: illegal")[0] == "PASS 6.I.7"
    assert check(f"{build}: built", f"{build}: built")[1] == \
        f"    outcome of Russia: Build A mos: expected built, got illegal (line {first + 1})"
    assert check(f"{build}: illegal")[1] == f"    outcome of Russia: Build A mos: expected illegal, got built (line {first})"
    lines = check(f"{build}: built", f"{build}: illegal", f"{build}: illegal")
    assert lines[0].startswith("ERROR 6.I.7") and lines[1].endswith(
        f":{first + 2}: #= line: expected one line per time an order is given, found a line 3 for "
        "'Russia: Build A Moscow', given 2 time(s)")


def test_parse_expectation():
    e = parse_expectation("  #= Germany: F Kiel - Munich:  illegal or VOID ", 7)
    assert (e.line, e.order, e.kinds) == (7, "Germany: F Kiel - Munich", ("illegal", "void"))
    assert str(e) == "#= Germany: F Kiel - Munich: illegal or void"
    assert EXPECT_KINDS == set(KINDS.values())
    assert is_expectation("#= x: moves") and is_expectation("\t#=x")
    assert not is_expectation("#==== a banner ====") and not is_expectation("# = x") and not is_expectation("A #= x")


def _annotated() -> list:
    return [case for case in all_cases(CASES / "datc") if case.expected]


def test_datc_annotations_are_comments_to_other_readers():
    """Dropping every line that starts with '#' (as jDip's and godip's readers do) leaves the
    same cases, without their expectations."""
    for path in sorted((CASES / "datc").glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        plain = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
        full, stripped = read_cases(io.StringIO(text), str(path))[0], read_cases(io.StringIO(plain), str(path))[0]
        assert [(c.id, c.rules, c.post_same) for c in full] == [(c.id, c.rules, c.post_same) for c in stripped]
        assert not any(c.expected for c in stripped)
        assert sum(len(c.expected) for c in full) == sum(1 for line in text.splitlines() if is_expectation(line))


def test_datc_annotations_count():
    """The DATC cases carry their per-order expectations (a floor, so that a change to the
    reader or the files cannot silently drop them)."""
    annotated = _annotated()
    orders = sum(len(case.expected) for case in annotated)
    sections = {re.match(r"6\.([A-J])\.", case.id).group(1) for case in annotated}
    assert len(annotated) >= 225 and orders >= 580, (len(annotated), orders)
    assert sections == set("ABCDEFGHIJ"), sections


@pytest.mark.parametrize("case", _annotated(), ids=lambda case: case.id)
def test_datc_annotations_hold_and_each_is_checked(case):
    run_ = run_case(case)
    assert run_.status is CaseStatus.PASS, run_.problems
    assert run_.result is not None
    rules = case_rules(case)
    assert rules is not None
    state, orders, _ = build_position(case, rules)
    expected, problems = expected_orders(case, state.variant, state.phase.kind, orders)
    assert not problems and len(expected) == len(case.expected)
    assert diff_expected(expected, run_.result) == []
    for expectation, order, k in expected:  # any other kind would fail the case
        other = next(kind for kind in sorted(EXPECT_KINDS) if kind not in expectation.kinds)
        wrong = [(type(expectation)(expectation.line, expectation.order, (other,)), order, k)]
        assert diff_expected(wrong, run_.result), f"{expectation} is not checked"
