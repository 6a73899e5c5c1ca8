"""Strengths of DATC 5.B.5-5.B.8: hold, attack, defend and prevent strength.

Each is an integer expression of the decisions ``support_given``, ``moves`` and
``path``; integer variables are made only where a strength has cases. Whether
two opposite moves meet head to head depends on both going over land, which a
land fallback (DATC 4.A.3 options) makes a decision too: :func:`head_to_head`.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from .model import Encoding

Strength = cp_model.LinearExprT
Condition = bool | cp_model.IntVar  # a constant or a literal


def _supports(enc: Encoding, m: int, excluded_power: str | None = None) -> Strength:
    """Number of successful supports of move m, not counting `excluded_power`'s."""
    move = enc.problem.moves[m]
    return sum(enc.lit(("support", s)) for s in move.supports
               if excluded_power is None or enc.problem.supports[s].power != excluded_power)


def _cases(enc: Encoding, name: str, upper: int, cases: list[tuple[list[Condition], Strength]]) -> Strength:
    """An integer equal to the value of the case whose conditions all hold.

    Cases must be exhaustive and mutually exclusive; constant conditions are
    folded (a False condition drops its case, True ones are left out).
    """
    live = [([c for c in conds if c is not True], value) for conds, value in cases
            if not any(c is False for c in conds)]
    if len(live) == 1:
        return live[0][1]
    var = enc.model.new_int_var(0, upper, name)
    for literals, value in live:
        enc.model.add(var == value).only_enforce_if(literals)
    return var


def negate(c: Condition) -> Condition:
    return (not c) if isinstance(c, bool) else c.Not()


def by_land(enc: Encoding, m: int) -> Condition:
    """Does move m go over land? (convoy-only: never; with a fallback: when PATH fails)."""
    move = enc.problem.moves[m]
    if move.land_only:
        return True
    if move.convoy_only:
        return False
    return enc.lit(("path", m)).Not()  # 4.A.3: the land route when no convoy route is alive


def has_path(enc: Encoding, m: int) -> Condition:
    """5.B.4 PATH of move m (a land route, or a land fallback, always has one)."""
    if not enc.problem.moves[m].convoy_only:
        return True
    return enc.lit(("path", m))


def both(enc: Encoding, a: Condition, b: Condition) -> Condition:
    """a AND b as a condition (a literal is made only when both are literals)."""
    if a is False or b is False:
        return False
    if a is True:
        return b
    if b is True:
        return a
    var = enc.model.new_bool_var("and")
    enc.iff_and(var, [a, b])
    return var


def head_to_head(enc: Encoding, m: int) -> Condition:
    """5.B.1: m and the opposite move meet head to head when both go over land."""
    move = enc.problem.moves[m]
    if move.opposite is None:
        return False
    return enc.memo(("h2h", m), lambda: both(enc, by_land(enc, m), by_land(enc, move.opposite)))


def hold_strength(enc: Encoding, province: str) -> Strength:
    """DATC 5.B.5: 0 if empty or its unit moves away, 1 if its move fails, else 1 + hold supports."""
    u = enc.problem.unit_at.get(province)
    if u is None:
        return 0  # empty area
    unit = enc.problem.units[u]
    if unit.move is not None:
        return 1 - enc.lit(("move", unit.move))  # moved away: 0; failed move: 1
    return 1 + sum(enc.lit(("support", s)) for s in unit.hold_supports)


def defend_strength(enc: Encoding, m: int) -> Strength:
    """DATC 5.B.7: 1 + successful supports of the move."""
    return 1 + _supports(enc, m)


def resisting_strength(enc: Encoding, m: int) -> Strength:
    """5.B.1: the defend strength of a head-to-head opponent, else the area's hold strength."""
    move = enc.problem.moves[m]
    h2h = head_to_head(enc, m)
    cases: list[tuple[list[Condition], Strength]] = [([negate(h2h)], hold_strength(enc, move.dest))]
    if move.opposite is not None:
        cases.append(([h2h], defend_strength(enc, move.opposite)))
    upper = 1 + max(len(enc.problem.supports), 1)
    return enc.memo(("resisting", m), lambda: _cases(enc, f"resisting_strength[{m}]", upper, cases))


def prevent_strength(enc: Encoding, m: int) -> Strength:
    """DATC 5.B.6: 0 without PATH, 0 after losing a head-to-head battle, else 1 + supports.

    Under DATC 4.A.7 a, a unit dislodged from the area it moves to prevents
    nothing there even without a head-to-head battle."""
    return enc.memo(("prevent", m), lambda: _prevent_strength(enc, m))


def _prevent_strength(enc: Encoding, m: int) -> Strength:
    move = enc.problem.moves[m]
    zero_if: list[Condition] = [negate(has_path(enc, m))]  # 5.B.6: PATH fails
    if move.opposite is not None:
        beaten = enc.lit(("move", move.opposite))
        if enc.rules.choice("4.A.7") == "a":
            zero_if.append(beaten)  # 4.A.7 a: dislodged from there, by any route
        else:
            zero_if.append(both(enc, head_to_head(enc, m), beaten))  # 5.B.6: head-to-head lost
    zero_if = [z for z in zero_if if z is not False]
    if any(z is True for z in zero_if):
        return 0
    if not zero_if:
        return 1 + _supports(enc, m)
    var = enc.model.new_int_var(0, 1 + len(move.supports), f"prevent_strength[{m}]")
    for z in zero_if:
        enc.model.add(var == 0).only_enforce_if(z)
    enc.model.add(var == 1 + _supports(enc, m)).only_enforce_if([negate(z) for z in zero_if])
    return var


def attack_strength(enc: Encoding, m: int) -> Strength:
    """DATC 5.B.8: 0 without PATH; full support if the destination is empty or
    emptied (no head-to-head); 0 against a unit of the same power; else 1 +
    supports of powers other than the defender's."""
    return enc.memo(("attack", m), lambda: _attack_strength(enc, m))


def _attack_strength(enc: Encoding, m: int) -> Strength:
    move = enc.problem.moves[m]
    path = has_path(enc, m)
    full = 1 + _supports(enc, m)
    cases: list[tuple[list[Condition], Strength]] = [([negate(path)], 0)]  # 5.B.8: no PATH
    u = enc.problem.unit_at.get(move.dest)
    if u is None:
        cases.append(([path], full))  # destination empty
    else:
        occupant = enc.problem.units[u]
        # 5.B.8: a unit never attacks its own power's unit; others' supports count.
        blocked: Strength = 0 if occupant.power == move.power else 1 + _supports(enc, m, occupant.power)
        if occupant.move is None:
            cases.append(([path], blocked))
        else:
            h2h = head_to_head(enc, m) if occupant.move == move.opposite else False
            leaves = enc.lit(("move", occupant.move))
            cases.append(([path, h2h], blocked))  # head-to-head: it stays to fight
            cases.append(([path, negate(h2h), leaves], full))  # it moves away
            cases.append(([path, negate(h2h), leaves.Not()], blocked))
    return _cases(enc, f"attack_strength[{m}]", 1 + len(move.supports), cases)
