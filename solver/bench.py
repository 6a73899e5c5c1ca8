"""Benchmarks (never timed assertions in tests): ``dipsat bench``.

Times the same public code path users run (:func:`dipsat.adjudicate`) on the
bundled case files, per phase, and reports medians and percentiles.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from .adjudicator import adjudicate
from .casework import build_position, case_files, case_rules, load_cases


@dataclass
class PhaseTiming:
    case_id: str
    kind: str
    seconds: float  # median over the repeats
    solver_calls: int


@dataclass
class BenchReport:
    timings: list[PhaseTiming] = field(default_factory=list)

    def by_kind(self) -> dict[str, list[PhaseTiming]]:
        out: dict[str, list[PhaseTiming]] = {}
        for t in self.timings:
            out.setdefault(t.kind, []).append(t)
        return out


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def bench_cases(paths: Iterable[str], repeat: int = 5) -> BenchReport:
    """Time every case of the files/folders in `paths`, `repeat` times each."""
    report = BenchReport()
    for path in case_files(paths):
        cases, _ = load_cases(path)
        for case in cases:
            if case.errors:
                continue
            rules = case_rules(case)
            if rules is None:
                continue
            state, orders, problems = build_position(case, rules)
            if problems:
                continue
            samples = []
            calls = 0
            for _ in range(repeat):
                start = time.perf_counter()
                result = adjudicate(state, orders, rules)
                samples.append(time.perf_counter() - start)
                calls = result.solver_calls
            report.timings.append(PhaseTiming(case.id, str(state.phase.kind), statistics.median(samples), calls))
    return report


def format_report(report: BenchReport) -> list[str]:
    lines = [f"{'phase kind':<12}{'phases':>8}{'median ms':>11}{'p90 ms':>9}{'p99 ms':>9}{'>1 solver call':>16}"]
    for kind, timings in sorted(report.by_kind().items()):
        ms = [t.seconds * 1000 for t in timings]
        multi = sum(1 for t in timings if t.solver_calls > 1)
        lines.append(f"{kind:<12}{len(ms):>8}{statistics.median(ms):>11.2f}{percentile(ms, 90):>9.2f}"
                     f"{percentile(ms, 99):>9.2f}{multi:>16}")
    return lines
