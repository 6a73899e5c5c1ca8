"""The prescan's common case, read from the map's tables (issue 22): it must find exactly
what the full checks of :mod:`dipsat.movement.legality` find.

A prescan with a silenced power takes every order through the full checks, so a power
silenced that gives no order (none of the cases' powers) makes the same prescan the slow
way: the two must be equal on every movement case under every option the prescan reads,
and on corpus phases under every reading of DATC 4.A.3. The tables themselves are checked
against the map's own questions, for every bundled map."""

from __future__ import annotations

import random

import pytest

from dipsat.board import Location, Phase, PhaseKind, Season, Unit, UnitKind
from dipsat.maps import ProvinceKind, load_variant
from dipsat.movement import prescan
from dipsat.movement.legality import convoy_route_on_board, move_destination
from dipsat.movement.prescan import PRESCAN_OPTIONS
from dipsat.orders import Move, UnitRef
from dipsat.rules import ISSUES, PROFILES, Rules
from dipsat.runners.bench import corpus_phases, corpus_texts
from dipsat.state import State

from .conftest import ROOT
from .test_rereading import MOVEMENT

NOBODY = {"No Such Power": "silenced"}
"""A silenced power no order comes from: every order takes the full checks, none is silenced."""


def _with(rules: Rules, issue: str, option: str) -> Rules:
    return Rules.profile(rules.profile_name, {**rules.overrides, issue: option})


@pytest.mark.parametrize("issue", sorted(n for n, i in ISSUES.items()
                                         if i.field in PRESCAN_OPTIONS or i.field == "adjacent_convoy"))
def test_the_tables_find_what_the_full_checks_find_on_every_case(issue):
    for case_id, state, orders, rules in MOVEMENT:
        for option in ISSUES[issue].options:
            reading = _with(rules, issue, option)
            fast, full = prescan(state, orders, reading), prescan(state, orders, reading, NOBODY)
            assert fast == full, (case_id, issue, option)


def test_the_tables_find_what_the_full_checks_find_on_the_corpus():
    corpus = ROOT / "cases" / "corpus" / "random_games.jsonl.gz"
    phases = [p for p in corpus_phases(corpus_texts([str(corpus)]), Rules.profile("2000"))
              if p.kind == str(PhaseKind.MOVEMENT)][:400]
    assert sum(len(p.orders) for p in phases) > 5000
    for p in phases:
        for option in ISSUES["4.A.3"].options:
            reading = _with(p.rules, "4.A.3", option)
            assert prescan(p.state, p.orders, reading) == prescan(p.state, p.orders, reading, NOBODY)


@pytest.mark.parametrize("variant", ["standard", "modern"])
def test_the_reach_table_says_only_what_the_checks_say(variant):
    """A province in a unit's row is one it can move into (DATC 6.B.4), never its own; a
    coast listed with it is a move order's destination as written, legal under every
    reading of DATC 4.B (the move goes there, nothing settled); and every plain move an
    army or a fleet to a province without coasts can make is listed."""
    v = load_variant(variant)
    the_map = v.map
    table = the_map.reach_table
    kinds = [(UnitKind.ARMY, Location(p)) for p in the_map.provinces] + \
            [(UnitKind.WING, Location(p)) for p in the_map.provinces] + \
            [(UnitKind.FLEET, loc) for p in the_map.provinces for loc in the_map.fleet_locations(p)]
    readings = [Rules.profile(name) for name in PROFILES]
    listed = 0
    for kind, loc in kinds:
        row = table.get((kind, loc.province, loc.coast), {})
        unit = Unit("France", kind, loc)
        state = State(v, Phase(1901, Season.SPRING, PhaseKind.MOVEMENT), (unit,), ())
        for dst, prov in the_map.provinces.items():
            reaches = dst != loc.province and the_map.can_reach_province(kind, loc, dst)
            assert (dst in row) == reaches, (kind, loc, dst)
            for coast in (None, *prov.coasts):
                written = Location(dst, coast)
                move = Move(UnitRef(loc, kind, "France"), written)
                if coast in row.get(dst, ()):
                    listed += 1
                    for rules in readings:
                        assert move_destination(state, unit, move, rules) == (written, None), (kind, loc, written)
                elif coast is None and not prov.coasts and the_map.can_move(kind, loc, written) and \
                        dst != loc.province and (kind is not UnitKind.FLEET or prov.kind is not ProvinceKind.LAND):
                    pytest.fail(f"{kind} {loc} -> {written}: a plain move missing from the table")
    assert listed > 500


@pytest.mark.parametrize("variant", ["standard", "modern"])
def test_convoy_reach_is_where_a_convoy_route_goes(variant):
    """Two searches of the map's seas must agree: the provinces a chain of the seas allowed
    reaches from a coast (Map.convoy_reach, one walk from sea to sea) are those some convoy
    route goes to (Map.convoy_routes, every simple chain). Each route is a chain of seas
    allowed, from a sea touching src to one touching dst, and none contains another."""
    the_map = load_variant(variant).map
    seas = sorted(the_map.sea_provinces)
    rng = random.Random(22)
    fleets = [frozenset(seas), frozenset()] + [frozenset(rng.sample(seas, rng.randint(1, 8))) for _ in range(12)]
    found = 0
    for allowed in fleets:
        for src in the_map.provinces:
            reach = the_map.convoy_reach(src, allowed)
            found += len(reach)
            if len(allowed) > 8:  # every sea: too many chains to list them all
                assert all(the_map.convoy_possible(src, dst, allowed) for dst in reach)
                continue
            others = sorted(set(the_map.provinces) - reach)  # some of them, each asked of every chain
            for dst in sorted(reach) + rng.sample(others, min(len(others), 6)):
                routes = the_map.convoy_routes(src, dst, allowed)
                assert (dst in reach) == bool(routes) == the_map.convoy_possible(src, dst, allowed), (src, dst)
                for route in routes:
                    assert route <= allowed and not any(other < route for other in routes), (src, dst, route)
                    assert any(src in the_map.neighbours(sea) for sea in route)
                    assert any(dst in the_map.neighbours(sea) for sea in route)
                    linked, todo = set(), [min(route)]
                    while todo:
                        sea = todo.pop()
                        linked.add(sea)
                        todo += [s for s in the_map.sea_neighbours[sea] & route if s not in linked]
                    assert linked == route, (src, dst, route)  # one chain
    assert found > 100


@pytest.mark.parametrize("variant", ["standard", "modern"])
def test_the_routes_of_some_fleets_are_the_routes_of_all_made_of_them(variant):
    """The prescan routes a convoy over the minimal chains of every fleet at sea, keeping
    those made of the ordered fleets alone, and asks a convoy order's legality of their
    union (Map.convoy_route_seas): for fleets `some` among the fleets `every`, the minimal
    chains of `some` are exactly those of `every` made of `some` (in the same order)."""
    the_map = load_variant(variant).map
    seas = sorted(the_map.sea_provinces)
    coasts = sorted(p for p, prov in the_map.provinces.items() if prov.kind is ProvinceKind.COAST)
    rng = random.Random(2022)
    routed = 0
    for _ in range(150):
        every = frozenset(rng.sample(seas, rng.randint(6, min(16, len(seas)))))
        src = rng.choice(coasts)
        reach = sorted(the_map.convoy_reach(src, every) - {src})  # mostly a destination some chain reaches
        dst = rng.choice(reach) if reach and rng.random() < 0.8 else rng.choice([c for c in coasts if c != src])
        routes = the_map.convoy_routes(src, dst, every)
        routed += bool(routes)
        assert the_map.convoy_route_seas(src, dst, every) == frozenset().union(*routes)
        for some in [every] + [frozenset(rng.sample(sorted(every), rng.randint(0, len(every)))) for _ in range(6)]:
            assert the_map.convoy_routes(src, dst, some) == tuple(r for r in routes if r <= some), (src, dst, some)
    assert routed > 50


@pytest.mark.parametrize("variant", ["standard", "modern"])
def test_a_convoy_route_on_board_without_a_fleet_is_one_of_the_other_fleets(variant):
    """convoy_route_on_board asks the table of every fleet at sea first: it must say what the
    chains of the fleets at sea but the one left out say (DATC 6.D.32, 6.D.22-24)."""
    v = load_variant(variant)
    the_map = v.map
    seas = sorted(the_map.sea_provinces)
    coasts = sorted(p for p, prov in the_map.provinces.items() if prov.kind is ProvinceKind.COAST)
    rng = random.Random(32)
    possible = 0
    for _ in range(40):
        at_sea = rng.sample(seas, rng.randint(1, 10))
        units = tuple(Unit("France", UnitKind.FLEET, Location(s)) for s in at_sea)
        state = State(v, Phase(1901, Season.SPRING, PhaseKind.MOVEMENT), units, ())
        for _ in range(20):
            src, dst = rng.sample(coasts, 2)
            for without in (None, rng.choice(at_sea), rng.choice(coasts)):
                allowed = frozenset(at_sea) - {without}
                expected = the_map.convoy_possible(src, dst, allowed)
                possible += expected
                assert convoy_route_on_board(state, src, dst, without) == expected, (src, dst, without, at_sea)
    assert possible > 20


@pytest.mark.parametrize("variant", ["standard", "modern"])
def test_the_reach_rows_are_the_reach_tables_rows_of_units_with_no_coast(variant):
    """What the prescan reads for a unit with no coast named (`reach_rows`, by kind and
    province) is the table's row for it, the same object; a location with no row in the
    table (an army at sea) has none there either."""
    the_map = load_variant(variant).map
    table, rows = the_map.reach_table, the_map.reach_rows
    seen = 0
    for kind in UnitKind:
        for province in the_map.provinces:
            row = table.get((kind, province, None))
            assert rows[kind].get(province) is row, (kind, province)
            seen += row is not None
    assert seen == sum(1 for _, _, coast in table if coast is None) > 100
