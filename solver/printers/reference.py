"""A reference for players and rule lawyers: the map in words (``dipsat map``) and the legal
orders of one unit in a position (``dipsat orders``).

The map listing reads the :class:`~dipsat.maps.Map` (names and aliases as the map file
writes them, coasts, centres, home centres, adjacency per unit kind). The legal orders are
every order the unit could be given that the prescan of :mod:`dipsat.movement.legality` -- the same
check the adjudicator makes (DATC 4.E.1) -- does not find illegal: this module only lists
candidates and asks it.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from ..board import Location, PhaseKind, Unit, UnitKind
from ..maps import Map, ProvinceKind, Variant
from ..orders import Convoy, Disband, Hold, Move, Order, Remove, Retreat, SupportHold, SupportMove, UnitRef
from ..rules import Rules
from ..state import State

# The legality check (:mod:`dipsat.movement.legality`, with the outcome values), retreats and
# adjustments are imported by `legal_orders` when it runs: `dipsat map` needs none of them.

__all__ = ["map_lines", "legal_orders"]

WIDTH = 100


def _wrap(head: str, text: str, indent: int) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=head, subsequent_indent=" " * indent,
                         break_on_hyphens=False, break_long_words=False) or [head.rstrip()]


def _ids(locations: Iterable[object]) -> str:
    return ", ".join(sorted(str(loc) for loc in locations)) or "none"


# --- the map ------------------------------------------------------------------------------


def map_lines(variant: Variant, provinces: list[str] | None = None) -> list[str]:
    """The variant's map as text: powers, coasts, then every province (or only those in
    `provinces`) with its full name, kind, centre, home power, other names, coasts and
    neighbours for armies, fleets (per coast) and, where the variant has wings, wings."""
    the_map = variant.map
    kinds = {k: sum(p.kind is k for p in the_map.provinces.values()) for k in ProvinceKind}
    lines = _wrap("", f"{variant.name}: {variant.title}; {len(the_map.provinces)} provinces "
                      f"({kinds[ProvinceKind.SEA]} seas, {kinds[ProvinceKind.COAST]} coastal, "
                      f"{kinds[ProvinceKind.LAND]} inland), {len(variant.centres)} supply centres, "
                      f"{variant.victory_centres} to win; wings: {'yes' if variant.wings else 'no'}", 4)
    chosen = provinces if provinces is not None else sorted(the_map.provinces)
    if provinces is None:
        lines.append("Powers (adjective; home centres; other names):")
        width = max(len(p.name) for p in variant.powers)
        for power in variant.powers:
            text = f"{power.adjective}; home centres {', '.join(power.home_centres)}"
            if power.aliases:
                text += "; " + ", ".join(power.aliases)
            lines += _wrap(f"  {power.name:<{width}}  ", text, width + 4)
        lines.append("Coasts (id, name, other names):")
        for cid, title in sorted(the_map.coast_titles.items()):
            lines += _wrap(f"  {cid}  {title}", f"; {', '.join(the_map.aliases.get(cid, ()))}"
                           if the_map.aliases.get(cid) else "", 6)
        lines.append("Provinces (id, name, kind; other names; neighbours by unit kind):")
    for pid in chosen:
        lines += _province_lines(variant, the_map, pid)
    if provinces is None and the_map.impassable_titles:
        lines.append("Impassable (no unit may enter; an order naming one is illegal):")
        for pid, title in sorted(the_map.impassable_titles.items()):
            others = the_map.aliases.get(pid, ())
            lines += _wrap(f"  {pid}  {title}", f"; {', '.join(others)}" if others else "", 6)
    return lines


def _province_lines(variant: Variant, the_map: Map, pid: str) -> list[str]:
    if pid not in the_map.provinces:  # an impassable area, named
        others = the_map.aliases.get(pid, ())
        return _wrap(f"  {pid:<4} {the_map.province_title(pid)}", " (impassable: no unit may enter; an order naming "
                     "it is illegal)", 7) + (_fact("names:", ", ".join(others)) if others else [])
    prov = the_map.provinces[pid]
    facts = [{"sea": "sea", "coast": "coastal", "land": "inland"}[prov.kind.value]]
    if prov.centre:
        facts.append("supply centre" + (f", home of {prov.home}" if prov.home else ""))
    if prov.coasts:
        facts.append("coasts " + ", ".join(f"{c} ({the_map.coast_titles.get(c, c)})" for c in prov.coasts))
    lines = _wrap(f"  {pid:<4} {prov.name}", " (" + "; ".join(facts) + ")", 7)
    others = the_map.aliases.get(pid, ())
    if others:
        lines += _fact("names:", ", ".join(others))
    if prov.kind is not ProvinceKind.SEA:
        lines += _fact("army:", _ids(the_map.army_adjacency.get(pid, ())))
    for loc in the_map.fleet_locations(pid):
        lines += _fact(f"fleet {loc.coast}:" if loc.coast else "fleet:", _ids(the_map.fleet_adjacency.get(loc, ())))
    if variant.wings:
        lines += _fact("wing:", _ids(the_map.wing_adjacency.get(pid, ())))
    return lines


def _fact(head: str, text: str) -> list[str]:
    return _wrap(f"       {head:<10}", text, 17)


# --- a unit's legal orders ---------------------------------------------------------------------


def legal_orders(state: State, unit: Unit, rules: Rules) -> list[Order]:
    """Every order `unit` could be given in `state`'s phase that is legal (DATC 4.E.1, as
    :mod:`dipsat.movement.legality` decides it for the adjudicator): in a movement phase its hold,
    moves (each coast named; armies also by convoy where fleets now at sea could carry
    them, ``via convoy`` where the destination is adjacent; a ``via convoy`` that no fleet
    at sea could carry is illegal where the reading of DATC 4.A.3 binds the army to the
    convoy, and elsewhere the land move it names, listed once), supports of every unit it could support, convoys (a fleet at sea); in a retreat
    phase its retreats and disband; in an adjustment phase its removal when its power
    must remove units."""
    from ..adjustments import adjustment_count
    from ..movement.legality import order_problem
    from ..retreats import retreat_options

    ref = UnitRef(unit.location, unit.kind)  # the order carries the power, not the unit reference
    kind = state.phase.kind
    if kind is PhaseKind.RETREAT:
        dislodged = next((d for d in state.dislodged if d.unit == unit), None)
        if dislodged is None:
            return []
        return [*(Retreat(ref, loc, unit.power) for loc in retreat_options(state, dislodged, rules)),
                Disband(ref, unit.power)]
    if kind is PhaseKind.ADJUSTMENT:
        return [Remove(ref, unit.power)] if adjustment_count(state, unit.power) < 0 else []
    candidates: list[Order] = [Hold(ref, unit.power)]
    candidates += _moves(state, unit, ref)
    candidates += _supports(state, unit, ref)
    if unit.kind is UnitKind.FLEET and unit.province in state.map.sea_provinces:
        candidates += [Convoy(ref, UnitRef(army.location, army.kind), Location(dest), unit.power)
                       for army in state.units if army.kind is UnitKind.ARMY
                       for dest in sorted(state.map.provinces) if dest != army.province]
    return [order for order in candidates if order_problem(state, unit, order, rules) is None]


def _moves(state: State, unit: Unit, ref: UnitRef) -> list[Order]:
    from ..movement.legality import convoy_route_on_board

    the_map = state.map
    out: list[Order] = []
    for pid in sorted(the_map.provinces):
        if pid == unit.province:
            continue
        if unit.kind is UnitKind.FLEET:
            out += [Move(ref, loc, False, unit.power) for loc in the_map.fleet_locations(pid)]
            continue
        dest = Location(pid)
        adjacent = the_map.can_move(unit.kind, unit.location, dest)
        if adjacent:
            out.append(Move(ref, dest, False, unit.power))
        if unit.kind is UnitKind.ARMY and convoy_route_on_board(state, unit.province, pid):
            # by convoy: 'A lon - bel'; beside an adjacent move 'via convoy' (DATC 4.A.3)
            out.append(Move(ref, dest, adjacent, unit.power))
    return out


def _supports(state: State, unit: Unit, ref: UnitRef) -> list[Order]:
    out: list[Order] = []
    for other in state.units:
        if other.province == unit.province:
            continue
        target = UnitRef(other.location, other.kind)
        out.append(SupportHold(ref, target, unit.power))
        out += [SupportMove(ref, target, Location(dest), unit.power) for dest in sorted(state.map.provinces)
                if dest != other.province]
    return out
