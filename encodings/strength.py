"""Strengths of DATC 5.B.5-5.B.8: hold, attack, defend and prevent strength.

Each is an integer expression of the decisions ``support_given``, ``moves`` and
``path``; integer variables are made only where a strength has cases.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from .model import Encoding

Strength = cp_model.LinearExprT


def _supports(enc: Encoding, m: int, excluded_power: str | None = None) -> Strength:
    """Number of successful supports of move m, not counting `excluded_power`'s."""
    move = enc.problem.moves[m]
    return sum(enc.lit(("support", s)) for s in move.supports
               if excluded_power is None or enc.problem.supports[s].power != excluded_power)


def _cases(enc: Encoding, name: str, upper: int, cases: list[tuple[list, Strength]]) -> Strength:
    """An integer equal to the value of the first case whose literals all hold.

    `cases` must be exhaustive and mutually exclusive (each lists its literals).
    """
    if len(cases) == 1 and not cases[0][0]:
        return cases[0][1]
    var = enc.model.new_int_var(0, upper, name)
    for literals, value in cases:
        enc.model.add(var == value).only_enforce_if(literals)
    return var


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


def prevent_strength(enc: Encoding, m: int) -> Strength:
    """DATC 5.B.6: 0 without PATH, 0 after losing... to a successful head-to-head opponent, else 1 + supports."""
    key = ("prevent", m)
    if key not in enc.cache:
        move = enc.problem.moves[m]
        zero_if = []
        if move.convoyed:
            zero_if.append(enc.lit(("path", m)).Not())  # 5.B.6: PATH fails
        if move.opposing is not None:
            zero_if.append(enc.lit(("move", move.opposing)))  # 5.B.6: head-to-head lost
        full = 1 + _supports(enc, m)
        cases = [([lit], 0) for lit in zero_if] + [([lit.Not() for lit in zero_if], full)]
        enc.cache[key] = _cases(enc, f"prevent_strength[{m}]", 1 + len(move.supports), cases)
    return enc.cache[key]


def attack_strength(enc: Encoding, m: int) -> Strength:
    """DATC 5.B.8: 0 without PATH; full support if the destination is empty or
    emptied (no head-to-head); 0 against a unit of the same power; else 1 +
    supports of powers other than the defender's."""
    key = ("attack", m)
    if key in enc.cache:
        return enc.cache[key]
    move = enc.problem.moves[m]
    full = 1 + _supports(enc, m)
    guard = [enc.lit(("path", m))] if move.convoyed else []
    cases: list[tuple[list, Strength]] = [([guard[0].Not()], 0)] if guard else []
    u = enc.problem.unit_at.get(move.dest)
    if u is None:
        cases.append((guard, full))  # destination empty
    else:
        occupant = enc.problem.units[u]
        # 5.B.8: a unit never attacks its own power's unit; others' supports count.
        blocked: Strength = 0 if occupant.power == move.power else 1 + _supports(enc, m, occupant.power)
        if occupant.move is not None and occupant.move != move.opposing:
            leaves = enc.lit(("move", occupant.move))  # no head-to-head: it may move away
            cases.append((guard + [leaves], full))
            cases.append((guard + [leaves.Not()], blocked))
        else:
            cases.append((guard, blocked))
    strength = _cases(enc, f"attack_strength[{m}]", 1 + len(move.supports), cases)
    enc.cache[key] = strength
    return strength
