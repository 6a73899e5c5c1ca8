"""The process settings the entry points make (dipsat.runners.runtime)."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from dipsat.cli import main
from dipsat.runners.runtime import BATCH_GC_THRESHOLDS, BLAS_THREADS


@pytest.fixture
def restored_gc():
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


def test_the_cli_keeps_openblas_to_one_thread(monkeypatch, restored_gc):
    monkeypatch.delenv(BLAS_THREADS, raising=False)
    assert CliRunner().invoke(main, ["rules"]).exit_code == 0
    assert os.environ[BLAS_THREADS] == "1"
    assert gc.get_threshold() == BATCH_GC_THRESHOLDS


def test_the_users_own_blas_setting_is_kept(monkeypatch, restored_gc):
    monkeypatch.setenv(BLAS_THREADS, "2")
    assert CliRunner().invoke(main, ["rules"]).exit_code == 0
    assert os.environ[BLAS_THREADS] == "2"


_PROBE = """
import os, sys
from dipsat.cli import main
try:
    main(["adjudicate", sys.argv[1], "--case", "6.F.24"])
except SystemExit:
    pass
assert "numpy" in sys.modules, "no solve: numpy not loaded"
print(len(os.listdir("/proc/self/task")))
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads through /proc (Linux)")
@pytest.mark.parametrize("setting, threads", [(None, 1), ("2", 2)])
def test_a_solving_process_starts_no_openblas_thread(setting, threads):
    """The setting is made before OR-Tools (and with it numpy and OpenBLAS) loads: a
    process that solves a case runs its main thread alone, unless the user asks OpenBLAS
    for more."""
    env = {k: v for k, v in os.environ.items() if k != BLAS_THREADS}
    if setting is not None:
        env[BLAS_THREADS] = setting
    datc = Path(__file__).resolve().parent.parent / "cases" / "datc"
    out = subprocess.run([sys.executable, "-c", _PROBE, str(datc)], env=env, capture_output=True, text=True,
                         check=True)
    assert int(out.stdout.strip().splitlines()[-1]) == threads
