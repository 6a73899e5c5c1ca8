"""Reading orders and positions as the rulebooks print them and people paste them (issue 17,
"Reading orders and positions"): headings that name no power, the seeds' notation, case files
pasted flush-left, DATC tests pasted without a position. CLI tests run `dipsat` itself."""

from __future__ import annotations

import json

import pytest

import dipsat
from dipsat.formats.casefile import parse_unit_line
from dipsat.formats.pasted import units_from_orders
from dipsat.notation import format_order, parse_order, parse_orders

from .conftest import CASES, all_cases, run

V = dipsat.load_variant("standard")
MODERN = dipsat.load_variant("modern")


def run_on(tmp_path, name: str, text: str, *args: str):
    """`dipsat ARGS FILE` on `text` saved as tmp_path/name; the result and the file's path."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return run(*args, str(path)), path


def strict_initial(tmp_path, orders_text: str) -> dict[str, str]:
    """`adjudicate --initial ORDERS --strict --format json`: every line read; the units after."""
    orders = tmp_path / "orders.txt"
    orders.write_text(orders_text, encoding="utf-8")
    result = run("adjudicate", "--initial", str(orders), "--format", "json", "--strict")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["rejected"] == []
    return units_after(result.stdout)


def units_after(output: str) -> dict[str, str]:
    """The JSON result's units after the phase: province -> 'Power K loc'."""
    data = json.loads(output)
    return {u["location"].split("/")[0]: f"{u['power']} {u['kind']} {u['location']}" for u in data["after"]["units"]}


# --- 1. a heading that names no power ------------------------------------------------------


def test_orders_under_a_misspelt_heading_are_not_given_to_the_units_owner(tmp_path):
    """'Germnay:' then 'F London - North Sea' must not move England's fleet: the line under
    the heading belongs to no known power; it is skipped with the heading's suggestion."""
    orders = tmp_path / "orders.txt"
    orders.write_text("Germnay:\nF London - North Sea\n", encoding="utf-8")
    result = run("adjudicate", "--initial", str(orders), "--format", "json")
    assert result.exit_code == 0
    assert units_after(result.stdout)["lon"] == "England F lon"
    assert f"{orders}:2: 'F London - North Sea'" in result.stderr
    assert "heading on line 1" in result.stderr and "did you mean Germany?" in result.stderr
    strict = run("adjudicate", "--initial", str(orders), "--strict")
    assert strict.exit_code == 1 and "error: --strict" in strict.stderr


def test_the_german_rulebooks_heading_is_read(tmp_path):
    """Figure 7 of the German rulebook (000) heads England's orders 'GROSS-BRITANNIEN:'."""
    after = strict_initial(tmp_path, "FRANKREICH:\nA Par - Bur\n\nGROSS-BRITANNIEN:\nF London - North Sea\n")
    assert after["nth"] == "England F nth" and after["bur"] == "France A bur"


@pytest.mark.parametrize("heading, power", [("DEUTSCHES\nREICH:", "Germany"), ("ÖSTERREICH-\nUNGARN:", "Austria"),
                                            ("OSMANISCHES\nREICH:", "Turkey")])
def test_a_heading_printed_on_two_lines(heading, power):
    """The German rulebook (000) breaks its long headings over two lines (figures 8, 9, 12)."""
    orders, errors = parse_orders(f"{heading}\nA Sil-Pru\n", V)
    assert not errors and [format_order(o) for o in orders] == [f"{power}: A sil - pru"]
    orders, errors = parse_orders("Hello\nREICH:\nA Sil-Pru\n", V)  # two lines that name no power together
    assert orders == [] and [e.line for e in errors] == [1, 2, 3]


def test_an_unreadable_heading_ends_the_previous_powers_block():
    """Lines under a heading that names no power are not the previous heading's either."""
    orders, errors = parse_orders("FRANKREICH:\nA Par - Bur\nGROSSBRITANIEN:\nF Lon - Nth\n", V)
    assert [format_order(o) for o in orders] == ["France: A par - bur"]
    assert [(e.line, e.hint) for e in errors] == [(3, "did you mean England?"), (4, "did you mean England?")]


def test_any_heading_that_names_no_power_ends_the_block():
    orders, errors = parse_orders("France:\nA par - bur\nEngland (Tom):\nF lon - nth\nEngland: F edi - nwg\n", V)
    assert [format_order(o) for o in orders] == ["France: A par - bur", "England: F edi - nwg"]
    assert [(e.line, e.hint) for e in errors] == [(3, "did you mean England?"), (4, "did you mean England?")]


def test_a_heading_ends_at_a_blank_line():
    orders, errors = parse_orders("Germnay:\nF kie - hol\n\nF lon - nth\n", V)
    assert [format_order(o) for o in orders] == ["F lon - nth"]
    assert [e.line for e in errors] == [1, 2]


# --- 4. notation from the seeds and from people --------------------------------------------


@pytest.mark.parametrize("text, canonical", [
    ("F London houdt stand", "F lon H"),  # Dutch rulebook (002)
    ("A Pru XXX", "A pru H"),
    ("A Pru-XXX", "A pru H"),  # German rulebook (000), figures 7 and 9
    ("F TYS-XXX", "F tys H"),
    ("F Mar - Spanien-Nordküste", "F mar - spa/nc"),  # German e-mail rules (001)
    ("F Mar - Spanien-Südküste", "F mar - spa/sc"),
    ("F Gas - Spa-nc", "F gas - spa/nc"),
    ("F Spa-nc - Mao", "F spa/nc - mao"),
    ("F Bul-ec H", "F bul/ec H"),
    ("A Par → Bur", "A par - bur"),
    ("A Par→Bur", "A par - bur"),
    ("F Nwg - Norwegisches Meer", "F nwg - nwg"),
    ("F Nth S F Edi - Norwegisches Meer", "F nth S F edi - nwg"),
    ("A Mar-Bur.", "A mar - bur"),  # 000 ends some orders with a full stop
])
def test_notation_of_the_seeds(text, canonical):
    assert format_order(parse_order(text, V)) == canonical


def test_a_dash_before_a_sea_is_a_move_not_a_coast():
    """'Spa-nc' is a coast, but 'Spa - North Sea' (a province's name as long as the coast's)
    stays a move."""
    assert format_order(parse_order("F Spa - North Sea", V)) == "F spa - nth"
    assert format_order(parse_order("F Stp - North Atlantic", V)) == "F stp - nao"


@pytest.mark.parametrize("name, province", [("Norwegisches Meer", "nwg"), ("Östl. Mittelmeer", "eme"),
                                            ("Der Kanal", "eng"), ("Kanal", "eng"), ("Noordzee", "nth"),
                                            ("Nord-Atlantik", "nao"), ("Tyrrhenischen Meer", "tyr"),
                                            ("Kaspisches Meer", "cas"), ("Bottn. Meerbusen", "gob"),
                                            ("Roten Meer", "red"), ("Persischen Golf", "per")])
def test_moderns_german_names(name, province):
    """The Modern map (seed 004, German) reads the German names of its seas as the standard map does."""
    order = parse_order(f"F Nth - {name}" if province != "nth" else f"F Nwg - {name}", MODERN)
    assert order.dest.province == province  # type: ignore[union-attr]


# Seed 004's starting position as it prints it (section 2), with a colon after each nation.
MODERN_START = """Großbritannien: F Edinburgh, F Gibraltar, F Liverpool, W London
Ägypten: F Alexandria, A Aswan, F Cairo
Frankreich: W Bordeaux, A Lyon, A Marseille, A Paris
Deutschland: F Berlin, A Frankfurt, F Hamburg, A München
Italien: A Mailand, F Neapel, A Rom, F Venedig
Polen: F Danzig, A Krakow, A Warschau
Rußland: W Gorki, A Moskau, A Murmansk, F Rostov, F St. Petersburg
Spanien: F Barcelona, A Madrid, A Sevilla
Türkei: A Adana, F Ankara, F Izmir, A Istanbul
Ukraine: A Kharkov, A Kiew, A Odessa, F Sevastopol
"""


def test_the_modern_seeds_starting_position_in_its_own_words():
    """Every German name of seed 004's starting units is read, each line one nation's units
    separated by commas: read as holds, they are the Modern variant's starting units."""
    orders, errors = parse_orders(MODERN_START, MODERN)
    assert not errors
    units = {(o.power, o.unit.kind, o.unit.province) for o in orders}
    assert units == {(u.power, u.kind, u.province) for u in MODERN.initial_state().units}


def test_several_orders_on_one_line():
    """The e-mail rules (001) write a power's orders on one line, separated by commas, and
    the next power's name starts its own (also without a comma before it)."""
    text = ("England: F Den - Kie, F Nth - Den, Russia: A Ber - Kie, F Skag - Den, F Bal S F Skag - Den\n"
            "Austria: A Ser H Russia:A Rum - Ser, A Bud S A Rum - Ser Turkey: A Bul - Ser, A Gre S A Bul - Ser.\n"
            "Italien: A Ven XXX, A Pie - Mar,\n")
    orders, errors = parse_orders(text, V)
    assert not errors
    assert [format_order(o) for o in orders] == [
        "England: F den - kie", "England: F nth - den", "Russia: A ber - kie", "Russia: F ska - den",
        "Russia: F bal S F ska - den", "Austria: A ser H", "Russia: A rum - ser", "Russia: A bud S A rum - ser",
        "Turkey: A bul - ser", "Turkey: A gre S A bul - ser", "Italy: A ven H", "Italy: A pie - mar"]


def test_orders_on_one_line_take_the_heading_and_a_bad_power_stops_the_line():
    orders, errors = parse_orders("France:\nA Par - Bur, A Mar - Spa; F Bre - Mao\nRusia: A War - Gal, A Mos - Ukr\n", V)
    assert [format_order(o) for o in orders] == ["France: A par - bur", "France: A mar - spa", "France: F bre - mao"]
    assert [(e.line, e.hint) for e in errors] == [(3, "did you mean Russia?"), (3, "did you mean Russia?")]
    assert "before it on line 3" in str(errors[1])


def test_several_orders_on_one_line_through_the_cli(tmp_path):
    after = strict_initial(tmp_path, "Frankreich: A Par → Bur, F Bre-XXX, A Mar - Spa\n")
    assert after["bur"] == "France A bur" and after["spa"] == "France A spa" and after["bre"] == "France F bre"


# --- 2. case files pasted flush-left ---------------------------------------------------------

FLUSH_LEFT = """CASE flush
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
England: F lon
France: A par
ORDERS
England: F lon - nth
POSTSTATE
England: F nth
France: A par
END
"""


def test_a_flush_left_case_file_is_adjudicated_not_an_empty_board(tmp_path):
    path = tmp_path / "flush.txt"
    path.write_text(FLUSH_LEFT, encoding="utf-8")
    result = run("adjudicate", str(path), "--strict", "--format", "json")
    assert result.exit_code == 0 and result.stderr == ""
    assert units_after(result.stdout) == {"nth": "England F nth", "par": "France A par"}
    cases = run("cases", str(path))
    assert cases.exit_code == 0 and cases.stdout.startswith("PASS flush")
    legal = run("orders", str(path), "--unit", "A par")  # every command reads case files alike
    assert legal.exit_code == 0 and "A par - bur" in legal.stdout


def test_validate_reads_flush_left_case_files_too():
    result = run("validate", str(CASES / "pasted" / "flush_left.txt"), "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "3 records read (games, or cases of case files), 0 rejected as a whole" in result.output
    assert "total              3         3         0" in result.output  # all three agreed


def test_orders_on_an_empty_board_are_refused(tmp_path):
    """A case with orders and no unit (no PRESTATE lines) is not adjudicated as an empty board."""
    result, path = run_on(tmp_path, "empty.txt", "CASE e\nPRESTATE_SETPHASE S1901M\nORDERS\n\tEngland: F lon - nth\nEND\n",
                          "adjudicate")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"{path}:1: case e: no unit on the board")
    retreat, _ = run_on(tmp_path, "retreat.txt", "CASE r\nPRESTATE_SETPHASE F1901R\nPRESTATE_DISLODGED\n\tRussia: A war\n"
                        "PRESTATE_RESULTS\n\tSUCCESS: Germany: A pru - war\nORDERS\n\tRussia: A war - ukr\nEND\n",
                        "adjudicate", "--format", "json")
    assert retreat.exit_code == 0, retreat.stderr  # only dislodged units: a board all the same
    assert _units(json.loads(retreat.stdout)["after"]["units"]) == {"Russia: A ukr"}


def test_a_case_file_pasted_indented_throughout(tmp_path):
    """Pasted with every line indented (keywords too, as a quoted forum post): a keyword in
    capitals is a keyword wherever it starts."""
    text = "".join(f"    {line}\n" for line in FLUSH_LEFT.splitlines())
    result, _ = run_on(tmp_path, "indented.txt", text, "cases")
    assert result.exit_code == 0 and result.stdout.startswith("PASS flush"), result.output


def test_a_misspelt_keyword_is_an_error_not_data(tmp_path):
    """A line at column 0 meant as a keyword (capitals and an underscore, or close to one) is
    not read as data: its block would be lost, so adjudicate refuses the case."""
    result, path = run_on(tmp_path, "typo.txt", FLUSH_LEFT.replace("POSTSTATE\n", "POSTSTAT\n"), "adjudicate")
    assert result.exit_code == 2
    assert f"{path}:8: unknown keyword 'POSTSTAT' (did you mean POSTSTATE?)" in result.stderr
    cases = run("cases", str(path))
    assert cases.exit_code == 1 and "ERROR flush" in cases.stdout


def test_a_flush_left_line_outside_a_block_is_still_an_error(tmp_path):
    result, _ = run_on(tmp_path, "outside.txt", "CASE x\nEngland: F lon\nPRESTATE_SETPHASE Spring 1901, Movement\n"
                       "PRESTATE\nEngland: F lon\nPOSTSTATE_SAME\nEND\n", "cases")
    assert result.exit_code == 1 and "outside.txt:2: unknown keyword 'England:'" in result.stdout


# --- 4. positions written as people write them ----------------------------------------------


def test_two_units_in_one_province_names_the_units_line(tmp_path):
    result, path = run_on(tmp_path, "two.txt", "CASE two\nPRESTATE_SETPHASE S1901M\nPRESTATE\n\tEngland: F lon\n"
                          "\tFrance: A par\n\tFrance: A lon\nORDERS\n\tFrance: A par - bur\nPOSTSTATE_SAME\nEND\n",
                          "adjudicate")
    assert result.exit_code == 2
    assert result.stderr == f"{path}:6: case two: France: A lon: lon already holds England: F lon (line 4)\n"
    cases = run("cases", str(path))
    assert f"{path}:6: case two: France: A lon" in cases.stdout


@pytest.mark.parametrize("phase, expected", [("W1901A", "Fall 1901, Adjustment"), ("F1901R", "Fall 1901, Retreat"),
                                             ("S1902M", "Spring 1902, Movement"),
                                             ("Winter 1901", "Fall 1901, Adjustment")])
def test_the_short_phase_form_in_setphase(tmp_path, phase, expected):
    result, _ = run_on(tmp_path, "phase.txt", f"CASE p\nPRESTATE_SETPHASE {phase}\nPRESTATE\n\tEngland: F lon\nEND\n",
                       "adjudicate")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"p: {expected} ")


def test_a_phase_that_cannot_be_read_says_both_forms(tmp_path):
    result, _ = run_on(tmp_path, "phase.txt", "CASE p\nPRESTATE_SETPHASE X1901Q\nPRESTATE\n\tEngland: F lon\nEND\n",
                       "adjudicate")
    assert result.exit_code == 2
    assert "phase.txt:2: phase 'X1901Q': expected e.g. 'Spring 1901, Movement' or S1901M" in result.stderr


def test_owners_without_a_unit_letter(tmp_path):
    path = tmp_path / "owners.txt"
    path.write_text("CASE o\nPRESTATE_SETPHASE W1901A\nPRESTATE_SUPPLYCENTER_OWNERS\n\tFrance: par\n\tFrance: A bre\n"
                    "\tFrance: Nowhere\nPRESTATE\n\tFrance: A par\nEND\n", encoding="utf-8")
    result = run("adjudicate", str(path))
    assert result.exit_code == 2  # the third owner line names no province
    assert "owners.txt:6: PRESTATE_SUPPLYCENTER_OWNERS: 'France: Nowhere': expected 'Power: centre'" in result.stderr
    path.write_text(path.read_text(encoding="utf-8").replace("\tFrance: Nowhere\n", ""), encoding="utf-8")
    result = run("adjudicate", str(path), "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["before"]["owners"] == {"bre": "France", "par": "France"}


# --- 3. DATC tests pasted as the DATC writes them (no position) ----------------------------

DATC_TEXT = sorted((CASES / "pasted" / "datc_text").glob("*.orders"))
_DATC_CASES = {case.id: case for case in all_cases(CASES / "datc")}


def _units(rows: list[dict]) -> set[str]:
    return {f"{u['power']}: {u['kind']} {u['location']}" for u in rows}


def _case_units(lines) -> set[str]:
    """A case block's units, written as the JSON's (``Russia: A nwy`` for ``Russia: A nor``)."""
    return {str(parse_unit_line(line.text, V)) for line in lines}


@pytest.mark.parametrize("path", DATC_TEXT, ids=[p.stem for p in DATC_TEXT])
def test_a_datc_test_pasted_whole_gives_the_datcs_result(path):
    """The section of the DATC document, pasted verbatim (title, prose, orders under power
    names; no position): `--from-orders` takes the units the orders name, which are the
    test's position (the bundled case of the same id says so), and gives the DATC's result
    (its POSTSTATE). The prose lines are reported as not read."""
    case = _DATC_CASES[path.stem]
    result = run("adjudicate", "--from-orders", str(path), "--rules", (case.rules or ["datc"])[0], "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    before = _case_units(case.block("PRESTATE"))
    assert _units(data["before"]["units"]) == before
    assert _units(data["after"]["units"]) == (before if case.post_same else _case_units(case.block("POSTSTATE")))
    assert _units(data["dislodged"]) == _case_units(case.block("POSTSTATE_DISLODGED"))
    assert "no position given: the units the orders name, Spring 1901, Movement" in result.stderr
    assert all(f"  {unit} (" in result.stderr for unit in before)  # each unit taken is said


def test_stdin_without_a_prestate_is_read_as_pasted_orders():
    """POSITION '-' holding orders and no PRESTATE: the position is taken from the orders."""
    text = (CASES / "pasted" / "datc_text" / "6.D.32.orders").read_text(encoding="utf-8")
    result = run("adjudicate", "-", "--rules", "datc", "--format", "json", input=text)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert "Germany: A yor" in _units(data["after"]["units"]) and data["dislodged"] == []  # 6.D.32
    assert result.stderr.startswith("<stdin>: no position given")
    prose = run("adjudicate", "-", "--format", "json", input="Case 1: a bounce.\nAustria:\nA vie - tyr\n")
    assert prose.exit_code == 0 and "Austria: A vie" in prose.stderr  # 'Case' in prose is no CASE keyword


def test_supported_and_convoyed_units_take_the_headings_power():
    """A unit named only in a support or a convoy belongs to the heading's power; one with an
    order of its own is that unit; a convoyed unit is an army; a nationality is kept."""
    orders, errors = parse_orders("England:\nF North Sea Convoys Yorkshire - Norway\nF Edi S F nth\n\nFrance:\n"
                                  "A Bur S A Par\nA Mar S Italian A Piedmont - Burgundy\nF Bre S Edi - Nth\n", V)
    assert not errors
    taken, problems = units_from_orders(orders, V)
    assert {str(t.unit): t.reason for t in taken} == {
        "England: F nth": "ordered", "England: F edi": "ordered", "France: A bur": "ordered",
        "France: A mar": "ordered", "France: F bre": "ordered", "England: A yor": "convoyed",
        "France: A par": "supported", "Italy: A pie": "supported"}
    assert problems == []


@pytest.mark.parametrize("text, problem", [
    ("A Vienna - Tyrolia\n", "no power gives it"),
    ("France:\nA Bur S Brest - Paris\n", "is the unit in bre an army or a fleet?"),
    ("France:\nF Mao S F Spain\n", "the fleet in spa needs its coast"),
    ("France:\nBuild A par\n", "not a movement order"),
])
def test_what_cannot_be_taken_from_the_orders_is_an_error(tmp_path, text, problem):
    result, path = run_on(tmp_path, "orders.txt", text, "adjudicate", "--from-orders")
    assert result.exit_code == 2 and f"{path}: " in result.stderr and problem in result.stderr


def test_from_orders_in_another_phase_and_variant(tmp_path):
    result, _ = run_on(tmp_path, "orders.txt", "Polen:\nA Warschau - Krakau\n", "adjudicate", "--from-orders",
                       "--variant", "modern", "--phase", "F1996M", "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert _units(json.loads(result.stdout)["after"]["units"]) == {"Poland: A kra"}
    assert "Fall 1996, Movement (modern map" in result.stderr
    retreat, _ = run_on(tmp_path, "orders.txt", "France:\nA par - bur\n", "adjudicate", "--from-orders", "--phase",
                        "F1901R")
    assert retreat.exit_code == 2 and "--from-orders takes a movement phase" in retreat.stderr


def test_a_unit_of_another_power_cannot_be_told_from_the_orders():
    """DATC 6.A.6 pasted without its position: the order under Germany makes the fleet in
    London German (the note says so); the DATC's English fleet needs the position."""
    result = run("adjudicate", "--from-orders", "-", "--format", "json", input="Germany: \nF London - North Sea\n")
    assert result.exit_code == 0
    assert "  Germany: F lon (ordered: Germany: F lon - nth)" in result.stderr


# Issue 22: a unit line as dipsat writes it (``England: F stp/sc``) is read without the
# lenient steps; the same line with the power in capitals takes them. Both readings agree on
# every power, kind and location of both maps, as positions and as ownership lines: the same
# unit, or the same error.
def _unit_line_outcome(text: str, variant, placement: bool) -> str:
    try:
        return repr(parse_unit_line(text, variant, placement))
    except (ValueError, dipsat.errors.DipsatError) as exc:
        return f"{type(exc).__name__}: {exc}"


@pytest.mark.parametrize("variant", [V, MODERN], ids=["standard", "modern"])
def test_a_unit_line_as_written_reads_as_the_lenient_reader_reads_it(variant):
    locations = {str(loc) for prov in variant.map.provinces.values()
                 for loc in [prov.id, *(f"{prov.id}/{coast}" for coast in prov.coasts)]}
    read = 0
    for power in variant.power_names.values():
        for kind in "AFW":
            for loc in sorted(locations):
                for placement in (True, False):
                    text, shouting = f"{power}: {kind} {loc}", f"{power.upper()}: {kind} {loc}"
                    outcome = _unit_line_outcome(text, variant, placement)
                    assert outcome == _unit_line_outcome(shouting, variant, placement).replace(repr(shouting), repr(text))
                    read += not outcome.startswith(("ValueError", "NotationError"))
    assert read > 1000
