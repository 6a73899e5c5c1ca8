"""The solve driver: solve, enumerate consistent resolutions, apply backup rules.

With no cycle in the dependency graph of the decisions there is exactly one
resolution and one solver call finds it (the fast path). Otherwise the board is
cut into independent parts (no decision of one reads a decision of another): the
parts without a cycle are solved once, together; each part with a cycle has its
consistent resolutions enumerated on its own, so the turn's resolutions are every
combination of one per part and their number is the product (seven separate
circular movements: 2**7 = 128, from seven enumerations of two). A part that has
not exactly one resolution is settled by the backup rule of DATC 5.B.9 per strongly
connected component, dependencies first: moves only -> all moves in the cycle
succeed (circular movement); convoys involved -> the convoying fleets in it do not
convoy (Szykman). The rules applied are reported as :class:`Backup` values: the
:class:`~dipsat.encodings.decisions.BackupRule` and the decisions it settled.

Every solver call has a time limit and every CP-SAT status is handled: what the
adjudicator cannot use (an invalid model, a model without the solution it must have,
a time limit reached) is a :class:`SolverError`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping, Set as AbstractSet
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple, cast

from ..errors import SolverError
from ..rules import ConvoyParadox, Rules
from ..encodings import Encoding, Problem
from ..encodings.decisions import CONVOY, MOVE, PATH, BackupRule, Decision, TermKey
from ..encodings.options import ModelOptions

MAX_RESOLUTIONS = 64
"""Resolutions enumerated per independent part; a part with more is reported as capped
(:attr:`Resolutions.capped`: the count is then a lower bound), never silently cut."""
REBUILDS = 3
"""Buildings of an acyclic turn left open by its first one (:func:`folded_again`) before
CP-SAT settles it: every such turn of the bundled cases and corpus folds in one or two,
of random dense positions in one."""
CYCLE_LIMIT = 64
"""Resolutions of one cycle when choosing its backup rule, which needs them all: a cycle
with more is a :class:`SolverError`."""
if TYPE_CHECKING:
    from ortools.sat.python.cp_model import CpModel

    from ..encodings.strength import Term

Strengths = Mapping[TermKey, int]
"""The value of each strength the model built, by kind and move (:func:`_strengths`)."""


class Backup(NamedTuple):
    """A backup rule applied (DATC 5.B.9, 4.A.2) and the decisions it settled."""

    rule: BackupRule
    settled: tuple[Decision, ...]


@dataclass(frozen=True)
class Resolutions:
    """The consistent resolutions of a turn before any backup rule, part by part.

    ``common`` holds the decisions outside every part with a cycle (one value each);
    ``parts`` the distinct resolutions of each independent part with a cycle, each a
    dict of that part's decisions. A whole-board resolution is ``common`` plus one
    resolution of every part: iterating gives them all, made on demand."""

    common: dict[Decision, bool]
    parts: tuple[tuple[dict[Decision, bool], ...], ...]
    capped: bool = False
    """A part had more than :data:`MAX_RESOLUTIONS`: there are more than ``len()`` resolutions."""

    def __len__(self) -> int:
        """The number of resolutions found (the product over the parts)."""
        return math.prod(len(part) for part in self.parts)

    def __iter__(self) -> Iterator[dict[Decision, bool]]:
        for combination in itertools.product(*self.parts):
            resolution = dict(self.common)
            for values in combination:
                resolution.update(values)
            yield resolution


@dataclass(slots=True)
class Solved:
    """What the driver found for a turn: every decision's value, the strengths the model
    built (by :class:`~dipsat.encodings.decisions.TermKind` and move), the solver calls
    made, the resolutions before any backup rule and the backup rules applied."""

    values: dict[Decision, bool]
    strengths: Strengths
    calls: int
    resolutions: Resolutions | None  # None: acyclic, not enumerated
    backups: list[Backup] = field(default_factory=list)


def solve(problem: Problem, rules: Rules, shortcut: bool = True) -> Solved:
    """The turn's decisions. With `shortcut`, a model whose constant folding fixed every
    decision (:func:`folded`, at once or :func:`folded_again`) is not handed to CP-SAT: its
    one solution is the decisions' known values (``tests/test_driver.py`` checks that
    results are the same without it)."""
    enc = Encoding(problem, rules.model)
    solved = _settled_alone(problem, rules, enc, shortcut)
    if solved is not None:
        return solved
    return Solved(*_solve_once(enc), 1, None)  # one model settled: solved


def _settled_alone(problem: Problem, rules: Rules, enc: Encoding, shortcut: bool = True) -> Solved | None:
    """The decisions of a turn encoded as `enc` that is not one model solved once: folded
    (with `shortcut`: at once, or :func:`folded_again`), or with a cycle
    (:func:`_solve_cyclic`). None for an acyclic turn left open, which :func:`solve` solves
    on its own and :func:`solve_batch` in the batch's shared model."""
    if shortcut and folded(enc):  # every decision fixed: each depends on nothing, so there is no cycle
        return _folded(enc)
    if has_cycle(enc.deps):
        return _solve_cyclic(problem, rules, enc, shortcut)
    again = folded_again(problem, rules.model, enc) if shortcut else None
    return None if again is None else _folded(again)


def folded(enc: Encoding) -> bool:
    """Did building the model fix every decision (DATC 5.E's partial information, folded
    as constants)? Then the model has no variable but the literals of decisions read while
    still being defined (a definition that then folded did not need them), each fixed to
    its decision's value by its one constraint, and no other constraint: the known values
    are its one solution, and the model is the proof without a solver call."""
    if not enc.settled:
        return False  # some decision is open
    model = enc.made_model  # None: no variable or constraint ever needed one
    if model is None:
        return True
    proto = model.proto  # each literal of a known decision has one constraint: literal == value
    return len(proto.variables) == len(enc.lits) == len(proto.constraints)


def folded_again(problem: Problem, options: ModelOptions, enc: Encoding) -> Encoding | None:
    """The turn's model built again with the decisions `enc` fixed as constants (``seeds``:
    :class:`~dipsat.encodings.model.Encoding`), until it is :func:`folded`; None when a
    building fixes nothing new. For a turn whose first building left decisions open with no
    cycle among them: a decision read while it was being defined was read as its literal,
    and the definitions that read it stayed open though it then folded. Each building is
    the same folding, with more decisions known: a seed is a constant whatever the open
    decisions it read, so the last model is the proof as a first one is; each building
    must fix again every decision the one before it fixed, to the same value. At most
    :data:`REBUILDS` buildings: each costs about what a solver call does."""
    known = enc.known
    for _ in range(REBUILDS):
        again = Encoding(problem, options, seeds=known)
        if not known.items() <= again.known.items():
            return None  # a decision fixed before is not fixed again: CP-SAT settles the first model
        if folded(again):
            return again
        if len(again.known) == len(known):
            return None  # nothing new fixed
        known = again.known
    return None


def _folded(enc: Encoding) -> Solved:
    """The decisions of a :func:`folded` turn: one model settled, without a solver call."""
    if not enc.lits:  # no variable: every strength is a constant too
        return Solved(enc.known, _strengths(enc), 1, None)  # the encoding is done with them
    return Solved(*_read(enc, _folded_solution(enc)), 1, None)


def _folded_solution(enc: Encoding) -> list[int]:
    """The one solution of a :func:`folded` model (a list indexed by variable index)."""
    solution = [0] * len(enc.lits)
    for key, var in enc.lits.items():
        solution[var.index] = int(enc.known[key])
    return solution


def solve_batch(items: list[tuple[Problem, Rules]]) -> list[Solved]:
    """Many turns, their CP-SAT models solved as one (batch mode). Each turn is encoded on
    its own first: a turn whose folding fixed every decision needs no solver
    (:func:`folded`, at once or :func:`folded_again`, as in :func:`solve`), and a turn
    with a cycle is solved on its own (it may need several resolutions or a backup rule).
    The rest are encoded again into one shared model and solved by one call (each has one
    solution: no cycle)."""
    out: list[Solved | None] = [None] * len(items)
    shared: list[int] = []
    for i, (problem, rules) in enumerate(items):
        out[i] = _settled_alone(problem, rules, Encoding(problem, rules.model))
        if out[i] is None:
            shared.append(i)
    if shared:
        from ..encodings.phase_model import PhaseModel  # OR-Tools: a batch is solved

        model = PhaseModel()
        encodings = [(i, Encoding(items[i][0], items[i][1].model, model=model)) for i in shared]
        solution = _solve(model, "batch model")
        for i, enc in encodings:
            out[i] = Solved(*_read(enc, solution), 1, None)  # one model settled: solved
    return cast(list[Solved], out)


def _solve_cyclic(problem: Problem, rules: Rules, enc: Encoding, shortcut: bool = True) -> Solved:
    """A turn with a cycle, part by part (see the module docstring). `shortcut`: as
    :func:`solve`'s, for each model enumerated (:func:`_enumerate`)."""
    options = rules.model
    known = dict(enc.known)
    cyclic, _ = _parts(enc.deps, known)
    alone = len(cyclic) == 1  # one part: the whole board's encoding serves as the part's
    calls = 0
    parts = []
    capped = False
    overrides: dict[Decision, bool] = {}
    backups: list[Backup] = []
    final: _Found | None = None  # a whole-board enumeration with exactly one resolution
    for part in cyclic:
        part_enc = enc if alone else _part_encoding(problem, options, known, part)
        found = _enumerate(part_enc, part, shortcut=shortcut)
        calls += 1
        parts.append(tuple(found.resolutions()))
        capped = capped or found.capped
        if len(found.solutions) != 1 or found.capped:
            found, more = _settle(problem, rules, part, part_enc, known, overrides, backups, alone, shortcut,
                                  enumerated=found)
            calls += more
        if alone:
            final = found
    if final is None:  # several parts: the whole board under the backup rules, which must settle it
        final = _enumerate(Encoding(problem, options, overrides) if overrides else enc, limit=1, shortcut=shortcut)
        calls += 1
    if len(final.solutions) != 1 or final.capped:
        raise SolverError(f"{'several' if final.capped else 'no'} resolutions after the backup rules "
                          f"{', '.join(backup.rule for backup in backups) or '(none)'}")
    values, strengths = final.solutions[0]
    in_parts = {k for part in cyclic for k in part}
    common = {k: v for k, v in values.items() if k not in in_parts}
    if any(k in known and known[k] != v for k, v in overrides.items()):
        # A backup rule changed a decision settled while building (All Hold on a move whose
        # route is in the paradox): the others as they were before it, from their own model.
        rest = [k for k in enc.deps if k not in in_parts and k not in known]
        common = dict(known)
        if rest:
            common.update(_solve_once(_part_encoding(problem, options, known, rest))[0])
            calls += 1
    return Solved(values, strengths, calls, Resolutions(common, tuple(parts), capped), backups)


def _resolutions(problem: Problem, options: ModelOptions, enc: Encoding) -> tuple[int, bool]:
    """How many consistent resolutions a turn with a cycle has before any backup rule,
    and whether that is capped (a lower bound)."""
    known = dict(enc.known)
    cyclic, _ = _parts(enc.deps, known)
    count, capped = 1, False
    for part in cyclic:
        found = _enumerate(enc if len(cyclic) == 1 else _part_encoding(problem, options, known, part), part)
        count *= len(found.solutions)
        capped = capped or found.capped
    return count, capped


def _settle(problem: Problem, rules: Rules, part: list[Decision], current: Encoding, known: dict[Decision, bool],
            overrides: dict[Decision, bool], backups: list[Backup],
            whole: bool, shortcut: bool = True, enumerated: _Found | None = None) -> tuple[_Found, int]:
    """The backup rules (DATC 5.B.9) for one independent part without exactly one
    resolution, one cycle at a time, dependencies first, until it has exactly one.
    `current` encodes the part (`whole`: the whole board, the part being its only one).
    Adds to `overrides` and `backups`; returns the last enumeration (of the part, or of
    the whole board) and the solver calls made.

    `enumerated`: the part's resolutions, enumerated from `current` already. Where the part
    holds a single cycle, those are the cycle's own resolutions before any backup rule
    (:func:`_same_resolutions`), so with `shortcut` the cycle is not searched again: the
    enumeration is counted as the call it spares, as a folded model's is."""
    calls = 0
    while True:
        components = cyclic_components(current.deps)
        # the part's one cycle: its resolutions are the part's, enumerated already
        reused = enumerated if shortcut and enumerated is not None and \
            _same_resolutions(components, part, enumerated) else None
        for component in components:
            if reused is not None:
                found = reused
            else:
                sub = _part_encoding(problem, rules.model, {**known, **overrides}, component, part)
                found = _enumerate(sub, component, limit=CYCLE_LIMIT, shortcut=shortcut)
            calls += 1
            if found.capped:
                raise SolverError(f"a cycle of {len(component)} decisions has more than {CYCLE_LIMIT} "
                                  "consistent resolutions: too many to choose a backup rule from")
            rule = _backup(component, found.resolutions(), rules)
            if rule is not None:
                name, decided = rule
                overrides.update(decided)
                backups.append(Backup(name, tuple(sorted(decided))))
                break
        else:
            raise SolverError(f"{len(part)} decisions without exactly one resolution but no cycle to settle")
        enumerated = None  # a backup rule now settles part of it: its cycles are enumerated anew
        board = Encoding(problem, rules.model, overrides)  # what the backup rules settle beyond their own
        known = {**board.known, **overrides}
        current = board if whole else _part_encoding(problem, rules.model, known, part)
        found = _enumerate(current, None if whole else part, shortcut=shortcut)
        calls += 1
        if len(found.solutions) == 1 and not found.capped:
            return found, calls


def _same_resolutions(components: list[list[Decision]], part: list[Decision], enumerated: _Found) -> bool:
    """Are the resolutions `enumerated` over `part`, before any backup rule, those its cycle
    would have on its own (:func:`_settle`'s enumeration of it), as far as a backup rule
    reads them (the set of their values on the cycle: :func:`_backup`)?

    So where the part holds the only cycle (`components`, the cycles of the model
    enumerated) and the enumeration saw all its resolutions within :data:`CYCLE_LIMIT`.
    The part's other decisions then have no cycle: those the cycle reads read nothing of
    it, and those that read it take one value for each of its resolutions. So each
    resolution of the part is one of the cycle's, extended in one way, and the cycle's own
    model (what it reads, from the same settled decisions) has the same ones; a decision
    it folds that the part's model left open is fixed to the one value every resolution
    gives it. The whole board's model, enumerated over its only part, is the part's model
    with more decisions, each in a part of its own with no cycle: one value each."""
    return (len(components) == 1 and set(components[0]) <= set(part) and not enumerated.capped
            and len(enumerated.solutions) <= CYCLE_LIMIT)


def _part_encoding(problem: Problem, options: ModelOptions, fixed: dict[Decision, bool], roots: list[Decision],
                   part: list[Decision] | None = None) -> Encoding:
    """The encoding of `roots` (and what they read, all in `part`, default: `roots`), the
    decisions in `fixed` taken as settled."""
    enc = Encoding(problem, options, fixed, roots=roots)
    stray = set(enc.deps) - set(roots if part is None else part) - set(fixed)
    if stray:  # cannot happen: a definition reads no more given more settled decisions
        raise SolverError(f"part of {len(roots)} decisions reads {len(stray)} outside it, e.g. {min(stray)}")
    return enc


def _parts(deps: Mapping[Decision, AbstractSet[Decision]],
           known: dict[Decision, bool]) -> tuple[list[list[Decision]], list[Decision]]:
    """The independent parts with a cycle of a turn, and the undecided decisions outside them.

    Parts are the connected components of the dependency graph (edges in either
    direction) of the decisions not settled while building."""
    graph = {k: {d for d in reads if d not in known} for k, reads in deps.items() if k not in known}
    cyclic: list[list[Decision]] = []
    rest: list[Decision] = []
    for part in _connected(graph):
        if has_cycle({k: graph[k] for k in part}):
            cyclic.append(part)
        else:
            rest += part
    return cyclic, sorted(rest)


def _connected(graph: dict[Decision, set[Decision]]) -> list[list[Decision]]:
    """The connected components of a dependency graph, edges taken in either direction."""
    neighbours: dict[Decision, set[Decision]] = {k: set() for k in graph}
    for key, reads in graph.items():
        for read in reads:
            neighbours[key].add(read)
            neighbours[read].add(key)
    seen: set[Decision] = set()
    out = []
    for root in sorted(neighbours):
        if root in seen:
            continue
        seen.add(root)
        component, work = [], [root]
        while work:
            key = work.pop()
            component.append(key)
            for other in neighbours[key] - seen:
                seen.add(other)
                work.append(other)
        out.append(sorted(component))
    return out


def count_resolutions(problem: Problem, options: ModelOptions) -> int:
    """The consistent resolutions of a turn under these model options, before any backup
    rule (1 on the acyclic fast path; at least that many when an independent part has
    more than MAX_RESOLUTIONS)."""
    enc = Encoding(problem, options)
    if not has_cycle(enc.deps):
        return 1
    return _resolutions(problem, options, enc)[0]


def paradox_core(problem: Problem, rules: Rules, component: list[Decision]) -> list[Decision]:
    """The decisions whose definitions cannot all hold (a minimal infeasibility core).

    Built from CP-SAT's ``SufficientAssumptionsForInfeasibility`` and then made
    minimal by dropping one assumption at a time."""
    enc = Encoding(problem, rules.model, roots=component, assumptions=True)
    keys = sorted(enc.assumed)

    def infeasible(subset: list[Decision]) -> list[Decision] | None:
        from .cpsat import infeasible_core

        core = infeasible_core(enc.model, [enc.assumed[k] for k in subset], "paradox core")
        return None if core is None else [k for k in subset if enc.assumed[k].index in core]

    core = infeasible(keys)
    if core is None:
        return []
    for key in list(core):
        smaller = [k for k in core if k != key]
        if infeasible(smaller) is not None:
            core = smaller
    return core


def _backup(component: list[Decision], found: list[dict[Decision, bool]],
            rules: Rules) -> tuple[BackupRule, dict[Decision, bool]] | None:
    """DATC 5.B.9 for one cycle, or None when the cycle has exactly one resolution."""
    projected = {tuple(sol[k] for k in component) for sol in found}
    if len(projected) == 1:
        return None
    if projected:
        differing = [k for i, k in enumerate(component) if len({p[i] for p in projected}) > 1]
    else:
        differing = list(component)  # no resolution: a paradox; all of the cycle is in it
    convoys = [k for k in differing if k[0] is CONVOY] or [k for k in component if k[0] is CONVOY]
    if convoys and (any(k[0] is CONVOY or k[0] is PATH for k in differing) or not projected):
        backup = rules.convoy_paradox.backup
        if backup is ConvoyParadox.DPTG:
            # 4.A.2 dptg (DATC v2.x 4.A.2 f): of several resolutions, the one in which every convoy
            # of the paradox is disrupted, if there is exactly one such; else All Hold.
            disrupted = _all_convoys_disrupted(component, projected)
            if len(projected) > 1 and len(disrupted) == 1:
                no_route = {k: False for k in component if k[0] is PATH}
                return BackupRule.DPTG, no_route or dict(zip(component, disrupted[0]))  # the rest of it follows
        if backup is not ConvoyParadox.SZYKMAN:
            # 4.A.2 d (All Hold), as the only rule or the backup: every move in the paradox fails,
            # the convoyed armies whose PATH is in it too, and they cut no support (DATC v2.x
            # 6.F.16-6.F.18).
            routes = [k for k in component if k[0] is PATH]
            held = {k for k in component if k[0] is MOVE} | {(MOVE, k[1]) for k in routes}
            return BackupRule.ALL_HOLD, {k: False for k in sorted(held | set(routes))}
        # 5.B.9 / 4.A.2 f (Szykman): the convoying fleets in the paradox do not convoy.
        return BackupRule.SZYKMAN, {k: False for k in convoys}
    moves = [k for k in differing if k[0] is MOVE]
    if projected:
        # 5.B.9: a circular movement: all moves in it succeed.
        return BackupRule.CIRCULAR_MOVEMENT, {k: True for k in moves}
    # 5.B.9 (variants): a paradox without convoys: all moves in the cycle fail.
    return BackupRule.ALL_HOLD, {k: False for k in moves or [k for k in component if k[0] is MOVE]}


def _all_convoys_disrupted(component: list[Decision], projected: set[tuple[bool, ...]]) -> list[tuple[bool, ...]]:
    """The resolutions in which no convoyed army of the component has a convoy route
    (no PATH; without PATH decisions in the component: no convoying fleet carries)."""
    paths = [i for i, k in enumerate(component) if k[0] is PATH]
    watched = paths or [i for i, k in enumerate(component) if k[0] is CONVOY]
    return sorted(p for p in projected if not any(p[i] for i in watched))


def has_cycle(deps: Mapping[Decision, AbstractSet[Decision]]) -> bool:
    """Is any decision (indirectly) dependent on itself? (the static acyclic check)"""
    state: dict[Decision, int] = {}  # 1: on the DFS path, 2: finished
    for root, reads in deps.items():
        if not reads or root in state:
            continue  # a decision that reads none is on no cycle
        state[root] = 1
        work = [(root, iter(deps[root]))]
        while work:
            node, children = work[-1]
            for child in children:
                mark = state.get(child)
                if mark == 1:
                    return True
                if mark is None:
                    state[child] = 1
                    work.append((child, iter(deps[child])))
                    break
            else:
                state[node] = 2
                work.pop()
    return False


def cyclic_components(deps: Mapping[Decision, AbstractSet[Decision]]) -> list[list[Decision]]:
    """Strongly connected components with a cycle, dependencies first (Tarjan)."""
    index: dict[Decision, int] = {}
    low: dict[Decision, int] = {}
    on_stack: set[Decision] = set()
    stack: list[Decision] = []
    out: list[list[Decision]] = []
    counter = 0
    for root in sorted(deps):
        if root in index:
            continue
        work = [(root, iter(sorted(deps[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(deps[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in deps[node]:
                    out.append(sorted(component))
    return out


def _solve(model: CpModel, what: str) -> list[int]:
    """One solution of a model that must have one (:func:`.cpsat.solve`: OR-Tools is
    imported by the first turn that needs the solver)."""
    from .cpsat import solve as solve_model

    return solve_model(model, what)


def _solve_once(enc: Encoding) -> tuple[dict[Decision, bool], Strengths]:
    return _read(enc, _solve(enc.model, "movement model"))


def _read(enc: Encoding, solution: list[int]) -> tuple[dict[Decision, bool], Strengths]:
    """Decision values and strengths of a solution (a list indexed by variable index)."""
    return enc.values(solution), _strengths(enc, solution)


def _strengths(enc: Encoding, solution: list[int] | None = None) -> Strengths:
    """The value of each strength the model built (by kind and move) in a solution (a list
    indexed by variable index; None: the model has no variable, every strength is a constant,
    read off its term when asked for: :class:`_Constants`)."""
    if solution is None:
        return _Constants(enc.strengths)
    return {k: term.value(solution) if term.coefs else term.const for k, term in enc.strengths.items()}


class _Constants(Mapping[TermKey, int]):
    """The strengths of a model without a variable, each its term's constant, read when asked
    for: a folded turn (most) has two or three a move, and the outcomes read a strength only
    when their facts are asked for (a validator comparing result codes reads none), so the
    terms are kept rather than a dict of their values made every turn. Equal to that dict."""

    __slots__ = ("_terms",)

    def __init__(self, terms: Mapping[TermKey, Term]) -> None:
        self._terms = terms

    def __getitem__(self, key: TermKey) -> int:
        return self._terms[key].const

    def __iter__(self) -> Iterator[TermKey]:
        return iter(self._terms)

    def __len__(self) -> int:
        return len(self._terms)

    def __repr__(self) -> str:
        return repr(dict(self))

    def __reduce__(self) -> tuple[type[dict[TermKey, int]], tuple[dict[TermKey, int]]]:
        return dict, (dict(self),)  # pickled as the dict it stands for: the values, not the terms


@dataclass
class _Found:
    solutions: list[tuple[dict[Decision, bool], Strengths]]  # distinct on the keys, in a fixed order
    keys: list[Decision] | None  # the decisions the solutions are told apart by (None: all)
    capped: bool  # there are more than were kept

    def resolutions(self) -> list[dict[Decision, bool]]:
        """Each solution's values of the keys."""
        if self.keys is None:
            return [values for values, _ in self.solutions]
        return [{k: values[k] for k in self.keys} for values, _ in self.solutions]


class _Collector:
    """The distinct solutions of an enumeration, told apart by `keys`, up to `limit`."""

    def __init__(self, enc: Encoding, keys: list[Decision] | None, limit: int) -> None:
        self.enc = enc
        self.keys = keys
        self.limit = limit
        self.found: dict[tuple[bool, ...], tuple[dict[Decision, bool], Strengths]] = {}
        self.capped = False

    def add(self, solution: list[int]) -> bool:
        """Keep a solution (a list indexed by variable index); False: stop the search."""
        values, strengths = _read(self.enc, solution)
        keys = sorted(values) if self.keys is None else self.keys
        signature = tuple(values[k] for k in keys)
        if signature in self.found:  # distinct on the decisions
            return True
        if len(self.found) >= self.limit:
            self.capped = True  # one more than the limit: say so, keep the first `limit`
            return False
        self.found[signature] = (values, strengths)
        return True


def _enumerate(enc: Encoding, keys: list[Decision] | None = None, limit: int | None = None,
               shortcut: bool = True) -> _Found:
    """Every consistent resolution of an encoding, told apart by `keys` (default: every
    decision), up to `limit` (default: MAX_RESOLUTIONS), with the strengths of each. With
    `shortcut`, a :func:`folded` model (most often the board under a backup rule) is not
    handed to CP-SAT: its one resolution is the decisions' known values, as in :func:`solve`
    (and counted as one call, as there)."""
    if shortcut and folded(enc):
        return _Found([_read(enc, _folded_solution(enc))], keys, False)
    from .cpsat import enumerate_solutions  # OR-Tools: imported by the first turn that needs the solver

    limit = MAX_RESOLUTIONS if limit is None else limit
    collector = _Collector(enc, keys, limit)
    if enumerate_solutions(enc.model, collector.add, "enumerating resolutions", search_free=True):
        # Stopped at the cap: which solutions were kept depends on the search, so the search
        # with every aid decides, as it always has (a search that saw every solution keeps
        # them all, in their own order, whatever the parameters).
        collector = _Collector(enc, keys, limit)
        enumerate_solutions(enc.model, collector.add, "enumerating resolutions")
    ordered = [collector.found[k] for k in sorted(collector.found)]
    return _Found(ordered, keys, collector.capped)
