"""dipsat.printers.svg: board pictures. Every unit, order, dislodged unit and standoff of a case appears
(found by id and class), the SVG is well-formed, the same input gives the same bytes, and a few
pictures are rendered to pixels (resvg) to check colours at province points."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest

import dipsat
from dipsat.printers import svg
from dipsat.runners.cases import run_case
from dipsat.maps.geometry import load_geometry
from dipsat.orders import Build, Convoy, Disband, Hold, Move, Remove, Retreat, SupportHold, SupportMove, Waive

from .conftest import CASES, cases_in, datc_case, load_case

FILES = sorted([*(CASES / "datc").glob("*.txt"), *(CASES / "rulebook").glob("*.txt"), *(CASES / "modern").glob("*.txt")])


def _loc(loc) -> str:
    return f"{loc.province}-{loc.coast}" if loc.coast else loc.province


def _order_id(order, unit) -> str:
    """The id the picture gives an order (before any -2 suffix), written out independently."""
    src = None
    if not isinstance(order, (Build, Waive)):
        src = _loc(unit.location if unit is not None else order.unit.location)
    if isinstance(order, Hold):
        return f"order-hold-{src}"
    if isinstance(order, Move):
        return f"order-move-{src}-{_loc(order.dest)}"
    if isinstance(order, Retreat):
        return f"order-retreat-{src}-{_loc(order.dest)}"
    if isinstance(order, SupportHold):
        return f"order-support-{src}-{_loc(order.target.location)}"
    if isinstance(order, SupportMove):
        return f"order-support-{src}-{_loc(order.target.location)}-{_loc(order.dest)}"
    if isinstance(order, Convoy):
        return f"order-convoy-{src}-{_loc(order.target.location)}-{_loc(order.dest)}"
    if isinstance(order, Disband):
        return f"order-disband-{src}"
    if isinstance(order, Remove):
        return f"order-remove-{src}"
    if isinstance(order, Build):
        return f"order-build-{_loc(order.location)}"
    return f"order-waive-{(order.power or '?').lower()}"


def _unit_id(prefix, unit) -> str:
    return f"{prefix}-{unit.power.lower()}-{unit.kind.value}-{_loc(unit.location)}"


def _by_id(text: str) -> dict[str, ET.Element]:
    root = ET.fromstring(text)  # well-formed, or this raises
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    out = {}
    for element in root.iter():
        eid = element.get("id")
        if eid is not None:
            assert eid not in out, f"duplicate id {eid}"
            out[eid] = element
    return out


def _classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_unit_order_and_dislodged_unit_of_each_case_appears(path):
    drawn = 0
    for case in cases_in(path):
        run = run_case(case)
        if run.result is None:
            continue
        result = run.result
        picture = svg.board(result=result, area="auto")
        ids = _by_id(picture)
        before = result.before
        displaced = {d.unit for d in before.dislodged}
        if before.phase.kind is dipsat.PhaseKind.MOVEMENT:
            displaced |= {u for u in before.units if u not in result.after.units
                          and not any(r.unit == u and r.succeeded and isinstance(r.order, Move) for r in result.results)}
        for unit in before.units:
            if unit not in displaced:
                assert _unit_id("unit", unit) in ids, (case.id, unit)
        for unit in displaced:
            element = ids.get(_unit_id("dislodged", unit))
            assert element is not None and "dislodged" in _classes(element), (case.id, unit)
        for unit, options in result.retreat_options.items():
            for loc in options:
                assert f"retreat-option-{_loc(unit.location)}-{_loc(loc)}" in ids, (case.id, unit, loc)
        seen: dict[str, int] = {}
        for r in result.results:
            base = _order_id(r.order, r.unit)
            seen[base] = seen.get(base, 0) + 1
            eid = base if seen[base] == 1 else f"{base}-{seen[base]}"
            assert eid in ids, (case.id, eid, sorted(i for i in ids if i.startswith("order")))
            classes = _classes(ids[eid])
            assert "order" in classes
            if r.succeeded:
                assert "succeeds" in classes and "failed" not in classes, (case.id, eid)
            else:
                assert "failed" in classes and str(r.reason).replace(" ", "-") in classes, (case.id, eid, classes)
        for pid in result.after.standoffs if before.phase.kind is dipsat.PhaseKind.MOVEMENT else ():
            assert f"standoff-{pid}" in ids, (case.id, pid)
        if result.backup_rules:
            notes = " ".join(e.text or "" for e in ET.fromstring(picture).iter() if "note" in _classes(e))
            for rule in result.backup_rules:
                assert rule in notes, (case.id, rule)
        drawn += 1
    assert drawn > 0


def test_same_input_same_bytes():
    run = run_case(datc_case("6.F.24"))
    assert svg.board(result=run.result) == svg.board(result=run.result)
    assert svg.board(result=run.result, area="auto") == svg.board(result=run.result, area="auto")


def test_paradox_orders_are_marked_with_the_rule():
    run = run_case(datc_case("6.F.14"))
    ids = _by_id(svg.board(result=run.result))
    convoy = ids["order-convoy-eng-bre-lon"]
    assert {"failed", "paradox"} <= _classes(convoy)
    assert "Szykman" in convoy.find("{http://www.w3.org/2000/svg}title").text


def test_position_and_orders_before_adjudication():
    variant = dipsat.load_variant("standard")
    state = variant.initial_state()
    orders, errors = dipsat.notation.parse_orders("England: F lon - nth\nFrance: A par - bur\nGermany: A mun S A par - bur\n"
                                                  "Russia: F stp/sc H\nTurkey: F ank C A con - sev", variant)
    assert not errors
    ids = _by_id(svg.board(state, orders=orders))
    for unit in state.units:
        assert _unit_id("unit", unit) in ids
    assert "unit-russia-F-stp-sc" in ids
    for eid in ("order-move-lon-nth", "order-move-par-bur", "order-support-mun-par-bur", "order-hold-stp-sc",
                "order-convoy-ank-con-sev"):
        assert _classes(ids[eid]) & {"succeeds", "failed"} == set(), eid  # no outcome before adjudication
    for pid in load_geometry("standard").provinces:
        assert f"province-{pid}" in ids
    assert "impassable-swi" in ids and "impassable" in _classes(ids["impassable-swi"])
    assert "crossing-den-swe" in ids


def test_area_crops_to_the_units_and_orders():
    variant = dipsat.load_variant("standard")
    state = variant.initial_state().with_(units=(dipsat.Unit("France", dipsat.UnitKind.ARMY, dipsat.Location("par")),))
    whole = ET.fromstring(svg.board(state))
    corner = ET.fromstring(svg.board(state, area="auto"))
    box = [float(v) for v in corner.find("{http://www.w3.org/2000/svg}svg").get("viewBox").split()]
    full = [float(v) for v in whole.find("{http://www.w3.org/2000/svg}svg").get("viewBox").split()]
    paris = load_geometry("standard").provinces["par"].unit
    assert box[2] < full[2] / 3 and box[3] < full[3] / 3
    assert box[0] < paris[0] < box[0] + box[2] and box[1] < paris[1] < box[1] + box[3]
    with pytest.raises(ValueError, match="unknown province"):
        svg.board(state, area=["xyz"])


def test_retreat_and_adjustment_phases():
    run = run_case(datc_case("6.H.1.retreat"))
    ids = _by_id(svg.board(result=run.result))
    for d in run.result.before.dislodged:
        assert "dislodged" in _classes(ids[_unit_id("dislodged", d.unit)])
    run = run_case(load_case(CASES / "modern" / "wings.txt", "modern.4.7.c"))
    ids = _by_id(svg.board(result=run.result))
    assert "blockaded" in _classes(ids["centre-geo"])
    assert "build" in _classes(ids["order-build-gor"])
    assert "failed" in _classes(ids["order-build-stp"])


# --- pixels ---------------------------------------------------------------------------


def _render(text: str):
    resvg_py = pytest.importorskip("resvg_py")
    from PIL import Image
    return Image.open(io.BytesIO(bytes(resvg_py.svg_to_bytes(svg_string=text)))).convert("RGB")


def _hex(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def _close(a, b, tolerance=12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


@pytest.mark.parametrize("name", ["standard", "modern"])
def test_rendered_colours_at_province_points(name):
    variant = dipsat.load_variant(name)
    state = variant.initial_state()
    state = state.with_(units=())  # centres and provinces only
    geometry = load_geometry(name)
    width = 2000
    image = _render(svg.board(state, size=width, labels=False, legend=False))
    scale = width / geometry.width

    def pixel(point):
        return image.getpixel((int(point[0] * scale), int(point[1] * scale)))

    owners = state.owner_of
    for pid, shape in geometry.provinces.items():
        if shape.centre is None:
            continue
        expected = svg.POWER_COLOURS[owners[pid]] if pid in owners else "#ffffff"
        assert _close(pixel(shape.centre), _hex(expected)), (pid, pixel(shape.centre), expected)
    france = "par" if name == "standard" else "lyo"
    assert _close(pixel(geometry.provinces[france].centre), _hex(svg.POWER_COLOURS["France"]))
    for pid in ("nth", "ion", "bla") if name == "standard" else ("nth", "ion", "cas"):
        assert _close(pixel(geometry.provinces[pid].unit), _hex(svg.SEA)), pid
    for pid, shape in geometry.impassable.items():
        if _area(shape.outline) > 50:  # (Malta is a few pixels, mostly border)
            assert _close(pixel(shape.label), _hex(svg.IMPASSABLE)), pid


def _area(rings) -> float:
    return sum(abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(r, r[1:] + r[:1]))) / 2 for r in rings)


def test_rendered_units_in_their_power_colour():
    state = dipsat.load_variant("standard").initial_state()
    geometry = load_geometry("standard")
    width = 2000
    image = _render(svg.board(state, size=width, labels=False, legend=False))
    scale = width / geometry.width
    r = 42.0 / geometry.km_per_unit
    for unit in state.units:
        x, y = geometry.unit_point(unit.location)
        # left of the letter, inside the symbol
        colour = image.getpixel((int((x - r * 0.7) * scale), int(y * scale)))
        assert _close(colour, _hex(svg.POWER_COLOURS[unit.power])), (unit, colour)


# --- the pictures of docs/pictures, the library's front door, bad options -------------


def _make_pictures():
    import importlib.util

    from .conftest import ROOT
    spec = importlib.util.spec_from_file_location("make_pictures", ROOT / "scripts" / "make_pictures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _initial() -> dipsat.State:
    return dipsat.load_variant("standard").initial_state()


def test_the_committed_pictures_are_what_the_code_draws_now():
    module = _make_pictures()
    drawn = module.pictures()
    assert len(drawn) == 10
    for name, what, text in drawn:
        assert "(PASS)" in what
        assert (module.OUT / name).read_text(encoding="utf-8") == text, f"{name}: run scripts/make_pictures.py --png"


def test_dipsat_svg_is_the_board_of_the_printers():
    from dipsat import svg as front
    state = _initial()
    assert front.board(state) == svg.board(state)


def test_bad_sizes_colours_and_areas_are_clear_errors():
    state = _initial()
    for size in (-100, 0, 63, 8193, 100_000):
        with pytest.raises(ValueError, match="size: expected a width of 64 to 8192 pixels"):
            svg.board(state, size=size)
    with pytest.raises(ValueError, match="colours: expected #rrggbb for France, not 'red'"):
        svg.board(state, colours={"France": "red"})
    with pytest.raises(ValueError, match="area: unknown province 'xyz'"):
        svg.board(state, area="bur,xyz")
    assert svg.board(state, area="full") == svg.board(state)
    assert svg.board(state, area="bur, mun") == svg.board(state, area=["mun", "bur"])


def test_a_player_set_up_draws_its_closed_home_countries_grey():
    from dipsat.setups import closed_variant
    state = _initial()
    variant = closed_variant(state.variant, ("Italy",))
    closed = dipsat.State(variant, state.phase, state.units, state.owners)
    picture = ET.fromstring(svg.board(closed))
    ven = picture.find(".//*[@id='province-ven']")
    assert ven is not None and "closed" in ven.get("class").split() and ven.get("fill") == svg.IMPASSABLE
    par = picture.find(".//*[@id='province-par']")
    assert "closed" not in par.get("class").split()
    assert picture.find(".//*[@class='legend-entry closed']") is not None
