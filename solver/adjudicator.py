"""One entry point for every phase kind.

The movement phase's solver (OR-Tools, half a second to import) is imported on the
first movement phase, so that ``import dipsat`` and the command line start fast: the
:mod:`.movement` package loads it with its turn module, when its name is first read
(read off the package, not imported in the call: a ``from`` import of a package's name
runs importlib's Python code at every call).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from . import movement
from .adjustments import adjudicate_adjustments
from .board import PhaseKind, Power
from .orders import Order
from .results import PhaseResult
from .retreats import adjudicate_retreats
from .rules import Rules
from .state import State


def adjudicate(state: State, orders: list[Order], rules: Rules | None = None,
               silent: Mapping[Power, str] | None = None) -> PhaseResult:
    """Adjudicate the phase of `state` with `orders`; never raises on bad orders.

    `silent` maps powers whose orders are ignored (a neutral power of a player set-up,
    a power in civil disorder) to the reason: their orders are illegal with it, and
    their units act as units without orders."""
    rules = rules or Rules.profile()
    kind = state.phase.kind
    if kind is PhaseKind.MOVEMENT:
        return movement.adjudicate_movement(state, list(orders), rules, silent)
    if kind is PhaseKind.RETREAT:
        return adjudicate_retreats(state, list(orders), rules, silent)
    return adjudicate_adjustments(state, list(orders), rules, silent)


def adjudicate_many(items: list[tuple[State, list[Order], Rules]], batch: int = 64,
                    scans: Sequence[object | None] | None = None) -> list[PhaseResult]:
    """Adjudicate independent phases (e.g. every phase of recorded games): movement
    turns are solved `batch` at a time in one CP-SAT model. Same results as
    calling :func:`adjudicate` on each. `scans`: movement prescans made already
    (:func:`dipsat.movement.prescan`), by position in `items`."""
    out: list[PhaseResult | None] = [None] * len(items)
    turns = [i for i, (state, _, _) in enumerate(items) if state.phase.kind is PhaseKind.MOVEMENT]
    for start in range(0, len(turns), batch):
        chunk = turns[start:start + batch]
        made = [scans[i] for i in chunk] if scans is not None else None
        turn_items = [(state, list(orders), rules) for state, orders, rules in (items[i] for i in chunk)]  # as adjudicate
        for i, result in zip(chunk, movement.adjudicate_movements(turn_items, made)):  # type: ignore[arg-type]
            out[i] = result
    for i, (state, orders, rules) in enumerate(items):
        if out[i] is None:
            out[i] = adjudicate(state, orders, rules)
    return out  # type: ignore[return-value]
