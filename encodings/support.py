"""Support and cutting support: DATC 5.B.2, with the 2000 rulebook's convoy rule."""

from __future__ import annotations

from .model import Encoding
from .problem import MoveOrder, SupportOrder


def define_support(enc: Encoding, s: int) -> None:
    """support_given[s] <-> not dislodged and not cut (5.B.2)."""
    support = enc.problem.supports[s]
    failing = []
    for m in enc.problem.moves_into.get(support.province, []):
        attack = enc.problem.moves[m]
        if _protected_by_convoy_rule(enc, attack, support):
            continue  # 2000 rule; it takes precedence over dislodgement too (DATC 6.F.17)
        failing.append(enc.lit(("move", m)))  # 5.B.2: a unit that dislodges the supporter cuts
        if attack.power == support.power:
            continue  # 5.B.2: a unit does not cut the support of its own power
        if support.move is not None and attack.origin == support.target:
            continue  # 5.B.2 / 4.A.4 a: not cut from the area the support is directed at
        if not attack.convoyed:
            enc.model.add(enc.lit(("support", s)) == 0)  # cut by an attack over land, whatever happens
            return
        failing.append(enc.lit(("path", m)))  # 5.B.2: a convoyed attack cuts if its PATH succeeds
    enc.iff_and(enc.lit(("support", s)), [f.Not() for f in failing])


def _protected_by_convoy_rule(enc: Encoding, attack: MoveOrder, support: SupportOrder) -> bool:
    """2000 rulebook ("the 22 rules", 21-22; DATC 4.A.2 c): a convoyed army does not
    cut the support of a unit supporting an attack on a fleet its convoy needs."""
    if enc.rules.choice("4.A.2") != "c" or not attack.convoyed or support.move is None:
        return False
    if attack.power == support.power:
        return False
    convoys = enc.problem.convoys
    # "needs": the fleet lies on every route of the convoy (DATC 6.F.19)
    return bool(attack.routes) and all(
        any(convoys[c].province == support.target for c in route) for route in attack.routes)
