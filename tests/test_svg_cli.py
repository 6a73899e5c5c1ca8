"""The picture commands: adjudicate --format svg|png, draw, game show --format svg, cases --svg."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest


from .conftest import CASES, run

FIGURES = str(CASES / "rulebook" / "figures.txt")
CONVOYS = str(CASES / "datc" / "6f_convoys.txt")
SVG = "{http://www.w3.org/2000/svg}"


def ids(text: str) -> dict[str, set[str]]:
    root = ET.fromstring(text)
    return {e.get("id"): set(e.get("class", "").split()) for e in root.iter() if e.get("id")}


def test_adjudicate_svg_draws_the_results_in_a_corner_of_the_map():
    res = run("adjudicate", FIGURES, "--case", "rulebook.fig08", "--format", "svg")
    assert res.exit_code == 0
    found = ids(res.output)
    assert {"order", "move", "succeeds"} <= found["order-move-mar-bur"]
    assert {"order", "support", "succeeds"} <= found["order-support-gas-mar-bur"]
    assert {"order", "hold", "failed", "dislodged"} <= found["order-hold-bur"]
    assert "dislodged" in found["dislodged-germany-A-bur"]
    assert "retreat-option-bur-par" in found
    box = ET.fromstring(res.output).find(f"{SVG}svg").get("viewBox").split()
    assert float(box[2]) < 400  # cropped (the whole map is 836 wide)


def test_adjudicate_writes_png_and_text_to_a_file(tmp_path):
    pytest.importorskip("resvg_py")
    png = tmp_path / "fig.png"
    res = run("adjudicate", FIGURES, "--case", "rulebook.fig08", "--format", "png", "-o", str(png))
    assert res.exit_code == 0 and res.output == ""
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    text = tmp_path / "fig.txt"
    res = run("adjudicate", FIGURES, "--case", "rulebook.fig08", "-o", str(text))
    assert res.exit_code == 0 and "A mar - bur" in text.read_text()


def test_draw_a_position_alone_and_with_orders(tmp_path):
    res = run("draw", CONVOYS, "--case", "6.F.24", "--no-orders")
    assert res.exit_code == 0
    found = ids(res.output)
    assert "unit-russia-F-nth" in found and "unit-france-A-bre" in found
    assert not [i for i in found if i.startswith("order-")]
    res = run("draw", CONVOYS, "--case", "6.F.24")
    found = ids(res.output)
    assert found["order-convoy-nth-nwy-bel"] == {"order", "convoy"}  # drawn, not adjudicated
    orders = tmp_path / "orders.txt"
    orders.write_text("England: F lon - nth\nFrance: A par - bur\n")
    res = run("draw", "--initial", str(orders), "--area", "full")
    found = ids(res.output)
    assert found["order-move-lon-nth"] == {"order", "move"} and "order-move-par-bur" in found
    box = ET.fromstring(res.output).find(f"{SVG}svg").get("viewBox").split()
    assert box[:2] == ["0", "0"]
    res = run("draw", "--initial", str(orders), "--area", "xyz")
    assert res.exit_code == 2 and "unknown province 'xyz'" in res.output


def test_draw_reports_an_unreadable_position(tmp_path):
    missing = tmp_path / "none.txt"
    res = run("draw", str(missing))
    assert res.exit_code == 2 and "none.txt: cannot read" in res.stderr


def test_game_show_svg_draws_a_played_phase(tmp_path):
    game = tmp_path / "g.json"
    assert run("game", "new", str(game)).exit_code == 0
    orders = tmp_path / "o.txt"
    orders.write_text("England: F lon - nth\nFrance: A par - bur\nGermany: A mun - bur\n")
    assert run("game", "turn", str(game), str(orders)).exit_code == 0
    res = run("game", "show", str(game), "--phase", "S1901M", "--format", "svg")
    assert res.exit_code == 0
    found = ids(res.output)
    assert {"succeeds"} <= found["order-move-lon-nth"]
    assert {"failed", "bounced"} <= found["order-move-par-bur"] and {"failed", "bounced"} <= found["order-move-mun-bur"]
    assert "standoff-bur" in found
    res = run("game", "show", str(game), "--format", "svg")  # the position now (Fall 1901)
    found = ids(res.output)
    assert "unit-england-F-nth" in found and not [i for i in found if i.startswith("order-")]


def test_cases_svg_writes_pictures_of_failing_cases(tmp_path):
    case = tmp_path / "bad.txt"
    case.write_text("VARIANT_ALL Standard\nCASE bad.1 a wrong expectation\nPRESTATE_SETPHASE Spring 1901, Movement\n"
                    "PRESTATE\n\tFrance: A par\nORDERS\n\tFrance: A par - bur\nPOSTSTATE\n\tFrance: A par\nEND\n")
    out = tmp_path / "pictures"
    res = run("cases", str(case), "--svg", str(out))
    assert res.exit_code == 1
    assert sorted(p.name for p in out.iterdir()) == ["bad.1.after.svg", "bad.1.before.svg"]
    assert "order-move-par-bur" in ids((out / "bad.1.before.svg").read_text())
    assert "unit-france-A-bur" in ids((out / "bad.1.after.svg").read_text())
    res = run("cases", FIGURES, "--svg", str(tmp_path / "none"))  # nothing fails: no pictures
    assert res.exit_code == 0 and not any((tmp_path / "none").iterdir())
    (tmp_path / "a-file").write_text("")
    for where in ("a-file", "a-file/below"):  # a file, or a folder that cannot be made: one clear error
        res = run("cases", str(case), "--svg", str(tmp_path / where))
        assert res.exit_code in (1, 2) and isinstance(res.exception, SystemExit), res.output
        assert res.output.strip().splitlines()[-1].startswith("Error:") and where in res.output


def test_draw_refuses_a_size_it_cannot_draw():
    for size in ("-100", "0", "100000"):
        res = run("draw", FIGURES, "--case", "rulebook.fig08", "--size", size, "--format", "png")
        assert res.exit_code == 2 and "'--size'" in res.output and "64<=x<=8192" in res.output


def test_a_two_player_game_is_drawn_with_its_closed_countries(tmp_path):
    game = tmp_path / "g2.json"
    assert run("game", "new", "--players", "2", str(game)).exit_code == 0
    res = run("game", "show", str(game), "--format", "svg")
    assert res.exit_code == 0, res.output
    ids = {e.get("id"): e for e in ET.fromstring(res.output).iter() if e.get("id")}
    closed = [i for i, e in ids.items() if i.startswith("province-") and "closed" in e.get("class", "").split()]
    # the 2-player set-up leaves Italy neutral: its home country is closed, the rest of the map is not
    assert sorted(i.removeprefix("province-") for i in closed) == ["apu", "nap", "pie", "rom", "tus", "ven"]


def test_draw_a_retreat_position_shows_the_options_of_the_rules_chosen(tmp_path):
    """A retreat phase drawn alone: the options are worked out under the rules (here DATC
    4.A.5: may a unit dislodged by a convoyed army retreat to the army's origin?), not by the
    printer, which draws what it is given and adjudicates nothing."""
    state = {"format": "dipsat/2", "type": "state", "variant": "standard",
             "phase": {"year": 1901, "season": "Spring", "kind": "Retreat"},
             "units": [{"power": "England", "kind": "A", "location": "pic"},
                       {"power": "England", "kind": "F", "location": "eng"}],
             "dislodged": [{"power": "France", "kind": "A", "location": "pic", "attacker_origin": "bre",
                            "by_convoy": True}]}
    path = tmp_path / "retreat.json"
    path.write_text(json.dumps(state))
    drawn = {}
    for profile in ("1971", "2000"):  # 4.A.5 a and b
        res = run("draw", str(path), "--rules", profile)
        assert res.exit_code == 0, res.output
        drawn[profile] = {i for i in ids(res.output) if i.startswith("retreat-option-pic-")}
    assert drawn["2000"] - drawn["1971"] == {"retreat-option-pic-bre"} and "retreat-option-pic-par" in drawn["1971"]
    from dipsat.printers.svg import board
    from dipsat.formats.dipsat_json import state_from_json
    alone = ids(board(state_from_json(state)))
    assert not any(i.startswith("retreat-option-") for i in alone)  # nothing worked out in the printer
