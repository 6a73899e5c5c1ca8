"""The worker pool: every task is answered, whatever happens to the workers."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading

from dipsat.pool import Pool, TaskFailure, call_with_limit, timed_out

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


def test_results_do_not_depend_on_worker_count():
    one = dict(Pool(pool_tasks.task, workers=1).run(list(range(8))))
    two = dict(Pool(pool_tasks.task, workers=2).run(list(range(8))))
    assert one == two == {i: i * 10 for i in range(8)}


def test_a_worker_killed_while_idle_is_replaced():
    """Between two tasks a worker waits for the next one; killed then, it must not take
    the run down (the next task went to a broken pipe, issue 12 item 2)."""
    out = {}
    run = Pool(pool_tasks.task, workers=2).run(list(range(6)))
    for index, result in run:
        out[index] = result
        if len(out) == 1:  # the answering worker is idle now: kill every worker of the pool
            for child in multiprocessing.active_children():
                os.kill(child.pid, signal.SIGKILL)
                child.join()
    assert out == {i: i * 10 for i in range(6)}


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
