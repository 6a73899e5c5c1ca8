"""What PhaseModel saves against OR-Tools' own CpModel (a benchmark, not a test).

``dipsat.encodings.phase_model.PhaseModel`` builds a model on the extension's ``CpBaseModel``
(no ``cp_model`` module, so no pandas to import), without the deprecated CamelCase aliases
that ortools 9.15's ``CpModel.__init__`` binds to every model. This script times

1. building an empty model: ``cp_model.CpModel()`` against ``PhaseModel()``;
2. the movement phases of the bundled corpus (one ``dipsat.adjudicate`` call per phase,
   the path ``dipsat bench`` times as "one call a phase"), with PhaseModel and with a
   plain CpModel in its place: median ms per phase, best of ``--rounds`` rounds.

Usage: ``python scripts/bench_model.py [--rounds 5] [--phases 600]``. The machine may be
shared: compare numbers from one run only.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import timeit
from pathlib import Path

from ortools.sat.python import cp_model

import dipsat
from dipsat.runners.bench import corpus_phases, corpus_texts
from dipsat.encodings import phase_model as model_module
from dipsat.rules import Rules

CORPUS = Path(__file__).resolve().parent.parent / "cases" / "corpus" / "random_games.jsonl.gz"


def model_ms(cls: type, number: int = 2000) -> float:
    return min(timeit.repeat(cls, number=number, repeat=5)) / number * 1000


def movement_ms(phases: list, rounds: int, model_class: type) -> float:
    """Median ms per movement phase, best of `rounds`, with `model_class` for every model."""
    saved = model_module.PhaseModel
    model_module.PhaseModel = model_class
    try:
        best = float("inf")
        for _ in range(rounds):
            samples = []
            for p in phases:
                start = time.perf_counter()
                dipsat.adjudicate(p.state, p.orders, p.rules)
                samples.append(time.perf_counter() - start)
            best = min(best, statistics.median(samples) * 1000)
        return best
    finally:
        model_module.PhaseModel = saved


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--phases", type=int, default=600, help="movement phases timed (the corpus's first)")
    args = parser.parse_args(argv)
    import ortools

    print(f"ortools {ortools.__version__}; PhaseModel on the extension's CpBaseModel: {model_module.LEAN}")
    print(f"empty model:  CpModel() {model_ms(cp_model.CpModel):.3f} ms, PhaseModel() {model_ms(model_module.PhaseModel):.3f} ms")
    phases = [p for p in corpus_phases(corpus_texts([str(CORPUS)]), Rules.profile("2000"))
              if p.kind == "Movement"][:args.phases]
    gc.collect()
    gc.freeze()
    plain = movement_ms(phases, args.rounds, cp_model.CpModel)
    ours = movement_ms(phases, args.rounds, model_module.PhaseModel)
    print(f"movement phase, median of {len(phases)}, best of {args.rounds} rounds: "
          f"CpModel {plain:.3f} ms, PhaseModel {ours:.3f} ms ({(plain - ours) / plain:.0%} less)")


if __name__ == "__main__":
    main(sys.argv[1:])
