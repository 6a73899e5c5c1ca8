"""The build: the movement encodings and the movement turn's Python around them compiled
to C by mypyc where that can be done, pure Python where not. Everything else about the
package is in pyproject.toml.

The encodings (``encodings/``, the package ``dipsat.encodings``) build every movement turn's
CP-SAT model, folding it to constants as they go; the prescan, the reading of the solution
and the results (``solver/movement/``) are the rest of a turn: all of it Python (docs/
design.md, "Compiling the movement turn"). mypyc compiles those typed modules to C
extension modules installed beside their sources, which Python then imports instead. The
same code runs either way, and gives the same results (``tests/test_compiled.py``).

The sources are pure Python wherever:
- ``DIPSAT_PURE_PYTHON`` is set (to anything but empty);
- the install is editable (``pip install -e .``): the sources being edited are what runs;
- mypyc cannot be imported, or a module does not compile (no C compiler, say): the
  build says so on stderr and installs the sources alone.
"""

from __future__ import annotations

import os
import shutil
import sys
import tomllib
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
COMPILED = ("encodings.literals", "encodings.strength", "encodings.path", "encodings.support", "encodings.move",
            "encodings.model", "encodings.values", "encodings.problem", "movement.prescan", "movement.legality",
            "movement.convoys", "movement.designation", "movement.resolution", "movement.turn", "phases", "board",
            "orders", "outcomes")
"""The modules of ``dipsat`` compiled: a movement turn from its orders to its next state
but the CP-SAT call. The encodings' rule families, the model they build and the problem
they read; the prescan, legality, convoy routes, the reading of the solution and the
results; the state after the turn (``phases``); the values of the board, the orders and
the outcomes (``board``, ``orders``, ``outcomes``: native classes, their fields read and
their instances made in C by the rest: the board's :class:`~dipsat.board.Value` says what
that asks of them). Interpreted: the encodings' ``decisions`` and ``options`` (enums and
documented readings), ``phase_model`` (it subclasses OR-Tools' model), ``movement.driver``
and ``movement.cpsat`` (the tests put stand-ins in place of their functions, which compiled
calls would not see: and the time is the solver's), and the other values a user holds
(states, the outcomes' facts, results)."""
STAGE = ROOT / "build" / "mypyc-src"
"""Where the package's sources are laid out as it is installed (``dipsat/``,
``dipsat/encodings/`` ...): mypyc names a module by its place in the tree, and type-checks
the compiled modules against the rest of the package."""


def _lay_out(stage: Path) -> None:
    """The package's Python sources under `stage` as installed: each of pyproject.toml's
    ``package-dir`` folders copied to its package's place."""
    folders = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-dir"]
    for package in sorted(folders, key=len):  # dipsat first, then the packages inside it
        shutil.copytree(ROOT / folders[package], stage.joinpath(*package.split(".")), dirs_exist_ok=True,
                        ignore=_not_sources)


def _not_sources(folder: str, names: list[str]) -> list[str]:
    """What of a folder is left out of the layout: all but its Python sources and folders
    (the cases, maps' data and the web page are no business of the compiler's)."""
    return [name for name in names if name == "__pycache__" or not (name.endswith(".py") or Path(folder, name).is_dir())]


def _say(message: str) -> None:
    print(f"dipsat build: {message}", file=sys.stderr)


def _compiled_modules() -> list[Any]:  # setuptools' Extensions
    if os.environ.get("DIPSAT_PURE_PYTHON"):
        _say("DIPSAT_PURE_PYTHON is set: the package stays pure Python")
        return []
    if "editable_wheel" in sys.argv:  # pip install -e: the sources being edited are what runs
        return []
    if not {"bdist_wheel", "build", "build_ext", "install"} & set(sys.argv):
        return []  # metadata only (egg_info, dist_info): nothing is built
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc is not installed: the package stays pure Python")
        return []
    shutil.rmtree(STAGE, ignore_errors=True)
    _lay_out(STAGE)
    # An earlier build's extension modules go: setuptools packs build/lib.* whole, so in a working
    # tree an older runtime library, or a module no longer compiled, would be installed too.
    for stale in (ROOT / "build").glob("lib.*/**/*.so"):
        stale.unlink()
    paths = [str(STAGE.joinpath("dipsat", *name.split(".")).with_suffix(".py").relative_to(ROOT)) for name in COMPILED]
    # OR-Tools (and numpy) are not looked up: their objects are Any to the compiled code, which
    # then leaves them to OR-Tools as the interpreter does (its stubs call a comparison of
    # variables, which makes a constraint, a bool: compiled code would insist on one).
    config = STAGE / "mypy.ini"  # not pyproject.toml's: --strict's checks are the tests' (tests/test_checks.py)
    config.write_text("[mypy]\n")
    options = ["--config-file", str(config), "--no-site-packages", "--ignore-missing-imports"]
    try:
        return mypycify(options + paths, opt_level="3", target_dir=str(ROOT / "build" / "mypyc"))
    except (Exception, SystemExit) as exc:  # mypyc reports a type error as SystemExit
        _say(f"mypyc could not compile the movement modules ({exc!r}): the package stays pure Python")
        return []


class OptionalBuildExt(build_ext):
    """Compiles the movement modules, or leaves none compiled: a module that fails to build takes
    the others out too (the compiled modules share one runtime library), and the sources
    are installed as they are."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # a compiler missing or failing: CCompilerError, PlatformError ...
            _say(f"the movement modules could not be compiled ({exc}): the package stays pure Python")
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            self.extensions = []


setup(ext_modules=_compiled_modules(), cmdclass={"build_ext": OptionalBuildExt})
