"""A position read off the orders alone: DATC tests pasted as the DATC writes them.

The DATC prints each test case as orders under power names, without the position
(``Austria:`` then ``A Vienna - Tyrolia``); the units are the ones the orders name. This
module takes them, following the DATC's conventions:

- every ordered unit stands where its order says, of the kind the order gives, and belongs
  to the power its order is given under (the heading ``Austria:`` or a prefix);
- a unit named in a support or a convoy that has no order of its own stands there too, and
  belongs to the power of the order naming it (the heading's), unless the order names its
  nationality (``S Turkish F con - bul``); a unit with an order of its own is that unit,
  under whatever power the order is given (DATC 6.D.32: ``F London Supports A Yorkshire``
  under France names Germany's ordered ``A Yorkshire - Holland``);
- a convoyed unit is an army; a unit whose kind no order names is an army on land and a
  fleet at sea (a coastal province is then a problem: the kind must be written).

The position is that of a movement phase (Spring 1901 unless told otherwise), each power
owning its home centres. A test whose point is a unit of another power (DATC 6.A.6,
"ordering a unit of another country") cannot be pasted so: the orders do not say whose the
unit is. :func:`units_from_orders` returns the units with the reason each was taken, so
that the command can say what it assumed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import Location, Phase, PhaseKind, Unit, UnitKind
from ..maps import ProvinceKind, Variant
from ..notation import format_order
from ..orders import Convoy, Hold, Move, Order, SupportHold, SupportMove, UnitRef
from ..state import State

__all__ = ["TakenUnit", "units_from_orders", "position_from_orders"]

_MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)


@dataclass(frozen=True, slots=True)
class TakenUnit:
    """A unit put on the board because an order names it."""

    unit: Unit
    reason: str  # "ordered", "supported", "convoyed"
    order: Order  # the order that named it first

    def __str__(self) -> str:
        return f"{self.unit} ({self.reason}: {format_order(self.order)})"


def units_from_orders(orders: list[Order], variant: Variant) -> tuple[list[TakenUnit], list[str]]:
    """The units the movement orders name, and the problems (one line each: an order with no
    power, a unit whose kind or coast cannot be told, an order that is no movement order)."""
    taken: dict[str, TakenUnit] = {}
    problems: list[str] = []
    for order in orders:  # the ordered units first: a unit with its own order is that unit
        if not isinstance(order, _MOVEMENT_ORDERS):
            problems.append(f"{format_order(order)!r}: not a movement order; --from-orders takes the units of a "
                            "movement phase's orders")
            continue
        if order.power is None:
            problems.append(f"{format_order(order)!r}: no power gives it: write the orders under their power's "
                            "name ('Austria:' alone on a line) or with a prefix ('Austria: A vie - tyr')")
            continue
        if order.unit.province not in taken:
            _take(taken, problems, order.unit, order.power, "ordered", order, variant)
    for order in orders:
        if isinstance(order, (SupportHold, SupportMove, Convoy)) and order.power is not None:
            if order.target.province not in taken:
                reason = "convoyed" if isinstance(order, Convoy) else "supported"
                _take(taken, problems, order.target, order.target.power or order.power, reason, order, variant)
    return list(taken.values()), problems


def _take(taken: dict[str, TakenUnit], problems: list[str], ref: UnitRef, power: str, reason: str, order: Order,
          variant: Variant) -> None:
    province = variant.map.provinces.get(ref.province)
    if province is None:  # an impassable area: the order is illegal, and no unit stands there
        return
    kind = ref.kind
    if kind is None:
        if isinstance(order, Convoy) and reason == "convoyed":
            kind = UnitKind.ARMY  # only armies are convoyed
        elif province.kind is ProvinceKind.LAND:
            kind = UnitKind.ARMY
        elif province.kind is ProvinceKind.SEA:
            kind = UnitKind.FLEET
        else:
            problems.append(f"{format_order(order)!r}: is the unit in {ref.province} an army or a fleet? Write "
                            f"A or F before it")
            return
    location = ref.location
    if kind is UnitKind.FLEET and province.coasts and location.coast is None:
        problems.append(f"{format_order(order)!r}: the fleet in {ref.province} needs its coast (e.g. "
                        f"{ref.province}/{province.coasts[0]})")
        return
    if kind is not UnitKind.FLEET and location.coast is not None:
        location = Location(location.province)
    if not variant.map.can_occupy(kind, location):
        problems.append(f"{format_order(order)!r}: {kind} cannot stand in {location}")
        return
    taken[ref.province] = TakenUnit(Unit(power, kind, location), reason, order)


def position_from_orders(orders: list[Order], variant: Variant, phase: Phase | None = None
                         ) -> tuple[State, list[TakenUnit], list[str]]:
    """The movement phase `phase` (default: the variant's first, Spring 1901) with the units
    the orders name, each power owning its home centres; the units taken and the problems."""
    phase = phase or variant.initial_state().phase
    if phase.kind is not PhaseKind.MOVEMENT:
        return variant.initial_state(), [], [f"phase {phase}: --from-orders takes a movement phase (e.g. S1901M, "
                                              "F1901M)"]
    taken, problems = units_from_orders(orders, variant)
    owners = tuple((c, p.name) for p in variant.powers for c in p.home_centres)
    return State(variant, phase, tuple(t.unit for t in taken), owners), taken, problems
