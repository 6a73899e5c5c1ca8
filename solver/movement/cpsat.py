"""Calling CP-SAT: the solver's parameters, one solution, every solution, an infeasibility
core, and every status it can answer handled (what the driver cannot use is a
:class:`~dipsat.errors.SolverError`).

The driver (:mod:`.driver`) imports this module only when a turn's model has a decision
left open: a turn whose constant folding settles everything is adjudicated without
loading OR-Tools. The solver is the extension's own (``cp_model_helper.SolveWrapper``,
what ``cp_model.CpSolver`` runs), called directly: ``cp_model`` imports pandas and numpy
at module level (see :mod:`dipsat.encodings.phase_model`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ortools.sat.python import cp_model_helper as cmh

from ..errors import SolverError

if TYPE_CHECKING:
    from ..encodings.phase_model import PhaseModel

TIME_LIMIT = 10.0
"""Seconds per solver call. A turn's model solves in milliseconds; reaching this is a
:class:`SolverError`, not a result."""


def _parameters(*, all_solutions: bool = False, search_free: bool = False) -> cmh.SatParameters:
    """The solver's parameters. `search_free`: for a call whose answer cannot depend on how
    the search goes (a model with exactly one solution; an enumeration that sees every
    solution), which may skip the search aids that matter only to hard models."""
    parameters = cmh.SatParameters()
    parameters.num_workers = 1  # one worker: a turn's model is too small to share out
    parameters.max_time_in_seconds = TIME_LIMIT
    # After folding, a turn's model is small and almost all boolean: presolve and the
    # LP relaxation cost more than they save (measured: a trivial solve 0.22 -> 0.11 ms).
    parameters.cp_model_presolve = False
    parameters.linearization_level = 0
    parameters.enumerate_all_solutions = all_solutions
    if search_free:
        # Symmetry detection, probing and inprocessing cost most of a small call's time
        # (a 5-boolean model: 0.13 -> 0.07 ms; scripts/bench_solver_parameters.py). Where
        # several answers are possible (an infeasibility core, an enumeration stopped at its
        # cap) they steer which one comes out, so those calls keep them.
        parameters.symmetry_level = 0
        parameters.cp_model_probing_level = 0
        parameters.use_sat_inprocessing = False
    return parameters


def _run(model: PhaseModel, parameters: cmh.SatParameters,
         callback: cmh.SolutionCallback | None = None) -> cmh.CpSolverResponse:
    wrapper = cmh.SolveWrapper()
    wrapper.set_parameters(parameters)
    if callback is not None:
        wrapper.add_solution_callback(callback)
    response: cmh.CpSolverResponse = wrapper.solve(model.proto)  # type: ignore[no-untyped-call]
    if callback is not None:
        wrapper.clear_solution_callback(callback)
    return response


def status_message(status: cmh.CpSolverStatus, model: PhaseModel, what: str) -> str:
    if status == cmh.CpSolverStatus.MODEL_INVALID:
        return f"{what}: CP-SAT says the model is invalid: {model.validate()}"
    if status == cmh.CpSolverStatus.INFEASIBLE:
        return f"{what}: no solution, though a model without a cycle always has exactly one"
    if status in (cmh.CpSolverStatus.UNKNOWN, cmh.CpSolverStatus.FEASIBLE):
        return f"{what}: no answer within the time limit of {TIME_LIMIT:g} s ({status.name})"
    return f"{what}: unexpected CP-SAT status {status.name}"


def solve(model: PhaseModel, what: str) -> list[int]:
    """The solution of a model that has exactly one (a list indexed by variable index): a
    turn's model without a cycle, or several such in one (batch mode)."""
    response = _run(model, _parameters(search_free=True))
    status = response.status
    if status not in (cmh.CpSolverStatus.OPTIMAL, cmh.CpSolverStatus.FEASIBLE):
        raise SolverError(status_message(status, model, what))
    return list(response.solution)


def infeasible_core(model: PhaseModel, assumptions: Sequence[Any], what: str) -> set[int] | None:
    """The indices of assumption literals sufficient for infeasibility (CP-SAT's
    ``SufficientAssumptionsForInfeasibility``), or None when the model is feasible under
    `assumptions`."""
    model.clear_assumptions()
    model.add_assumptions(assumptions)
    response = _run(model, _parameters())
    status = response.status
    if status in (cmh.CpSolverStatus.OPTIMAL, cmh.CpSolverStatus.FEASIBLE):
        return None
    if status != cmh.CpSolverStatus.INFEASIBLE:
        raise SolverError(status_message(status, model, what))
    return set(cmh.ResponseHelper.sufficient_assumptions_for_infeasibility(response))


class _Enumerator(cmh.SolutionCallback):
    def __init__(self, on_solution: Callable[[list[int]], bool]) -> None:
        super().__init__()
        self.on_solution = on_solution
        self.stopped = False

    def OnSolutionCallback(self) -> None:  # noqa: N802 - the extension's name
        if not self.on_solution(list(self.Response().solution)):  # type: ignore[no-untyped-call]
            self.stopped = True
            self.StopSearch()


def enumerate_solutions(model: PhaseModel, on_solution: Callable[[list[int]], bool], what: str,
                        search_free: bool = False) -> bool:
    """Hand every solution of `model` (a list indexed by variable index) to `on_solution`
    until it returns False; whether it did (the search was stopped). A search that neither
    saw every solution nor was stopped so is a :class:`SolverError`. `search_free`: the
    parameters of a search whose answer cannot depend on it (:func:`_parameters`): the
    caller searches again without it where `on_solution` stopped the search."""
    enumerator = _Enumerator(on_solution)
    status = _run(model, _parameters(all_solutions=True, search_free=search_free), enumerator).status
    complete = status in (cmh.CpSolverStatus.OPTIMAL, cmh.CpSolverStatus.INFEASIBLE)  # every solution seen
    if not complete and not enumerator.stopped:
        raise SolverError(status_message(status, model, what))
    return enumerator.stopped
