"""The build: the movement encodings compiled to C by mypyc where that can be done, pure
Python where not. Everything else about the package is in pyproject.toml.

The encodings (``encodings/``, the package ``dipsat.encodings``) build every movement turn's
CP-SAT model, folding it to constants as they go: a third of a turn's time, all of it
Python (docs/design.md, "Compiling the encodings"). mypyc compiles those typed modules to
C extension modules installed beside their sources, which Python then imports instead.
The same code runs either way, and gives the same results (``tests/test_compiled.py``).

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
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
COMPILED = ("literals", "strength", "path", "support", "move", "model", "values")
"""The modules of ``encodings/`` compiled: the rule families and the model they build
(``decisions``, ``problem``, ``options`` and ``phase_model`` stay interpreted: the prescan
makes the problem's values past their constructors, and the model subclasses OR-Tools')."""
STAGE = ROOT / "build" / "mypyc-src"
"""Where the compiled modules' sources are laid out as the installed package names them
(``dipsat/encodings/``): mypyc names a module by its place in the tree."""


def _say(message: str) -> None:
    print(f"dipsat build: {message}", file=sys.stderr)


def _compiled_modules() -> list[Any]:  # setuptools' Extensions
    if os.environ.get("DIPSAT_PURE_PYTHON"):
        _say("DIPSAT_PURE_PYTHON is set: the encodings stay pure Python")
        return []
    if "editable_wheel" in sys.argv:  # pip install -e: the sources being edited are what runs
        return []
    if not {"bdist_wheel", "build", "build_ext", "install"} & set(sys.argv):
        return []  # metadata only (egg_info, dist_info): nothing is built
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc is not installed: the encodings stay pure Python")
        return []
    shutil.rmtree(STAGE, ignore_errors=True)
    package = STAGE / "dipsat" / "encodings"
    package.mkdir(parents=True)
    (STAGE / "dipsat" / "__init__.py").write_text("")  # the encodings import nothing else of dipsat
    for source in (ROOT / "encodings").glob("*.py"):
        shutil.copy2(source, package / source.name)
    paths = [str((package / f"{name}.py").relative_to(ROOT)) for name in COMPILED]
    # OR-Tools (and numpy) are not looked up: their objects are Any to the compiled code, which
    # then leaves them to OR-Tools as the interpreter does (its stubs call a comparison of
    # variables, which makes a constraint, a bool: compiled code would insist on one).
    config = STAGE / "mypy.ini"  # not pyproject.toml's: --strict's checks are the tests' (tests/test_checks.py)
    config.write_text("[mypy]\n")
    options = ["--config-file", str(config), "--no-site-packages", "--ignore-missing-imports"]
    try:
        return mypycify(options + paths, opt_level="3", target_dir=str(ROOT / "build" / "mypyc"))
    except (Exception, SystemExit) as exc:  # mypyc reports a type error as SystemExit
        _say(f"mypyc could not compile the encodings ({exc!r}): they stay pure Python")
        return []


class OptionalBuildExt(build_ext):
    """Compiles the encodings, or leaves none compiled: a module that fails to build takes
    the others out too (the compiled modules share one runtime library), and the sources
    are installed as they are."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # a compiler missing or failing: CCompilerError, PlatformError ...
            _say(f"the encodings could not be compiled ({exc}): they stay pure Python")
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            self.extensions = []


setup(ext_modules=_compiled_modules(), cmdclass={"build_ext": OptionalBuildExt})
