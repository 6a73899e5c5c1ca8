"""Building the CP-SAT model: one boolean per decision, defined on demand.

Definitions are built depth first, like the DATC's recursive resolve (5.C): a
decision reads the decisions it depends on, which are defined first unless they
are already being defined (a cycle). When what a definition reads already fixes
its value (the partial-information step of DATC 5.E), the decision is fixed to
that constant instead of being encoded in full: the model keeps only the
decisions that can matter, and a fixed decision depends on nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

from ortools.sat.python import cp_model

from .options import ModelOptions
from .problem import Key, Problem

Condition = bool | cp_model.IntVar  # a known value or a literal


class PhaseModel(cp_model.CpModel):
    """A CpModel without the deprecated CamelCase aliases OR-Tools installs on every
    instance (about 0.8 ms per model in 9.15; we use only the snake_case API)."""

    def _add_pre_pep8_methods(self) -> None:
        pass


class Encoding:
    """The CP-SAT model of one movement turn (or of the part of it that `roots` need).

    ``overrides`` replace a decision's definition by a constant: that is how a
    backup rule (DATC 5.B.9) is imposed on a cycle. Every definition reads other
    decisions through :meth:`cond`, which records the dependency edge.
    With ``assumptions`` every definition is guarded by a literal (for paradox
    cores) and nothing is folded.
    """

    def __init__(self, problem: Problem, options: ModelOptions, overrides: dict[Key, bool] | None = None,
                 roots: Iterable[Key] | None = None, assumptions: bool = False,
                 model: cp_model.CpModel | None = None) -> None:
        self.problem = problem
        self.options = options  # the rule options the definitions read (DATC 4.A.1, 4.A.2, 4.A.4, 4.A.7)
        self.overrides = dict(overrides or {})
        self.model = model if model is not None else PhaseModel()  # batches share one model
        self.first_constraint = len(self.model.proto.constraints)
        self.lits: dict[Key, cp_model.IntVar] = {}  # decisions that needed a variable
        self.known: dict[Key, bool] = {}  # decisions fixed while building
        self.deps: dict[Key, set[Key]] = {}
        self.cache: dict[tuple[str, int], object] = {}  # strengths and conditions, by name
        self._reads: dict[tuple[str, int], set[Key]] = {}  # decisions each cached term reads
        self._collecting: list[set[Key]] = []
        self._pending: list[Key] = []
        self._current: Key | None = None
        self.assumed: dict[Key, cp_model.IntVar] = {}  # per decision: its definition holds
        self._assumptions = assumptions
        self._fold = not assumptions
        for key in (problem.decisions() if roots is None else roots):
            self.cond(key)
        self._define_pending()

    def disable(self, off: cp_model.IntVar) -> None:
        """Switch this encoding's constraints off in a shared model (`off` is fixed false)."""
        for i in range(self.first_constraint, len(self.model.proto.constraints)):
            self.model.proto.constraints[i].enforcement_literal.append(off.index)

    # --- reading decisions -------------------------------------------------------------
    def cond(self, key: Key) -> Condition:
        """A decision as a condition: its value when already fixed, else its literal.
        Reading it from a definition records a dependency."""
        self._note((key,))
        if key not in self.deps:
            self.deps[key] = set()
            if self._fold:
                self._define(key)
            else:
                self._pending.append(key)
        known = self.known.get(key)
        return self.var(key) if known is None else known

    def var(self, key: Key) -> cp_model.IntVar:
        """The boolean variable of a decision, made on first use: a decision whose
        value is fixed while building needs none unless an open definition reads it."""
        var = self.lits.get(key)
        if var is None:
            var = self.model.new_bool_var(f"{key[0]}[{key[1]}]")
            self.lits[key] = var
            if key in self.known:
                self.model.add(var == int(self.known[key]))
        return var

    def fix(self, key: Key, value: bool) -> None:
        """The definition settles the decision: a constant, depending on nothing."""
        if self._fold:
            self.known[key] = value
            self.deps[key].clear()
            if key in self.lits:
                self.model.add(self.lits[key] == int(value))
        else:
            self.model.add(self.var(key) == int(value))

    def values(self, solution: list[int]) -> dict[Key, bool]:
        """Every decision's value in a solution (a list indexed by variable index)."""
        out = {k: bool(solution[v.index]) for k, v in self.lits.items()}
        out.update(self.known)
        return out

    def memo(self, key: tuple[str, int], build: Callable[[], object]) -> object:
        """A term (strength, condition) built once; every definition using it depends on what it reads."""
        if key not in self.cache:
            self._collecting.append(set())
            self.cache[key] = build()
            self._reads[key] = self._collecting.pop()
        self._note(self._reads[key])
        return self.cache[key]

    def _note(self, keys: Iterable[Key]) -> None:
        for collector in self._collecting:
            collector.update(keys)
        current = self._current
        if current is not None:
            deps = self.deps[current]
            deps.update(keys)
            deps.discard(current)  # reading itself is no dependency

    # --- defining decisions ------------------------------------------------------------
    def _define(self, key: Key) -> None:
        saved = self._current, self._collecting
        self._current, self._collecting = key, []
        first = len(self.model.proto.constraints) if self._assumptions else 0
        if key in self.overrides:
            # DATC 5.B.9: a backup rule decides this order, not its usual condition.
            self.fix(key, self.overrides[key])
        else:
            _definitions()[key[0]](self, key[1])
        if self._assumptions:
            self._guard(key, first)
        self._current, self._collecting = saved

    def _define_pending(self) -> None:
        while self._pending:
            self._define(self._pending.pop())

    def _guard(self, key: Key, first: int) -> None:
        """Make a decision's definition conditional on an assumption literal, so an
        infeasible model names the definitions in its core."""
        guard = self.model.new_bool_var(f"defined[{key[0]},{key[1]}]")
        self.assumed[key] = guard
        for i in range(first, len(self.model.proto.constraints)):
            constraint = self.model.proto.constraints[i]
            if constraint.has_bool_and() or constraint.has_bool_or() or constraint.has_linear():
                constraint.enforcement_literal.append(guard.index)

    # --- small helpers shared by the rule families --------------------------------------
    def iff_and(self, target: Key, conjuncts: list[Condition]) -> None:
        """decision <-> AND(conjuncts), folded when the known conjuncts settle it."""
        if any(c is False for c in conjuncts):
            self.fix(target, False)
            return
        live = [c for c in conjuncts if c is not True]
        if not live:
            self.fix(target, True)
            return
        self.literal_and(self.var(target), live)

    def iff_or(self, target: Key, disjuncts: list[Condition]) -> None:
        """decision <-> OR(disjuncts), folded when the known disjuncts settle it."""
        if any(d is True for d in disjuncts):
            self.fix(target, True)
            return
        live = [d for d in disjuncts if d is not False]
        if not live:
            self.fix(target, False)
            return
        var = self.var(target)
        self.model.add_bool_or(live).only_enforce_if(var)
        for d in live:
            self.model.add_implication(d, var)

    def literal_and(self, var: cp_model.IntVar, live: list) -> None:
        """var <-> AND(live literals)."""
        self.model.add_bool_and(live).only_enforce_if(var)
        self.model.add_bool_or([c.Not() for c in live] + [var])

    def both(self, a: Condition, b: Condition) -> Condition:
        """a AND b as a condition (a literal is made only when both are literals)."""
        if a is False or b is False:
            return False
        if a is True:
            return b
        if b is True:
            return a
        var = self.model.new_bool_var("and")
        self.literal_and(var, [a, b])
        return var


@functools.cache
def _definitions() -> dict[str, Callable[[Encoding, int], None]]:
    """The rule family defining each kind of decision (imported late: they import this module)."""
    from . import move, path, support
    return {"move": move.define_move, "dislodged": move.define_dislodged, "support": support.define_support,
            "path": path.define_path, "convoy": path.define_convoy}


def negate(c: Condition) -> Condition:
    return (not c) if isinstance(c, bool) else c.Not()
