"""Where the time of a movement phase goes (a profile, not a test).

Profiles the movement phases of the bundled corpus (or the recorded games given) the two
ways ``dipsat bench`` times them: one ``dipsat.adjudicate`` call a phase, and batch mode
(``dipsat.adjudicate_many``, 64 phases a batch). Prints the top functions by own time
(tottime) and by cumulative time, and the share of the time spent in the prescan, the
model building (encodings), the CP-SAT solve and the result building.

``--mode stages`` times the stages in CPU time instead (no profiler: real shares); ``--mode
passes`` times a first pass over the phases (as ``dipsat bench`` does) and a second one.

Usage: ``python scripts/profile_phases.py [--mode single|batch|both|stages|passes] [--top 25] [--phases N] [PATHS...]``.
The machine may be shared: compare shares and orderings, not absolute times. cProfile does
not see inside the modules an install compiles (setup.py's ``COMPILED``: the prescan, the
encodings, the result building): profile the sources (an editable install, or one made
with ``DIPSAT_PURE_PYTHON=1``) for functions, time the compiled install (``--mode stages``).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import pstats
import sys
import time
from pathlib import Path

import dipsat
from dipsat.adjudicator import adjudicate_many
from dipsat.board import PhaseKind
from dipsat.rules import Rules
from dipsat.runners.bench import CorpusPhase, corpus_phases, corpus_texts

CORPUS = Path(__file__).resolve().parent.parent / "cases" / "corpus" / "random_games.jsonl.gz"

STAGES = {  # stage -> (module path fragment, function name) of its entry point
    "prescan": ("movement/prescan.py", "prescan"),
    "solve (model + CP-SAT + reading)": ("movement/driver.py", "solve"),
    "batch solve": ("movement/driver.py", "solve_batch"),
    "CP-SAT Solve": ("cp_model.py", "solve"),
    "result building": ("movement/turn.py", "_result"),
}


def movement_phases(paths: list[str], limit: int | None) -> list[CorpusPhase]:
    phases = [p for p in corpus_phases(corpus_texts(paths), Rules.profile("2000")) if p.kind == str(PhaseKind.MOVEMENT)]
    return phases[:limit] if limit else phases


def run_single(phases: list[CorpusPhase]) -> None:
    for p in phases:
        dipsat.adjudicate(p.state, p.orders, p.rules)  # type: ignore[arg-type]


def run_batch(phases: list[CorpusPhase]) -> None:
    items = [(p.state, p.orders, p.rules) for p in phases]
    for i in range(0, len(items), 64):
        adjudicate_many(items[i:i + 64], 64)  # type: ignore[arg-type]


def stage_times(phases: list[CorpusPhase], rounds: int = 3) -> None:
    """CPU time of each stage of a movement phase, no profiler: prescan, solve (model
    building, CP-SAT, reading the solution), result building; best of `rounds`. CPU time,
    not the clock: on a shared machine the waits for a core are not counted."""
    from dipsat.movement.driver import solve
    from dipsat.movement.prescan import prescan
    from dipsat.movement.turn import _result

    best = {"prescan": float("inf"), "solve": float("inf"), "result": float("inf")}
    for _ in range(rounds):
        spent = dict.fromkeys(best, 0.0)
        for p in phases:
            t0 = time.process_time()
            scan = prescan(p.state, p.orders, p.rules)
            t1 = time.process_time()
            solved = solve(scan.problem, p.rules)
            t2 = time.process_time()
            _result(p.state, p.orders, p.rules, scan, solved)
            t3 = time.process_time()
            spent["prescan"] += t1 - t0
            spent["solve"] += t2 - t1
            spent["result"] += t3 - t2
        best = {k: min(best[k], spent[k]) for k in best}
    total = sum(best.values())
    print(f"=== {len(phases)} movement phases, stages in CPU time, no profiler (best of {rounds}): "
          f"{1000 * total / len(phases):.3f} ms a phase")
    for stage, seconds in best.items():
        print(f"  {stage:<10}{1000 * seconds / len(phases):8.3f} ms a phase {100 * seconds / total:5.1f}%")


def pass_times(phases: list[CorpusPhase], passes: int = 2) -> None:
    """The median and mean movement phase, one call a phase, in a first pass over the phases
    (what ``dipsat bench`` times: each position is new to the map's caches, as in real use)
    and in passes after it (the map's caches warm): what the first pass pays more is work a
    position asks of the map for the first time (the convoy searches, DATC 4.A.1, 6.D.32)."""
    import statistics

    for k in range(passes):
        times = []
        for p in phases:
            start = time.perf_counter()
            dipsat.adjudicate(p.state, p.orders, p.rules)  # type: ignore[arg-type]
            times.append(time.perf_counter() - start)
        print(f"pass {k + 1}: median {1000 * statistics.median(times):.3f} ms, "
              f"mean {1000 * sum(times) / len(times):.3f} ms a movement phase")


def report(profile: cProfile.Profile, top: int, title: str) -> None:
    stats = pstats.Stats(profile)
    total = stats.total_tt  # type: ignore[attr-defined]
    print(f"=== {title}: {total:.2f} s under the profiler")
    for stage, (path, name) in STAGES.items():
        cum = sum(v[3] for (file, _, func), v in stats.stats.items()  # type: ignore[attr-defined]
                  if file.endswith(path) and func == name)
        if cum:
            print(f"  {stage:<36}{cum:7.2f} s {100 * cum / total:5.1f}%")
    for key in ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats(key).print_stats(top)
        lines = out.getvalue().splitlines()
        start = next(i for i, line in enumerate(lines) if "ncalls" in line)
        print(f"--- top {top} by {key}")
        print("\n".join(lines[start:start + top + 1]))


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("paths", nargs="*", default=[str(CORPUS)])
    parser.add_argument("--mode", choices=("single", "batch", "both", "stages", "passes"), default="both")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--phases", type=int, default=None, help="movement phases profiled (the first N)")
    args = parser.parse_args(argv)
    phases = movement_phases(args.paths, args.phases)
    run_single(phases[:50])  # warm up: OR-Tools imported, caches filled
    gc.collect()
    gc.freeze()
    if args.mode == "stages":
        stage_times(phases)
        return
    if args.mode == "passes":
        pass_times(phases)
        return
    for mode, run in (("single", run_single), ("batch", run_batch)):
        if args.mode in (mode, "both"):
            profile = cProfile.Profile()
            profile.runcall(run, phases)
            report(profile, args.top, f"{len(phases)} movement phases, "
                   + ("one call a phase" if mode == "single" else "batch mode"))


if __name__ == "__main__":
    main(sys.argv[1:])
