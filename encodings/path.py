"""Convoys and convoy paths: DATC 5.B.3, 5.B.4 and 4.A.1."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .decisions import CONVOY, DISLODGED, PATH
from .literals import Condition

if TYPE_CHECKING:
    from .model import Encoding


def define_path(enc: Encoding, m: int) -> bool | None:
    """path[m] <-> some route has every fleet convoying (5.B.4; 4.A.1 b), or under
    4.A.1 a (1971) every route does (a convoy is disrupted when one route is)."""
    move = enc.problem.moves[m]
    if not move.routes:
        return False  # 5.B.4: no chain of convoy orders
    if enc.options.multi_route_disruption.any_route_disrupts:  # DATC 4.A.1 a (and the DPTG's reading)
        fleets = sorted({c for route in move.routes for c in route})
        return enc.iff_and((PATH, m), [enc.cond((CONVOY, c)) for c in fleets])
    routes: list[Condition] = []
    for r, route in enumerate(move.routes):
        carrying = [enc.cond((CONVOY, c)) for c in route]
        if any(f is False for f in carrying):
            continue  # this route is broken
        live = [f for f in carrying if not isinstance(f, bool)]  # the rest are True
        if not live:
            routes.append(True)  # this route surely carries
        elif len(live) == 1:
            routes.append(live[0])
        else:
            alive = enc.model.new_bool_var(f"route[{m},{r}]")
            enc.literal_and(alive, live)
            routes.append(alive)
    return enc.iff_or((PATH, m), routes)


def define_convoy(enc: Encoding, c: int) -> bool | None:
    """convoys[c] <-> the convoying fleet is not dislodged (5.B.3)."""
    convoy = enc.problem.convoys[c]
    if not enc.problem.moves_into.get(convoy.province):
        return True  # nobody attacks it
    dislodged = enc.cond((DISLODGED, convoy.unit))
    if isinstance(dislodged, bool):
        return not dislodged
    enc.add(enc.var((CONVOY, c)) + dislodged == 1)
    return None
