"""Conditions: what a definition reads of a decision, a known value or a CP-SAT literal."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TypeAlias, TypeVar

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    from .decisions import Decision, TermKey
    from .options import ModelOptions
    from .problem import Problem

# A known value or a literal (a variable or its negation). Named, not evaluated: OR-Tools is
# imported only when a turn's model needs a variable (:attr:`.model.Encoding.model`).
Condition: TypeAlias = "bool | cp_model.BoolVarT"
T = TypeVar("T")


def negate(c: Condition) -> Condition:
    return (not c) if isinstance(c, bool) else c.Not()


class Reads(Protocol):
    """What the definition of a fact reads (:func:`~.strength.by_land`, :func:`~.strength.head_to_head`,
    :func:`~.support.attack_on_support`, ...): the problem, the options, the decisions as
    conditions and the terms built once. An :class:`~.model.Encoding` is one (the decisions
    are literals or constants: the fact is a literal or a constant); the solved values
    (:class:`~.values.Values`) are another (every decision is known: the fact is its value),
    so each fact is defined once and read off a solution by the same definition."""

    problem: Problem
    options: ModelOptions

    def cond(self, key: Decision) -> bool | cp_model.IntVar: ...

    def both(self, a: Condition, b: Condition) -> Condition: ...

    def memo(self, key: TermKey, build: Callable[[], T]) -> T: ...
