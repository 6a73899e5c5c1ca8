"""Retreat orders: several orders to one unit (DATC 4.D.3) and coasts (4.B)."""

from __future__ import annotations

import dipsat
from dipsat.board import Location, Phase, PhaseKind, Season, Unit, UnitKind
from dipsat.state import Dislodged, State


def _retreat_state(unit: Unit, attacker_origin: str) -> State:
    v = dipsat.load_variant()
    return State(v, Phase(1901, Season.SPRING, PhaseKind.RETREAT), (), (), (Dislodged(unit, attacker_origin),))


def _orders(text: str):
    orders, errors = dipsat.notation.parse_orders(text, dipsat.load_variant(), PhaseKind.RETREAT)
    assert not errors
    return orders


def test_three_different_retreat_orders_disband_the_unit():
    army = Unit("Germany", UnitKind.ARMY, Location("mun"))
    result = dipsat.adjudicate(_retreat_state(army, "tyr"), _orders("A mun R ruh\nA mun R kie\nA mun R ber"))
    assert not result.after.units  # DATC 4.D.3 c: several different orders: none counts
    assert all(r.reason is dipsat.Reason.ILLEGAL for r in result.results)


def test_the_same_retreat_order_twice_is_one_order():
    army = Unit("Germany", UnitKind.ARMY, Location("mun"))
    result = dipsat.adjudicate(_retreat_state(army, "tyr"), _orders("A mun R ruh\nA mun R ruh"))
    assert result.after.units == (Unit("Germany", UnitKind.ARMY, Location("ruh")),)
    assert all(r.succeeded for r in result.results)


def test_retreat_to_an_unreachable_coast_is_illegal():
    fleet = Unit("France", UnitKind.FLEET, Location("wes"))
    result = dipsat.adjudicate(_retreat_state(fleet, "tys"), _orders("F wes R spa/nc"))
    assert not result.after.units  # DATC 4.B.3 b: the order is illegal, the fleet is disbanded
    assert result.results[0].reason is dipsat.Reason.ILLEGAL


def test_retreat_with_the_only_possible_coast_left_out():
    fleet = Unit("France", UnitKind.FLEET, Location("wes"))
    result = dipsat.adjudicate(_retreat_state(fleet, "tys"), _orders("F wes R spa"))
    assert result.after.units == (Unit("France", UnitKind.FLEET, Location("spa", "sc")),)  # DATC 4.B.2 a


def test_three_retreats_of_one_power_to_one_area_all_bounce():
    """Found by tests/test_invariants.py: the units of one power retreating to one area
    could not be listed in order (a TypeError)."""
    v = dipsat.load_variant()
    dislodged = tuple(Dislodged(Unit("Germany", kind, Location(where)), origin) for kind, where, origin in
                      ((UnitKind.ARMY, "ruh", "mun"), (UnitKind.FLEET, "kie", "ber"), (UnitKind.FLEET, "bel", "pic")))
    state = State(v, Phase(1901, Season.SPRING, PhaseKind.RETREAT), (), (), dislodged)
    result = dipsat.adjudicate(state, _orders("A ruh R hol\nF kie R hol\nF bel R hol"))
    assert [r.reason for r in result.results] == [dipsat.Reason.BOUNCED] * 3
    assert not result.after.units
