"""Convoys and convoy paths: DATC 5.B.3 and 5.B.4 (4.A.1: all routes must fail)."""

from __future__ import annotations

from .model import Encoding


def define_path(enc: Encoding, m: int) -> None:
    """path[m] <-> some route of the convoy has every fleet convoying (5.B.4, 4.A.1 b)."""
    move = enc.problem.moves[m]
    routes = []
    for r, route in enumerate(move.routes):
        if len(route) == 1:
            routes.append(enc.lit(("convoy", route[0])))
            continue
        alive = enc.model.new_bool_var(f"route[{m},{r}]")
        enc.iff_and(alive, [enc.lit(("convoy", c)) for c in route])
        routes.append(alive)
    enc.iff_or(enc.lit(("path", m)), routes)


def define_convoy(enc: Encoding, c: int) -> None:
    """convoys[c] <-> the convoying fleet is not dislodged (5.B.3)."""
    convoy = enc.problem.convoys[c]
    if enc.problem.moves_into.get(convoy.province):
        enc.model.add(enc.lit(("convoy", c)) + enc.lit(("dislodged", convoy.unit)) == 1)
    else:
        enc.model.add(enc.lit(("convoy", c)) == 1)
