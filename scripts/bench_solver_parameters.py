"""What the search-free solver parameters save (a benchmark, not a test).

The driver solves a model with exactly one solution, and enumerates every solution of a
model, with CP-SAT's search aids off (symmetry detection, probing, inprocessing:
``dipsat.movement.cpsat._parameters(search_free=True)``); the calls whose answer can depend
on the search (an infeasibility core, an enumeration stopped at its cap) keep them. This
script times

1. one small model (5 booleans, 4 constraints): a solver call with and without the aids;
2. the movement turns of the bundled corpus that CP-SAT settles (those with a cycle among
   the decisions their constant folding leaves open: the others fold when built again,
   ``driver.folded_again``), one ``dipsat.adjudicate`` call a turn, rounds alternating
   between the two settings: the best round's CPU time of each.

Usage: ``python scripts/bench_solver_parameters.py [--rounds 5]``. The machine may be
shared: compare numbers from one run only.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
import timeit
from collections.abc import Callable
from pathlib import Path

import dipsat
from dipsat.encodings import Encoding
from dipsat.encodings.phase_model import PhaseModel
from dipsat.movement import cpsat, prescan
from dipsat.movement.driver import folded, has_cycle
from dipsat.rules import Rules
from dipsat.runners.bench import corpus_phases, corpus_texts
from dipsat.runners.runtime import tune_for_batches

CORPUS = Path(__file__).resolve().parent.parent / "cases" / "corpus" / "random_games.jsonl.gz"


SEARCH_FREE: Callable[..., object] = cpsat._parameters
"""The driver's parameters: without the search aids where the answer cannot depend on them."""


def _thorough(all_solutions: bool = False, search_free: bool = False) -> object:
    """The parameters with the search aids whatever the call (as before they were dropped)."""
    return SEARCH_FREE(all_solutions=all_solutions)


def small_model_ms(search_free: bool, number: int = 2000) -> float:
    model = PhaseModel()
    a, b, c, d, e = (model.new_bool_var(name) for name in "abcde")
    model.add_bool_or([a, b])
    model.add_implication(a, c)
    model.add(d == 1)
    model.add_bool_and([e.Not()])
    parameters = SEARCH_FREE(search_free=search_free)
    return min(timeit.repeat(lambda: cpsat._run(model, parameters), number=number, repeat=5)) / number * 1000


def _cyclic(enc: Encoding) -> bool:
    """Does CP-SAT settle the turn: did its folding leave a decision open, in a cycle?"""
    return not folded(enc) and has_cycle(enc.deps)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    tune_for_batches()
    print(f"small model, one call: {small_model_ms(False):.3f} ms with the search aids, "
          f"{small_model_ms(True):.3f} ms without")
    phases = [p for p in corpus_phases(corpus_texts([str(CORPUS)]), Rules.profile("2000")) if p.kind == "Movement"]
    solved = [p for p in phases if _cyclic(Encoding(prescan(p.state, p.orders, p.rules).problem, p.rules.model))]
    gc.collect()
    gc.freeze()
    best = {"search-free": float("inf"), "thorough": float("inf")}
    for _ in range(args.rounds):
        for setting in best:
            setattr(cpsat, "_parameters", SEARCH_FREE if setting == "search-free" else _thorough)
            start = time.process_time()
            for p in solved:
                dipsat.adjudicate(p.state, p.orders, p.rules)
            best[setting] = min(best[setting], time.process_time() - start)
    setattr(cpsat, "_parameters", SEARCH_FREE)
    print(f"{len(solved)} of {len(phases)} movement turns settled by CP-SAT, best of {args.rounds} rounds (CPU): "
          + ", ".join(f"{setting} {1000 * seconds:.1f} ms ({1000 * seconds / len(solved):.3f} ms a turn)"
                      for setting, seconds in best.items()))


if __name__ == "__main__":
    main(sys.argv[1:])
