"""Orders as people paste them (issue 11, item 5): the DATC's layout ("Germany:" alone on a
line), order lines that cannot be read listed in the result (and --strict), BOMs, CRLF and
Windows-1252 files, impassable provinces as illegal orders, "did you mean", the misspellings
other adjudicators' files use, and which DATC 4.C designation rule applied."""

from __future__ import annotations

import codecs
import json

import pytest

import dipsat
from dipsat.errors import UnknownNameError
from dipsat.notation import RejectedOrder, format_order, parse_order, parse_orders, power_header
from dipsat.outcomes import IllegalCode
from dipsat.formats.textfile import decode_text

from .conftest import CASES, run

V = dipsat.load_variant("standard")
PASTED = str(CASES / "pasted" / "datc_layout.txt")

# DATC 6.A.6 exactly as the DATC prints it (with its trailing space after the power's name)
DATC_6A6 = "Germany: \nF London - North Sea\n"


def texts(text: str) -> list[str]:
    orders, errors = parse_orders(text, V)
    assert not errors, errors
    return [format_order(o) for o in orders]


# --- a power's name alone on a line ----------------------------------------------------------


def test_the_datc_layout_gives_the_power_to_the_orders_under_it():
    assert texts(DATC_6A6) == ["Germany: F lon - nth"]
    assert texts("Austria: \nA Vienna - Tyrolia\n\nItaly: \nA Venice - Tyrolia\n") == [
        "Austria: A vie - tyr", "Italy: A ven - tyr"]


def test_a_blank_line_ends_the_block_a_comment_line_does_not():
    assert texts("Germany:\nA mun - tyr\n\nA vie - tyr\n") == ["Germany: A mun - tyr", "A vie - tyr"]
    assert texts("Germany:\nA mun - tyr\n# a note\nA ber - kie\n") == ["Germany: A mun - tyr", "Germany: A ber - kie"]
    assert texts("Germany:\nA mun - tyr\n   \t\nA ber - kie\n") == ["Germany: A mun - tyr", "A ber - kie"]


def test_an_order_with_its_own_power_keeps_it_and_the_block_goes_on():
    assert texts("England:\nF lon - nth\nGermany: F kie - hol\nF edi - nwg\nFrance:\nA par - bur\n") == [
        "England: F lon - nth", "Germany: F kie - hol", "England: F edi - nwg", "France: A par - bur"]


@pytest.mark.parametrize("line, power", [("Germany:", "Germany"), ("Germany: ", "Germany"), ("GERMANY", "Germany"),
                                         ("german:", "Germany"), ("Deutschland:", "Germany"),
                                         ("Germany: # orders", "Germany"), ("A mun H", None), ("Germany: A mun H", None),
                                         ("", None), ("GROSS-BRITANNIEN:", "England"),
                                         ("Groß-Britannien:", "England"), ("GROSSBRITANNIEN:", "England"),
                                         ("DEUTSCHES REICH:", "Germany"), ("ÖSTERREICH-UNGARN:", "Austria"),
                                         ("OSMANISCHES REICH:", "Turkey"), ("RUSSLAND:", "Russia"),
                                         ("FRANKREICH:", "France"), ("ITALIEN:", "Italy"), ("Engeland:", "England"),
                                         ("Duitsland:", "Germany"), ("Frankrijk:", "France"), ("Italië:", "Italy"),
                                         ("Rusland:", "Russia"), ("Turkije:", "Turkey"), ("Oostenrijk:", "Austria")])
def test_power_header(line, power):
    """Every heading the seeds' rulebooks print (the German 000 in capitals, the Dutch 002)."""
    assert power_header(line, V) == power


@pytest.mark.parametrize("line, hint", [("Germnay:", "did you mean Germany?"), ("Nowhere:", ""),
                                        ("Germnay", "did you mean Germany?"), ("GROSS-BRITANIEN:", "did you mean England?")])
def test_a_heading_that_names_no_power_is_an_error(line, hint):
    with pytest.raises(UnknownNameError) as caught:
        power_header(line, V)
    assert caught.value.hint == hint


def test_a_misspelt_power_is_never_guessed_but_suggested():
    """'Germnay:' is not read as Germany: the line is rejected with a suggestion, in a header
    as before an order, and the orders under a rejected heading are not read: they belong to
    no known power (issue 17), each reported with the heading's suggestion."""
    orders, errors = parse_orders("Germnay:\nA mun - ruh\nAustira: A vie - gal\nEngland: F lon - nth\n", V)
    assert [format_order(o) for o in orders] == ["England: F lon - nth"]
    assert [(e.line, e.hint) for e in errors] == [(1, "did you mean Germany?"), (2, "did you mean Germany?"),
                                                  (3, "did you mean Austria?")]
    assert "in the heading on line 1" in str(errors[1]) and "'Germnay:'" in str(errors[1])


def test_a_blank_line_ends_an_unreadable_heading_too():
    orders, errors = parse_orders("Nowhere:\nA par - bur\n\nA mar - spa\n", V)
    assert [format_order(o) for o in orders] == ["A mar - spa"]
    assert [e.line for e in errors] == [1, 2]


def test_every_phase_kind_reads_the_layout():
    orders, errors = parse_orders("Russia:\nBuild F St Petersburg(nc)\nWaive\n", V, dipsat.PhaseKind.ADJUSTMENT)
    assert not errors and [format_order(o) for o in orders] == ["Russia: Build F stp/nc", "Russia: Waive"]


def test_datc_6a6_pasted_reproduces_the_datc_result_in_text_and_json():
    res = run("adjudicate", PASTED, "--case", "pasted.6.A.6")
    assert res.exit_code == 0 and res.stderr == ""
    assert "  Germany  F lon - nth  illegal  the unit in lon belongs to England (DATC 6.A.6)" in res.stdout
    assert "  England  F lon\n" in res.stdout  # the fleet did not move
    doc = json.loads(run("adjudicate", PASTED, "--case", "pasted.6.A.6", "--format", "json").stdout)
    (order,) = doc["orders"]
    assert order["order"] == "Germany: F lon - nth"
    assert order["outcome"] == {"kind": "illegal", "code": IllegalCode.FOREIGN_UNIT.value}
    assert doc["rejected"] == []
    assert [u for u in doc["after"]["units"] if u["power"] == "England"] == [
        {"power": "England", "kind": "F", "location": "lon"}]


def test_datc_text_pasted_on_stdin():
    res = run("adjudicate", str(CASES / "datc" / "6a_basic.txt"), "--case", "6.A.6", "-", input=DATC_6A6)
    assert res.exit_code == 0
    assert "Germany  F lon - nth  illegal" in res.stdout


# --- lines that cannot be read are in the result -------------------------------------------


BAD = "England:\nF lon - nrth\nF edi - nwg\nItly: A ven H\n"


def test_rejected_lines_in_text_json_and_case_output(tmp_path):
    orders = tmp_path / "orders.txt"
    orders.write_text(BAD, encoding="utf-8")
    res = run("adjudicate", "--initial", str(orders))
    assert res.exit_code == 0
    assert res.stderr.splitlines() == [
        f"{orders}:2: 'F lon - nrth': at column 9: expected a province name or abbreviation, found 'nrth'; "
        f"did you mean North Sea (nth)? (order skipped)",
        f"{orders}:4: 'Itly: A ven H': at column 1: expected a power's name before ':', found 'Itly'; "
        f"did you mean Italy? (order skipped)"]
    skipped = res.stdout.split("Not read (skipped):\n")[1].split("New position:")[0]
    assert " ".join(skipped.split()).startswith(f"{orders}:2: 'F lon - nrth': at column 9: expected")
    assert "England  F edi - nwg  succeeds" in res.stdout
    doc = json.loads(run("adjudicate", "--initial", str(orders), "--format", "json").stdout)
    assert [(r["source"], r["line"], r["text"]) for r in doc["rejected"]] == [
        (str(orders), 2, "F lon - nrth"), (str(orders), 4, "Itly: A ven H")]
    assert "did you mean North Sea (nth)?" in doc["rejected"][0]["error"]
    case = run("adjudicate", "--initial", str(orders), "--format", "case").stdout
    assert case.splitlines()[1].startswith(f"# Not read, skipped: {orders}:2: 'F lon - nrth'")
    assert "nrth" not in case.split("ORDERS")[1]  # the line is not among the orders


def test_strict_makes_an_unreadable_line_an_error(tmp_path):
    orders = tmp_path / "orders.txt"
    orders.write_text(BAD, encoding="utf-8")
    res = run("adjudicate", "--initial", str(orders), "--strict")
    assert res.exit_code == 1 and res.stdout == ""
    assert all(line.endswith("(error: --strict)") for line in res.stderr.splitlines())
    orders.write_text("England:\nF lon - nth\n", encoding="utf-8")
    assert run("adjudicate", "--initial", str(orders), "--strict").exit_code == 0


def test_case_file_orders_that_cannot_be_read_are_listed(tmp_path):
    case = tmp_path / "case.txt"
    case.write_text("CASE x\nPRESTATE\n\tEngland: F lon\nORDERS\n\tEngland:\n\tF lon - Nrth Sea\nEND\n", encoding="utf-8")
    doc = json.loads(run("adjudicate", str(case), "--format", "json").stdout)
    assert [(r["line"], r["text"]) for r in doc["rejected"]] == [(6, "F lon - Nrth Sea")]
    assert run("adjudicate", str(case), "--strict").exit_code == 1


# --- encodings ---------------------------------------------------------------------------------


GERMAN = "Deutschland:\r\nA München - Tirol\r\nF Kiel - Ostsee\r\n"


@pytest.mark.parametrize("data, warned", [
    (GERMAN.encode("utf-8"), False), (codecs.BOM_UTF8 + GERMAN.encode("utf-8"), False),
    (GERMAN.encode("cp1252"), True), (codecs.BOM_UTF16_LE + GERMAN.encode("utf-16-le"), False),
    (GERMAN.replace("\r\n", "\r").encode("latin-1"), True),
])
def test_order_files_as_saved_on_windows(tmp_path, data, warned):
    orders = tmp_path / "befehle.txt"
    orders.write_bytes(data)
    res = run("adjudicate", "--initial", str(orders))
    assert res.exit_code == 0
    assert "Germany  A mun - tyr  succeeds" in res.stdout and "Germany  F kie - bal  succeeds" in res.stdout
    if warned:
        assert res.stderr == f"{orders}:2: not UTF-8 (byte 0xfc): read as Windows-1252 (warning)\n"
    else:
        assert res.stderr == ""


def test_stdin_that_is_not_utf8():
    res = run("adjudicate", "--initial", "-", input=GERMAN.encode("cp1252"))
    assert res.exit_code == 0 and "A mun - tyr  succeeds" in res.stdout
    assert res.stderr == "<stdin>:2: not UTF-8 (byte 0xfc): read as Windows-1252 (warning)\n"


def test_decode_text_falls_back_to_latin1_where_windows_1252_has_no_character():
    text, warning = decode_text(b"A mun H\n\x81\n", "f")
    assert text == "A mun H\n\x81\n" and warning == "f:2: not UTF-8 (byte 0x81): read as Latin-1 (warning)"


def test_game_turn_reads_a_windows_order_file(tmp_path):
    game, orders = tmp_path / "g.json", tmp_path / "orders.txt"
    assert run("game", "new", str(game)).exit_code == 0
    orders.write_bytes(GERMAN.encode("cp1252"))
    res = run("game", "turn", str(game), str(orders))
    assert res.exit_code == 0, res.stderr
    assert "Germany  A mun - tyr  succeeds" in res.stdout
    assert "not UTF-8" in res.stderr


def test_game_turn_reads_the_datc_layout_with_retreats_in_advance(tmp_path):
    game = tmp_path / "g.json"
    assert run("game", "new", str(game)).exit_code == 0
    res = run("game", "turn", str(game), "-", input="Austria:\nA vie - gal\nA bud R ser if dislodged by Russia\n"
                                                   "\nRussia:\nA war - gal\n")
    assert res.exit_code == 0, res.stderr
    assert "Austria  A vie - gal  bounced" in res.stdout and "Russia   A war - gal  bounced" in res.stdout
    saved = json.loads(game.read_text())
    assert saved["phases"][0]["advance_retreats"] == ["A bud R ser if dislodged by Russia"]


# --- impassable provinces, did you mean, aliases -------------------------------------------------


def test_an_order_into_switzerland_is_an_illegal_order_in_the_result():
    res = run("adjudicate", "--initial", "-", input="Germany: A mun - Switzerland\nFrance: A mar S A mun - swi\n")
    assert res.exit_code == 0 and res.stderr == ""
    assert "Germany  A mun - swi          illegal  Switzerland is impassable" in res.stdout
    assert "France   A mar S A mun - swi  illegal  Switzerland is impassable" in res.stdout


def test_modern_islands_are_impassable():
    modern = dipsat.load_variant("modern")
    order = parse_order("Italy: F tys - Sicily", modern)
    (result,) = dipsat.adjudicate(modern.initial_state(), [order]).results
    assert result.detail == "Sicily is impassable"


@pytest.mark.parametrize("text, hint", [
    ("F nap - Tyrrhenain Sea", "did you mean Tyrrhenian Sea (tys)?"),
    ("A lvp - Lverpool", "did you mean Liverpool (lvp)?"),
    ("F lon - Nrth Sea", "did you mean North Sea (nth)?"),
    ("A mun - Swiss", "did you mean Switzerland (swi)?"),
    ("Frnc: A par H", "did you mean France?"),
])
def test_did_you_mean(text, hint):
    with pytest.raises(UnknownNameError) as info:
        parse_order(text, V)
    assert info.value.hint == hint and str(info.value).endswith(hint)


def test_no_guess_for_nonsense():
    with pytest.raises(UnknownNameError) as info:
        parse_order("F lon - xyzzy", V)
    assert info.value.hint == ""


@pytest.mark.parametrize("name, pid", [("Tyrhennian Sea", "tys"), ("Golf of Lyon", "lyo"), ("Gulf of Lions", "lyo"),
                                       ("West Mediterreanan", "wes"), ("Sevastapol", "sev"), ("Burgandy", "bur"),
                                       ("Breast", "bre"), ("Tyrrenian Sea", "tys")])
def test_misspellings_other_adjudicators_use(name, pid):
    assert dipsat.notation.parse_location(name, V) == dipsat.Location(pid)


# --- designation rules (DATC 4.C) name themselves ----------------------------------------------


@pytest.mark.parametrize("text, words", [
    ("England: F lvp - iri", "an army cannot move to sea (DATC 6.A.2); the order says F, but the unit in lvp is an "
                             "army: the order is read as the army's (DATC 4.C.2 b)"),
    ("England: lvp - iri", "an army cannot move to sea (DATC 6.A.2); the order names no unit type: read as the "
                           "army in lvp (DATC 4.C.1 b)"),
    ("Germany: A kie - mun", "a fleet cannot move inland (DATC 6.A.3); the order says A, but the unit in kie is a "
                             "fleet: the order is read as the fleet's (DATC 4.C.2 b)"),
    ("England: A lvp - iri", "an army cannot move to sea (DATC 6.A.2)"),
])
def test_an_army_to_sea_or_a_fleet_inland_says_which_designation_rule_applied(text, words):
    (result,) = dipsat.adjudicate(V.initial_state(), [parse_order(text, V)]).results
    assert result.detail == words


def test_messages_name_orders_in_the_games_words():
    state = V.initial_state()
    orders = [parse_order(t, V) for t in ("Russia: Build A mos", "Germany: A mun R bur", "England: Waive")]
    details = [r.detail for r in dipsat.adjudicate(state, orders).results]
    assert details == ["a build order is not a movement-phase order", "a retreat order is not a movement-phase order",
                       "a waive order is not a movement-phase order"]


def test_rejected_order_value():
    orders, errors = parse_orders("A mun H\nA mun - nowhere\n", V)
    line = RejectedOrder.of("f.txt", errors[0])
    assert (line.line, line.text, str(line)) == (2, "A mun - nowhere", f"f.txt:2: {errors[0]}")
    assert line.to_json() == {"source": "f.txt", "line": 2, "text": "A mun - nowhere", "error": str(errors[0])}
