"""`dipsat map` and `dipsat orders` (issue 11, item 7): the map reference and a unit's legal
orders, which must be exactly the orders the adjudicator does not find illegal."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

import dipsat
from dipsat.board import Location
from dipsat.runners.cases import build_position, load_cases
from dipsat.cli import main
from dipsat.notation import format_order, parse_order
from dipsat.orders import Move, SupportHold, SupportMove, UnitRef
from dipsat.outcomes import Illegal
from dipsat.printers.reference import legal_orders, map_lines
from dipsat.rules import Rules

from .conftest import CASES


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


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
        case = next(c for c in load_cases(CASES / path)[0] if c.id == case_id)
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
