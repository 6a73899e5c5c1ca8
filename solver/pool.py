"""A process pool that never loses a task: ``dipsat validate --workers N``.

Each worker runs one task at a time. A task whose worker dies (a crash, or a kill
from outside) is tried once more on a fresh worker, then reported as failed; a task
that runs past the time limit has its worker killed and is reported as timed out.
Results come back keyed by task index, so the caller can put them in input order:
the output does not depend on the number of workers.
"""

from __future__ import annotations

import multiprocessing
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any


@dataclass(frozen=True)
class TaskFailure:
    """A task that produced no result: why (crash, time-out, exception)."""

    reason: str


def _worker(fn: Callable[[Any], Any], conn: Connection) -> None:
    from .runtime import tune_for_batches
    tune_for_batches()
    conn.send(("ready", None))  # started and imported: time limits count from here
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message is None:
            return
        index, payload = message
        try:
            result: Any = fn(payload)
        except Exception as exc:  # a bug on one record must not stop the run
            result = TaskFailure(f"{type(exc).__name__}: {exc} ({traceback.format_exc(limit=1).splitlines()[-1]})")
        conn.send((index, result, True))  # True: a real answer (a task may return None)


@dataclass
class _Slot:
    process: multiprocessing.process.BaseProcess
    conn: Connection
    task: int | None = None
    started: float = 0.0


class Pool:
    """`workers` processes running `fn` (a picklable top-level function)."""

    def __init__(self, fn: Callable[[Any], Any], workers: int, timeout: float | None = None,
                 retries: int = 1) -> None:
        self.fn = fn
        self.workers = max(1, workers)
        self.timeout = timeout
        self.retries = retries
        self.context = multiprocessing.get_context("spawn")  # OR-Tools and fork do not mix

    def _spawn(self, attempts: int = 3) -> _Slot:
        """A started worker (it has imported everything and said so)."""
        for _ in range(attempts):
            parent, child = self.context.Pipe()
            process = self.context.Process(target=_worker, args=(self.fn, child), daemon=True)
            process.start()
            child.close()
            try:
                if parent.poll(120):
                    parent.recv()
                    return _Slot(process, parent)
            except (EOFError, OSError):
                pass  # it died while starting (killed from outside?): start another
            process.kill()
            process.join()
        raise RuntimeError(f"no worker process could be started in {attempts} attempts")

    def run(self, payloads: Sequence[Any]) -> Iterator[tuple[int, Any]]:
        """Yield (index, result or TaskFailure) for every payload, in completion order."""
        todo = list(range(len(payloads)))[::-1]
        tries = {i: 0 for i in range(len(payloads))}
        slots = [self._spawn() for _ in range(min(self.workers, len(payloads)))]
        try:
            while todo or any(s.task is not None for s in slots):
                for slot in slots:
                    if slot.task is None and todo:
                        slot.task = todo.pop()
                        slot.started = time.monotonic()
                        tries[slot.task] += 1
                        try:
                            slot.conn.send((slot.task, payloads[slot.task]))
                        except OSError:  # the worker died idle (BrokenPipeError): not the task's try,
                            tries[slot.task] -= 1  # found dead below and the task given to a fresh one
                busy = [s for s in slots if s.task is not None]
                ready = wait([s.conn for s in busy] + [s.process.sentinel for s in busy], timeout=0.25)
                for i, slot in enumerate(slots):
                    if slot.task is None:
                        continue
                    if slot.conn in ready:
                        try:
                            index, result, _ = slot.conn.recv()
                            slot.task = None
                            yield index, result
                            continue
                        except (EOFError, OSError):
                            pass  # the worker died: handled below
                    dead = not slot.process.is_alive()
                    late = self.timeout is not None and time.monotonic() - slot.started > self.timeout
                    if dead or late:
                        task = slot.task
                        slot.process.kill()
                        slot.process.join()
                        slots[i] = self._spawn()
                        if late:
                            yield task, TaskFailure(f"timed out after {self.timeout:g} s")
                        elif tries[task] <= self.retries:
                            todo.append(task)  # the worker died: try once more on a fresh one
                        else:
                            yield task, TaskFailure(f"worker crashed {tries[task]} times on this record")
        finally:
            for slot in slots:
                try:
                    slot.conn.send(None)
                except (BrokenPipeError, OSError):
                    pass
            for slot in slots:
                slot.process.join(timeout=2)
                if slot.process.is_alive():
                    slot.process.kill()
