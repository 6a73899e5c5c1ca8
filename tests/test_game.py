"""Whole games (`dipsat game`, dipsat.game): Modern with wings, set-ups, civil disorder."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

import dipsat
from dipsat.board import Location, Phase, PhaseKind, Season, Unit, UnitKind
from dipsat.game import GAME_FORMAT, Game, GameError, load_game, new_game
from dipsat.notation import parse_orders
from dipsat.setups import SetupError, coin_flip, setup_for
from dipsat.outcomes import IllegalCode

from .conftest import run


def play(game: Game, text: str):
    orders, errors = parse_orders(text, game.state.variant, game.state.phase.kind)
    assert not errors, errors
    return game.play(orders)


def units(game: Game, power: str) -> set[str]:
    return {f"{u.kind} {u.location}" for u in game.state.units_of(power)}


def results(played) -> dict[str, str]:
    return {dipsat.notation.format_order(r.order): r.status for result in played for r in result.results}


# --- the command line --------------------------------------------------------------------

SPRING_1995 = """\
Britain: W lon - nth
Britain: F edi - nwg
Egypt: F cai - red
France: W bor - nav
France: A par - pic
Germany: F ham - den
Italy: A rom H
Poland: A war H
Russia: F ros - vol
Spain: A mad - por
Turkey: A ist - bul
Ukraine: A ode - rum
"""


def test_cli_new_turn_show_modern(tmp_path: Path):
    path = str(tmp_path / "game.json")
    out = run("game", "new", "--variant", "modern", path)
    assert out.exit_code == 0, out.output
    assert "modern (Modern Diplomacy), 10 players" in out.output
    assert "Spring 1995, Movement" in out.output
    doc = json.loads(Path(path).read_text())
    assert doc["format"] == GAME_FORMAT == "dipsat-game/2" and doc["variant"] == "modern" and doc["wings"] is True
    assert len(doc["phases"]) == 1 and "orders" not in doc["phases"][0]
    # the seed's starting units: three powers start with a wing
    wings = sorted((u["power"], u["location"]) for u in doc["phases"][0]["state"]["units"] if u["kind"] == "W")
    assert wings == [("Britain", "lon"), ("France", "bor"), ("Russia", "gor")]

    orders = tmp_path / "s1995.txt"
    orders.write_text(SPRING_1995)
    out = run("game", "turn", path, str(orders))
    assert out.exit_code == 0, out.output
    assert "W lon - nth  succeeds" in out.output
    assert "F ros - vol  succeeds" in out.output
    assert "Now: Fall 1995, Movement (F1995M)" in out.output
    game = load_game(path)
    assert game.state.phase == Phase(1995, Season.FALL, PhaseKind.MOVEMENT)
    assert "W nth" in units(game, "Britain") and "F vol" in units(game, "Russia")

    shown = run("game", "show", path)
    assert shown.exit_code == 0
    assert "phase to play: Fall 1995, Movement (F1995M)" in shown.output
    assert "S1995M" in shown.output and "12 orders, 12 succeeded" in shown.output
    one = run("game", "show", path, "--phase", "S1995M")
    assert "Russia   F ros - vol  succeeds  attack 1 vs hold 0" in one.output
    assert "Next phase: Fall 1995, Movement" in one.output
    as_json = json.loads(run("game", "show", path, "--phase", "S1995M", "--format", "json").output)
    assert as_json["phase"] == "S1995M" and len(as_json["results"]["orders"]) == 12


def test_cli_errors(tmp_path: Path):
    path = str(tmp_path / "g.json")
    assert run("game", "new", path).exit_code == 0
    again = run("game", "new", path)
    assert again.exit_code == 2 and "exists" in again.output
    bad = run("game", "new", "--variant", "modern", "--players", "7", str(tmp_path / "m.json"))
    assert bad.exit_code == 2 and "no set-up for 7 players" in bad.output
    orders = tmp_path / "o.txt"
    orders.write_text("England: F lon - nth\nEngland: F lon - atlantis\n")
    out = run("game", "turn", path, str(orders))
    assert out.exit_code == 0
    assert "o.txt:2:" in out.output and "order skipped" in out.output
    missing = run("game", "show", path, "--phase", "S1950M")
    assert missing.exit_code == 2 and "no phase" in missing.output
    broken = tmp_path / "broken.json"
    broken.write_text("{}")
    assert run("game", "turn", str(broken), str(orders)).exit_code == 2


def test_stdin_orders_and_json_output(tmp_path: Path):
    path = str(tmp_path / "g.json")
    run("game", "new", path)
    out = run("game", "turn", path, "-", "--format", "json", input="England: F lon - nth\n")
    doc = json.loads(out.output)
    assert doc["next_phase"] == "F1901M"
    assert doc["played"][0]["orders"] == ["England: F lon - nth"]
    assert sorted(doc["played"][0]["civil_disorder"]) == ["Austria", "France", "Germany", "Italy", "Russia", "Turkey"]


# --- a scripted three-year Modern game: wings, a blockade, the waterway ---------------------


def test_three_year_modern_game(tmp_path: Path):
    game = new_game("modern")
    assert game.state.phase == Phase(1995, Season.SPRING, PhaseKind.MOVEMENT)
    play(game, SPRING_1995)
    assert "F vol" in units(game, "Russia")  # Rostov -> Volga
    fall = play(game, """
        Britain: W nth - hol
        Britain: F nwg - nwy
        Egypt: A asw H
        France: W nav - mad
        France: A pic - bel
        Germany: F den H
        Italy: A rom H
        Poland: A war H
        Russia: F vol - cas
        Spain: A por H
        Turkey: A bul H
        Ukraine: A rum H
    """)
    assert results(fall)["Russia: F vol - cas"] == "succeeds"  # Volga -> Caspian: the waterway
    state = game.state
    assert state.phase == Phase(1995, Season.FALL, PhaseKind.ADJUSTMENT)
    owners = state.owner_of
    assert "hol" not in owners  # a wing cannot capture (4.5)
    assert owners["mad"] == "Spain"  # ... nor take an enemy centre
    assert owners["nwy"] == "Britain" and owners["bel"] == "France" and owners["por"] == "Spain"
    # Madrid is blockaded by the French wing: it does not count for Spain (4.6, 4.7)
    assert game.centre_counts()["Spain"] == 3 and len(state.centres_of("Spain")) == 4
    assert game.history[-1]["year"] == 1995 and game.history[-1]["changed"]
    assert game.history[-1]["centres"]["Spain"] == 3
    winter = play(game, """
        France: Build W par
        Germany: Build F ham
        Britain: Build W lon
        Britain: Build F edi
        Spain: Build A mad
    """)
    got = results(winter)
    assert got["France: Build W par"] == "succeeds"  # a wing built inland
    assert got["Britain: Build W lon"] == "succeeds"
    assert got["Spain: Build A mad"].startswith("fails")  # no builds: 3 counted centres, 3 units
    assert "W par" in units(game, "France") and "W lon" in units(game, "Britain")

    play(game, """
        Russia: F cas - irn
        France: W mad H
        Britain: W hol H
    """)
    assert "F irn/nc" in units(game, "Russia")  # Iran's north coast, the only one the Caspian reaches
    play(game, """
        Russia: F irn/nc H
        France: W mad - adl
        Britain: W hol H
        Spain: A por H
    """)
    state = game.state
    assert state.phase == Phase(1996, Season.FALL, PhaseKind.ADJUSTMENT)
    assert state.owner_of["irn"] == "Russia"  # the fleet captures Iran
    assert "hol" not in state.owner_of  # the wing sat in Holland all year: still no capture
    assert game.centre_counts()["Spain"] == 4  # the wing left Madrid: the blockade is over (4.8)
    got = results(play(game, "Spain: Build A mad\nRussia: Build A mos"))
    assert got["Spain: Build A mad"] == "succeeds"
    assert "A mad" in units(game, "Spain")

    play(game, "Russia: F irn/nc - kaz\nBritain: W hol - nth")
    play(game, "Russia: F kaz - vol\nBritain: W nth H")  # back up the waterway
    assert "F vol" in units(game, "Russia")
    assert game.state.phase.year == 1997 and game.state.phase.season is Season.FALL
    if game.state.phase.kind is PhaseKind.ADJUSTMENT:
        play(game, "")
    assert game.state.phase == Phase(1998, Season.SPRING, PhaseKind.MOVEMENT)
    assert [h["year"] for h in game.history] == [1995, 1996, 1997]
    assert not game.over

    # the file round-trips byte for byte, and every phase adjudicates again to its record
    path = tmp_path / "modern.json"
    game.save(path)
    again = load_game(path)
    assert again.dumps() == game.dumps()
    # a game saved as dipsat-game/1 (before results wrote units as objects) still loads
    old = tmp_path / "old.json"
    old.write_text(path.read_text().replace(f'"{GAME_FORMAT}"', '"dipsat-game/1"', 1))
    assert load_game(old).dumps() == game.dumps()
    for k, record in enumerate(again.phases[:-1]):
        from dipsat.game import _report
        assert _report(again.replay(k)) == record.report, record.name


def test_same_orders_same_file(tmp_path: Path):
    texts = []
    for n in range(2):
        game = new_game("modern", seed=3)
        play(game, SPRING_1995)
        texts.append(game.dumps())
    assert texts[0] == texts[1]


# --- end of the game -----------------------------------------------------------------------


def next_year(game: Game) -> None:
    """Play empty orders (every unit holds) until the next spring or the end of the game."""
    year = game.state.phase.year
    while not game.over and game.state.phase.year == year:
        play(game, "")


def test_modern_draw_after_three_unchanged_falls():
    game = new_game("modern")
    next_year(game)  # 1995: every unit holds, no centre changes owner
    next_year(game)
    assert not game.over
    next_year(game)
    assert game.status == "drawn"
    assert "3 fall turns in a row" in game.detail and "(1995-1997)" in game.detail
    assert game.state.phase == Phase(1997, Season.FALL, PhaseKind.ADJUSTMENT)
    with pytest.raises(GameError):
        play(game, "")


def test_draw_counter_restarts_when_a_centre_changes_owner():
    game = new_game("modern")
    play(game, "")
    play(game, "Germany: F ham - den")  # 1995: Denmark changes owner
    next_year(game)
    for year in (1996, 1997):
        assert not game.over
        next_year(game)
    assert not game.over
    next_year(game)
    assert game.status == "drawn" and "(1996-1998)" in game.detail
    assert [h["changed"] for h in game.history] == [True, False, False, False]


def test_victory_at_the_threshold():
    game = new_game("standard")
    state = game.state
    variant = state.variant
    centres = sorted(variant.centres)
    owners = [(c, "France") for c in centres[:17]] + [(c, "Germany") for c in centres[17:]]
    france_units = [Unit("France", UnitKind.ARMY, Location("bur"))]
    target = next(c for c in centres[17:] if c in variant.map.army_adjacency["bur"])
    germany_units = [Unit("Germany", UnitKind.ARMY, Location(next(c for c in centres[17:] if c != target and
                                                                  variant.map.provinces[c].kind.value != "sea")))]
    game.phases[-1].state = state.with_(phase=Phase(1905, Season.FALL, PhaseKind.MOVEMENT),
                                        units=tuple(france_units + germany_units), owners=tuple(owners))
    play(game, f"France: A bur - {target}")
    assert game.status == "won" and game.winners == ("France",)
    assert "18 centres" in game.detail
    assert {"phase": "F1905A", "text": game.detail} in game.events


def test_elimination_is_recorded():
    game = new_game("standard")
    game.phases[-1].state = game.state.with_(
        units=(Unit("Germany", UnitKind.ARMY, Location("boh")), Unit("Germany", UnitKind.ARMY, Location("tyr")),
               Unit("Austria", UnitKind.ARMY, Location("vie"))),
        owners=(("vie", "Austria"), ("mun", "Germany"), ("ber", "Germany")))
    play(game, "Germany: A boh - vie\nGermany: A tyr S A boh - vie")
    assert game.phases[1].auto  # Austria, in civil disorder, cannot retreat: disbanded
    play(game, "Germany: A vie H\nGermany: A tyr H")
    assert game.state.owner_of["vie"] == "Germany"
    assert game.eliminated["Austria"] == "F1901A"
    assert {"phase": "F1901A", "text": "Austria is eliminated (no units, no centres)"} in game.events


# --- civil disorder ---------------------------------------------------------------------------


def test_civil_disorder_in_a_game():
    game = new_game("standard")
    play(game, """
        England: F lon - nth
        Germany: A mun - bur
        Germany: A ber - mun
        Austria: A vie H
        Russia: A war H
        Turkey: A con H
        Italy: A rom H
    """)
    assert game.phases[0].civil_disorder == ("France",)
    # France gives no orders again: its army in Paris holds
    fall = play(game, """
        Germany: A bur - par
        Germany: A mun - bur
        England: F nth H
        Austria: A vie H
        Russia: A war H
        Turkey: A con H
        Italy: A rom H
    """)
    got = results(fall)
    assert got["Germany: A bur - par"].startswith("fails")  # France holds in Paris
    assert game.phases[1].civil_disorder == ("France",)


def test_civil_disorder_retreats_are_settled_at_once():
    game = new_game("standard")
    game.phases[-1].state = game.state.with_(units=(
        Unit("Germany", UnitKind.ARMY, Location("mun")), Unit("Germany", UnitKind.ARMY, Location("ruh")),
        Unit("France", UnitKind.ARMY, Location("bur")), Unit("France", UnitKind.ARMY, Location("par"))))
    played = play(game, "Germany: A mun - bur\nGermany: A ruh S A mun - bur")
    assert len(played) == 2  # the movement, then the retreat phase nobody can order
    assert game.phases[1].auto and game.phases[1].state.phase.kind is PhaseKind.RETREAT
    assert game.state.phase == Phase(1901, Season.FALL, PhaseKind.MOVEMENT)
    assert units(game, "France") == {"A par"}  # the dislodged army was disbanded


def test_civil_disorder_power_cannot_build():
    game = new_game("standard")
    play(game, "England: F lon - nth\nGermany: F kie - den")
    play(game, "England: F nth - nwy")  # Germany gives no orders: civil disorder; its fleet takes Denmark
    assert game.phases[1].civil_disorder == ("Austria", "France", "Germany", "Italy", "Russia", "Turkey")
    assert game.state.phase.kind is PhaseKind.ADJUSTMENT and game.state.owner_of["den"] == "Germany"
    got = results(play(game, "England: Build F lon\nGermany: Build A kie"))
    assert got["England: Build F lon"] == "succeeds"
    assert got["Germany: Build A kie"].startswith("fails")
    assert "civil disorder" in next(r.detail for r in game.replay(2).results if r.order.power == "Germany")
    assert "A kie" not in units(game, "Germany")


# --- player-count set-ups ---------------------------------------------------------------------


def test_setups_of_the_standard_map():
    variant = dipsat.load_variant("standard")
    assert setup_for(variant, 6).neutral == ("Italy",)
    assert setup_for(variant, 5).neutral == ("Germany", "Italy")
    assert setup_for(variant, 4).controls == (("England",), ("Austria", "France"), ("Germany", "Turkey"),
                                              ("Italy", "Russia"))
    assert setup_for(variant, 3).controls == (("England", "Germany", "Austria"), ("Russia", "Italy"),
                                              ("France", "Turkey"))
    two = setup_for(variant, 2)
    assert two.start_year == 1914 and two.victory_centres == 24 and two.victory_by == "player"
    assert setup_for(variant, None).players == 7
    with pytest.raises(SetupError):
        setup_for(variant, 8)


def test_six_player_game_italy_is_neutral():
    game = new_game("standard", players=6)
    played = play(game, "Italy: A ven - tyr\nAustria: A vie - tyr\nFrance: A mar H")
    got = results(played)
    assert got["Italy: A ven - tyr"].startswith("fails")
    assert got["Austria: A vie - tyr"] == "succeeds"
    assert "Italy" not in game.phases[0].civil_disorder  # neutral, not in disorder


def test_six_player_dislodged_italian_unit_is_disbanded_at_once():
    game = new_game("standard", players=6)
    game.phases[-1].state = game.state.with_(units=(
        Unit("Italy", UnitKind.ARMY, Location("ven")), Unit("Austria", UnitKind.ARMY, Location("tri")),
        Unit("Austria", UnitKind.ARMY, Location("tyr"))))
    played = play(game, "Austria: A tri - ven\nAustria: A tyr S A tri - ven\nItaly: A ven - pie")
    assert len(played) == 2 and game.phases[1].auto
    assert not game.state.units_of("Italy")


def test_two_player_game():
    game = new_game("standard", players=2, seed=7)
    assert game.state.phase == Phase(1914, Season.SPRING, PhaseKind.MOVEMENT)
    assert [name for name, _ in game.players()] == ["England/France/Russia", "Austria/Germany/Turkey"]
    got = results(play(game, "Austria: A vie - tyr\nItaly: A rom - apu\nFrance: F bre - mid"))
    assert got["Italy: A rom - apu"].startswith("fails")  # neutral
    got = results(play(game, "Austria: A tyr - ven\nFrance: F mid - wes"))
    assert "not adjacent" in next(r.detail for res in [game.replay(1)] for r in res.results
                                  if r.order.power == "Austria")  # Italy is impassable in 1914
    assert game.joined == coin_flip(7, 2, 1914)
    assert game.events[0]["text"].startswith("coin (seed 7): Italy will join")
    if game.state.phase.kind is PhaseKind.ADJUSTMENT:
        play(game, "")
    assert game.state.phase == Phase(1915, Season.SPRING, PhaseKind.MOVEMENT)
    winner = game.players()[game.joined]
    assert "Italy" in winner[1]
    got = results(play(game, "Italy: A ven - pie\nAustria: A tyr - tri"))
    assert got["Italy: A ven - pie"] == "succeeds"  # Italy has joined: its orders count


def test_two_player_coin_is_seeded():
    assert {coin_flip(s, 2, 1914) for s in range(20)} == {0, 1}
    assert coin_flip(5, 2, 1914) == coin_flip(5, 2, 1914)


# --- the Modern map: impassable areas --------------------------------------------------------


@pytest.mark.parametrize("name", ["ice", "Iceland", "Island", "Sicily", "Sardinia", "Corsica", "Crete", "Cyprus",
                                  "Malta", "Balearics"])
def test_modern_impassable_areas_are_illegal_orders(name):
    variant = dipsat.load_variant("modern")
    order = dipsat.notation.parse_order(f"Britain: F nao - {name}", variant)
    (result,) = dipsat.adjudicate(variant.initial_state(), [order]).results
    assert result.outcome.why is IllegalCode.IMPASSABLE
    assert result.detail == f"{variant.map.province_title(order.dest.province)} is impassable"


def test_modern_impassable_areas_are_not_on_the_map():
    the_map = dipsat.load_variant("modern").map
    for pid in ("ice", "sic", "sar", "cor", "cre", "cyp", "mlt", "blr"):
        assert pid not in the_map.provinces
        assert all(pid not in s for s in the_map.wing_adjacency.values())
    assert the_map.neighbours("nao") == {"arc", "cly", "ire", "iri", "liv", "mid", "nwg"}


def test_modern_dataset_facts():
    variant = dipsat.load_variant("modern")
    assert variant.start_year == 1995 and variant.victory_centres == 34 and len(variant.centres) == 64
    assert [p.name for p in variant.powers] == ["Britain", "Egypt", "France", "Germany", "Italy", "Poland",
                                                "Russia", "Spain", "Turkey", "Ukraine"]
    from dipsat.setups import draw_after_unchanged_falls
    assert draw_after_unchanged_falls(variant) == 3
    assert draw_after_unchanged_falls(dipsat.load_variant("standard")) is None


# --- retreat orders given in advance (seed 001, 10a) -------------------------------------------


def advance_game(units: list[tuple[str, str, str]]) -> Game:
    game = new_game("standard")
    game.phases[-1].state = game.state.with_(units=tuple(Unit(p, UnitKind(k), Location.parse(l)) for p, k, l in units))
    return game


def play_text(game: Game, text: str):
    from dipsat.game import parse_game_orders
    orders, advance, problems = parse_game_orders(text, game)
    assert not problems, problems
    return game.play(orders, advance)


def test_advance_retreat_ranked_list():
    game = advance_game([("Austria", "A", "boh"), ("Germany", "A", "mun"), ("Germany", "A", "sil"),
                         ("Russia", "A", "gal")])
    played = play_text(game, """
        Germany: A mun - boh
        Germany: A sil S A mun - boh
        Austria: A boh H
        Austria: A boh R sil, gal, tyr, vie
        Russia: A gal H
    """)
    assert len(played) == 2 and game.phases[1].auto  # the retreat phase settled itself
    assert game.phases[1].orders == ["Austria: A boh R tyr"]  # sil and gal are occupied
    assert "A tyr" in units(game, "Austria")


def test_advance_retreat_condition_on_the_attacker():
    text = """
        Austria: A boh H
        Austria: A boh R vie
        Austria: A boh R tyr if dislodged by Germany
    """
    game = advance_game([("Austria", "A", "boh"), ("Germany", "A", "mun"), ("Germany", "A", "sil")])
    play_text(game, text + "Germany: A mun - boh\nGermany: A sil S A mun - boh\n")
    assert "A tyr" in units(game, "Austria")
    game = advance_game([("Austria", "A", "boh"), ("Russia", "A", "gal"), ("Russia", "A", "sil")])
    play_text(game, text + "Russia: A gal - boh\nRussia: A sil S A gal - boh\n")
    assert "A vie" in units(game, "Austria")  # dislodged by Russia: the unconditional line


def test_advance_retreat_fallback_and_disband():
    game = advance_game([("Austria", "A", "boh"), ("Germany", "A", "mun"), ("Germany", "A", "sil"),
                         ("France", "A", "bur"), ("Germany", "A", "ruh"), ("Germany", "A", "pic")])
    play_text(game, """
        Austria: A boh H
        Austria: retreats centres first, then alphabetical
        France: A bur H
        Germany: A mun - boh
        Germany: A sil S A mun - boh
        Germany: A ruh - bur
        Germany: A pic S A ruh - bur
    """)
    # Austria: centres first (vie), France gave nothing in advance: a normal retreat phase
    assert game.state.phase.kind is PhaseKind.RETREAT
    assert game.current.prefilled == ["Austria: A boh R vie"]
    play_text(game, "France: A bur - gas")
    assert "A vie" in units(game, "Austria") and "A gas" in units(game, "France")
    assert game.phases[1].orders[1:] == ["Austria: A boh R vie"]


def test_advance_retreats_bounce_and_disband():
    game = advance_game([("Austria", "A", "boh"), ("Austria", "A", "tyr"), ("Germany", "A", "mun"),
                         ("Germany", "A", "sil"), ("Italy", "A", "ven"), ("Italy", "A", "pie")])
    play_text(game, """
        Germany: A mun - boh
        Germany: A sil S A mun - boh
        Italy: A ven - tyr
        Italy: A pie S A ven - tyr
        Austria: A boh R vie
        Austria: A tyr R vie
    """)
    assert game.phases[1].auto
    assert not game.state.units_of("Austria")  # both retreat to Vienna: both disbanded (10c)


def test_advance_retreat_on_other_units_is_rejected(tmp_path: Path):
    path = str(tmp_path / "g.json")
    run("game", "new", path)
    orders = tmp_path / "o.txt"
    orders.write_text("Austria: A vie H\nAustria: A vie R gal if Russia retreats to war\n"
                      "Austria: A bud R rum if dislodged by Russia\n")
    out = run("game", "turn", path, str(orders))
    assert out.exit_code == 0
    assert "o.txt:2:" in out.output and "not on other units' retreats" in out.output
    doc = json.loads(Path(path).read_text())
    assert doc["phases"][0]["advance_retreats"] == ["Austria: A bud R rum if dislodged by Russia"]


# --- game files: every field checked on load, nothing saved that cannot be loaded (issue 12) ------


def _played_game(tmp_path: Path) -> dict:
    path = tmp_path / "g.json"
    run("game", "new", str(path))
    run("game", "turn", str(path), "-", input="France: A par - bur\nGermany: A mun - bur\nEngland: F lon - nth\n")
    return json.loads(path.read_text())


def _set(doc: dict, where: str, value) -> dict:
    *keys, last = [int(k) if k.isdigit() else k for k in where.split("/")]
    target = doc
    for key in keys:
        target = target[key]
    target[last] = value
    return doc


@pytest.mark.parametrize("where, value, message", [
    ("status", [], "$.status: expected an object"),
    ("status/state", "paused", "$.status.state: expected 'active', 'won' or 'drawn', found 'paused'"),
    ("setup/controls", [], "$.setup: every power must be controlled by exactly one player or be neutral"),
    ("setup/players", "7", "$.setup.players: expected a number of players (1 to 7), found '7'"),
    ("history", [{}], "$.history[0].year: missing"),
    ("history", [{"year": 1901, "centres": {"Mars": 3}, "changed": True}], "$.history[0].centres: expected"),
    ("events", [{"phase": "F1901M"}], "$.events[0].text: missing (expected text)"),
    ("eliminated", {"Austria": 3}, "$.eliminated.Austria: expected a power"),
    ("joined", 7, "$.joined: expected null or a player's index (0 to 6), found 7"),
    ("seed", 10 ** 100, "$.seed: expected a whole number"),
    ("seed", True, "$.seed: expected a whole number"),
    ("wings", "yes", "$.wings: expected true or false, found 'yes'"),
    ("rules", "2001", "$.rules: unknown rules profile '2001'"),
    ("variant", "x" * 300, "$.variant: unknown variant 'xxxxxxxxx"),
    ("variant", "/etc/hostname", "$.variant: unknown variant '/etc/hostname'"),
    ("variant", "../maps/standard", "$.variant: unknown variant '../maps/standard'"),
    ("phases", [], "$.phases: the game has no phases"),
    ("phases/0", [], "$.phases[0]: expected an object"),
    ("phases/0/state/units", {}, "$.phases[0].state.units: expected a list of units, found {}"),
    ("phases/0/state/wings", True, "$.phases[0].state.variant: expected the game's variant standard (wings false)"),
    ("phases/0/state/phase", "S99999M", "$.phases[0].state.phase: expected a phase like"),
    ("phases/0/orders", ["France: A par - atlantis"], "$.phases[0].orders[0]: 'France: A par - atlantis'"),
    ("phases/0/orders/0", 7, "$.phases[0].orders: expected a list of orders as text"),
    ("phases/0/civil_disorder", [None], "$.phases[0].civil_disorder: expected a list of powers"),
    ("phases/0/results/orders/0/succeeded", "yes", "$.phases[0].results.orders[0].succeeded: expected true"),
    ("phases/0/results/dislodged", [{"power": "France"}], "$.phases[0].results.dislodged[0].kind: missing"),
    ("phases/1/prefilled", ["France: A par - bur"], "$.phases[1].prefilled: retreat orders given in advance"),
    ("status/detail", "\ud800", "$.status.detail: expected text, found '\\ud800'"),
    ("phases/0/results/orders/0/unit/kind", "\ud800", "$.phases[0].results: a string that is not text"),
])
def test_a_bad_field_is_named_by_its_json_path(tmp_path: Path, where: str, value, message: str):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_set(_played_game(tmp_path), where, value)), encoding="utf-8")
    for command in (("game", "show", str(path)), ("game", "turn", str(path), "-")):
        out = run(*command, input="")
        assert out.exit_code == 2 and out.exception is None or isinstance(out.exception, SystemExit), out.output
        assert out.output.startswith(f"{path}: ") and message in out.output, out.output


@pytest.mark.parametrize("text, message", [
    ("[" * 5000, "cannot read this JSON: arrays or objects nested too deeply"),
    ('{"format": "dipsat-game/1", "seed": ' + "9" * 5000 + "}", "a number with more than 4300 digits"),
    ('{"format": "dipsat-game/1", "x": 1', "not valid JSON: Expecting ',' delimiter"),
])
def test_unreadable_json_is_one_clear_error(tmp_path: Path, text: str, message: str):
    path = tmp_path / "bad.json"
    path.write_text(text)
    out = run("game", "show", str(path))
    assert out.exit_code == 2 and message in out.output and out.output.startswith(str(path))


def test_a_game_is_never_saved_when_it_could_not_be_loaded(tmp_path: Path):
    """Played beyond the last year a file may hold, the turn is not saved (the file stays as it was)."""
    path = tmp_path / "g.json"
    doc = _played_game(tmp_path)
    doc["phases"] = doc["phases"][-1:]
    doc["phases"][0]["state"]["phase"] = {"year": 9999, "season": "Fall", "kind": "Movement"}
    doc["phases"][0]["phase"] = "F9999M"
    path.write_text(json.dumps(doc))
    before = path.read_bytes()
    out = run("game", "turn", str(path), "-", input="")
    assert out.exit_code == 2
    assert f"{path} (not saved): $.phases[1].state.phase.year: expected a year such as 1901 (1 to 9999)" in out.output
    assert path.read_bytes() == before and run("game", "show", str(path)).exit_code == 0


def test_a_game_file_may_start_with_a_byte_order_mark(tmp_path: Path):
    path = tmp_path / "g.json"
    run("game", "new", str(path))
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert run("game", "show", str(path)).exit_code == 0


def test_saving_keeps_the_file_mode(tmp_path: Path):
    """Issue 12 item 13: every turn reset the file to 0600."""
    path = tmp_path / "g.json"
    old = os.umask(0o022)
    try:
        run("game", "new", str(path))
        assert stat.S_IMODE(path.stat().st_mode) == 0o644  # a new file: the umask
        for mode in (0o640, 0o664):
            path.chmod(mode)
            assert run("game", "turn", str(path), "-", input="").exit_code == 0
            assert stat.S_IMODE(path.stat().st_mode) == mode
    finally:
        os.umask(old)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_saving_through_a_symbolic_link_replaces_the_file_it_points_to(tmp_path: Path):
    real, link = tmp_path / "real.json", tmp_path / "link.json"
    run("game", "new", str(real))
    link.symlink_to(real)
    assert run("game", "turn", str(link), "-", input="").exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert "Fall 1901" in run("game", "show", str(real)).output
