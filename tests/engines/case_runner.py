#!/usr/bin/env python3
"""A case runner of our own for the ``cases:`` adapter of ``dipsat fuzz``: runs a
jDip/DATC case file (one case or many) under a dipsat rules profile, exit status 0 when
every case passes -- the way jDip's and godip's runners are driven. ``--always-fail``
makes a runner whose engine disagrees with everything, ``--fail-case NAME`` one that
fails the case NAME (whatever its POSTSTATE), to see which cases the adapter runs alone."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dipsat.rules import Rules
from dipsat.runners.cases import load_cases, run_case


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--rules", default="2000")
    parser.add_argument("--always-fail", action="store_true")
    parser.add_argument("--fail-case", action="append", default=[])
    args = parser.parse_args()
    if args.always_fail:
        return 1
    cases, errors = load_cases(Path(args.file))
    if errors or not cases:
        print(errors, file=sys.stderr)
        return 2
    if any(case.id in args.fail_case for case in cases):
        return 1
    return 0 if all(run_case(case, rules=Rules.profile(args.rules)).passed for case in cases) else 1


if __name__ == "__main__":
    raise SystemExit(main())
