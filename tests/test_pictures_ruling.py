"""Pictures fit for a ruling (issue 17): the SVG is parsed and its geometry checked. A picture
of a retreat phase shows the retreat (not the whole map), labels stand where no unit is, a
dislodged unit stays inside its province, a convoy route stays at sea, colours are told apart
and listed, small provinces are readable at the default size."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner

from dipsat.cli import main

from .conftest import CASES

SVG = "{http://www.w3.org/2000/svg}"
RETREATS = str(CASES / "datc" / "6h_retreats.txt")


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
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
    result = CliRunner().invoke(main, ["adjudicate", RETREATS, "--case", "6.H.12", "--format", "svg",
                                       "--area", "lvp,xyz"])
    assert result.exit_code == 2 and "unknown province 'xyz'" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(main, ["adjudicate", RETREATS, "--case", "6.H.12", "--size", "500"])
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
from dipsat.runners.cases import load_cases, run_case  # noqa: E402

CASE_FILES = sorted([*(CASES / "datc").glob("*.txt"), *(CASES / "rulebook").glob("*.txt")])
R = 7.0  # a unit's radius on the standard map: 42 km at 6 km a unit


def _results() -> list[tuple[str, dipsat.PhaseResult]]:
    out = []
    for path in CASE_FILES:
        cases, _ = load_cases(path)
        for case in cases:
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
    checked = 0
    for name, _, root in pictures:
        labels = _label_boxes(root)
        for group in root.iter(f"{SVG}g"):
            if "unit" not in group.get("class", "").split():
                continue
            box = _symbol_box(group)
            for pid, label in labels.items():
                assert not _overlap(label, box), (name, pid, group.get("id"))
            checked += 1
    assert checked > 500
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
