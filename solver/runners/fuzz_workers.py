"""Where a ``dipsat fuzz`` run's phases are judged: in this process, in a pool of worker
processes (``--workers N``), or on a Dask cluster (``--scheduler ADDRESS``, the optional
extra ``dipsat[dask]``).

Judging is the run's long part (each phase judged under every option of the issues it
touches, to infer the engine's readings); it is cut into chunks of phases
(:data:`CHUNK`), each judged where it is sent and its reports put back in the run's
order: the verdicts do not depend on where they were reached. A chunk whose worker fails
(a crash, a time-out) gives a rejected record per phase, and the run goes on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .inference import Inference
from .pool import Pool, TaskFailure, call_with_limit, dask_map

if TYPE_CHECKING:
    from .archive import JudgeAll
    from .validate import GameReport

__all__ = ["CHUNK", "dask_judge", "pool_judge"]

CHUNK = 16
"""Phases per task sent to a worker."""

Task = tuple[Callable[[Inference], "GameReport"], Inference]


def _judge_chunk(tasks: list[Task]) -> list[GameReport]:
    """A worker's unit of work (top level, so worker processes can import it)."""
    return [judge(inference) for judge, inference in tasks]


def _judge_chunk_within(task: tuple[list[Task], float]) -> list[GameReport] | TaskFailure:
    """A Dask task: a chunk under the time limit (top level, so the cluster can import it)."""
    tasks, timeout = task
    answer: list[GameReport] | TaskFailure = call_with_limit(_judge_chunk, tasks, timeout)
    return answer


def _warm_up() -> None:
    import importlib
    for module in ("dipsat.runners.validate", "dipsat.encodings.phase_model", "dipsat.movement.cpsat"):
        importlib.import_module(module)


def _failed(task: Task, reason: str) -> GameReport:
    """The report of a record whose judge failed (a judge names its `source` and `rules`)."""
    from .validate import rejected_record
    judge = task[0]
    return rejected_record(str(getattr(judge, "source", "?")), f"the worker failed on this phase: {reason}",
                           getattr(judge, "rules", None))


def _chunks(tasks: list[Task]) -> list[list[Task]]:
    return [tasks[k:k + CHUNK] for k in range(0, len(tasks), CHUNK)]


def _gathered(chunks: list[list[Task]], results: dict[int, list[GameReport] | TaskFailure]) -> list[GameReport]:
    out: list[GameReport] = []
    for k, chunk in enumerate(chunks):
        result = results[k]
        out += [_failed(t, result.reason) for t in chunk] if isinstance(result, TaskFailure) else result
    return out


def pool_judge(workers: int, timeout: float | None = None,
               progress: Callable[[int], None] | None = None) -> JudgeAll:
    """Judging in `workers` processes (:class:`dipsat.runners.pool.Pool`); `timeout` per
    chunk; `progress` is told how many phases are judged so far."""

    def judge_all(tasks: list[Task]) -> list[GameReport]:
        chunks = _chunks(tasks)
        if workers <= 1 or len(chunks) <= 1:
            results = {k: call_with_limit(_judge_chunk, chunk, timeout) for k, chunk in enumerate(chunks)}
            return _gathered(chunks, results)
        results = {}
        done = 0
        for k, result in Pool(_judge_chunk, workers, timeout, warm_up=_warm_up).run(chunks):
            results[k] = result
            done += len(chunks[k])
            if progress is not None:
                progress(done)
        return _gathered(chunks, results)

    return judge_all


def dask_judge(address: str, timeout: float, security: Any = None) -> JudgeAll:
    """Judging on the Dask `distributed` cluster at `address` (the cluster must be trusted:
    what it sends back is unpickled here). Raises ImportError without ``distributed``."""
    import distributed
    client_type: Any = distributed.Client  # untyped

    def judge_all(tasks: list[Task]) -> list[GameReport]:
        chunks = _chunks(tasks)
        if not chunks:
            return []
        with client_type(address, security=security) as client:
            results = dict(dask_map(client, _judge_chunk_within, [(chunk, timeout) for chunk in chunks], timeout))
        return _gathered(chunks, results)

    return judge_all
