"""Support and cutting support: DATC 5.B.2, with the rulebooks' convoy rules (4.A.2)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .literals import Condition, negate
from .options import ConvoyParadox, ModelOptions, SelfAttackViaConvoy
from .problem import MoveOrder, Problem, SupportOrder
from .strength import by_land

if TYPE_CHECKING:
    from .model import Encoding

def define_support(enc: Encoding, s: int) -> None:
    """support_given[s] <-> not dislodged and not cut (5.B.2)."""
    support = enc.problem.supports[s]
    failing: list[Condition] = []
    for m in enc.problem.moves_into.get(support.province, []):
        attack = enc.problem.moves[m]
        if protected_by_convoy_rule(enc.problem, enc.options, attack, support):
            if attack.fallback:  # it may come over land after all: then it cuts and dislodges as usual
                land = by_land(enc, m)
                failing.append(enc.both(enc.cond(("move", m)), land))
                if not (support.move is not None and attack.origin == support.target):
                    failing.append(land)
            continue  # the rulebook's convoy rule takes precedence over dislodgement too (DATC 6.F.17)
        if attack.power == support.power:
            failing.append(enc.cond(("move", m)))  # 5.B.2: dislodgement cuts (own units never dislodge)
            continue  # 5.B.2: a unit does not cut the support of its own power
        if support.move is not None and attack.origin == support.target:
            failing.append(enc.cond(("move", m)))  # 5.B.2: dislodgement cuts
            if enc.options.self_attack_via_convoy is SelfAttackViaConvoy.CUT and not attack.land_only:
                failing.append(enc.cond(("path", m)))  # 4.A.4 b: an attack from there by convoy cuts
            continue  # 5.B.2 / 4.A.4 a: not cut from the area the support is directed at
        land = by_land(enc, m)
        if land is True:
            failing.append(True)  # cut by an attack over land, whatever happens
        elif land is False:
            failing.append(enc.cond(("path", m)))  # 5.B.2: a convoyed attack cuts if its PATH succeeds
        else:
            failing.append(True)  # with a land fallback the attack arrives by one route or the other
        if failing[-1] is True:
            break
    enc.iff_and(("support", s), [negate(f) for f in failing])


def protected_by_convoy_rule(problem: Problem, options: ModelOptions, attack: MoveOrder,
                             support: SupportOrder) -> bool:
    """DATC 4.A.2: the rulebooks' exceptions to cutting support by a convoyed army."""
    rule = options.convoy_paradox.rulebook_rule
    if rule is None or not attack.convoyed or attack.power == support.power:
        return False  # 4.A.2 f (Szykman): no exception
    p = problem
    convoy_fleets = {p.convoys[c].province for route in attack.routes for c in route}
    if rule is ConvoyParadox.R1971:
        # 1971: not cut when the army attacks a fleet supporting a fleet attacking a convoying fleet.
        supported = p.moves[support.move] if support.move is not None else None
        return (p.units[support.unit].fleet and supported is not None
                and p.units[supported.unit].fleet and support.target in convoy_fleets)
    if rule is ConvoyParadox.R1982:
        # 1982: not cut when the army attacks a fleet supporting an action in a body of water
        # that contains a convoying fleet.
        convoying = {c.province for c in p.convoys}
        return p.units[support.unit].fleet and support.target in convoying
    # 2000/2023 ("the 22 rules", 21-22): not cut when the support is for an attack on a
    # fleet the convoy needs, i.e. one on every route (DATC 6.F.19).
    return support.move is not None and bool(attack.routes) and all(
        any(p.convoys[c].province == support.target for c in route) for route in attack.routes)


def same_model(problem: Problem, a: ModelOptions, b: ModelOptions) -> bool:
    """Do options `a` and `b` give `problem` the same model? They do when they agree on
    every option but 4.A.2 and its rulebook exceptions (:func:`protected_by_convoy_rule`)
    protect the same supports from the same attacks: that is all of 4.A.2 the model
    reads (its backup rules settle cycles, in the driver)."""
    if replace(a, convoy_paradox=b.convoy_paradox) != b:
        return False
    if a.convoy_paradox.rulebook_rule is b.convoy_paradox.rulebook_rule:
        return True
    return all(protected_by_convoy_rule(problem, a, problem.moves[m], support)
               == protected_by_convoy_rule(problem, b, problem.moves[m], support)
               for support in problem.supports for m in problem.moves_into.get(support.province, []))
