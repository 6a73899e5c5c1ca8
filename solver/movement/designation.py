"""Which unit an order goes to, and which of a unit's orders it acts on: the orders that
name their unit wrongly (DATC 4.C.1, 4.C.2, 4.C.5, 4.C.6 and 4.B.5, read by the rules'
options) and a unit with several orders (4.D.3). Part of the movement prescan
(:mod:`.prescan`), which records the verdicts these give."""

from __future__ import annotations

from typing import Final

from ..board import Unit
from ..orders import Build, Convoy, Hold, Move, Order, SupportHold, SupportMove, Waive, kind_name
from ..outcomes import Illegal, IllegalCode
from ..results import OrderResult
from ..rules import (DesignationReading, MissingNationality, MissingUnitDesignation, MultipleOrders, Rules,
                    WrongNationality, WrongUnitCoast, WrongUnitDesignation)
from ..state import State
from .legality import impassable_problem

__all__ = ["drop_weak_orders", "one_order", "ordered_unit", "strict_designations"]


def ordered_unit(state: State, order: Order, index_of: dict[str, int],
                  rules: Rules) -> tuple[int | None, Illegal | None]:
    if not isinstance(order, (Hold, Move, SupportHold, SupportMove, Convoy)):
        return None, Illegal(IllegalCode.WRONG_PHASE, f"a {kind_name(order)} order is not a movement-phase order")
    u = index_of.get(order.unit.location.province)
    closed = impassable_problem(state.map, order)
    if closed is not None:
        return u, closed
    if u is None:
        return None, Illegal(IllegalCode.NO_UNIT, f"there is no unit in {order.unit.province}")
    unit = state.units[u]
    if order.unit.kind is unit.kind and order.unit.location.coast == unit.location.coast and \
            (order.power is None or order.power == unit.power):
        return u, None  # the common case: the order names the unit as it stands
    if order.power is not None and order.power != unit.power:
        return u, Illegal(IllegalCode.FOREIGN_UNIT, f"the unit in {unit.province} belongs to {unit.power} (DATC 6.A.6)")
    if order.unit.location.coast not in (None, unit.location.coast) and rules.ordered_unit_coast is WrongUnitCoast.FAILS:
        return u, Illegal(IllegalCode.COAST, f"the fleet is at {unit.location}, not {order.unit.location} (DATC 4.B.5 a)")
    if order.unit.kind is None and rules.missing_unit_designation is MissingUnitDesignation.INVALID:
        return u, Illegal(IllegalCode.DESIGNATION, "the order does not say army or fleet (DATC 4.C.1 a)")
    if order.unit.kind not in (None, unit.kind) and rules.wrong_unit_designation is WrongUnitDesignation.INVALID:
        return u, Illegal(IllegalCode.DESIGNATION,
                          f"the unit in {unit.province} is {unit.kind}, not {order.unit.kind} (DATC 4.C.2 a)")
    return u, None


def _designation_flaws(state: State, order: Order, unit: Unit) -> list[str]:
    """The DATC 4.C issues an order touches: missing/wrong unit designation (of the
    ordered unit or the supported/convoyed one), missing/wrong nationality."""
    flaws = []
    assert not isinstance(order, (Build, Waive))  # movement orders only (ordered_unit)
    refs = [order.unit] + ([order.target] if isinstance(order, (SupportHold, SupportMove, Convoy)) else [])
    for ref in refs:
        actual = state.unit_at(ref.province)
        if actual is not None and ref.kind is None:
            flaws.append("4.C.1")
        elif actual is not None and ref.kind is not actual.kind:
            flaws.append("4.C.2")
    if isinstance(order, (SupportHold, SupportMove, Convoy)):
        target = state.unit_at(order.target.province)
        if target is not None and target.power != unit.power:
            if order.target.power is None:
                flaws.append("4.C.5")
            elif order.target.power != target.power:
                flaws.append("4.C.6")
    return flaws


def strict_designations(rules: Rules) -> bool:
    """Does a flawed designation weaken an order: DATC 4.C choice a or c for some issue?"""
    return rules.missing_unit_designation in _WEAKENING or rules.wrong_unit_designation in _WEAKENING or \
        rules.missing_nationality in _WEAKENING or rules.wrong_nationality in _WEAKENING


_WEAKENING: Final[frozenset[DesignationReading]] = frozenset(
    o for kind in (MissingUnitDesignation, WrongUnitDesignation, MissingNationality, WrongNationality)
    for o in list[DesignationReading](kind) if o.invalid or o.yields)
"""The readings of the DATC 4.C issues under which a flawed designation weakens an order
(:func:`_designation_readings`): choice a or c."""


def _designation_readings(rules: Rules) -> dict[str, DesignationReading]:
    """The readings of the DATC 4.C issues an order's designations can touch."""
    return {"4.C.1": rules.missing_unit_designation, "4.C.2": rules.wrong_unit_designation,
            "4.C.5": rules.missing_nationality, "4.C.6": rules.wrong_nationality}


def drop_weak_orders(state: State, orders: list[Order], ks: list[int], rules: Rules,
                     verdicts: dict[int, OrderResult], unit: Unit) -> list[int]:
    """DATC 4.C.1/4.C.2/4.C.5/4.C.6: under choice a a flawed order is invalid (a support or
    convoy is void, the unit holds); under c it yields to another order of the unit without the flaw."""
    keep = []
    for k in ks:
        flaws = _designation_flaws(state, orders[k], unit)
        readings = _designation_readings(rules)
        invalid = [f for f in flaws if readings[f].invalid]
        weak = [f for f in flaws if readings[f].yields]
        if invalid:
            verdicts[k] = OrderResult(orders[k], unit, Illegal(
                IllegalCode.DESIGNATION, f"designation or nationality does not match (DATC {invalid[0]} a)"))
        elif weak and any(not _designation_flaws(state, orders[j], unit) for j in ks if j != k):
            verdicts[k] = OrderResult(orders[k], unit, Illegal(
                IllegalCode.DESIGNATION, f"another order of the unit is written correctly (DATC {weak[0]} c)"))
        else:
            keep.append(k)
    return keep


def one_order(orders: list[Order], ks: list[int], rules: Rules, verdicts: dict[int, OrderResult],
              unit: Unit) -> int | None:
    """DATC 4.D.3: one legal order per unit; several different ones -> per the rule."""
    if not ks:
        return None  # every order of the unit was dropped: it holds
    keep: int | None
    if len(ks) == 1 or len({orders[k] for k in ks}) == 1:
        keep = ks[0]
    else:
        choice = rules.multiple_orders
        keep = ks[0] if choice is MultipleOrders.FIRST else ks[-1] if choice is MultipleOrders.LAST else None
    for k in ks:
        if k != keep and orders[k] != (orders[keep] if keep is not None else None):
            verdicts[k] = OrderResult(orders[k], unit, Illegal(
                IllegalCode.SEVERAL_ORDERS, "the unit has more than one order (DATC 4.D.3)"))
    return keep
