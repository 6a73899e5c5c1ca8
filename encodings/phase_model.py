"""The CP-SAT model of a turn (or of a batch of turns): OR-Tools' ``CpModel``, made by
:attr:`.model.Encoding.model` when the first variable is needed. Its own module so that
OR-Tools, which takes a third of a second to import (most of it pandas, which
``cp_model`` imports at module level), is loaded only by a turn whose constant folding
leaves a decision open."""

from __future__ import annotations

from ortools.sat.python import cp_model

__all__ = ["PhaseModel"]


class PhaseModel(cp_model.CpModel):
    """A CpModel without the deprecated CamelCase aliases OR-Tools 9.15 installs on every
    instance (we use only the snake_case API).

    9.15's ``CpModel.__init__`` calls the private ``_add_pre_pep8_methods``, which binds
    about 60 aliases per model: 0.13 ms, a fifth of a movement phase (measured with
    ``scripts/bench_model.py``). 9.10-9.14 define the aliases on the class (nothing per
    instance) and have no such method; then nothing is overridden and this is a plain
    CpModel. ``tests/test_driver.py::test_phase_model_skips_only_the_camel_case_aliases``
    pins the behaviour: if a later OR-Tools changes the method, that test fails.
    """

    if hasattr(cp_model.CpModel, "_add_pre_pep8_methods"):  # ortools 9.15; absent in 9.10-9.14
        def _add_pre_pep8_methods(self) -> None:
            pass
