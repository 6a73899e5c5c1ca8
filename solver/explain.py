"""Explanations of a movement result, read off the solved model (``--explain``).

Every fact comes from the values of the model's decisions and strengths in the
solution the driver returned: which supports counted, who cut which support,
which convoy routes were alive, which rule settled a cycle. Nothing here
adjudicates again.

A failed move names its culprits (the opposing strengths at least its attack):
a *standoff* when the strengths are equal (the rulebook's "Pattsituation"), else
the unit that beat it; a move against a unit of its own power names that rule
(DATC 5.B.8). A dislodged unit names its dislodger, with the supports that counted.
"""

from __future__ import annotations


from .board import Unit
from .encodings.support import protected_by_convoy_rule
from .movement import MovementTrace
from .results import PhaseResult, Reason
from .rules import ConvoyParadox, Rules, SelfAttackViaConvoy

RULE_REFS = {
    "szykman": "Szykman rule (DATC 4.A.2, 5.B.9): the convoying fleets in the paradox do not convoy",
    "circular movement": "circular movement (DATC 5.B.9): every move in the cycle succeeds",
    "all hold": "All Hold rule (DATC 4.A.2 d): every move in the paradox fails",
    "dptg": "DPTG rule (DATC v2.x 4.A.2 f): of the resolutions, the one in which every convoy of the paradox "
            "is disrupted",
}

CONVOY_RULE_REFS = {
    ConvoyParadox.R1971: "1971 rulebook (DATC 4.A.2 a): a convoyed army does not cut the support of a fleet "
                         "supporting a fleet attacking a convoying fleet",
    ConvoyParadox.R1982: "1982 rulebook (DATC 4.A.2 b): a convoyed army does not cut the support of a fleet "
                         "supporting an action in a body of water with a convoying fleet",
    ConvoyParadox.R2000: "2000 rulebook (DATC 4.A.2 c): a convoyed army does not cut support for an attack "
                         "on a fleet its convoy needs",
}

OWN_UNIT = "DATC 5.B.8; rulebook: a power cannot dislodge its own unit"
OWN_SUPPORT = "DATC 5.B.8; rulebook: a power cannot support an attack on its own unit"


def _name(unit: Unit) -> str:
    return f"{unit.kind} {unit.location}"


def explain(result: PhaseResult) -> list[list[str]]:
    """For each order (in input order), its decisive facts in plain words."""
    trace = result.trace
    explainer = _Explainer(trace, result.rules) if isinstance(trace, MovementTrace) else None
    out = []
    for k, r in enumerate(result.results):
        if r.reason in (Reason.ILLEGAL, Reason.VOID) or explainer is None:
            out.append([f"{r.reason}: {r.detail}"] if r.reason else ["succeeds"])
        else:
            out.append(explainer.order(k))
    return out


def _compare(opposing: int, attack: int) -> str:
    return f"= attack strength {attack}" if opposing == attack else f"> attack strength {attack}"


class _Explainer:
    def __init__(self, trace: MovementTrace, rules: Rules) -> None:
        self.t = trace
        self.rules = rules
        self.p = trace.scan.problem
        self.v = trace.solved.values
        self.s = trace.solved.strengths
        self.backup_keys = {key: name for name, keys in trace.solved.backups for key in keys}
        self.supporter = {sup.unit for sup in self.p.supports}
        self.convoyer = {con.unit for con in self.p.convoys}

    # --- names and values read off the model --------------------------------------------
    def unit(self, u: int) -> str:
        return _name(self.t.units[u])

    def move_name(self, m: int) -> str:
        move = self.p.moves[m]
        return f"{self.unit(move.unit)} - {move.dest}"

    def by_land(self, m: int) -> bool:
        """The route the move took: over land unless convoyed (a land fallback: when PATH failed)."""
        move = self.p.moves[m]
        if move.land_only:
            return True
        if move.convoy_only:
            return False
        return not self.v.get(("path", m), False)

    def has_path(self, m: int) -> bool:
        return not self.p.moves[m].convoy_only or self.v.get(("path", m), False)

    def head_to_head(self, m: int) -> bool:
        """DATC 5.B.1: opposite moves meet head to head when both go over land."""
        move = self.p.moves[m]
        return move.opposite is not None and self.by_land(m) and self.by_land(move.opposite)

    def dislodged(self, u: int) -> bool:
        return self.v.get(("dislodged", u), False)

    def blocking_occupant(self, m: int) -> int | None:
        """The unit at m's destination that stays to face it (DATC 5.B.8: it does not move
        away, or it meets m head to head), else None."""
        u = self.p.unit_at.get(self.p.moves[m].dest)
        if u is None:
            return None
        slot = self.p.units[u]
        if slot.move is None or self.head_to_head(m) or not self.v[("move", slot.move)]:
            return u
        return None

    def staying(self, u: int) -> str:
        """How a unit that faces an attack stays where it is."""
        slot = self.p.units[u]
        if slot.move is not None:
            return "moves away" if self.v[("move", slot.move)] else "fails to move away"
        if u in self.supporter:
            return "stays to support"
        if u in self.convoyer:
            return "stays to convoy"
        return "holds"

    def protected(self, m: int, s: int) -> bool:
        """Does the rulebook's convoy rule (DATC 4.A.2 a/b/c) keep move m from cutting support s?"""
        return protected_by_convoy_rule(self.p, self.rules.model, self.p.moves[m], self.p.supports[s])

    # --- dispatch ------------------------------------------------------------------------
    def order(self, k: int) -> list[str]:
        scan = self.t.scan
        if k in scan.move_of:
            return self.move(scan.move_of[k])
        if k in scan.support_of:
            return self.support(scan.support_of[k])
        if k in scan.convoy_of:
            return self.convoy(scan.convoy_of[k])
        unit = self.p.unit_at[self.t.orders[k].unit.province]
        return self.hold(unit)

    # --- moves ---------------------------------------------------------------------------
    def supports_line(self, supports: list[int], what: str, against: int | None = None) -> str:
        """Supports that counted, and why the others did not. `against`: the unit the move
        attacks, whose own power's supports do not count (DATC 5.B.8)."""
        power = self.p.units[against].power if against is not None else None
        given = [s for s in supports if self.v[("support", s)]]
        counted = [self.unit(self.p.supports[s].unit) for s in given if self.p.supports[s].power != power]
        discounted = [self.unit(self.p.supports[s].unit) for s in given if self.p.supports[s].power == power]
        failed = [f"{self.unit(self.p.supports[s].unit)} ({self.support_failure(s)})"
                  for s in supports if not self.v[("support", s)]]
        text = f"{what}: " + (", ".join(counted) if counted else "none")
        if discounted:
            text += (f"; not counted against {self.unit(against)}, a unit of {power}: "
                     f"{', '.join(discounted)} ({OWN_SUPPORT})")
        return text + (f"; not counted: {', '.join(failed)}" if failed else "")

    def move(self, m: int) -> list[str]:
        move = self.p.moves[m]
        facts = []
        if move.convoyed:
            facts.append(self.routes(m))
        attack = self.s.get(("attack", m))
        blocker = self.blocking_occupant(m)
        against = blocker if blocker is not None and self.p.units[blocker].power != move.power else None
        strength = f"attack strength {attack}; " if attack is not None else ""
        facts.append(strength + self.supports_line(move.supports, "supports", against))
        facts.append(self.resistance(m))
        for other in self.p.moves_into[move.dest]:
            if other != m:
                facts.append(self.prevent_line(other))
        if ("move", m) in self.backup_keys:
            facts.append(RULE_REFS[self.backup_keys[("move", m)]])
        if self.dislodged(move.unit):
            facts.append(f"{self.unit(move.unit)} is dislodged by {self.dislodger(move.unit)}")
        if self.v[("move", m)]:
            facts.insert(0, "succeeds (DATC 5.B.1: attack beats every opposing strength)")
        elif move.convoy_only and not self.v[("path", m)]:
            facts.insert(0, "fails: no convoy route (DATC 5.B.4); attack strength 0")
        else:
            culprits = self.culprits(m)
            facts.insert(0, "fails: bounced (DATC 5.B.1): " + "; ".join(culprits) if culprits else
                         "fails: bounced (DATC 5.B.1: some opposing strength is at least the attack)")
        return facts

    def culprits(self, m: int) -> list[str]:
        """The opposing strengths that stopped move m, each naming its unit."""
        move = self.p.moves[m]
        attack = self.s.get(("attack", m))
        if attack is None:  # settled by a backup rule; its strengths were not needed
            return []
        blocker = self.blocking_occupant(m)
        if blocker is not None and self.p.units[blocker].power == move.power:
            how = ("meets it head to head" if self.head_to_head(m) else self.staying(blocker))
            return [f"cannot dislodge {self.unit(blocker)}, a unit of its own power, which {how}: "
                    f"attack strength 0 ({OWN_UNIT})"]
        out = []
        resisting = self.s.get(("resisting", m))
        u = self.p.unit_at.get(move.dest)
        if resisting is not None and u is not None and resisting >= attack:
            if self.head_to_head(m):
                opp = move.opposite
                if resisting == attack:
                    out.append(f"standoff in a head-to-head battle with {self.move_name(opp)} "
                               f"(defend strength {resisting} = attack strength {attack}; units cannot "
                               f"swap places without a convoy, DATC 5.B.1, 5.B.7)")
                else:
                    out.append(f"lost the head-to-head battle with {self.move_name(opp)} "
                               f"(defend strength {resisting} > attack strength {attack}, DATC 5.B.7)")
            else:
                relation = "standoff with" if resisting == attack else "held off by"
                out.append(f"{relation} {self.unit(u)}, which {self.staying(u)} "
                           f"(hold strength {resisting} {_compare(resisting, attack)}, DATC 5.B.5)")
        for other in self.p.moves_into[move.dest]:
            prevent = self.s.get(("prevent", other))
            if other != m and prevent is not None and prevent >= attack:
                relation = "standoff with" if prevent == attack else "outmatched by"
                out.append(f"{relation} {self.move_name(other)} "
                           f"(prevent strength {prevent} {_compare(prevent, attack)}, DATC 5.B.6)")
        return out

    def resistance(self, m: int) -> str:
        move = self.p.moves[m]
        value = self.s.get(("resisting", m))
        u = self.p.unit_at.get(move.dest)
        if u is None:
            return f"{move.dest} is empty: hold strength 0"
        slot = self.p.units[u]
        if self.head_to_head(m):
            return (f"head-to-head battle with {self.move_name(move.opposite)}: defend strength {value}; "
                    + self.supports_line(self.p.moves[move.opposite].supports, "its supports"))
        if slot.move is not None:
            gone = self.v[("move", slot.move)]
            how = "moves away" if gone else "fails to move away"
            if slot.move == move.opposite:
                how += " (one of the two goes by convoy: no head-to-head battle, DATC 5.B.1)"
            return f"{self.unit(u)} {how}: hold strength {0 if gone else 1}"
        value_text = value if value is not None else 1 + sum(self.v[("support", s)] for s in slot.hold_supports)
        return (f"{self.unit(u)} {self.staying(u)}: hold strength {value_text}; "
                + self.supports_line(slot.hold_supports, "hold supports"))

    def prevent_line(self, other: int) -> str:
        move = self.p.moves[other]
        prevent = self.s.get(("prevent", other))
        if prevent is None:
            return f"{self.move_name(other)} also moves there"
        text = f"prevent strength {prevent} of {self.move_name(other)}"
        opposite_won = move.opposite is not None and self.v[("move", move.opposite)]
        if prevent == 0 and not self.has_path(other):
            return text + " (no convoy route, DATC 5.B.6)"
        if prevent == 0 and opposite_won:
            rule = "DATC 5.B.6" if self.head_to_head(other) else "DATC 4.A.7 a"
            return (text + f" ({self.unit(move.unit)} is dislodged by {self.move_name(move.opposite)}, "
                    f"which comes from there: a dislodged unit has no effect on the area its attacker "
                    f"came from, {rule})")
        if self.dislodged(move.unit):
            return text + (f" ({self.unit(move.unit)} is dislodged but still has its prevent strength "
                           f"here: it is not dislodged from this area, DATC 5.B.6)")
        return text

    def routes(self, m: int) -> str:
        move = self.p.moves[m]
        if not move.routes:
            return "no convoy route was ordered"
        parts = []
        for route in move.routes:
            fleets = ", ".join(self.unit(self.p.convoys[c].unit) + self.convoy_mark(c) for c in route)
            alive = all(self.v[("convoy", c)] for c in route)
            parts.append(f"[{fleets}] " + ("carries" if alive else "broken"))
        return "convoy routes: " + "; ".join(parts)

    def convoy_mark(self, c: int) -> str:
        if self.v[("convoy", c)]:
            return ""
        m = self.dislodging_move(self.p.convoys[c].unit)
        if m is not None:
            return f" (fails: dislodged by {self.unit(self.p.moves[m].unit)})"
        return " (fails)"

    # --- supports, convoys, holds -----------------------------------------------------
    def cuts(self, m: int, s: int) -> bool:
        """Does move m cut support s without dislodging it (DATC 5.B.2)?"""
        attack, support = self.p.moves[m], self.p.supports[s]
        if attack.power == support.power or self.protected(m, s):
            return False
        if support.move is not None and attack.origin == support.target:
            if self.rules.self_attack_via_convoy is SelfAttackViaConvoy.NOT_CUT or attack.land_only:
                return False
            return self.has_path(m)  # 4.A.4 b: an attack from there by convoy cuts
        return self.has_path(m)

    def support_failure(self, s: int) -> str:
        support = self.p.supports[s]
        m = self.dislodging_move(support.unit)
        if m is not None:
            return f"dislodged by {self.unit(self.p.moves[m].unit)}"
        cutters = []
        for m in self.p.moves_into.get(support.province, []):
            if not self.cuts(m, s):
                continue
            attack = self.p.moves[m]
            text = f"{self.unit(attack.unit)} from {attack.origin}" + ("" if self.by_land(m) else " by convoy")
            if self.dislodged(attack.unit):
                text += ", which is dislodged but still cuts"
            cutters.append(text)
        return "cut by " + ", ".join(cutters) if cutters else "cut"

    def support(self, s: int) -> list[str]:
        support = self.p.supports[s]
        what = (f"support for {self.move_name(support.move)}"
                if support.move is not None else f"support to hold {support.target}")
        if self.v[("support", s)]:
            blocker = self.blocking_occupant(support.move) if support.move is not None else None
            if blocker is not None and self.p.units[blocker].power == support.power:
                facts = [f"succeeds: the support is not cut (DATC 5.B.2), but it does not count against "
                         f"{self.unit(blocker)}, a unit of its own power ({OWN_SUPPORT})"]
                rivals = [o for o in self.p.moves_into[support.target] if o != support.move]
                if rivals:
                    facts.append(f"it still adds to the prevent strength of {self.move_name(support.move)} "
                                 f"against {', '.join(self.move_name(o) for o in rivals)} (DATC 5.B.6)")
            elif self.dislodged(support.unit):
                facts = [f"succeeds: {what} counts though {self.unit(support.unit)} is dislodged by "
                         f"{self.dislodger(support.unit)}: the rulebook's convoy rule takes precedence over "
                         f"the dislodgement (DATC 4.A.2, 6.F.17)"]
            else:
                facts = [f"succeeds: {what} counts (DATC 5.B.2: not cut, not dislodged)"]
        else:
            facts = [f"fails: {self.support_failure(s)} (DATC 5.B.2)"]
            m = self.dislodging_move(support.unit)
            if m is not None:
                facts.append(f"{self.unit(support.unit)} is dislodged by {self.dislodger(support.unit)}")
                if support.move is not None and self.p.moves[m].origin == support.target:
                    facts.append(f"the attack comes from {support.target}, the area the support is aimed at, "
                                 f"but a dislodged unit's support fails all the same (DATC 5.B.2)")
        for m in self.p.moves_into.get(support.province, []):
            attack = self.p.moves[m]
            who = self.unit(attack.unit)
            if attack.power == support.power:
                facts.append(f"{who} is of the same power and does not cut it")
            elif self.protected(m, s):
                fleets = sorted({self.unit(self.p.convoys[c].unit) for route in attack.routes for c in route
                                 if self.p.convoys[c].province == support.target})
                facts.append(f"{who} comes by convoy through {', '.join(fleets)}, the fleet this support "
                             f"attacks: no cut ({CONVOY_RULE_REFS[self.rules.convoy_paradox.rulebook_rule]})")
            elif (support.move is not None and attack.origin == support.target and not self.v[("move", m)]
                  and not self.cuts(m, s)):
                facts.append(f"{who} attacks from {support.target}, the area the support is aimed at: "
                             f"no cut (DATC 5.B.2)")
            elif not self.has_path(m):
                facts.append(f"{who} comes by convoy and has no convoy route: no cut (DATC 5.B.2)")
            elif self.cuts(m, s) and support.move is not None and self.rules.convoy_paradox.rulebook_rule is not None:
                free = [r for r in attack.routes if all(self.p.convoys[c].province != support.target for c in r)]
                if free and len(free) < len(attack.routes):
                    fleets = ", ".join(self.unit(self.p.convoys[c].unit) for c in free[0])
                    facts.append(f"{who} comes by convoy and has a route that does not need the fleet in "
                                 f"{support.target} (through {fleets}): the convoy rule does not protect "
                                 f"the support, and it is cut (DATC 4.A.2, 6.F.19)")
        return facts

    def convoy(self, c: int) -> list[str]:
        convoy = self.p.convoys[c]
        if ("convoy", c) in self.backup_keys:
            return [f"fails: {RULE_REFS[self.backup_keys[('convoy', c)]]}"]
        if self.v[("convoy", c)]:
            return ["succeeds: the fleet is not dislodged (DATC 5.B.3)"]
        return [f"fails (DATC 5.B.3): dislodged by {self.dislodger(convoy.unit)}"]

    def dislodging_move(self, u: int) -> int | None:
        if not self.dislodged(u):
            return None
        for m in self.p.moves_into.get(self.p.units[u].province, []):
            if self.v[("move", m)]:
                return m
        return None

    def dislodger(self, u: int) -> str:
        """The unit that dislodged u, with its attack strength and the supports that counted."""
        m = self.dislodging_move(u)
        if m is None:
            return "?"
        move = self.p.moves[m]
        notes = [] if self.by_land(m) else ["by convoy"]
        attack = self.s.get(("attack", m))
        if attack is not None:
            notes.append(f"attack strength {attack}")
        power = self.p.units[u].power
        counted = [self.unit(self.p.supports[s].unit) for s in move.supports
                   if self.v[("support", s)] and self.p.supports[s].power != power]
        if counted:
            notes.append("supports: " + ", ".join(counted))
        return self.unit(move.unit) + (f" ({'; '.join(notes)})" if notes else "")

    def hold(self, u: int) -> list[str]:
        slot = self.p.units[u]
        if self.dislodged(u):
            return [f"dislodged by {self.dislodger(u)}"]
        facts = ["holds"]
        if slot.hold_supports:
            facts.append(self.supports_line(slot.hold_supports, "hold supports"))
        return facts
