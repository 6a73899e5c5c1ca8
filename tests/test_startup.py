"""A fast start: `dipsat --help`, `--version` and shell completion load neither OR-Tools
nor pandas (they cost half a second to import); `import dipsat` loads no submodule
until a name is used, and `from dipsat import adjudicate` still works."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("ortools", "pandas", "numpy")

PROBE = """
import sys
from dipsat.cli import main
try:
    main({args!r}, prog_name="dipsat")
except SystemExit:
    pass
heavy = sorted({{m.split(".")[0] for m in sys.modules}} & {heavy!r})
print("HEAVY:", ",".join(heavy))
"""


def _heavy_after(args: list[str], env: dict[str, str] | None = None) -> tuple[str, str]:
    run = subprocess.run([sys.executable, "-c", PROBE.format(args=args, heavy=set(HEAVY))], capture_output=True,
                         text=True, env={**os.environ, **(env or {})}, timeout=120)
    assert run.returncode == 0, run.stderr
    output, _, heavy = run.stdout.rpartition("HEAVY:")
    return output, heavy.strip()


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["adjudicate", "--help"], ["game", "--help"],
                                  ["validate", "--help"], ["draw", "--help"], ["rules"]])
def test_help_version_and_rules_do_not_import_the_solver(args):
    output, heavy = _heavy_after(args)
    assert output.strip()
    assert heavy == ""


# Commands that adjudicate nothing: the map, a unit's legal orders (in each kind of phase), the
# rule options, pictures of a position (with orders, not adjudicated). Issue 17: `dipsat map`
# loaded OR-Tools (1.1 s) through the legality check's package.
CASES = Path(__file__).resolve().parent.parent / "cases" / "datc"
NOT_ADJUDICATING = [
    ["map", "Spain"], ["map"], ["map", "--variant", "modern", "Iran"],
    ["orders", "--initial", "--unit", "F lon"],
    ["orders", f"{CASES}/6h_retreats.txt", "--case", "6.H.1.retreat", "--unit", "F tri"],
    ["orders", f"{CASES}/6j_disbands.txt", "--unit", "A pic"],
    ["draw", "--initial"], ["draw", f"{CASES}/6a_basic.txt"], ["draw", f"{CASES}/6f_convoys.txt", "--no-orders"],
]


@pytest.mark.parametrize("args", NOT_ADJUDICATING, ids=lambda args: " ".join(a.rsplit("/", 1)[-1] for a in args))
def test_commands_that_do_not_adjudicate_do_not_import_the_solver(args):
    output, heavy = _heavy_after(args)
    assert output.strip() and "Error" not in output
    assert "legal order" in output if args[0] == "orders" else True
    assert heavy == ""


def test_the_solver_is_imported_by_a_turn_that_needs_it():
    """The probe sees OR-Tools when a turn's model has a decision left open (6.C.1, a
    circular movement: a cycle, solved by CP-SAT): the tests around can fail."""
    output, heavy = _heavy_after(["adjudicate", f"{CASES}/6c_circular.txt", "--case", "6.C.1"])
    assert "Orders:" in output and "succeeds" in output
    assert "ortools" in heavy.split(",")


# Issue 22: a turn whose constant folding settles every decision makes no CP-SAT model (the
# encoding is the proof, tests/test_driver.py), so adjudicating it loads no OR-Tools, and
# `dipsat adjudicate` loads none of the other commands' machinery (validate, pools, fuzz, web).
OTHER_COMMANDS = ("dipsat.cli.validate", "dipsat.cli.game", "dipsat.cli.fuzz", "dipsat.cli.serve",
                  "dipsat.runners.pool", "dipsat.runners.validate", "dipsat.runners.inputs", "multiprocessing")
LOADED = """
import sys
from dipsat.cli import main
try:
    main({args!r}, prog_name="dipsat")
except SystemExit:
    pass
print("LOADED:", ",".join(sorted(m for m in {modules!r} if m in sys.modules)))
"""


@pytest.mark.parametrize("args", [[f"{CASES}/6a_basic.txt", "--case", "6.A.11"], [f"{CASES}", "--case", "6.B.1"],
                                  [f"{CASES}/6a_basic.txt", "--case", "6.A.11", "--format", "json", "--explain"]],
                         ids=["6.A.11", "6.B.1 in a folder", "6.A.11 json explain"])
def test_adjudicating_a_folded_turn_loads_neither_the_solver_nor_other_commands(args):
    output, heavy = _heavy_after(["adjudicate", *args])
    assert "Orders:" in output or '"orders"' in output
    assert heavy == ""
    run = subprocess.run([sys.executable, "-c", LOADED.format(args=["adjudicate", *args], modules=OTHER_COMMANDS)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.rpartition("LOADED:")[2].strip() == ""


def test_shell_completion_answers_without_the_solver():
    env = {"_DIPSAT_COMPLETE": "bash_complete", "COMP_WORDS": "dipsat adj", "COMP_CWORD": "1"}
    output, heavy = _heavy_after([], env)
    assert "adjudicate" in output
    assert heavy == ""
    env = {"_DIPSAT_COMPLETE": "bash_complete", "COMP_WORDS": "dipsat adjudicate --rul", "COMP_CWORD": "2"}
    output, heavy = _heavy_after([], env)
    assert "--rules" in output and "--rule" in output
    assert heavy == ""


def test_import_dipsat_is_lazy_but_complete():
    code = ("import sys, dipsat; before = sorted(m for m in sys.modules if m.startswith('dipsat.')); "
            "from dipsat import adjudicate, Rules, notation; import dipsat.runners.cases; "
            "print(before, callable(adjudicate), Rules.__name__, notation.__name__, dipsat.runners.cases.__name__)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["[]", "True", "Rules", "dipsat.notation", "dipsat.runners.cases"]


def test_every_public_name_resolves():
    import dipsat

    for name in dipsat.__all__:
        assert getattr(dipsat, name) is not None
    with pytest.raises(AttributeError):
        dipsat.no_such_name  # noqa: B018


def test_version_is_the_installed_distribution_version():
    import dipsat

    assert dipsat.__version__ == importlib.metadata.version("dipsat")
