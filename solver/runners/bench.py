"""Benchmarks (never timed assertions in tests): ``dipsat bench``.

Times the same public code path users run (:func:`dipsat.adjudicate`) on the
bundled case files, per phase, and reports medians and percentiles.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..adjudicator import adjudicate
from ..board import PhaseKind
from .cases import build_position, case_rules

if TYPE_CHECKING:
    from ..formats.records import RecordedGame
    from ..orders import Order
    from ..rules import Rules
    from ..state import State


@dataclass
class PhaseTiming:
    case_id: str
    kind: str
    seconds: float  # median over the repeats
    solver_calls: int


@dataclass
class BenchReport:
    timings: list[PhaseTiming] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # "where: why" of each input not timed

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
    from .inputs import iter_items  # the reader validate uses: gzipped files, archives, folders

    report = BenchReport()
    for item in iter_items(list(paths)):
        if item.kind == "unreadable":
            report.skipped.append(f"{item.source}: {item.text}")
        elif item.kind != "case":
            report.skipped.append(f"{item.source}: a recorded game among case files (time it alone)")
        for case in [item.case] if item.case is not None else []:
            if case.errors:
                report.skipped.append(str(case.errors[0]))
                continue
            rules = case_rules(case)
            if rules is None:
                report.skipped.append(f"{item.source}: case {case.id}: its RULES cannot be read")
                continue
            state, orders, problems = build_position(case, rules)
            if problems:
                report.skipped.append(f"{item.source}: case {case.id}: {problems[0]}")
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


# --- recorded games (the corpus): dipsat against the diplomacy package ---------------------


@dataclass
class CorpusPhase:
    kind: str
    state: State
    orders: list[Order]
    rules: Rules
    key: tuple[str, str] = ("", "")  # (game id, phase name)


def recorded_inputs(paths: Iterable[str]) -> bool:
    """Whether the paths hold recorded games (saved games ``.json``, ``.jsonl``, ``.gz``,
    godip histories, files or folders of them) and no case file: ``dipsat bench`` times
    them as a corpus."""
    from .inputs import iter_items

    kinds = {item.kind for item in iter_items(list(paths))}
    return bool(kinds & {"game", "godip"}) and "case" not in kinds


def corpus_texts(paths: Iterable[str]) -> list[str]:
    """The text of every recorded game in the inputs: the JSON of saved games (.json,
    .jsonl, .gz), each godip history whole (files, or folders of them)."""
    from .inputs import iter_items

    return [item.text for item in iter_items(list(paths)) if item.kind in ("game", "godip")]


def read_record(text: str) -> RecordedGame:
    """A corpus text (:func:`corpus_texts`) as a RecordedGame."""
    import json

    from ..formats.diplomacy_json import read_game
    from ..formats.godip import is_godip_history, read_godip_game

    if is_godip_history(text):
        return read_godip_game(text)
    return read_game(json.loads(text))


def corpus_phases(texts: list[str], rules: Rules, only: set[tuple[str, str]] | None = None) -> list[CorpusPhase]:
    """Every played phase of the games (a next phase records its outcome): the recorded
    position and orders; with `only`, just the phases named there by (game id, phase name)."""
    out: list[CorpusPhase] = []
    for text in texts:
        try:
            game = read_record(text)
        except Exception:  # a record that cannot be read is not timed (validate reports it)
            continue
        for phase, nxt in zip(game.phases, game.phases[1:]):
            if phase.state is None or phase.error is not None or nxt.state is None:
                continue
            if only is None or (game.id, phase.name) in only:
                out.append(CorpusPhase(str(phase.kind), phase.state, [o for o, _ in phase.orders], rules,
                                       (game.id, phase.name)))
    return out


def time_phases(phases: list[CorpusPhase]) -> list[tuple[str, float]]:
    """(kind, seconds) of dipsat.adjudicate on each phase, one call per phase."""
    out = []
    for p in phases:
        start = time.perf_counter()
        adjudicate(p.state, p.orders, p.rules)
        out.append((p.kind, time.perf_counter() - start))
    return out


def time_batch(phases: list[CorpusPhase], batch: int = 64) -> float:
    """Seconds for all phases in batch mode (movement turns share CP-SAT models),
    `batch` phases at a time, results dropped as a validator drops them."""
    from ..adjudicator import adjudicate_many

    items = [(p.state, p.orders, p.rules) for p in phases]
    start = time.perf_counter()
    for i in range(0, len(items), batch):
        adjudicate_many(items[i:i + batch], batch)
    return time.perf_counter() - start


KINDS = tuple(str(kind) for kind in PhaseKind)
"""The phase kinds as the bench names them (a :class:`CorpusPhase`'s ``kind``), in the order its tables list them."""


def time_batch_kinds(phases: list[CorpusPhase], batch: int = 64) -> list[tuple[str, int, float]]:
    """Batch mode kind by kind: (kind, phases, seconds a phase) of each batch of `batch`
    phases of one kind (a batch is one call: its time is its phases' in common)."""
    from ..adjudicator import adjudicate_many

    out = []
    for kind in KINDS:
        items = [(p.state, p.orders, p.rules) for p in phases if p.kind == kind]
        for i in range(0, len(items), batch):
            chunk = items[i:i + batch]
            start = time.perf_counter()
            adjudicate_many(chunk, batch)
            out.append((kind, len(chunk), (time.perf_counter() - start) / len(chunk)))
    return out


def batch_kind_table(timings: list[tuple[str, int, float]]) -> list[str]:
    """The lines of :func:`time_batch_kinds`'s figures: per kind, the median batch's time a phase."""
    lines = [f"{'dipsat, batch mode':<24}{'phases':>8}{'batches':>9}{'median ms a phase':>19}"]
    for kind in KINDS:
        mine = [(n, seconds) for k, n, seconds in timings if k == kind]
        if mine:
            median = statistics.median(seconds * 1000 for _, seconds in mine)
            lines.append(f"  {kind:<22}{sum(n for n, _ in mine):>8}{len(mine):>9}{median:>19.3f}")
    return lines


def _worker_chunk(task: tuple[list[str], str]) -> tuple[int, float, float]:
    """A pool task: read and adjudicate some games in batch mode; (phases, start, end)."""
    from ..rules import Rules

    texts, rules_text = task
    phases = corpus_phases(texts, Rules.parse(rules_text.split()))
    gc.collect()
    gc.freeze()  # the loaded games live all along: keep them out of the collector's way
    start = time.time()
    time_batch(phases)
    return len(phases), start, time.time()


def time_workers(texts: list[str], rules: Rules, workers: int) -> float:
    """Phases per second over the games with `workers` processes (batch mode in each),
    from the first worker's start to the last one's end (process start-up excluded)."""
    from .pool import Pool, TaskFailure
    from .runtime import import_solver

    chunks = [texts[i::workers] for i in range(workers)]  # one share per worker: parse, then time
    pool = Pool(_worker_chunk, workers, warm_up=import_solver)  # the import of OR-Tools is start-up too
    results = [r for _, r in pool.run([(c, str(rules)) for c in chunks if c])]
    done: list[tuple[int, float, float]] = [r for r in results if not isinstance(r, TaskFailure)]
    phases = sum(n for n, _, _ in done)
    wall = max(e for _, _, e in done) - min(s for _, s, _ in done)
    return phases / wall


def package_timings(paths: Iterable[str]) -> list[tuple[str, float, str, str]] | None:
    """The diplomacy package's Game.process() per phase on the same games (its own
    process, through dipsat.peers.diplomacy): (kind, seconds, game id, phase name), or
    None when it is not installed."""
    import importlib.util
    import json
    import os
    import subprocess
    import sys
    import tempfile

    if importlib.util.find_spec("diplomacy") is None:
        return None
    with tempfile.TemporaryDirectory() as folder:
        games = os.path.join(folder, "games.jsonl")
        with open(games, "w", encoding="utf-8") as handle:
            handle.writelines(_saved_game_line(text) for text in corpus_texts(paths))
        run = subprocess.run([sys.executable, "-m", "dipsat.peers.diplomacy", "--replay", games],
                             env={**os.environ, "PYTHONHASHSEED": "0"}, capture_output=True, text=True)
    if run.returncode != 0:
        return None
    letters = {"M": "Movement", "R": "Retreat", "A": "Adjustment"}
    return [(letters.get(k, k), s, game, name) for k, s, game, name in json.loads(run.stdout)]


def _saved_game_line(text: str) -> str:
    """A corpus text as one line of the package's saved-game JSON (godip histories converted)."""
    import json

    from ..formats.diplomacy_json import write_game
    from ..formats.godip import is_godip_history

    if is_godip_history(text):
        return json.dumps(write_game(read_record(text))) + "\n"
    return text.strip() + "\n"


def kind_table(title: str, timings: list[tuple[str, float]]) -> list[str]:
    lines = [f"{title:<24}{'phases':>8}{'median ms':>11}{'p90 ms':>9}{'p99 ms':>9}"]
    kinds: dict[str, list[float]] = {}
    for kind, seconds in timings:
        kinds.setdefault(kind, []).append(seconds * 1000)
    for kind in KINDS:
        if kind in kinds:
            ms = kinds[kind]
            lines.append(f"  {kind:<22}{len(ms):>8}{statistics.median(ms):>11.3f}{percentile(ms, 90):>9.3f}"
                         f"{percentile(ms, 99):>9.3f}")
    return lines
