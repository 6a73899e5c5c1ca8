"""The one reader of a solved movement model: every order's outcome as a value.

The solve driver returns the values of the DATC decisions (``move``, ``support``,
``dislodged``, ``path``, ``convoy``) and of the strengths the model built. This
module turns them, with the prescan's problem, into :mod:`dipsat.outcomes` values:
which strengths decided each move and which supports counted in them, which attacks
cut a support (DATC 5.B.2, read here and nowhere else), who dislodged whom, which
convoy routes carried, which backup rule settled a paradox. Nothing here adjudicates
again: a decision's value is read, never recomputed; the rules are consulted only
to say *why* (which rule the solution followed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..board import Unit
from ..state import Dislodged
from ..encodings import Key, Problem
from ..encodings.options import ConvoyParadox, ModelOptions, SelfAttackViaConvoy
from ..outcomes import (AttackNote, Bounced, Later, NoCut, ConvoyDislodged, Convoys, Cut, Cutter, Dislodgement, Given,
                       HoldDislodged, Holds, MoveFacts, MoveRef, Moves, NoPath, Opposition, Outcome, Paradox,
                       PreventFact, Resistance, Route, Stance, Strength, StrengthKind, SupportDislodged, SupportFailure,
                       SupportPart, ZeroReason)

if TYPE_CHECKING:  # the driver passes its values in; no import at run time
    from .driver import Solved

__all__ = ["Resolution", "RULE_REFS", "CONVOY_RULE_REFS", "ALTERNATIVE_ROUTE_REFS", "PARADOX_RULES"]

RULE_REFS = {
    "szykman": "Szykman rule (DATC 4.A.2, 5.B.9): the convoying fleets in the paradox do not convoy",
    "circular movement": "circular movement (DATC 5.B.9): every move in the cycle succeeds",
    "all hold": "All Hold rule (DATC 4.A.2 d): every move in the paradox fails",
    "dptg": "DPTG rule (DATC v2.x 4.A.2 f): of the resolutions, the one in which every convoy of the paradox "
            "is disrupted",
}
"""The backup rules of DATC 5.B.9 and 4.A.2, in words, by the name the driver gives them."""

PARADOX_RULES = {"all hold": "All Hold rule (DATC 4.A.2 d): every move in the paradox fails",
                 "dptg": "DPTG rule (DATC v2.x 4.A.2 f): the resolution in which the paradox's convoys are disrupted"}
"""Backup rules that decide moves (their outcome is a :class:`~dipsat.outcomes.Paradox`)."""

CONVOY_RULE_REFS = {
    ConvoyParadox.R1971: "1971 rulebook (DATC 4.A.2 a): a convoyed army does not cut the support of a fleet "
                         "supporting a fleet attacking a convoying fleet",
    ConvoyParadox.R1982: "1982 rulebook (DATC 4.A.2 b): a convoyed army does not cut the support of a fleet "
                         "supporting an action in a body of water with a convoying fleet",
    ConvoyParadox.R2000: "2000 rulebook (DATC 4.A.2 c): a convoyed army does not cut support for an attack "
                         "on a fleet its convoy needs",
}
"""The rulebooks' convoy rules (DATC 4.A.2 a-c) that keep a convoyed army from cutting a support."""

ALTERNATIVE_ROUTE_REFS = {
    ConvoyParadox.R2000: "2000 rulebook, rule 22 (figure 31)",
}
"""The rulebooks that say in their own words that a convoy route that does not need the attacked
fleet leaves the support unprotected (DATC 6.F.19 is the 2000 rulebook's figure 31)."""


class Resolution:
    """The outcomes of one solved movement turn: :meth:`move`, :meth:`support`,
    :meth:`convoy` and :meth:`hold` by the problem's indices, :meth:`dislodgement` by unit."""

    def __init__(self, problem: Problem, solved: Solved, options: ModelOptions, units: list[Unit]) -> None:
        self.p = problem
        self.v: dict[Key, bool] = solved.values
        self.s = solved.strengths
        self.options = options
        self.units = units
        self.backup_keys = {key: name for name, keys in solved.backups for key in keys}
        self.supporter = {sup.unit for sup in problem.supports}
        self.convoyer = {con.unit for con in problem.convoys}

    # --- names and values read off the model --------------------------------------------
    def unit(self, u: int) -> Unit:
        return self.units[u]

    def ref(self, m: int) -> MoveRef:
        move = self.p.moves[m]
        return MoveRef(self.units[move.unit], move.dest, not self.by_land(m))

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
        opposite = self.p.moves[m].opposite
        return opposite is not None and self.by_land(m) and self.by_land(opposite)

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

    def stance(self, u: int) -> Stance:
        """How a unit that faces an attack stays where it is."""
        slot = self.p.units[u]
        if slot.move is not None:
            return Stance.MOVES_AWAY if self.v[("move", slot.move)] else Stance.FAILS_TO_MOVE
        if u in self.supporter:
            return Stance.SUPPORTS
        if u in self.convoyer:
            return Stance.CONVOYS
        return Stance.HOLDS

    def protected(self, m: int, s: int) -> bool:
        """Does the rulebook's convoy rule (DATC 4.A.2 a/b/c) keep move m from cutting support s?"""
        from ..encodings.support import protected_by_convoy_rule  # with the model: OR-Tools is imported late

        return protected_by_convoy_rule(self.p, self.options, self.p.moves[m], self.p.supports[s])

    # --- strengths ------------------------------------------------------------------------
    def parts(self, supports: list[int], against: int | None = None) -> tuple[SupportPart, ...]:
        """Each support's part: counted, or not and why. `against`: the unit the strength
        attacks, whose own power's supports do not count against it (DATC 5.B.8), also when
        the move is of that power too (its attack strength is then 0 whatever counts)."""
        power = self.p.units[against].power if against is not None else None
        out = []
        for s in supports:
            support = self.p.supports[s]
            supporter = self.unit(support.unit)
            if not self.v[("support", s)]:
                m = self.dislodging_move(support.unit)
                if m is not None:
                    out.append(SupportPart(supporter, False, SupportFailure.DISLODGED, (Cutter(self.ref(m)),)))
                else:
                    out.append(SupportPart(supporter, False, SupportFailure.CUT, self.cutters(s)))
            elif support.power == power:
                out.append(SupportPart(supporter, False, SupportFailure.AGAINST_OWN_UNIT, power=power))
            else:
                out.append(SupportPart(supporter, True))
        return tuple(out)

    def attack(self, m: int) -> Strength:
        move = self.p.moves[m]
        blocker = self.blocking_occupant(m)
        return Strength(StrengthKind.ATTACK, self.s.get(("attack", m)), self.unit(move.unit),
                        self.parts(move.supports, blocker), self.ref(m))

    def prevent(self, m: int) -> Strength | None:
        value = self.s.get(("prevent", m))
        if value is None:
            return None
        move = self.p.moves[m]
        return Strength(StrengthKind.PREVENT, value, self.unit(move.unit), self.parts(move.supports), self.ref(m))

    def resistance(self, m: int) -> Resistance:
        move = self.p.moves[m]
        value = self.s.get(("resisting", m))
        u = self.p.unit_at.get(move.dest)
        if u is None:
            return Resistance()
        slot = self.p.units[u]
        occupant = self.unit(u)
        if self.head_to_head(m):
            assert move.opposite is not None
            opposite = self.p.moves[move.opposite]
            defend = Strength(StrengthKind.DEFEND, value, occupant, self.parts(opposite.supports),
                              self.ref(move.opposite))
            return Resistance(occupant, self.stance(u), defend, self.ref(move.opposite))
        if slot.move is not None:
            gone = self.v[("move", slot.move)]
            hold = Strength(StrengthKind.HOLD, 0 if gone else 1, occupant)
            return Resistance(occupant, self.stance(u), hold, opposite_by_convoy=slot.move == move.opposite)
        if value is None:
            value = 1 + sum(self.v[("support", s)] for s in slot.hold_supports)
        hold = Strength(StrengthKind.HOLD, value, occupant, self.parts(slot.hold_supports))
        return Resistance(occupant, self.stance(u), hold)

    def prevent_fact(self, other: int) -> PreventFact:
        move = self.p.moves[other]
        strength = self.prevent(other)
        ref = self.ref(other)
        if strength is None:
            return PreventFact(ref, None)
        opposite_won = move.opposite is not None and self.v[("move", move.opposite)]
        if strength.value == 0 and not self.has_path(other):
            return PreventFact(ref, strength, ZeroReason.NO_PATH)
        if strength.value == 0 and opposite_won:
            assert move.opposite is not None
            h2h = self.head_to_head(other)
            return PreventFact(ref, strength, ZeroReason.LOST_HEAD_TO_HEAD if h2h else ZeroReason.DISLODGED_FROM_THERE,
                               head_to_head=h2h, beaten_by=self.ref(move.opposite))
        return PreventFact(ref, strength, dislodged_elsewhere=self.dislodged(move.unit))

    # --- moves ---------------------------------------------------------------------------
    def move_facts(self, m: int) -> MoveFacts:
        move = self.p.moves[m]
        routes = self.routes(m) if move.convoyed else None
        prevents = tuple(self.prevent_fact(other) for other in self.p.moves_into[move.dest] if other != m)
        blocker = self.blocking_occupant(m)
        own = blocker is not None and self.p.units[blocker].power == move.power
        return MoveFacts(self.ref(m), self.attack(m), self.resistance(m), prevents, routes,
                         self.backup_keys.get(("move", m)), self.dislodgement(move.unit),
                         self.prevent(m) if own else None)

    def move(self, m: int) -> Outcome:
        facts = Later(lambda: self.move_facts(m))  # read when asked for: results codes need none of it
        move = self.p.moves[m]
        if self.v[("move", m)]:
            return Moves(facts)
        rule = self.backup_keys.get(("move", m)) or self.backup_keys.get(("path", m))
        if rule in PARADOX_RULES:
            return Paradox(rule or "", PARADOX_RULES[rule or ""], facts)
        if move.convoy_only and not self.v[("path", m)]:
            convoys = [("convoy", c) for route in move.routes for c in route]
            paradox = next((self.backup_keys[k] for k in convoys if k in self.backup_keys), None)
            if paradox is not None:  # its convoy was cancelled by the backup rule
                return Paradox(paradox, f"its convoy is cancelled by the {paradox.capitalize()} rule: the "
                                        f"convoying fleets of the paradox hold (DATC 4.A.2, 5.B.9)", facts)
            return NoPath(facts)
        return Bounced(facts, Later(lambda: self.culprits(m)))

    def culprits(self, m: int) -> tuple[Opposition, ...]:
        """The opposing strengths that stopped move m, each naming its unit."""
        move = self.p.moves[m]
        attack = self.s.get(("attack", m))
        if attack is None:  # settled by a backup rule; its strengths were not needed
            return ()
        blocker = self.blocking_occupant(m)
        if blocker is not None and self.p.units[blocker].power == move.power:
            return (Opposition(None, self.unit(blocker), stance=self.stance(blocker),
                               head_to_head=self.head_to_head(m), own_unit=True),)
        out = []
        resistance = self.resistance(m)
        if resistance.strength is not None and resistance.occupant is not None and \
                resistance.strength.value is not None and resistance.strength.value >= attack:
            out.append(Opposition(resistance.strength, resistance.occupant, resistance.head_to_head,
                                  resistance.stance, head_to_head=resistance.head_to_head is not None))
        for other in self.p.moves_into[move.dest]:
            prevent = self.prevent(other) if other != m else None
            if prevent is not None and prevent.value is not None and prevent.value >= attack:
                out.append(Opposition(prevent, self.unit(self.p.moves[other].unit), self.ref(other)))
        return tuple(out)

    def routes(self, m: int) -> tuple[Route, ...]:
        out = []
        for route in self.p.moves[m].routes:
            fleets = tuple(self.unit(self.p.convoys[c].unit) for c in route)
            failed = []
            for c in route:
                if not self.v[("convoy", c)]:
                    d = self.dislodging_move(self.p.convoys[c].unit)
                    failed.append((self.unit(self.p.convoys[c].unit),
                                   self.unit(self.p.moves[d].unit) if d is not None else None))
            out.append(Route(fleets, not failed, tuple(failed)))
        return tuple(out)

    # --- supports -------------------------------------------------------------------------
    def cuts(self, m: int, s: int) -> bool:
        """Does move m cut support s without dislodging it (DATC 5.B.2)? The one place
        that reads the cut rule off a solution."""
        attack, support = self.p.moves[m], self.p.supports[s]
        if attack.power == support.power or self.protected(m, s):
            return False  # 5.B.2: not by its own power; 4.A.2: the rulebooks' convoy rule
        if support.move is not None and attack.origin == support.target:
            if self.options.self_attack_via_convoy is SelfAttackViaConvoy.NOT_CUT or attack.land_only:
                return False  # 5.B.2: not from the area the support is aimed at (4.A.4 a)
            return self.has_path(m)  # 4.A.4 b: an attack from there by convoy cuts
        return self.has_path(m)  # 5.B.2: a convoyed attack cuts if its convoy arrives

    def cutters(self, s: int) -> tuple[Cutter, ...]:
        support = self.p.supports[s]
        return tuple(Cutter(self.ref(m), self.dislodged(self.p.moves[m].unit))
                     for m in self.p.moves_into.get(support.province, []) if self.cuts(m, s))

    def attack_notes(self, s: int) -> tuple[AttackNote, ...]:
        """The attacks on a supporting unit that did not cut its support, and why."""
        support = self.p.supports[s]
        rule = self.options.convoy_paradox.rulebook_rule
        notes = []
        for m in self.p.moves_into.get(support.province, []):
            attack = self.p.moves[m]
            ref = self.ref(m)
            if attack.power == support.power:
                notes.append(AttackNote(ref, NoCut.SAME_POWER))
            elif self.protected(m, s):
                fleets = tuple(sorted({self.unit(self.p.convoys[c].unit) for route in attack.routes for c in route
                                       if self.p.convoys[c].province == support.target}))
                notes.append(AttackNote(ref, NoCut.PROTECTED, fleets, CONVOY_RULE_REFS[rule] if rule else None))
            elif (support.move is not None and attack.origin == support.target and not self.v[("move", m)]
                  and not self.cuts(m, s)):
                notes.append(AttackNote(ref, NoCut.FROM_TARGET))
            elif not self.has_path(m):
                notes.append(AttackNote(ref, NoCut.NO_PATH))
            elif self.cuts(m, s) and support.move is not None and rule is not None:
                free = [r for r in attack.routes if all(self.p.convoys[c].province != support.target for c in r)]
                if free and len(free) < len(attack.routes):
                    notes.append(AttackNote(ref, NoCut.UNPROTECTED_ROUTE,
                                            tuple(self.unit(self.p.convoys[c].unit) for c in free[0]),
                                            ALTERNATIVE_ROUTE_REFS.get(rule), target=support.target))
        return tuple(notes)

    def support(self, s: int) -> Outcome:
        support = self.p.supports[s]
        notes = self.attack_notes(s)
        supported = self.ref(support.move) if support.move is not None else None
        held = support.target if support.move is None else None
        if self.v[("support", s)]:
            blocker = self.blocking_occupant(support.move) if support.move is not None else None
            if blocker is not None and self.p.units[blocker].power == support.power:
                rivals = tuple(self.ref(o) for o in self.p.moves_into[support.target] if o != support.move)
                return Given(supported, held, self.unit(blocker), rivals, attacks=notes)
            if self.dislodged(support.unit):
                return Given(supported, held, kept_though_dislodged=self.dislodgement(support.unit), attacks=notes)
            return Given(supported, held, attacks=notes)
        m = self.dislodging_move(support.unit)
        if m is not None:
            from_target = support.move is not None and self.p.moves[m].origin == support.target
            return SupportDislodged(self.dislodgement(support.unit), from_target, notes)
        return Cut(self.cutters(s), notes)

    # --- convoys, holds, dislodgements ------------------------------------------------------
    def convoy(self, c: int) -> Outcome:
        convoy = self.p.convoys[c]
        if ("convoy", c) in self.backup_keys:
            rule = self.backup_keys[("convoy", c)]
            # the rule cancels the convoy; the fleet itself may still be attacked and dislodged
            attacks = tuple(self.ref(m) for m in self.p.moves_into.get(self.p.units[convoy.unit].province, []))
            return Paradox(rule, "the convoy is part of a paradox; Szykman rule (DATC 4.A.2, 5.B.9)"
                           if rule == "szykman" else RULE_REFS.get(rule, rule), attacked_by=attacks,
                           hold=self.hold_strength(convoy.unit), dislodged_by=self.dislodgement(convoy.unit))
        if self.v.get(("convoy", c), True):
            return Convoys()
        return ConvoyDislodged(self.dislodgement(convoy.unit))

    def hold(self, u: int) -> Outcome:
        if self.dislodged(u):
            return HoldDislodged(self.dislodgement(u))
        return Holds(self.hold_strength(u))

    def hold_strength(self, u: int) -> Strength:
        """DATC 5.B.5: a unit that does not move holds with 1 plus its hold supports given."""
        slot = self.p.units[u]
        value = 1 + sum(self.v[("support", s)] for s in slot.hold_supports)
        return Strength(StrengthKind.HOLD, value, self.unit(u), self.parts(slot.hold_supports))

    def dislodging_move(self, u: int) -> int | None:
        if not self.dislodged(u):
            return None
        for m in self.p.moves_into.get(self.p.units[u].province, []):
            if self.v[("move", m)]:
                return m
        return None

    def dislodgement(self, u: int) -> Dislodgement | None:
        """The unit that dislodged u, with its attack strength and the supports that counted."""
        m = self.dislodging_move(u)
        if m is None:
            return None
        move = self.p.moves[m]
        power = self.p.units[u].power
        counted = tuple(self.unit(self.p.supports[s].unit) for s in move.supports
                        if self.v[("support", s)] and self.p.supports[s].power != power)
        return Dislodgement(self.unit(u), self.ref(m), self.s.get(("attack", m)), counted)

    # --- the board after the turn ------------------------------------------------------------
    def dislodged_units(self) -> list[Dislodged]:
        """Every unit dislodged, with its attacker's origin and whether it came by convoy."""
        out = []
        for slot in self.p.units:
            found = self.dislodgement(slot.index)
            if found is not None:
                m = self.dislodging_move(slot.index)
                assert m is not None
                out.append(Dislodged(found.unit, self.p.moves[m].origin, found.by.by_convoy))
        return out

    def standoffs(self, occupied: set[str]) -> frozenset[str]:
        """Areas left empty after the moves into them all failed (no retreat there, DATC
        6.H): a standoff needs two units that could arrive (a lost head-to-head is none, 6.H.9)."""
        out = set()
        for province, ms in self.p.moves_into.items():
            if province in occupied or any(self.v[("move", m)] for m in ms):
                continue
            if sum(1 for m in ms if self.has_path(m)) >= 2:
                out.add(province)
        return frozenset(out)
