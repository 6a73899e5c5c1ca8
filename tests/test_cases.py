"""Every bundled case file, through the same code path as `dipsat cases`."""

from __future__ import annotations

import pytest

from dipsat.runners.cases import case_files, describe_results, load_cases, run_case

from .conftest import CASES


def _all_cases():
    for path in case_files([CASES]):
        cases, errors = load_cases(path)
        assert not errors, errors
        for case in cases:
            yield pytest.param(case, id=case.id)


@pytest.mark.parametrize("case", list(_all_cases()))
def test_case(case):
    run = run_case(case)
    report = [*run.problems]
    if run.result is not None:
        report += ["results:", *describe_results(run.result)]
    assert run.status == "PASS", "\n".join(report)


def test_bundled_datc_covers_all_164_cases():
    ids = set()
    for path in case_files([CASES / "datc"]):
        ids |= {c.id for c in load_cases(path)[0]}
    main = {i for i in ids if "[" not in i and not i.endswith(".retreat") and i != "6.J.9.2"}
    sections = {"A": 12, "B": 15, "C": 9, "D": 34, "E": 15, "F": 25, "G": 20, "H": 16, "I": 7, "J": 11}
    expected = {f"6.{s}.{n}" for s, count in sections.items() for n in range(1, count + 1)}
    assert sum(sections.values()) == 164
    assert expected <= main, sorted(expected - main)
