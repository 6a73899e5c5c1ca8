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
from typing import TYPE_CHECKING, NamedTuple

from .decisions import HEAD_TO_HEAD, MOVE, PATH, PREVENT, SUPPORT
from .literals import Condition, Reads, negate
from .options import DislodgedUnitEffect

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    from .model import Encoding
    from .problem import MoveOrder


class Term(NamedTuple):
    """A strength: ``const + sum(coef * variable)``, with its bounds given what is
    already fixed. The CP-SAT expression is made only when a constraint needs it."""

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


def _constant(value: int) -> Term:
    return _CONSTANTS[value] if value < _MADE else Term(value, value, value)


_MADE = 36
_CONSTANTS = tuple(Term(v, v, v) for v in range(_MADE))
"""The constant strengths up to 1 + 34 supports, made once: most strengths fold to one (immutable values)."""
_ZERO, _ONE = _CONSTANTS[0], _CONSTANTS[1]


def _count(enc: Reads, supports: Iterable[int]) -> Term:
    """1 + the number of these supports that are given (their SUPPORT decisions hold)."""
    lo = hi = 1
    coefs = []
    for s in supports:
        c = enc.cond((SUPPORT, s))
        if c is True:
            lo, hi = lo + 1, hi + 1
        elif c is not False:
            hi += 1
            coefs.append((c, 1))
    return Term(lo, hi, lo, tuple(coefs)) if coefs else _constant(lo)


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
    if u is None:
        return True
    occupant = enc.problem.units[u]
    if occupant.move is None:
        return False
    h2h = head_to_head(enc, m) if occupant.move == move.opposite else False
    return enc.both(negate(h2h), enc.cond((MOVE, occupant.move)))


def hold_strength(enc: Reads, province: str) -> Term:
    """DATC 5.B.5: 0 if empty or its unit moves away, 1 if its move fails, else 1 + hold supports."""
    u = enc.problem.unit_at.get(province)
    if u is None:
        return _ZERO  # empty area
    unit = enc.problem.units[u]
    if unit.move is not None:
        moved = enc.cond((MOVE, unit.move))  # moved away: 0; failed move: 1
        if moved is True:
            return _ZERO
        if moved is False:
            return _ONE
        return Term(0, 1, 1, ((moved, -1),))
    return _count(enc, unit.hold_supports) if unit.hold_supports else _ONE


def defend_strength(enc: Encoding, m: int) -> Term:
    """DATC 5.B.7: 1 + successful supports of the move."""
    return _supports(enc, enc.problem.moves[m])


def resisting_strength(enc: Encoding, m: int) -> Term:
    """5.B.1: the defend strength of a head-to-head opponent, else the area's hold strength.

    Read once, by move m's own definition (which keeps it in the Encoding's strengths)."""
    move = enc.problem.moves[m]
    if move.opposite is None:
        return hold_strength(enc, move.dest)  # no head-to-head battle
    h2h = head_to_head(enc, m)
    hold = hold_strength(enc, move.dest)
    defend = defend_strength(enc, move.opposite)
    if isinstance(h2h, bool):
        return defend if h2h else hold
    return _cases(enc, "resisting_strength", m, [([negate(h2h)], hold), ([h2h], defend)])


def prevent_strength(enc: Encoding, m: int) -> Term:
    """DATC 5.B.6: 0 without PATH, 0 after losing a head-to-head battle, else 1 + supports.

    Under DATC 4.A.7 a, a unit dislodged from the area it moves to prevents
    nothing there even without a head-to-head battle."""
    return enc.memo((PREVENT, m), _prevent_strength, enc, m)


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
        return _constant(0)
    live = [z for z in zero_if if z is not False]
    if not live:
        return _supports(enc, move)
    full = _supports(enc, move)
    var = enc.model.new_int_var(0, full.hi, f"prevent_strength[{m}]")
    for z in live:
        enc.add(var == 0).only_enforce_if(z)
    enc.add(var == full.expr).only_enforce_if([negate(z) for z in live])
    return _variable(var, 0, full.hi)


def attack_strength(enc: Encoding, m: int) -> Term:
    """DATC 5.B.8: 0 without PATH; full support if the destination is empty or
    emptied (no head-to-head); 0 against a unit of the same power; else 1 +
    supports of powers other than the defender's.

    Read once, by move m's own definition (which keeps it in the Encoding's strengths)."""
    problem = enc.problem
    move = problem.moves[m]
    path = has_path(enc, m)
    u = problem.unit_at.get(move.dest)
    if u is None:  # the destination is empty
        full = _supports(enc, move)
        if path is True:
            return full
        return _cases(enc, "attack_strength", m, [([negate(path)], _ZERO), ([path], full)])  # 5.B.8: no PATH: 0
    occupant = problem.units[u]
    # 5.B.8: against another power's unit, its power's supports do not count.
    against = None if occupant.power == move.power else occupant.power
    full, others = _supports_against(enc, move, against)
    # 5.B.8: a unit never attacks its own power's unit.
    blocked = _ZERO if occupant.power == move.power else others
    emptied = vacated(enc, m)
    if path is True and isinstance(emptied, bool):
        return full if emptied else blocked
    cases: list[tuple[list[Condition], Term]] = [([negate(path)], _ZERO)]  # 5.B.8: no PATH
    if emptied is not False:
        cases.append(([path, emptied], full))  # its unit moves away
    if emptied is not True:
        cases.append(([path, negate(emptied)], blocked))  # it stays: it holds, fails to move or meets m head to head
    return _cases(enc, "attack_strength", m, cases)
