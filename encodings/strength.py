"""Strengths of DATC 5.B.5-5.B.8: hold, attack, defend and prevent strength.

Each strength is a :class:`Term`: an integer expression of the decisions
``support_given``, ``moves`` and ``path`` together with its bounds given what is
already fixed, so a move whose attack surely beats (or surely loses to) every
opposing strength is settled without encoding the comparison. Whether two
opposite moves meet head to head depends on both going over land, which a land
fallback (DATC 4.A.3 options) makes a decision too: :func:`head_to_head`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, TYPE_CHECKING

from .decisions import HEAD_TO_HEAD, MOVE, PATH, SUPPORT
from .literals import Condition, Reads, negate
from .options import DislodgedUnitEffect

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    from .model import Encoding
    from .problem import MoveOrder


@dataclass(frozen=True, slots=True)
class Term:
    """A strength: ``const + sum(coef * variable)``, with its bounds given what is
    already fixed. The CP-SAT expression is made only when a constraint needs it.
    (Slotted: a definition reads the bounds of several terms, and a slot is read in
    one step where a named tuple's field goes through the generic attribute lookup.)"""

    lo: int
    hi: int
    const: int = 0
    coefs: tuple[tuple[cp_model.IntVar, int], ...] = ()

    @property
    def expr(self) -> cp_model.LinearExprT:
        if not self.coefs:
            return self.const
        from .phase_model import LinearExpr  # loaded already: the coefficients are its variables

        return LinearExpr.weighted_sum([v for v, _ in self.coefs], [c for _, c in self.coefs]) + self.const

    def value(self, solution: Sequence[int]) -> int:
        if not self.coefs:  # most terms fold to a constant
            return self.const
        return self.const + sum(coef * solution[var.index] for var, coef in self.coefs)


_MADE: Final = 36
_CONSTANTS: Final = tuple(Term(v, v, v) for v in range(_MADE))
"""The constant strengths up to 1 + 34 supports, made once: most strengths fold to one (immutable values)."""
_ZERO: Final = _CONSTANTS[0]
_ONE: Final = _CONSTANTS[1]
ZERO = _ZERO
"""The strength 0 (DATC 5.B.5: the hold strength of an empty area)."""


def _count(enc: Reads, supports: Iterable[int]) -> Term:
    """1 + the number of these supports that are given (their SUPPORT decisions hold)."""
    lo = hi = 1
    coefs = []
    cond = enc.cond
    for s in supports:
        c = cond((SUPPORT, s))
        if c is True:
            lo, hi = lo + 1, hi + 1
        elif c is not False:
            hi += 1
            coefs.append((c, 1))
    if coefs:
        return Term(lo, hi, lo, tuple(coefs))
    return _CONSTANTS[lo] if lo < _MADE else Term(lo, lo, lo)


def _supports(enc: Encoding, move: MoveOrder) -> Term:
    """1 + successful supports of the move."""
    supports = move.supports
    return _count(enc, supports) if supports else _ONE


def _supports_against(enc: Encoding, move: MoveOrder, power: str | None) -> tuple[Term, Term]:
    """1 + successful supports of the move: all of them, and those not of `power` (each read once)."""
    supports = move.supports
    if not supports:
        return _ONE, _ONE
    full = _count(enc, supports)
    if power is None or all(enc.problem.supports[s].power != power for s in supports):
        return full, full
    return full, _count(enc, [s for s in supports if enc.problem.supports[s].power != power])


def _cases(enc: Encoding, kind: str, m: int, cases: list[tuple[list[Condition], Term]]) -> Term:
    """The term of the case whose conditions all hold (cases exhaustive and exclusive).

    Constant conditions are folded: a False condition drops its case, True ones are
    left out; a single remaining case is the answer."""
    live: list[tuple[list[Condition], Term]] = []
    for conds, term in cases:
        kept: list[Condition] = []
        for c in conds:
            if c is False:
                break  # the case cannot hold
            if c is not True:
                kept.append(c)
        else:
            live.append((kept, term))
    if len(live) == 1:
        return live[0][1]
    lo, hi = min(t.lo for _, t in live), max(t.hi for _, t in live)
    var = enc.model.new_int_var(lo, hi, f"{kind}[{m}]")
    for literals, term in live:
        enc.add(var == term.expr).only_enforce_if(literals)
    return _variable(var, lo, hi)


def _variable(var: cp_model.IntVar, lo: int, hi: int) -> Term:
    return Term(lo, hi, 0, ((var, 1),))


def by_land(enc: Reads, m: int) -> Condition:
    """Does move m go over land? (convoy-only: never; with a fallback: when PATH fails)."""
    move = enc.problem.moves[m]
    if move.land_only:
        return True
    if move.convoy_only:
        return False
    return negate(enc.cond((PATH, m)))  # 4.A.3: the land route when no convoy route is alive


def has_path(enc: Reads, m: int) -> Condition:
    """5.B.4 PATH of move m (a land route, or a land fallback, always has one)."""
    move = enc.problem.moves[m]
    if move.convoyed and not move.fallback:  # convoy only (read without the property: every move asks)
        return enc.cond((PATH, m))
    return True


def head_to_head(enc: Reads, m: int) -> Condition:
    """5.B.1: m and the opposite move meet head to head when both go over land."""
    opposite = enc.problem.moves[m].opposite
    if opposite is None:
        return False
    return enc.memo((HEAD_TO_HEAD, m), lambda: enc.both(by_land(enc, m), by_land(enc, opposite)))


def vacated(enc: Reads, m: int) -> Condition:
    """DATC 5.B.8: the destination of move m is empty, or its unit moves away without
    meeting m head to head (else it stays to face m: its power's supports do not count)."""
    move = enc.problem.moves[m]
    u = enc.problem.unit_at.get(move.dest)
    return True if u is None else _vacated(enc, m, move, u)


def _vacated(enc: Reads, m: int, move: MoveOrder, occupant: int) -> Condition:
    """:func:`vacated` of move m, whose destination holds unit `occupant` (by index)."""
    moves = enc.problem.unit_moves[occupant]
    if moves is None:
        return False
    if moves == move.opposite:
        h2h = head_to_head(enc, m)
        if h2h is not False:
            return enc.both(negate(h2h), enc.cond((MOVE, moves)))
    return enc.cond((MOVE, moves))  # no head-to-head battle: it is gone if it moves


def hold_strength(enc: Reads, province: str) -> Term:
    """DATC 5.B.5: 0 if empty or its unit moves away, 1 if its move fails, else 1 + hold supports."""
    u = enc.problem.unit_at.get(province)
    return _ZERO if u is None else _hold_strength(enc, u)  # empty area: 0


def _hold_strength(enc: Reads, u: int) -> Term:
    """:func:`hold_strength` of the area unit `u` (by index) stands in."""
    move = enc.problem.unit_moves[u]
    if move is not None:
        moved = enc.cond((MOVE, move))  # moved away: 0; failed move: 1
        if moved is True:
            return _ZERO
        if moved is False:
            return _ONE
        return Term(0, 1, 1, ((moved, -1),))
    supports = enc.problem.hold_supports[u]
    return _count(enc, supports) if supports else _ONE


def defend_strength(enc: Encoding, m: int) -> Term:
    """DATC 5.B.7: 1 + successful supports of the move."""
    return _supports(enc, enc.problem.moves[m])


def resisting_strength(enc: Encoding, m: int, move: MoveOrder, occupant: int) -> Term:
    """5.B.1: the defend strength of a head-to-head opponent, else the hold strength of the
    area unit `occupant` (by index) stands in (an empty area's is :data:`ZERO`, 5.B.5).

    Read once, by move m's own definition (which keeps it in the Encoding's strengths)."""
    if move.opposite is None:
        return _hold_strength(enc, occupant)  # no head-to-head battle
    h2h = head_to_head(enc, m)
    hold = _hold_strength(enc, occupant)
    defend = defend_strength(enc, move.opposite)
    if isinstance(h2h, bool):
        return defend if h2h else hold
    return _cases(enc, "resisting_strength", m, [([negate(h2h)], hold), ([h2h], defend)])


def prevent_strength(enc: Encoding, m: int) -> Term:
    """DATC 5.B.6: 0 without PATH, 0 after losing a head-to-head battle, else 1 + supports.

    Under DATC 4.A.7 a, a unit dislodged from the area it moves to prevents
    nothing there even without a head-to-head battle."""
    return enc.memo(enc.prevent_keys[m], _prevent_strength, enc, m)


def _prevent_strength(enc: Encoding, m: int) -> Term:
    move = enc.problem.moves[m]
    zero_if: list[Condition] = [negate(has_path(enc, m))]  # 5.B.6: PATH fails
    if move.opposite is not None:
        beaten = enc.cond((MOVE, move.opposite))
        if enc.options.dislodged_unit_effect is DislodgedUnitEffect.NEVER:
            # 4.A.7 a: a *dislodged* unit has no effect on the area its attacker came from,
            # by any route: the opposite move succeeds and this one fails (a unit that
            # moved away, e.g. in a convoyed swap, is not dislodged and still prevents).
            zero_if.append(enc.both(beaten, negate(enc.cond((MOVE, m)))))
        else:
            zero_if.append(enc.both(head_to_head(enc, m), beaten))  # 5.B.6: head-to-head lost
    if any(z is True for z in zero_if):
        return _ZERO
    live = [z for z in zero_if if z is not False]
    if not live:
        return _supports(enc, move)
    full = _supports(enc, move)
    var = enc.model.new_int_var(0, full.hi, f"prevent_strength[{m}]")
    for z in live:
        enc.add(var == 0).only_enforce_if(z)
    enc.add(var == full.expr).only_enforce_if([negate(z) for z in live])
    return _variable(var, 0, full.hi)


def attack_strength(enc: Encoding, m: int, move: MoveOrder, occupant: int | None) -> Term:
    """DATC 5.B.8: 0 without PATH; full support if the destination is empty or
    emptied (no head-to-head); 0 against a unit of the same power; else 1 +
    supports of powers other than the defender's (`occupant`: the index of the unit in move
    m's destination, if any).

    Read once, by move m's own definition (which keeps it in the Encoding's strengths)."""
    path = has_path(enc, m) if move.convoyed else True  # a land route always has one (has_path)
    if occupant is None:  # the destination is empty
        supports = move.supports
        full = _count(enc, supports) if supports else _ONE
        if path is True:
            return full
        return _cases(enc, "attack_strength", m, [([negate(path)], _ZERO), ([path], full)])  # 5.B.8: no PATH: 0
    # 5.B.8: against another power's unit, its power's supports do not count.
    power = enc.problem.powers[occupant]
    own = power == move.power
    full, others = _supports_against(enc, move, None if own else power) if move.supports else (_ONE, _ONE)
    # 5.B.8: a unit never attacks its own power's unit.
    blocked = _ZERO if own else others
    emptied = _vacated(enc, m, move, occupant)
    if path is True and isinstance(emptied, bool):
        return full if emptied else blocked
    cases: list[tuple[list[Condition], Term]] = [([negate(path)], _ZERO)]  # 5.B.8: no PATH
    if emptied is not False:
        cases.append(([path, emptied], full))  # its unit moves away
    if emptied is not True:
        cases.append(([path, negate(emptied)], blocked))  # it stays: it holds, fails to move or meets m head to head
    return _cases(enc, "attack_strength", m, cases)
