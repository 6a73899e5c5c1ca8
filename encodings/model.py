"""Building the CP-SAT model: one boolean per decision, defined on demand."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ortools.sat.python import cp_model

from .problem import Key, Problem


class PhaseModel(cp_model.CpModel):
    """A CpModel without the deprecated CamelCase aliases OR-Tools installs on every
    instance (about 0.8 ms per model in 9.15; we use only the snake_case API)."""

    def _add_pre_pep8_methods(self) -> None:
        pass


class Encoding:
    """The CP-SAT model of one movement turn (or of the part of it that `roots` need).

    ``overrides`` replace a decision's definition by a constant: that is how a
    backup rule (DATC 5.B.9) is imposed on a cycle. Every definition reads other
    decisions through :meth:`lit`, which records the dependency edge.
    """

    def __init__(self, problem: Problem, rules, overrides: dict[Key, bool] | None = None,
                 roots: Iterable[Key] | None = None, assumptions: bool = False) -> None:
        self.problem = problem
        self.rules = rules
        self.overrides = dict(overrides or {})
        self.model = PhaseModel()
        self.lits: dict[Key, cp_model.IntVar] = {}
        self.deps: dict[Key, set[Key]] = {}
        self.cache: dict[tuple[str, int], object] = {}  # strengths and conditions, by name
        self._reads: dict[tuple[str, int], set[Key]] = {}  # decisions each cached term reads
        self._collecting: list[set[Key]] = []
        self._pending: list[Key] = []
        self._current: Key | None = None
        self.assumed: dict[Key, cp_model.IntVar] = {}  # per decision: its definition holds
        self._assumptions = assumptions
        for key in (problem.decisions() if roots is None else roots):
            self.lit(key)
        self._define_pending()

    def lit(self, key: Key) -> cp_model.IntVar:
        """The boolean of a decision; reading it from a definition records a dependency."""
        self._note((key,))
        var = self.lits.get(key)
        if var is None:
            var = self.model.new_bool_var(f"{key[0]}[{key[1]}]")
            self.lits[key] = var
            self.deps[key] = set()
            self._pending.append(key)
        return var

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
        if self._current is not None:
            self.deps[self._current].update(k for k in keys if k != self._current)

    def _define_pending(self) -> None:
        from . import move, path, support  # the rule families
        definitions: dict[str, Callable[[Encoding, int], None]] = {
            "move": move.define_move,
            "dislodged": move.define_dislodged,
            "support": support.define_support,
            "path": path.define_path,
            "convoy": path.define_convoy,
        }
        while self._pending:
            key = self._pending.pop()
            self._current = key
            first = len(self.model.proto.constraints)
            if key in self.overrides:
                # DATC 5.B.9: a backup rule decides this order, not its usual condition.
                self.model.add(self.lits[key] == int(self.overrides[key]))
            else:
                definitions[key[0]](self, key[1])
            self._current = None
            if self._assumptions:
                self._guard(key, first)

    def _guard(self, key: Key, first: int) -> None:
        """Make a decision's definition conditional on an assumption literal, so an
        infeasible model names the definitions in its core."""
        guard = self.model.new_bool_var(f"defined[{key[0]},{key[1]}]")
        self.assumed[key] = guard
        for i in range(first, len(self.model.proto.constraints)):
            constraint = self.model.proto.constraints[i]
            if constraint.has_bool_and() or constraint.has_bool_or() or constraint.has_linear():
                constraint.enforcement_literal.append(guard.index)

    # --- small helpers shared by the rule families --------------------------
    def iff_and(self, target: cp_model.IntVar, conjuncts: list) -> None:
        """target <-> AND(conjuncts) (empty AND is true)."""
        if not conjuncts:
            self.model.add(target == 1)
            return
        self.model.add_bool_and(conjuncts).only_enforce_if(target)
        self.model.add_bool_or([c.Not() for c in conjuncts] + [target])

    def iff_or(self, target: cp_model.IntVar, disjuncts: list) -> None:
        """target <-> OR(disjuncts) (empty OR is false)."""
        if not disjuncts:
            self.model.add(target == 0)
            return
        self.model.add_bool_or(disjuncts).only_enforce_if(target)
        for d in disjuncts:
            self.model.add_implication(d, target)
