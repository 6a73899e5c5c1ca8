"""The solve driver: solve, enumerate consistent resolutions, apply backup rules.

With no cycle in the dependency graph of the decisions there is exactly one
resolution and one solver call finds it (the fast path). Otherwise every
consistent resolution is enumerated; when there is not exactly one, the backup
rule of DATC 5.B.9 is applied per strongly connected component, dependencies
first: moves only -> all moves in the cycle succeed (circular movement);
convoys involved -> the convoying fleets in it do not convoy (Szykman).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from .errors import SolverError
from .rules import ConvoyParadox, Rules
from .encodings import Encoding, Key, Problem
from .encodings.options import ModelOptions
from .encodings.model import PhaseModel

MAX_RESOLUTIONS = 64
STRENGTHS = ("attack", "prevent", "resisting")


@dataclass
class Solved:
    values: dict[Key, bool]
    strengths: dict[tuple[str, int], int]
    calls: int
    resolutions: list[dict[Key, bool]] | None  # None: acyclic, not enumerated
    backups: list[tuple[str, tuple[Key, ...]]] = field(default_factory=list)


def solve(problem: Problem, rules: Rules) -> Solved:
    enc = Encoding(problem, rules.model)
    if not has_cycle(enc.deps):
        values, strengths = _solve_once(enc)
        return Solved(values, strengths, 1, None)
    return _solve_cyclic(problem, rules, enc)


def solve_batch(items: list[tuple[Problem, Rules]]) -> list[Solved]:
    """Many turns in one CP-SAT model (batch mode): every acyclic turn is encoded
    into a shared model solved once; a turn with a cycle is switched off there and
    solved on its own (it may need several resolutions or a backup rule)."""
    model = PhaseModel()
    off = model.new_bool_var("off")
    model.add(off == 0)
    encodings = []
    for problem, rules in items:
        enc = Encoding(problem, rules.model, model=model)
        cyclic = has_cycle(enc.deps)
        if cyclic:
            enc.disable(off)
        encodings.append((enc, cyclic))
    solver = _solver()
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise SolverError(f"batch model: {solver.status_name(status)}")
    solution = list(solver.response_proto.solution)
    out = []
    for (problem, rules), (enc, cyclic) in zip(items, encodings):
        if cyclic:
            out.append(_solve_cyclic(problem, rules, Encoding(problem, rules.model)))
        else:
            values, strengths = _read(enc, solution)
            out.append(Solved(values, strengths, 1, None))
    return out


def _solve_cyclic(problem: Problem, rules: Rules, enc: Encoding) -> Solved:
    first, first_strengths = _enumerate(enc)
    if len(first) == 1:
        return Solved(first[0], first_strengths[0], 1, first)
    calls = 1
    overrides: dict[Key, bool] = {}
    backups: list[tuple[str, tuple[Key, ...]]] = []
    current, solutions = enc, first
    while len(solutions) != 1:
        settled = False
        for component in cyclic_components(current.deps):
            sub = Encoding(problem, rules.model, overrides, roots=component)
            found, _ = _enumerate(sub)
            calls += 1
            rule = _backup(component, found, rules)
            if rule is not None:
                name, decided = rule
                overrides.update(decided)
                backups.append((name, tuple(sorted(decided))))
                settled = True
                break
        if not settled:
            raise SolverError(f"{len(solutions)} resolutions but no cycle to settle")
        current = Encoding(problem, rules.model, overrides)
        solutions, strengths = _enumerate(current)
        calls += 1
    return Solved(solutions[0], strengths[0], calls, first, backups)


def count_resolutions(problem: Problem, options: ModelOptions) -> int:
    """The consistent resolutions of a turn under these model options, before any backup
    rule (1 on the acyclic fast path)."""
    enc = Encoding(problem, options)
    if not has_cycle(enc.deps):
        return 1
    found, _ = _enumerate(enc)
    return len(found)


def paradox_core(problem: Problem, rules: Rules, component: list[Key]) -> list[Key]:
    """The decisions whose definitions cannot all hold (a minimal infeasibility core).

    Built from CP-SAT's ``SufficientAssumptionsForInfeasibility`` and then made
    minimal by dropping one assumption at a time."""
    enc = Encoding(problem, rules.model, roots=component, assumptions=True)
    keys = sorted(enc.assumed)

    def infeasible(subset: list[Key]) -> list[Key] | None:
        enc.model.clear_assumptions()
        enc.model.add_assumptions([enc.assumed[k] for k in subset])
        solver = _solver()
        if solver.solve(enc.model) != cp_model.INFEASIBLE:
            return None
        core = {i for i in solver.sufficient_assumptions_for_infeasibility()}
        return [k for k in subset if enc.assumed[k].index in core]

    core = infeasible(keys)
    if core is None:
        return []
    for key in list(core):
        smaller = [k for k in core if k != key]
        if infeasible(smaller) is not None:
            core = smaller
    return core


def _backup(component: list[Key], found: list[dict[Key, bool]], rules: Rules) -> tuple[str, dict[Key, bool]] | None:
    """DATC 5.B.9 for one cycle, or None when the cycle has exactly one resolution."""
    projected = {tuple(sol[k] for k in component) for sol in found}
    if len(projected) == 1:
        return None
    if projected:
        differing = [k for i, k in enumerate(component) if len({p[i] for p in projected}) > 1]
    else:
        differing = list(component)  # no resolution: a paradox; all of the cycle is in it
    convoys = [k for k in differing if k[0] == "convoy"] or [k for k in component if k[0] == "convoy"]
    if convoys and (any(k[0] in ("convoy", "path") for k in differing) or not projected):
        backup = rules.convoy_paradox.backup
        if backup is ConvoyParadox.DPTG:
            # 4.A.2 dptg (DATC v2.x 4.A.2 f): of several resolutions, the one in which every convoy
            # of the paradox is disrupted, if there is exactly one such; else All Hold.
            disrupted = _all_convoys_disrupted(component, projected)
            if len(projected) > 1 and len(disrupted) == 1:
                no_route = {k: False for k in component if k[0] == "path"}
                return "dptg", no_route or dict(zip(component, disrupted[0]))  # the rest of it follows
        if backup is not ConvoyParadox.SZYKMAN:
            # 4.A.2 d (All Hold), as the only rule or the backup: every move in the paradox fails,
            # the convoyed armies whose PATH is in it too, and they cut no support (DATC v2.x
            # 6.F.16-6.F.18).
            routes = [k for k in component if k[0] == "path"]
            held = {k for k in component if k[0] == "move"} | {("move", k[1]) for k in routes}
            return "all hold", {k: False for k in sorted(held | set(routes))}
        # 5.B.9 / 4.A.2 f (Szykman): the convoying fleets in the paradox do not convoy.
        return "szykman", {k: False for k in convoys}
    moves = [k for k in differing if k[0] == "move"]
    if projected:
        # 5.B.9: a circular movement: all moves in it succeed.
        return "circular movement", {k: True for k in moves}
    # 5.B.9 (variants): a paradox without convoys: all moves in the cycle fail.
    return "all hold", {k: False for k in moves or [k for k in component if k[0] == "move"]}


def _all_convoys_disrupted(component: list[Key], projected: set[tuple[bool, ...]]) -> list[tuple[bool, ...]]:
    """The resolutions in which no convoyed army of the component has a convoy route
    (no PATH; without PATH decisions in the component: no convoying fleet carries)."""
    paths = [i for i, k in enumerate(component) if k[0] == "path"]
    watched = paths or [i for i, k in enumerate(component) if k[0] == "convoy"]
    return sorted(p for p in projected if not any(p[i] for i in watched))


def has_cycle(deps: dict[Key, set[Key]]) -> bool:
    """Is any decision (indirectly) dependent on itself? (the static acyclic check)"""
    state: dict[Key, int] = {}  # 1: on the DFS path, 2: finished
    for root in deps:
        if root in state:
            continue
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


def cyclic_components(deps: dict[Key, set[Key]]) -> list[list[Key]]:
    """Strongly connected components with a cycle, dependencies first (Tarjan)."""
    index: dict[Key, int] = {}
    low: dict[Key, int] = {}
    on_stack: set[Key] = set()
    stack: list[Key] = []
    out: list[list[Key]] = []
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


def _solver() -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # DESIGN 7: one worker for models this small
    # After folding, a turn's model is small and almost all boolean: presolve and the
    # LP relaxation cost more than they save (measured: a trivial solve 0.22 -> 0.11 ms).
    solver.parameters.cp_model_presolve = False
    solver.parameters.linearization_level = 0
    return solver


def _solve_once(enc: Encoding) -> tuple[dict[Key, bool], dict[tuple[str, int], int]]:
    solver = _solver()
    status = solver.solve(enc.model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise SolverError(f"movement model: {solver.status_name(status)}")
    return _read(enc, list(solver.response_proto.solution))


def _read(enc: Encoding, solution: list[int]) -> tuple[dict[Key, bool], dict[tuple[str, int], int]]:
    """Decision values and strengths of a solution (a list indexed by variable index)."""
    values = enc.values(solution)
    strengths = {k: term.value(solution) for k, term in _strength_terms(enc).items()}
    return values, strengths


def _strength_terms(enc: Encoding) -> dict:
    return {k: term for k, term in enc.cache.items() if k[0] in STRENGTHS}


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, enc: Encoding, limit: int) -> None:
        super().__init__()
        self.enc = enc
        self.variables = [v for v in enc.model.proto.variables]
        self.limit = limit
        self.found: dict[tuple, tuple[dict[Key, bool], dict[tuple[str, int], int]]] = {}

    def on_solution_callback(self) -> None:
        solution = [self.value(self.enc.model.get_int_var_from_proto_index(i)) for i in range(len(self.variables))]
        values, strengths = _read(self.enc, solution)
        signature = tuple(sorted(values.items()))
        if signature not in self.found:  # distinct on the decisions
            self.found[signature] = (values, strengths)
        if len(self.found) >= self.limit:
            self.stop_search()


def _enumerate(enc: Encoding, limit: int = MAX_RESOLUTIONS) -> tuple[list[dict[Key, bool]], list[dict]]:
    """Every consistent resolution (up to `limit`), with the strengths of each."""
    solver = _solver()
    solver.parameters.enumerate_all_solutions = True
    collector = _Collector(enc, limit)
    status = solver.solve(enc.model, collector)
    if status == cp_model.MODEL_INVALID:
        raise SolverError("movement model invalid")
    ordered = [collector.found[k] for k in sorted(collector.found)]
    return [v for v, _ in ordered], [s for _, s in ordered]
