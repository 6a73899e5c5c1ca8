"""Convoys in the prescan: which army moves that can go by land try a convoy route
(DATC 4.A.3), which convoy orders match a convoyed move (void otherwise), and the convoy
routes of each convoyed move (4.A.1, 4.A.6): chains of its convoying fleets."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TYPE_CHECKING

from ..board import Unit
from ..encodings import ConvoyOrder, MoveOrder
from ..frozen import maker
from ..orders import Convoy, Move, Order, SupportMove
from ..outcomes import Void, VoidCode
from ..results import new_result
from ..rules import ISSUES, AdjacentConvoy, ConvoyPathSpecification, MultiRouteDisruption, Rules
from ..state import State

if TYPE_CHECKING:
    from .prescan import Prescan

_new_convoy: Final = maker(ConvoyOrder, "index", "unit", "province", "move")
"""A convoy of the problem, made as :func:`~dipsat.frozen.maker` says."""

_PATH_ALLOWED: Final = ConvoyPathSpecification.ALLOWED
_PATH_REQUIRED: Final = ConvoyPathSpecification.REQUIRED
_OWN_ROUTES_FIRST: Final = MultiRouteDisruption.DPTG
"""The readings of DATC 4.A.6 and 4.A.1 asked about every turn with a convoy, read once (a
member read off its enum goes through the metaclass's attribute hook)."""
MULTI_ROUTE = ISSUES["4.A.1"].field
"""The option whose DPTG reading :func:`route_convoys` asks about where it can matter (noted
in the prescan's ``read``, as :data:`~.prescan.READ_WHEN_ASKED` says)."""


def adjacent_convoy(state: State, scan: Prescan, units: Sequence[Unit], order: Move,
                    move: MoveOrder, rules: Rules) -> tuple[bool, bool]:
    """DATC 4.A.3: does an army that can go by land try the convoy route, and may it
    fall back to the land route? Returns (convoyed, fallback)."""
    convoyers = scan.convoyers.get((move.origin, move.dest), [])
    own_fleet = any(f.power == units[move.unit].power for f in convoyers)
    choice = rules.adjacent_convoy
    if choice is _CONVOY_FIRST:  # 4.A.3 v2 a: the convoy route whenever one is ordered
        return _convoy_route_of(state, move, convoyers), False
    if choice is _OPPOSITE:  # 4.A.3 v2 b: ... when the unit there moves the opposite way
        return _convoy_route_of(state, move, convoyers) and move.opposite is not None, False
    if choice is _R1971:  # 4.A.3 a: only when the unit there moves the opposite way; disrupted -> by land
        wanted = bool(convoyers) and move.opposite is not None
        return wanted, wanted
    if choice is _R1982:  # 4.A.3 b: intent shown by the player's own orders (a fleet of its own)
        return own_fleet, False
    if choice is _VIA_ONLY:  # 4.A.3 dptg (v2 e): only when written 'via convoy'
        return order.via_convoy, False
    if choice is _VIA:  # 4.A.3 via (webDiplomacy): 'via convoy' and a convoy route ordered
        return order.via_convoy and _convoy_route_of(state, move, convoyers), False
    if choice is _INTENT_FALLBACK:  # the package: intent, and over land when not written 'via' --
        wanted = own_fleet or (order.via_convoy and _convoy_route_of(state, move, convoyers))  # but not into a
        # support against its convoy (6.G.11)
        return wanted, wanted and not order.via_convoy and not _supports_attack_on(scan, move.dest, convoyers)
    if choice is _INTENT:  # 4.A.3 v2 d: own fleet, or 'via convoy' with a convoy route ordered
        return own_fleet or (order.via_convoy and _convoy_route_of(state, move, convoyers)), False
    wanted = order.via_convoy or own_fleet  # 4.A.3 c (2000/2023): own fleet or 'via convoy'
    # 4.A.3 fallback: the land route when no convoy route is alive (a move that does not try
    # the convoy route has nothing to fall back from: marked so, its prescan is the others')
    return wanted, wanted and choice is _FALLBACK


_CONVOY_FIRST, _OPPOSITE, _R1971, _R1982, _VIA_ONLY, _VIA, _INTENT_FALLBACK, _INTENT, _FALLBACK = (
    AdjacentConvoy.CONVOY_FIRST, AdjacentConvoy.OPPOSITE, AdjacentConvoy.R1971, AdjacentConvoy.R1982,
    AdjacentConvoy.DPTG, AdjacentConvoy.VIA, AdjacentConvoy.INTENT_FALLBACK, AdjacentConvoy.INTENT,
    AdjacentConvoy.FALLBACK)
"""The readings of DATC 4.A.3, each read once (as :data:`_ARMY`: a member read off its
enum goes through the metaclass's attribute hook)."""


def _convoy_route_of(state: State, move: MoveOrder, fleets: list[Unit]) -> bool:
    """Do `fleets` (ordered to convoy, so at sea) make a convoy route for `move`: is a minimal
    chain of the fleets at sea made of them alone (a chain's minimality is a property of
    its own seas)?"""
    if not fleets:
        return False
    ordered = {f.province for f in fleets}
    return any(ordered >= r for r in state.map.convoy_routes(move.origin, move.dest, state.sea_fleets))


def _supports_attack_on(scan: Prescan, province: str, fleets: list[Unit]) -> bool:
    """Is the unit in `province` ordered to support an attack on one of `fleets`? (DATC
    6.G.11: an army convoyed there whose land route would cut that support, and so make its
    convoy possible, takes no land route as fallback, as the DATC prefers.)"""
    there = scan.problem.unit_at.get(province)
    k = scan.chosen.get(there) if there is not None else None
    order = scan.orders[k] if k is not None else None
    return isinstance(order, SupportMove) and order.dest.province in {f.province for f in fleets}


def match_convoys(given: list[tuple[int, int, Convoy, int | None]], scan: Prescan, units: Sequence[Unit]) -> None:
    """Each convoy order (by unit, order index, order, the unit it names if known) that
    convoys a move the army is ordered to make by convoy joins the problem; the others are
    void (DATC 4.A.3: an army that goes by land needs no convoy)."""
    p = scan.problem
    unit_moves, moves, convoys, verdicts = p.unit_moves, p.moves, p.convoys, scan.verdicts
    for u, k, order, t in given:
        target_move = unit_moves[p.unit_at[order.target.location.province] if t is None else t]
        if target_move is None or moves[target_move].dest != order.dest.province:
            verdicts[k] = new_result((order, units[u], _NOT_THAT_DESTINATION))
            continue
        if not moves[target_move].convoyed:
            verdicts[k] = new_result((order, units[u], _BY_LAND))
            continue
        c = len(convoys)
        convoys.append(_new_convoy(c, u, p.provinces[u], target_move))
        scan.convoy_of[k] = c


_NOT_THAT_DESTINATION: Final = Void(VoidCode.OTHER_DESTINATION, "the army is not ordered to that destination")
_BY_LAND: Final = Void(VoidCode.BY_LAND, "the army goes by land (DATC 4.A.3)")
_NO_ROUTE: Final = Void(VoidCode.NO_ROUTE, "the fleet is on no complete convoy route")
"""The outcomes of void convoys, values made once."""


def route_convoys(state: State, scan: Prescan, rules: Rules, units: Sequence[Unit]) -> set[int]:
    """Minimal convoy routes of each convoyed move: chains of its convoying fleets. Those are
    the minimal chains of all fleets at sea (:meth:`~dipsat.maps.Map.convoy_routes`, as the
    legality of each convoy order asked) made of its convoying fleets alone: a chain's
    minimality is a property of its own seas. Returns the convoys on some route."""
    p = scan.problem
    fleets_of: dict[int, dict[str, int]] = {}  # convoyed move -> its convoying fleets: province -> convoy index
    for c in p.convoys:  # each on a convoyed move (_match_convoys), a fleet at sea (legality)
        fleets = fleets_of.get(c.move)
        if fleets is None:
            fleets_of[c.move] = {c.province: c.index}
        else:
            fleets[c.province] = c.index
    choice = rules.convoy_path
    allowed, required = choice is _PATH_ALLOWED, choice is _PATH_REQUIRED
    own_first = rules.multi_route_disruption is _OWN_ROUTES_FIRST
    written: dict[int, tuple[str, ...]] = {}  # move index -> the convoy path its order writes out (4.A.6)
    if allowed or required:
        for k, m in scan.move_of.items():
            order = scan.orders[k]
            assert isinstance(order, Move)
            written[m] = order.path
    convoy_routes, at_sea = state.map.convoy_routes, state.sea_fleets
    used: set[int] = set()
    for m, fleets in fleets_of.items():  # a convoyed move no fleet convoys keeps no route
        move = p.moves[m]
        ordered = fleets.keys()
        routes: Sequence[frozenset[str]] = [r for r in convoy_routes(move.origin, move.dest, at_sea) if ordered >= r]
        path = written.get(m, ())
        if (allowed and path) or required:
            # 4.A.6 b/c: the army goes only along the path written in its order
            routes = [r for r in routes if path and r == frozenset(path)]
        if len(routes) > 1:
            # 4.A.1 dptg: routes with foreign fleets are skipped when the army's own fleets make one
            own = [r for r in routes if all(units[p.convoys[fleets[s]].unit].power == move.power for s in r)]
            if own and len(own) < len(routes):  # (the reading is asked: rescan must not take it as read)
                scan.read |= {MULTI_ROUTE}
                if own_first:
                    routes = own
        move.routes = [tuple(sorted([fleets[s] for s in route])) for route in routes]
        for route in move.routes:
            used.update(route)
    return used


def drop_void_convoys(orders: list[Order], scan: Prescan, units: Sequence[Unit], used: set[int]) -> None:
    """A convoy order on no route of its army (`used`: the convoys on one) has nothing to
    do (it still holds)."""
    p = scan.problem
    for k, c in scan.convoy_of.items():
        if c not in used:
            scan.verdicts[k] = new_result((orders[k], units[p.convoys[c].unit], _NO_ROUTE))
    # keep indices stable: unused convoys stay in the problem, on no route
