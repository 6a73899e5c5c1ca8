"""Every bundled case file, through the same code path as `dipsat cases`."""

from __future__ import annotations

import pytest

from dipsat.runners.cases import describe_results, run_case

from .conftest import CASES, all_cases


@pytest.mark.parametrize("case", all_cases(), ids=lambda case: case.id)
def test_case(case):
    run = run_case(case)
    report = [*run.problems]
    if run.result is not None:
        report += ["results:", *describe_results(run.result)]
    assert run.status == "PASS", "\n".join(report)


def test_bundled_datc_covers_all_164_cases():
    ids = {c.id for c in all_cases(CASES / "datc")}
    main = {i for i in ids if "[" not in i and not i.endswith(".retreat") and i != "6.J.9.2"}
    sections = {"A": 12, "B": 15, "C": 9, "D": 34, "E": 15, "F": 25, "G": 20, "H": 16, "I": 7, "J": 11}
    expected = {f"6.{s}.{n}" for s, count in sections.items() for n in range(1, count + 1)}
    assert sum(sections.values()) == 164
    assert expected <= main, sorted(expected - main)
