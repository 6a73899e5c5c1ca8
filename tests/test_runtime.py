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


def test_loading_the_solver_loads_what_the_first_model_would():
    """import_solver (a pool worker's warm-up) leaves nothing for the first turn that needs
    a model to load: numpy, which OR-Tools' extension loads when a model is first made, too."""
    probe = ("import sys\nfrom dipsat.runners.runtime import SOLVER_MODULES, import_solver\n"
             "assert 'numpy' not in sys.modules\nimport_solver()\n"
             "print(all(m in sys.modules for m in (*SOLVER_MODULES, 'numpy')))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


CORPUS = Path(__file__).resolve().parent.parent / "cases" / "corpus" / "random_games.jsonl.gz"


def _command(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dipsat.cli", *args], capture_output=True, text=True)


def test_the_command_ends_with_everything_written(tmp_path):
    """`dipsat` ends its process at once after a command (end_at_once): what it printed and
    the report it wrote are complete, as the same command run in this process gives them."""
    import gzip

    with gzip.open(CORPUS, "rt", encoding="utf-8") as games:
        (tmp_path / "three.jsonl").write_text("".join(next(games) for _ in range(3)), encoding="utf-8")
    args = ["validate", str(tmp_path / "three.jsonl"), "--workers", "1"]
    ours = CliRunner().invoke(main, [*args, "--report", str(tmp_path / "in.jsonl")])
    done = _command(*args, "--report", str(tmp_path / "out.jsonl"))
    assert (done.returncode, done.stdout) == (ours.exit_code, ours.output)
    assert (tmp_path / "out.jsonl").read_bytes() == (tmp_path / "in.jsonl").read_bytes()


def test_the_command_keeps_its_exit_status_and_error():
    done = _command("validate", "no/such/file.jsonl")
    assert done.returncode == 2 and "no/such/file.jsonl" in done.stderr and "Traceback" not in done.stderr


def test_ending_at_once_flushes_and_keeps_the_status():
    code = "import sys; from dipsat.runners.runtime import end_at_once; print('written', end=''); end_at_once(3)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (3, "written")


def test_nothing_is_skipped_while_something_else_may_run(monkeypatch):
    """Each guard alone keeps the process (were one missing, this test's process would end)."""
    import threading

    from dipsat.runners import runtime

    class Closed:
        def flush(self) -> None:
            raise BrokenPipeError

    monkeypatch.delitem(sys.modules, "multiprocessing", raising=False)
    monkeypatch.setattr(threading, "active_count", lambda: 2)  # another thread: the usual exit
    runtime.end_at_once(0)
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    monkeypatch.setitem(sys.modules, "multiprocessing", object())  # worker processes may run: the usual exit
    runtime.end_at_once(0)
    monkeypatch.delitem(sys.modules, "multiprocessing")
    monkeypatch.setattr(sys, "stdout", Closed())  # a stream that cannot be flushed: the usual exit reports it
    runtime.end_at_once(0)
