"""Explanations of a movement result, read off the solved model (``--explain``).

Every fact comes from the values of the model's decisions and strengths in the
solution the driver returned: which supports counted, who cut which support,
which convoy routes were alive, which rule settled a cycle. Nothing here
adjudicates again.
"""

from __future__ import annotations

from .board import Unit
from .movement import MovementTrace
from .results import PhaseResult, Reason

RULE_REFS = {
    "szykman": "Szykman rule (DATC 4.A.2, 5.B.9): the convoying fleets in the paradox do not convoy",
    "circular movement": "circular movement (DATC 5.B.9): every move in the cycle succeeds",
    "all hold": "All Hold rule (DATC 4.A.2 d): every move in the paradox fails",
}


def _name(unit: Unit) -> str:
    return f"{unit.kind} {unit.location}"


def explain(result: PhaseResult) -> list[list[str]]:
    """For each order (in input order), its decisive facts in plain words."""
    trace = result.trace
    out = []
    for k, r in enumerate(result.results):
        if r.reason in (Reason.ILLEGAL, Reason.VOID) or not isinstance(trace, MovementTrace):
            out.append([f"{r.reason}: {r.detail}"] if r.reason else ["succeeds"])
        else:
            out.append(_Explainer(trace).order(k))
    return out


class _Explainer:
    def __init__(self, trace: MovementTrace) -> None:
        self.t = trace
        self.p = trace.scan.problem
        self.v = trace.solved.values
        self.s = trace.solved.strengths
        self.backup_keys = {key: name for name, keys in trace.solved.backups for key in keys}

    def unit(self, u: int) -> str:
        return _name(self.t.units[u])

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

    # --- moves ---------------------------------------------------------------------
    def supports_line(self, supports: list[int], what: str) -> str:
        given = [self.unit(self.p.supports[s].unit) for s in supports if self.v[("support", s)]]
        failed = [f"{self.unit(self.p.supports[s].unit)} ({self.support_failure(s)})"
                  for s in supports if not self.v[("support", s)]]
        text = f"{what}: " + (", ".join(given) if given else "none")
        return text + (f"; not counted: {', '.join(failed)}" if failed else "")

    def move(self, m: int) -> list[str]:
        move = self.p.moves[m]
        facts = []
        if move.convoyed:
            facts.append(self.routes(m))
        attack = self.s.get(("attack", m))
        resisting = self.s.get(("resisting", m))
        facts.append(f"attack strength {attack}; " + self.supports_line(move.supports, "supports"))
        facts.append(self.resistance(m, resisting))
        for other in self.p.moves_into[move.dest]:
            if other != m:
                facts.append(f"prevent strength {self.s.get(('prevent', other))} of {self.unit(self.p.moves[other].unit)} - {move.dest}")
        if ("move", m) in self.backup_keys:
            facts.append(RULE_REFS[self.backup_keys[("move", m)]])
        if self.v[("move", m)]:
            facts.insert(0, "succeeds (DATC 5.B.1: attack beats every opposing strength)")
        elif move.convoy_only and not self.v[("path", m)]:
            facts.insert(0, "fails: no convoy route (DATC 5.B.4); attack strength 0")
        else:
            facts.insert(0, "fails: bounced (DATC 5.B.1: some opposing strength is at least the attack)")
        return facts

    def resistance(self, m: int, value: int | None) -> str:
        move = self.p.moves[m]
        u = self.p.unit_at.get(move.dest)
        if u is None:
            return f"{move.dest} is empty: hold strength 0"
        slot = self.p.units[u]
        if move.opposite is not None and slot.move == move.opposite and value != (0 if self.v[("move", slot.move)] else 1):
            return (f"head-to-head with {self.unit(u)}: defend strength {value}; "
                    + self.supports_line(self.p.moves[slot.move].supports, "its supports"))
        if slot.move is not None:
            gone = self.v[("move", slot.move)]
            return f"{self.unit(u)} " + ("moves away: hold strength 0" if gone else "fails to move away: hold strength 1")
        return f"{self.unit(u)} holds: hold strength {value}; " + self.supports_line(slot.hold_supports, "hold supports")

    def routes(self, m: int) -> str:
        move = self.p.moves[m]
        if not move.routes:
            return "no convoy route was ordered"
        parts = []
        for route in move.routes:
            fleets = ", ".join(self.unit(self.p.convoys[c].unit) + ("" if self.v[("convoy", c)] else " (fails)")
                               for c in route)
            alive = all(self.v[("convoy", c)] for c in route)
            parts.append(f"[{fleets}] " + ("carries" if alive else "broken"))
        return "convoy routes: " + "; ".join(parts)

    # --- supports, convoys, holds -----------------------------------------------------
    def support_failure(self, s: int) -> str:
        support = self.p.supports[s]
        dislodgers = [m for m in self.p.moves_into.get(support.province, []) if self.v[("move", m)]]
        if dislodgers:
            return f"dislodged by {self.unit(self.p.moves[dislodgers[0]].unit)}"
        cutters = []
        for m in self.p.moves_into.get(support.province, []):
            attack = self.p.moves[m]
            if attack.power == support.power or (support.move is not None and attack.origin == support.target):
                continue
            if attack.convoy_only and not self.v[("path", m)]:
                continue
            cutters.append(f"{self.unit(attack.unit)} from {attack.origin}")
        return "cut by " + ", ".join(cutters) if cutters else "cut"

    def support(self, s: int) -> list[str]:
        support = self.p.supports[s]
        what = (f"support for {self.unit(self.p.moves[support.move].unit)} - {support.target}"
                if support.move is not None else f"support to hold {support.target}")
        if self.v[("support", s)]:
            facts = [f"succeeds: {what} counts (DATC 5.B.2: not cut, not dislodged)"]
        else:
            facts = [f"fails: {self.support_failure(s)} (DATC 5.B.2)"]
        for m in self.p.moves_into.get(support.province, []):
            attack = self.p.moves[m]
            if attack.power == support.power:
                facts.append(f"{self.unit(attack.unit)} is of the same power and does not cut it")
            elif support.move is not None and attack.origin == support.target and not self.v[("move", m)]:
                facts.append(f"{self.unit(attack.unit)} attacks from {support.target}, the area the support is aimed at: no cut")
        return facts

    def convoy(self, c: int) -> list[str]:
        convoy = self.p.convoys[c]
        if ("convoy", c) in self.backup_keys:
            return [f"fails: {RULE_REFS[self.backup_keys[('convoy', c)]]}"]
        if self.v[("convoy", c)]:
            return ["succeeds: the fleet is not dislodged (DATC 5.B.3)"]
        return [f"fails: dislodged (DATC 5.B.3) by {self.dislodger(convoy.unit)}"]

    def dislodger(self, u: int) -> str:
        for m in self.p.moves_into.get(self.p.units[u].province, []):
            if self.v[("move", m)]:
                return f"{self.unit(self.p.moves[m].unit)} (attack strength {self.s.get(('attack', m))})"
        return "?"

    def hold(self, u: int) -> list[str]:
        slot = self.p.units[u]
        if self.v.get(("dislodged", u), False):
            return [f"dislodged by {self.dislodger(u)}"]
        facts = ["holds"]
        if slot.hold_supports:
            facts.append(self.supports_line(slot.hold_supports, "hold supports"))
        return facts
