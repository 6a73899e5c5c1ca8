"""One entry point for every phase kind."""

from __future__ import annotations

from .adjustments import adjudicate_adjustments
from .board import PhaseKind
from .movement import adjudicate_movement
from .orders import Order
from .results import PhaseResult
from .retreats import adjudicate_retreats
from .rules import Rules
from .state import State


def adjudicate(state: State, orders: list[Order], rules: Rules | None = None) -> PhaseResult:
    """Adjudicate the phase of `state` with `orders`; never raises on bad orders."""
    rules = rules or Rules.profile()
    kind = state.phase.kind
    if kind is PhaseKind.MOVEMENT:
        return adjudicate_movement(state, list(orders), rules)
    if kind is PhaseKind.RETREAT:
        return adjudicate_retreats(state, list(orders), rules)
    return adjudicate_adjustments(state, list(orders), rules)
