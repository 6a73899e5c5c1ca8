"""`--compare`: everything a rule changes, one row per difference naming the unit (issue 11)."""

from __future__ import annotations

import json

from . import conftest
from .conftest import CASES


def run(*args: str, columns: int = 80):
    """`dipsat ARGS` in a terminal `columns` wide (the tables wrap to it)."""
    return conftest.run(*args, columns=columns)


def test_retreat_options_differ_between_the_1982_and_2023_rules():
    """DATC 6.H.11: dislodged by an adjacent convoy, A mar may retreat to gas only under
    the 2023 rule (DATC 4.A.5 b); the 1982 rulebook forbids the attacker's origin."""
    res = run("adjudicate", str(CASES / "datc" / "6h_retreats.txt"), "--case", "6.H.11", "--compare", "1982,2023")
    assert res.exit_code == 0, res.output
    table = res.output[res.output.index("Compared 1982, 2023"):].splitlines()
    assert table[0] == "Compared 1982, 2023: 1 difference(s)"
    assert table[3].split() == ["retreats:", "Italy:", "A", "mar", "pie", "spa", "gas", "pie", "spa"]
    doc = json.loads(run("adjudicate", str(CASES / "datc" / "6h_retreats.txt"), "--case", "6.H.11",
                         "--compare", "1982,2023", "--format", "json").output)
    assert doc["comparison"]["differences"] == [
        {"what": "retreats", "subject": "Italy: A mar", "results": {"1982": "pie spa", "2023": "gas pie spa"}}]


def test_civil_disorder_readings_name_the_removed_units():
    """DATC 6.J.10 and 6.J.11: the 2000 and 2023 rulebooks count civil-disorder distances
    differently and remove different units; the comparison names them."""
    for case, removed_2000, removed_2023 in (("6.J.10", "Italy: A gre", "Italy: A pie"),
                                              ("6.J.11", "Italy: A war", "Italy: A tus")):
        res = run("adjudicate", str(CASES / "datc" / "6j_disbands.txt"), "--case", case, "--compare", "2000,2023",
                  "--format", "json")
        assert res.exit_code == 0, res.output
        rows = json.loads(res.output)["comparison"]["differences"]
        assert {"what": "removed", "subject": removed_2000, "results": {"2000": "removed", "2023": "-"}} in rows
        assert {"what": "removed", "subject": removed_2023, "results": {"2000": "-", "2023": "removed"}} in rows
        text = run("adjudicate", str(CASES / "datc" / "6j_disbands.txt"), "--case", case, "--compare", "2000,2023")
        assert f"removed: {removed_2000}" in text.output and f"removed: {removed_2023}" in text.output


def test_the_table_uses_the_terminal_width_and_never_cuts_an_order():
    args = ("adjudicate", str(CASES / "datc" / "6f_convoys.txt"), "--case", "6.F.17", "--compare",
            "1971,1982,2000,2023,datc,dptg")
    narrow, wide = run(*args, columns=60).output, run(*args, columns=160).output
    order = "order: France: F eng C A bre - lon"
    assert order in narrow.splitlines() and any(line.startswith(order + " ") for line in wide.splitlines())
    assert "…" not in narrow and "…" not in wide


def test_a_table_too_wide_for_the_terminal_becomes_a_list_that_fits():
    """DATC 6.F.13 under every profile: long retreat lists in six columns do not fit in 60
    columns; each difference is then listed, rules with the same result together, every
    line within the width but an order's own text, and every value still there."""
    args = ("adjudicate", str(CASES / "datc" / "6f_convoys.txt"), "--case", "6.F.13", "--compare", "all")
    wide = run(*args, columns=240).output
    for columns in (40, 60):
        narrow = run(*args, columns=columns).output
        body = narrow[narrow.index("difference(s)"):]
        for line in body.splitlines():
            assert len(line) <= columns or line.startswith(("order: ", "unit: ", "retreats: ", "dislodged: ")), line
        assert "    1982, 2000, 2023, datc: edi hel lon nwg nwy ska yor" in narrow or columns < 60
        for word in ("bel", "edi", "hel", "nwg", "nwy", "ska", "yor", "present", "void", "succeeds"):
            assert word in body and word in wide
