"""Conditions: what a definition reads of a decision, a known value or a CP-SAT literal."""

from __future__ import annotations

from ortools.sat.python import cp_model

Condition = bool | cp_model.BoolVarT  # a known value or a literal (a variable or its negation)


def negate(c: Condition) -> Condition:
    return (not c) if isinstance(c, bool) else c.Not()
