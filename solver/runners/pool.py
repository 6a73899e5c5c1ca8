"""A process pool that never loses a task: ``dipsat validate --workers N``.

Each worker runs one task at a time. A task whose worker dies (a crash, or a kill
from outside) is tried once more on a fresh worker, then reported as failed; a task
that runs past the time limit has its worker killed and is reported as timed out.
A worker that dies while idle is replaced before it gets a task (no task is lost,
none is counted as tried).
Results come back keyed by task index, so the caller can put them in input order:
the output does not depend on the number of workers. :func:`call_with_limit` runs one
task in the calling process with the same time limit and the same answers.
"""

from __future__ import annotations

import gc
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # multiprocessing is loaded by a pool when made: a run with one worker needs none
    import multiprocessing.process
    from multiprocessing.connection import Connection


@dataclass(frozen=True)
class TaskFailure:
    """A task that produced no result: why (crash, time-out, exception)."""

    reason: str


def timed_out(seconds: float) -> TaskFailure:
    return TaskFailure(f"timed out after {seconds:g} s")


def _call(fn: Callable[[Any], Any], payload: Any) -> Any:
    try:
        return fn(payload)
    except Exception as exc:  # a bug on one record must not stop the run
        return TaskFailure(f"{type(exc).__name__}: {exc} ({traceback.format_exc(limit=1).splitlines()[-1]})")


class _Late(BaseException):
    """Raised by the alarm in :func:`call_with_limit` (not an Exception: nothing catches it by mistake)."""


def call_with_limit(fn: Callable[[Any], Any], payload: Any, timeout: float | None) -> Any:
    """``fn(payload)`` in this process, with the pool's time limit and its answers: the
    result, or a :class:`TaskFailure` (timed out, or the exception raised).

    In the main thread (POSIX) an alarm interrupts the call at the limit (between two
    solver calls: the solver itself is not interrupted). In another thread (a Dask
    worker) the call runs in a thread of its own and is left to finish in the
    background when it is late."""
    if timeout is None:
        return _call(fn, payload)
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        return _call_with_alarm(fn, payload, timeout)
    answer: list[Any] = []
    thread = threading.Thread(target=lambda: answer.append(_call(fn, payload)), daemon=True)
    thread.start()
    thread.join(timeout)
    return answer[0] if answer else timed_out(timeout)


def _call_with_alarm(fn: Callable[[Any], Any], payload: Any, timeout: float) -> Any:
    # An exception raised in a gc callback or a finalizer cannot propagate: Python hands it to
    # sys.unraisablehook (where pytest, for one, turns it into an error). So the alarm is held
    # back while the collector runs, and fires again as soon as it is done; the alarm also
    # repeats, for one raised in a finalizer outside a collection.
    running = True
    collecting = False
    held = False

    def late(signum: int, frame: Any) -> None:
        nonlocal held
        if not running:
            return
        if collecting or (frame is not None and frame.f_code in (gc_start.__code__, gc_stop.__code__)):
            held = True
            return
        raise _Late()

    def gc_start(phase: str, info: dict[str, int]) -> None:  # first of the collector's callbacks
        nonlocal collecting
        if phase == "start":
            collecting = True

    def gc_stop(phase: str, info: dict[str, int]) -> None:  # last of them
        nonlocal collecting, held
        if phase == "stop":
            collecting = False
            if held:
                held = False
                signal.setitimer(signal.ITIMER_REAL, 0.001, 0.5)  # fires in the code the collection interrupted

    previous = signal.signal(signal.SIGALRM, late)
    gc.callbacks.insert(0, gc_start)
    gc.callbacks.append(gc_stop)
    try:
        try:
            signal.setitimer(signal.ITIMER_REAL, timeout, 0.5)
            result = _call(fn, payload)
        except _Late:
            result = timed_out(timeout)
        finally:
            running = False
    except _Late:  # the next alarm, just as the first was caught
        result = timed_out(timeout)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)
        gc.callbacks.remove(gc_start)
        gc.callbacks.remove(gc_stop)
    return result


def _worker(fn: Callable[[Any], Any], conn: Connection, warm_up: Callable[[], None] | None = None) -> None:
    from .runtime import tune_for_batches
    tune_for_batches()
    if warm_up is not None:
        warm_up()  # e.g. import the solver: not a cost of the first task's time limit
    conn.send(("ready", None))  # started and imported: time limits count from here
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message is None:
            return
        index, payload = message
        conn.send((index, _call(fn, payload), True))  # True: a real answer (a task may return None)


@dataclass
class _Slot:
    process: multiprocessing.process.BaseProcess
    conn: Connection
    task: int | None = None
    started: float = 0.0


class Pool:
    """`workers` processes running `fn` (a picklable top-level function)."""

    def __init__(self, fn: Callable[[Any], Any], workers: int, timeout: float | None = None,
                 retries: int = 1, warm_up: Callable[[], None] | None = None) -> None:
        self.fn = fn
        self.warm_up = warm_up  # a picklable top-level function each worker runs before its first task
        self.workers = max(1, workers)
        self.timeout = timeout
        self.retries = retries
        import multiprocessing

        self.context = multiprocessing.get_context("spawn")  # OR-Tools and fork do not mix

    def _spawn(self, attempts: int = 3) -> _Slot:
        """A started worker (it has imported everything and said so)."""
        for _ in range(attempts):
            parent, child = self.context.Pipe()
            process = self.context.Process(target=_worker, args=(self.fn, child, self.warm_up), daemon=True)
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

    def _respawn(self, slot: _Slot) -> _Slot:
        """A fresh worker in place of a dead (or stopped) one."""
        slot.process.kill()
        slot.process.join()
        slot.conn.close()
        return self._spawn()

    @staticmethod
    def _give(slot: _Slot, task: int, payload: Any) -> bool:
        """Send a task to an idle worker; False when the worker is gone (killed while it
        waited: the pipe is broken, or the process has ended)."""
        if not slot.process.is_alive():
            return False
        try:
            slot.conn.send((task, payload))
        except (BrokenPipeError, ConnectionResetError, EOFError, OSError):
            return False
        return True

    def run(self, payloads: Sequence[Any]) -> Iterator[tuple[int, Any]]:
        """Yield (index, result or TaskFailure) for every payload, in completion order."""
        from multiprocessing.connection import wait

        todo = list(range(len(payloads)))[::-1]
        tries = {i: 0 for i in range(len(payloads))}
        slots = [self._spawn() for _ in range(min(self.workers, len(payloads)))]
        try:
            while todo or any(s.task is not None for s in slots):
                for i, slot in enumerate(slots):
                    if slot.task is None and todo:
                        if not self._give(slot, todo[-1], payloads[todo[-1]]):
                            slots[i] = self._respawn(slot)  # it died while idle: the task was never sent
                            continue
                        slot.task = todo.pop()
                        slot.started = time.monotonic()
                        tries[slot.task] += 1
                busy = [s for s in slots if s.task is not None]
                ready = wait([s.conn for s in busy] + [s.process.sentinel for s in busy], timeout=0.25)
                for i, slot in enumerate(slots):
                    task = slot.task
                    if task is None:
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
                    limit = self.timeout
                    late = limit is not None and time.monotonic() - slot.started > limit
                    if dead or late:
                        slots[i] = self._respawn(slot)
                        if limit is not None and late:
                            yield task, timed_out(limit)
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


def dask_map(client: Any, fn: Callable[[Any], Any], payloads: Sequence[Any],
             timeout: float) -> Iterator[tuple[int, Any]]:
    """Yield (index, result or TaskFailure) for every payload run as ``fn(payload)`` on the
    Dask `client`'s cluster, in completion order (``dipsat validate --scheduler``, ``dipsat
    fuzz --scheduler``). A task lost with its worker, or that raises, is a failure; when
    nothing is done for `timeout` seconds and the cluster has no worker left, every task
    still pending is one."""
    import distributed
    completed: Any = distributed.as_completed  # untyped
    futures: dict[Any, int] = {client.submit(fn, payload, pure=False): i for i, payload in enumerate(payloads)}
    pending, done = set(futures), completed(futures)
    heard = time.monotonic()
    while pending:
        batch = done.next_batch(block=False) if done.has_ready() else []
        if not batch:  # none done within the time limit: is anyone left to do them?
            if time.monotonic() - heard > timeout and not _dask_workers(client):
                for future in sorted(pending, key=futures.__getitem__):
                    future.cancel()
                    yield futures[future], TaskFailure(f"the cluster has no worker left: still pending after "
                                                       f"--timeout ({timeout:g} s)")
                return
            time.sleep(0.05)
            continue
        heard = time.monotonic()
        for future in batch:
            pending.discard(future)
            try:
                yield futures[future], future.result()
            except Exception as exc:  # a lost worker or a crash: the task failed, the run goes on
                yield futures[future], TaskFailure(f"{type(exc).__name__}: {exc}")


def _dask_workers(client: Any) -> int:
    try:
        return len(client.scheduler_info().get("workers", {}))
    except Exception:  # noqa: BLE001 - a scheduler gone too: nobody is left
        return 0
