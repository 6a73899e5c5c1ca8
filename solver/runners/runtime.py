"""Process settings for batch work, set by the entry points (the CLI, pool workers).

Adjudicating thousands of phases makes and drops millions of small objects (orders,
CP-SAT model pieces, results) while the games read stay alive: with Python's default
thresholds the cyclic garbage collector runs every 700 allocations and walks the
whole live heap again and again (a third of the time of ``dipsat validate`` in a
profile). Batch entry points raise the thresholds; the library itself never touches
process-wide settings.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
from collections.abc import Callable

BATCH_GC_THRESHOLDS = (100_000, 20, 100)
"""Collections of the youngest generation after 100,000 allocations (Python: 700);
measured on ``dipsat validate`` of 50 recorded games: 4.1 s -> 3.1 s of CPU."""


def tune_for_batches() -> None:
    """Raise the garbage collector's thresholds (see the module docstring)."""
    gc.set_threshold(*BATCH_GC_THRESHOLDS)


BLAS_THREADS = "OPENBLAS_NUM_THREADS"
"""OpenBLAS's thread count, read when numpy loads it. dipsat does no linear algebra, but
OR-Tools' model class loads numpy, and OpenBLAS starts a thread per core as it loads
(0.1 s of CPU per process on two cores: ``dipsat adjudicate`` of one case went from 0.45
to 0.34 s of CPU, its wall time unchanged)."""


def one_blas_thread() -> None:
    """Keep OpenBLAS to the calling thread in this process and the workers it starts,
    unless the user's environment sets its thread count; for entry points, called before
    OR-Tools is first imported (on the first solve)."""
    os.environ.setdefault(BLAS_THREADS, "1")



SOLVER_MODULES = ("dipsat.encodings.phase_model", "dipsat.movement.cpsat")
"""The modules that load OR-Tools, which ``dipsat`` imports only when a turn first needs
the solver (about 0.16 s)."""


def import_solver() -> None:
    """Load the solver now, not within the first turn that needs it: a picklable pool
    warm-up (:class:`~dipsat.runners.pool.Pool`), so that a worker's time limits and
    timings count its work, not the import. That is the modules and numpy, which OR-Tools'
    extension loads only when the first model is made (about 0.2 s more): one empty model
    is made and dropped."""
    import importlib

    for module in SOLVER_MODULES:
        importlib.import_module(module)
    importlib.import_module(SOLVER_MODULES[0]).PhaseModel()  # (the extension loads numpy here)


def _nothing() -> None:
    pass


def long_lived_heap(active: bool = True) -> tuple[Callable[[], None], Callable[[], None]]:
    """(settle, release), for a run that keeps what it makes to the end (an archive
    validated by one worker keeps every record's judge, its results cached for the passes
    that finish the run). `settle`, called once a record is done, moves every object alive
    into the collector's permanent generation (:func:`gc.freeze`), so the collector stops
    walking the kept judges again and again (with 200 recorded games, about a tenth of the
    run's time); `release`, called when the run ends (in a ``finally``), hands them back to
    it (:func:`gc.unfreeze`), so they go when the run does, in the CLI as in a test that
    invokes it. A judge holds no reference cycle: a frozen object that dies meanwhile is
    freed by its reference count all the same. Not `active`: two functions doing nothing."""
    return (gc.freeze, gc.unfreeze) if active else (_nothing, _nothing)


def end_at_once(code: int | None) -> None:
    """End the process with the exit status `code` (None: 0) without tearing its heap down,
    where nothing is left to finish; else return, and the caller exits as usual.

    A batch command keeps what it made alive to its end (an archive's judges, their results
    cached): hundreds of thousands of objects that the interpreter's shutdown frees one by
    one, with a last pass of the collector over them, all to no purpose as the process ends
    (0.2 s of CPU after a 4.5 s ``dipsat validate`` of the bundled corpus). For the command
    line only (:func:`dipsat.cli.run`), once its command has returned: everything it wrote
    is written and its files closed (click closes the command's context first); the
    standard streams are flushed here. Nothing is skipped where another thread or a worker
    process may still run (multiprocessing loaded), or where the streams cannot be flushed
    (a closed pipe: the usual shutdown reports it)."""
    if threading.active_count() > 1 or "multiprocessing" in sys.modules:
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(code or 0)

