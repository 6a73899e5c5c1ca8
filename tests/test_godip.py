"""The Droidippy/godip game-history format (dipsat.formats.godip): reading, writing,
`dipsat adjudicate GAME --phase` and `dipsat bench` on such histories.

Every record here is our own: a short game played with dipsat itself and written out
in the format, and small hand-written histories for what a played game cannot show.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import dipsat
from dipsat.board import Location, Phase, PhaseKind, Season, Unit, UnitKind
from dipsat.formats.diplomacy_json import RecordError, read_game, write_game
from dipsat.formats.godip import (GodipPhase, GodipTables, format_godip_order, is_godip_history,
                                  read_godip_game, write_godip_game)
from dipsat.formats.records import RecordedGame
from dipsat.game import new_game
from dipsat.notation import parse_orders
from dipsat.orders import (Build, Convoy, Disband, Hold, Move, Remove, Retreat, SupportHold, SupportMove,
                           UnitRef)
from dipsat.runners.recorded import game_record, recorded_position
from dipsat.runners.gaps import skipped_phases
from dipsat.results import Reason
from dipsat.state import Dislodged

from .conftest import run

# A short game: a convoy with "via convoy", supports to hold and to move, coasts (stp/sc,
# spa/nc, stp/nc), a support from an empty province, two units dislodged (one retreats,
# one is disbanded), builds, and Italy short of centres giving no removal (civil disorder).
TURNS = [
    """England: F lon - nth
England: A lvp - yor
England: F edi - nwg
France: F bre - mao
Germany: A mun - bur
Germany: F kie - den
Germany: A ber - kie
Russia: F stp/sc - bot
Russia: A mos - ukr
Russia: F sev - bla
Austria: A vie - tyr
Austria: F tri - adr
Austria: A bud - tri
Italy: F nap - ion
Turkey: A con - bul
Turkey: F ank - con""",
    """England: F nth C A yor - nwy
England: A yor - nwy via convoy
England: F nwg S A yor - nwy
France: A par - bur
France: A mar S A par - bur
France: F mao - spa/nc
Germany: A bur H
Germany: A kie - hol
Austria: A tyr - ven
Austria: F adr S A tyr - ven
Austria: A tri S A tyr - ven
Italy: A ven H
Italy: A rom S A ven
Italy: F ion H
Russia: F bot - swe
Russia: A ukr - rum
Russia: F sev S A ukr - rum
Turkey: F con - aeg""",
    """Italy: A ven R pie
Germany: A bur D""",
    """Austria: Build A vie
Germany: Build F kie
Germany: Build A ber
Russia: Build F stp/nc
England: Build F lon""",
]


@pytest.fixture(scope="module")
def played() -> dipsat.game.Game:
    game = new_game("standard")
    for text in TURNS:
        orders, errors = parse_orders(text, game.state.variant, game.state.phase.kind)
        assert not errors
        game.play(orders)
    return game


@pytest.fixture(scope="module")
def history(played) -> str:
    return write_godip_game(game_record(played))


def by_name(game, name: str) -> GodipPhase:
    return next(p for p in game.phases if p.name == name)


def order_of(phase, text: str):
    return next(o for o, t in phase.orders if t == text)


# --- reading and writing -------------------------------------------------------------------


def test_played_game_round_trip(history: str) -> None:
    game = read_godip_game(history, "records/game_1.txt")
    assert game.id == "game_1" and game.map == "standard"
    assert [p.name for p in game.phases] == ["S1901M", "F1901M", "F1901R", "W1901A", "S1902M"]
    assert all(isinstance(p, GodipPhase) and p.error is None and not p.unread for p in game.phases)
    assert all(p.results == {} and p.results_recorded is False for p in game.phases)
    assert [p.processed for p in game.phases] == [True, True, True, True, False]
    assert write_godip_game(game) == history  # the writer's output reads back to itself
    # godip's spelling: its abbreviations, no powers, sorted by province
    assert "England: fleet nrg\n" in history and "England: fleet nwg" not in history
    assert "PHASE 1901 Fall Retreat\nPOSITIONS\n" in history
    assert "ORDERS\nbuild Army ber\nbuild Fleet kie\nbuild Fleet lon\nbuild Fleet stp/nc\nbuild Army vie\n" in history


def test_every_order_form_is_typed_with_its_power(history: str) -> None:
    game = read_godip_game(history, "game_1.txt")
    spring, fall = by_name(game, "S1901M"), by_name(game, "F1901M")
    army, fleet = UnitKind.ARMY, UnitKind.FLEET
    assert order_of(spring, "stp/sc move bot") == Move(UnitRef(Location("stp", "sc"), fleet), Location("bot"),
                                                       False, "Russia")
    assert order_of(fall, "yor move nwy via convoy") == Move(UnitRef(Location("yor"), army), Location("nwy"),
                                                             True, "England")
    assert order_of(fall, "nth convoy yor move nwy") == Convoy(UnitRef(Location("nth"), fleet),
                                                               UnitRef(Location("yor"), army), Location("nwy"),
                                                               "England")
    assert order_of(fall, "nrg support yor move nwy") == SupportMove(UnitRef(Location("nwg"), fleet),
                                                                     UnitRef(Location("yor"), army),
                                                                     Location("nwy"), "England")
    assert order_of(fall, "rom support ven") == SupportHold(UnitRef(Location("rom"), army),
                                                            UnitRef(Location("ven"), army), "Italy")
    assert order_of(fall, "bur hold") == Hold(UnitRef(Location("bur"), army), "Germany")
    assert order_of(fall, "mid move spa/nc") == Move(UnitRef(Location("mao"), fleet), Location("spa", "nc"),
                                                     False, "France")
    # an order from a province without a unit: kept, no power, dipsat judges it illegal
    assert order_of(fall, "sev support ukr move rum") == SupportMove(UnitRef(Location("sev")),
                                                                     UnitRef(Location("ukr"), army),
                                                                     Location("rum"), None)
    retreat = by_name(game, "F1901R")
    assert order_of(retreat, "ven move pie") == Retreat(UnitRef(Location("ven"), army), Location("pie"), "Italy")
    assert order_of(retreat, "bur disband") == Disband(UnitRef(Location("bur"), army), "Germany")
    builds = by_name(game, "W1901A")
    assert order_of(builds, "build Fleet stp/nc") == Build(Location("stp", "nc"), fleet, "Russia")
    assert order_of(builds, "build Army vie") == Build(Location("vie"), army, "Austria")


def test_dislodged_units_and_centres(history: str) -> None:
    retreat = by_name(read_godip_game(history, "g.txt"), "F1901R")
    state = retreat.state
    assert state.phase == Phase(1901, Season.FALL, PhaseKind.RETREAT)
    # the format does not say who dislodged them: the origin is left to the validator
    assert state.dislodged == (Dislodged(Unit("Germany", UnitKind.ARMY, Location("bur"))),
                               Dislodged(Unit("Italy", UnitKind.ARMY, Location("ven"))))
    assert state.unit_at("ven") == Unit("Austria", UnitKind.ARMY, Location("ven"))
    # centres change owner after the retreats: still Italy's in the retreat phase
    assert state.owner_of["ven"] == "Italy" and "swe" not in state.owner_of


def test_dipsat_replays_its_own_record(history: str) -> None:
    """Each phase read back and adjudicated gives the next phase's recorded position:
    the reader's positions and the owners of the orders are right."""
    game = read_godip_game(history, "g.txt")
    for before, after in zip(game.phases, game.phases[1:]):
        result = dipsat.adjudicate(before.state, [o for o, _ in before.orders])
        assert result.after.units == after.state.units, before.name
        assert {d.unit for d in result.after.dislodged} == {d.unit for d in after.state.dislodged}
        assert result.after.owners == after.state.owners
        if before.name == "F1901M":
            illegal = [r for r in result.results if r.reason is Reason.ILLEGAL]
            assert [format_godip_order(r.order) for r in illegal] == ["sev support ukr move rum"]


def test_civil_disorder_removal(history: str) -> None:
    """Italy has three units and two centres and gives no removal: no order is invented,
    the next position records the removal (the civil-disorder rule's pick)."""
    game = read_godip_game(history, "g.txt")
    builds, spring = by_name(game, "W1901A"), by_name(game, "S1902M")
    assert not [o for o, _ in builds.orders if o.power == "Italy"]
    assert len(builds.state.units_of("Italy")) == 3 and len(builds.state.centres_of("Italy")) == 2
    assert {str(u.location) for u in spring.state.units_of("Italy")} == {"pie", "rom"}


HAND = """\
PHASE 1905 Fall Movement
POSITIONS
France: fleet mid
France: army par
France: supply bre
France: supply par
England: fleet nat
England: fleet nrg
England: fleet nth
England: supply lon
Italy: fleet gol
Russia: fleet stp/nc
Russia: supply stp
ORDERS
mid move spa/ec
par hold
build Army par
bur move gas
nrg move xyz
gol move spa/sc
stp/nc move nwy
PHASE 1905 Fall Adjustment
POSITIONS
France: fleet mid
France: army par
France: supply bre
France: supply par
England: fleet nat
England: fleet nrg
England: fleet nth
England: supply lon
Italy: fleet spa/sc
Italy: supply spa
Russia: fleet nwy
Russia: supply nwy
Russia: supply stp
ORDERS
remove nat
nrg disband
build Army par
PHASE 1906 Spring Movement
POSITIONS
France: fleet mid
France: army par
France: supply bre
France: supply par
England: fleet nth
England: supply lon
Italy: fleet spa/sc
Italy: supply spa
Russia: fleet nwy
Russia: supply nwy
Russia: supply stp
ORDERS
"""


def test_lenient_orders() -> None:
    """Orders of another phase kind, for an empty province or a coast that does not exist
    are kept (dipsat judges them illegal); one naming an unknown province is listed as
    unread and its unit holds; the phase is still judged. godip's abbreviations."""
    game = read_godip_game(HAND, "hand.txt")
    fall, adjust, spring = game.phases
    assert [p.error for p in game.phases] == [None, None, None]
    assert fall.unread == [f"line {line_of(HAND, 'nrg move xyz')}: 'nrg move xyz': unknown province or coast 'xyz' (not typed: the unit holds)"]
    assert fall.state.unit_at("nao").power == "England" and fall.state.unit_at("lyo").power == "Italy"
    assert order_of(fall, "build Army par") == Build(Location("par"), UnitKind.ARMY, "France")
    result = dipsat.adjudicate(fall.state, [o for o, _ in fall.orders])
    status = {format_godip_order(r.order): r.reason for r in result.results}
    assert status["mid move spa/ec"] is Reason.ILLEGAL  # no east coast in Spain
    assert status["build Army par"] is Reason.ILLEGAL  # not a movement order
    assert status["bur move gas"] is Reason.ILLEGAL  # no unit in bur
    assert status["gol move spa/sc"] is None and status["stp/nc move nwy"] is None
    assert result.after.unit_at("nwg") is not None  # the unread order's unit held
    # adjustments: "remove x", and "x disband" read as a removal
    assert order_of(adjust, "remove nat") == Remove(UnitRef(Location("nao"), UnitKind.FLEET), "England")
    assert order_of(adjust, "nrg disband") == Remove(UnitRef(Location("nwg"), UnitKind.FLEET), "England")
    after = dipsat.adjudicate(adjust.state, [o for o, _ in adjust.orders]).after
    assert after.units == spring.state.units


def line_of(text: str, line: str) -> int:
    """The number of the first line `line` of `text` (1-based)."""
    return text.splitlines().index(line.rstrip("\n")) + 1


def with_line(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize("old, new, expected", [
    ("Italy: fleet gol\n", "Italy: tank gol\n", "expected army, fleet, army/dislodged, fleet/dislodged or supply"),
    ("Italy: fleet gol\n", "Italy: fleet xyz\n", "unknown province or coast 'xyz'"),
    ("Italy: fleet gol\n", "Ruritania: fleet gol\n", "unknown power 'Ruritania'"),
    ("Italy: fleet gol\n", "Italy: army gol\n", "a army cannot stand in gol"),
    ("Italy: fleet gol\n", "Italy fleet gol\n", "expected a position like 'Turkey: fleet ank'"),
    ("par hold\n", "par fly bur\n", "expected an order like 'ank move bla'"),
    ("par hold\n", "par move\n", "expected an order like"),
    ("par hold\n", "build Tank par\n", "expected 'build Army <province>'"),
    ("PHASE 1905 Fall Movement\n", "PHASE 1905 Summer Movement\n", "expected 'PHASE <year> Spring|Fall"),
    ("England: fleet nat\n", "England: fleet/dislodged nat\n", "a dislodged unit outside a retreat phase"),
])
def test_a_malformed_line_rejects_its_phase_only(old: str, new: str, expected: str) -> None:
    game = read_godip_game(with_line(HAND, old, new), "bad.txt")
    line = line_of(HAND, old)
    assert len(game.phases) == 3
    first, *rest = game.phases
    assert first.error is not None and f"line {line}: " in str(first.error) and expected in str(first.error)
    assert str(first.error).startswith("game 'bad', phase ")
    assert [p.error for p in rest] == [None, None]
    assert [p.name for p in rest] == ["W1905A", "S1906M"]


def test_bytes_that_are_not_utf8() -> None:
    data = with_line(HAND, "remove nat\n", "remove nat \udcff\n").encode("utf-8", errors="surrogateescape")
    for text in (data, data.decode("utf-8", errors="surrogateescape")):
        game = read_godip_game(text, "bytes.txt")
        assert [p.error is None for p in game.phases] == [True, False, True]
        assert f"line {line_of(HAND, 'remove nat')}: bytes that are not UTF-8" in str(game.phases[1].error)


def test_records_that_contradict_themselves() -> None:
    """Only what holds under any rules: units appearing where no unit stood or was
    ordered, centres changing hands outside the fall. A buggy adjudicator writes such
    records: the contradiction is noted on the phase that leads to it (judged, a
    disagreement), nothing is rejected. A broken order of phases is a gap."""
    skipped = with_line(HAND, "PHASE 1906 Spring Movement", "PHASE 1907 Spring Movement")
    phases = read_godip_game(skipped, "g.txt").phases
    assert [p.error for p in phases] == [None, None, None] and not phases[1].contradiction
    assert skipped_phases(phases[1], phases[2]) == ("the record goes from W1905A to S1907M: S1906M, F1906M are "
                                                    "missing, so W1905A has no recorded outcome to be judged on")
    grown = with_line(HAND, "Russia: fleet nwy\nRussia: supply nwy\n",
                      "Russia: fleet nwy\nRussia: army mos\nRussia: supply nwy\n")
    phases = read_godip_game(grown, "g.txt").phases
    assert [p.error for p in phases] == [None, None, None]
    assert "found Russia A MOS: no unit stood or was ordered there" in phases[0].contradiction
    assert phases[0].contradiction.startswith(f"line {line_of(HAND, 'PHASE 1905 Fall Adjustment')}: ")
    spring = HAND.replace("1905 Fall Movement", "1905 Spring Movement").replace("1905 Fall Adjustment",
                                                                                 "1905 Fall Movement")
    spring = spring.replace("PHASE 1906 Spring Movement", "PHASE 1905 Fall Adjustment")
    phases = read_godip_game(spring, "g.txt").phases
    assert phases[1].error is None and "centre ownership changed outside" in phases[0].contradiction
    # a disagreement with dipsat is no contradiction: the record says nothing about results
    bounced = HAND.replace("Russia: fleet nwy\nRussia: supply nwy\n", "Russia: fleet stp/nc\n")
    assert [(p.error, p.contradiction) for p in read_godip_game(bounced, "g.txt").phases] == [(None, "")] * 3


def test_a_unit_lost_with_nobody_moving_in_is_a_contradiction() -> None:
    """A unit gone from every place it stood or was ordered to, its province not
    attacked: the phase before notes it (a unit that moved where it was ordered is not lost)."""
    gone = with_line(HAND, "England: fleet nth\nEngland: supply lon\nItaly: fleet spa/sc\n",
                     "England: supply lon\nItaly: fleet spa/sc\n")  # the adjustment phase's position
    phases = read_godip_game(gone, "g.txt").phases
    assert [p.error for p in phases] == [None, None, None]
    assert phases[0].contradiction.endswith("lost England F NTH: nobody moved into its province")
    assert "ITA" not in phases[0].contradiction.upper().replace("ITALY", "")  # gol moved to spa/sc as ordered


def test_units_beyond_centres_after_an_adjustment_are_a_contradiction() -> None:
    """After an adjustment phase: a new unit neither built nor on a home centre of its
    power, and more units than centres (more than before), are noted on that phase."""
    head, sep, tail = HAND.rpartition("Russia: fleet nwy\n")  # the last phase's position
    grown = head + "Russia: army mos\nRussia: army war\nEngland: army yor\n" + sep + tail
    phases = read_godip_game(grown, "g.txt").phases
    assert [p.error for p in phases] == [None, None, None] and not phases[0].contradiction
    assert "found England A YOR: neither built nor there before" in phases[1].contradiction
    assert phases[1].contradiction.endswith("; Russia built beyond its supply centres")


def test_reading_many_games_with_shared_tables() -> None:
    """Games read one after another with the same tables (an archive run keeps them) read
    as each alone: positions, orders, unread orders, errors and contradictions."""
    def summary(game: RecordedGame) -> list[tuple[object, ...]]:
        return [(p.name, str(p.error), p.state, p.orders, p.unread, p.contradiction, p.line) for p in game.phases]

    texts = [HAND, with_line(HAND, "par hold\n", "par fly bur\n"), with_line(HAND, "Italy: fleet gol\n",
             "Italy: fleet xyz\n"), with_line(HAND, "England: fleet nat\n", "England: fleet/dislodged nat\n"),
             with_line(HAND, "nrg move xyz\n", "nrg move xyz via convoy\n"), HAND.replace("Fall Movement",
             "Spring Retreat"), with_line(HAND, "build Army par\n", "build Fleet par\n")]
    no_header = HAND.replace("ORDERS\nremove nat\nnrg disband\nbuild Army par\nPHASE 1906 Spring Movement\nPOSITIONS\n",
                             "PHASE 1906 Spring Movement\n")  # positions with no POSITIONS line before them
    texts += [no_header, with_line(HAND, "England: fleet nrg\n", "England: fleet nrg \udcff\n"),
              HAND.replace("France: fleet mid", "England: fleet mid")]  # the same order lines to another unit
    tables = GodipTables()
    for text in texts:
        read_godip_game(text, "warm.txt", tables=tables)  # every line read once
    last = read_godip_game(no_header, "g.txt", tables=tables).phases[-1]
    assert "expected POSITIONS after the PHASE line, found 'France: fleet mid'" in str(last.error)
    for round_ in range(2):
        for k, text in enumerate(texts):
            assert summary(read_godip_game(text, f"g{k}.txt", tables=tables)) == summary(
                read_godip_game(text, f"g{k}.txt")), (round_, k)


def test_not_a_history() -> None:
    with pytest.raises(RecordError, match="expected a 'PHASE <year> <season> <kind>' line"):
        read_godip_game("CASE 6.A.1\nPRESTATE\n", "case.txt")
    with pytest.raises(RecordError, match="no PHASE line"):
        read_godip_game("\n\n", "empty.txt")
    stray = read_godip_game("Game 12\n" + HAND, "stray.txt")
    assert "line 1: expected a 'PHASE <year> <season> <kind>' line first, found 'Game 12'" in str(stray.phases[0].error)
    assert [p.error for p in stray.phases[1:]] == [None, None]
    assert is_godip_history("\n  \nPHASE 1901 Spring Movement\n") and is_godip_history(b"PHASE 1901 Spring Movement")
    assert not is_godip_history("VARIANT_ALL Standard\nCASE x\n") and not is_godip_history('{"phases": []}')


def test_as_a_saved_game_of_the_diplomacy_package(history: str) -> None:
    """write_game: the same positions and orders in the package's JSON (for its replay)."""
    game = read_godip_game(history, "g.txt")
    saved = json.loads(json.dumps(write_game(game)))
    assert [p["name"] for p in saved["phases"]] == ["S1901M", "F1901M", "F1901R", "W1901A", "S1902M"]
    fall = saved["phases"][1]
    assert "A YOR - NWY VIA" in fall["orders"]["ENGLAND"] and "F NWG S A YOR - NWY" in fall["orders"]["ENGLAND"]
    assert all("SEV" not in o for o in fall["orders"]["RUSSIA"])  # no unit there: left out
    assert "*A VEN" in saved["phases"][2]["state"]["units"]["ITALY"]
    again = read_game(saved)
    for ours, theirs in zip(game.phases, again.phases):
        assert (ours.state.units, ours.state.owners) == (theirs.state.units, theirs.state.owners)
        assert {d.unit for d in ours.state.dislodged} == {d.unit for d in theirs.state.dislodged}


# --- the command line ---------------------------------------------------------------------------


def test_adjudicate_a_phase_of_a_history(history: str, tmp_path: Path) -> None:
    path = tmp_path / "game_7.txt"
    path.write_text(history, encoding="utf-8")
    result = run("adjudicate", str(path), "--phase", "F1901M")
    assert result.exit_code == 0
    assert result.output.startswith("game_7 F1901M: Fall 1901, Movement (rules 2000)\n")
    assert "England  A yor - nwy via convoy  succeeds" in result.output
    assert "Italy    A ven     attacked from tyr; retreats: apu, pie, tus" in result.output
    # a retreat phase: the attackers' origins come from adjudicating the movement before it
    state = recorded_position(str(path), "F1901R").state
    assert {d.unit.province: d.attacker_origin for d in state.dislodged} == {"bur": "par", "ven": "tyr"}
    explained = run("adjudicate", str(path), "--phase", "Fall 1901, Movement", "--explain", "--format", "json")
    assert explained.exit_code == 0 and json.loads(explained.output)["explanations"]
    as_godip_writes_it = run("adjudicate", str(path), "--phase", "1901 Fall Adjustment")  # the year first
    assert as_godip_writes_it.exit_code == 0 and "W1901A: Fall 1901, Adjustment" in as_godip_writes_it.output
    missing = run("adjudicate", str(path), "--phase", "S1950M")
    assert missing.exit_code == 2 and "no phase 'S1950M' (phases: S1901M, F1901M, F1901R, W1901A, S1902M)" in missing.output


def test_adjudicate_a_phase_of_other_recorded_games(played, tmp_path: Path) -> None:
    """The same phase from a dipsat game file and from a line of a .jsonl of saved games."""
    game_file = tmp_path / "game.json"
    played.save(game_file)
    saved = json.dumps(write_game(game_record(played)))
    lines = tmp_path / "games.jsonl"
    lines.write_text(saved + "\n" + saved + "\n", encoding="utf-8")
    outputs = []
    for source in (str(game_file), f"{lines}:2"):
        result = run("adjudicate", source, "--phase", "W1901A")
        assert result.exit_code == 0, result.output
        outputs.append(result.output.split("\n", 1)[1])
    assert outputs[0] == outputs[1]
    assert "Italy    F ion     removed in civil disorder" in outputs[0]
    ambiguous = run("adjudicate", str(lines), "--phase", "W1901A")
    assert ambiguous.exit_code == 2 and "2 games, one per line: name one as" in ambiguous.output


def test_bench_reads_folders_of_histories(history: str, tmp_path: Path) -> None:
    from dipsat.runners.bench import corpus_phases, corpus_texts, recorded_inputs

    (tmp_path / "games").mkdir()
    for n in (1, 2):
        (tmp_path / "games" / f"game_{n}.txt").write_text(history, encoding="utf-8")
    assert recorded_inputs([str(tmp_path / "games")]) and not recorded_inputs([str(dipsat_cases())])
    phases = corpus_phases(corpus_texts([str(tmp_path / "games")]), dipsat.Rules.profile())
    assert [p.kind for p in phases] == ["Movement", "Movement", "Retreat", "Adjustment"] * 2
    # a folder of saved games of the diplomacy package, beside a history: every game is timed
    record = json.dumps(write_game(read_godip_game(history, "game_1.txt")))
    (tmp_path / "games" / "saved.json").write_text(record, encoding="utf-8")
    assert recorded_inputs([str(tmp_path / "games")])
    assert len(corpus_texts([str(tmp_path / "games")])) == 3


def test_bench_times_batch_mode_kind_by_kind(history: str, tmp_path: Path) -> None:
    """Batch mode's figure per phase kind: every phase timed once, in batches of one kind, and
    each kind's line counts its phases and batches."""
    from dipsat.runners.bench import batch_kind_table, corpus_phases, corpus_texts, time_batch_kinds

    (tmp_path / "game_1.txt").write_text(history, encoding="utf-8")
    phases = corpus_phases(corpus_texts([str(tmp_path)]) * 3, dipsat.Rules.profile())  # 6 movement phases
    timings = time_batch_kinds(phases, batch=4)
    assert [(kind, n) for kind, n, _ in timings] == [("Movement", 4), ("Movement", 2), ("Retreat", 3),
                                                     ("Adjustment", 3)]
    assert all(seconds > 0 for _, _, seconds in timings)
    lines = batch_kind_table(timings)
    assert [line.split()[:3] for line in lines[1:]] == [["Movement", "6", "2"], ["Retreat", "3", "1"],
                                                       ["Adjustment", "3", "1"]]


def test_an_empty_history_is_counted_and_rejected(history: str, tmp_path: Path) -> None:
    (tmp_path / "game_1.txt").write_text(history, encoding="utf-8")
    (tmp_path / "game_2.txt").write_text("", encoding="utf-8")
    report = tmp_path / "r.jsonl"
    result = run("validate", str(tmp_path), "--workers", "1", "--report", str(report))
    assert "2 records read" in result.output and "1 rejected as a whole" in result.output
    rejected = [json.loads(line) for line in report.read_text().splitlines() if '"rejected"' in line]
    assert any(line["source"].endswith("game_2.txt") and "an empty file" in str(line.get("reason"))
               for line in rejected)


def dipsat_cases() -> Path:
    from .conftest import CASES

    return CASES / "datc"


@pytest.mark.parametrize("year", ["²", "١٩٠١", "9" * 5000])
def test_a_phase_year_that_is_not_an_ascii_number_is_an_error_of_its_phase(year: str) -> None:
    """Found by scripts/fuzz.py: 'PHASE ² Spring Movement' gave a traceback (int('²'))."""
    text = f"PHASE 1901 Spring Movement\nPOSITIONS\nFrance: army par\nORDERS\nPHASE {year} Fall Movement\nPOSITIONS\n"
    game = read_godip_game(text, "g.txt")
    assert game.phases[1].error is not None and "expected 'PHASE <year>" in str(game.phases[1].error)
