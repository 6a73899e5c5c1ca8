"""Explanations that hide nothing (issue 17): `dipsat adjudicate` on case files, as users run
it, in the text table, `--explain` and JSON."""

from __future__ import annotations

import json

from . import conftest
from .conftest import CASES, unit_doc

CONVOYS = str(CASES / "datc" / "6f_convoys.txt")
BUILDS = str(CASES / "datc" / "6i_builds.txt")
DISBANDS = str(CASES / "datc" / "6j_disbands.txt")


def run(*args: str, input: str | None = None) -> str:
    """The output of `dipsat ARGS`, which must succeed."""
    res = conftest.run(*args, input=input)
    assert res.exit_code == 0, res.output
    return res.stdout


def explanation(text: str, order: str) -> list[str]:
    """The --explain facts of one order (continuation lines joined)."""
    lines = text[text.index("Explanations:\n"):].splitlines()[1:]
    start = lines.index(f"  {order}") + 1
    facts: list[str] = []
    for line in lines[start:]:
        if not line.startswith("      "):
            break
        if line.startswith("        "):
            facts[-1] += " " + line.strip()
        else:
            facts.append(line.strip())
    return facts


def table_row(text: str, order: str) -> str:
    """The text table's row of one order (continuation lines joined)."""
    lines = text[text.index("Orders:\n"):].splitlines()[1:]
    start = next(i for i, line in enumerate(lines) if f"  {order}  " in line)
    row = lines[start]
    for line in lines[start + 1:]:
        if not line.startswith(" " * 20):
            break
        row += " " + line.strip()
    return " ".join(row.split())


def json_order(doc: dict, order: str) -> dict:
    return next(o for o in doc["orders"] if o["order"] == order)


# --- a convoying fleet in a paradox (DATC 6.F.22, 6.F.24) ---------------------------------------


def test_6_F_24_paradox_fleet_says_it_was_dislodged_by_whom_and_where_it_retreats():
    text = run("adjudicate", CONVOYS, "--case", "6.F.24", "--explain")
    facts = explanation(text, "Russia: F nth C A nwy - bel")
    assert facts[0].startswith("fails: Szykman rule")
    assert "F nth is attacked by F edi - nth" in facts
    assert "F nth stays in place: hold strength 1; hold supports: none" in facts
    assert "F nth is dislodged by F edi (attack strength 2; supports: F lon) (DATC 5.A)" in facts
    assert "F nth may retreat to den, hel, hol, nwg, ska, yor" in facts
    # the fleet that held says so, with its hold strength and the support that counted
    facts = explanation(text, "France: F eng C A bre - lon")
    assert "F eng is attacked by F iri - eng" in facts
    assert "F eng stays in place: hold strength 2; hold supports: F bel" in facts
    assert "F eng is not dislodged" in facts
    assert not any("retreat" in f for f in facts)
    assert table_row(text, "F nth C A nwy - bel").endswith("the fleet is dislodged by F edi - nth (attack 2 vs hold 1)")
    assert table_row(text, "F eng C A bre - lon").endswith("the fleet holds against F iri - eng (hold 2)")


def test_6_F_22_paradox_fleet_dislodgement_in_json():
    doc = json.loads(run("adjudicate", CONVOYS, "--case", "6.F.22", "--format", "json"))
    eng = json_order(doc, "France: F eng C A bre - lon")
    assert eng["result"] == "paradox"
    assert eng["outcome"]["attacked_by"] == ["Germany: F pic - eng"]
    assert eng["outcome"]["hold"]["value"] == 1
    assert eng["outcome"]["dislodged_by"] == {"unit": unit_doc("France: F eng"), "by": "Germany: F pic - eng",
                                              "by_convoy": False, "attack": 2,
                                              "supports": [unit_doc("Germany: F bel")]}
    assert "dislodged by F pic - eng (attack 2 vs hold 1)" in eng["detail"]
    retreat = next(d for d in doc["dislodged"] if d["location"] == "eng")
    assert retreat["retreat_options"] == ["iri", "mao", "wal"]


def test_a_fleet_not_in_a_paradox_keeps_its_convoy_outcome():
    """Under the 1982 rule 6.F.24 has no paradox: the North Sea fleet's convoy fails as dislodged."""
    doc = json.loads(run("adjudicate", CONVOYS, "--case", "6.F.24", "--rule", "4.A.2=b", "--format", "json"))
    nth = json_order(doc, "Russia: F nth C A nwy - bel")
    assert nth["result"] == "dislodged"
    assert "attacked_by" not in nth["outcome"]


# --- the orders in the order given (DATC 4.D.4, 4.D.6) ---------------------------------------------


def test_6_I_1_builds_listed_as_given_so_the_first_legal_build_is_seen_first():
    text = run("adjudicate", BUILDS, "--case", "6.I.1")
    rows = text[text.index("Orders:\n"):text.index("Adjustments:")].splitlines()[1:]
    orders = [row.split()[1:4] for row in rows if row.startswith("  Germany")]
    assert orders == [["Build", "A", "war"], ["Build", "A", "kie"], ["Build", "A", "mun"]]
    assert "blocked" in table_row(text, "Build A mun")


def test_6_J_1_removals_listed_as_given():
    text = run("adjudicate", DISBANDS, "--case", "6.J.1")
    rows = [row.split()[1:4] for row in text[text.index("Orders:\n"):text.index("Adjustments:")].splitlines()[1:]]
    assert rows == [["Remove", "F", "lyo"], ["Remove", "A", "pic"], ["Remove", "A", "par"]]
    # JSON keeps each order's index in the order given
    doc = json.loads(run("adjudicate", DISBANDS, "--case", "6.J.1", "--format", "json"))
    assert [(o["index"], o["order"]) for o in sorted(doc["orders"], key=lambda o: o["index"])] == [
        (0, "France: Remove F lyo"), (1, "France: Remove A pic"), (2, "France: Remove A par")]


def test_powers_stay_grouped_and_the_table_is_deterministic():
    orders = "Germany: A mun - bur\nFrance: A par - bur\nGermany: A ber - kie\nFrance: A mar - spa\n"
    first = run("adjudicate", "--initial", "-", input=orders)
    assert first == run("adjudicate", "--initial", "-", input=orders)
    rows = [" ".join(row.split()[:5]) for row in first[first.index("Orders:\n"):].splitlines()[1:5]]
    assert rows == ["France A par - bur", "France A mar - spa", "Germany A mun - bur", "Germany A ber - kie"]


def test_6_F_2_convoy_succeeds_when_its_fleet_stands_though_the_army_bounces():
    """docs/json.md: a convoy's `succeeded` is DATC 5.B.3 (the fleet was not dislodged), not
    "the army arrived"."""
    doc = json.loads(run("adjudicate", CONVOYS, "--case", "6.F.2", "--format", "json"))
    assert json_order(doc, "England: F eng C A lon - bre")["succeeded"] is True
    assert json_order(doc, "England: A lon - bre")["succeeded"] is False


# --- builds not used -------------------------------------------------------------------------------

ADJUSTMENTS = str(CASES / "reports" / "adjustments.txt")


def adjustments_line(text: str) -> str:
    lines = text[text.index("Adjustments:\n"):text.index("New position:")].splitlines()[1:]
    return " ".join(" ".join(lines).split())


def test_unused_builds_are_counted_in_text_and_json():
    text = run("adjudicate", ADJUSTMENTS, "--case", "reports.unused_builds")
    assert adjustments_line(text) == "Russia: 6 centres, 2 units: 4 builds: 3 built, 1 not used (not ordered)"
    doc = json.loads(run("adjudicate", ADJUSTMENTS, "--case", "reports.unused_builds", "--format", "json"))
    assert doc["adjustments"] == [{"power": "Russia", "centres": 6, "units": 2, "builds": 4, "removals": 0,
                                   "built": 3, "unused": 1, "waived": 0, "refused": 0, "not_ordered": 1}]


def test_waived_and_refused_builds_are_told_apart():
    text = run("adjudicate", ADJUSTMENTS, "--case", "reports.waived_and_refused_builds")
    assert adjustments_line(text) == \
        "Russia: 6 centres, 2 units: 4 builds: 2 built, 2 not used (1 waived, 1 refused)"
    doc = json.loads(run("adjudicate", ADJUSTMENTS, "--case", "reports.waived_and_refused_builds", "--format", "json"))
    count = doc["adjustments"][0]
    assert (count["built"], count["unused"], count["waived"], count["refused"], count["not_ordered"]) == (2, 2, 1, 1, 0)


def test_6_I_1_builds_beyond_the_count_are_not_unused():
    """Germany builds its 1 build (Kiel); Warsaw is refused and Munich has no build left: none unused."""
    text = run("adjudicate", BUILDS, "--case", "6.I.1")
    assert adjustments_line(text) == "Germany: 5 centres, 4 units: 1 build: 1 built"


# --- citations -------------------------------------------------------------------------------------


def test_6_I_4_build_on_the_other_coast_cites_6_I_4():
    text = run("adjudicate", BUILDS, "--case", "6.I.4")
    assert table_row(text, "Build A stp/nc").endswith(
        "illegal stp is occupied by F stp/sc, on another coast of the province (DATC 6.I.4)")
    assert "6.I.3" not in text
    assert table_row(run("adjudicate", BUILDS, "--case", "6.I.3"), "Build A ber").endswith(
        "illegal ber is occupied (DATC 6.I.3)")


# --- civil-disorder ties by name (DATC 4.D.8) -------------------------------------------------------


def test_6_J_4_under_2000_says_which_names_and_alphabet_broke_the_tie():
    text = run("adjudicate", DISBANDS, "--case", "6.J.4", "--rules", "2000", "--explain")
    facts = explanation(text, "Russia: A lvn removed in civil disorder")
    assert facts[0] == ("distance 0 (DATC 4.D.8, reading 2000); alphabetically before A ukr (0): Livonia before "
                        "Ukraine (English names)")
    assert facts[1].startswith("the tie is broken by the map's English province names, letters a to z, ignoring "
                               "case, spaces, dots and hyphens: Livonia before Ukraine (DATC 4.D.8 prefers English)")
    doc = json.loads(run("adjudicate", DISBANDS, "--case", "6.J.4", "--rules", "2000", "--format", "json"))
    assert doc["civil_disorder"][0]["tie_break"] == "alphabetical"
    assert doc["civil_disorder"][0]["names"] == ["Livonia", "Ukraine"]


def test_a_tie_by_abbreviation_names_the_abbreviations():
    text = run("adjudicate", DISBANDS, "--case", "6.J.4", "--rule", "4.D.8=godip", "--explain")
    facts = explanation(text, "Russia: A lvn removed in civil disorder")
    assert "the tie is broken by the map's province abbreviations, a to z: lvn before ukr" in facts


def test_a_removal_by_distance_names_no_alphabet():
    text = run("adjudicate", DISBANDS, "--case", "6.J.6[2000]", "--explain")
    facts = explanation(text, "Russia: F nth removed in civil disorder")
    assert not any("tie is broken" in f or "English names" in f for f in facts)
    doc = json.loads(run("adjudicate", DISBANDS, "--case", "6.J.6[2000]", "--format", "json"))
    assert "names" not in doc["civil_disorder"][0]


# --- the 2000 rulebook's own rules, in its own words ------------------------------------------------

FIGURES = str(CASES / "rulebook" / "figures.txt")


def test_6_F_19_under_2000_names_and_quotes_rule_22():
    text = run("adjudicate", CONVOYS, "--case", "6.F.19", "--rules", "2000", "--explain")
    facts = explanation(text, "Italy: F nap S F rom - tys")
    assert facts[1].endswith("it is cut (DATC 4.A.2, 6.F.19; 2000 rulebook, rule 22 (figure 31))")
    assert facts[2].startswith("2000 rulebook, rule 22 (figure 31): ")
    assert facts[3].startswith("German edition: \u201e22. Eine Armee, der zumindest eine M\u00f6glichkeit")
    assert facts[4].startswith("Dutch edition: \u201c22. Een Leger met tenminste \u00e9\u00e9n succesvolle konvooi route")


def test_6_F_19_under_the_datc_profile_quotes_no_rulebook():
    text = run("adjudicate", CONVOYS, "--case", "6.F.19", "--explain")
    assert "rulebook" not in text and "edition" not in text


def test_figure_30_quotes_rule_21():
    text = run("adjudicate", FIGURES, "--case", "rulebook.fig30", "--explain")
    facts = explanation(text, "Italy: F nap S F ion - tys")
    assert "2000 rulebook, rule 21 (figure 30): a convoyed army does not cut support for an attack on a fleet " \
           "its convoy needs" in facts
    assert any(f.startswith("German edition: \u201e21. Eine Armee, die sich mittels Geleitzug bewegt") for f in facts)


def test_figure_7_rotation_is_the_rulebook_rule_not_a_backup_rule():
    text = run("adjudicate", FIGURES, "--case", "rulebook.fig07", "--explain")
    assert "Backup rule" not in text
    table = " ".join(text[:text.index("New position:")].split())
    assert ("Circular movement: F bel - nth, A hol - bel, F nth - hol: every move succeeds (the rulebook allows a "
            "rotation: 2000 rulebook, figure 7; DATC 5.B.9, 6.C.1)") in table
    facts = explanation(text, "England: A hol - bel")
    assert any(f.startswith("German edition: \u201eDrei oder mehr Einheiten") for f in facts)
    # quoted in full once, then cited
    later = explanation(text, "France: F nth - hol")
    assert "2000 rulebook, figure 7: three or more units may rotate, if no two of them swap places (quoted above)" \
        in later
    assert not any(f.startswith("German edition") for f in later)


def test_a_paradox_is_still_a_backup_rule():
    text = run("adjudicate", CONVOYS, "--case", "6.F.24")
    assert "Backup rule: szykman: convoy by F eng, convoy by F nth" in text


def test_6_J_4_under_2000_quotes_the_rulebook_on_the_tie():
    text = run("adjudicate", DISBANDS, "--case", "6.J.4", "--rules", "2000", "--explain")
    facts = explanation(text, "Russia: A lvn removed in civil disorder")
    assert any(f.startswith("German edition: \u201eWenn alle verbleibenden Einheiten gleich weit vom Heimatland")
               for f in facts)
    assert any("in alfabetische volgorde van de provincies" in f for f in facts)
    doc = json.loads(run("adjudicate", DISBANDS, "--case", "6.J.4", "--rules", "2000", "--explain", "--format",
                         "json"))
    assert any("alphabetischen Reihenfolge der Gebiete" in f for f in doc["explanations"][0]["facts"])


def test_the_quotations_are_the_package_data():
    from dipsat.printers.rulebook import QUOTES, quote

    for key in QUOTES:
        passage = quote(key)
        assert passage.de and passage.nl and passage.rule and "\\" not in passage.de + passage.nl


def test_the_2023_profile_quotes_not_the_2000_rulebook():
    text = run("adjudicate", CONVOYS, "--case", "6.F.19", "--rules", "2023", "--explain")
    assert "edition" not in text
