"""The one reader of a solved movement model: every order's outcome as a value.

The solve driver returns the values of the DATC decisions (``move``, ``support``,
``dislodged``, ``path``, ``convoy``: :mod:`dipsat.encodings.decisions`), of the
strengths the model built and the backup rules it applied. This module turns them, with
the prescan's problem, into :mod:`dipsat.outcomes` values: which strengths decided each
move and which supports counted in them, which attacks cut a support, who dislodged
whom, which convoy routes carried, which backup rule settled a paradox. Nothing here
adjudicates: the decisions are read, and the facts defined from them (the route a move
took, head-to-head battles, which attack cuts a support) are read through the
definitions the model was built from (:class:`dipsat.encodings.values.Values`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import compress
from operator import not_
from types import MappingProxyType
from typing import Final, TYPE_CHECKING

from ..board import Location, Unit
from ..state import Dislodged, in_place_order
from ..encodings import Problem
from ..encodings.decisions import (ATTACK, CONVOY, MOVE, PATH, PREVENT, RESISTING, SUPPORT, BackupRule, Decision,
                                  decision_keys)
from ..encodings.options import ConvoyParadox, ModelOptions
from ..encodings.values import Values
from ..outcomes import (AttackNote, Bounced, Later, NoCut, ConvoyDislodged, Convoys, Cut, Cutter, Dislodgement, Given,
                       HoldDislodged, Holds, MoveFacts, MoveRef, Moves, NoPath, Notes, Opposition, Outcome, Paradox,
                       PreventFact, Resistance, Route, Stance, Strength, StrengthKind, SupportDislodged, SupportFailure,
                       SupportPart, UNREAD, ZeroReason)

if TYPE_CHECKING:  # the driver passes its values in; no import at run time
    from .driver import Solved

__all__ = ["Resolution", "RULE_REFS", "CONVOY_RULE_REFS", "ALTERNATIVE_ROUTE_REFS", "PARADOX_RULES"]

RULE_REFS: dict[str, str] = {rule: rule.text for rule in BackupRule}
"""The backup rules of DATC 5.B.9 and 4.A.2 in words, by :class:`BackupRule` (a string enum: the
outcomes that hold a rule's name as a string, e.g. ``Paradox.rule``, find it too)."""

PARADOX_RULES = {BackupRule.ALL_HOLD: "All Hold rule (DATC 4.A.2 d): every move in the paradox fails",
                 BackupRule.DPTG: "DPTG rule (DATC v2.x 4.A.2 f): the resolution in which the paradox's convoys "
                                  "are disrupted"}
"""The outcome's words for the backup rules that decide moves (:attr:`BackupRule.decides_moves`:
their moves' outcome is a :class:`~dipsat.outcomes.Paradox`)."""

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


_NO_BACKUPS: Final[Mapping[Decision, BackupRule]] = MappingProxyType({})
"""The backup rules of a turn that applied none (most): one read-only value, not an empty dict a turn."""

_CONVOYS: Final = Convoys()
"""DATC 5.B.3: a convoy that carries (an outcome with no fields: one value for every such order)."""


class Resolution:
    """The outcomes of one solved movement turn: :meth:`move`, :meth:`support`,
    :meth:`convoy` and :meth:`hold` by the problem's indices, :meth:`dislodgement` by unit.

    What every turn reads is read once, when the resolution is made: whether each move
    succeeded (:attr:`succeeded`) and which move dislodged which unit (:attr:`dislodger`);
    the names of moves and the dislodgements, once each when first asked for."""

    def __init__(self, problem: Problem, solved: Solved, options: ModelOptions, units: Sequence[Unit]) -> None:
        self.p = problem
        self.d = d = Values(problem, options, solved.values)  # the decisions, and the facts defined from them
        self.s = solved.strengths
        self.values = solved.values  # the decisions themselves: what every order reads, read directly
        self.options = options
        self.units = units
        self.backup_keys: Mapping[Decision, BackupRule] = {key: rule for rule, keys in solved.backups
                                                           for key in keys} if solved.backups else _NO_BACKUPS
        moves = range(len(problem.moves))
        self._keys = keys = decision_keys(len(problem.provinces))  # the keys the model kept its decisions under
        self.succeeded: list[bool] = list(map(solved.values.__getitem__, keys[MOVE][:len(moves)]))
        """DATC 5.B.1, by move: the move succeeds (:meth:`Values.moves`, read at once)."""
        self.dislodger: dict[int, int] = {}
        """DATC 5.A: each dislodged unit, and the successful move into its area (the first one)."""
        unit_at, dislodger = problem.unit_at, self.dislodger
        for m in compress(moves, self.succeeded):  # in order: the first successful move into an area
            u = unit_at.get(problem.moves[m].dest)
            if u is not None and u not in dislodger and d.dislodged(u):
                dislodger[u] = m
        self._refs: list[MoveRef | None] = [None] * len(problem.moves)
        self._dislodgements: dict[int, Dislodgement] | None = None  # made when a dislodged unit is first read
        self._supporters: set[int] | None = None
        self._convoyers: set[int] | None = None

    @property
    def supporter(self) -> set[int]:
        """The units ordered to support, made when first asked for (an attribute set by
        hand: a class compiled by mypyc has no instance dict for :class:`~dipsat.frozen.once`)."""
        if self._supporters is None:
            self._supporters = {sup.unit for sup in self.p.supports}
        return self._supporters

    @property
    def convoyer(self) -> set[int]:
        """The units ordered to convoy, made when first asked for."""
        if self._convoyers is None:
            self._convoyers = {con.unit for con in self.p.convoys}
        return self._convoyers

    # --- names and values read off the model --------------------------------------------
    def unit(self, u: int) -> Unit:
        return self.units[u]

    def ref(self, m: int) -> MoveRef:
        ref = self._refs[m]
        if ref is None:
            move = self.p.moves[m]
            ref = self._refs[m] = MoveRef(self.units[move.unit], move.dest, not self.d.by_land(m))
        return ref

    def blocking_occupant(self, m: int) -> int | None:
        """The unit at m's destination that stays to face it (DATC 5.B.8: it does not move
        away, or it meets m head to head), else None."""
        u = self.p.unit_at.get(self.p.moves[m].dest)
        return None if u is None or self.d.vacated(m) else u

    def stance(self, u: int) -> Stance:
        """How a unit that faces an attack stays where it is."""
        move = self.p.unit_moves[u]
        if move is not None:
            return Stance.MOVES_AWAY if self.d.moves(move) else Stance.FAILS_TO_MOVE
        if u in self.supporter:
            return Stance.SUPPORTS
        if u in self.convoyer:
            return Stance.CONVOYS
        return Stance.HOLDS

    # --- strengths ------------------------------------------------------------------------
    def parts(self, supports: Sequence[int], against: int | None = None) -> tuple[SupportPart, ...]:
        """Each support's part: counted, or not and why. `against`: the unit the strength
        attacks, whose own power's supports do not count against it (DATC 5.B.8), also when
        the move is of that power too (its attack strength is then 0 whatever counts)."""
        power = self.p.powers[against] if against is not None else None
        out = []
        for s in supports:
            support = self.p.supports[s]
            supporter = self.unit(support.unit)
            if not self.d.given(s):
                m = self.dislodger.get(support.unit)
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
        return Strength(StrengthKind.ATTACK, self.s.get((ATTACK, m)), self.unit(move.unit),
                        self.parts(move.supports, blocker), self.ref(m))

    def prevent(self, m: int) -> Strength | None:
        value = self.s.get((PREVENT, m))
        if value is None:
            return None
        move = self.p.moves[m]
        return Strength(StrengthKind.PREVENT, value, self.unit(move.unit), self.parts(move.supports), self.ref(m))

    def resistance(self, m: int) -> Resistance:
        move = self.p.moves[m]
        value = self.s.get((RESISTING, m))
        u = self.p.unit_at.get(move.dest)
        if u is None:
            return Resistance()
        occupant_move = self.p.unit_moves[u]
        occupant = self.unit(u)
        if self.d.head_to_head(m):
            assert move.opposite is not None
            opposite = self.p.moves[move.opposite]
            defend = Strength(StrengthKind.DEFEND, value, occupant, self.parts(opposite.supports),
                              self.ref(move.opposite))
            return Resistance(occupant, self.stance(u), defend, self.ref(move.opposite))
        if occupant_move is not None:
            hold = Strength(StrengthKind.HOLD, self.d.hold_strength(move.dest), occupant)
            return Resistance(occupant, self.stance(u), hold, opposite_by_convoy=occupant_move == move.opposite)
        if value is None:
            value = self.d.hold_strength(move.dest)
        hold = Strength(StrengthKind.HOLD, value, occupant, self.parts(self.p.hold_supports[u]))
        return Resistance(occupant, self.stance(u), hold)

    def prevent_fact(self, other: int) -> PreventFact:
        move = self.p.moves[other]
        strength = self.prevent(other)
        ref = self.ref(other)
        if strength is None:
            return PreventFact(ref, None)
        opposite_won = move.opposite is not None and self.d.moves(move.opposite)
        if strength.value == 0 and not self.d.has_path(other):
            return PreventFact(ref, strength, ZeroReason.NO_PATH)
        if strength.value == 0 and opposite_won:
            assert move.opposite is not None
            h2h = self.d.head_to_head(other)
            return PreventFact(ref, strength, ZeroReason.LOST_HEAD_TO_HEAD if h2h else ZeroReason.DISLODGED_FROM_THERE,
                               head_to_head=h2h, beaten_by=self.ref(move.opposite))
        return PreventFact(ref, strength, dislodged_elsewhere=self.d.dislodged(move.unit))

    # --- moves ---------------------------------------------------------------------------
    def move_facts(self, m: int) -> MoveFacts:
        move = self.p.moves[m]
        routes = self.routes(m) if move.convoyed else None
        prevents = tuple(self.prevent_fact(other) for other in self.p.moves_into[move.dest] if other != m)
        blocker = self.blocking_occupant(m)
        own = blocker is not None and self.p.powers[blocker] == move.power
        return MoveFacts(self.ref(m), self.attack(m), self.resistance(m), prevents, routes,
                         self.backup_keys.get((MOVE, m)), self.dislodgement(move.unit),
                         self.prevent(m) if own else None)

    def move(self, m: int) -> Outcome:
        # the facts are read when asked for (results codes need none of them): by this reader
        if self.succeeded[m]:
            return Moves(UNREAD, self, m)
        move = self.p.moves[m]
        backup_keys = self.backup_keys
        rule = (backup_keys.get((MOVE, m)) or backup_keys.get((PATH, m))) if backup_keys else None
        if rule is not None and rule.decides_moves:
            return Paradox(rule, PARADOX_RULES[rule], Later(Resolution.move_facts, self, m))
        if move.convoyed and not move.fallback and not self.d.path(m):  # convoy only: no convoy route
            convoys = [(CONVOY, c) for route in move.routes for c in route]
            paradox = next((backup_keys[k] for k in convoys if k in backup_keys), None)
            if paradox is not None:  # its convoy was cancelled by the backup rule
                return Paradox(paradox, f"its convoy is cancelled by the {paradox.capitalize()} rule: the "
                                        f"convoying fleets of the paradox hold (DATC 4.A.2, 5.B.9)",
                               Later(Resolution.move_facts, self, m))
            return NoPath(UNREAD, self, m)
        return Bounced(UNREAD, UNREAD, self, m)

    def culprits(self, m: int) -> tuple[Opposition, ...]:
        """The opposing strengths that stopped move m, each naming its unit."""
        move = self.p.moves[m]
        attack = self.s.get((ATTACK, m))
        if attack is None:  # settled by a backup rule; its strengths were not needed
            return ()
        blocker = self.blocking_occupant(m)
        if blocker is not None and self.p.powers[blocker] == move.power:
            return (Opposition(None, self.unit(blocker), stance=self.stance(blocker),
                               head_to_head=self.d.head_to_head(m), own_unit=True),)
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
                if not self.d.convoys(c):
                    d = self.dislodger.get(self.p.convoys[c].unit)
                    failed.append((self.unit(self.p.convoys[c].unit),
                                   self.unit(self.p.moves[d].unit) if d is not None else None))
            out.append(Route(fleets, not failed, tuple(failed)))
        return tuple(out)

    # --- supports -------------------------------------------------------------------------
    def cutters(self, s: int) -> tuple[Cutter, ...]:
        """The attacks that cut support s (DATC 5.B.2, as the model defines it)."""
        support = self.p.supports[s]
        return tuple(Cutter(self.ref(m), self.d.dislodged(self.p.moves[m].unit))
                     for m in self.p.moves_into.get(support.province, []) if self.d.cuts(m, s))

    def attack_notes(self, s: int) -> tuple[AttackNote, ...]:
        """The attacks on a supporting unit that did not cut its support, and why."""
        support = self.p.supports[s]
        attacks = self.p.moves_into.get(support.province)
        if not attacks:
            return ()
        rule = self.options.convoy_paradox.rulebook_rule
        notes = []
        for m in attacks:
            attack = self.p.moves[m]
            ref = self.ref(m)
            if attack.power == support.power:
                notes.append(AttackNote(ref, NoCut.SAME_POWER))
            elif self.d.protected(m, s):
                fleets = tuple(sorted({self.unit(self.p.convoys[c].unit) for route in attack.routes for c in route
                                       if self.p.convoys[c].province == support.target}))
                notes.append(AttackNote(ref, NoCut.PROTECTED, fleets, CONVOY_RULE_REFS[rule] if rule else None))
            elif (support.move is not None and attack.origin == support.target and not self.d.moves(m)
                  and not self.d.cuts(m, s)):
                notes.append(AttackNote(ref, NoCut.FROM_TARGET))
            elif not self.d.has_path(m):
                notes.append(AttackNote(ref, NoCut.NO_PATH))
            elif self.d.cuts(m, s) and support.move is not None and rule is not None:
                free = [r for r in attack.routes if all(self.p.convoys[c].province != support.target for c in r)]
                if free and len(free) < len(attack.routes):
                    notes.append(AttackNote(ref, NoCut.UNPROTECTED_ROUTE,
                                            tuple(self.unit(self.p.convoys[c].unit) for c in free[0]),
                                            ALTERNATIVE_ROUTE_REFS.get(rule), target=support.target))
        return tuple(notes)

    def support(self, s: int) -> Outcome:
        p = self.p
        support = p.supports[s]
        # most are not attacked; the notes are read when asked for (result codes need none), by
        # this reader (attack_notes), as the supported move's name is (supported_move)
        notes: Notes = UNREAD if support.province in p.moves_into else ()
        m = support.move
        supported: MoveRef | None = None
        held = support.target if m is None else None
        if m is not None:  # the move's name, made once a turn: when first asked for
            supported = self._refs[m] or UNREAD
        if self.values[self._keys[SUPPORT][s]]:  # DATC 5.B.2: given (Values.given)
            if m is not None:
                occupant = p.unit_at.get(p.moves[m].dest)
                if occupant is not None and p.powers[occupant] == support.power:
                    blocker = self.blocking_occupant(m)  # DATC 5.B.8: its own power's unit stays
                    if blocker is not None:
                        rivals = tuple(self.ref(o) for o in p.moves_into[support.target] if o != m)
                        return Given(supported, held, self.unit(blocker), rivals, None, notes, self, s)
            if support.unit in self.dislodger:
                return Given(supported, held, None, (), self.dislodgement(support.unit), notes, self, s)
            return Given(supported, held, None, (), None, notes, self, s)
        m = self.dislodger.get(support.unit)
        if m is not None:
            from_target = support.move is not None and self.p.moves[m].origin == support.target
            return SupportDislodged(self.dislodgement(support.unit), from_target, notes, self, s)
        return Cut(self.cutters(s), notes, self, s)

    def supported_move(self, s: int) -> MoveRef:
        """The move support s supports, named (a support to move's)."""
        m = self.p.supports[s].move
        assert m is not None  # asked only of a support to move
        return self.ref(m)

    # --- convoys, holds, dislodgements ------------------------------------------------------
    def convoy(self, c: int) -> Outcome:
        convoy = self.p.convoys[c]
        rule = self.backup_keys.get((CONVOY, c)) if self.backup_keys else None
        if rule is not None:
            # the rule cancels the convoy; the fleet itself may still be attacked and dislodged
            attacks = tuple(self.ref(m) for m in self.p.moves_into.get(self.p.provinces[convoy.unit], []))
            return Paradox(rule, "the convoy is part of a paradox; Szykman rule (DATC 4.A.2, 5.B.9)"
                           if rule is BackupRule.SZYKMAN else rule.text, attacked_by=attacks,
                           hold=self.hold_strength(convoy.unit), dislodged_by=self.dislodgement(convoy.unit))
        if self.values[self._keys[CONVOY][c]]:  # DATC 5.B.3: it carries (Values.convoys)
            return _CONVOYS
        return ConvoyDislodged(self.dislodgement(convoy.unit))

    def hold(self, u: int) -> Outcome:
        if u in self.dislodger:
            return HoldDislodged(self.dislodgement(u))
        return Holds(UNREAD, self, u)  # read when asked for, as a move's facts

    def hold_strength(self, u: int) -> Strength:
        """DATC 5.B.5: a unit that does not move holds with 1 plus its hold supports given."""
        return Strength(StrengthKind.HOLD, self.d.hold_strength(self.p.provinces[u]), self.unit(u),
                        self.parts(self.p.hold_supports[u]))

    def dislodgement(self, u: int) -> Dislodgement | None:
        """The unit that dislodged u, with its attack strength and the supports that counted."""
        m = self.dislodger.get(u)
        if m is None:
            return None
        made = self._dislodgements
        if made is None:
            made = self._dislodgements = {}
        found = made.get(u)
        if found is None:
            move = self.p.moves[m]
            power = self.p.powers[u]
            counted = tuple(self.unit(self.p.supports[s].unit) for s in move.supports
                            if self.d.given(s) and self.p.supports[s].power != power)
            found = made[u] = Dislodgement(self.unit(u), self.ref(m), self.s.get((ATTACK, m)),
                                                          counted)
        return found

    # --- the board after the turn ------------------------------------------------------------
    def dislodged_units(self) -> tuple[Dislodged, ...]:
        """Every unit dislodged, with its attacker's origin and whether it came by convoy; in
        the units' order (a state's: by place)."""
        if not self.dislodger:  # most turns
            return ()
        return tuple([Dislodged(self.units[u], self.p.moves[m].origin, self.ref(m).by_convoy)
                      for u, m in sorted(self.dislodger.items())])

    def units_after(self, dest_of: Sequence[Location]) -> tuple[Unit, ...]:
        """The units after the turn, in place order (as a state keeps them): each successful
        move's unit in its destination (`dest_of`: each move's exact one), a dislodged unit
        gone (DATC 5.A), the others where they stood."""
        units, moves, dislodger = self.units, self.p.moves, self.dislodger
        after = list(units)  # an unmoved unit is the same value
        for m in compress(range(len(moves)), self.succeeded):
            move = moves[m]
            unit = units[move.unit]
            after[move.unit] = Unit(unit.power, unit.kind, dest_of[m])
        if dislodger:
            after = [unit for u, unit in enumerate(after) if u not in dislodger]
        # one unit an area before the turn, one after it (a board not checked may hold two)
        return in_place_order(after, one_an_area=len(self.p.unit_at) == len(units))

    def standoffs(self) -> frozenset[str]:
        """Areas left empty after the moves into them all failed (no retreat there, DATC
        6.H): a standoff needs two units that could arrive (a lost head-to-head is none, 6.H.9).
        An area no move entered holds its unit after the turn unless that unit moved away."""
        moves, moves_into, moved = self.p.moves, self.p.moves_into, self.succeeded.__getitem__
        bounced = {moves[m].dest for m in compress(range(len(moves)), map(not_, self.succeeded))}  # a few areas
        if not bounced:
            return frozenset()
        return frozenset(province for province in bounced if len(moves_into[province]) >= 2
                         and not any(map(moved, moves_into[province])) and self._left_empty(province)
                         and sum(1 for m in moves_into[province] if self.d.has_path(m)) >= 2)

    def _left_empty(self, province: str) -> bool:
        """Is an area no move entered empty after the turn (empty before, or its unit moved away)?"""
        u = self.p.unit_at.get(province)
        if u is None:
            return True
        move = self.p.unit_moves[u]
        return move is not None and self.succeeded[move]
