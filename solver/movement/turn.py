"""A movement turn: prescan in Python (:mod:`.prescan`), decisions in CP-SAT
(:mod:`.driver`), outcomes read once from the solution (:mod:`.resolution`), the new state.

The prescan settles what docs/design.md keeps out of the model: which orders are
legal (DATC 4.E.1), which unit each order goes to (4.D.3), which supports and
convoys match (void otherwise), and which army moves go by convoy (4.A.3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..board import Power, Unit
from .driver import Solved, solve, solve_batch
from ..encodings import Problem
from ..encodings.decisions import CONVOY, MOVE, PATH, Decision
from ..encodings.support import same_model
from ..orders import Build, Order, Waive
from ..phases import after_movement
from .prescan import _Prescan, prescan, rescan
from .resolution import Resolution
from ..results import OrderResult, PhaseResult, new_result
from ..rules import (Rules)
from ..state import State


@dataclass(slots=True)
class MovementTrace:
    """What an explanation reads: the orders, the prescan and the solved model."""

    orders: list[Order]
    scan: _Prescan
    solved: Solved
    units: Sequence[Unit]  # the state's, by the problem's unit index


def adjudicate_movement(state: State, orders: list[Order], rules: Rules,
                        silent: Mapping[Power, str] | None = None) -> PhaseResult:
    """Adjudicate a movement phase; never raises on bad orders. The orders of the powers
    in `silent` (power -> why) are illegal with that reason (neutral powers, civil disorder)."""
    scan = prescan(state, orders, rules, silent)
    solved = solve(scan.problem, rules)
    return _result(state, orders, rules, scan, solved)


def adjudicate_movements(items: list[tuple[State, list[Order], Rules]],
                         scans: Sequence[_Prescan | None] | None = None) -> list[PhaseResult]:
    """Batch mode: many independent movement turns, their acyclic models solved as one.
    `scans`: the prescan of some turns, made already (:func:`prescan`), by position."""
    made = list(scans) if scans is not None else [None] * len(items)
    done: list[_Prescan] = [scan if scan is not None else prescan(state, orders, rules, None)
                            for (state, orders, rules), scan in zip(items, made)]
    solved = solve_batch([(scan.problem, rules) for scan, (_, _, rules) in zip(done, items)])
    return [_result(state, orders, rules, scan, s)
            for (state, orders, rules), scan, s in zip(items, done, solved)]


def reread(result: PhaseResult, rules: Rules) -> PhaseResult | None:
    """The result of the same movement turn under other `rules`, read off the model solved
    for `result` without building or solving one again, where that model is sure to be
    the one `rules` give: the turn had no cycle (so no backup rule chose), `rules` read
    the orders alike (:func:`~.prescan.rescan`) and build the same model
    (:func:`~dipsat.encodings.support.same_model`). The outcomes are read again under
    `rules`. None where the turn must be adjudicated again."""
    trace = result.trace
    if not isinstance(trace, MovementTrace) or trace.solved.resolutions is not None or trace.solved.backups:
        return None
    scan = rescan(trace.scan, result.before, result.rules, rules)
    if scan is None or not same_model(scan.problem, result.rules.model, rules.model):
        return None
    return _result(result.before, [r.order for r in result.results], rules, scan, trace.solved)


# --- results -------------------------------------------------------------------------


def _result(state: State, orders: list[Order], rules: Rules, scan: _Prescan, solved: Solved) -> PhaseResult:
    p = scan.problem
    units = state.units  # by the problem's unit index (the prescan's, in the state's order)
    reading = Resolution(p, solved, rules.model, units)
    results = _order_results(orders, scan, reading, units)
    dislodged = reading.dislodged_units()
    after_units = reading.units_after(scan.dest_of)
    standoffs = reading.standoffs()
    after, options = after_movement(state, after_units, dislodged, standoffs, rules)
    resolutions = None if solved.resolutions is None else len(solved.resolutions)
    backups = tuple(f"{name}: " + ", ".join(_describe_key(key, p, units) for key in keys)
                    for name, keys in solved.backups) if solved.backups else ()
    trace = MovementTrace(scan.orders, scan, solved, units)
    return PhaseResult(state, after, results, rules, options, solver_calls=solved.calls,
                       resolutions=resolutions, backup_rules=backups, dislodgements=dislodged,
                       standoffs=standoffs, trace=trace,
                       resolutions_capped=solved.resolutions is not None and solved.resolutions.capped)


def _order_results(orders: list[Order], scan: _Prescan, reading: Resolution, units: Sequence[Unit]) -> tuple[OrderResult, ...]:
    """Each order's result: its verdict from the prescan, or its outcome read off the
    solution (:mod:`.resolution`), by kind: the moves, supports and convoys of the problem,
    then the holds (each unit's order that is none of those) and any identical copy of a
    unit's kept order."""
    p, n = scan.problem, len(orders)
    made: list[OrderResult | None] = [None] * n  # by order index
    for kind, read, of in ((p.moves, reading.move, scan.move_of), (p.supports, reading.support, scan.support_of),
                           (p.convoys, reading.convoy, scan.convoy_of)):
        for k, i in of.items():
            if k < n:  # else an implicit order (DATC 4.E.3 a): no order given, no result
                made[k] = new_result((orders[k], units[kind[i].unit], read(i)))
    for k, verdict in scan.verdicts.items():  # the prescan's verdict first (a convoy on no route stays in the problem)
        if k < n:
            made[k] = verdict
    for u, kept in scan.chosen.items():  # the order a unit acts on that is no move, support or convoy: it holds
        if kept is not None and kept < n and made[kept] is None:
            made[kept] = new_result((orders[kept], units[u], reading.hold(u)))
    for k in [k for k, result in enumerate(made) if result is None]:  # (not `None in made`: that calls __eq__)
        made[k] = _other_result(k, orders, scan, reading, units)
    return tuple(made)  # type: ignore[arg-type]  # every order has its result


def _other_result(k: int, orders: list[Order], scan: _Prescan, reading: Resolution, units: Sequence[Unit]) -> OrderResult:
    """The result of an order that got no verdict and is not the order its unit acts on: an
    identical copy of the unit's kept order (with the kept order's outcome), else a hold."""
    order = orders[k]
    assert not isinstance(order, (Build, Waive))  # an order with no unit gets a verdict in the prescan
    u = scan.problem.unit_at[order.unit.location.province]
    kept = scan.chosen.get(u)
    same = kept if kept is not None and kept != k and orders[kept] == order else k
    if same in scan.move_of:
        outcome = reading.move(scan.move_of[same])
    elif same in scan.support_of:
        outcome = reading.support(scan.support_of[same])
    elif same in scan.convoy_of:
        outcome = reading.convoy(scan.convoy_of[same])
    else:
        outcome = reading.hold(u)
    return OrderResult(order, units[u], outcome)


def _describe_key(key: Decision, p: Problem, units: Sequence[Unit]) -> str:
    kind, i = key
    if kind is CONVOY:
        u = units[p.convoys[i].unit]
        return f"convoy by {u.kind} {u.location}"
    if kind is MOVE or kind is PATH:
        move = p.moves[i]
        u = units[move.unit]
        return f"{u.kind} {u.location} - {move.dest}" + (" (its convoy)" if kind is PATH else "")
    return f"{kind} {i}"
