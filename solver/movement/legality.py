"""The prescan: which movement orders are legal (DATC 4.E.1, 6.A, 4.B, 4.C).

A *legal* order is one that, not knowing any other order, could be valid; an
illegal order is ignored and its unit holds. Each check returns ``None`` when the
order is legal, or an :class:`~dipsat.outcomes.Illegal` outcome: its code and why in
words. The prescan reads the common case from the map's tables (:data:`Reach`) and asks
these checks of every other order.
"""

from __future__ import annotations

from typing import Final

from ..board import Location, Unit, UnitKind
from ..maps import Map, ProvinceKind
from ..orders import (Build, Convoy, Hold, Move, Order, SupportHold, SupportMove, UnitRef, Waive, kind_name,
                     order_locations)
from ..outcomes import Illegal, IllegalCode
from ..rules import (ImpossibleCoast, MissingUnitDesignation, OmittedCoastOne, OmittedCoastTwo, Rules, UnknownCoast,
                    WrongUnitDesignation)
from ..state import State


_ARMY: Final = UnitKind.ARMY
_FLEET: Final = UnitKind.FLEET
"""Read once (a member read off its enum goes through the metaclass's attribute hook)."""


def impassable_problem(the_map: Map, order: Order) -> Illegal | None:
    """An order naming an impassable area (Switzerland; Modern: Iceland and the islands) is
    illegal (DATC 4.E.1): no unit can stand in, enter, support into or retreat to it."""
    provinces = the_map.provinces
    if isinstance(order, (Build, Waive)):
        if isinstance(order, Build) and order.location.province in provinces:
            return None  # the common case: a build names one area, on the board
        return _impassable_named(the_map, order)
    dest = getattr(order, "dest", None)
    target = getattr(order, "target", None)
    if order.unit.location.province in provinces and (dest is None or dest.province in provinces) and \
            (target is None or target.location.province in provinces) and not getattr(order, "path", ()):
        return None  # the common case, without building the list of every location named
    return _impassable_named(the_map, order)


def _impassable_named(the_map: Map, order: Order) -> Illegal | None:
    provinces = the_map.provinces
    for loc in order_locations(order):
        if loc.province not in provinces:
            return Illegal(IllegalCode.IMPASSABLE, f"{the_map.province_title(loc.province)} is impassable")
    return None


def designation_note(written: UnitRef, unit: Unit, rules: Rules) -> str:
    """Which DATC 4.C rule let an order reach `unit` although it names no unit type or the
    wrong one ('' when the order names the unit's type)."""
    if written.kind is None:
        missing = rules.missing_unit_designation
        key = "c: no other order for the unit names it" if missing is MissingUnitDesignation.UNLESS_OTHER else missing.v3
        return f"the order names no unit type: read as the {_word(unit.kind)} in {unit.location} (DATC 4.C.1 {key})"
    if written.kind is not unit.kind:
        wrong = rules.wrong_unit_designation
        key = "c: no other order for the unit names it" if wrong is WrongUnitDesignation.UNLESS_OTHER else wrong.v3
        article = "an" if unit.kind is UnitKind.ARMY else "a"
        return (f"the order says {written.kind}, but the unit in {unit.location} is {article} {_word(unit.kind)}: "
                f"the order is read as the {_word(unit.kind)}'s (DATC 4.C.2 {key})")
    return ""


def _word(kind: UnitKind) -> str:
    return kind.name.lower()


def _designated(text: str, written: UnitRef, unit: Unit, rules: Rules) -> str:
    note = designation_note(written, unit, rules)
    return f"{text}; {note}" if note else text


def move_destination(state: State, unit: Unit, order: Move, rules: Rules) -> tuple[Location | None, Illegal | None]:
    """Where a move order goes (coast settled, DATC 4.B.1-4.B.6), or why it is illegal."""
    the_map = state.map
    dest = order.dest
    if dest.province == unit.province:
        return None, Illegal(IllegalCode.SELF, "a unit cannot move to its own area (DATC 6.A.4)")
    if order.via_convoy and unit.kind is UnitKind.ARMY and (
            rules.adjacent_convoy.via_binds or ProvinceKind.LAND in (state.map.provinces[dest.province].kind,
                                                                     state.map.provinces[unit.province].kind)):
        impossible = via_convoy_problem(state, unit, dest.province)
        if impossible is not None:
            return None, impossible
    if unit.kind is UnitKind.FLEET:
        if order.via_convoy and not the_map.can_reach_province(unit.kind, unit.location, dest.province):
            return None, Illegal(IllegalCode.CONVOY, "only armies can be convoyed (DATC 6.A.7)")
        found, why = fleet_destination(the_map, unit.location, dest, rules)
        if why is not None and the_map.provinces[dest.province].kind is ProvinceKind.LAND:
            why = Illegal(why.why, _designated(why.text, order.unit, unit, rules))  # a fleet inland
        return found, why
    if dest.coast is not None:
        if rules.unknown_coast is UnknownCoast.FAILS:
            return None, Illegal(IllegalCode.COAST, "an army move names a coast (DATC 4.B.6 a)")
        dest = Location(dest.province)
    if unit.kind is UnitKind.WING:
        if order.via_convoy:
            return None, Illegal(IllegalCode.CONVOY, "a wing cannot be convoyed (Modern rules 4.4)")
        return (dest, None) if the_map.can_move(unit.kind, unit.location, dest) else (None, Illegal(IllegalCode.UNREACHABLE, "not adjacent"))
    if the_map.can_move(unit.kind, unit.location, dest):
        return dest, None
    if convoy_route_on_board(state, unit.province, dest.province):
        return dest, None
    if the_map.provinces[dest.province].kind is ProvinceKind.SEA:
        return None, Illegal(IllegalCode.UNREACHABLE,
                             _designated("an army cannot move to sea (DATC 6.A.2)", order.unit, unit, rules))
    return None, Illegal(IllegalCode.UNREACHABLE, "not adjacent, and no chain of fleets could convoy it (DATC 6.A.1, 6.D.32)")


def via_convoy_problem(state: State, unit: Unit, dest: str) -> Illegal | None:
    """Why an army's move written 'via convoy' can never be carried out: a legal order is one
    that could be valid, not knowing the other orders (DATC 4.E.1). No convoy carries an
    army inland or from inland, on any board and under any reading; where 'via convoy' binds the army to
    the convoy route (:attr:`~dipsat.rules.AdjacentConvoy.via_binds`), neither does one
    where no chain of fleets now at sea reaches (6.D.32). None where a convoy could carry
    it. (A fleet's 'via convoy' names no route a fleet could take: the order means the move
    it names, 4.E.2, or is illegal as not adjacent, 6.A.7.)"""
    if convoy_route_on_board(state, unit.province, dest):
        return None
    province = state.map.provinces.get(dest)
    if province is not None and province.kind is ProvinceKind.LAND:
        return Illegal(IllegalCode.CONVOY, "ordered via convoy, but an army cannot be convoyed inland (DATC 4.E.1)")
    if state.map.provinces[unit.province].kind is ProvinceKind.LAND:
        return Illegal(IllegalCode.CONVOY, "ordered via convoy, but no convoy takes an army from inland (DATC 4.E.1)")
    return Illegal(IllegalCode.CONVOY, "ordered via convoy, but no chain of fleets at sea could convoy it "
                                       "(DATC 4.E.1, 6.D.32)")


def fleet_destination(the_map: Map, src: Location, dest: Location, rules: Rules) -> tuple[Location | None, Illegal | None]:
    prov = the_map.provinces[dest.province]
    if prov.kind is ProvinceKind.LAND:
        return None, Illegal(IllegalCode.UNREACHABLE, "a fleet cannot move inland (DATC 6.A.3)")
    options = the_map.reachable_coasts(src, dest.province)
    if not options:
        return None, Illegal(IllegalCode.UNREACHABLE, "not adjacent for a fleet (DATC 6.A.1, 6.A.9)")
    if not prov.coasts:
        return options[0], None
    if dest.coast is not None:
        if dest in options:
            return dest, None
        if rules.impossible_coast is ImpossibleCoast.IGNORED and len(options) == 1:
            return options[0], None  # 4.B.3 a: the impossible coast is ignored
        return None, Illegal(IllegalCode.COAST, f"{dest} cannot be reached from {src} (DATC 4.B.3)")
    if len(options) > 1:
        if rules.two_coasts_omitted is OmittedCoastTwo.DEFAULT_COAST:
            return default_coast(the_map, dest.province), None  # 4.B.1 v2 b: the default coast
        return None, Illegal(IllegalCode.COAST, "the coast must be named: both coasts can be reached (DATC 4.B.1, 6.B.1)")
    if rules.one_coast_omitted is OmittedCoastOne.FAILS:
        return None, Illegal(IllegalCode.COAST, "the coast is not named (DATC 4.B.2 b)")
    if rules.one_coast_omitted is OmittedCoastOne.DEFAULT_COAST:  # 4.B.2 v2 b: the default coast, if reachable
        default = default_coast(the_map, dest.province)
        return (default, None) if default in options else (None, Illegal(IllegalCode.COAST, (
            f"{src} cannot reach {default}, the default coast (DATC 4.B.2 v2 b)")))
    return options[0], None  # 4.B.2 a: the only possible coast


def default_coast(the_map: Map, province: str) -> Location:
    """The coast an order without one means where a reading of DATC 4.B.1, 4.B.2, 4.B.4
    or 4.B.7 takes a default coast: the first coast the map lists (the DATC names none)."""
    return Location(province, the_map.provinces[province].coasts[0])


def convoy_route_on_board(state: State, origin: str, dest: str, without: str | None = None) -> bool:
    """Could fleets now at sea (but the one in `without`) form a chain from origin to dest
    (DATC 6.D.32)? Asked first of every fleet at sea (:func:`convoy_destinations`, a table
    each map keeps): fewer fleets reach no further, and only a fleet at sea left out can
    make a difference."""
    if dest not in convoy_destinations(state, origin):
        return False
    if not without or without not in state.sea_fleets:
        return True
    return state.map.convoy_possible(origin, dest, _seas(state, without))


def convoy_destinations(state: State, origin: str, without: str | None = None) -> frozenset[str]:
    """Where a chain of fleets now at sea could carry an army from origin (DATC 6.D.32):
    the provinces dest for which :func:`convoy_route_on_board` holds, at once."""
    return state.map.convoy_reach(origin, _seas(state, without))


def _seas(state: State, without: str | None) -> frozenset[str]:
    """The seas holding a fleet, but the one in `without`."""
    return state.sea_fleets - {without} if without else state.sea_fleets


def can_move_somehow(state: State, unit: Unit, dest: str, without: str | None = None) -> bool:
    """Could `unit` move into province `dest` at all (for supports, DATC 6.D.22-24, 6.D.31)."""
    if unit.location.province == dest:
        return False
    if state.map.can_reach_province(unit.kind, unit.location, dest):  # an army by land: the same as can_move
        return True
    return unit.kind is _ARMY and convoy_route_on_board(state, unit.location.province, dest, without)


def support_problem(state: State, unit: Unit, order: SupportHold | SupportMove, rules: Rules) -> Illegal | None:
    """Why a support order is illegal, or None."""
    the_map = state.map
    target = state.unit_at(order.target.location.province)
    if isinstance(order, SupportHold):
        where = order.target.province
        if where == unit.province:
            return Illegal(IllegalCode.SELF, "a unit cannot support itself (DATC 6.A.8)")
    else:
        where = order.dest.province
        if where == unit.province:
            return Illegal(IllegalCode.SELF, "a unit cannot support a move into its own area (DATC 6.D.34)")
        if order.target.province == unit.province:
            return Illegal(IllegalCode.SELF, "a unit cannot support its own move")
    if not the_map.can_reach_province(unit.kind, unit.location, where):
        return Illegal(IllegalCode.SUPPORT, _designated(
            f"{unit.kind} {unit.location} could not move to {where} itself (DATC 6.A.10, 6.B.5)", order.unit, unit, rules))
    if target is None:
        return Illegal(IllegalCode.SUPPORT, f"there is no unit in {order.target.province} (DATC 6.D.32)")
    if isinstance(order, SupportMove) and not can_move_somehow(state, target, order.dest.province, without=unit.province):
        return Illegal(IllegalCode.SUPPORT, _designated(
            f"{target.kind} {target.location} cannot move to {order.dest.province} (DATC 6.D.22-24, 6.D.31)",
            order.target, target, rules))
    return None


def convoy_problem(state: State, unit: Unit, order: Convoy) -> Illegal | None:
    """Why a convoy order is illegal, or None (DATC 6.A.7, 6.F.1, 4.E.1)."""
    return convoy_problem_of(state, unit, order, state.unit_at(order.target.location.province))


def convoy_problem_of(state: State, unit: Unit, order: Convoy, target: Unit | None) -> Illegal | None:
    """:func:`convoy_problem`, `target` the unit in the area the order names (None: no unit),
    as the caller found it (the prescan has the board's units by province: a state makes
    its own index on the first :meth:`~dipsat.state.State.unit_at`)."""
    the_map = state.map
    at = unit.location.province  # (read once: the prescan asks this of every convoy order)
    if unit.kind is not _FLEET:
        return Illegal(IllegalCode.CONVOY, "only fleets can convoy")
    if at not in the_map.sea_provinces:
        return Illegal(IllegalCode.CONVOY, "a fleet convoys only at sea, not on a coast (DATC 6.F.1)")
    origin, dest = order.target.location.province, order.dest.province
    if target is None:
        return Illegal(IllegalCode.CONVOY, f"there is no unit in {origin}")
    if target.kind is not _ARMY:
        return Illegal(IllegalCode.CONVOY, "only armies can be convoyed (DATC 6.A.7)")
    if origin == dest:
        return Illegal(IllegalCode.CONVOY, "an army cannot be convoyed to its own area (DATC 6.A.5)")
    if at not in the_map.convoy_route_seas(origin, dest, state.sea_fleets):
        return Illegal(IllegalCode.CONVOY, "this fleet is necessary for no convoy route (DATC 4.E.1, 6.G.19)")
    return None


Reach = dict[str, frozenset[str | None]]
"""A row of :attr:`~dipsat.maps.Map.reach_table`: the provinces a unit can move into
directly, each with the coasts a move order may name to go there as written."""


def order_problem(state: State, unit: Unit, order: Order, rules: Rules) -> Illegal | None:
    """Why a movement-phase order is illegal, or None."""
    if isinstance(order, Hold):
        return None
    if isinstance(order, Move):
        return move_destination(state, unit, order, rules)[1]
    if isinstance(order, (SupportHold, SupportMove)):
        return support_problem(state, unit, order, rules)
    if isinstance(order, Convoy):
        return convoy_problem(state, unit, order)
    return Illegal(IllegalCode.WRONG_PHASE, f"a {kind_name(order)} order is not a movement-phase order")
