"""Shrinking a phase to a minimal one that still shows a difference (delta debugging).

:func:`shrink` takes a :class:`Candidate` (a position and its orders) and a predicate,
"does this candidate still show the difference?", and returns a candidate the predicate
still holds for from which no single unit, order or owned centre can be removed and no
order simplified without losing it (1-minimal, Zeller and Hildebrandt's *ddmin*, over
units, then orders, then centres, then order by order simplified, repeated while any of
them shrinks). The predicate is abstract: ``dipsat validate --write-cases`` asks dipsat
whether it still differs from the record the same way
(:mod:`dipsat.runners.written_cases`); an engine comparison can ask another adjudicator.

Every candidate is a legal position the predicate may be asked about: units are only
taken away (one unit per province and the coasts stay right), the orders of a unit taken
away are dropped with it, and so are the supports and convoys of a unit taken away (the
supporting unit then holds; in a movement phase a unit without an order holds, DATC
4.E.1). In a retreat phase the unit that dislodged a kept dislodged unit stays with it
(the retreat rules read its origin). A simplified order is a support or convoy turned
into a hold and a convoyed move turned into a move over land.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from ..board import PhaseKind, Unit
from ..orders import Build, Convoy, Hold, Move, Order, SupportHold, SupportMove, Waive, ordered_province
from ..state import Dislodged, State

__all__ = ["Candidate", "Shrunk", "ddmin", "shrink"]

T = TypeVar("T", bound=Hashable)

ROUNDS = 4
"""At most this many passes over units, orders, centres and simplifications (each pass
after the first only runs when the one before shrank something)."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A position and the orders given in it: what the predicate is asked about."""

    state: State
    orders: tuple[Order, ...]

    @property
    def key(self) -> tuple[object, ...]:
        """Equal for candidates with the same units, dislodged units, centres and orders."""
        return self.state.units, self.state.dislodged, self.state.owners, self.orders

    @property
    def size(self) -> tuple[int, int, int]:
        """(units with the dislodged ones, orders, owned centres)."""
        return len(self.state.units) + len(self.state.dislodged), len(self.orders), len(self.state.owners)

    def with_units(self, units: Sequence[Unit], dislodged: Sequence[Dislodged]) -> Candidate:
        """The candidate with only these units, and the orders that still have their unit
        (and, for supports and convoys, their target)."""
        state = replace(self.state, units=tuple(units), dislodged=tuple(dislodged))
        return Candidate(state, tuple(o for o in self.orders if _still_given(o, state)))


@dataclass(frozen=True, slots=True)
class Shrunk:
    """What :func:`shrink` returns: the smallest candidate found and how many candidates
    the predicate was asked about."""

    candidate: Candidate
    tests: int


def _still_given(order: Order, state: State) -> bool:
    """An order of a unit still on the board (a dislodged one in a retreat phase), and for
    a support or convoy, of a unit whose target is still on the board."""
    if isinstance(order, (Build, Waive)):
        return True
    province = ordered_province(order)
    if state.phase.kind is PhaseKind.RETREAT:
        return any(d.unit.province == province for d in state.dislodged)
    if province is None or state.unit_at(province) is None:
        return False
    if isinstance(order, (SupportHold, SupportMove, Convoy)):
        return state.unit_at(order.target.province) is not None
    return True


def ddmin(items: Sequence[T], keeps: Callable[[list[T]], bool]) -> list[T]:
    """A 1-minimal sublist of `items` that `keeps` holds for (`keeps(items)` is assumed):
    removing any single item of the result makes it fail. Chunks of the list are taken
    away, halving the chunks while none can go (ddmin's complements; the empty list is
    tried last). The order of `items` is kept."""
    current = list(items)
    parts = 2
    while len(current) >= 2:
        size = -(-len(current) // parts)
        chunks = [current[i:i + size] for i in range(0, len(current), size)]
        for chunk in chunks:
            gone = set(chunk)
            rest = [x for x in current if x not in gone]
            if keeps(rest):
                current, parts = rest, max(parts - 1, 2)
                break
        else:
            if parts >= len(current):
                break
            parts = min(len(current), parts * 2)
    if len(current) == 1 and keeps([]):
        return []
    return current


def shrink(candidate: Candidate, keeps: Callable[[Candidate], bool]) -> Shrunk:
    """A 1-minimal candidate `keeps` still holds for (it must hold for `candidate`): no
    unit, order or owned centre can be taken away and no order simplified without
    `keeps` failing. Each distinct candidate is asked about once."""
    seen: dict[tuple[object, ...], bool] = {}

    def ask(c: Candidate) -> bool:
        if c.key not in seen:
            seen[c.key] = keeps(c)
        return seen[c.key]

    current = candidate
    for _ in range(ROUNDS):
        before = current.size, current.orders
        current = _shrink_units(current, ask)
        current = _with_orders(current, ddmin(current.orders, lambda o: ask(_with_orders(current, o))))
        current = _with_owners(current, ddmin(current.state.owners, lambda o: ask(_with_owners(current, o))))
        current = _simplify(current, ask)
        if (current.size, current.orders) == before:
            break
    return Shrunk(current, len(seen))


def _shrink_units(current: Candidate, ask: Callable[[Candidate], bool]) -> Candidate:
    """ddmin over the units and dislodged units; in a retreat phase the units standing
    where a kept dislodged unit was are kept with it."""
    items: list[Unit | Dislodged] = [*current.state.units, *current.state.dislodged]
    retreat = current.state.phase.kind is PhaseKind.RETREAT

    def build(kept: Sequence[Unit | Dislodged]) -> Candidate:
        dislodged = [d for d in kept if isinstance(d, Dislodged)]
        held = {d.unit.province for d in dislodged} if retreat else set()
        units = [u for u in current.state.units if u in kept or u.province in held]
        return current.with_units(units, dislodged)

    return build(ddmin(items, lambda kept: ask(build(kept))))


def _with_orders(current: Candidate, orders: Sequence[Order]) -> Candidate:
    return Candidate(current.state, tuple(orders))


def _with_owners(current: Candidate, owners: Sequence[tuple[str, str]]) -> Candidate:
    return Candidate(replace(current.state, owners=tuple(owners)), current.orders)


def _simplify(current: Candidate, ask: Callable[[Candidate], bool]) -> Candidate:
    """Each order replaced by a simpler one where the difference stays: a support or a
    convoy by a hold, a move by convoy by a move over land."""
    for k in range(len(current.orders)):
        simpler = _simpler(current.orders[k])
        if simpler is None:
            continue
        trial = Candidate(current.state, current.orders[:k] + (simpler,) + current.orders[k + 1:])
        if ask(trial):
            current = trial
    return current


def _simpler(order: Order) -> Order | None:
    if isinstance(order, (SupportHold, SupportMove, Convoy)):
        return Hold(order.unit, order.power)
    if isinstance(order, Move) and order.via_convoy:
        return replace(order, via_convoy=False, path=())
    return None
