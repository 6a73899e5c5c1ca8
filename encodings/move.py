"""Moves and dislodgement: DATC 5.B.1 and 5.A."""

from __future__ import annotations

from .model import Encoding
from .strength import attack_strength, prevent_strength, resisting_strength


def define_move(enc: Encoding, m: int) -> None:
    """moves[m] <-> attack strength beats the resistance and every prevent strength (5.B.1)."""
    move = enc.problem.moves[m]
    attack = attack_strength(enc, m)
    opponents = [resisting_strength(enc, m)]  # 5.B.1: defend strength head to head, else hold strength
    # 5.B.1: and beat the prevent strength of every other unit moving to the same area
    opponents += [prevent_strength(enc, other) for other in enc.problem.moves_into[move.dest] if other != m]
    beats = []
    for i, opponent in enumerate(opponents):
        beat = enc.model.new_bool_var(f"beats[{m},{i}]")
        enc.model.add(attack > opponent).only_enforce_if(beat)
        enc.model.add(attack <= opponent).only_enforce_if(beat.Not())
        beats.append(beat)
    enc.iff_and(enc.lit(("move", m)), beats)


def define_dislodged(enc: Encoding, u: int) -> None:
    """dislodged[u] <-> u does not move away and some move into its area succeeds (5.A)."""
    unit = enc.problem.units[u]
    dislodged = enc.lit(("dislodged", u))
    entering = [enc.lit(("move", m)) for m in enc.problem.moves_into.get(unit.province, [])]
    if unit.move is None:
        enc.iff_or(dislodged, entering)
        return
    stays = enc.lit(("move", unit.move)).Not()
    enc.model.add_bool_or(entering).only_enforce_if(dislodged)
    enc.model.add_implication(dislodged, stays)
    for entered in entering:
        enc.model.add_bool_or([stays.Not(), entered.Not(), dislodged])
