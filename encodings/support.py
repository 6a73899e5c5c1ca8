"""Support and cutting support: DATC 5.B.2, with the rulebooks' convoy rules (4.A.2)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

from .decisions import MOVE, PATH, SUPPORT
from .literals import Condition, Reads, negate
from .options import ConvoyParadox, ModelOptions, SelfAttackViaConvoy
from .problem import MoveOrder, Problem, SupportOrder
from .strength import by_land

if TYPE_CHECKING:
    from .model import Encoding


def define_support(enc: Encoding, s: int) -> bool | None:
    """support_given[s] <-> not dislodged and not cut (5.B.2)."""
    support = enc.problem.supports[s]
    attacks = enc.problem.moves_into.get(support.province)
    if not attacks:
        return True  # nothing moves into its area: neither cut nor dislodged
    failing: list[Condition] = []
    for m in attacks:
        attack = attack_on_support(enc, m, s)
        if attack.dislodges is not None:  # an exception to the cut rule applies (own power, target, convoy rule)
            failing += (attack.dislodges, attack.cuts)
            continue
        if attack.cuts is True:
            return False  # cut, whatever the other attacks do
        failing.append(attack.cuts)
    return enc.iff_and((SUPPORT, s), [negate(f) for f in failing])


class AttackOnSupport(NamedTuple):
    """What move m does to support s (DATC 5.B.2): each a condition."""

    dislodges: Condition | None
    """It dislodges the supporting unit, where that is not already a cut (None: only a cut
    fails the support: an attack that can succeed has come and cut it)."""
    cuts: Condition
    """It cuts the support: it arrives (over land, or by its convoy's PATH) and no rule keeps it from cutting."""


def attack_on_support(enc: Reads, m: int, s: int) -> AttackOnSupport:
    """Does move m into the supporting unit's area dislodge or cut support s (DATC 5.B.2,
    with 4.A.2's convoy rules and 4.A.4)? The one definition of the cut rule: the support
    decision is built from it, and the outcomes read it off the solution (who cut it)."""
    attack, support = enc.problem.moves[m], enc.problem.supports[s]
    from_target = support.move is not None and attack.origin == support.target
    if protected_by_convoy_rule(enc.problem, enc.options, attack, support):
        if attack.fallback:  # it may come over land after all: then it cuts and dislodges as usual
            land = by_land(enc, m)
            return AttackOnSupport(enc.both(enc.cond((MOVE, m)), land), False if from_target else land)
        return AttackOnSupport(False, False)  # the convoy rule takes precedence over dislodgement too (6.F.17)
    if attack.power == support.power:
        # 5.B.2: a unit does not cut the support of its own power (and own units never dislodge)
        return AttackOnSupport(enc.cond((MOVE, m)), False)
    if from_target:
        dislodges = enc.cond((MOVE, m))  # 5.B.2: dislodgement cuts
        if enc.options.self_attack_via_convoy is SelfAttackViaConvoy.CUT and not attack.land_only:
            return AttackOnSupport(dislodges, enc.cond((PATH, m)))  # 4.A.4 b: an attack from there by convoy cuts
        return AttackOnSupport(dislodges, False)  # 5.B.2 / 4.A.4 a: not cut from the area the support is directed at
    land = by_land(enc, m)
    if land is True:
        return AttackOnSupport(None, True)  # cut by an attack over land, whatever happens
    if land is False:
        return AttackOnSupport(None, enc.cond((PATH, m)))  # 5.B.2: a convoyed attack cuts if its PATH succeeds
    return AttackOnSupport(None, True)  # with a land fallback the attack arrives by one route or the other


def protected_by_convoy_rule(problem: Problem, options: ModelOptions, attack: MoveOrder,
                             support: SupportOrder) -> bool:
    """DATC 4.A.2: the rulebooks' exceptions to cutting support by a convoyed army."""
    if not attack.convoyed or attack.power == support.power:
        return False
    rule = options.convoy_paradox.rulebook_rule
    if rule is None:
        return False  # 4.A.2 f (Szykman): no exception
    p = problem
    convoy_fleets = {p.convoys[c].province for route in attack.routes for c in route}
    if rule is ConvoyParadox.R1971:
        # 1971: not cut when the army attacks a fleet supporting a fleet attacking a convoying fleet.
        supported = p.moves[support.move] if support.move is not None else None
        return (p.fleets[support.unit] and supported is not None
                and p.fleets[supported.unit] and support.target in convoy_fleets)
    if rule is ConvoyParadox.R1982:
        # 1982: not cut when the army attacks a fleet supporting an action in a body of water
        # that contains a convoying fleet.
        convoying = {c.province for c in p.convoys}
        return p.fleets[support.unit] and support.target in convoying
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
