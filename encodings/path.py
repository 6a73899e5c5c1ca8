"""Convoys and convoy paths: DATC 5.B.3, 5.B.4 and 4.A.1."""

from __future__ import annotations

from .model import Encoding


def define_path(enc: Encoding, m: int) -> None:
    """path[m] <-> some route has every fleet convoying (5.B.4; 4.A.1 b), or under
    4.A.1 a (1971) every route does (a convoy is disrupted when one route is)."""
    move = enc.problem.moves[m]
    path = enc.lit(("path", m))
    if enc.rules.choice("4.A.1") == "a":
        fleets = sorted({c for route in move.routes for c in route})
        enc.iff_and(path, [enc.lit(("convoy", c)) for c in fleets]) if move.routes else enc.model.add(path == 0)
        return
    routes = []
    for r, route in enumerate(move.routes):
        if len(route) == 1:
            routes.append(enc.lit(("convoy", route[0])))
            continue
        alive = enc.model.new_bool_var(f"route[{m},{r}]")
        enc.iff_and(alive, [enc.lit(("convoy", c)) for c in route])
        routes.append(alive)
    enc.iff_or(path, routes)


def define_convoy(enc: Encoding, c: int) -> None:
    """convoys[c] <-> the convoying fleet is not dislodged (5.B.3)."""
    convoy = enc.problem.convoys[c]
    if enc.problem.moves_into.get(convoy.province):
        enc.model.add(enc.lit(("convoy", c)) + enc.lit(("dislodged", convoy.unit)) == 1)
    else:
        enc.model.add(enc.lit(("convoy", c)) == 1)
