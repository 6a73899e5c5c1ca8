"""What adjudication returns: a result per order, never an exception for bad orders."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, NamedTuple

from .board import Location, Unit
from .orders import Order
from .frozen import direct_init
from .outcomes import DisorderRemoval, Outcome, Reason
from .rules import Rules
from .state import Dislodged, State

if TYPE_CHECKING:
    from .movement import MovementTrace

__all__ = ["OrderResult", "PhaseResult", "Reason"]


class OrderResult(NamedTuple):
    """One order as given, the unit it went to, and its outcome (a value naming what
    decided it, :mod:`dipsat.outcomes`).

    A named tuple: a movement turn makes one for every order, and a tuple is made in C
    (:data:`new_result`), where a dataclass's fields are set by a Python function, a frame
    and a slot setter each; its fields are read in C too. Compared, hashed, printed and
    pickled as a frozen dataclass of the same fields would be."""

    order: Order
    unit: Unit | None
    outcome: Outcome

    @property
    def succeeded(self) -> bool:
        return self.outcome.succeeds

    @property
    def reason(self) -> Reason | None:
        """The result code of a failed order (None when it succeeded)."""
        return self.outcome.code

    @property
    def detail(self) -> str:
        """The outcome's short note (``attack 2 vs hold 1``, ``cut by A mun`` ...)."""
        return self.outcome.detail

    @property
    def status(self) -> str:
        return "succeeds" if self.succeeded else f"fails ({self.reason})" if self.reason else "fails"


new_result: Callable[[tuple[Order, Unit | None, Outcome]], OrderResult] = partial(tuple.__new__, OrderResult)
"""An :class:`OrderResult` of ``(order, unit, outcome)``, made without a Python call (``tuple.__new__``
on the class, as the named tuple's own ``_make`` does): a movement turn makes one for every order."""


@direct_init
@dataclass(frozen=True, slots=True)
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
    civil_disorder: tuple[DisorderRemoval, ...] = ()
    """Adjustment: the units the civil-disorder rule removed (DATC 4.D.8), with the distances
    and the tie-break that chose each."""
    trace: MovementTrace | None = field(default=None, compare=False, repr=False)
    """Movement only: the prescan and the solved model, for ``--all`` (the consistent
    resolutions before any backup rule, and a paradox's core)."""
    retreat_choices: dict[Unit, tuple[Location, ...]] = field(default_factory=dict)
    """Retreat phase: where each dislodged unit could retreat (DATC 4.A.5, 6.H), under these
    rules: what its order chose from (:attr:`retreat_options` are those of the next phase)."""
    resolutions_capped: bool = False
    """Movement: there are more consistent resolutions than :attr:`resolutions` (the
    driver stops enumerating at its cap, ``dipsat.movement.driver.MAX_RESOLUTIONS`` per independent part)."""

    def __repr__(self) -> str:
        """Compact: the phase, the rules and what happened in numbers."""
        succeeded = sum(r.succeeded for r in self.results)
        return (f"<PhaseResult {self.before.phase} (rules {self.rules}): {len(self.results)} orders, "
                f"{succeeded} succeeded, {len(self.dislodgements)} dislodged; next {self.after.phase}>")

    def _repr_svg_(self) -> str:
        """The board with every order and result, as notebooks show it (:mod:`dipsat.svg`)."""
        from .svg import board  # a printer, imported only when a notebook asks
        return board(result=self)

    @property
    def dislodged(self) -> tuple[Dislodged, ...]:
        return self.after.dislodged
