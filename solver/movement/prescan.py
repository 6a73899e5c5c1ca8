"""The prescan of a movement turn: what docs/design.md keeps out of the CP-SAT model.

Which orders are legal (DATC 4.E.1, with :mod:`dipsat.movement.legality`), which unit
each order goes to (4.D.3, 4.C), which supports and convoys match (void otherwise),
which army moves go by convoy (4.A.3) and along which convoy routes (4.A.1, 4.A.6): those
with :mod:`dipsat.movement.convoys`.
The result is the indexed :class:`~dipsat.encodings.Problem` the encodings read, and
a verdict (an :class:`~dipsat.outcomes.Illegal` or :class:`~dipsat.outcomes.Void`
outcome) for every order that does not reach the model.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from ..board import Location, Power, Unit, UnitKind
from ..encodings import MoveOrder, Problem, SupportOrder
from .convoys import MULTI_ROUTE, adjacent_convoy, drop_void_convoys, match_convoys, route_convoys
from .designation import drop_weak_orders, one_order, ordered_unit, strict_designations
from .legality import (Reach, can_move_somehow, convoy_problem_of, default_coast, impassable_problem, move_destination,
                       order_problem, via_convoy_problem)
from ..frozen import maker
from ..orders import Convoy, Hold, Move, Order, SupportHold, SupportMove, UnitRef
from ..outcomes import Illegal, IllegalCode, Void, VoidCode
from ..results import OrderResult, new_result
from ..rules import ISSUES, AdjacentConvoy, CivilDisorderHoldSupport, ImplicitOrders, Rules, Stage, SupportCoast
from ..state import State


@dataclass(slots=True)
class _Prescan:
    """What the prescan decided: the problem plus how each given order maps onto it."""

    problem: Problem
    verdicts: dict[int, OrderResult] = field(default_factory=dict)  # order index -> settled result
    chosen: dict[int, int | None] = field(default_factory=dict)  # unit index -> order index (None: all dropped)
    move_of: dict[int, int] = field(default_factory=dict)  # order index -> move index
    support_of: dict[int, int] = field(default_factory=dict)
    convoy_of: dict[int, int] = field(default_factory=dict)
    dest_of: list[Location] = field(default_factory=list)  # by move index: its exact destination
    orders: list[Order] = field(default_factory=list)  # the orders given, then any implicit ones (4.E.3)
    convoyers: dict[tuple[str, str], list[Unit]] = field(default_factory=dict)
    """(origin, dest) -> the fleets ordered to convoy an army there, kept where :attr:`may_convoy`
    holds a move (a reading of DATC 4.A.3 asks about them again, :func:`rescan`); else none."""
    may_convoy: Sequence[tuple[Move, MoveOrder]] = field(default=(), compare=False, repr=False)
    """The army moves that can go by land and that DATC 4.A.3 may yet send by convoy (written
    'via convoy', or a fleet is ordered to convoy them): the moves a reading of 4.A.3 decides
    (:func:`_build_moves`), the others go by land under every reading."""
    via_bound: bool | None = field(default=None, compare=False, repr=False)
    """:func:`rescan`'s answer for this turn, once asked: may a reading's
    :attr:`~dipsat.rules.AdjacentConvoy.via_binds` change it (:func:`_via_binding_matters`)?"""
    read: frozenset[str] = field(default=frozenset(), compare=False, repr=False)
    """Which of the options of :data:`READ_WHEN_ASKED` this turn's orders made the prescan
    ask about: the others cannot change it (:func:`rescan`)."""


Prescan = _Prescan
"""What the prescan decided, by its public name (read by validate to compare two readings of a turn)."""

_new_move: Final = maker(MoveOrder, "index", "unit", "origin", "dest", "power", "convoyed")
_new_hold_support: Final = maker(SupportOrder, "index", "unit", "province", "power", "target")
_new_support: Final = maker(SupportOrder, "index", "unit", "province", "power", "target", "move")
_new_problem = maker(Problem, "provinces", "powers", "fleets", "unit_moves", "hold_supports", "moves", "supports",
                     "convoys", "unit_at", "moves_into")
_new_void: Final = maker(Void, "why", "text")
"""The problem's values and the verdicts, made as :func:`~dipsat.frozen.maker` says."""


_new_scan: Final = maker(_Prescan, "problem")

_ARMY: Final = UnitKind.ARMY
_FLEET: Final = UnitKind.FLEET
"""Read once: an enum member read off its class goes through the metaclass's attribute
hook each time (Python 3.11), and the prescan asks for these for every unit."""

_IMPLICIT: Final = ImplicitOrders.ALLOWED
_DISORDER_FAILS: Final = CivilDisorderHoldSupport.FAILS
"""The readings the prescan asks about every turn (DATC 4.E.3, 4.D.9), read once as well."""


def prescan(state: State, orders: list[Order], rules: Rules, silent: Mapping[Power, str] | None = None) -> _Prescan:
    units = state.units
    the_map = state.map
    reach_table, reach_rows = the_map.reach_table, the_map.reach_rows
    index_of: dict[str, int] = {}
    provinces: list[str] = []  # the problem's units, by index: lists, not an object a unit
    reach: list[Reach | None] = []  # each unit's row of the map's table (None: the full checks decide)
    for i, unit in enumerate(units):
        loc = unit.location
        province = loc.province
        kind = unit.kind
        index_of[province] = i
        provinces.append(province)
        coast = loc.coast
        try:  # (subscripts, not calls of get: every unit of every turn)
            reach.append(reach_rows[kind][province] if coast is None else reach_table[kind, province, coast])
        except KeyError:  # a unit where none of its kind could stand (a position not checked)
            reach.append(None)
    n = len(provinces)  # each unit's move and hold supports: none until the moves and supports are made
    scan = _new_scan(_new_problem(provinces, [unit.power for unit in units], [unit.kind is _FLEET for unit in units],
                                  [None] * n, [()] * n, [], [], [], index_of, {}))  # index_of: read, never changed
    dest_of_order: dict[int, Location] = {}  # each legal move order's destination (coast settled): read by _build_moves
    first, several, table_given = _legal_orders(state, orders, rules, silent, scan, index_of, reach, dest_of_order)
    given: _Given | None = table_given  # None: read off the choice of orders
    chosen = scan.chosen
    if strict_designations(rules):
        for u, k in first.items():
            ks = drop_weak_orders(state, orders, several.get(u, [k]), rules, scan.verdicts, units[u])
            chosen[u] = ks[0] if len(ks) == 1 else one_order(orders, ks, rules, scan.verdicts, units[u])
        given = None
    else:
        chosen.update(first)
        if several:  # DATC 4.D.3
            for u in first:
                if u in several:
                    chosen[u] = one_order(orders, several[u], rules, scan.verdicts, units[u])
            given = None
    if rules.implicit_orders is _IMPLICIT:  # DATC 4.E.3 a
        implied = _implicit_moves(state, orders, scan, units, rules)
        orders = orders + implied
        if implied:
            given = None
    scan.orders = orders
    if given is None:  # the units' orders are not each one's first legal order: read them off the choice
        given = _given_orders(orders, scan)
    else:
        given.in_board_order()
    _build_moves(state, given, rules, scan, units, dest_of_order)
    _match_supports(state, orders, given, scan, units, rules)
    if given.convoys:
        match_convoys(given.convoys, scan, units)
        drop_void_convoys(orders, scan, units, route_convoys(state, scan, rules, units))
    return scan


_MOVEMENT_ORDERS: Final = frozenset((Hold, Move, SupportHold, SupportMove, Convoy))


def _legal_orders(state: State, orders: list[Order], rules: Rules, silent: Mapping[Power, str] | None,
                  scan: _Prescan, index_of: dict[str, int], reach: list[Reach | None],
                  dest_of_order: dict[int, Location]) -> tuple[dict[int, int], dict[int, list[int]], _Given]:
    """Which orders are legal (DATC 4.E.1) and which unit each goes to, a verdict given for
    every other. Returns each unit's first legal order, the legal orders of each unit with
    more than one (4.D.3), and those first orders by kind (:class:`_Given`, in the order
    given), with what the tables found on the way: whether a move can go over land, the
    unit a support or convoy names; each legal move's destination goes into `dest_of_order`.

    The common case, an order that names its unit as it stands, is read from the map's
    tables (`reach`: each unit's row of :attr:`~dipsat.maps.Map.reach_table`, the provinces
    it can move into and the coasts a move may name to go there as written;
    :meth:`~dipsat.maps.Map.convoy_reach`), here in the loop: it is made for every order
    of every turn. Anything else takes the full checks of :mod:`.legality`
    (:func:`_checked_order`), and an order that does not name its unit as it stands, or
    comes from a silenced power, those of :func:`ordered_unit` too (:func:`_checked_unit`):
    every illegal order gets the verdict and reading the full checks give it."""
    units = state.units
    the_map = state.map
    provinces = the_map.provinces
    first: dict[int, int] = {}  # unit index -> its first legal order
    several: dict[int, list[int]] = {}  # unit index -> its legal orders, where it has more than one
    given = _Given()
    moves, supports, convoys = given.moves, given.supports, given.convoys
    by_table = () if silent else _MOVEMENT_ORDERS  # a silenced power's orders take every check
    for k, order in enumerate(orders):  # which orders are legal (DATC 4.E.1), and whose
        kind = type(order)
        found: bool | int | None = None  # a move's: over land; a support's or convoy's: the unit it names
        # (None: found when the moves are made or the supports matched)
        u: int | None = None
        if kind in by_table:
            # the common case of ordered_unit: the order names its unit as it stands (its type,
            # coast and power: no DATC 4.B.5, 4.C.1, 4.C.2 reading, 6.A.6), a unit with a row
            # in the map's table (so in an area of the board, 4.E.1)
            ref, power = order.unit, order.power  # type: ignore[union-attr]  # a movement order's
            loc = ref.location
            try:  # (a subscript, not a call of get: every order of every turn)
                u = index_of[loc.province]
            except KeyError:  # no unit there: the full checks give the verdict
                u = None
            if u is not None:
                unit = units[u]
                row = reach[u]
                if row is None or ref.kind is not unit.kind or (loc is not unit.location and loc.coast != unit.location.coast) \
                        or (power is not None and power != unit.power):
                    u = None
                elif kind is Move:
                    dest = order.dest  # type: ignore[union-attr]  # a Move's
                    if order.path:  # type: ignore[union-attr]
                        pass  # a convoy path written out (4.A.6): the full checks
                    elif not order.via_convoy and dest.coast in row.get(dest.province, ()):  # type: ignore[union-attr]
                        found = True  # directly to a neighbour the unit reaches as written (6.A.1-6.A.3, no 4.B reading)
                    elif unit.kind is _ARMY and dest.coast is None and dest.province != loc.province and \
                            dest.province in the_map.convoy_reach(loc.province, state.sea_fleets):
                        found = dest.province in row  # a chain of fleets at sea could carry it (6.D.32; 'via convoy' may bind, 4.A.3)
                    if found is not None:
                        dest_of_order[k] = dest
                    elif not _checked_order(state, unit, order, k, rules, scan, dest_of_order):
                        continue
                elif kind is not Hold:  # a hold is legal
                    target = order.target.location.province  # type: ignore[union-attr]
                    found = index_of.get(target)
                    target_row = reach[found] if found is not None and found != u else None  # not itself (6.A.8)
                    if target_row is None:
                        found = None
                    elif kind is SupportMove:  # into a province it reaches, not its own (6.A.10, 6.B.5, 6.D.34) ...
                        where = order.dest.province  # type: ignore[union-attr]  # a SupportMove's
                        if where not in row or (where not in target_row and not can_move_somehow(
                                state, units[found], where, without=loc.province)):  # type: ignore[index]
                            found = None  # ... and the unit it supports could move to (6.D.22-24, 6.D.31)
                    elif kind is SupportHold:
                        if target not in row:
                            found = None
                    elif (order.dest.province not in provinces  # type: ignore[union-attr]  # a Convoy's: to an area on
                          or convoy_problem_of(state, unit, order, units[found])  # type: ignore[arg-type, index]
                          is not None):  # the board, and legal (the unit it names: found above)
                        found = None
                    if found is None and not _checked_order(state, unit, order, k, rules, scan, dest_of_order):
                        continue
        if u is None:
            u = _checked_unit(state, order, k, index_of, rules, silent, scan, dest_of_order)  # every check
            if u is None:
                continue  # illegal: its verdict is given
        if u in first:
            several.setdefault(u, [first[u]]).append(k)
        else:
            first[u] = k
            if kind is Move:
                moves.append((u, k, order, found))  # type: ignore[arg-type]
            elif kind is SupportMove or kind is SupportHold:
                supports.append((u, k, order, found))  # type: ignore[arg-type]
            elif kind is Convoy:
                convoys.append((u, k, order, found))  # type: ignore[arg-type]
    return first, several, given


def _checked_unit(state: State, order: Order, k: int, index_of: dict[str, int], rules: Rules,
                  silent: Mapping[Power, str] | None, scan: _Prescan, dest_of_order: dict[int, Location]) -> int | None:
    """The unit `order` goes to (DATC 4.D.3, 4.C, 4.B.5) if the order is legal (4.E.1),
    every check made; else None, and the order's verdict given."""
    unit_index, reason = ordered_unit(state, order, index_of, rules)
    unit = state.units[unit_index] if unit_index is not None else None
    if silent:
        power = order.power or (unit.power if unit is not None else None)
        if power is not None and power in silent:
            reason = Illegal(IllegalCode.SILENCED, silent[power])
    if reason is None:
        assert unit is not None and unit_index is not None  # a unit was found (ordered_unit)
        reason = _legality(state, unit, order, k, rules, dest_of_order)
    if reason is not None:
        scan.verdicts[k] = OrderResult(order, unit, reason)
        return None
    return unit_index


def _checked_order(state: State, unit: Unit, order: Order, k: int, rules: Rules, scan: _Prescan,
                   dest_of_order: dict[int, Location]) -> bool:
    """Is an order that names `unit` as it stands (what :func:`ordered_unit` checks but
    the areas it names) legal (DATC 4.E.1), every check made? If not, its verdict is given."""
    reason = impassable_problem(state.map, order)
    if reason is None:
        reason = _legality(state, unit, order, k, rules, dest_of_order)
    if reason is not None:
        scan.verdicts[k] = OrderResult(order, unit, reason)
    return reason is None


def _legality(state: State, unit: Unit, order: Order, k: int, rules: Rules,
              dest_of_order: dict[int, Location]) -> Illegal | None:
    """Why an order given to `unit` is illegal (:mod:`.legality`), or None: a move's
    destination is kept in `dest_of_order` (coast settled, DATC 4.B)."""
    if isinstance(order, Move):
        dest, reason = move_destination(state, unit, order, rules)
        if dest is not None:
            dest_of_order[k] = dest
        return reason
    return None if isinstance(order, Hold) else order_problem(state, unit, order, rules)


def _via_binding_matters(state: State, order: Order) -> bool:
    """Can :attr:`~dipsat.rules.AdjacentConvoy.via_binds` change what the prescan makes of
    `order`? It is read once, in :func:`~.legality.move_destination`: an army's move
    written 'via convoy' is checked by :func:`~.legality.via_convoy_problem` under a
    binding reading (and, under every reading, to or from an inland province). Where that
    check finds nothing (a chain of fleets at sea could carry the army), both readings
    take the order alike, so only a 'via convoy' army move it finds a problem with can
    matter (a superset: it also counts the inland moves, which both readings reject)."""
    if not isinstance(order, Move) or not order.via_convoy:
        return False
    unit = state.unit_at(order.unit.province)  # the unit the prescan gives the order to (ordered_unit)
    if unit is None or unit.kind is not UnitKind.ARMY:
        return False  # no unit: illegal before any destination; a fleet's 'via convoy' reads no 4.A.3
    if order.dest.province not in state.map.provinces:
        return True  # not a board's province: no shortcut
    return via_convoy_problem(state, unit, order.dest.province) is not None


_UNIT: Final = operator.itemgetter(0)


@dataclass
class _Given:
    """The order each unit acts on (:attr:`_Prescan.chosen`), by unit index in board order
    and by kind: what the steps after the choice of orders read, with what the tables found
    of it (else None): whether a move can go over land, the unit a support or convoy names."""

    moves: list[tuple[int, int, Move, bool | None]] = field(default_factory=list)  # (unit, order index, order, land)
    supports: list[tuple[int, int, SupportHold | SupportMove, int | None]] = field(default_factory=list)  # (..., target)
    convoys: list[tuple[int, int, Convoy, int | None]] = field(default_factory=list)

    def in_board_order(self) -> None:
        """Put the orders, gathered in the order given, in board order (of their units)."""
        self.moves.sort(key=_UNIT)
        self.supports.sort(key=_UNIT)
        self.convoys.sort(key=_UNIT)


def _given_orders(orders: list[Order], scan: _Prescan) -> _Given:
    given = _Given()
    moves, supports, convoys = given.moves, given.supports, given.convoys
    chosen = scan.chosen
    for u in sorted(chosen):
        k = chosen[u]
        if k is None:
            continue
        order = orders[k]
        if isinstance(order, Move):
            moves.append((u, k, order, None))
        elif isinstance(order, SupportMove) or isinstance(order, SupportHold):
            supports.append((u, k, order, None))
        elif isinstance(order, Convoy):
            convoys.append((u, k, order, None))
    return given


PRESCAN_OPTIONS = tuple(i.field for i in ISSUES.values() if Stage.PRESCAN in i.read_by and i.kind is not AdjacentConvoy)
"""The :class:`~dipsat.rules.Rules` fields the prescan reads (their enums say so: ``read_by``
:attr:`~dipsat.rules.Stage.PRESCAN`), besides ``adjacent_convoy`` (DATC 4.A.1, 4.A.6,
4.B.1-4.B.6, 4.C.1, 4.C.2, 4.C.5, 4.C.6, 4.D.3, 4.D.9, 4.E.3): rules that agree on
these and on 4.A.3 give the same prescan (a test checks every other option against the
DATC cases)."""


_prescan_readings: Final = operator.attrgetter(*PRESCAN_OPTIONS)  # Rules -> its readings of PRESCAN_OPTIONS

_SUPPORT_COAST: Final = ISSUES["4.B.4"].field  # the option :func:`_coast_mismatch` reads
READ_WHEN_ASKED = frozenset((MULTI_ROUTE, _SUPPORT_COAST))
"""The options of :data:`PRESCAN_OPTIONS` that only some turns make the prescan ask about, and
that it notes in :attr:`_Prescan.read` when they do: DATC 4.B.4, asked where a support
matched to a move to a coast does not name that coast (:func:`_coast_mismatch`), and
4.A.1, whose DPTG reading asks where an army has a convoy route of its own fleets alone
and one with a foreign fleet (:func:`~.convoys.route_convoys`). Rules that differ only in
options a turn did not ask about give it the same prescan: validate's inference asks every
option of both for every turn with a convoy or a support (a test checks :func:`rescan`
against a new prescan on the DATC cases and the corpus)."""


def rescan(scan: _Prescan, state: State, scanned: Rules, rules: Rules) -> _Prescan | None:
    """The prescan of a turn under `rules`, taken from `scan` (its prescan under `scanned`,
    with no silenced power) without scanning again where it is sure to be the same:
    `rules` agrees with `scanned` on :data:`PRESCAN_OPTIONS`, and its reading of DATC
    4.A.3 sends every army that can go by land the same way (4.A.3 only decides, at the
    end of :func:`_build_moves`, which of those moves try a convoy route, from what was
    settled before, and, through :attr:`~dipsat.rules.AdjacentConvoy.via_binds`, whether a
    'via convoy' move no convoy could carry is legal). None where a new prescan is needed.
    The moves a reading of 4.A.3 decides are the scan's (:attr:`_Prescan.may_convoy`), and
    whether 'via convoy' may bind in it is worked out once (:attr:`_Prescan.via_bound`)."""
    if rules is scanned:
        return scan
    readings, scanned_readings = _prescan_readings(rules), _prescan_readings(scanned)
    if readings != scanned_readings:  # validate asks this for every turn it re-judges
        for name, reading, other in zip(PRESCAN_OPTIONS, readings, scanned_readings):
            if reading is not other and (name not in READ_WHEN_ASKED or name in scan.read):
                return None  # a reading this turn asks about differs
    asked = rules.adjacent_convoy
    if asked is scanned.adjacent_convoy:
        return scan
    if asked.via_binds is not scanned.adjacent_convoy.via_binds:
        bound = scan.via_bound
        if bound is None:  # only an army's 'via convoy' move can matter (checked inline: most are not)
            bound = scan.via_bound = any(isinstance(order, Move) and order.via_convoy
                                         and _via_binding_matters(state, order) for order in scan.orders)
        if bound:
            return None  # the reading decides whether an impossible 'via convoy' is legal (legality.py)
    for order, move in scan.may_convoy:  # (most turns: none) as the problem has them, try a convoy or not?
        if adjacent_convoy(state, scan, state.units, order, move, rules) != (move.convoyed, move.fallback):
            return None
    return scan


def _implicit_moves(state: State, orders: list[Order], scan: _Prescan, units: Sequence[Unit],
                    rules: Rules) -> list[Order]:
    """DATC 4.E.3 a: an unordered unit that its own power supports (or convoys) to an
    area moves there; several different such orders imply nothing."""
    implied: dict[int, set[str]] = {}
    for u, k in scan.chosen.items():
        order = orders[k] if k is not None else None
        if isinstance(order, (SupportMove, Convoy)):
            target = scan.problem.unit_at.get(order.target.province)
            if target is not None and target not in scan.chosen and units[target].power == units[u].power:
                implied.setdefault(target, set()).add(str(order.dest))
    out: list[Order] = []
    for target, dests in sorted(implied.items()):
        if len(dests) == 1:
            unit = units[target]
            move = Move(UnitRef(unit.location, unit.kind, unit.power), Location.parse(dests.pop()),
                        via_convoy=False, power=unit.power)
            if order_problem(state, unit, move, rules) is None:
                scan.chosen[target] = len(orders) + len(out)
                out.append(move)
    return out


def _build_moves(state: State, given: _Given, rules: Rules, scan: _Prescan, units: Sequence[Unit],
                 dest_of_order: Mapping[int, Location]) -> None:
    """The moves of the problem, in board order, with their opposite moves and whether each
    tries a convoy route (DATC 4.A.3); `dest_of_order`: each legal move order's destination,
    as :func:`_legal_orders` found it."""
    p = scan.problem
    moves, unit_moves, moves_into, move_of, dest_of = p.moves, p.unit_moves, p.moves_into, scan.move_of, scan.dest_of
    unit_at, provinces, powers = p.unit_at, p.provinces, p.powers
    can_move = state.map.can_move
    convoyers: dict[tuple[str, str], list[Unit]] = {}
    for u, k, convoy, t in given.convoys:  # who is ordered to convoy which army where
        convoyers.setdefault((convoy.target.location.province, convoy.dest.province), []).append(units[u])
    by_land: list[tuple[Move, MoveOrder]] = []  # the army moves over land 4.A.3 may yet send by convoy: else by
    # land in every reading of 4.A.3 (not 'via convoy', no fleet ordered to convoy it)
    for u, k, order, land in given.moves:
        if land is None:  # checked in full: its destination (coast settled) kept, or an implicit move
            unit = units[u]
            dest = dest_of_order.get(k)
            if dest is None:  # an implicit move (DATC 4.E.3 a): checked legal, its destination not kept
                dest = move_destination(state, unit, order, rules)[0]
                assert dest is not None
            land = can_move(unit.kind, unit.location, dest)
        else:
            dest = order.dest  # as written (the tables read no coast to settle)
        m = len(moves)
        origin, province = provinces[u], dest.province
        move = _new_move(m, u, origin, province, powers[u], not land)
        moves.append(move)
        if land and units[u].kind is _ARMY and (order.via_convoy or (convoyers and (origin, province) in convoyers)):
            by_land.append((order, move))
        unit_moves[u] = m
        into = moves_into.get(province)
        moves_into[province] = (m,) if into is None else (*into, m)  # a tuple: one block, not a list's two
        move_of[k] = m
        dest_of.append(dest)
        other = unit_at.get(province)  # the opposite move, of a unit earlier on the board (else found from it)
        back = unit_moves[other] if other is not None else None
        if back is not None and moves[back].dest == origin:
            move.opposite = back
            moves[back].opposite = m
    if by_land:  # (most turns: none) kept for rescan, which asks 4.A.3 of them again
        scan.convoyers, scan.may_convoy = convoyers, by_land
        for order, move in by_land:  # once every opposite move is known
            move.convoyed, move.fallback = adjacent_convoy(state, scan, units, order, move, rules)


_SUPPORTED_UNIT_MOVES: Final = Void(VoidCode.SUPPORTED_UNIT_MOVES, "the supported unit moves (DATC 6.D.7)")
_SUPPORTED_UNIT_STAYS: Final = Void(VoidCode.SUPPORTED_UNIT_STAYS, "the supported unit does not move (DATC 6.D.9)")
"""The outcomes of the commonest void supports, values made once (an outcome is immutable)."""
_OTHER_DESTINATION: Final = VoidCode.OTHER_DESTINATION
"""The code of a support of a move elsewhere, read once (as :data:`_ARMY`: it is common)."""


def _match_supports(state: State, orders: list[Order], given: _Given, scan: _Prescan, units: Sequence[Unit],
                    rules: Rules) -> None:
    p = scan.problem
    unit_moves, moves, supports = p.unit_moves, p.moves, p.supports
    disorder_fails = rules.civil_disorder_hold_support is _DISORDER_FAILS  # DATC 4.D.9 a
    ordering: set[Power] | None = None  # the powers that gave orders (DATC 4.D.9), when asked
    verdicts, support_of, dest_of = scan.verdicts, scan.support_of, scan.dest_of
    for u, k, order, target in given.supports:
        if target is None:
            target = p.unit_at[order.target.location.province]
        target_move = unit_moves[target]
        if isinstance(order, SupportHold):
            if target_move is not None:
                verdicts[k] = new_result((order, units[u], _SUPPORTED_UNIT_MOVES))
                continue
            if disorder_fails:  # DATC 4.D.9 a
                if ordering is None:
                    ordering = {units[v].power for v in scan.chosen} | {o.power for o in orders if o.power}
                if units[target].power not in ordering:
                    verdicts[k] = OrderResult(order, units[u], Void(
                        VoidCode.CIVIL_DISORDER, f"{units[target].power} is in civil disorder (DATC 4.D.9 a)"))
                    continue
            s = len(supports)
            supports.append(_new_hold_support(s, u, p.provinces[u], p.powers[u], order.target.location.province))
            p.hold_supports[target] = (*p.hold_supports[target], s)
        else:
            if target_move is None:
                verdicts[k] = new_result((order, units[u], _SUPPORTED_UNIT_STAYS))
                continue
            dest = order.dest
            if moves[target_move].dest != dest.province:  # the supported unit moves elsewhere
                verdicts[k] = new_result((order, units[u], _new_void(
                    _OTHER_DESTINATION, f"the supported unit moves to {dest_of[target_move]}, not {dest.province}")))
                continue
            if dest.coast is not None or dest_of[target_move].coast is not None:  # else it matches: no coast
                why = _coast_mismatch(state, order, target_move, scan, units[u], rules)  # named or moved to
                if why is not None:
                    verdicts[k] = new_result((order, units[u], why))
                    continue
            s = len(supports)
            supports.append(_new_support(s, u, p.provinces[u], p.powers[u], dest.province, target_move))
            supported = moves[target_move]
            supported.supports = (*supported.supports, s)
        support_of[k] = s


def _coast_mismatch(state: State, order: SupportMove, target_move: int, scan: _Prescan, supporter: Unit,
                    rules: Rules) -> Void | None:
    """Why a support of a move into the province it names, where the support names a coast
    or the move goes to one, does not match it (DATC 4.B.4, 6.B.9), or None."""
    move = scan.problem.moves[target_move]
    dest = scan.dest_of[target_move]
    if dest.coast is None or order.dest.coast == dest.coast:
        return None  # the coast it names is the move's, or the move goes to none: every reading matches it
    scan.read |= {_SUPPORT_COAST}  # the reading of 4.B.4 decides (rescan must not take it as read)
    choice = rules.support_coast
    if choice is SupportCoast.IGNORED:
        return None  # 4.B.4 v2 e (the DPTG): a coast in a support order is ignored
    if order.dest.coast is not None:
        return Void(VoidCode.COAST, f"the supported fleet moves to {dest}, not {order.dest} (DATC 6.B.9)")
    foreign = move.power != supporter.power
    if choice is SupportCoast.DEFAULT_COAST and dest != default_coast(state.map, dest.province):
        return Void(VoidCode.COAST, f"the support means the default coast "
                                    f"{default_coast(state.map, dest.province)}, not {dest} (DATC 4.B.4 v2 b)")
    if (choice is SupportCoast.REQUIRED or (choice is SupportCoast.OWN_ONLY and foreign)
            or (choice is SupportCoast.UNAMBIGUOUS and foreign  # 4.B.4 v2 c: or the fleet has one coast to go to
                and len(state.map.reachable_coasts(state.units[move.unit].location, dest.province)) > 1)):
        return Void(VoidCode.COAST, f"the support does not name the coast of {dest} (DATC 4.B.4 {choice})")
    return None
