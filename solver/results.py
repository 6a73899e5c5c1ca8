"""What adjudication returns: a result per order, never an exception for bad orders."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from .board import Location, Unit
from .orders import Order
from .rules import Rules
from .state import Dislodged, State


class Reason(enum.Enum):
    """Why an order failed (or, for ILLEGAL/VOID, why it had no effect)."""

    ILLEGAL = "illegal"  # DATC 4.E.1: not a possible order; ignored, the unit holds
    VOID = "void"  # a support or convoy that matches no order
    BOUNCED = "bounced"  # the move was not strong enough (standoff or beaten)
    NO_PATH = "no convoy"  # no undisrupted convoy route
    CUT = "cut"  # support cut
    DISLODGED = "dislodged"  # the unit was dislodged (support/convoy fails)
    PARADOX = "paradox"  # decided by a backup rule (DATC 5.B.9)
    BLOCKED = "blocked"  # retreat/build not possible (occupied, two retreats, no centre ...)

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class OrderResult:
    """The outcome of one order as given."""

    order: Order
    unit: Unit | None
    succeeded: bool
    reason: Reason | None = None
    detail: str = ""

    @property
    def status(self) -> str:
        return "succeeds" if self.succeeded else f"fails ({self.reason})" if self.reason else "fails"


@dataclass(frozen=True)
class PhaseResult:
    """The result of adjudicating one phase."""

    before: State
    after: State
    results: tuple[OrderResult, ...]
    rules: Rules
    retreat_options: dict[Unit, tuple[Location, ...]] = field(default_factory=dict)
    solver_calls: int = 0
    resolutions: int | None = None  # consistent resolutions found (None: acyclic fast path)
    backup_rules: tuple[str, ...] = ()  # the backup rules applied, in words
    dislodgements: tuple[Dislodged, ...] = ()
    """Movement: every unit dislodged, also those disbanded at once for want of a retreat
    (:attr:`dislodged` lists only those left to retreat)."""
    standoffs: frozenset[str] = frozenset()
    """Movement: the areas left empty by a standoff (no retreat there, DATC 6.H)."""
    trace: object | None = field(default=None, compare=False, repr=False)
    """Movement only: the prescan and the solved model, read by :mod:`dipsat.explain`."""
    resolutions_capped: bool = False
    """Movement: there are more consistent resolutions than :attr:`resolutions` (the
    driver stops enumerating at its cap, ``dipsat.driver.MAX_RESOLUTIONS`` per independent part)."""

    @property
    def dislodged(self) -> tuple[Dislodged, ...]:
        return self.after.dislodged
