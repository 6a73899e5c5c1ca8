"""CPU time of comparing records with our results (:func:`dipsat.runners.comparison.compare`,
the stage 'judge: compare' of ``scripts/profile_validate.py``), and its answers (a profile,
not a test).

Runs ``dipsat validate PATHS --workers 1`` once in this process (not timed), keeping every
comparison it makes (``Judge._compare``: the phase, our result, the next recorded phase and
the rules), then prints the CPU time (``time.process_time``) of ``--repeat`` runs of those
comparisons as the judge makes them (one :class:`RecordedCodes` per phase) and the median;
``--dump FILE`` writes each comparison's differences, one line each, to compare the answers
of two versions of the code (``cmp``).

Usage: ``python scripts/profile_compare.py [--repeat N] [--dump FILE] [PATHS...]`` (default:
the bundled corpus). The machine may be shared: compare old and new code in alternating runs.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import time
from pathlib import Path
from typing import Any
from unittest import mock

from dipsat.cli import main as cli_main
from dipsat.runners import judge
from dipsat.runners.comparison import RecordedCodes, compare

CORPUS = Path(__file__).resolve().parent.parent / "cases" / "corpus" / "random_games.jsonl.gz"


def comparisons(paths: list[str]) -> list[tuple[Any, ...]]:
    """(judge, phase, record, result, next record, rules) of each comparison a validate run makes."""
    kept: list[tuple[Any, ...]] = []
    original = judge.Judge._compare

    def spy(self: judge.Judge, i: int, result: Any, rules: Any) -> Any:
        rec, nxt, _ = self.context(i)
        kept.append((self, i, rec, result, nxt, rules))
        return original(self, i, result, rules)

    with mock.patch.object(judge.Judge, "_compare", spy), contextlib.redirect_stdout(io.StringIO()), \
            contextlib.suppress(SystemExit):
        cli_main(["validate", *paths, "--workers", "1"], standalone_mode=False)
    return kept


def run(kept: list[tuple[Any, ...]]) -> list[Any]:
    codes: dict[tuple[int, int], RecordedCodes] = {}
    out = []
    for owner, i, rec, result, nxt, rules in kept:
        known = codes.get((id(owner), i))
        if known is None and rec.results_recorded:
            known = codes[id(owner), i] = RecordedCodes(rec)
        out.append(compare(rec, result, nxt, rules, known))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=[str(CORPUS)])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--dump", metavar="FILE", help="write each comparison's differences to FILE instead of timing")
    args = parser.parse_args()
    kept = comparisons(args.paths)
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as f:
            f.writelines(f"{diffs!r}\n" for diffs in run(kept))
        print(f"{len(kept)} comparisons written to {args.dump}")
        return
    times = []
    for _ in range(args.repeat):
        start = time.process_time()
        run(kept)
        times.append(time.process_time() - start)
    print(" ".join(f"{t:.3f}" for t in times), f"median {statistics.median(times):.3f} s CPU, {len(kept)} comparisons")


if __name__ == "__main__":
    main()
