"""The facts of a solved turn, read through the definitions the model was built from.

The model defines each fact of DATC 5.B once (:func:`~.strength.by_land`,
:func:`~.strength.has_path`, :func:`~.strength.head_to_head`,
:func:`~.support.attack_on_support`) over what it reads of the decisions
(:class:`~.literals.Reads`). :class:`Values` reads the decisions off a solution: every
decision is known, so each definition gives the fact's value in that solution, which is
the value its literal has in the model. Whoever explains a turn asks these, never the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from .decisions import DISLODGED, MOVE, PATH, SUPPORT, CONVOY, Decision, TermKey
from .literals import Condition
from .options import ModelOptions
from .problem import Problem
from .strength import by_land, has_path, head_to_head, hold_strength, vacated
from .support import attack_on_support, protected_by_convoy_rule

__all__ = ["Values"]

T = TypeVar("T")


class Values:
    """The decisions of one solution (``values``), and the facts defined from them."""

    def __init__(self, problem: Problem, options: ModelOptions, values: Mapping[Decision, bool]) -> None:
        self.problem = problem
        self.options = options
        self.values = values

    # --- what the definitions read (:class:`~.literals.Reads`) -------------------------------
    def cond(self, key: Decision) -> bool:
        return self.values[key]

    def both(self, a: Condition, b: Condition) -> bool:
        return _known(a) and _known(b)

    def memo(self, key: TermKey, build: Callable[[], T]) -> T:
        return build()

    # --- the decisions ---------------------------------------------------------------------
    def moves(self, m: int) -> bool:
        """DATC 5.B.1: move m succeeds."""
        return self.values[(MOVE, m)]

    def given(self, s: int) -> bool:
        """DATC 5.B.2: support s is given."""
        return self.values[(SUPPORT, s)]

    def dislodged(self, u: int) -> bool:
        """DATC 5.A: unit u is dislodged (no decision: nothing moves into its area)."""
        return self.values.get((DISLODGED, u), False)

    def convoys(self, c: int) -> bool:
        """DATC 5.B.3: convoy c carries (its fleet is not dislodged)."""
        return self.values[(CONVOY, c)]

    def path(self, m: int) -> bool:
        """DATC 5.B.4: convoyed move m has a route of convoying fleets."""
        return self.values[(PATH, m)]

    # --- the facts defined from them ---------------------------------------------------------
    def by_land(self, m: int) -> bool:
        """The route move m took: over land unless convoyed (a land fallback: when PATH failed)."""
        return _known(by_land(self, m))

    def has_path(self, m: int) -> bool:
        """DATC 5.B.4: move m has a route (a land route always has one)."""
        return _known(has_path(self, m))

    def head_to_head(self, m: int) -> bool:
        """DATC 5.B.1: move m and the opposite move meet head to head."""
        return _known(head_to_head(self, m))

    def vacated(self, m: int) -> bool:
        """DATC 5.B.8: move m's destination is empty or emptied (else its unit stays to face m)."""
        return _known(vacated(self, m))

    def hold_strength(self, province: str) -> int:
        """DATC 5.B.5: the hold strength of an area."""
        term = hold_strength(self, province)
        assert term.lo == term.hi, "every decision of a solution is known"
        return term.lo

    def cuts(self, m: int, s: int) -> bool:
        """DATC 5.B.2: move m cuts support s (whether or not it dislodges the supporting unit)."""
        return _known(attack_on_support(self, m, s).cuts)

    def protected(self, m: int, s: int) -> bool:
        """DATC 4.A.2 a-c: the rulebook's convoy rule keeps move m from cutting support s."""
        return protected_by_convoy_rule(self.problem, self.options, self.problem.moves[m], self.problem.supports[s])


def _known(c: Condition) -> bool:
    assert isinstance(c, bool), "every decision of a solution is known"
    return c
