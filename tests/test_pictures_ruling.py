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
