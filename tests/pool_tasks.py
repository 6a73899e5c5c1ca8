"""Tasks for tests/test_pool.py (importable by spawned worker processes)."""

import os
import time


def task(x):
    if x == "crash":
        os._exit(3)  # the worker dies
    if x == "sleep":
        time.sleep(30)
    if x == "raise":
        raise ValueError("bad record")
    if x == "suicide-once":
        marker = os.environ.get("DIPSAT_TEST_MARKER")
        if marker and not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(9)  # killed from outside, once: the retry succeeds
        return "survived"
    return x * 10
