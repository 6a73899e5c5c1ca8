"""Calling CP-SAT: the solver's parameters, one solution, every solution, an infeasibility
core, and every status it can answer handled (what the driver cannot use is a
:class:`~dipsat.errors.SolverError`).

The driver (:mod:`.driver`) imports this module only when a turn's model has a decision
left open: a turn whose constant folding settles everything is adjudicated without
loading OR-Tools (a third of a second to import, most of it pandas, which ``cp_model``
imports at module level)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ortools.sat.python import cp_model

from ..errors import SolverError

TIME_LIMIT = 10.0
"""Seconds per solver call. A turn's model solves in milliseconds; reaching this is a
:class:`SolverError`, not a result."""


def new_solver() -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # one worker: a turn's model is too small to share out
    solver.parameters.max_time_in_seconds = TIME_LIMIT
    # After folding, a turn's model is small and almost all boolean: presolve and the
    # LP relaxation cost more than they save (measured: a trivial solve 0.22 -> 0.11 ms).
    solver.parameters.cp_model_presolve = False
    solver.parameters.linearization_level = 0
    return solver


def status_message(solver: cp_model.CpSolver, status: cp_model.CpSolverStatus, model: cp_model.CpModel,
                   what: str) -> str:
    if status == cp_model.MODEL_INVALID:
        return f"{what}: CP-SAT says the model is invalid: {model.validate()}"
    if status == cp_model.INFEASIBLE:
        return f"{what}: no solution, though a model without a cycle always has exactly one"
    if status in (cp_model.UNKNOWN, cp_model.FEASIBLE):
        return f"{what}: no answer within the time limit of {TIME_LIMIT:g} s ({solver.status_name(status)})"
    return f"{what}: unexpected CP-SAT status {solver.status_name(status)}"


def solve(model: cp_model.CpModel, what: str) -> list[int]:
    """One solution of a model that must have one (a list indexed by variable index)."""
    solver = new_solver()
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise SolverError(status_message(solver, status, model, what))
    return list(solver.response_proto.solution)


def infeasible_core(model: cp_model.CpModel, assumptions: Sequence[cp_model.IntVar], what: str) -> set[int] | None:
    """The indices of assumption literals sufficient for infeasibility (CP-SAT's
    ``SufficientAssumptionsForInfeasibility``), or None when the model is feasible under
    `assumptions`."""
    model.clear_assumptions()
    model.add_assumptions(assumptions)
    solver = new_solver()
    status = solver.solve(model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    if status != cp_model.INFEASIBLE:
        raise SolverError(status_message(solver, status, model, what))
    return set(solver.sufficient_assumptions_for_infeasibility())


class _Enumerator(cp_model.CpSolverSolutionCallback):
    def __init__(self, model: cp_model.CpModel, on_solution: Callable[[list[int]], bool]) -> None:
        super().__init__()
        self.variables = [model.get_int_var_from_proto_index(i) for i in range(len(model.proto.variables))]
        self.on_solution = on_solution
        self.stopped = False

    def on_solution_callback(self) -> None:
        if not self.on_solution([self.value(v) for v in self.variables]):
            self.stopped = True
            self.stop_search()


def enumerate_solutions(model: cp_model.CpModel, on_solution: Callable[[list[int]], bool], what: str) -> None:
    """Hand every solution of `model` (a list indexed by variable index) to `on_solution`
    until it returns False. A search that neither saw every solution nor was stopped so
    is a :class:`SolverError`."""
    solver = new_solver()
    solver.parameters.enumerate_all_solutions = True
    enumerator = _Enumerator(model, on_solution)
    status = solver.solve(model, enumerator)
    complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)  # every solution seen (INFEASIBLE: none)
    if not complete and not enumerator.stopped:
        raise SolverError(status_message(solver, status, model, what))
