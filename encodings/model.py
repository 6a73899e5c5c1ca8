"""Building the CP-SAT model: one boolean per decision, defined on demand.

Definitions are built depth first, like the DATC's recursive resolve (5.C): a
decision reads the decisions it depends on, which are defined first unless they
are already being defined (a cycle). When what a definition reads already fixes
its value (the partial-information step of DATC 5.E), the decision is fixed to
that constant instead of being encoded in full: the model keeps only the
decisions that can matter, and a fixed decision depends on nothing.

A decision read while it is being defined is read as its literal, so a definition may
stay open only because it read a decision that then folded. Building the model again
with the constants the first building fixed (``seeds``) folds such a definition too: that
is DATC 5.E's partial-information step taken again with what the first step learnt.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence, Set as AbstractSet
from typing import cast, Final, TYPE_CHECKING, TypeAlias, TypeVar, TypeVarTuple

from . import move, path, support
from .decisions import (ATTACK, CONVOY, DISLODGED, MOVE, PATH, PREVENT, RESISTING, SUPPORT, Decision, DecisionKind,
                        TermKey, decision_keys, term_keys)
from .literals import Condition, negate
from .options import ModelOptions
from .problem import Problem
from .strength import Term

__all__ = ["Condition", "Encoding", "negate"]

T = TypeVar("T")
Ts = TypeVarTuple("Ts")
_MISSING: Final = object()  # no term cached under a key yet
_NO_EDGES: Final[frozenset[Decision]] = frozenset()  # the edges of a decision that has read no open one yet
_OPEN: Final = object()  # the state of a decision being defined, or defined without being fixed
if TYPE_CHECKING:
    import numpy as np
    from ortools.sat.python import cp_model

    Linear: TypeAlias = cp_model.BoundedLinearExpression | bool | np.bool_  # what CpModel.add takes


class Encoding:
    """The CP-SAT model of one movement turn (or of the part of it that `roots` need).

    ``overrides`` replace a decision's definition by a constant: that is how a
    backup rule (DATC 5.B.9) is imposed on a cycle. Every definition reads other
    decisions through :meth:`cond`, which records the dependency edge.
    With ``assumptions`` every definition is guarded by a literal (for paradox
    cores) and nothing is folded. A shared ``model`` takes the constraints of several
    turns (batch mode). ``seeds``: decisions an earlier building of the same turn fixed
    (each a constant whatever the open decisions it read); a definition that reads one of
    them while it is being defined reads that constant, not its literal. Every constraint
    is made through :meth:`enforce` (the ``add*`` methods), which attaches these
    enforcement literals as the constraint is made.
    """

    def __init__(self, problem: Problem, options: ModelOptions, overrides: dict[Decision, bool] | None = None,
                 roots: Iterable[Decision] | None = None, assumptions: bool = False,
                 model: cp_model.CpModel | None = None, seeds: Mapping[Decision, bool] | None = None) -> None:
        self.problem = problem
        self._seeds = seeds or None
        self.options = options  # the rule options the definitions read (DATC 4.A.1, 4.A.2, 4.A.4, 4.A.7)
        self.overrides = dict(overrides) if overrides else {}
        self._model = model  # batches share one model; else made when first needed (:attr:`model`)
        self._enforcement: list[cp_model.IntVar] = []  # the literals every new constraint gets
        self.lits: dict[Decision, cp_model.IntVar] = {}  # decisions that needed a variable
        self.known: dict[Decision, bool] = {}  # decisions fixed while building
        # Each decision's state, by kind and index: None before it is first read, then _OPEN, and
        # its value once fixed (read at every :meth:`cond`: a list index, no hashing of the key).
        self._state: dict[DecisionKind, list[object]] = {
            MOVE: [None] * len(problem.moves), SUPPORT: [None] * len(problem.supports),
            DISLODGED: [None] * len(problem.provinces), PATH: [None] * len(problem.moves),
            CONVOY: [None] * len(problem.convoys)}
        size = max(len(problem.provinces), len(problem.moves), len(problem.supports), len(problem.convoys))
        self._keys = decision_keys(size)  # the keys a decision is kept under, made once (:func:`decision_keys`)
        terms = term_keys(size)
        self.attack_keys, self.resisting_keys, self.prevent_keys = terms[ATTACK], terms[RESISTING], terms[PREVENT]
        """The keys of the moves' strengths by move index, as the rule families keep them."""
        self._order: list[Decision] = []  # the decisions read, in the order first read (:attr:`deps`)
        self._edges: dict[Decision, set[Decision]] = {}  # the open decisions a definition reads, where it reads any
        self.cache: dict[TermKey, object] = {}  # the terms read by several definitions (:meth:`memo`)
        self.strengths: dict[TermKey, Term] = {}  # every strength built, in the order built
        self._reads: dict[TermKey, set[Decision]] = {}  # decisions each cached term reads
        self._collecting: list[list[Decision]] = []  # the reads of the terms being built
        self._pending: list[Decision] = []
        self._current: Decision | None = None
        self.assumed: dict[Decision, cp_model.IntVar] = {}  # per decision: its definition holds
        self._assumptions = assumptions
        self._fold = not assumptions
        assert self._fold or not seeds, "a paradox core's definitions read no constant"
        state = self._state
        if roots is None and self._fold and not self.overrides:
            self._define_roots(problem)
            return
        for kind, indices in (problem.decision_indices() if roots is None else [(k, (i,)) for k, i in roots]):
            values = state[kind]
            for i in indices:
                if values[i] is None:  # most are defined already, as what an earlier root read
                    self.cond((kind, i))
        self._define_pending()

    def _define_roots(self, problem: Problem) -> None:
        """Every decision of the problem, read as a root, when folding with no override:
        :meth:`cond`'s first read inlined, less what a root needs not (no definition is being
        built: no reader to restore, no term collecting, no edge to note). Most first reads are
        of roots (32,000 of the 48,000 of the corpus's 2,214 phases): the call and the
        bookkeeping it saves are a tenth of the solve stage's Python work."""
        state, read, known, lits, edges = self._state, self._order.append, self.known, self.lits, self._edges
        for kind, indices in problem.decision_indices():
            values = state[kind]
            define = _DEFINITIONS[kind]
            keys = self._keys[kind]
            for i in indices:
                if values[i] is None:  # most are defined already, as what an earlier root read
                    key = self._current = keys[i]
                    values[i] = _OPEN
                    read(key)
                    value = define(self, i)
                    if value is not None:  # folded: a constant, depending on nothing
                        known[key] = values[i] = value
                        if edges:
                            edges.pop(key, None)  # what it read before it folded: no dependency
                        if lits and key in lits:
                            self.add(lits[key] == int(value))  # read while being defined
                    else:
                        self.var(key)  # (made by the definition that encoded it: as cond returns it)
        self._current = None

    @property
    def deps(self) -> dict[Decision, AbstractSet[Decision]]:
        """The dependency graph: the open decisions each decision's definition reads, for
        every decision read, in the order first read (a fixed decision depends on nothing)."""
        edges = self._edges
        return {key: edges.get(key, _NO_EDGES) for key in self._order}

    @property
    def settled(self) -> bool:
        """Did constant folding fix every decision read (none is open)?"""
        return len(self.known) == len(self._order)

    @property
    def model(self) -> cp_model.CpModel:
        """The CP-SAT model, made (and OR-Tools imported) when the first variable or
        constraint needs it: a turn whose constant folding fixes every decision makes none."""
        model = self._model
        if model is None:
            from .phase_model import PhaseModel

            model = self._model = PhaseModel()
        return model

    @property
    def made_model(self) -> cp_model.CpModel | None:
        """The model if one was made (given, or needed by a variable or constraint), else None."""
        return self._model

    # --- making constraints --------------------------------------------------------------
    def enforce(self, constraint: cp_model.Constraint) -> cp_model.Constraint:
        """Every constraint of the encoding is made through here: it holds only under the
        assumption literal of the definition being built (paradox cores), for every
        constraint type."""
        if self._enforcement:
            constraint.only_enforce_if(self._enforcement)
        return constraint

    def add(self, linear: Linear) -> cp_model.Constraint:
        return self.enforce(self.model.add(linear))

    def add_bool_or(self, literals: Sequence[Condition]) -> cp_model.Constraint:
        return self.enforce(self.model.add_bool_or(literals))

    def add_bool_and(self, literals: Sequence[Condition]) -> cp_model.Constraint:
        return self.enforce(self.model.add_bool_and(literals))

    def add_implication(self, a: Condition, b: Condition) -> cp_model.Constraint:
        return self.enforce(self.model.add_implication(a, b))

    # --- reading decisions -------------------------------------------------------------
    def cond(self, key: Decision) -> bool | cp_model.IntVar:
        """A decision as a condition: its value when already fixed, else its literal.

        Reading an open decision from a definition records a dependency (:meth:`_note`,
        inlined: the hottest call); a seed is read as its constant. Reading a fixed one
        records none: a constant depends on nothing, so an edge to it can close no cycle and
        joins no parts (the driver's :func:`~dipsat.movement.driver.has_cycle` and parts see
        the same graph)."""
        kind, i = key
        state = self._state[kind]
        value = state[i]
        if value is None:  # first read: define it
            state[i] = _OPEN
            key = self._keys[kind][i]  # the key kept from here on: made once (the reader's is built to read)
            self._order.append(key)
            if self._fold:
                # :meth:`_define` without what only paradox cores need (no guard, no enforcement
                # literals): most definitions are made here, and most fold to a constant.
                current = self._current
                self._current = key
                collecting = self._collecting
                if collecting:
                    self._collecting = []  # a term being built reads this decision, not what its definition reads
                overrides = self.overrides
                if overrides and key in overrides:
                    value = overrides[key]  # DATC 5.B.9: a backup rule decides this order, not its usual condition
                else:
                    value = _DEFINITIONS[kind](self, i)
                self._current = current
                if collecting:  # (else the definition's terms left the same empty list as they found it)
                    self._collecting = collecting
                if value is not None:  # folded: a constant, depending on nothing
                    self.known[key] = state[i] = value
                    if self._edges:
                        self._edges.pop(key, None)  # what it read before it folded: no dependency
                    if self.lits and key in self.lits:
                        self.add(self.lits[key] == int(value))  # read while being defined
                    return value
            else:
                self._pending.append(key)
        elif value is not _OPEN:
            return value is True  # fixed: the state is its value
        if self._seeds is not None and key in self._seeds:
            return self._seeds[key]  # open here, but fixed by an earlier building: the constant
        for collector in self._collecting:
            collector.append(key)
        current = self._current
        if current is not None and current != key:  # reading itself is no dependency
            edges = self._edges.get(current)
            if edges is None:
                self._edges[current] = {key}
            else:
                edges.add(key)
        return self.var(key)

    def var(self, key: Decision) -> cp_model.IntVar:
        """The boolean variable of a decision, made on first use: a decision whose
        value is fixed while building needs none unless an open definition reads it."""
        var = self.lits.get(key)
        if var is None:
            var = self.model.new_bool_var(f"{key[0]}[{key[1]}]")
            self.lits[key] = var
            if key in self.known:
                self.add(var == int(self.known[key]))
        return var

    def values(self, solution: Sequence[int]) -> dict[Decision, bool]:
        """Every decision's value in a solution (a list indexed by variable index)."""
        out = {k: bool(solution[v.index]) for k, v in self.lits.items()}
        out.update(self.known)
        return out

    def memo(self, key: TermKey, build: Callable[[*Ts], T], *args: *Ts) -> T:
        """A term (strength, condition) built once, as ``build(*args)``; every definition
        using it depends on what it reads."""
        term = self.cache.get(key, _MISSING)
        if term is _MISSING:
            reads: list[Decision] = []  # the open decisions it reads (:meth:`cond` notes them as it builds)
            self._collecting.append(reads)
            term = self.cache[key] = build(*args)
            self._collecting.pop()
            if reads:
                self._reads[key] = set(reads)
            if key[0].strength:
                self.strengths[key] = cast(Term, term)
        else:
            read = self._reads.get(key)
            if read:
                self._note(read)
        return term  # type: ignore[return-value]  # a key names one kind of term, the T it was built as

    def _note(self, keys: Iterable[Decision]) -> None:
        for collector in self._collecting:
            collector.extend(keys)
        current = self._current
        if current is not None:
            deps = self._edges.get(current)
            if deps is None:
                deps = self._edges[current] = set()
            deps.update(keys)
            deps.discard(current)  # reading itself is no dependency

    # --- defining decisions ------------------------------------------------------------
    def _define(self, key: Decision) -> None:
        current, collecting, enforcement = self._current, self._collecting, self._enforcement
        self._current = key
        if collecting:
            self._collecting = []  # a term being built reads this decision, not what its definition reads
        if self._assumptions:
            # Paradox cores: the definition holds only under its own literal, so an
            # infeasible model names the definitions in its core.
            guard = self.model.new_bool_var(f"defined[{key[0]},{key[1]}]")
            self.assumed[key] = guard
            self._enforcement = [guard]
        override = self.overrides.get(key) if self.overrides else None
        # DATC 5.B.9: a backup rule decides this order, not its usual condition.
        value = _DEFINITIONS[key[0]](self, key[1]) if override is None else override
        if value is not None:  # nothing is folded here: the constant is a constraint
            self.add(self.var(key) == int(value))
        self._current, self._collecting, self._enforcement = current, collecting, enforcement

    def _define_pending(self) -> None:
        while self._pending:
            self._define(self._pending.pop())

    # --- small helpers shared by the rule families --------------------------------------
    def iff_and(self, target: Decision, conjuncts: Sequence[Condition]) -> bool | None:
        """decision <-> AND(conjuncts); the constant when the known conjuncts settle it."""
        live = _unsettled(conjuncts, False)
        if isinstance(live, bool):
            return live
        self.literal_and(self.var(target), live)
        return None

    def iff_or(self, target: Decision, disjuncts: Sequence[Condition]) -> bool | None:
        """decision <-> OR(disjuncts); the constant when the known disjuncts settle it."""
        live = _unsettled(disjuncts, True)
        if isinstance(live, bool):
            return live
        var = self.var(target)
        self.add_bool_or(live).only_enforce_if(var)
        for d in live:
            self.add_implication(d, var)
        return None

    def literal_and(self, var: cp_model.IntVar, live: Sequence[cp_model.BoolVarT]) -> None:
        """var <-> AND(live literals)."""
        self.add_bool_and(live).only_enforce_if(var)
        self.add_bool_or([c.Not() for c in live] + [var])

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


def _unsettled(conditions: Sequence[Condition], decisive: bool) -> list[cp_model.BoolVarT] | bool:
    """The literals among `conditions`, or the constant they settle: `decisive` when one is
    (False in an AND, True in an OR), else, with no literal left, the other value."""
    live = []
    for c in conditions:
        if c is decisive:
            return decisive
        if not isinstance(c, bool):
            live.append(c)
    return live or not decisive


_DEFINITIONS: Final[dict[DecisionKind, Callable[[Encoding, int], bool | None]]] = {
    # The rule family defining each kind of decision (they read the Encoding only through its
    # methods). A definition returns the constant the decision folds to, or None when it
    # encoded the decision with its literal.
    MOVE: move.define_move, DISLODGED: move.define_dislodged, SUPPORT: support.define_support,
    PATH: path.define_path, CONVOY: path.define_convoy}
