"""The movement modules compiled by mypyc (setup.py) against the pure Python sources.

An install from a clone compiles the movement turn's modules (the encodings, the prescan,
the reading of the solution) where it can (README, "Install"); an editable
install, or one with ``DIPSAT_PURE_PYTHON`` set, runs the sources. Either way the outputs
must be the same, byte for byte: every output of ``scripts/output_snapshot.py`` (every
bundled case as text, ``--explain``, ``--all``, JSON, a case file and SVG, and ``dipsat
cases``) is made by the package as installed and by the sources alone, and compared.
"""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import PYPROJECT, ROOT


def _compiled_names() -> tuple[str, ...]:
    """The modules of ``dipsat`` setup.py compiles (its ``COMPILED``, read, not imported:
    importing setup.py would run the build), named from the package: ``encodings.model``."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets):
            names = ast.literal_eval(node.value)
            assert isinstance(names, tuple)
            return names
    raise AssertionError("setup.py names no COMPILED modules")


def _source(name: str) -> Path:
    """Where module `name` of ``dipsat`` is in the clone: under the folder pyproject.toml's
    ``package-dir`` gives the innermost package holding it."""
    folders = PYPROJECT["tool"]["setuptools"]["package-dir"]
    parts = ["dipsat", *name.split(".")]
    for n in range(len(parts) - 1, 0, -1):
        package = ".".join(parts[:n])
        if package in folders:
            return ROOT.joinpath(folders[package], *parts[n:]).with_suffix(".py")
    raise AssertionError(f"no folder for {name}")


def _compiled_here() -> list[str]:
    """The modules this test run imports compiled (an extension module, not a .py)."""
    return [name for name in _compiled_names()
            if not str(importlib.import_module(f"dipsat.{name}").__file__).endswith(".py")]


def test_setup_compiles_modules_that_exist() -> None:
    assert _compiled_names(), "setup.py compiles nothing"
    for name in _compiled_names():
        assert _source(name).is_file(), name
    assert _source("movement.prescan") == ROOT / "solver" / "movement" / "prescan.py"
    assert _source("encodings.model") == ROOT / "encodings" / "model.py"


def test_an_install_for_ci_runs_the_compiled_modules() -> None:
    """.ci/run installs as README says, on a machine with a C compiler: the modules must
    come out compiled, all of them (a partial build installs none). Elsewhere (an editable
    install for development) they may be pure Python: then there is nothing to check."""
    compiled = _compiled_here()
    if os.environ.get("CI", "").lower() in ("1", "true", "yes") and not os.environ.get("DIPSAT_PURE_PYTHON"):
        assert compiled == list(_compiled_names())
    elif not compiled:
        pytest.skip("the package is pure Python here (editable install, or DIPSAT_PURE_PYTHON)")
    assert compiled in ([], list(_compiled_names())), f"only some modules compiled: {compiled}"


def _snapshot(out: Path, pythonpath: Path | None) -> dict[str, bytes]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "output_snapshot.py"), str(out), "--no-validate"],
                         env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    return {str(path.relative_to(out)): path.read_bytes() for path in sorted(out.rglob("*")) if path.is_file()}


@pytest.mark.slow
def test_the_package_as_installed_and_the_sources_give_the_same_outputs(tmp_path: Path, package_tree: Path) -> None:
    installed = _snapshot(tmp_path / "installed", None)
    sources = _snapshot(tmp_path / "sources", package_tree)
    assert len(installed) > 2000  # every case in six forms, and the cases run
    assert installed.keys() == sources.keys()
    differ = [name for name in installed if installed[name] != sources[name]]
    assert not differ, f"{len(differ)} outputs differ, e.g. {differ[:5]}"
