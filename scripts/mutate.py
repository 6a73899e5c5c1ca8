"""The mutation test of ``dipsat validate``, bigger than the test suite's: realistic
adjudicator bugs (``dipsat.runners.mutations.BUGS``) injected into games played with
dipsat, the later positions as the buggy program would have recorded them, written as
godip histories (in a ``.zip``), saved games of the ``diplomacy`` package without
per-order results (``.jsonl.gz``) and with them (``.jsonl``) and case files (``.tar.gz``), read back through the reader ``dipsat validate`` uses, and
the verdicts counted: the detection table (Markdown, as quoted in the README), then every
bug not found at its phase.

Usage: ``python scripts/mutate.py [--seeds 20] [--phases 14] [--bug over-build ...]
[--in-memory]``. Exit status 1 when a bug was not found or a control not clean.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from dipsat.runners.mutations import BUGS, detection_table, run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20, help="games per bug (and controls)")
    parser.add_argument("--phases", type=int, default=14, help="phases per game")
    parser.add_argument("--bug", action="append", choices=sorted(BUGS), help="only these bugs (repeatable)")
    parser.add_argument("--in-memory", action="store_true", help="judge the texts, without writing archives")
    args = parser.parse_args()
    bugs = tuple(args.bug or BUGS)
    with tempfile.TemporaryDirectory(prefix="dipsat-mutate-") as folder:
        tally = run(range(args.seeds), bugs, args.phases, None if args.in_memory else Path(folder))
    for line in detection_table(tally):
        print(line)
    if tally.misses:
        print(f"\nnot found at the bugged phase ({len(tally.misses)}):")
        for miss in tally.misses:
            print(f"  {miss}")
    return 1 if tally.misses else 0


if __name__ == "__main__":
    sys.exit(main())
