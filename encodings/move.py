"""Moves and dislodgement: DATC 5.B.1 and 5.A."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .decisions import DISLODGED, MOVE
from .strength import ZERO, attack_strength, prevent_strength, resisting_strength

if TYPE_CHECKING:
    from .model import Encoding


def define_move(enc: Encoding, m: int) -> bool | None:
    """moves[m] <-> attack strength beats the resistance and every prevent strength (5.B.1)."""
    problem = enc.problem
    move = problem.moves[m]
    occupant = problem.unit_at.get(move.dest)  # the unit in the destination, by index
    terms = enc.strengths  # the move's own strengths, read by this definition only: kept, not memoized
    attack = terms[enc.attack_keys[m]] = attack_strength(enc, m, move, occupant)
    # 5.B.1: the defend strength head to head, else the hold strength (5.B.5: 0 in an empty area)
    resisting = terms[enc.resisting_keys[m]] = ZERO if occupant is None else resisting_strength(enc, m, move, occupant)
    into = problem.moves_into[move.dest]
    if len(into) == 1:  # m alone moves there: only the resistance to beat
        if attack.hi <= resisting.lo:
            return False  # the resistance is surely at least the attack
        if attack.lo > resisting.hi:
            return True  # the attack surely beats it
        open_ = [resisting]
    else:  # 5.B.1: and beat the prevent strength of every other unit moving to the same area
        opponents = [resisting] + [prevent_strength(enc, other) for other in into if other != m]
        open_ = []
        for opponent in opponents:
            if attack.hi <= opponent.lo:
                return False  # some opposing strength is surely at least the attack
            if attack.lo <= opponent.hi:
                open_.append(opponent)
        if not open_:
            return True  # the attack surely beats every opposing strength
    beats = []
    attack_expr = attack.expr
    for i, opponent in enumerate(open_):
        beat = enc.model.new_bool_var(f"beats[{m},{i}]")
        opponent_expr = opponent.expr
        enc.add(attack_expr > opponent_expr).only_enforce_if(beat)
        enc.add(attack_expr <= opponent_expr).only_enforce_if(beat.Not())
        beats.append(beat)
    return enc.iff_and((MOVE, m), beats)


def define_dislodged(enc: Encoding, u: int) -> bool | None:
    """dislodged[u] <-> u does not move away and some move into its area succeeds (5.A)."""
    problem = enc.problem
    cond = enc.cond
    entering = []
    for m in problem.moves_into.get(problem.provinces[u], ()):
        entering.append(cond((MOVE, m)))
    move = problem.unit_moves[u]
    if move is None:
        return enc.iff_or((DISLODGED, u), entering)
    moved = cond((MOVE, move))
    if moved is True:
        return False  # it moved away
    entered = [e for e in entering if e is not False]
    if not entered:
        return False
    if moved is False:  # it stays
        return enc.iff_or((DISLODGED, u), entered)
    stays = moved.Not()
    dislodged = enc.var((DISLODGED, u))
    live = [e for e in entered if e is not True]
    if len(live) < len(entered):  # some move in surely succeeds: dislodged iff it stays
        enc.add(dislodged + enc.var((MOVE, move)) == 1)
        return None
    enc.add_bool_or(live).only_enforce_if(dislodged)
    enc.add_implication(dislodged, stays)
    for e in live:
        enc.add_bool_or([stays.Not(), e.Not(), dislodged])
    return None
