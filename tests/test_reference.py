"""`dipsat map` and `dipsat orders` (issue 11, item 7): the map reference and a unit's legal
orders, which must be exactly the orders the adjudicator does not find illegal."""

from __future__ import annotations

import random
import re

import pytest

import dipsat
from dipsat.board import Location, PhaseKind
from dipsat.runners.cases import build_position
from dipsat.notation import format_order, parse_order
from dipsat.maps import ProvinceKind
from dipsat.movement.legality import convoy_route_on_board
from dipsat.movement.prescan import prescan
from dipsat.orders import Convoy, Disband, Hold, Move, Order, Retreat, SupportHold, SupportMove, UnitRef
from dipsat.outcomes import Disbands, Illegal, Retreats
from dipsat.printers.reference import legal_orders, map_lines
from dipsat.rules import AdjacentConvoy, Rules
from dipsat.runners.invariants import random_state

from .conftest import CASES, load_case, run


# --- dipsat map --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["standard", "modern"])
def test_map_lists_every_province_with_its_names_and_neighbours(name):
    variant = dipsat.load_variant(name)
    the_map = variant.map
    text = "\n".join(map_lines(variant))
    headings = re.findall(r"^  (\w+) +\S.*\((?:sea|coastal|inland)", text, re.M)
    assert headings == sorted(the_map.provinces)
    for pid, prov in the_map.provinces.items():
        block = re.split(r"\n  \S", text.split(f"\n  {pid:<4} {prov.name} (")[1])[0]
        assert ("supply centre" in block) == prov.centre
        if prov.home:
            assert f"home of {prov.home}" in block
        for alias in the_map.aliases.get(pid, ()):
            assert alias in " ".join(block.split())
        if prov.is_land:
            assert " ".join(block.split("army:")[1].split()).startswith(
                ", ".join(sorted(the_map.army_adjacency[pid])) or "none")
        for loc in the_map.fleet_locations(pid):
            head = f"fleet {loc.coast}:" if loc.coast else "fleet:"
            assert head in block
        assert ("wing:" in block) == variant.wings
    for pid, title in the_map.impassable_titles.items():
        assert f"  {pid}  {title}" in text
    for power in variant.powers:
        assert f"  {power.name} " in text


def test_map_of_some_provinces():
    res = run("map", "Spain", "stp")
    assert res.exit_code == 0
    assert res.stdout.splitlines()[2:] == [
        "  spa  Spain (coastal; supply centre; coasts nc (north coast), sc (south coast))",
        "       names:    Spanien, Spanje",
        "       army:     gas, mar, por",
        "       fleet nc: gas, mao, por",
        "       fleet sc: lyo, mao, mar, por, wes",
        "  stp  St Petersburg (coastal; supply centre, home of Russia; coasts nc (north coast), sc (south",
        "       coast))",
        "       names:    Saint Petersburg, Sankt Petersburg, Sint-Petersburg, Pet",
        "       army:     fin, lvn, mos, nwy",
        "       fleet nc: bar, nwy",
        "       fleet sc: bot, fin, lvn",
    ]


def test_map_names_aliases_other_adjudicators_use():
    words = " ".join(run("map").stdout.split())
    assert "Tyrhennian Sea" in words and "Schweiz" in words and "Golf of Lyon" in words


def test_map_modern_has_wings_and_islands():
    res = run("map", "--variant", "modern")
    assert res.exit_code == 0
    assert "wings: yes" in res.stdout and "Impassable" in res.stdout and "  ice  Iceland" in res.stdout


def test_map_unknown_names_are_one_line_errors():
    res = run("map", "Atlantis")
    assert res.exit_code == 2 and "Atlantis" in res.stderr and "Traceback" not in res.stderr
    res = run("map", "--variant", "nowhere")
    assert res.exit_code == 2 and res.stderr.startswith("--variant:")


# --- dipsat orders ------------------------------------------------------------------------------


def test_orders_of_the_fleet_in_london():
    res = run("orders", "--initial", "--unit", "F lon")
    assert res.exit_code == 0
    assert res.stdout.splitlines() == [
        "standard.initial: Spring 1901, Movement (rules 2000): England: F lon: 10 legal orders",
        "  F lon H", "  F lon - eng", "  F lon - nth", "  F lon - wal", "  F lon - yor",
        "  F lon S F bre - eng", "  F lon S F edi - nth", "  F lon S F edi - yor",
        "  F lon S A lvp - wal", "  F lon S A lvp - yor"]


def _positions() -> list:
    return list(_read_positions())


def _read_positions():
    for path, case_id in [("datc/6c_circular.txt", "6.C.4"), ("datc/6f_convoys.txt", "6.F.24"),
                          ("datc/6b_coasts.txt", "6.B.6"), ("rulebook/figures.txt", "rulebook.fig14")]:
        case = load_case(CASES / path, case_id)
        state, _, problems = build_position(case, Rules.profile("datc"))
        assert not problems
        yield pytest.param(state, id=case_id)


@pytest.mark.parametrize("state", _positions())
def test_listed_orders_are_exactly_those_the_adjudicator_accepts(state):
    rules = Rules.profile("datc")
    the_map = state.map
    for unit in state.units:
        listed = legal_orders(state, unit, rules)
        assert listed and len(set(listed)) == len(listed)
        for order in listed:
            assert parse_order(format_order(order), state.variant) == order  # written as it is read
            (result,) = dipsat.adjudicate(state, [order], rules).results
            assert not isinstance(result.outcome, Illegal), (format_order(order), result.detail)
        ref = UnitRef(unit.location, unit.kind)
        others = [Move(ref, loc, False, unit.power) for p in the_map.provinces for loc in
                  (the_map.fleet_locations(p) if unit.kind is dipsat.UnitKind.FLEET else [Location(p)])]
        others += [SupportHold(ref, UnitRef(o.location, o.kind), unit.power) for o in state.units]
        others += [SupportMove(ref, UnitRef(o.location, o.kind), Location(p), unit.power)
                   for o in state.units for p in the_map.provinces]
        for order in set(others) - set(listed):
            (result,) = dipsat.adjudicate(state, [order], rules).results
            assert isinstance(result.outcome, Illegal), format_order(order)


def test_orders_in_a_retreat_phase():
    res = run("orders", str(CASES / "datc" / "6h_retreats.txt"), "--case", "6.H.1.retreat", "--unit", "F tri")
    assert res.exit_code == 0
    assert res.stdout.splitlines()[1:] == ["  F tri R adr", "  F tri R alb", "  F tri D"]


def test_orders_of_a_unit_that_is_not_there():
    res = run("orders", "--initial", "--unit", "F nth")
    assert res.exit_code == 2
    assert res.stderr.startswith("--unit: no unit in nth in standard.initial (units: ")
    res = run("orders", "--initial", "--unit", "F Nrth Sea")
    assert res.exit_code == 2 and "did you mean North Sea (nth)?" in res.stderr


# --- the legality property (issue 17): the adjudicator and `dipsat orders` agree ----------------

VIA_BINDS = (AdjacentConvoy.R2000, AdjacentConvoy.DPTG)
"""The readings of DATC 4.A.3 under which 'via convoy' sends the army by convoy whatever the
other orders, with no land route to fall back on (the 2000/2023 rulebooks' c, the DPTG)."""


def _accepted(state, order, rules) -> Order | None:
    """The order as the adjudicator reads it if its prescan finds it legal (DATC 4.E.1: an
    illegal order is ignored), else None. Written as `dipsat orders` lists it: a move with the
    coast the adjudicator settled; 'via convoy' only where it changes anything (an army a
    chain of fleets at sea could carry to an adjacent area); a support's destination without
    a coast (support is given to an area, DATC 4.B.4 aside)."""
    scan = prescan(state, [order], rules)
    if isinstance(getattr(scan.verdicts.get(0), "outcome", None), Illegal):
        return None
    if isinstance(order, Move):
        unit = state.unit_at(order.unit.province)
        dest = scan.dest_of[scan.move_of[0]]  # the one order, legal: the unit's move (its coast settled)
        # where 'via convoy' does not bind the army to the convoy (4.A.3 a, b, ...), an
        # impossible one is the land move it names; a fleet's is always the move it names
        army = unit.kind is dipsat.UnitKind.ARMY
        via = order.via_convoy and army and (rules.adjacent_convoy in VIA_BINDS or (
            state.map.can_move(unit.kind, unit.location, dest) and convoy_route_on_board(state, unit.province,
                                                                                        dest.province)))
        if via and not state.map.can_move(unit.kind, unit.location, dest):
            via = False  # a move to an area the army cannot reach by land goes by convoy anyway
        return Move(order.unit, dest, via, order.power)
    if isinstance(order, SupportMove):
        return SupportMove(order.unit, order.target, Location(order.dest.province), order.power)
    return order


def _candidates(state, unit, rng) -> list[Order]:
    """Orders a player might write for `unit`: every move (each coast, none, 'via convoy' or
    not), supports of every unit (to every area near either unit, and a few anywhere),
    convoys of every army (to every coastal area, and a few inland)."""
    the_map = state.map
    ref = UnitRef(unit.location, unit.kind)
    provinces = sorted(the_map.provinces)
    out: list[Order] = [Hold(ref, unit.power)]
    for p in provinces:
        locations = [Location(p)] + [Location(p, c) for c in the_map.provinces[p].coasts]
        out += [Move(ref, loc, via, unit.power) for loc in locations for via in (False, True)]
    for other in state.units:
        target = UnitRef(other.location, other.kind)
        out.append(SupportHold(ref, target, unit.power))
        near = the_map.neighbours(unit.province) | the_map.neighbours(other.province)
        for p in sorted(near) + rng.sample(provinces, 3):
            out += [SupportMove(ref, target, Location(p), unit.power)]
            out += [SupportMove(ref, target, Location(p, c), unit.power) for c in the_map.provinces[p].coasts]
        if other.kind is dipsat.UnitKind.ARMY:
            coastal = [p for p in provinces if the_map.provinces[p].kind is ProvinceKind.COAST]
            inland = [p for p in provinces if the_map.provinces[p].kind is ProvinceKind.LAND]
            out += [Convoy(ref, target, Location(p), unit.power) for p in coastal + rng.sample(inland, 2)]
    return out


@pytest.mark.parametrize("profile", ["2000", "1971", "dptg"])  # 4.A.3: c, a, dptg ('via convoy' binds or not)
@pytest.mark.parametrize("variant", ["standard", "modern"])
def test_legality_property_over_random_positions(variant: str, profile: str) -> None:
    """For every unit of random positions of both maps, the orders the adjudicator accepts
    as legal are exactly those `dipsat orders` lists (issue 17: a move 'via convoy' that no
    convoy could carry was accepted by the one and not listed by the other)."""
    rules = Rules.profile(profile)
    the_variant = dipsat.load_variant(variant)
    rng = random.Random(f"{variant}-{profile}")
    for _ in range(2 if variant == "standard" else 1):
        state = random_state(rng, the_variant, density=rng.choice((0.3, 0.6)))
        for unit in rng.sample(state.units, min(len(state.units), 5)):
            listed = set(legal_orders(state, unit, rules))
            accepted = {a for order in _candidates(state, unit, rng)
                        if (a := _accepted(state, order, rules)) is not None}
            assert accepted == listed, (str(unit), sorted(map(format_order, accepted - listed)),
                                        sorted(map(format_order, listed - accepted)))


def test_impossible_via_convoy_is_listed_by_neither() -> None:
    """The rule lawyer's position (issue 17): A bur - mun via convoy, no fleet anywhere."""
    case = load_case(CASES / "options" / "convoys.txt", "via.impossible.inland")
    state = build_position(case, Rules.profile("2000"))[0]
    unit = state.unit_at("bur")
    rules = Rules.profile("2000")
    order = parse_order("A bur - mun via convoy", state.variant)
    assert order not in legal_orders(state, unit, rules)
    (result,) = dipsat.adjudicate(state, [order], rules).results
    assert isinstance(result.outcome, Illegal) and "4.E.1" in result.detail


@pytest.mark.parametrize("profile", ["2000", "2023"])  # 4.A.5: the attacker's origin after a convoy
@pytest.mark.parametrize("variant", ["standard", "modern"])
def test_retreat_orders_listed_are_those_carried_out(variant: str, profile: str) -> None:
    """In random retreat phases, a dislodged unit's retreats and disband that the adjudicator
    carries out when given alone are exactly those `dipsat orders` lists."""
    rules = Rules.profile(profile)
    the_variant = dipsat.load_variant(variant)
    rng = random.Random(f"retreat-{variant}-{profile}")
    for _ in range(3):
        state = random_state(rng, the_variant, PhaseKind.RETREAT)
        for d in state.dislodged:
            unit = d.unit
            ref = UnitRef(unit.location, unit.kind)
            listed = set(legal_orders(state, unit, rules))
            candidates: list[Order] = [Disband(ref, unit.power)]
            for p in sorted(state.map.provinces):
                candidates += [Retreat(ref, Location(p), unit.power)]
                candidates += [Retreat(ref, Location(p, c), unit.power) for c in state.map.provinces[p].coasts]
            carried = set()
            for order in candidates:  # as carried out: the coast the retreat settled (DATC 4.B.2, 4.B.6)
                outcome = dipsat.adjudicate(state, [order], rules).results[0].outcome
                if isinstance(outcome, Retreats):
                    carried.add(Retreat(ref, outcome.to, unit.power))
                elif isinstance(outcome, Disbands):
                    carried.add(order)
            assert carried == listed, (str(unit), sorted(map(format_order, carried ^ listed)))
