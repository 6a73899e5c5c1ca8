"""From a game to the rule lawyer's bench (issue 11): cases listed and found by id across
folders, a played phase of a game as a case file."""

from __future__ import annotations



from .conftest import CASES, run


def test_cases_list_gives_ids_and_titles():
    res = run("cases", "--list", str(CASES / "datc" / "6a_basic.txt"))
    assert res.exit_code == 0
    lines = res.output.splitlines()
    assert len(lines) == 12 and lines[0].startswith("6.A.1  Moving to an area that is not a neighbour  (")


def test_a_case_is_found_by_id_across_folders():
    res = run("cases", str(CASES), "--case", "6.F.14")
    assert res.exit_code == 0
    assert res.output.splitlines()[0].startswith("Case 6.F.14: ") and "PASS 6.F.14" in res.output
    assert res.output.rstrip().endswith("1 passed, 0 failed")
    found = run("adjudicate", str(CASES), "--case", "6.f.14")
    assert found.exit_code == 0 and found.output.startswith("Case 6.F.14: ")
    missing = run("adjudicate", str(CASES), "--case", "6.F.99")
    assert missing.exit_code != 0 and "did you mean" in missing.output


def test_a_played_phase_of_a_game_as_a_case_file(tmp_path):
    game = tmp_path / "g.json"
    assert run("game", "new", str(game)).exit_code == 0
    orders = tmp_path / "orders.txt"
    orders.write_text("France: A par - bur\nGermany: A mun - bur\nEngland: F lon - nth\n", encoding="utf-8")
    assert run("game", "turn", str(game), str(orders)).exit_code == 0
    case = run("game", "show", str(game), "--phase", "S1901M", "--format", "case")
    assert case.exit_code == 0 and "CASE g.S1901M" in case.output and "\tFrance: A par - bur" in case.output
    path = tmp_path / "case.txt"
    path.write_text(case.output, encoding="utf-8")
    check = run("cases", str(path))
    assert check.exit_code == 0 and "PASS g.S1901M" in check.output
    explained = run("adjudicate", str(path), "--explain")
    assert "standoff with A mun - bur" in explained.output
