"""Where the time of ``dipsat cases`` goes, per case (a profile, not a test).

Runs the cases of the files and folders given the way :func:`dipsat.runners.cases.run_case`
does, stage by stage, and prints the CPU time per case of each stage: reading the file,
the case's rules, building the position and orders, the player set-up, checking the
position, adjudicating, comparing with POSTSTATE, under the garbage collector's thresholds
of the command line. ``--profile`` prints the top functions of everything but the
adjudication (cProfile, by own time) instead.

The bundled corpus as case files (2,214 full-board movement cases)::

    python scripts/convert_records.py cases/corpus/random_games.jsonl.gz /tmp/corpus-cases --to cases
    python scripts/profile_cases.py /tmp/corpus-cases

The machine may be shared: compare shares, or old and new code run in turns.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections.abc import Callable
from typing import TypeVar

from dipsat.adjudicator import adjudicate
from dipsat.formats.casefile import Case, LineReader
from dipsat.runners import cases as runner
from dipsat.runners.runtime import tune_for_batches

T = TypeVar("T")
STAGES = ("read", "rules", "position", "players", "checks", "adjudicate", "compare")


def _cases(paths: list[str], spent: dict[str, float]) -> list[Case]:
    """The cases of the files, read as ``dipsat cases`` reads them: one reader for the run
    (each distinct unit line and order read once), a new one each round."""
    out = []
    reader = LineReader()
    for path in runner.case_files(paths):
        start = time.process_time()
        out += runner.load_cases(path, reader=reader)[0]
        spent["read"] += time.process_time() - start
    return out


def _run(cases: list[Case], spent: dict[str, float], adjudicating: bool = True) -> None:
    """Each case through the stages of run_case (a case that cannot be run is left there)."""
    clock = time.process_time

    def timed(stage: str, call: Callable[[], T]) -> T:
        start = clock()
        value = call()
        spent[stage] += clock() - start
        return value

    for case in cases:
        rules = timed("rules", lambda: runner.case_rules(case))
        if case.errors or rules is None:
            continue
        state, orders, problems = timed("position", lambda: runner.build_position(case, rules))
        state, neutral = timed("players", lambda: runner.apply_players(case, state))
        if problems or timed("checks", lambda: runner.position_problems(case, state)):
            continue
        if adjudicating:
            result = timed("adjudicate", lambda: adjudicate(state, orders, rules, neutral))
            timed("compare", lambda: runner.compare(case, state, result))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", help="case files or folders")
    parser.add_argument("--rounds", type=int, default=3, help="runs of every case; the fastest is shown")
    parser.add_argument("--profile", action="store_true", help="cProfile of the stages but the adjudication")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args(argv)
    tune_for_batches()  # the collector's thresholds of the command line (dipsat's main)
    if args.profile:
        spent = dict.fromkeys(STAGES, 0.0)
        profile = cProfile.Profile()
        profile.enable()
        _run(_cases(args.paths, spent), spent, adjudicating=False)
        profile.disable()
        pstats.Stats(profile, stream=sys.stdout).sort_stats("tottime").print_stats(args.top)
        return 0
    best: dict[str, float] = {}
    count = 0
    for _ in range(args.rounds):
        spent = dict.fromkeys(STAGES, 0.0)
        cases = _cases(args.paths, spent)
        _run(cases, spent)
        count = len(cases)
        best = {k: min(v, best.get(k, v)) for k, v in spent.items()}
    total = sum(best.values())
    print(f"{count} cases, {total:.2f} s of CPU: {count / total:,.0f} cases per CPU-second (fastest of "
          f"{args.rounds} rounds per stage)")
    for stage in STAGES:
        print(f"  {stage:<11} {best[stage] / count * 1e3:7.3f} ms per case  {best[stage] / total:6.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
