"""Where the time of ``dipsat validate`` goes around adjudication (a profile, not a test).

Runs ``dipsat validate PATHS --workers 1`` in this process with the stages below timed in
CPU time, each exclusive of the stages it calls (no profiler: real shares), and prints the
stages, the whole run and the share that is not the adjudication proper
(``adjudicate_many``, ``prescan``/``rescan`` and ``reread``: the core).

Usage: ``python scripts/profile_validate.py [--repeat N] PATHS...`` (default: the bundled
corpus). The machine may be shared: compare shares, and CPU time rather than wall-clock.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import io
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parent.parent / "cases" / "corpus" / "random_games.jsonl.gz"

STAGES = {  # stage -> (module, attribute path) of the functions timed as that stage
    "core: adjudicate_many": [("dipsat.runners.judge", "adjudicate_many")],
    "core: prescan/rescan/reread": [("dipsat.runners.judge", "prescan"), ("dipsat.runners.judge", "rescan"),
                                    ("dipsat.runners.judge", "reread")],
    "read: saved games": [("dipsat.runners.validate", "read_game")],
    "read: godip": [("dipsat.runners.validate", "read_godip_game")],
    "judge: init (scope)": [("dipsat.runners.judge", "Judge.__init__")],
    "judge: compare": [("dipsat.runners.judge", "Judge._compare")],
    "judge: same_as_judged": [("dipsat.runners.judge", "Judge._same_as_judged")],
    "judge: rounds": [("dipsat.runners.judge", "Judge._rounds")],
    "judge: judge_many": [("dipsat.runners.judge", "Judge.judge_many")],
    "gather": [("dipsat.runners.validate", "gather")],
    "phase_report": [("dipsat.runners.judge", "Judge.phase_report")],
    "explained": [("dipsat.runners.judge", "Judge._explained")],
    "report lines": [("dipsat.runners.validation_report", "GameReport.report_lines")],
    "finish_archive": [("dipsat.runners.archive", "finish_archive")],
    "parse json": [("dipsat.formats.dipsat_json", "parse_json")],
    "items": [("dipsat.cli.validate", "iter_items")],
}


class Clock:
    """Exclusive CPU time per stage: a stage's time stops while a stage it calls runs."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}
        self.stack: list[list[Any]] = []  # [stage, started]

    def wrap(self, stage: str, func: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(func)
        def timed(*args: Any, **kwargs: Any) -> Any:
            now = time.process_time()
            if self.stack:
                outer = self.stack[-1]
                self.spent[outer[0]] = self.spent.get(outer[0], 0.0) + now - outer[1]
            self.stack.append([stage, now])
            try:
                return func(*args, **kwargs)
            finally:
                end = time.process_time()
                self.spent[stage] = self.spent.get(stage, 0.0) + end - self.stack.pop()[1]
                if self.stack:
                    self.stack[-1][1] = end
        return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=[str(CORPUS)])
    args = parser.parse_args()
    start = time.process_time()
    from dipsat.cli import main as cli_main
    for module in ("dipsat.runners.validate", "dipsat.encodings.phase_model", "dipsat.movement.cpsat",
                   "dipsat.runners.archive", "dipsat.cli.validate"):
        importlib.import_module(module)
    imported = time.process_time() - start
    clock = Clock()
    for stage, places in STAGES.items():
        for module_name, path in places:
            owner: Any = importlib.import_module(module_name)
            *parents, name = path.split(".")
            for parent in parents:
                owner = getattr(owner, parent)
            setattr(owner, name, clock.wrap(stage, getattr(owner, name)))
    run = clock.wrap("other (cli, inference, comparison helpers)", cli_main)
    out = io.StringIO()
    began = time.process_time()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        run(["validate", *args.paths, "--workers", "1"], standalone_mode=False)
    total = time.process_time() - began
    core = sum(t for s, t in clock.spent.items() if s.startswith("core"))
    print(f"imports {imported:.2f} s CPU; run {total:.2f} s CPU, core {core:.2f} s, the rest {total - core:.2f} s")
    for stage, spent in sorted(clock.spent.items(), key=lambda kv: -kv[1]):
        print(f"{spent:7.3f} s {100 * spent / total:5.1f}%  {stage}")


if __name__ == "__main__":
    sys.exit(main())
