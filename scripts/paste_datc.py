"""Paste every DATC movement test as the DATC prints it and compare with the bundled cases.

For each section ``#### 6.X.N.`` of the DATC document (markdown, v3.0) whose case in
``cases/datc/`` is a Spring 1901 movement phase, the whole section (title, prose, orders
under power names) is read as ``dipsat adjudicate --from-orders`` reads it: the units the
orders name (:mod:`dipsat.formats.pasted`). The script reports how many give the bundled
case's position and, adjudicated under the case's rules, its result, and lists the others
with the difference.

Usage: ``python scripts/paste_datc.py PATH/TO/DATC_v3_0.md`` (the document is not part of
the repository; ``cases/pasted/datc_text/`` holds a few of its sections for the tests).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import dipsat
from dipsat.adjudicator import adjudicate
from dipsat.board import PhaseKind
from dipsat.formats.pasted import position_from_orders
from dipsat.notation import parse_orders
from dipsat.runners.cases import build_position, case_files, case_rules, compare, load_cases

CASES = Path(__file__).resolve().parent.parent / "cases" / "datc"


def main(path: str) -> int:
    text = Path(path).read_text(encoding="utf-8")
    sections = {m.group(1): m.group(0) for m in re.finditer(r"(?ms)^#### (6\.[A-G]\.\d+)\..*?(?=^#### |\Z)", text)}
    cases = {}
    for file in case_files([CASES]):
        for case in load_cases(file)[0]:
            cases.setdefault(case.id, case)
    variant = dipsat.load_variant("standard")
    tried = same = 0
    for case_id, section in sections.items():
        case = cases.get(case_id)
        if case is None or case.phase_text.strip() not in ("", "Spring 1901, Movement"):
            continue
        tried += 1
        orders, _ = parse_orders(section, variant, PhaseKind.MOVEMENT)
        state, _, problems = position_from_orders(orders, variant)
        rules = case_rules(case)
        assert rules is not None
        expected, _, _ = build_position(case, rules)
        if problems:
            print(f"{case_id}: {problems[0]}")
        elif set(state.units) != set(expected.units):
            print(f"{case_id}: units differ: " + ", ".join(sorted(map(str, set(state.units) ^ set(expected.units)))))
        elif differences := compare(case, state, adjudicate(state, orders, rules)):
            print(f"{case_id}: result differs: {differences[0]}")
        else:
            same += 1
    print(f"{same} of {tried} DATC movement tests pasted whole give the bundled case's position and result")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
