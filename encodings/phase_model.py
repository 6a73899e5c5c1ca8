"""The CP-SAT model of a turn (or of a batch of turns), made by
:attr:`.model.Encoding.model` when the first variable is needed. Its own module so that
OR-Tools is loaded only by a turn whose constant folding leaves a decision open.

Since OR-Tools 9.15 a model is built by its C++ extension, ``cp_model_helper``:
``cp_model.CpModel`` is a thin Python class over the extension's ``CpBaseModel``. But
``cp_model`` imports pandas and numpy at module level, for helpers dipsat does not use
(``new_int_var_series`` and the like): most of its 0.6 s import, paid by every process
that solves a turn (``dipsat adjudicate`` of a paradox, ``validate``, ``cases``).
:class:`PhaseModel` is that thin class's few methods dipsat calls, made on
``CpBaseModel`` directly, so such a process imports the extension (0.1 s of CPU) and numpy,
which the extension loads when the first model is made (0.17 s), and not pandas. They
build the very proto ``CpModel`` builds (``tests/test_driver.py`` compares them call by
call), so the solver sees the same model, and every result is the same.

The methods they stand on are the extension's own (``_add_bounded_linear_expression``,
``_add_bool_argument_constraint``: private, the ones ``CpModel`` calls). Where an
OR-Tools release lacks one, :class:`PhaseModel` is ``CpModel`` itself (pandas and all),
less the CamelCase aliases 9.15 binds to every instance (0.13 ms a model:
``scripts/bench_model.py``); :data:`LEAN` says which.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ortools.sat.python import cp_model_helper as cmh
from ortools.util.python.sorted_interval_list import Domain

__all__ = ["LEAN", "LinearExpr", "PhaseModel"]

_NEEDED = ("_add_bounded_linear_expression", "_add_bool_argument_constraint", "get_or_make_boolean_index",
           "is_boolean_value", "model_proto")
LEAN: bool = all(hasattr(getattr(cmh, "CpBaseModel", None), name) for name in _NEEDED) \
    and all(hasattr(cmh, name) for name in ("IntVar", "BoundedLinearExpression", "BoolArgumentConstraint",
                                            "LinearExpr", "CpSatHelper"))
"""Does this OR-Tools build models in ``cp_model_helper`` the way 9.15 does (then
:class:`PhaseModel` needs no ``cp_model``, and no pandas)?"""


_BOOLEAN = Domain(0, 1)
"""A boolean's domain, made once: a variable's domain is copied into the model (a Domain is
made by the extension, about 1 µs, a fifth of making a variable)."""


class _LeanModel(cmh.CpBaseModel if LEAN else object):  # type: ignore[misc]
    """The part of ``cp_model.CpModel`` dipsat uses, with the same signatures and the
    same proto, on the extension's ``CpBaseModel`` (see the module docstring)."""

    def __init__(self) -> None:
        cmh.CpBaseModel.__init__(self, None)

    @property
    def proto(self) -> Any:
        return self.model_proto

    def new_bool_var(self, name: str) -> Any:
        return cmh.IntVar(self.model_proto).with_name(name).with_domain(_BOOLEAN)

    def new_int_var(self, lb: int, ub: int, name: str) -> Any:
        return cmh.IntVar(self.model_proto).with_name(name).with_domain(Domain(lb, ub))

    def get_int_var_from_proto_index(self, index: int) -> Any:
        if index < 0 or index >= len(self.model_proto.variables):
            raise ValueError(f"get_int_var_from_proto_index: out of bound index {index}")
        return cmh.IntVar(self.model_proto, index)

    def get_bool_var_from_proto_index(self, index: int) -> Any:
        var = self.get_int_var_from_proto_index(index)
        if not var.is_boolean:
            raise TypeError(f"get_bool_var_from_proto_index: index {index} does not reference a boolean variable")
        return var

    def add(self, ct: Any) -> Any:
        """A linear constraint; a Python bool is a clause always (True) or never (False) true."""
        if isinstance(ct, cmh.BoundedLinearExpression):
            return self._add_bounded_linear_expression(ct)
        if self.is_boolean_value(ct):
            return self.add_bool_or([True] if ct else [])
        raise TypeError(f"not supported: PhaseModel.add({type(ct).__name__!r})")

    def add_bool_or(self, literals: Iterable[Any]) -> Any:
        return self._add_bool_argument_constraint(cmh.BoolArgumentConstraint.bool_or, literals)

    def add_bool_and(self, literals: Iterable[Any]) -> Any:
        return self._add_bool_argument_constraint(cmh.BoolArgumentConstraint.bool_and, literals)

    def add_implication(self, a: Any, b: Any) -> Any:
        return self.add_bool_and([b]).only_enforce_if(a)

    def add_assumptions(self, literals: Iterable[Any]) -> None:
        for lit in literals:
            self.model_proto.assumptions.append(self.get_or_make_boolean_index(lit))

    def clear_assumptions(self) -> None:
        self.model_proto.assumptions.clear()

    def validate(self) -> str:
        return str(cmh.CpSatHelper.validate_model(self.model_proto))


def _full_model() -> tuple[type, Any]:
    """``cp_model.CpModel`` without the per-instance CamelCase aliases, and its LinearExpr
    (the fallback)."""
    from ortools.sat.python import cp_model

    class FullModel(cp_model.CpModel):
        if hasattr(cp_model.CpModel, "_add_pre_pep8_methods"):  # ortools 9.15
            def _add_pre_pep8_methods(self) -> None:
                pass

    return FullModel, cp_model.LinearExpr


if TYPE_CHECKING:
    from ortools.sat.python.cp_model import CpModel as PhaseModel  # the API both give
    from ortools.sat.python.cp_model import LinearExpr
else:
    PhaseModel, LinearExpr = (_LeanModel, cmh.LinearExpr) if LEAN else _full_model()
