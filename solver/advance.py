"""Retreat orders given in advance, with the movement orders (seed 001, section 10a).

A movement order file may carry, besides the movement orders, lines like::

    Austria: A boh R gal, sil, mun               ranked: the first possible one is taken
    Austria: A boh R gal if dislodged by Russia  only when the dislodging unit is Russian
    France: F bre R eng or pic or gas
    France: A par R disband                      disband rather than retreat
    Austria: retreats centres first, then alphabetical   the power's fallback

A unit's conditional lines whose power dislodged it are tried first, then its other
lines, each group in the order given; the first destination that is a possible retreat (adjacent, empty,
not the attacker's origin, not left empty by a standoff) is ordered. When none is, the
power's fallback orders every possible retreat by its keys (``centres``: supply centres
first; ``alphabetical``: by the area's name); without a fallback the unit is disbanded
(seed 001, 10b: "keine oder keine gültigen Rückzugsbefehle" = disband). The retreats so
chosen are then adjudicated as usual: several units retreating to one area are all
disbanded (10c). A retreat order may depend only on who dislodges the unit, never on
other units' retreats ("if Russia retreats to Warsaw ..."): such lines are rejected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .board import Location, PhaseKind, Power
from .errors import NotationError
from .maps import Variant, fold
from .notation import format_order, parse_order, power_header
from .orders import Disband, Order, Retreat, UnitRef
from .phases import retreat_options
from .rules import Rules
from .state import Dislodged, State

__all__ = ["AdvanceRetreats", "RetreatPlan", "split_advance"]

_RETREAT_WORD = re.compile(r"(?i)(?:^|\s)(?:r|retreats?(?:\s+to)?|rückzug(?:\s+nach)?|ruckzug(?:\s+nach)?)(?=\s|$)")
_DISBAND = {"disband", "disbands", "d", "auflösen", "auflosen"}
_CONDITION = re.compile(r"(?i)\s+(?:if|falls|wenn)\s+(?:dislodged|attacked|vertrieben|angegriffen)\s+(?:by|von|durch)\s+(.+?)\s*$")
_OTHER_IF = re.compile(r"(?i)(?:^|\s)(?:if|falls|wenn|when|unless)(?:\s|$)")
_FALLBACK = re.compile(r"(?i)^\s*(?:retreats?|rückzüge|ruckzuge)\s*:?\s+(.+)$")
_SPLIT = re.compile(r"(?i)\s*,\s*|\s+or\s+|\s+oder\s+|\s+then\s+|\s+dann\s+")


@dataclass(frozen=True)
class RetreatPlan:
    """One line: a unit's ranked retreats (None: disband), maybe only for one attacker."""

    power: Power | None
    unit: UnitRef
    dests: tuple[Location | None, ...]
    attacker: Power | None
    text: str


@dataclass
class AdvanceRetreats:
    """Every advance retreat line of one movement order file."""

    plans: list[RetreatPlan] = field(default_factory=list)
    fallbacks: dict[Power, tuple[str, ...]] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    """The lines as given (kept in the game file)."""

    def __bool__(self) -> bool:
        return bool(self.plans or self.fallbacks)

    def powers(self, state: State) -> set[Power]:
        """The powers that gave advance retreat orders; `state`: the movement phase."""
        out = set(self.fallbacks)
        for plan in self.plans:
            unit = state.unit_at(plan.unit.province)
            power = plan.power or (unit.power if unit else None)
            if power is not None:
                out.add(power)
        return out

    def covered(self, state: State) -> set[Power]:
        """The powers of `state`'s dislodged units that gave advance retreat orders:
        their retreats are settled from them; `state`: the retreat phase."""
        named = set(self.fallbacks)
        for plan in self.plans:
            if plan.power is not None:
                named.add(plan.power)
            else:
                named |= {d.unit.power for d in state.dislodged if d.unit.province == plan.unit.province}
        return {d.unit.power for d in state.dislodged} & named

    def orders_for(self, state: State, powers: set[Power], rules: Rules) -> list[Order]:
        """The retreat orders these lines give for the dislodged units of `powers` in
        `state` (a retreat phase), one per unit, in the order of the units."""
        out: list[Order] = []
        for d in state.dislodged:
            power = d.unit.power
            if power not in powers:
                continue
            options = retreat_options(state, d, rules)
            choice = self._choose(state, d, options)
            ref = UnitRef(d.unit.location, d.unit.kind)
            out.append(Disband(ref, power) if choice is None else Retreat(ref, choice, power))
        return out

    def _choose(self, state: State, d: Dislodged, options: tuple[Location, ...]) -> Location | None:
        attacker = state.unit_at(d.unit.province)
        by = attacker.power if attacker is not None else None
        specific_first = sorted(self.plans, key=lambda p: p.attacker is None)  # stable: order given
        for plan in specific_first:
            if plan.unit.province != d.unit.province or plan.power not in (None, d.unit.power):
                continue
            if plan.attacker is not None and plan.attacker != by:
                continue
            for dest in plan.dests:
                if dest is None:
                    return None  # disband, as ordered
                matching = [o for o in options if o.province == dest.province]
                exact = [o for o in matching if o == dest]
                if exact or len(matching) == 1:
                    return (exact or matching)[0]
        keys = self.fallbacks.get(d.unit.power)
        if not keys or not options:
            return None
        the_map = state.map

        def rank(loc: Location) -> tuple[bool | str, ...]:
            out: list[bool | str] = []
            for key in keys:
                if key == "centres":
                    out.append(not the_map.provinces[loc.province].centre)
                elif key == "alphabetical":
                    out.append(fold(the_map.location_title(loc)))
            return (*out, fold(the_map.location_title(loc)))

        return sorted(options, key=rank)[0]


def split_advance(text: str, variant: Variant) -> tuple[str, AdvanceRetreats, list[tuple[int, str]]]:
    """Separate the advance retreat lines of a movement order file from the rest.

    Returns the remaining text (the advance lines made comments, so line numbers stay), the
    advance orders, and ``(line number, message)`` for every advance line rejected. A
    power's name alone on a line applies to the lines under it, as in order lists."""
    advance = AdvanceRetreats()
    errors: list[tuple[int, str]] = []
    kept: list[str] = []
    header: Power | None = None  # a power's name alone on a line: its orders follow (dipsat.notation)
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not raw.strip():
            header = None
        try:
            header = power_header(line, variant) or header
        except NotationError:  # a misspelt power's name: the order lists report it
            header = None
        power, body = _prefix(line, variant)
        power = power or header
        fallback = _FALLBACK.match(body) if body else None
        if not body or not (fallback or _RETREAT_WORD.search(body) or _disband_line(body)):
            kept.append(raw)
            continue
        kept.append("#")  # a comment: the line numbers stay, and a power's block goes on
        try:
            if fallback:
                if power is None:
                    raise ValueError("a retreat fallback names its power: 'Austria: retreats centres first, "
                                     "then alphabetical'")
                advance.fallbacks[power] = _fallback_keys(fallback.group(1))
            else:
                advance.plans.append(_plan(line, power, body, variant))
            advance.lines.append(line)
        except (ValueError, NotationError) as exc:
            errors.append((number, str(exc) if isinstance(exc, NotationError) else f"{line!r}: {exc}"))
    return "\n".join(kept) + ("\n" if text.endswith("\n") else ""), advance, errors


def _prefix(line: str, variant: Variant) -> tuple[Power | None, str]:
    head, sep, rest = line.partition(":")
    if sep:
        power = variant.power_names.get(fold(head))
        if power is not None:
            return power, rest.strip()
    return None, line


def _disband_line(body: str) -> bool:
    words = body.split()
    return bool(_CONDITION.search(body)) and any(fold(w) in _DISBAND for w in words)


def _fallback_keys(text: str) -> tuple[str, ...]:
    keys = []
    for m in re.finditer(r"(?i)cent(?:re|er)s?|versorgungszentr\w*|alphabet\w*", text):
        key = "alphabetical" if fold(m.group(0)).startswith("alphabet") else "centres"
        if key not in keys:
            keys.append(key)
    if not keys:
        raise ValueError("a retreat fallback is 'centres first', 'alphabetical', or both in order "
                         "(seed 001: 'Rückzüge zuerst in Versorgungszentren, danach in alphabetischer Reihenfolge')")
    return tuple(keys)


def _plan(line: str, power: Power | None, body: str, variant: Variant) -> RetreatPlan:
    attacker = None
    condition = _CONDITION.search(body)
    if condition:
        attacker = variant.power_names.get(fold(condition.group(1)))
        if attacker is None:
            raise ValueError(f"unknown power {condition.group(1)!r} in the condition")
        body = body[:condition.start()]
    if _OTHER_IF.search(body):
        raise ValueError("a retreat order may depend only on who dislodges the unit ('if dislodged by Russia'), "
                         "not on other units' retreats or orders (seed 001, 10a)")
    m = _RETREAT_WORD.search(body)
    if m is None:  # 'A boh disband if dislodged by Russia'
        unit_text, dests_text = " ".join(w for w in body.split() if fold(w) not in _DISBAND), "disband"
    else:
        unit_text, dests_text = body[:m.start()].strip(), body[m.end():].strip()
    if not unit_text or not dests_text:
        raise ValueError("expected '<unit> R <area>[, <area> ...] [if dislodged by <power>]'")
    prefix = f"{power}: " if power else ""
    dests: list[Location | None] = []
    unit: UnitRef | None = None
    for word in (w for w in _SPLIT.split(dests_text) if w.strip()):
        if fold(word) in _DISBAND:
            order = parse_order(f"{prefix}{unit_text} D", variant, PhaseKind.RETREAT)
            if not isinstance(order, Disband):
                raise ValueError(f"not a disband: {format_order(order)}")
            dests.append(None)
        else:
            order = parse_order(f"{prefix}{unit_text} R {word}", variant, PhaseKind.RETREAT)
            if not isinstance(order, Retreat):
                raise ValueError(f"not a retreat: {format_order(order)}")
            dests.append(order.dest)
        unit = order.unit
    assert unit is not None
    return RetreatPlan(power, unit, tuple(dests), attacker, line)

