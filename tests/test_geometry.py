"""The board geometry (maps/*.geometry.json) is complete and shows every adjacency.

Only the committed data is read: the outlines as polygons, compared with the map's
adjacency (army, fleet per coast, wing)."""

from __future__ import annotations

import itertools

import pytest

import dipsat
from dipsat.maps import fold
from dipsat.maps.geometry import Shape, contains, load_geometry

MAPS = ["standard", "modern"]


def _inside(point, rings) -> bool:
    return contains(rings, point)


def _segments(shape: Shape) -> set[frozenset]:
    return {frozenset((a, b)) for ring in shape.outline for a, b in zip(ring, ring[1:] + ring[:1])}


def _vertices(shape: Shape) -> set:
    return {p for ring in shape.outline for p in ring}


@pytest.fixture(scope="module", params=MAPS)
def board(request):
    variant = dipsat.load_variant(request.param)
    geometry = load_geometry(variant.map.name)
    segments = {pid: _segments(s) for pid, s in geometry.provinces.items()}
    vertices = {pid: _vertices(s) for pid, s in geometry.provinces.items()}
    return variant.map, geometry, segments, vertices


def test_every_province_and_coast_has_geometry(board):
    the_map, geometry, _, _ = board
    assert set(geometry.provinces) == set(the_map.provinces)
    for pid, shape in geometry.provinces.items():
        prov = the_map.provinces[pid]
        assert shape.outline and all(len(r) >= 3 for r in shape.outline), pid
        assert _inside(shape.unit, shape.outline), f"{pid}: unit point outside its outline"
        assert _inside(shape.label, shape.outline), f"{pid}: label point outside its outline"
        assert (shape.centre is not None) == prov.centre, pid
        if shape.centre is not None:
            assert _inside(shape.centre, shape.outline), f"{pid}: centre marker outside its outline"
        assert tuple(c for c, _ in shape.coasts) == tuple(sorted(prov.coasts)), pid
        for coast, point in shape.coasts:
            assert _inside(point, shape.outline), f"{pid}/{coast}: coast point outside the outline"
            loc = dipsat.Location(pid, coast)
            assert geometry.unit_point(loc) == point


def test_impassable_areas_are_drawn(board):
    the_map, geometry, _, _ = board
    # every impassable area the map names has a shape, and nothing else is impassable
    drawn = {fold(pid) for pid in geometry.impassable}
    named = {alias for alias in the_map.impassable if alias in drawn}
    assert drawn == named
    assert set(the_map.impassable.values()) == {the_map.impassable[fold(pid)] for pid in geometry.impassable}
    for pid, shape in geometry.impassable.items():
        assert pid not in the_map.provinces
        assert _inside(shape.label, shape.outline)


def test_standard_impassable_is_switzerland_and_modern_the_islands():
    assert set(load_geometry("standard").impassable) == {"swi"}
    assert set(load_geometry("modern").impassable) == {"ice", "blr", "cor", "sar", "sic", "mlt", "cre", "cyp"}


def _edges(the_map):
    """Every adjacency the adjudicator uses: (kind, location a, location b)."""
    out = set()
    for a, dsts in the_map.army_adjacency.items():
        out |= {("army", dipsat.Location(a), dipsat.Location(b)) for b in dsts if a < b}
    for a, dsts in the_map.fleet_adjacency.items():
        out |= {("fleet", a, b) for b in dsts if str(a) < str(b)}
    for a, dsts in the_map.wing_adjacency.items():
        out |= {("wing", dipsat.Location(a), dipsat.Location(b)) for b in dsts if a < b}
    return sorted(out, key=str)


def test_every_adjacency_is_a_shared_border_or_a_marked_crossing(board):
    the_map, geometry, segments, vertices = board
    crossings = {frozenset(c.between) for c in geometry.crossings}
    not_visible = []
    for kind, a, b in _edges(the_map):
        pair = frozenset((a.province, b.province))
        if pair in crossings:
            continue
        shared = segments[a.province] & segments[b.province]
        if not shared:
            not_visible.append(f"{kind} {a}-{b}: no shared border")
            continue
        pa, pb = (the_map.provinces[x.province] for x in (a, b))
        if kind == "fleet" and pa.is_land and pb.is_land:
            # a shore edge: both coasts meet at a point of a sea that both reach
            seas = [s for s in the_map.sea_provinces
                    if dipsat.Location(s) in the_map.fleet_adjacency.get(a, ())
                    and dipsat.Location(s) in the_map.fleet_adjacency.get(b, ())]
            if not any(vertices[a.province] & vertices[b.province] & vertices[s] for s in seas):
                not_visible.append(f"fleet {a}-{b}: the border does not reach a sea both touch")
    assert not_visible == []


def test_crossings_join_adjacent_provinces(board):
    the_map, geometry, _, _ = board
    for crossing in geometry.crossings:
        a, b = crossing.between
        assert b in the_map.wing_adjacency[a], crossing
        (x1, y1), (x2, y2) = crossing.line
        assert _inside((x1, y1), geometry.provinces[a].outline) and _inside((x2, y2), geometry.provinces[b].outline)


def test_expected_crossings():
    assert {c.between for c in load_geometry("standard").crossings} == {("den", "swe")}
    assert {c.between for c in load_geometry("modern").crossings} == {("ros", "vol")}


def test_no_border_that_the_map_does_not_have(board):
    """A player reads a shared border as an adjacency: two land provinces, or a coast and a
    sea, that share a border must be adjacent (seas may meet at a marked crossing)."""
    the_map, geometry, segments, _ = board
    near = the_map.wing_adjacency
    wrong = []
    for a, b in itertools.combinations(sorted(geometry.provinces), 2):
        if not segments[a] & segments[b] or b in near.get(a, ()):
            continue
        pa, pb = the_map.provinces[a], the_map.provinces[b]
        shores = sorted(p for p in near[a] & near[b] if the_map.provinces[p].is_land)
        if pa.is_sea and pb.is_sea and any(y in near[x] for x, y in itertools.combinations(shores, 2)):
            continue  # two seas meeting in a strait between two adjacent coasts (Denmark-Sweden)
        wrong.append(f"{a}-{b}")
    assert wrong == []


def test_inland_provinces_touch_no_sea(board):
    the_map, geometry, segments, _ = board
    for pid, prov in the_map.provinces.items():
        if prov.kind.value == "land":
            assert not any(segments[pid] & segments[s] for s in the_map.sea_provinces), pid
