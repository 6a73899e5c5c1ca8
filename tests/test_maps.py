"""The map data files pass their consistency checks and load through dipsat."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

import dipsat
from dipsat.maps import load_variant_file

CHECKS = Path(__file__).resolve().parent / "maps"


@pytest.mark.parametrize("name", ["standard", "modern"])
def test_map_file_checks(name, monkeypatch):
    # run as `python3 tests/maps/check_<name>.py` would: argv as there, and the script's
    # folder on sys.path so that its `import mapcheck` finds the shared checks
    monkeypatch.setattr(sys, "argv", [f"check_{name}.py"])
    monkeypatch.syspath_prepend(str(CHECKS))
    runpy.run_path(str(CHECKS / f"check_{name}.py"), run_name="__main__")


def test_standard_variant_facts():
    v = dipsat.load_variant("standard")
    assert len(v.map.provinces) == 75 and len(v.centres) == 34
    assert v.start_year == 1901 and v.victory_centres == 18
    assert [p.name for p in v.powers] == ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
    assert v.map.can_move(dipsat.UnitKind.FLEET, dipsat.Location("kie"), dipsat.Location("bal"))  # Kiel canal
    assert v.map.can_move(dipsat.UnitKind.FLEET, dipsat.Location("con"), dipsat.Location("bul", "ec"))
    assert not v.map.can_move(dipsat.UnitKind.FLEET, dipsat.Location("cly"), dipsat.Location("iri"))
    assert "swi" not in v.map.provinces


def test_modern_variant_facts():
    v = dipsat.load_variant("modern")
    assert len(v.centres) == 64 and len(v.powers) == 10
    assert v.start_year == 1995 and v.victory_centres == 34 and v.wings
    wings = [u for p in v.powers for u in p.units if u.kind is dipsat.UnitKind.WING]
    assert len(wings) == 3


def test_bad_map_file_names_the_key(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[variant]\nname="x"\nstart_year=1901\nvictory_centres=1\n'
                   '[provinces]\naaa = { name = "A", kind = "land" }\n'
                   '[adjacency]\narmy = ["aaa zzz"]\n[[powers]]\nname = "P"\n')
    with pytest.raises(dipsat.MapError, match=r"bad.toml: \[adjacency.army\] unknown province 'zzz'"):
        load_variant_file(bad)


@pytest.mark.parametrize("name", ["/etc/hostname", "../maps/standard", "some/dir/evil", "standard.toml", "x" * 300, ""])
def test_only_bundled_variants_are_loaded_by_name(name):
    """Issue 12 item 10: a variant name read from a file was used as a path."""
    with pytest.raises(dipsat.MapError, match=r"^unknown variant .* \(known: modern, standard\)$"):
        dipsat.load_variant(name)


@pytest.mark.parametrize("name", ["standard", "modern"])
def test_can_reach_province_agrees_with_the_adjacency(name):
    # the table can_reach_province reads (per map, by name) says what the adjacency says:
    # a fleet reaches a province when it can move to one of its locations, an army or a
    # wing when it can move there
    from dipsat.board import Location, UnitKind

    the_map = dipsat.load_variant(name).map
    places = [Location(p) for p in the_map.provinces] + [loc for p in the_map.provinces
                                                        for loc in the_map.fleet_locations(p) if loc.coast]
    for src in places:
        for dst in the_map.provinces:
            fleet = any(the_map.can_move(UnitKind.FLEET, src, loc) for loc in the_map.fleet_locations(dst))
            assert the_map.can_reach_province(UnitKind.FLEET, src, dst) is fleet, (src, dst)
            for kind in (UnitKind.ARMY, UnitKind.WING):
                assert the_map.can_reach_province(kind, src, dst) is the_map.can_move(kind, src, Location(dst))


def test_convoy_possible_follows_chains_of_the_given_seas():
    the_map = dipsat.load_variant("standard").map
    assert the_map.convoy_possible("lon", "nwy", {"nth"})
    assert not the_map.convoy_possible("lon", "nwy", {"eng"})
    assert the_map.convoy_possible("lon", "tun", {"eng", "mao", "wes"})
    assert not the_map.convoy_possible("lon", "tun", {"eng", "wes"})  # the chain is broken at mao
    assert not the_map.convoy_possible("lon", "mun", None)  # inland
    assert the_map.convoy_possible("lon", "tun", {"eng", "mao", "wes"})  # asked again: the cache answers alike


@pytest.mark.parametrize("name", ["standard", "modern"])
def test_where_a_unit_can_stand(name):
    """can_occupy (a table made once per map) against the rule said plainly, for every
    kind, province and coast written (none, each of the map's coasts, one no province has),
    and a province the map lacks."""
    from dipsat.board import Location, UnitKind
    from dipsat.maps import ProvinceKind

    the_map = dipsat.load_variant(name).map
    coasts = sorted({c for prov in the_map.provinces.values() for c in prov.coasts})
    stood = set()
    for pid in [*the_map.provinces, "zzz"]:
        prov = the_map.provinces.get(pid)
        for coast in [None, *coasts, "xx"]:
            loc = Location(pid, coast)
            for kind in UnitKind:
                if prov is None:
                    expected = False
                elif kind is UnitKind.FLEET:  # at sea or on a coast, the coast named where there are several
                    expected = coast in prov.coasts if prov.coasts else (coast is None and prov.kind is not ProvinceKind.LAND)
                elif kind is UnitKind.ARMY:  # on land, no coast named
                    expected = coast is None and prov.kind is not ProvinceKind.SEA
                else:  # a wing: anywhere, no coast named
                    expected = coast is None
                assert the_map.can_occupy(kind, loc) is expected, (kind, str(loc))
                if expected:
                    stood.add(kind)
    assert stood == set(UnitKind)


def _relaxed(nodes, edges, targets):
    """Shortest distances to `targets` by relaxation until nothing changes (Bellman-Ford):
    an oracle independent of the maps' breadth-first searches."""
    dist = {n: (0 if n in targets else None) for n in nodes}
    changed = True
    while changed:
        changed = False
        for a in nodes:
            for b in edges(a):
                if dist.get(b) is not None and (dist[a] is None or dist[b] + 1 < dist[a]):
                    dist[a], changed = dist[b] + 1, True
    return dist


@pytest.mark.parametrize("name", ["standard", "modern"])
def test_the_maps_distances_are_shortest_paths(name):
    # DATC 4.D.8's distances, as the civil-disorder rule reads them from the map's tables
    v = dipsat.load_variant(name)
    m = v.map
    some_fleets = frozenset(sorted(m.sea_provinces)[::3])  # a convoy along these seas only
    for power in v.powers[:4]:
        homes = frozenset(power.home_centres)
        land_and_sea = _relaxed(list(m.provinces), m.neighbours, homes)
        table = m.distances_to(homes)
        assert {p: d for p, d in land_and_sea.items() if d is not None} == table
        fleets = _relaxed(list(m.fleet_adjacency), lambda loc: m.fleet_adjacency.get(loc, ()),
                          {loc for loc in m.fleet_adjacency if loc.province in homes})
        for loc, d in fleets.items():
            assert m.fleet_distance(loc, homes) == d, (power.name, loc)
        for seas in (m.sea_provinces, some_fleets):
            armies = _relaxed(list(m.army_adjacency), lambda p: m.army_adjacency.get(p, frozenset())
                              | (m.convoy_reach(p, seas) - {p}), homes)
            for p, d in armies.items():
                assert m.army_distance(p, homes, seas) == d, (power.name, p)
