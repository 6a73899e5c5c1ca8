"""Checks of the code itself, run by pytest (so by .ci/run): mypy --strict with no error at all
(the allow-list the ratchet started from is gone), and the import-layer contracts of
import-linter.

The folders are mapped onto one package (``solver/`` is ``dipsat``, ``encodings/`` is
``dipsat.encodings``, ``maps/`` is ``dipsat.maps``), which neither tool can follow through an
editable install: both run on a copy laid out as the installed package.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import PYPROJECT, ROOT

ERROR = re.compile(r"^(?P<path>[^:]+\.py):\d+: error: ")


@pytest.mark.slow
def test_mypy_strict_reports_no_error(package_tree: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                          "--cache-dir", str(package_tree.parent / "mypy_cache"), "-p", "dipsat"],
                         cwd=package_tree, env={**os.environ, "MYPYPATH": str(package_tree)},
                         capture_output=True, text=True)
    assert run.returncode in (0, 1), run.stdout + run.stderr  # 2: mypy could not run
    errors = [line for line in run.stdout.splitlines() if ERROR.match(line)]
    assert not errors, "mypy --strict:\n" + "\n".join(errors)
    assert "mypy-allow-list" not in PYPROJECT["tool"].get("dipsat", {})  # no module may be let off again


def test_import_layer_contracts_hold(package_tree: Path) -> None:
    run = subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
                          "sys.exit(lint_imports_command())", "--no-cache", "--no-logo"],
                         cwd=ROOT, env={**os.environ, "PYTHONPATH": str(package_tree)}, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    contracts = PYPROJECT["tool"]["importlinter"]["contracts"]
    assert f"Contracts: {len(contracts)} kept, 0 broken." in run.stdout


OUTER = {"cli", "runners", "printers", "formats", "peers", "engines", "report", "game", "advance", "setups", "errors", "svg", "web"}
"""The modules and packages outside the adjudication core: the command line, runners, printers
(and ``svg``, the board pictures' front door), formats, the peer adapter, the report helpers,
whole games (game, advance, set-ups), errors and the web layer (dipsat serve)."""


def test_every_module_is_in_the_core_or_outside_it() -> None:
    """A new top-level module must take a side: in the core (the contract forbids it the
    runners, printers, formats and the CLI) or one of the outer parts listed above."""
    core = next(c for c in PYPROJECT["tool"]["importlinter"]["contracts"] if c["name"].startswith("the core"))
    listed = {m.removeprefix("dipsat.") for m in core["source_modules"]}
    tops = {p.stem for p in (ROOT / "solver").glob("*.py") if p.stem != "__init__"}
    tops |= {p.name for p in (ROOT / "solver").iterdir() if (p / "__init__.py").exists()}
    assert tops - listed - OUTER == set(), "take a side in pyproject.toml's contracts or OUTER"
    assert not (listed & OUTER)
    for package in ("runners", "printers", "formats", "cli"):
        assert (ROOT / "solver" / package / "__init__.py").exists()
