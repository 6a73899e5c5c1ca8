"""The outcome values of :mod:`dipsat.outcomes` as JSON (the ``outcome`` of each order and the
``civil_disorder`` entries of a ``result`` document, docs/json.md).

Each outcome's ``kind`` comes from :data:`KINDS`, a table (not the class names): renaming a
class never changes a document. A unit is written one way throughout, as in every dipsat JSON
document, by :func:`unit_json` (``{"power": "England", "kind": "F", "location": "lon"}``); a move
as its order (``England: F lon - nth``).
"""

from __future__ import annotations

from typing import assert_never

from ..board import Unit
from ..facts import AttackNote, Dislodgement, MoveFacts, Opposition, Strength
from ..outcomes import (Bounced, BuildRefused, Built, ConvoyDislodged, Convoys, Cut, Disbands, DisorderRemoval, Given,
                        HoldDislodged, Holds, Illegal, Moves, NoBuildsLeft, NoPath, NoRemovalsLeft, Outcome,
                        OutcomeBase, Paradox, Removed, RetreatBounced, RetreatCode, RetreatRefused, Retreats,
                        Succeeds, SupportDislodged, Void, Waived)

__all__ = ["KINDS", "outcome_json", "disorder_json", "unit_json"]

KINDS: dict[type[OutcomeBase], str] = {
    Succeeds: "succeeds", Illegal: "illegal", RetreatRefused: "illegal", BuildRefused: "illegal", Void: "void",
    Moves: "moves", Bounced: "bounced", NoPath: "no_path", Paradox: "paradox", Given: "given", Cut: "cut",
    SupportDislodged: "dislodged", Convoys: "convoys", ConvoyDislodged: "dislodged", Holds: "holds",
    HoldDislodged: "dislodged", Retreats: "retreats", Disbands: "disbands", RetreatBounced: "retreat_bounced",
    Built: "built", NoBuildsLeft: "no_builds_left", Removed: "removed", NoRemovalsLeft: "no_removals_left",
    Waived: "waived",
}
"""The JSON ``kind`` of each outcome class (docs/json.md lists them)."""


def unit_json(unit: Unit) -> dict[str, str]:
    """A unit as every dipsat JSON document writes it: its power, kind and location."""
    return {"power": unit.power, "kind": unit.kind.value, "location": str(unit.location)}


def _maybe_unit(unit: Unit | None) -> dict[str, str] | None:
    return unit_json(unit) if unit is not None else None


def outcome_json(outcome: Outcome) -> dict[str, object]:
    """One order's outcome as JSON: its ``kind`` and the facts that decided it."""
    kind = KINDS[type(outcome)]
    match outcome:
        case Succeeds() | Convoys() | Disbands() | NoBuildsLeft() | Removed() | NoRemovalsLeft() | Waived():
            return {"kind": kind}
        case RetreatRefused():
            return {"kind": kind, "code": outcome.why.value, "retreat": outcome.refused.value}
        case BuildRefused():
            return {"kind": kind, "code": outcome.why.value, "build": outcome.refused.value}
        case Illegal() | Void():
            return {"kind": kind, "code": outcome.why.value}
        case Moves() | NoPath():
            return _move_json(kind, outcome.facts)
        case Bounced():
            return {**_move_json(kind, outcome.facts), "by": [_opposition_json(o) for o in outcome.by]}
        case Paradox():
            out = {**_move_json(kind, outcome.facts), "rule": outcome.rule, "text": outcome.text}
            if outcome.hold is not None:  # a convoy: what happened to the fleet
                out["attacked_by"] = [m.order for m in outcome.attacked_by]
                out["hold"] = _strength_json(outcome.hold)
                out["dislodged_by"] = _dislodgement_json(outcome.dislodged_by)
            return out
        case Given():
            given: dict[str, object] = {"kind": kind, "supported": outcome.supported.order if outcome.supported else None,
                                        "held": outcome.held, "attacks": [_attack_json(a) for a in outcome.attacks]}
            if outcome.not_counted_against is not None:  # DATC 5.B.8
                given["not_counted_against"] = unit_json(outcome.not_counted_against)
                given["still_prevents"] = [r.order for r in outcome.rivals]
            if outcome.kept_though_dislodged is not None:  # DATC 4.A.2, 6.F.17
                given["kept_though_dislodged"] = _dislodgement_json(outcome.kept_though_dislodged)
            return given
        case Cut():
            return {"kind": kind, "by": [c.move.order for c in outcome.by],
                    "attacks": [_attack_json(a) for a in outcome.attacks]}
        case SupportDislodged() | ConvoyDislodged() | HoldDislodged():
            return {"kind": kind, "by": _dislodgement_json(outcome.by)}
        case Holds():
            return {"kind": kind, "hold": _strength_json(outcome.hold) if outcome.hold is not None else None}
        case Retreats():
            return {"kind": kind, "to": str(outcome.to) if outcome.to is not None else None}
        case RetreatBounced():
            return {"kind": kind, "code": RetreatCode.CONTESTED.value, "area": outcome.area,
                    "others": [unit_json(u) for u in outcome.others]}
        case Built():
            return {"kind": kind, "unit": _maybe_unit(outcome.unit)}
        case _:
            assert_never(outcome)


def disorder_json(d: DisorderRemoval) -> dict[str, object]:
    """A unit removed in civil disorder (DATC 4.D.8): its distance, the reading and the tie-break."""
    out: dict[str, object] = {"unit": unit_json(d.unit), "distance": d.distance, "reading": d.reading.key,
                              "tie_break": d.tie_break.value,
                              "kept": [{"unit": unit_json(u), "distance": n} for u, n in d.others]}
    if d.names:
        out["names"] = list(d.names)
    return out


def _strength_json(s: Strength) -> dict[str, object]:
    return {"kind": s.kind.value, "value": s.value, "unit": unit_json(s.unit), "order": s.move.order if s.move else None,
            "supports": [unit_json(p.supporter) for p in s.supports if p.counted],
            "not_counted": [{"unit": unit_json(p.supporter), "why": p.failure.value if p.failure else None,
                             "by": [c.move.order for c in p.by]} for p in s.supports if not p.counted]}


def _dislodgement_json(d: Dislodgement | None) -> dict[str, object] | None:
    if d is None:
        return None
    return {"unit": unit_json(d.unit), "by": d.by.order, "by_convoy": d.by.by_convoy, "attack": d.attack,
            "supports": [unit_json(u) for u in d.supports]}


def _opposition_json(o: Opposition) -> dict[str, object]:
    return {"strength": _strength_json(o.strength) if o.strength else None,
            "unit": _maybe_unit(o.against), "order": o.move.order if o.move else None,
            "head_to_head": o.head_to_head, "own_unit": o.own_unit}


def _move_json(kind: str, facts: MoveFacts | None) -> dict[str, object]:
    out: dict[str, object] = {"kind": kind}
    if facts is None:
        return out
    out["attack"] = _strength_json(facts.attack) if facts.attack else None
    resistance = facts.resistance
    if resistance.strength is None:  # an empty area
        out["resistance"] = {"kind": "hold", "value": 0, "unit": None, "order": None, "supports": [], "not_counted": [],
                             "head_to_head": None}
    else:
        # the occupant's own strength (hold, or defend in a head-to-head battle), so its
        # "unit" is the occupant (movement/resolution.py builds it so)
        out["resistance"] = {**_strength_json(resistance.strength),
                             "head_to_head": resistance.head_to_head.order if resistance.head_to_head else None}
    out["prevent"] = [{"order": p.move.order, "value": p.strength.value if p.strength else None,
                       "zero": p.zero.value if p.zero else None} for p in facts.prevents]
    if facts.routes is not None:
        out["routes"] = [{"fleets": [unit_json(f) for f in r.fleets], "carries": r.carries} for r in facts.routes]
    if facts.backup:
        out["backup_rule"] = facts.backup
    if facts.dislodged_by:
        out["dislodged_by"] = _dislodgement_json(facts.dislodged_by)
    if facts.keeps_out is not None:
        out["keeps_out"] = _strength_json(facts.keeps_out)
    return out


def _attack_json(note: AttackNote) -> dict[str, object]:
    return {"order": note.move.order, "no_cut": note.why.value}
