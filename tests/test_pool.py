"""The worker pool: every task is answered, whatever happens to the workers."""

from __future__ import annotations

import multiprocessing
import threading
import time

from dipsat.runners.pool import Pool, TaskFailure, call_with_limit, timed_out

from . import pool_tasks


def test_every_task_answered_despite_crash_timeout_and_exception():
    pool = Pool(pool_tasks.task, workers=2, timeout=5)
    out = dict(pool.run([1, 2, "crash", 4, "sleep", "raise", 7]))
    assert sorted(out) == list(range(7))
    assert [out[i] for i in (0, 1, 3, 6)] == [10, 20, 40, 70]
    assert isinstance(out[2], TaskFailure) and "crashed" in out[2].reason
    assert isinstance(out[4], TaskFailure) and "timed out" in out[4].reason
    assert isinstance(out[5], TaskFailure) and "bad record" in out[5].reason


def test_a_worker_killed_once_is_retried(tmp_path, monkeypatch):
    monkeypatch.setenv("DIPSAT_TEST_MARKER", str(tmp_path / "killed"))
    out = dict(Pool(pool_tasks.task, workers=1).run([1, "suicide-once", 3]))
    assert out == {0: 10, 1: "survived", 2: 30}


def test_a_worker_that_dies_between_tasks_is_replaced():
    results = Pool(pool_tasks.task, workers=1).run([1, 2, 3])
    first = next(results)  # the worker now waits for its next task: kill it there
    for child in multiprocessing.active_children():
        child.kill()
        child.join()
    assert dict([first, *results]) == {0: 10, 1: 20, 2: 30}  # sending to the dead worker is not an error


def test_results_do_not_depend_on_worker_count():
    one = dict(Pool(pool_tasks.task, workers=1).run(list(range(8))))
    two = dict(Pool(pool_tasks.task, workers=2).run(list(range(8))))
    assert one == two == {i: i * 10 for i in range(8)}


def test_the_time_limit_in_this_process_answers_like_the_pool():
    assert call_with_limit(pool_tasks.task, 4, timeout=5) == 40
    assert call_with_limit(pool_tasks.task, "sleep", timeout=0.2) == timed_out(0.2)  # the main thread: an alarm
    assert call_with_limit(pool_tasks.task, "raise", timeout=5).reason.startswith("ValueError: bad record")
    answers = []  # another thread (a Dask worker's): the late call is left behind
    thread = threading.Thread(target=lambda: answers.append(call_with_limit(pool_tasks.task, "sleep", timeout=0.2)))
    thread.start()
    thread.join()
    assert answers == [timed_out(0.2)]
    assert dict(Pool(pool_tasks.task, workers=1, timeout=0.2).run(["sleep"])) == {0: timed_out(0.2)}


def test_the_alarm_waits_for_the_collector(monkeypatch):
    """An alarm raised in a gc callback cannot stop the call: Python hands it to
    sys.unraisablehook (pytest made that an error once, with hypothesis's callback). The
    alarm waits for the collection to end, then stops the call in its own code."""
    import gc

    unraisable = []
    monkeypatch.setattr("sys.unraisablehook", unraisable.append)

    def slow_callback(phase, info):  # most of the time goes here, where nothing can be raised
        time.sleep(0.05)

    def collect_for_a_while(_):
        for _ in range(40):  # about 4 s: far past the limit
            gc.collect()
            end = time.perf_counter() + 0.005
            while time.perf_counter() < end:
                pass
        return "finished"

    callbacks = list(gc.callbacks)
    gc.callbacks.append(slow_callback)
    try:
        answer = call_with_limit(collect_for_a_while, None, timeout=0.2)
    finally:
        gc.callbacks.remove(slow_callback)
    assert (answer, unraisable) == (timed_out(0.2), [])
    assert gc.callbacks == callbacks
