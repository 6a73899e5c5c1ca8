"""`--explain` on the rulebook figures gives the rulebook's own reasons.

For each figure case of ``cases/rulebook/figures.txt`` (figures 4-32 of the 2000
rulebook), FAILED lists every order that fails, and for each the key phrases a
correct explanation must contain. The phrases are the reason the rulebook's prose
gives for that figure; the German words are quoted next to each entry (the
2000 rulebook, German edition; figure numbers as printed there: "the 2000 rulebook
(German edition), figure 8").
Where the prose of a figure is silent about an order, the comment says so and
quotes the general rule of the section the figure illustrates.

SUCCEEDED lists orders that succeed but whose effect the rulebook explains (a
support that is not cut, a support that does not count, a move that is not
stood off by a dislodged unit ...); their explanations are held to it as well.

German terms: "Pattsituation" = standoff (equal strength), "zum Rückzug gezwungen"
= dislodged, "unterbunden" = (support) cut, "Geleitzug" = convoy.
"""

from __future__ import annotations

import pytest

import dipsat
from dipsat.runners.cases import compare
from dipsat.printers.explain import explain
from dipsat.notation import format_order

from .conftest import CASES, case_position, cases_in, load_case

FIGURES = CASES / "rulebook" / "figures.txt"

FAILED: dict[str, dict[str, list[str]]] = {
    # Abbildung 4: "Wenn gleich viele Einheiten versuchen, sich in dasselbe Gebiet zu bewegen,
    # bewegt sich keine Einheit. ... Keine der beiden Armeen bewegt sich und Schlesien bleibt
    # unbesetzt." -- a standoff of equal strength.
    "rulebook.fig04": {
        "Germany: A ber - sil": ["bounced", "standoff with A war - sil", "prevent strength 1 = attack strength 1"],
        "Russia: A war - sil": ["bounced", "standoff with A ber - sil", "prevent strength 1 = attack strength 1"],
    },
    # Abbildung 5: "Wenn eine Einheit „Halten!“ soll oder ihre Bewegung nicht ausführen kann,
    # kann sie dadurch die Bewegung von anderen Einheiten aufhalten ... Russland hat gelogen und
    # erteilt seiner Armee den Befehl „Halten!“ ... Schlussendlich bewegt sich keine Einheit."
    "rulebook.fig05": {
        # the army in Berlin cannot move, so the fleet from Kiel cannot move in ("Verkehrsstau")
        "Germany: F kie - ber": ["A ber", "fails to move away"],
        # the Russian army holds ("Halten!") at equal strength
        "Germany: A ber - pru": ["standoff with A pru, which holds", "hold strength 1 = attack strength 1"],
    },
    # Abbildung 6: "Einheiten können ohne die Hilfe eines Geleitzugs nicht miteinander Plätze
    # tauschen. ... bewegt sich keine der beiden Einheiten."
    "rulebook.fig06": {
        "Germany: F ber - pru": ["head-to-head battle with A pru - ber", "cannot swap places without a convoy"],
        "Russia: A pru - ber": ["head-to-head battle with F ber - pru", "cannot swap places without a convoy"],
    },
    # Abbildung 7: "werden alle drei Bewegungsbefehle ausgeführt" -- nothing fails.
    "rulebook.fig07": {},
    # Abbildung 8: "unterstützt die französische Armee in der Gascogne die Armee in Marseille bei
    # ihrer Bewegung nach Burgund. Die deutsche Armee in Burgund wird zum Rückzug gezwungen."
    "rulebook.fig08": {
        "Germany: A bur H": ["dislodged by A mar", "attack strength 2", "supports: A gas"],
    },
    # Abbildung 9: "wird die deutsche Armee in Schlesien von der Flotte in der Ostsee dabei
    # unterstützt, die russische Armee in Preußen anzugreifen" (NL: "om het Russische Leger uit
    # Prussia te duwen") -- dislodged.
    "rulebook.fig09": {
        "Russia: A pru H": ["dislodged by A sil", "attack strength 2", "supports: F bal"],
    },
    # Abbildung 10: "In beiden Fällen treffen Einheiten mit einer Stärke von 2 aufeinander. Es kommt
    # zu einer Pattsituation und keine der beteiligten Einheiten bewegt sich."
    "rulebook.fig10": {
        "France: F lyo - tys": ["standoff with F nap - tys", "prevent strength 2 = attack strength 2"],
        "Italy: F nap - tys": ["standoff with F lyo - tys", "prevent strength 2 = attack strength 2"],
    },
    # Abbildung 11: (as 10) "treffen Einheiten mit einer Stärke von 2 aufeinander. Es kommt zu einer
    # Pattsituation" -- the supported hold in the Tyrrhenian Sea.
    "rulebook.fig11": {
        "France: F lyo - tys": ["standoff with F tys, which holds", "hold strength 2 = attack strength 2",
                                "hold supports: F rom"],
    },
    # Abbildung 12: "führt der Angriff der österreichischen Armee dazu, dass sich die deutsche Armee
    # aus München zurückziehen muss. Die geplante Bewegung der Armee in München nach Schlesien führt
    # aber dennoch dazu, dass es in Schlesien zu einer Pattsituation kommt und die russische Armee
    # nicht nach Schlesien ziehen kann."
    "rulebook.fig12": {
        "Germany: A mun - sil": ["standoff with A war - sil", "prevent strength 2 = attack strength 2",
                                 "A mun is dislodged by A boh", "supports: A tyr"],
        "Russia: A war - sil": ["standoff with A mun - sil", "prevent strength 2 = attack strength 2",
                                "A mun is dislodged but still has its prevent strength"],
    },
    # Abbildung 13: "zwingt die russische Armee in Rumänien die türkische Armee in Bulgarien zum
    # Rückzug ... die unterstützte Armee in Rumänien" -- beaten head to head and dislodged.
    "rulebook.fig13": {
        "Turkey: A bul - rum": ["lost the head-to-head battle with A rum - bul",
                                "defend strength 2 > attack strength 1",
                                "A bul is dislodged by A rum", "supports: A ser"],
    },
    # Abbildung 14: "Der Grund ist der doppelt unterstützte Angriff der russischen Armee in Rumänien,
    # welche die türkische Armee in Bulgarien zum Rückzug zwingt." (though supported by F BLA)
    "rulebook.fig14": {
        "Turkey: A bul - rum": ["lost the head-to-head battle with A rum - bul",
                                "defend strength 3 > attack strength 2", "supports: F bla",
                                "A bul is dislodged by A rum", "supports: A gre, A ser"],
    },
    # Abbildung 15: "wird die Unterstützung der Armee in Schlesien durch einen Angriff von Böhmen aus
    # unterbunden. Beachten Sie bitte, dass die aus Böhmen angreifende Armee die gleiche Stärke hat
    # wie die Armee in Schlesien. Die Armee in Schlesien wird daher nicht zum Rückzug gezwungen, kann
    # aber dennoch die Armee, die von Preußen aus Warschau angreift, nicht unterstützen."
    "rulebook.fig15": {
        # unsupported, it meets the army holding Warsaw at equal strength
        "Germany: A pru - war": ["standoff with A war, which holds", "not counted: A sil (cut by A boh from boh)"],
        "Germany: A sil S A pru - war": ["cut by A boh from boh"],
        # "die gleiche Stärke ... nicht zum Rückzug gezwungen"
        "Russia: A boh - sil": ["standoff with A sil", "hold strength 1 = attack strength 1"],
    },
    # Abbildung 16: "unterbindet der Angriff der Armee aus Warschau die Unterstützung aus Schlesien
    # nicht, da der Angriff aus dem Gebiet kommt, das mit Hilfe der Unterstützung angegriffen wird."
    # So the supported Pru-War dislodges the Russian army, whose own move meets A sil alone.
    "rulebook.fig16": {
        "Russia: A war - sil": ["standoff with A sil", "hold strength 1 = attack strength 1",
                                "A war is dislodged by A pru", "supports: A sil"],
    },
    # Abbildung 17: "zwingt die russische Armee, die aus Preußen angreift, die deutsche Armee in
    # Schlesien zum Rückzug. Die Unterstützung der Armee in Schlesien für die Armee aus Berlin wird
    # unterbunden, und die Bewegung der deutschen Armee von Berlin nach Preußen und der russischen
    # Flotte von der Ostsee nach Preußen endet in einer Pattsituation." -- the rule it illustrates:
    # "Dies gilt auch dann, wenn der Angriff aus dem Gebiet kommt, das mit Hilfe der unterstützenden
    # Einheit angegriffen wird."
    "rulebook.fig17": {
        "Germany: F ber - pru": ["standoff with F bal - pru", "prevent strength 1 = attack strength 1",
                                 "not counted: A sil (dislodged by A pru)"],
        "Germany: A sil S F ber - pru": ["dislodged by A pru", "supports: A war",
                                         "the attack comes from pru, the area the support is aimed at"],
        "Russia: F bal - pru": ["standoff with F ber - pru", "prevent strength 1 = attack strength 1"],
    },
    # Abbildung 18: "wird die deutsche Armee in München durch den russischen Angriff zum Rückzug
    # gezwungen. Dennoch unterbindet sie die Unterstützung der russischen Armee in Schlesien, wodurch
    # die russische Armee in Preußen keinen erfolgreichen Angriff auf Berlin durchführen kann."
    "rulebook.fig18": {
        # the prose names only the dislodgement; Mun-Sil meets A sil (not dislodged: only its
        # support is cut) at equal strength: "Pattsituation"
        "Germany: A mun - sil": ["A mun is dislodged by A boh", "supports: A tyr",
                                 "standoff with A sil", "hold strength 1 = attack strength 1"],
        "Russia: A pru - ber": ["standoff with A ber, which holds", "not counted: A sil (cut by A mun"],
        "Russia: A sil S A pru - ber": ["cut by A mun from mun", "dislodged but still cuts"],
    },
    # Abbildung 19: "wie eine Flotte in der Nordsee eine Armee von London nach Norwegen geleitet"
    "rulebook.fig19": {},
    # Abbildung 20: "wird die englische Armee von London ... innerhalb eines Zuges nach Tunis geleitet"
    "rulebook.fig20": {},
    # Abbildung 21: "wird die Flotte Im Tyrrenischem Meer zum Rückzug gezwungen. Daher kann sich die
    # französische Armee nicht von Spanien nach Neapel bewegen." -- the rule: "Wenn eine der Flotten,
    # die eine Armee geleitet, zum Rückzug gezwungen wird, scheitert der ganze Geleitzug."
    "rulebook.fig21": {
        "France: A spa - nap": ["no convoy route", "F tys (fails: dislodged by F ion)"],
        "France: F tys C A spa - nap": ["dislodged by F ion", "supports: F tun"],
    },
    # Abbildung 22: "scheitert die französische Armee in Paris, die von der Armee in Marseille
    # unterstützt wird, daran, die eigene Armee in Burgund zum Rückzug zu zwingen." -- "Ein Land kann
    # niemals seine eigenen Einheiten zum Rückzug zwingen."
    "rulebook.fig22": {
        "France: A par - bur": ["cannot dislodge A bur, a unit of its own power", "DATC 5.B.8"],
    },
    # Abbildung 23: "kann die französische Armee in Paris, obwohl sie von der deutschen Armee im
    # Ruhrgebiet unterstützt wird, die eigene Armee in Burgund nicht zum Rückzug zwingen."
    "rulebook.fig23": {
        "France: A par - bur": ["cannot dislodge A bur, a unit of its own power", "supports: A ruh"],
        # the prose is silent on Bur-Mar and Mar-Bur; the rule of figure 6: "Einheiten können ohne
        # die Hilfe eines Geleitzugs nicht miteinander Plätze tauschen"
        "France: A bur - mar": ["standoff in a head-to-head battle with A mar - bur"],
        # ... and Par-Bur, though it cannot dislodge its own army, keeps the Italian army out
        # (the rule of figure 26: "Durch den Angriff kommt es allerdings zu einer Pattsituation")
        "Italy: A mar - bur": ["standoff in a head-to-head battle with A bur - mar", "outmatched by A par - bur"],
    },
    # Abbildung 24: "scheitert die deutsche Armee im Ruhrgebiet daran, die französische Armee in
    # Burgund zum Rückzug zu zwingen, obwohl sie von der französischen Armee in Paris unterstützt
    # wird. Die französische Armee kann keinen Angriff auf eine ihrer eigenen Einheiten
    # unterstützen. Daher wird der Befehl so behandelt, als ob er nicht erteilt worden wäre."
    "rulebook.fig24": {
        "Germany: A ruh - bur": ["standoff with A bur, which holds", "hold strength 1 = attack strength 1",
                                 "not counted against A bur, a unit of France: A par"],
    },
    # Abbildung 25: "befinden sich die deutsche Armee in München und die österreichische Armee in
    # Tirol in einer Pattsituation, und keine der beiden Armeen bewegt sich. Die deutschen Armeen in
    # Schlesien und im Ruhrgebiet haben versucht, durch ihr „Bewegen!“ eine Pattsituation in München
    # herbeizuführen. ... Da sich die Armee in München nicht bewegt hat, würde der erfolgreiche
    # Angriff der deutschen Armee zum Rückzug einer deutschen Armee führen. Das ist nicht möglich,
    # und die Bewegung scheitert."
    "rulebook.fig25": {
        "Germany: A mun - tyr": ["standoff in a head-to-head battle with A tyr - mun"],
        "Germany: A ruh - mun": ["cannot dislodge A mun, a unit of its own power"],
        "Germany: A sil - mun": ["cannot dislodge A mun, a unit of its own power", "supports: A boh"],
        "Austria: A tyr - mun": ["standoff in a head-to-head battle with A mun - tyr", "outmatched by A sil - mun"],
    },
    # Abbildung 26: "kann Großbritannien durch seinen unterstützten Angriff auf Dänemark natürlich
    # nicht seine eigene Armee zum Rückzug zwingen. Durch den Angriff kommt es allerdings zu einer
    # Pattsituation mit der russischen Armee, deren Angriff gegen Dänemark sonst erfolgreich wäre."
    "rulebook.fig26": {
        "England: F nth - den": ["cannot dislodge F den, a unit of its own power", "supports: F hel"],
        "Russia: F ska - den": ["standoff with F nth - den", "prevent strength 2 = attack strength 2"],
        # the prose is silent on Den-Kie and Ber-Kie; the rule of figure 4: "Wenn gleich viele
        # Einheiten versuchen, sich in dasselbe Gebiet zu bewegen, bewegt sich keine Einheit."
        "England: F den - kie": ["standoff with A ber - kie", "prevent strength 1 = attack strength 1"],
        "Russia: A ber - kie": ["standoff with F den - kie", "prevent strength 1 = attack strength 1"],
    },
    # Abbildung 27: "gelingt der Bewegungsbefehl „A Ser - Bud“, weil er unerwartete Unterstützung
    # durch die russische Armee in Galizien erhält" -- "Wenn jedoch einer der Angriffe mehr
    # Unterstützung hat, als der andere Angriff, verläuft er erfolgreich".
    "rulebook.fig27": {
        "Austria: A vie - bud": ["outmatched by A ser - bud", "prevent strength 2 > attack strength 1"],
    },
    # Abbildung 28: "werden alle Bewegungen ausgeführt"
    "rulebook.fig28": {},
    # Abbildung 29: "Da nur einer der beiden Geleitzüge unterbunden wird, bewegt sich die Armee nach
    # Belgien." -- the Channel fleet is the one disrupted: dislodged by the supported Bre-ENG.
    "rulebook.fig29": {
        "England: F eng C A lon - bel": ["dislodged by F bre", "supports: F iri"],
    },
    # Abbildung 30: "Wenn wir nun diese Regel verwenden, scheitert der Geleitzug und die
    # Unterstützung für den Angriff auf die Flotte wird nicht unterbunden." -- the rule: "Eine Armee,
    # die sich mittels Geleitzug bewegt, kann nicht die Unterstützung für einen Angriff verhindern,
    # der eine der Flotten zum Ziel hat, die für den Geleitzug notwendig sind."
    "rulebook.fig30": {
        "France: A tun - nap": ["no convoy route", "F tys (fails: dislodged by F ion)"],
        "France: F tys C A tun - nap": ["dislodged by F ion", "supports: F nap"],
    },
    # Abbildung 31: "Die Armee kann sich nicht bewegen, da sie mit der Flotte in Neapel in einer
    # Pattsituation ist. Allerdings führt der gescheiterte Angriff der französischen Armee dazu, dass
    # die Unterstützung der Flotte aus Neapel für den Angriff der Flotte in Rom auf die französische
    # Flotte im Tyrrhenischen Meer unterbunden wird. Dadurch kommt es zwischen der Flotte in Rom und
    # zwischen der Flotte im Tyrrhenischen Meer zur einer Pattsituation." -- the rule: "Eine Armee,
    # der zumindest eine Möglichkeit zur Verfügung steht, einen Geleitzug zu benutzen, unterbindet die
    # Unterstützung für einen Angriff, der auf eine Flotte entlang einer alternativen Geleitzugroute
    # stattfindet."
    "rulebook.fig31": {
        "France: A tun - nap": ["standoff with F nap", "hold strength 1 = attack strength 1"],
        "Italy: F rom - tys": ["standoff with F tys", "hold strength 1 = attack strength 1",
                               "not counted: F nap (cut by A tun"],
        "Italy: F nap S F rom - tys": ["cut by A tun from tun by convoy",
                                       "has a route that does not need the fleet in tys"],
    },
    # Abbildung 32: "wird die Flotte in Neapel zum Rückzug gezwungen. Sie wird von der französischen
    # Armee aus Tunis angegriffen, die von der Flotte im Ionischen Meer geleitet wird. Der Angriff wird
    # von der französischen Armee in Apulien unterstützt. Dadurch wird die Unterstützung für den
    # Angriff der italienischen Armee in Rom auf die französische Flotte im Tyrrhenischen Meer
    # unterbunden."
    "rulebook.fig32": {
        # with its support cut, Rom-TYS meets the French fleet at equal strength
        "Italy: F rom - tys": ["standoff with F tys", "not counted: F nap (dislodged by A tun)"],
        "Italy: F nap S F rom - tys": ["dislodged by A tun (by convoy", "supports: A apu"],
    },
}

SUCCEEDED: dict[str, dict[str, list[str]]] = {
    # Abbildung 7: "da keine der Einheiten direkt mit einer anderen Einheit Plätze tauscht"
    "rulebook.fig07": {
        "England: A hol - bel": ["succeeds", "F bel moves away", "circular movement"],
    },
    # Abbildung 13: "Da jedoch die unterstützte Armee in Rumänien die Armee in Bulgarien zum Rückzug
    # gezwungen hat, hat die bulgarische Armee keine Auswirkung auf Rumänien."
    "rulebook.fig13": {
        "Russia: A sev - rum": ["succeeds", "prevent strength 0 of A bul - rum",
                                "no effect on the area its attacker came from"],
    },
    # Abbildung 14: "die Bewegung der russischen Armee von Sewastopol nach Rumänien nicht verhindern
    # kann, obwohl die russische Armee nicht unterstützt wird"
    "rulebook.fig14": {
        "Russia: A sev - rum": ["succeeds", "prevent strength 0 of A bul - rum",
                                "no effect on the area its attacker came from"],
    },
    # Abbildung 16: "unterbindet der Angriff der Armee aus Warschau die Unterstützung aus Schlesien
    # nicht, da der Angriff aus dem Gebiet kommt, das mit Hilfe der Unterstützung angegriffen wird."
    "rulebook.fig16": {
        "Germany: A sil S A pru - war": ["A war attacks from war, the area the support is aimed at: no cut"],
    },
    # Rückzug durch eigene Einheiten: "Es kann auch keinen Angriff unterstützen, der zu einem Rückzug
    # seiner eigenen Einheiten führen würde."
    "rulebook.fig22": {
        "France: A mar S A par - bur": ["does not count against A bur, a unit of its own power"],
    },
    # Abbildung 24: "Die französische Armee kann keinen Angriff auf eine ihrer eigenen Einheiten
    # unterstützen. Daher wird der Befehl so behandelt, als ob er nicht erteilt worden wäre."
    "rulebook.fig24": {
        "France: A par S A ruh - bur": ["does not count against A bur, a unit of its own power"],
    },
    # Abbildung 26: "Durch den Angriff kommt es allerdings zu einer Pattsituation mit der russischen
    # Armee" -- the support cannot dislodge England's own fleet but still stands off Russia.
    "rulebook.fig26": {
        "England: F hel S F nth - den": ["does not count against F den",
                                         "still adds to the prevent strength of F nth - den against F ska - den"],
    },
    # Abbildung 27: "gelingt der Bewegungsbefehl „A Ser - Bud“, weil er unerwartete Unterstützung
    # durch die russische Armee in Galizien erhält"
    "rulebook.fig27": {
        "Austria: A ser - bud": ["succeeds", "attack strength 2; supports: A gal"],
    },
    # Plätze tauschen mit Hilfe eines Geleitzuges: "Einheiten können miteinander Plätze tauschen,
    # wenn sich eine oder beide Einheiten mit Hilfe eines Geleitzuges bewegen."
    "rulebook.fig28": {
        "England: A lon - bel": ["succeeds", "goes by convoy: no head-to-head battle"],
        "France: A bel - lon": ["succeeds", "goes by convoy: no head-to-head battle"],
    },
    # Abbildung 29: "Da nur einer der beiden Geleitzüge unterbunden wird, bewegt sich die Armee nach
    # Belgien."
    "rulebook.fig29": {
        "England: A lon - bel": ["succeeds", "[F eng (fails: dislodged by F bre)] broken", "[F nth] carries"],
    },
    # Abbildung 30: "die Unterstützung für den Angriff auf die Flotte wird nicht unterbunden"
    "rulebook.fig30": {
        "Italy: F nap S F ion - tys": ["A tun comes by convoy through F tys", "no cut", "DATC 4.A.2 c"],
    },
}


def _figure_ids() -> list[str]:
    return [case.id for case in cases_in(FIGURES)]


def _run(case_id: str):
    case = load_case(FIGURES, case_id)
    state, orders, rules = case_position(case)
    result = dipsat.adjudicate(state, orders, rules)
    assert not compare(case, state, result), f"{case_id}: dipsat's result is not the figure's"
    facts = {format_order(r.order): f for r, f in zip(result.results, explain(result))}
    return result, facts


def _dislodged_units(result) -> set[dipsat.Unit]:
    """Every unit the solved model dislodges (also those disbanded at once for want of a retreat)."""
    return {d.unit for d in result.dislodgements}


def test_the_table_has_one_entry_per_figure():
    expected = [f"rulebook.fig{n:02d}" for n in range(4, 33)]
    assert _figure_ids() == expected
    assert sorted(FAILED) == expected
    assert set(SUCCEEDED) <= set(expected)


@pytest.mark.parametrize("case_id", sorted(FAILED))
def test_failed_orders_are_explained_with_the_rulebooks_reason(case_id):
    result, facts = _run(case_id)
    table = FAILED[case_id]
    failed = {format_order(r.order) for r in result.results if not r.succeeded}
    assert failed - set(table) == set(), f"failed orders without a rulebook reason in the table: {failed - set(table)}"
    assert set(table) - failed == set(), f"orders in the table that do not fail: {set(table) - failed}"
    for order, phrases in table.items():
        joined = " | ".join(facts[order])
        missing = [p for p in phrases if p not in joined]
        assert not missing, f"{case_id} {order}: missing {missing} in: {joined}"


@pytest.mark.parametrize("case_id", sorted(FAILED))
def test_every_dislodged_unit_is_explained_with_its_dislodger(case_id):
    result, facts = _run(case_id)
    for unit in _dislodged_units(result):
        order = next(format_order(r.order) for r in result.results if r.unit == unit)
        assert order in FAILED[case_id], f"{case_id}: dislodged {unit} has no entry"
        assert any("dislodged" in phrase for phrase in FAILED[case_id][order]), f"{case_id} {order}"
        assert "dislodged by " in " | ".join(facts[order]), f"{case_id} {order}: {facts[order]}"


@pytest.mark.parametrize("case_id", sorted(SUCCEEDED))
def test_succeeding_orders_carry_the_rulebooks_reason(case_id):
    result, facts = _run(case_id)
    succeeded = {format_order(r.order) for r in result.results if r.succeeded}
    for order, phrases in SUCCEEDED[case_id].items():
        assert order in succeeded, f"{case_id} {order} does not succeed"
        joined = " | ".join(facts[order])
        missing = [p for p in phrases if p not in joined]
        assert not missing, f"{case_id} {order}: missing {missing} in: {joined}"


def test_explaining_some_orders_says_of_them_what_explaining_them_all_says():
    """``explain(result, only)`` (validate explains only the orders involved in a difference):
    the orders asked for get what the whole explanation gives them -- a rulebook passage that
    an order before them quotes is cited, as there -- and the others get nothing. Each figure
    with each order alone, every other order, and none; figures 7 and 28 cite a passage."""
    citing = []
    for case_id in _figure_ids():
        result, _ = _run(case_id)
        full = explain(result)
        if any("(quoted above)" in fact for facts in full for fact in facts):
            citing.append(case_id)
        n = len(full)
        for only in [{k} for k in range(n)] + [set(range(0, n, 2)), set(range(1, n, 2)), set()]:
            assert explain(result, only) == [full[k] if k in only else [] for k in range(n)], (case_id, sorted(only))
    assert citing == ["rulebook.fig07", "rulebook.fig28"]
