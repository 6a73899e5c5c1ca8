"""What the tests share: the CLI runner, the bundled cases by file and id, the standard
variant, the sources laid out as the installed package, and the ``slow`` marker (registered
in pyproject.toml) on the long tests.

The helpers are plain functions, imported as ``from .conftest import run, datc_case``, so
that module-level code and parametrisations can use them too."""

from __future__ import annotations

import shutil
import tomllib
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import dipsat
from dipsat.cli import main
from dipsat.formats.casefile import Case
from dipsat.orders import Order
from dipsat.rules import Rules
from dipsat.runners.cases import build_position, case_files, case_rules, load_cases
from dipsat.state import State

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "cases"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def run(*args: str, input: str | bytes | None = None, columns: int | None = None) -> Result:
    """``dipsat ARGS`` in this process (click's test runner), as the command line runs it. An
    exception of ours is not caught: it fails the test with its traceback."""
    runner = CliRunner(env={"COLUMNS": str(columns)}) if columns is not None else CliRunner()
    return runner.invoke(main, list(args), input=input, catch_exceptions=False)


def unit_doc(text: str) -> dict[str, str]:
    """A unit as dipsat JSON writes it, from its notation: ``unit_doc("France: A par")``."""
    power, unit = text.split(": ")
    kind, location = unit.split()
    return {"power": power, "kind": kind, "location": location}


@cache
def cases_in(path: Path) -> tuple[Case, ...]:
    """The cases of a case file (read once per test session), which must have no problem
    outside its cases."""
    cases, errors = load_cases(path)
    assert not errors, errors
    return tuple(cases)


def all_cases(*folders: Path) -> list[Case]:
    """Every case of the case files under `folders` (default: all of cases/), in file order."""
    return [case for path in case_files(folders or [CASES]) for case in cases_in(path)]


def load_case(path: Path, case_id: str) -> Case:
    """The case `case_id` of the case file `path`."""
    found = next((c for c in cases_in(path) if c.id == case_id), None)
    assert found is not None, f"no case {case_id} in {path}"
    return found


@cache
def _datc_cases() -> dict[str, Case]:
    return {case.id: case for case in all_cases(CASES / "datc")}


def datc_case(case_id: str) -> Case:
    """The DATC case `case_id` (``"6.F.24"``), parsed from the bundled cases/datc."""
    return _datc_cases()[case_id]


def case_position(case: Case) -> tuple[State, list[Order], Rules]:
    """A case's position, orders and rules, as ``dipsat cases`` builds them (no problem allowed)."""
    rules = case_rules(case)
    assert rules is not None
    state, orders, problems = build_position(case, rules)
    assert not problems, problems
    return state, orders, rules


@pytest.fixture(scope="session")
def variant() -> dipsat.Variant:
    return dipsat.load_variant("standard")


@pytest.fixture(scope="session")
def package_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the sources laid out as the installed package ``dipsat`` (``solver/`` is
    ``dipsat``, ``encodings/`` is ``dipsat.encodings`` ...): the pure Python sources, whatever
    the install compiled, for tools that cannot follow an editable install."""
    root = tmp_path_factory.mktemp("package")
    folders = PYPROJECT["tool"]["setuptools"]["package-dir"]
    for package in sorted(folders, key=len):  # dipsat first, then the packages inside it
        shutil.copytree(ROOT / folders[package], root.joinpath(*package.split(".")), dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so"))
    return root
