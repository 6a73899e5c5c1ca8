"""Order notation (:mod:`dipsat.notation`): parsing every written form, errors that
name the text, the column and what was expected, and printing that reads back.
"""

from __future__ import annotations

import re
import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dipsat
from dipsat import load_variant
from dipsat.board import Location, PhaseKind, UnitKind
from dipsat.runners.cases import case_orders
from dipsat.errors import NotationError, UnknownNameError
from dipsat.formats.casefile import parse_phase, resolve_variant
from dipsat.maps import MAP_DIR
from dipsat.outcomes import IllegalCode
from dipsat.notation import (format_order, format_unit_ref, parse_location, parse_order, parse_orders,
                             split_order_line)
from dipsat.orders import (Build, Convoy, Disband, Hold, Move, Remove, Retreat, SupportHold, SupportMove,
                           UnitRef, Waive, order_locations)

from .conftest import all_cases

V = load_variant("standard")
MAP = V.map
A, F, W = UnitKind.ARMY, UnitKind.FLEET, UnitKind.WING
MOVEMENT, RETREAT, ADJUSTMENT = PhaseKind.MOVEMENT, PhaseKind.RETREAT, PhaseKind.ADJUSTMENT


def L(text: str) -> Location:
    return Location.parse(text)


def U(kind: UnitKind | None, where: str, power: str | None = None) -> UnitRef:
    return UnitRef(L(where), kind, power)


# --- parsing: one row per written form -------------------------------------------

PARSE_TABLE = [
    # moves: arrows, power prefixes, full names, any case
    ("England: F London -> North Sea", None, Move(U(F, "lon"), L("nth"), False, "England")),
    ("ENG: F lon - nth", None, Move(U(F, "lon"), L("nth"), False, "England")),
    ("eng: f LON - NTH", None, Move(U(F, "lon"), L("nth"), False, "England")),
    ("F London – North Sea", None, Move(U(F, "lon"), L("nth"))),
    ("F London — North Sea", None, Move(U(F, "lon"), L("nth"))),
    ("Austria:A vie-bud", None, Move(U(A, "vie"), L("bud"), False, "Austria")),
    ("A vie->bud", None, Move(U(A, "vie"), L("bud"))),
    ("A vie=>bud", None, Move(U(A, "vie"), L("bud"))),
    ("A vie => bud", None, Move(U(A, "vie"), L("bud"))),
    ("A vie to bud", None, Move(U(A, "vie"), L("bud"))),
    ("Army Vienna moves to Budapest", None, Move(U(A, "vie"), L("bud"))),
    ("Fleet North Atlantic Ocean - Norwegian Sea", None, Move(U(F, "nao"), L("nwg"))),
    ("A N. Africa - Tunis", None, Move(U(A, "naf"), L("tun"))),
    ("F St. Petersburg(sc) - Gulf of Bothnia", None, Move(U(F, "stp/sc"), L("bot"))),
    ("vie - bud", None, Move(U(None, "vie"), L("bud"))),
    ("Turkey: A con - bul", MOVEMENT, Move(U(A, "con"), L("bul"), False, "Turkey")),
    # German and Dutch names and abbreviations (map aliases)
    ("A München - Wien", None, Move(U(A, "mun"), L("vie"))),
    ("A Muenchen - Boehmen", None, Move(U(A, "mun"), L("boh"))),
    ("F Neapel - Tyn", None, Move(U(F, "nap"), L("tys"))),
    ("A Warschau - Galizien", None, Move(U(A, "war"), L("gal"))),
    ("F Konstantinopel - Schwarzes Meer", None, Move(U(F, "con"), L("bla"))),
    ("F Pet/nc - Nrg", None, Move(U(F, "stp/nc"), L("nwg"))),
    ("F Nrg - Nor", None, Move(U(F, "nwg"), L("nwy"))),
    ("F Tyn - Tunis", None, Move(U(F, "tys"), L("tun"))),
    ("F Mat - Spa(sc)", None, Move(U(F, "mao"), L("spa/sc"))),
    ("F Skag - Nth", None, Move(U(F, "ska"), L("nth"))),
    ("F GoL - Spa/sc", None, Move(U(F, "lyo"), L("spa/sc"))),
    ("F Ostsee - Preußen", None, Move(U(F, "bal"), L("pru"))),
    ("Deutschland: A Ruhrgebiet - Niederlande", None, Move(U(A, "ruh"), L("hol"), False, "Germany")),
    ("Rusland: A Moskou - Sint-Petersburg", None, Move(U(A, "mos"), L("stp"), False, "Russia")),
    # coasts in all four forms (and the coast ignored where the province has none, DATC 4.B.6)
    ("F mao - spa/nc", None, Move(U(F, "mao"), L("spa/nc"))),
    ("F mao - spa nc", None, Move(U(F, "mao"), L("spa/nc"))),
    ("F mao - spa(nc)", None, Move(U(F, "mao"), L("spa/nc"))),
    ("F mao - spa (nc)", None, Move(U(F, "mao"), L("spa/nc"))),
    ("F mao - Spain (north coast)", None, Move(U(F, "mao"), L("spa/nc"))),
    ("F mao - Spain/South Coast", None, Move(U(F, "mao"), L("spa/sc"))),
    ("F con - bul ec", None, Move(U(F, "con"), L("bul/ec"))),
    ("F Bulgaria (east coast) - Black Sea", None, Move(U(F, "bul/ec"), L("bla"))),
    ("F stp n.c. - bar", None, Move(U(F, "stp/nc"), L("bar"))),
    ("F bar - St Petersburg (Nordküste)", None, Move(U(F, "bar"), L("stp/nc"))),
    ("A gas - spa/nc", None, Move(U(A, "gas"), L("spa/nc"))),
    ("A par (nc) - bur", None, Move(U(A, "par"), L("bur"))),
    # convoyed moves: 'via convoy', and a path written out (DATC 4.A.6)
    ("A lon - bel via convoy", None, Move(U(A, "lon"), L("bel"), True)),
    ("England: A London - Belgium via Convoy", None, Move(U(A, "lon"), L("bel"), True, "England")),
    ("A lon - bel by convoy", None, Move(U(A, "lon"), L("bel"), True)),
    ("A lon - nth - bel", None, Move(U(A, "lon"), L("bel"), True, path=("nth",))),
    # holds
    ("A par H", None, Hold(U(A, "par"))),
    ("A par hold", None, Hold(U(A, "par"))),
    ("A ven HOLD", None, Hold(U(A, "ven"))),
    ("F nth Holds", None, Hold(U(F, "nth"))),
    ("A Warschau XXX", None, Hold(U(A, "war"))),
    ("France: A par", None, Hold(U(A, "par"), "France")),
    # supports: S / supports, hold and move, nationality in the target
    ("A par S A mar - bur", None, SupportMove(U(A, "par"), U(A, "mar"), L("bur"))),
    ("A par Supports A mar - bur", None, SupportMove(U(A, "par"), U(A, "mar"), L("bur"))),
    ("A wal SUPPORTS F lon-yor", None, SupportMove(U(A, "wal"), U(F, "lon"), L("yor"))),
    ("A tyr S A ven", None, SupportHold(U(A, "tyr"), U(A, "ven"))),
    ("A sil S A war H", None, SupportHold(U(A, "sil"), U(A, "war"))),
    ("F por supports f mid - spa", None, SupportMove(U(F, "por"), U(F, "mao"), L("spa"))),
    ("F bla S Turkish F con - bul", None, SupportMove(U(F, "bla"), U(F, "con", "Turkey"), L("bul"))),
    ("A pru S Russian A War - Pru", None, SupportMove(U(A, "pru"), U(A, "war", "Russia"), L("pru"))),
    ("A sil S Russian A War", None, SupportHold(U(A, "sil"), U(A, "war", "Russia"))),
    ("A sil S Russia: A war", None, SupportHold(U(A, "sil"), U(A, "war", "Russia"))),
    ("F nth S English F eng", None, SupportHold(U(F, "nth"), U(F, "eng", "England"))),
    ("A bel S Engelse A hol - ruh", None, SupportMove(U(A, "bel"), U(A, "hol", "England"), L("ruh"))),
    ("F bre S con", None, SupportHold(U(F, "bre"), U(None, "con"))),
    ("F nth S ENG F lon", None, SupportHold(U(F, "nth"), U(F, "lon", "England"))),
    ("F nth S ENG: F lon - eng", None, SupportMove(U(F, "nth"), U(F, "lon", "England"), L("eng"))),
    ("F bre S eng - pic", None, SupportMove(U(F, "bre"), U(None, "eng"), L("pic"))),
    ("F lon S English F Channel", None, SupportHold(U(F, "lon"), U(F, "eng", "England"))),
    # a province whose name starts like a nationality is the province (English Channel)
    ("F lon S English Channel - nth", None, SupportMove(U(F, "lon"), U(None, "eng"), L("nth"))),
    ("F lon S English Channel", None, SupportHold(U(F, "lon"), U(None, "eng"))),
    ("A mun S Deutsche Bucht", None, SupportHold(U(A, "mun"), U(None, "hel"))),
    ("F Mid Atlantic Ocean S F Western Mediterranean - Spain (south coast)", None,
     SupportMove(U(F, "mao"), U(F, "wes"), L("spa/sc"))),
    # convoys: C / convoys
    ("F nth C A lon - bel", None, Convoy(U(F, "nth"), U(A, "lon"), L("bel"))),
    ("England: F North Sea Convoys A London - Belgium", None,
     Convoy(U(F, "nth"), U(A, "lon"), L("bel"), "England")),
    ("F nth convoys A yor - yor", None, Convoy(U(F, "nth"), U(A, "yor"), L("yor"))),
    ("F nth C English A lon - bel", None, Convoy(U(F, "nth"), U(A, "lon", "England"), L("bel"))),
    # retreat phase: a move is a retreat; R and D
    ("A par - bur", RETREAT, Retreat(U(A, "par"), L("bur"))),
    ("Russia: A war-ukr", RETREAT, Retreat(U(A, "war"), L("ukr"), "Russia")),
    ("A par R bur", None, Retreat(U(A, "par"), L("bur"))),
    ("A par retreats to bur", RETREAT, Retreat(U(A, "par"), L("bur"))),
    ("F spa/sc - wes", RETREAT, Retreat(U(F, "spa/sc"), L("wes"))),
    ("A par D", RETREAT, Disband(U(A, "par"))),
    ("A par disband", RETREAT, Disband(U(A, "par"))),
    ("Disband A gal", RETREAT, Disband(U(A, "gal"))),
    ("England: F nth Disbands", RETREAT, Disband(U(F, "nth"), "England")),
    # adjustment phase: builds, removes (also as 'disband'), waives
    ("Build A par", ADJUSTMENT, Build(L("par"), A)),
    ("Germany: Build F kie", ADJUSTMENT, Build(L("kie"), F, "Germany")),
    ("Russia: Build F stp/nc", ADJUSTMENT, Build(L("stp/nc"), F, "Russia")),
    ("Build F St Petersburg (north coast)", ADJUSTMENT, Build(L("stp/nc"), F)),
    ("Build stp nc", ADJUSTMENT, Build(L("stp/nc"))),
    ("A mun Build", ADJUSTMENT, Build(L("mun"), A)),
    ("Remove A gal", ADJUSTMENT, Remove(U(A, "gal"))),
    ("France: Remove gal", ADJUSTMENT, Remove(U(None, "gal"), "France")),
    ("Disband A gal", ADJUSTMENT, Remove(U(A, "gal"))),
    ("A gal D", ADJUSTMENT, Remove(U(A, "gal"))),
    ("A gal remove", ADJUSTMENT, Remove(U(A, "gal"))),
    ("Waive", ADJUSTMENT, Waive()),
    ("England: Waive", ADJUSTMENT, Waive("England")),
    ("ENG: waives", None, Waive("England")),
    # without a phase the word decides
    ("Remove A gal", None, Remove(U(A, "gal"))),
    ("Disband A gal", None, Disband(U(A, "gal"))),
    ("A gal remove", None, Remove(U(A, "gal"))),
    ("A gal disband", None, Disband(U(A, "gal"))),
    # comments are dropped
    ("England: F lon - nth  # opening", None, Move(U(F, "lon"), L("nth"), False, "England")),
]


@pytest.mark.parametrize("text, phase, expected", PARSE_TABLE, ids=[f"{t}|{p}" for t, p, _ in PARSE_TABLE])
def test_parse(text, phase, expected):
    assert parse_order(text, V, phase) == expected


@pytest.mark.parametrize("text, pid", [
    ("München", "mun"), ("Munchen", "mun"), ("Wien", "vie"), ("Neapel", "nap"), ("Warschau", "war"),
    ("Konstantinopel", "con"), ("Pet", "stp"), ("Nrg", "nwg"), ("Tyn", "tys"), ("Mat", "mao"),
    ("Skag", "ska"), ("GoL", "lyo"), ("NWS", "nwg"), ("Liv", "lvn"), ("Lpl", "lvp"), ("Wenen", "vie"),
    ("Napels", "nap"), ("north sea", "nth"), ("NORTH SEA", "nth"), ("St.Petersburg", "stp"),
])
def test_parse_location_aliases(text, pid):
    assert parse_location(text, V) == Location(pid)


@pytest.mark.parametrize("text, expected", [
    ("spa/nc", "spa/nc"), ("spa nc", "spa/nc"), ("spa(nc)", "spa/nc"), ("Spain (north coast)", "spa/nc"),
    ("Spanien (Südküste)", "spa/sc"), ("Bulgarije (oostkust)", "bul/ec"), ("stp/sc", "stp/sc"),
    ("par/nc", "par"),  # a coast the province lacks is ignored (DATC 4.B.6)
])
def test_parse_location_coasts(text, expected):
    assert parse_location(text, V) == L(expected)


def test_format_order_canonical_text():
    assert format_order(Move(U(F, "lon"), L("nth"), False, "England")) == "England: F lon - nth"
    assert format_order(Move(U(F, "lon"), L("nth"), False, "England"), with_power=False) == "F lon - nth"
    assert format_order(Move(U(A, "lon"), L("bel"), True)) == "A lon - bel via convoy"
    assert format_order(SupportMove(U(F, "bla"), U(F, "con", "Turkey"), L("bul/ec"))) == "F bla S Turkey F con - bul/ec"
    assert format_order(Convoy(U(F, "nth"), U(A, "lon"), L("bel"))) == "F nth C A lon - bel"
    assert format_order(Retreat(U(A, "par"), L("bur"))) == "A par R bur"
    assert format_order(Disband(U(A, "par"))) == "A par D"
    assert format_order(Build(L("stp/nc"), F, "Russia")) == "Russia: Build F stp/nc"
    assert format_order(Remove(U(None, "gal"))) == "Remove gal"
    assert format_order(Waive("England")) == "England: Waive"
    assert format_unit_ref(U(F, "stp/sc", "Russia")) == "Russia F stp/sc"
    with pytest.raises(TypeError):
        format_order("A par H")  # type: ignore[arg-type]


def test_parse_orders_collects_one_error_per_bad_line():
    text = "England: F lon - nth\n\n# a comment\nEngland: A xyz - bel\nEngland: A lvp - yor\nEngland: garbage here\n"
    orders, errors = parse_orders(text, V)
    assert orders == [Move(U(F, "lon"), L("nth"), False, "England"), Move(U(A, "lvp"), L("yor"), False, "England")]
    assert [e.line for e in errors] == [4, 6]
    assert all(isinstance(e, NotationError) for e in errors)


# --- errors: the text, the column and what was expected --------------------------

ERROR_TABLE = [
    # (text, error class, 1-based column, a word of what was expected, what was found)
    ("A xyz - bur", UnknownNameError, 3, "province", "xyz"),
    ("A par - xyz", UnknownNameError, 9, "province", "xyz"),
    ("England: F Lodnon - North Sea", UnknownNameError, 12, "province", "Lodnon"),
    ("A par bur", NotationError, 7, "order", "bur"),
    ("A par - bur foo", NotationError, 13, "end of order", "foo"),
    ("A par H now", NotationError, 9, "end of order", "now"),
    ("Waive now", NotationError, 7, "end of order", "now"),
    ("A par - bur via", NotationError, 16, "convoy", ""),
    ("A par - bur via nth", NotationError, 17, "convoy", "nth"),
    ("", NotationError, 1, "an order", ""),
    ("   ", NotationError, 4, "an order", ""),
    ("England:", NotationError, 9, "an order", ""),
    ("# only a comment", NotationError, 1, "an order", ""),
    ("A par -", UnknownNameError, 8, "province", ""),
    ("A par S", UnknownNameError, 8, "province", ""),
    ("A par S A", UnknownNameError, 10, "province", ""),
    ("F nth C A lon", NotationError, 14, "destination", ""),
    ("F nth C A lon bel", NotationError, 15, "destination", "bel"),
    ("F spa/xx - mao", UnknownNameError, 7, "coast", "xx"),
    ("F spa(nc - mao", NotationError, 10, "')'", "-"),
    ("Build", UnknownNameError, 6, "province", ""),
    ("Build A", UnknownNameError, 8, "province", ""),
    ("Remove", UnknownNameError, 7, "province", ""),
    ("England: England: A par H", UnknownNameError, 10, "province", "England:"),
    ("Frankreich A par H", UnknownNameError, 1, "province", "Frankreich"),
    ("A par => => bur", UnknownNameError, 10, "province", "=>"),
]


@pytest.mark.parametrize("text, cls, column, expected, found", ERROR_TABLE, ids=[r[0] or "<empty>" for r in ERROR_TABLE])
def test_error_names_text_column_and_expectation(text, cls, column, expected, found):
    with pytest.raises(NotationError) as info:
        parse_order(text, V)
    exc = info.value
    assert isinstance(exc, cls)
    assert exc.text.strip() == text.split("#")[0].strip()
    assert exc.position + 1 == column
    assert expected in exc.expected
    message = str(exc)
    assert repr(text.split("#")[0].strip()) in message
    assert f"column {column}" in message
    assert f"expected {exc.expected}" in message
    assert (f"found {found!r}" if found else "found end of text") in message


@pytest.mark.parametrize("text", ["A par - swi", "A par - Switzerland", "A Switzerland H", "A swi - bur",
                                  "F mar S A Schweiz - bur", "A bur - Zwitserland", "A mar - pie - swi"])
def test_an_order_naming_switzerland_is_read_and_is_illegal(text):
    order = parse_order(f"France: {text}", V)
    assert "swi" in {loc.province for loc in order_locations(order)}
    state = V.initial_state()
    (result,) = dipsat.adjudicate(state, [order]).results
    assert result.outcome.why is IllegalCode.IMPASSABLE
    assert result.detail == "Switzerland is impassable"
    assert dipsat.adjudicate(state, [order]).after.units == state.units  # the unit holds


@pytest.mark.parametrize("text", ["swi", "Switzerland", "Schweiz"])
def test_no_unit_stands_in_switzerland(text):
    with pytest.raises(UnknownNameError, match="Switzerland is impassable"):
        parse_location(text, V)


def test_parse_location_rejects_trailing_text():
    with pytest.raises(NotationError) as info:
        parse_location("spa nc xx", V)
    assert info.value.position == 7 and "end of order" in info.value.expected


# --- printing then parsing gives the order back (hypothesis) ------------------------

POWERS = [p.name for p in V.powers]
LOCATIONS = sorted(
    [Location(pid) for pid in MAP.provinces] + [Location(pid, c) for pid, p in MAP.provinces.items() for c in p.coasts],
    key=str,
)
SPOTS = [(kind, loc) for kind in (A, F, W) for loc in LOCATIONS if MAP.can_occupy(kind, loc)]

locations = st.sampled_from(LOCATIONS)
powers = st.none() | st.sampled_from(POWERS)
# a unit as an order names it: a kind that can stand there, or no kind at all
unit_refs = st.sampled_from(SPOTS).map(lambda s: UnitRef(s[1], s[0])) | locations.map(UnitRef)
# a support or convoy target may also carry a nationality ("Turkish F con")
targets = st.builds(lambda ref, power: UnitRef(ref.location, ref.kind, power), unit_refs, powers)

movement_orders = st.one_of(
    st.builds(Hold, unit_refs, powers),
    st.builds(Move, unit_refs, locations, st.booleans(), powers),
    st.builds(SupportHold, unit_refs, targets, powers),
    st.builds(SupportMove, unit_refs, targets, locations, powers),
    st.builds(Convoy, unit_refs, targets, locations, powers),
)
retreat_orders = st.one_of(st.builds(Retreat, unit_refs, locations, powers), st.builds(Disband, unit_refs, powers))
builds = st.sampled_from(SPOTS).map(lambda s: (s[1], s[0])) | locations.map(lambda loc: (loc, None))
adjustment_orders = st.one_of(
    st.builds(lambda b, power: Build(b[0], b[1], power), builds, powers),
    st.builds(Remove, unit_refs, powers),
    st.builds(Waive, powers),
)
# every order with a phase in which its printed form means that order
phased_orders = st.one_of(
    st.tuples(movement_orders, st.sampled_from([None, MOVEMENT])),
    st.tuples(retreat_orders, st.sampled_from([None, RETREAT])),
    st.tuples(adjustment_orders, st.sampled_from([None, ADJUSTMENT])),
    st.tuples(st.builds(Retreat, unit_refs, locations, powers), st.sampled_from([MOVEMENT, ADJUSTMENT])),
)


@settings(max_examples=300, deadline=None)
@given(phased_orders)
def test_format_then_parse_round_trips(order_phase):
    order, phase = order_phase
    text = format_order(order)
    assert parse_order(text, V, phase) == order, text
    assert parse_order(text.upper(), V, phase) == order, text.upper()


@settings(max_examples=300, deadline=None)
@given(phased_orders)
def test_the_canonical_fast_path_reads_as_the_lenient_parser(order_phase):
    """parse_order reads what format_order writes without the lenient parser; both agree."""
    from dipsat.notation.order import Parser, _canonical_order
    order, phase = order_phase
    text = format_order(order)
    fast = _canonical_order(text, V, phase)
    assert fast is None or fast == Parser(text, V).order(phase), text


def test_strategies_cover_every_location_and_kind():
    assert len(LOCATIONS) == 75 + 6
    assert {k for k, _ in SPOTS} == {A, F, W}
    assert (F, L("stp/nc")) in SPOTS and (F, L("stp")) not in SPOTS and (A, L("nth")) not in SPOTS


# --- the same orders written with any alias, in any case, read back the same -------

_TOML = tomllib.loads((MAP_DIR / "standard.toml").read_text(encoding="utf-8"))
PROVINCE_ALIASES = {pid: [pid, e["name"], *e.get("aliases", [])] for pid, e in _TOML["provinces"].items()}
COAST_ALIASES = {cid: [cid, e["name"], *e.get("aliases", [])] for cid, e in _TOML["coasts"].items()}
POWER_ALIASES = {p["name"]: [p["name"], p["adjective"], *p.get("aliases", [])] for p in _TOML["powers"]}
KIND_WORDS = {A: ["A", "Army", "Armee", "Leger"], F: ["F", "Fleet", "Flotte", "Vloot"], W: ["W", "Wing"]}
ARROWS = ["-", "->", "–", "=>", " to ", " - ", " -> "]


@st.composite
def _spelling(draw, words):
    word = draw(st.sampled_from(words))
    return draw(st.sampled_from([word, word.upper(), word.lower()]))


@st.composite
def _location_text(draw, loc):
    name = draw(_spelling(PROVINCE_ALIASES[loc.province]))
    if loc.coast is None:
        return name
    coast = draw(_spelling(COAST_ALIASES[loc.coast]))
    form = draw(st.sampled_from(["{}/{}", "{} {}", "{}({})", "{} ({})", "{} / {}"]))  # spa/nc, spa nc, spa(nc) ...
    return form.format(name, coast)


@st.composite
def _ref_text(draw, ref):
    parts = []
    if ref.power:
        parts.append(draw(_spelling(POWER_ALIASES[ref.power])) + draw(st.sampled_from(["", ":"])))
    if ref.kind:
        parts.append(draw(_spelling(KIND_WORDS[ref.kind])))
    return " ".join([*parts, draw(_location_text(ref.location))])


@st.composite
def _order_text(draw, order):
    """`order` as a player might write it: any alias and spelling the notation accepts."""
    def word(*words):
        return draw(_spelling(list(words)))

    def arrow():
        return draw(st.sampled_from(ARROWS))

    match order:
        case Hold(unit=u):
            body = draw(_ref_text(u)) + draw(st.sampled_from(["", " " + word("H", "hold", "holds", "XXX")]))
        case Move(unit=u, dest=d, via_convoy=via):
            body = draw(_ref_text(u)) + arrow() + draw(_location_text(d)) + (" " + word("via convoy") if via else "")
        case SupportHold(unit=u, target=t):
            body = f"{draw(_ref_text(u))} {word('S', 'supports')} {draw(_ref_text(t))}" + draw(st.sampled_from(["", " H"]))
        case SupportMove(unit=u, target=t, dest=d):
            body = f"{draw(_ref_text(u))} {word('S', 'supports')} {draw(_ref_text(t))}{arrow()}{draw(_location_text(d))}"
        case Convoy(unit=u, target=t, dest=d):
            body = f"{draw(_ref_text(u))} {word('C', 'convoys')} {draw(_ref_text(t))}{arrow()}{draw(_location_text(d))}"
        case Retreat(unit=u, dest=d):
            body = draw(_ref_text(u)) + draw(st.sampled_from([" R ", " retreats to ", " R - "])) + draw(_location_text(d))
        case Disband(unit=u):
            body = draw(st.sampled_from([f"{draw(_ref_text(u))} {word('D', 'disband')}", f"{word('Disband')} {draw(_ref_text(u))}"]))
        case Build(location=loc, kind=k):
            body = f"{word('Build', 'builds')} {draw(_ref_text(UnitRef(loc, k)))}"
        case Remove(unit=u):
            body = f"{word('Remove', 'removes')} {draw(_ref_text(u))}"
        case Waive():
            body = word("Waive", "waives")
    if order.power:
        body = draw(_spelling(POWER_ALIASES[order.power])) + draw(st.sampled_from([":", ": ", " : "])) + body
    return body


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_orders_written_with_any_alias_read_back(data):
    order, phase = data.draw(phased_orders)
    text = data.draw(_order_text(order), label="text")
    assert parse_order(text, V, phase) == order


# --- arbitrary text never raises anything but NotationError (hypothesis) ---------

_WORDS = sorted({
    "A", "F", "W", "Army", "Fleet", "H", "hold", "XXX", "S", "supports", "C", "convoys", "R", "D", "disband",
    "Build", "Remove", "Waive", "via", "convoy", "by", "to", "-", "->", "=>", "–", "—", ">", "=", ":", "/", "(",
    ")", ",", ".", "#", "nc", "sc", "ec", "north coast", "n.c.", "Nordküste", "England:", "ENG:", "Turkish",
    "English", "Switzerland", "swi", "\t", "\n", " ", "", "ß", "\u0301", "St.", "Mid-",
} | {alias for alias in MAP.province_names if len(alias) <= 8} | set(V.power_names))

order_ish = st.lists(st.sampled_from(_WORDS) | st.text(max_size=4), max_size=10).flatmap(
    lambda words: st.sampled_from([" ", "", "-", "/"]).map(lambda sep: sep.join(words)))
phases = st.sampled_from([None, MOVEMENT, RETREAT, ADJUSTMENT])


def _parse_or_notation_error(text: str, phase) -> None:
    try:
        order = parse_order(text, V, phase)
    except NotationError as exc:
        assert 0 <= exc.position <= len(text)
        assert str(exc)
    else:
        # whatever is read prints as text that reads back the same
        assert parse_order(format_order(order), V, phase) == order


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(), phases)
def test_arbitrary_text_raises_only_notation_error(text, phase):
    _parse_or_notation_error(text, phase)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order_ish, phases)
def test_order_like_text_raises_only_notation_error(text, phase):
    _parse_or_notation_error(text, phase)


@settings(max_examples=200, deadline=None)
@given(st.lists(order_ish | st.text(), max_size=6).map("\n".join), phases)
def test_parse_orders_never_raises(text, phase):
    orders, errors = parse_orders(text, V, phase)
    # one result per order of a line (several when separated by commas), per heading
    pieces = sum(len(split_order_line(line.split("#", 1)[0], V)) for line in text.splitlines())
    assert len(orders) + len(errors) <= pieces
    assert all(isinstance(e, NotationError) for e in errors)


# --- every order of the bundled case files parses -------------------------------

def _case_orders():
    for case in all_cases():
        lines = [(block, line) for block in ("ORDERS", "PRESTATE_RESULTS") for line in case.block(block)]
        if lines:
            yield case, lines


CASE_ORDERS = list(_case_orders())


def test_case_files_have_orders():
    assert len(CASE_ORDERS) > 200
    assert sum(len(lines) for _, lines in CASE_ORDERS) > 500
    assert {block for _, lines in CASE_ORDERS for block, _ in lines} == {"ORDERS", "PRESTATE_RESULTS"}


@pytest.mark.parametrize("case, lines", CASE_ORDERS, ids=[c.id for c, _ in CASE_ORDERS])
def test_case_file_orders_parse(case, lines):
    variant = resolve_variant(case.variant_name)
    kind = parse_phase(case.phase_text).kind
    orders, errors = case_orders(case, variant, kind)  # ORDERS: read as order lists are (the DATC's layout)
    assert not errors, [str(e) for e in errors]
    for order in orders:
        if case.id != "pasted.blank_line_ends_the_block":  # its last order names no power on purpose
            assert order.power in [p.name for p in variant.powers], f"{case.source}: {case.id}: {format_order(order)}"
        assert parse_order(format_order(order), variant, kind) == order, f"{case.source}: {case.id}"
    for line in case.block("PRESTATE_RESULTS"):  # 'SUCCESS: Power: order', the orders of the movement before
        text = re.sub(r"^\s*(SUCCESS|FAILURE)\s*:", "", line.text, flags=re.I)
        where = f"{case.source}:{line.number}: {line.text}"
        order = parse_order(text, variant, MOVEMENT)
        assert order.power in [p.name for p in variant.powers], where
        assert parse_order(format_order(order), variant, MOVEMENT) == order, where


@pytest.mark.parametrize("line, pieces", [
    ("England: F lon - nth", ["England: F lon - nth"]),  # one order, the power's name first: not cut
    ("  England:  F lon - nth ", ["England:  F lon - nth"]),
    ("England: F Den - Kie, F Nth - Den, Russia: A Ber - Kie", ["England: F Den - Kie", "F Nth - Den",
                                                               "Russia: A Ber - Kie"]),
    ("A Ser H Russia: A Rum - Ser", ["A Ser H", "Russia: A Rum - Ser"]),  # the e-mail rules' examples (001)
    ("England:F lon H Germany:A ber H", ["England:F lon H", "Germany:A ber H"]),
    ("Turkey: A con H; Turkey: A smy S A con", ["Turkey: A con H", "Turkey: A smy S A con"]),
    ("Nowhere: A par - bur", ["Nowhere: A par - bur"]),  # no power's name before the colon
    ("A par S (Russia: A mos H, x)", ["A par S (Russia: A mos H, x)"]),  # nothing cut inside brackets
])
def test_a_line_is_split_into_its_orders(line, pieces):
    assert split_order_line(line, V) == pieces


def test_an_order_that_names_its_power_leaves_the_heading_to_the_lines_under_it():
    # a line as format_order writes it is read without the heading and splitting steps
    # (issue 22): its power is its own, and the heading above still gives the lines after it
    text = ("Germany:\nEngland: F lon - nth\nA mun - ruh\n\nRussia:\nA war H\nItaly: A ven - tri\nF nap - ion\n"
            "France: A par - bur, A mar - spa\nF bre - mao\n")
    orders, errors = parse_orders(text, V)
    assert [format_order(o) for o in orders] == [
        "England: F lon - nth", "Germany: A mun - ruh", "Russia: A war H", "Italy: A ven - tri", "Russia: F nap - ion",
        "France: A par - bur", "France: A mar - spa", "Russia: F bre - mao"]
    assert errors == []
