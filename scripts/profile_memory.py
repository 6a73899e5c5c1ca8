"""What a movement result keeps in memory, and where (a profile, not a test).

Batch mode (``dipsat bench``, ``dipsat validate``) holds the results of 64 turns at once
and frees them together: the memory a result keeps is memory touched twice, when made and
when freed, and past the core's own cache it costs time. This script measures it on the
movement phases of the bundled corpus (or the recorded games given):

- ``kept``: bytes a result keeps a turn (its graph of objects, less the inputs and what
  every turn shares: the values of dipsat's modules), by part
  of the result (the next state, the order results, the prescan's fields, the solved
  model's values, the resolution's) and by type (objects and bytes);
- ``batch``: what ``tracemalloc`` sees of a batch of 64 turns, per turn: the peak and what
  the returned results still hold.

Usage: ``python scripts/profile_memory.py [--phases N] [--top 20] [PATHS...]``. Sizes are
``sys.getsizeof``'s, objects reached through ``gc.get_referents`` (types, modules, functions
and enum members left out). Deterministic: the same corpus gives the same figures.

For the time the memory costs, simulate the caches (valgrind's callgrind, deterministic
where timings on a shared machine are not), e.g. of two batch passes over the corpus:
``valgrind --tool=callgrind --cache-sim=yes --LL=1048576,16,64 python -c ...``, reading
``Ir`` (instructions) and ``D1mr+D1mw``, ``DLmr+DLmw`` (misses) from its summary line.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import enum
import gc
import statistics
import sys
import tracemalloc
import types
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from dipsat.adjudicator import adjudicate, adjudicate_many
from dipsat.board import PhaseKind
from dipsat.outcomes import Later
from dipsat.rules import Rules
from dipsat.runners.bench import CorpusPhase, corpus_phases, corpus_texts

CORPUS = Path(__file__).resolve().parent.parent / "cases" / "corpus" / "random_games.jsonl.gz"
_NOT_DATA = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, enum.Enum)


def reach(root: object, seen: set[int], by_type: collections.Counter[str] | None = None,
          count: collections.Counter[str] | None = None) -> int:
    """Bytes of the objects reached from `root` and not in `seen` (which gets them)."""
    total, stack = 0, [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, _NOT_DATA):
            continue
        seen.add(id(obj))
        size = sys.getsizeof(obj)
        total += size
        if by_type is not None and count is not None:
            by_type[type(obj).__name__] += size
            count[type(obj).__name__] += 1
        stack.extend(gc.get_referents(obj))
    return total


def _resolution(result: Any) -> Any:
    """The turn's resolution, which the outcomes read their lazy fields with (None if none has one)."""
    for r in result.results:
        reader = getattr(r.outcome, "_reader", None)
        if reader is not None:
            return reader
        for name in getattr(type(r.outcome), "__slots__", ()):
            cell = getattr(r.outcome, name, None)
            if isinstance(cell, Later) and hasattr(getattr(cell, "_arg", None), "__dict__"):
                return cell._arg
    return None


def _parts(result: Any) -> Iterable[tuple[str, object]]:
    """The parts of a movement result, in the order their bytes are counted (a part gets
    what no part before it reached: the order results, counted last, get their outcomes and
    cells, not the turn's problem and solution that the cells read)."""
    scan, solved = result.trace.scan, result.trace.solved
    yield "next state", result.after
    for name in type(scan.problem).__slots__:
        yield f"scan.problem.{name}", getattr(scan.problem, name)
    for f in dataclasses.fields(scan):
        if f.name != "problem":
            yield f"scan.{f.name}", getattr(scan, f.name)
    for f in dataclasses.fields(solved):
        yield f"solved.{f.name}", getattr(solved, f.name)
    resolution = _resolution(result)
    if resolution is not None:
        for name, value in vars(resolution).items():
            yield f"resolution.{name}", value
    yield "order results (outcomes, lazy cells)", result.results
    yield "the rest of the result", result


def kept(phases: list[CorpusPhase], top: int) -> None:
    by_part: collections.Counter[str] = collections.Counter()
    by_type: collections.Counter[str] = collections.Counter()
    count: collections.Counter[str] = collections.Counter()
    shared: set[int] = set()  # what every turn shares (the modules' values: maps' tables, premade keys)
    for name, module in list(sys.modules.items()):
        if name.startswith("dipsat"):
            reach(vars(module), shared)
    for p in phases:
        inputs = set(shared)
        reach((p.state, p.orders, p.rules), inputs)
        result = adjudicate(p.state, p.orders, p.rules)  # type: ignore[arg-type]
        seen = set(inputs)
        for name, part in _parts(result):
            by_part[name] += reach(part, seen)
        reach(result, set(inputs), by_type, count)
    n = len(phases)
    print(f"=== what a result keeps: {sum(by_part.values()) / n:,.0f} bytes, "
          f"{sum(count.values()) / n:.1f} objects a turn ({n} movement turns)")
    for name, size in by_part.most_common(top):
        print(f"  {size / n:8,.0f} B  {name}")
    print("  by type:")
    for name, size in by_type.most_common(top):
        print(f"  {size / n:8,.0f} B  {count[name] / n:6.1f}  {name}")


def batch(phases: list[CorpusPhase], batches: int = 10) -> None:
    items = [(p.state, p.orders, p.rules) for p in phases]
    adjudicate_many(items[:64], 64)  # type: ignore[arg-type]  # warm: the maps' tables, the solver
    peaks, held = [], []
    for start in range(0, min(len(items), 64 * batches), 64):
        chunk = items[start:start + 64]
        gc.collect()
        tracemalloc.start()
        results = adjudicate_many(chunk, 64)  # type: ignore[arg-type]
        now, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        peaks.append(peak / len(chunk))
        held.append(now / len(chunk))
        del results
    print(f"=== a batch of 64 (tracemalloc, median of {len(peaks)} batches): peak {statistics.median(peaks):,.0f} B "
          f"a turn, {statistics.median(held):,.0f} B a turn still held by the results")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=[str(CORPUS)])
    parser.add_argument("--phases", type=int, default=300, help="movement turns for 'kept' (default 300)")
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    phases = [p for p in corpus_phases(corpus_texts(args.paths), Rules.profile("2000"))
              if p.kind == str(PhaseKind.MOVEMENT)]
    kept(phases[:args.phases], args.top)
    batch(phases)


if __name__ == "__main__":
    main()
