"""Explanations of a result in words (``--explain``), printed from its outcome values.

Every fact comes from the :mod:`dipsat.outcomes` value of each order, which the
resolution module (:mod:`dipsat.movement.resolution`) read off the solved model: which
supports counted, who cut which support, which convoy routes were alive, which rule
settled a cycle. Nothing here adjudicates again or reads the model: it only says
the values in words.

A failed move names its culprits (the opposing strengths at least its attack):
a *standoff* when the strengths are equal (the rulebook's "Pattsituation"), else
the unit that beat it; a move against a unit of its own power names that rule
(DATC 5.B.8). A dislodged unit names its dislodger, with the supports that counted.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import assert_never

from ..board import Unit
from ..orders import Build, UnitRef
from ..outcomes import (AttackNote, Bounced, BuildRefused, Built, ConvoyDislodged, Convoys, Cut, Cutter, Disbands,
                        Dislodgement, Given, HoldDislodged, Holds, Illegal, MoveFacts, Moves, NoBuildsLeft, NoCut,
                        NoPath, NoRemovalsLeft, Opposition, Paradox, PreventFact, Removed, Resistance, RetreatBounced,
                        RetreatRefused, Retreats, Route, Stance, Succeeds, SupportDislodged, SupportFailure,
                        SupportPart, TieBreak, Void, Waived, ZeroReason)
from ..movement.resolution import RULE_REFS
from ..results import OrderResult, PhaseResult
from ..rules import CivilDisorderRemoval, ConvoyParadox, Rules

__all__ = ["explain", "explain_order", "explain_disorder", "OWN_UNIT", "OWN_SUPPORT"]

OWN_UNIT = "DATC 5.B.8; rulebook: a power cannot dislodge its own unit"
OWN_SUPPORT = "DATC 5.B.8; rulebook: a power cannot support an attack on its own unit"


def _name(unit: Unit) -> str:
    return f"{unit.kind} {unit.location}"


def explain(result: PhaseResult, only: Collection[int] | None = None) -> list[list[str]]:
    """For each order (in input order), its decisive facts in plain words, and the DATC 4.C
    rule that read it when it names the wrong unit type (or builds another than it names).
    `only`: the orders to explain (by index), the others are left without facts (a passage of
    the rulebook one of them quotes is cited by those after it all the same)."""
    out: list[list[str]] = []
    quoted: set[str] = set()  # each passage of the rulebook in full once, then cited
    results, rules = result.results, result.rules
    last = len(results) - 1 if only is None else max(only, default=-1)  # (none after it matters)
    # an order not asked for counts only by the passages it quotes first: read where one asked for quotes
    quoting = only is None or any(_rulebook_keys(results[k], rules) for k in only if k < len(results))
    for k, r in enumerate(results):
        if k > last:
            out.append([])
            continue
        if only is not None and k not in only:
            if quoting:
                _quote(_rulebook_keys(r, rules), quoted)
            out.append([])
            continue
        words = _quote(_rulebook_keys(r, rules), quoted)
        facts = explain_order(r)
        if isinstance(r.outcome, Paradox) and r.outcome.dislodged_by is not None and r.unit is not None:
            facts.append(_retreats(r, result))
        facts += words
        note = _designation_read(r, result.rules)
        out.append(facts + [note] if note else facts)
    return out


def explain_disorder(result: PhaseResult) -> list[list[str]]:
    """For each unit removed in civil disorder: why it went (:func:`dipsat.report.disorder_facts`)
    and, where the 2000 rulebook's reading broke a tie by name, that rulebook's words (once)."""
    from ..report import disorder_facts
    from .rulebook import quote

    out = []
    quoted = False
    for d in result.civil_disorder:
        facts = disorder_facts(d)
        if d.names and d.tie_break is TieBreak.ALPHABETICAL and d.reading is CivilDisorderRemoval.R2000:
            passage = quote("civil_disorder_order")
            facts += [f"{passage} (quoted above)"] if quoted else passage.lines()
            quoted = True
        out.append(facts)
    return out


def _rulebook_keys(r: OrderResult, rules: Rules) -> list[str]:
    """The passages of the 2000 rulebook whose rules decided the order (:func:`_quote` gives
    their words): its convoy rules (rules 21 and 22, when the rules read DATC 4.A.2 as that
    rulebook does) and, under the 2000 profile, the rotation of figure 7."""
    keys = []
    o = r.outcome
    if rules.convoy_paradox.rulebook_rule is ConvoyParadox.R2000 and rules.profile_name != "2023":  # its own book
        attacks = o.attacks if isinstance(o, (Given, Cut, SupportDislodged)) else ()
        kept = isinstance(o, Given) and o.kept_though_dislodged is not None
        if any(a.why is NoCut.PROTECTED for a in attacks) or kept:
            keys.append("convoyed_attack")
        if any(a.why is NoCut.UNPROTECTED_ROUTE for a in attacks):
            keys.append("alternative_route")
    facts = o.facts if isinstance(o, (Moves, Bounced, NoPath, Paradox)) else None
    if rules.profile_name == "2000" and facts is not None and facts.backup == "circular movement":
        keys.append("rotation")
    return keys


def _quote(keys: list[str], quoted: set[str]) -> list[str]:
    """The rulebook's text of the passages `keys`; a passage `quoted` already is cited, not repeated."""
    if not keys:  # (most orders)
        return []
    from .rulebook import quote

    out = []
    for key in keys:
        passage = quote(key)
        out += [f"{passage} (quoted above)"] if key in quoted else passage.lines()
        quoted.add(key)
    return out


def _designation_read(r: OrderResult, rules: Rules) -> str:
    """An order carried out although it names another unit type than the unit's (DATC
    4.C.2), or a build of another type than it names (4.C.3, 4.C.4): which rule read it.
    Failed and illegal orders say so in their own reason."""
    from ..movement.legality import designation_note

    if isinstance(r.outcome, Illegal):
        return ""
    if isinstance(r.order, Build):
        built = r.outcome.unit if isinstance(r.outcome, Built) else None
        if built is None or built.kind is r.order.kind:
            return ""
        if r.order.kind is None:
            return f"the order names no unit type: {built.kind} {built.location} is built (DATC 4.C.3 " \
                   f"{rules.choice('4.C.3')})"
        return f"the order says {r.order.kind}, {built.kind} {built.location} is built (DATC 4.C.4 " \
               f"{rules.choice('4.C.4')})"
    written = getattr(r.order, "unit", None)
    if r.unit is None or not isinstance(written, UnitRef) or written.kind is None or written.kind is r.unit.kind:
        return ""
    return designation_note(written, r.unit, rules)


def explain_order(r: OrderResult) -> list[str]:
    """One order's decisive facts, from its outcome."""
    o = r.outcome
    match o:
        case Moves() | Bounced() | NoPath():
            return _move(o)
        case Paradox():
            if o.facts is not None:  # a move
                return _move(o)
            return [f"fails: {RULE_REFS.get(o.rule, o.text)}", *_paradox_fleet(r.unit, o)]
        case Given() | Cut() | SupportDislodged():
            return _support(o)
        case Convoys():
            return ["succeeds: the fleet is not dislodged (DATC 5.B.3)"]
        case ConvoyDislodged():
            return [f"fails (DATC 5.B.3): dislodged by {_dislodger(o.by)}"]
        case HoldDislodged():
            return [f"dislodged by {_dislodger(o.by)}"]
        case Holds():
            facts = ["holds"]
            if o.hold is not None and o.hold.supports:
                facts.append(_supports_line(o.hold.supports, "hold supports"))
            return facts
        case Retreats():
            return [f"succeeds: retreats to {o.to}"]
        case Disbands():
            return ["succeeds: the unit is disbanded as ordered"]
        case RetreatBounced():
            others = ", ".join(_name(u) for u in o.others)
            return [f"fails: {o.detail}" + (f" (also {others}; DATC 6.H.7)" if others else " (DATC 6.H.7)")]
        case RetreatRefused():
            return [f"illegal ({o.refused.value}): {o.text}"]  # disbanded or not: the report lists the disbanded units
        case BuildRefused():
            return [f"illegal ({o.refused.value}): {o.text}"]
        case Built():
            return [f"succeeds: builds {o.unit.kind} {o.unit.location}" if o.unit else "succeeds"]
        case Waived():
            return ["succeeds: a build waived (DATC 4.D.7 a)"]
        case Removed():
            return ["succeeds: removed as ordered"]
        case Illegal() | Void() | NoBuildsLeft() | NoRemovalsLeft():
            return [f"{o.code}: {o.detail}"]
        case Succeeds():
            return ["succeeds" + (f": {o.detail}" if o.detail else "")]
        case _:
            assert_never(o)


def _paradox_fleet(unit: Unit | None, o: Paradox) -> list[str]:
    """What happened to a convoying fleet whose convoy a backup rule cancelled: the rule
    says only that it does not convoy; it may still be attacked and dislodged."""
    if unit is None or o.hold is None:
        return []
    name = _name(unit)
    facts = [f"{name} is attacked by {', '.join(map(str, o.attacked_by))}" if o.attacked_by
             else f"{name} is not attacked"]
    facts.append(f"{name} stays in place: hold strength {o.hold.value}; "
                 + _supports_line(o.hold.supports, "hold supports"))
    facts.append(f"{name} is dislodged by {_dislodger(o.dislodged_by)} (DATC 5.A)" if o.dislodged_by is not None
                 else f"{name} is not dislodged")
    return facts


def _retreats(r: OrderResult, result: PhaseResult) -> str:
    """Where a dislodged unit may retreat (DATC 4.A.5, 6.H), or that it is disbanded at once."""
    assert r.unit is not None
    options = result.retreat_options.get(r.unit, ())
    if not options:
        return f"{_name(r.unit)} has no retreat: it is disbanded"
    return f"{_name(r.unit)} may retreat to " + ", ".join(sorted(map(str, options)))


def _compare(opposing: int, attack: int) -> str:
    return f"= attack strength {attack}" if opposing == attack else f"> attack strength {attack}"


# --- strengths ------------------------------------------------------------------------------


def _part_failure(part: SupportPart) -> str:
    if part.failure is SupportFailure.DISLODGED:
        return f"dislodged by {_name(part.by[0].move.unit)}" if part.by else "dislodged"
    return _cut_text(part.by)


def _cut_text(cutters: tuple[Cutter, ...]) -> str:
    texts = []
    for c in cutters:
        text = f"{_name(c.move.unit)} from {c.move.unit.province}" + (" by convoy" if c.move.by_convoy else "")
        if c.dislodged:
            text += ", which is dislodged but still cuts"
        texts.append(text)
    return "cut by " + ", ".join(texts) if texts else "cut"


def _supports_line(parts: tuple[SupportPart, ...], what: str, against: Unit | None = None) -> str:
    """Supports that counted, and why the others did not."""
    counted = [_name(p.supporter) for p in parts if p.counted]
    discounted = [p for p in parts if p.failure is SupportFailure.AGAINST_OWN_UNIT]
    failed = [f"{_name(p.supporter)} ({_part_failure(p)})" for p in parts
              if not p.counted and p.failure is not SupportFailure.AGAINST_OWN_UNIT]
    text = f"{what}: " + (", ".join(counted) if counted else "none")
    if discounted and against is not None:
        text += (f"; not counted against {_name(against)}, a unit of {discounted[0].power}: "
                 f"{', '.join(_name(p.supporter) for p in discounted)} ({OWN_SUPPORT})")
    return text + (f"; not counted: {', '.join(failed)}" if failed else "")


def _dislodger(d: Dislodgement | None) -> str:
    """The unit that dislodged a unit, with its attack strength and the supports that counted."""
    if d is None:
        return "?"
    notes = ["by convoy"] if d.by.by_convoy else []
    if d.attack is not None:
        notes.append(f"attack strength {d.attack}")
    if d.supports:
        notes.append("supports: " + ", ".join(_name(u) for u in d.supports))
    return _name(d.by.unit) + (f" ({'; '.join(notes)})" if notes else "")


# --- moves ---------------------------------------------------------------------------------


def _move(o: Moves | Bounced | NoPath | Paradox) -> list[str]:
    f = o.facts
    assert f is not None
    facts = []
    if f.routes is not None:
        facts.append(_routes(f.routes))
    attack = f.attack
    against = None
    if attack is not None:
        against = next((p for p in attack.supports if p.failure is SupportFailure.AGAINST_OWN_UNIT), None)
    strength = f"attack strength {attack.value}; " if attack is not None and attack.value is not None else ""
    occupant = f.resistance.occupant
    facts.append(strength + _supports_line(attack.supports if attack else (), "supports",
                                           occupant if against is not None else None))
    facts.append(_resistance(f))
    if f.keeps_out is not None and f.keeps_out.value is not None:  # DATC 5.B.8, rulebook figure 26
        facts.append(f"it still keeps others out: prevent strength {f.keeps_out.value}; "
                     + _supports_line(f.keeps_out.supports, "supports"))
    for p in f.prevents:
        facts.append(_prevent_line(p))
    if f.backup is not None:
        facts.append(RULE_REFS[f.backup])
    if f.dislodged_by is not None:
        facts.append(f"{_name(f.move.unit)} is dislodged by {_dislodger(f.dislodged_by)}")
    match o:
        case Moves():
            facts.insert(0, "succeeds (DATC 5.B.1: attack beats every opposing strength)")
        case Paradox():
            facts.insert(0, f"fails: {o.text}")
        case NoPath():
            facts.insert(0, "fails: no convoy route (DATC 5.B.4); attack strength 0")
        case Bounced():
            culprits = _culprits(o.by, attack.value if attack is not None and attack.value is not None else 0)
            facts.insert(0, "fails: bounced (DATC 5.B.1): " + "; ".join(culprits) if culprits else
                         "fails: bounced (DATC 5.B.1: some opposing strength is at least the attack)")
        case _:
            assert_never(o)
    return facts


def _culprits(by: tuple[Opposition, ...], attack: int) -> list[str]:
    out = []
    for c in by:
        assert c.against is not None
        if c.own_unit:
            how = "meets it head to head" if c.head_to_head else str(c.stance)
            out.append(f"cannot dislodge {_name(c.against)}, a unit of its own power, which {how}: "
                       f"attack strength 0 ({OWN_UNIT})")
            continue
        assert c.strength is not None and c.strength.value is not None
        value = c.strength.value
        if c.head_to_head:
            if value == attack:
                out.append(f"standoff in a head-to-head battle with {c.move} "
                           f"(defend strength {value} = attack strength {attack}; units cannot "
                           f"swap places without a convoy, DATC 5.B.1, 5.B.7)")
            else:
                out.append(f"lost the head-to-head battle with {c.move} "
                           f"(defend strength {value} > attack strength {attack}, DATC 5.B.7)")
        elif c.move is None:
            relation = "standoff with" if value == attack else "held off by"
            out.append(f"{relation} {_name(c.against)}, which {c.stance} "
                       f"(hold strength {value} {_compare(value, attack)}, DATC 5.B.5)")
        else:
            relation = "standoff with" if value == attack else "outmatched by"
            out.append(f"{relation} {c.move} (prevent strength {value} {_compare(value, attack)}, DATC 5.B.6)")
    return out


def _resistance(f: MoveFacts) -> str:
    r: Resistance = f.resistance
    if r.occupant is None:
        return f"{f.move.dest} is empty: hold strength 0"
    strength = r.strength
    assert strength is not None
    if r.head_to_head is not None:
        return (f"head-to-head battle with {r.head_to_head}: defend strength {strength.value}; "
                + _supports_line(strength.supports, "its supports"))
    if r.stance in (Stance.MOVES_AWAY, Stance.FAILS_TO_MOVE):
        how = str(r.stance)
        if r.opposite_by_convoy:
            how += " (one of the two goes by convoy: no head-to-head battle, DATC 5.B.1)"
        return f"{_name(r.occupant)} {how}: hold strength {strength.value}"
    return (f"{_name(r.occupant)} {r.stance}: hold strength {strength.value}; "
            + _supports_line(strength.supports, "hold supports"))


def _prevent_line(p: PreventFact) -> str:
    if p.strength is None:
        return f"{p.move} also moves there"
    text = f"prevent strength {p.strength.value} of {p.move}"
    if p.zero is ZeroReason.NO_PATH:
        return text + " (no convoy route, DATC 5.B.6)"
    if p.zero in (ZeroReason.LOST_HEAD_TO_HEAD, ZeroReason.DISLODGED_FROM_THERE):
        rule = "DATC 5.B.6" if p.head_to_head else "DATC 4.A.7 a"
        return (text + f" ({_name(p.move.unit)} is dislodged by {p.beaten_by}, which comes from there: a dislodged "
                f"unit has no effect on the area its attacker came from, {rule})")
    if p.dislodged_elsewhere:
        return text + (f" ({_name(p.move.unit)} is dislodged but still has its prevent strength here: it is not "
                       f"dislodged from this area, DATC 5.B.6)")
    return text


def _routes(routes: tuple[Route, ...]) -> str:
    if not routes:
        return "no convoy route was ordered"
    parts = []
    for route in routes:
        failed = dict(route.failed)
        marks = []
        for fleet in route.fleets:
            if fleet not in failed:
                marks.append(_name(fleet))
            elif failed[fleet] is not None:
                marks.append(f"{_name(fleet)} (fails: dislodged by {_name(failed[fleet])})")  # type: ignore[arg-type]
            else:
                marks.append(f"{_name(fleet)} (fails)")
        parts.append(f"[{', '.join(marks)}] " + ("carries" if route.carries else "broken"))
    return "convoy routes: " + "; ".join(parts)


# --- supports ---------------------------------------------------------------------------------


def _support(o: Given | Cut | SupportDislodged) -> list[str]:
    match o:
        case Given():
            if o.not_counted_against is not None:
                facts = [f"succeeds: the support is not cut (DATC 5.B.2), but it does not count against "
                         f"{_name(o.not_counted_against)}, a unit of its own power ({OWN_SUPPORT})"]
                if o.rivals:
                    facts.append(f"it still adds to the prevent strength of {o.supported} "
                                 f"against {', '.join(str(r) for r in o.rivals)} (DATC 5.B.6)")
            elif o.kept_though_dislodged is not None:
                kept = o.kept_though_dislodged
                facts = [f"succeeds: {_what(o)} counts though {_name(kept.unit)} is dislodged by {_dislodger(kept)}: "
                         f"the rulebook's convoy rule takes precedence over the dislodgement (DATC 4.A.2, 6.F.17)"]
            else:
                facts = [f"succeeds: {_what(o)} counts (DATC 5.B.2: not cut, not dislodged)"]
        case SupportDislodged():
            d = o.by
            facts = [f"fails: dislodged by {_name(d.by.unit) if d else '?'} (DATC 5.B.2)"]
            if d is not None:
                facts.append(f"{_name(d.unit)} is dislodged by {_dislodger(d)}")
                if o.from_target:
                    facts.append(f"the attack comes from {d.by.unit.province}, the area the support is aimed at, "
                                 f"but a dislodged unit's support fails all the same (DATC 5.B.2)")
        case Cut():
            facts = [f"fails: {_cut_text(o.by)} (DATC 5.B.2)"]
        case _:
            assert_never(o)
    return facts + [_attack_note(a) for a in o.attacks]


def _what(o: Given) -> str:
    return f"support for {o.supported}" if o.supported is not None else f"support to hold {o.held}"


def _attack_note(a: AttackNote) -> str:
    who = _name(a.move.unit)
    match a.why:
        case NoCut.SAME_POWER:
            return f"{who} is of the same power and does not cut it"
        case NoCut.PROTECTED:
            return (f"{who} comes by convoy through {', '.join(_name(f) for f in a.fleets)}, the fleet this support "
                    f"attacks: no cut ({a.rule})")
        case NoCut.FROM_TARGET:
            return f"{who} attacks from {a.move.unit.province}, the area the support is aimed at: no cut (DATC 5.B.2)"
        case NoCut.NO_PATH:
            return f"{who} comes by convoy and has no convoy route: no cut (DATC 5.B.2)"
        case NoCut.UNPROTECTED_ROUTE:
            fleets = ", ".join(_name(f) for f in a.fleets)
            return (f"{who} comes by convoy and has a route that does not need the fleet in {a.target} "
                    f"(through {fleets}): the convoy rule does not protect the support, and it is cut "
                    f"(DATC 4.A.2, 6.F.19" + (f"; {a.rule})" if a.rule else ")"))
        case _:
            assert_never(a.why)
