"""Pictures fit for a ruling (issue 17): the SVG is parsed and its geometry checked. A picture
of a retreat phase shows the retreat (not the whole map), labels stand where no unit is, a
dislodged unit stays inside its province, a convoy route stays at sea, colours are told apart
and listed, small provinces are readable at the default size."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path



from .conftest import CASES, run

SVG = "{http://www.w3.org/2000/svg}"
RETREATS = str(CASES / "datc" / "6h_retreats.txt")


def _run(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result.output


def _map_box(root: ET.Element) -> tuple[list[float], int]:
    """The map's viewBox (x, y, w, h in map units) and its width in pixels."""
    inner = root.find(f"{SVG}svg")
    assert inner is not None
    return [float(v) for v in inner.get("viewBox", "").split()], int(inner.get("width", "0"))


# --- 1. adjudicate takes --area and --size; draw draws results ------------------------------


def test_adjudicate_draws_a_retreat_phase_around_the_retreat_at_the_size_asked():
    root = ET.fromstring(_run("adjudicate", RETREATS, "--case", "6.H.12.retreat", "--format", "svg"))
    box, width = _map_box(root)
    assert box[2] < 836 / 3 and box[3] < 821 / 2  # the corner of the dislodged units, not the map
    scale = width / box[2]
    assert scale * 7 >= 10  # a unit (radius 7 map units) is at least 10 px across its radius
    root = ET.fromstring(_run("adjudicate", RETREATS, "--case", "6.H.12.retreat", "--format", "svg",
                              "--area", "lvp,edi,eng", "--size", "500"))
    box, width = _map_box(root)
    assert width == 500 and root.get("width") == "500"
    lvp_label = (232.5, 345.5)
    assert box[0] < lvp_label[0] < box[0] + box[2] and box[1] < lvp_label[1] < box[1] + box[3]
    full, _ = _map_box(ET.fromstring(_run("adjudicate", RETREATS, "--case", "6.H.12.retreat", "--format", "svg",
                                          "--area", "full")))
    assert full == [0.0, 0.0, 836.0, 821.0]


def test_adjudicate_area_and_size_errors_are_one_line():
    result = run("adjudicate", RETREATS, "--case", "6.H.12", "--format", "svg", "--area", "lvp,xyz")
    assert result.exit_code == 2 and "unknown province 'xyz'" in result.output and "Traceback" not in result.output
    result = run("adjudicate", RETREATS, "--case", "6.H.12", "--size", "500")
    assert result.exit_code == 2 and "--format svg or png" in result.output


def test_draw_results_of_a_json_result_is_the_adjudicated_picture(tmp_path: Path):
    result_json = tmp_path / "r.json"
    result_json.write_text(_run("adjudicate", RETREATS, "--case", "6.H.12", "--format", "json"), encoding="utf-8")
    drawn = ET.fromstring(_run("draw", str(result_json), "--results", "--area", "auto"))
    adjudicated = ET.fromstring(_run("adjudicate", RETREATS, "--case", "6.H.12", "--format", "svg"))

    def orders(root: ET.Element) -> dict[str, str]:
        return {e.get("id", ""): e.get("class", "") for e in root.iter() if "order" in e.get("class", "").split()}

    assert orders(drawn) == orders(adjudicated) and len(orders(drawn)) == 10
    assert "failed dislodged" in orders(drawn)["order-convoy-eng-lvp-edi"]
    assert _map_box(drawn) == _map_box(adjudicated)
    # a case file with --results: the same picture as adjudicate draws
    assert _run("draw", RETREATS, "--case", "6.H.12", "--results") == _run(
        "adjudicate", RETREATS, "--case", "6.H.12", "--format", "svg")
    # without --results a result is a position (its state after) with no orders
    after = ET.fromstring(_run("draw", str(result_json)))
    assert not orders(after) and json.loads(result_json.read_text())["type"] == "result"


# --- 2-4. labels where no unit is, dislodged units in their provinces, routes at sea ------

import re  # noqa: E402

import pytest  # noqa: E402

import dipsat  # noqa: E402
from dipsat.maps.geometry import contains, load_geometry  # noqa: E402
from dipsat.printers import svg  # noqa: E402
from dipsat.runners.cases import run_case  # noqa: E402

from .conftest import all_cases  # noqa: E402

R = 7.0  # a unit's radius on the standard map: 42 km at 6 km a unit


def _results() -> list[tuple[str, dipsat.PhaseResult]]:
    out = []
    for case in all_cases(CASES / "datc", CASES / "rulebook"):
        run = run_case(case)
        if run.result is not None and run.result.before.variant.name == "standard":
            out.append((case.id, run.result))
    return out


@pytest.fixture(scope="module")
def pictures() -> list[tuple[str, dipsat.PhaseResult, ET.Element]]:
    """Every standard-map case of the DATC and the rulebook, drawn as adjudicate draws it."""
    return [(name, result, ET.fromstring(svg.board(result=result, area="auto"))) for name, result in _results()]


def _symbol_box(group: ET.Element) -> tuple[float, float, float, float]:
    """The box of a unit's symbol (its first shape: circle, rectangle or triangle)."""
    shape = group.find(f"{SVG}circle") if group.find(f"{SVG}rect") is None else group.find(f"{SVG}rect")
    if shape is not None and shape.tag == f"{SVG}rect":
        x, y = float(shape.get("x", 0)), float(shape.get("y", 0))
        return x, y, x + float(shape.get("width", 0)), y + float(shape.get("height", 0))
    if shape is not None:
        cx, cy, r = (float(shape.get(k, 0)) for k in ("cx", "cy", "r"))
        return cx - r, cy - r, cx + r, cy + r
    path = group.find(f"{SVG}path")
    assert path is not None
    numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", path.get("d", ""))]
    xs, ys = numbers[0::2], numbers[1::2]
    return min(xs), min(ys), max(xs), max(ys)


def _label_boxes(root: ET.Element) -> dict[str, tuple[float, float, float, float]]:
    """Each province label's box: DejaVu Sans lower case is at most 0.6 of the font size wide a
    letter, and stands from the baseline to 0.55 of the size above it."""
    labels = root.find(f".//{SVG}g[@class='labels']")
    assert labels is not None
    size = float(labels.get("font-size", 0))
    out = {}
    for text in labels.iter(f"{SVG}text"):
        if text.get("fill"):  # an impassable area's
            continue
        x, y, n = float(text.get("x", 0)), float(text.get("y", 0)), len(text.text or "")
        out[text.text or ""] = (x - 0.3 * size * n, y - 0.55 * size, x + 0.3 * size * n, y)
    return out


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_no_label_is_under_a_unit(pictures):
    geometry = load_geometry("standard")
    checked = leaders = 0
    for name, _, root in pictures:
        labels = _label_boxes(root)
        for group in root.iter(f"{SVG}g"):
            if "unit" not in group.get("class", "").split():
                continue
            box = _symbol_box(group)
            for pid, label in labels.items():
                assert not _overlap(label, box), (name, pid, group.get("id"))
            checked += 1
        for pid, (x0, y0, x1, y1) in labels.items():  # in its province, or with a line to it
            if not contains(geometry.provinces[pid].outline, ((x0 + x1) / 2, (y0 + y1) / 2)):
                leader = root.find(f".//{SVG}path[@id='label-leader-{pid}']")
                assert leader is not None, (name, pid)
                end = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", leader.get("d", ""))][-2:]
                assert contains(geometry.provinces[pid].outline, tuple(end)), (name, pid)
                leaders += 1
    assert checked > 500 and 0 < leaders < checked / 20
    # 6.H.12's retreat: Liverpool holds the Russian army, the dislodged English one and a centre
    root = next(root for name, _, root in pictures if name == "6.H.12.retreat")
    assert root.find(f".//{SVG}path[@id='label-leader-lvp']") is not None
    # the ones issue 17 names: nwy, ska, lvp
    state = dipsat.load_variant("standard").initial_state()
    units = (dipsat.Unit("England", dipsat.UnitKind.ARMY, dipsat.Location("nwy")),
             dipsat.Unit("Russia", dipsat.UnitKind.FLEET, dipsat.Location("ska")),
             *state.units)
    root = ET.fromstring(svg.board(state.with_(units=units)))
    labels = _label_boxes(root)
    for pid in ("nwy", "ska", "lvp"):
        unit = next(g for g in root.iter(f"{SVG}g") if g.get("id", "").endswith(f"-{pid}") and
                    "unit" in g.get("class", "").split())
        assert not _overlap(labels[pid], _symbol_box(unit)), pid
        assert contains(load_geometry("standard").provinces[pid].outline,
                        ((labels[pid][0] + labels[pid][2]) / 2, (labels[pid][1] + labels[pid][3]) / 2)), pid


def test_a_dislodged_unit_is_drawn_inside_its_own_province_off_its_attacker(pictures):
    geometry = load_geometry("standard")
    checked = 0
    for name, result, root in pictures:
        for group in root.iter(f"{SVG}g"):
            if "dislodged" not in group.get("class", "").split() or "unit" not in group.get("class", "").split():
                continue
            location = group.get("id", "").split("-", 3)[3]
            province, _, coast = location.partition("-")
            ring = group.find(f"{SVG}circle")
            assert ring is not None
            at = (float(ring.get("cx", 0)), float(ring.get("cy", 0)))
            assert contains(geometry.provinces[province].outline, at), (name, location, at)
            home = geometry.unit_point(dipsat.Location(province, coast or None))
            assert ((at[0] - home[0]) ** 2 + (at[1] - home[1]) ** 2) ** 0.5 >= 2 * R, (name, location)
            checked += 1
    assert checked > 30
    # 6.H.12: F eng stays in the Channel (it was drawn on the Welsh coast)
    root = next(root for name, _, root in pictures if name == "6.H.12")
    ring = root.find(f".//{SVG}g[@id='dislodged-england-F-eng']/{SVG}circle")
    assert ring is not None
    at = (float(ring.get("cx", 0)), float(ring.get("cy", 0)))
    assert contains(geometry.provinces["eng"].outline, at) and not contains(geometry.provinces["wal"].outline, at)


def _route(group: ET.Element) -> list[tuple[float, float]]:
    path = next(p for p in group.iter(f"{SVG}path") if p.get("marker-end"))
    numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", path.get("d", ""))]
    return list(zip(numbers[0::2], numbers[1::2]))


def _in(shape, p) -> bool:
    x0, y0, x1, y1 = shape.bounds
    return x0 <= p[0] <= x1 and y0 <= p[1] <= y1 and contains(shape.outline, p)


def test_a_convoy_route_stays_at_sea(pictures):
    geometry = load_geometry("standard")
    variant = dipsat.load_variant("standard")
    seas = [geometry.provinces[p] for p in variant.map.sea_provinces]
    checked = 0
    for name, result, root in pictures:
        for group in root.iter(f"{SVG}g"):
            classes = group.get("class", "").split()
            if "move" not in classes or "order" not in classes:
                continue
            points = _route(group)
            if len(points) <= 2:
                continue
            src, dst = group.get("id", "").split("-")[2], group.get("id", "").split("-")[-1]
            ends = [geometry.provinces[src], geometry.provinces[dst]]
            for (x1, y1), (x2, y2) in zip(points, points[1:]):
                steps = max(2, int(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5))
                for i in range(steps + 1):
                    p = (x1 + (x2 - x1) * i / steps, y1 + (y2 - y1) * i / steps)
                    near = [q for q in points if abs(q[0] - p[0]) + abs(q[1] - p[1]) <= 2]  # a border point
                    # at sea, or within 1.5 map units of it (2 px at the default width: a line's edge)
                    inside = any(_in(s, (p[0] + dx, p[1] + dy)) for dx, dy in
                                 ((0, 0), (1.5, 0), (-1.5, 0), (0, 1.5), (0, -1.5)) for s in [*ends, *seas])
                    assert inside or near, (name, group.get("id"), p)
            checked += 1
    assert checked > 20
    # 6.H.12: the English route lvp - iri - eng - nth - edi does not cross England
    root = next(root for name, _, root in pictures if name == "6.H.12")
    route = _route(root.find(f".//{SVG}g[@id='order-move-lvp-edi']"))
    for pid in ("lon", "wal", "yor"):  # not more than 1.5 map units (a line's edge) into them
        shape = geometry.provinces[pid]
        for (x1, y1), (x2, y2) in zip(route, route[1:]):
            for t in range(51):
                p = (x1 + (x2 - x1) * t / 50, y1 + (y2 - y1) * t / 50)
                assert not all(contains(shape.outline, (p[0] + dx, p[1] + dy))
                               for dx, dy in ((0, 0), (1.5, 0), (-1.5, 0), (0, 1.5), (0, -1.5))), (pid, p)


# --- 5. colours told apart, and listed ---------------------------------------------------

from dipsat.printers import palette  # noqa: E402


@pytest.mark.parametrize("name", ["standard", "modern"])
def test_every_two_powers_colours_and_the_impassable_grey_are_told_apart(name):
    powers = [info.name for info in dipsat.load_variant(name).powers]
    colours = {p: palette.POWER_COLOURS[p] for p in powers}
    grounds = {"land": palette.LAND, "sea": palette.SEA, "impassable": palette.IMPASSABLE,
               "off the board": palette.OFFBOARD}
    shades = {p: palette.shade(c) for p, c in colours.items()}
    for i, a in enumerate(powers):
        for b in powers[i + 1:]:
            assert palette.distance(colours[a], colours[b]) >= palette.UNIT_DISTANCE, (a, b)
            assert palette.distance(shades[a], shades[b]) >= palette.SHADE_DISTANCE, (a, b)
        assert palette.distance(colours[a], palette.IMPASSABLE) >= palette.UNIT_DISTANCE, a
        for ground, colour in grounds.items():
            assert palette.distance(shades[a], colour) >= palette.SHADE_DISTANCE, (a, ground)
    assert palette.SHADE_DISTANCE >= 20 and palette.UNIT_DISTANCE >= 30
    # the distance is CIE76: black to white is 100, a colour to itself 0
    assert round(palette.distance("#000000", "#ffffff")) == 100 and palette.distance("#123456", "#123456") == 0


def test_the_legend_lists_each_powers_shade_and_unit_colour():
    state = dipsat.load_variant("standard").initial_state()
    state = state.with_(units=tuple(u for u in state.units if u.power != "Italy"))  # Italy: centres, no units
    root = ET.fromstring(svg.board(state))
    entries = [g for g in root.iter(f"{SVG}g") if "legend-entry" in g.get("class", "").split()]
    powers = {g.findtext(f"{SVG}text"): g for g in entries if "power" in g.get("class", "").split()}
    assert set(powers) == {"Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"}
    for power, entry in powers.items():
        swatch = entry.find(f"{SVG}rect")
        dot = entry.find(f"{SVG}circle")
        assert swatch is not None and dot is not None
        assert swatch.get("fill") == palette.shade(palette.POWER_COLOURS[power])
        assert dot.get("fill") == palette.POWER_COLOURS[power]
        # the shade in the legend is the one the map uses
        home = {"Austria": "vie", "England": "lon", "France": "par", "Germany": "ber", "Italy": "rom",
                "Russia": "mos", "Turkey": "ank"}[power]
        province = root.find(f".//{SVG}path[@id='province-{home}']")
        assert province is not None and province.get("fill") == swatch.get("fill")
    assert any("shade" in g.get("class", "").split() and "owner" in (g.findtext(f"{SVG}text") or "")
               for g in entries)


# --- 6. small provinces readable at the default size ---------------------------------------


def _units_in_pixels(root: ET.Element) -> list[tuple[str, tuple[float, float]]]:
    box, width = _map_box(root)
    scale = width / box[2]
    out = []
    for group in root.find(f"{SVG}svg").iter(f"{SVG}g"):
        if "unit" in group.get("class", "").split():
            x0, y0, x1, y1 = _symbol_box(group)
            out.append((group.get("id", ""), (((x0 + x1) / 2 - box[0]) * scale, ((y0 + y1) / 2 - box[1]) * scale)))
    return out


def test_the_low_countries_are_magnified_where_the_map_is_too_small_to_read(pictures):
    result = next(result for name, result, _ in pictures if name == "rulebook.game.F1902M")
    root = ET.fromstring(svg.board(result=result))  # the whole map at the default width
    box, width = _map_box(root)
    assert R * width / box[2] < 10  # a unit is less than 10 px across its radius: too small
    inset = root.find(f".//{SVG}g[@id='inset']")
    assert inset is not None
    view = inset.find(f"{SVG}svg")
    use = view.find(f"{SVG}use")
    assert use is not None and use.get("href") == "#map-layers" and root.find(f".//*[@id='map-layers']") is not None
    x, y, w, h = (float(view.get(k, 0)) for k in ("x", "y", "width", "height"))
    vx, vy, vw, vh = (float(v) for v in view.get("viewBox", "").split())
    scale = w / vw
    assert abs(scale - h / vh) < 0.01
    assert R * scale >= 10 and R * scale >= 2 * R * width / box[2] * 0.8  # units and labels (7 map units) readable
    geometry = load_geometry("standard")
    for pid in ("bel", "hol", "den"):  # each unit there is whole in the inset
        px, py = geometry.provinces[pid].unit
        assert vx + R <= px <= vx + vw - R and vy + R <= py <= vy + vh - R, pid
    total = [float(v) for v in root.get("viewBox", "").split()]
    assert 0 <= x and x + w <= total[2] and 0 <= y and y + h <= total[3]
    map_height = float(root.find(f"{SVG}svg").get("height", 0))
    if y < map_height:  # drawn over the map: over no unit
        for uid, (ux, uy) in _units_in_pixels(root):
            assert not (x - R <= ux <= x + w + R and y - R <= uy <= y + h + R), uid
    legend = root.find(f".//{SVG}g[@id='legend']")
    assert legend is not None and float(legend.get("transform", "").split()[1].rstrip(")")) >= y + h
    # the frame on the map is the part the inset shows
    frame = root.find(f".//*[@id='inset-frame']")
    assert frame is not None and [float(frame.get(k, 0)) for k in ("x", "y", "width", "height")] == [vx, vy, vw, vh]


def test_no_inset_where_units_are_readable(pictures):
    for name, _, root in pictures[:40]:
        box, width = _map_box(root)
        if R * width / box[2] >= 10:
            assert root.find(f".//*[@id='inset']") is None, name
    state = dipsat.load_variant("standard").initial_state()
    assert 'id="inset"' not in svg.board(state, size=2400)  # the whole map, large enough
    assert 'id="inset"' not in svg.board(state.with_(units=()))  # nothing in a small province


@pytest.mark.parametrize("name", ["standard", "modern"])
def test_the_whole_map_at_its_default_width_has_units_of_eight_pixels_or_more(name):
    state = dipsat.load_variant(name).initial_state()
    root = ET.fromstring(svg.board(state))
    box, width = _map_box(root)
    r = 42.0 / load_geometry(name).km_per_unit
    assert r * width / box[2] >= svg.FULL_RADIUS >= 8
    assert width == 1000 if name == "standard" else width > 1000
    assert root.find(f".//{SVG}g[@id='inset']") is not None  # and the small provinces magnified
