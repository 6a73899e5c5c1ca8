"""Gaps in a record (`dipsat.runners.gaps`): a retreat phase missing after a
dislodgement, a spring turn missing between a winter and a fall. They are reported as
gaps, never as disagreements or rejections, and the phases after them are judged from
their own recorded positions. The records are our own: a short game played with dipsat
and written out as a godip history and as a saved game of the `diplomacy` package."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from dipsat.board import Location, Unit, UnitKind
from dipsat.formats.diplomacy_json import write_game
from dipsat.formats.godip import write_godip_game
from dipsat.game import new_game
from dipsat.notation import parse_orders
from dipsat.runners.recorded import game_record
from dipsat.runners.validate import AGREED, DISAGREED, FINAL, GAP, GameReport, validate_godip, validate_text
from dipsat.rules import Rules

from .conftest import run

RULES = Rules.profile()

TURNS = ["Austria: A vie - tyr",  # S1901M
         "Austria: A tyr - ven\nAustria: F tri S A tyr - ven\nItaly: A rom H",  # F1901M: Italy's A ven dislodged
         "Italy: A ven - pie",  # F1901R
         "Austria: Build A vie\nItaly: Remove F nap",  # W1901A
         "Austria: A vie - gal",  # S1902M
         "Italy: A pie H"]  # F1902M


def _played(retreat: str = TURNS[2]) -> list:
    game = new_game("standard")
    for text in [*TURNS[:2], retreat, *TURNS[3:]]:
        orders, errors = parse_orders(text, game.state.variant, game.state.phase.kind)
        assert not errors, errors
        game.play(orders)
    record = game_record(game)
    assert [p.name for p in record.phases] == ["S1901M", "F1901M", "F1901R", "W1901A", "S1902M", "F1902M", "S1903M"]
    return record


def _without(names: set[str], retreat: str = TURNS[2]):
    record = _played(retreat)
    record.phases = [p for p in record.phases if p.name not in names]
    return record


WRITERS: dict[str, Callable[..., GameReport]] = {
    "godip": lambda record: validate_godip(write_godip_game(record), "g.txt", RULES),
    "json": lambda record: validate_text(json.dumps(write_game(record)), "g.json", RULES),
}


@pytest.mark.parametrize("fmt", sorted(WRITERS))
def test_the_whole_record_agrees(fmt: str) -> None:
    report = WRITERS[fmt](_played())
    assert [p.status for p in report.phases] == [AGREED] * 6 + [FINAL]


@pytest.mark.parametrize("fmt", sorted(WRITERS))
@pytest.mark.parametrize("retreat, shown", [(TURNS[2], "retreated to PIE"), ("Italy: A ven disband", "gone (disbanded)")])
def test_a_missing_retreat_phase_is_a_gap(fmt: str, retreat: str, shown: str) -> None:
    """Droidippy games 1229/1255: a unit dislodged, no retreat phase recorded, the unit
    gone (or where it retreated to) in the next recorded phase."""
    report = WRITERS[fmt](_without({"F1901R"}, retreat))
    statuses = {p.name: p.status for p in report.phases}
    assert statuses == {"S1901M": AGREED, "F1901M": GAP, "W1901A": AGREED, "S1902M": AGREED,
                        "F1902M": AGREED, "S1903M": FINAL}
    gap = report.phases[1]
    assert "no retreat phase F1901R before W1901A" in gap.reason and f"Italy A VEN {shown}" in gap.reason
    line = next(line for line in report.report_lines() if line["type"] == GAP)
    assert line["phase"] == "F1901M" and line["reason"] == gap.reason
    assert report.record_line()["counts"]["movement/gap"] == 1


@pytest.mark.parametrize("fmt", sorted(WRITERS))
def test_a_bug_beside_a_missing_retreat_phase_is_still_a_disagreement(fmt: str) -> None:
    record = _without({"F1901R"})
    after = record.phases[2].state  # W1901A: Austria's A ven bounced back to tyr, say
    record.phases[2].state = after.with_(units=tuple(
        u if str(u.location) != "ven" else type(u)(u.power, u.kind, type(u.location)("tyr")) for u in after.units))
    report = WRITERS[fmt](record)
    assert report.phases[1].status == DISAGREED and "no retreat phase F1901R" in report.phases[1].note
    assert {d.subject for d in report.phases[1].differences} >= {"AUSTRIA A VEN", "AUSTRIA A TYR"}


@pytest.mark.parametrize("fmt", sorted(WRITERS))
def test_a_missing_spring_turn_is_a_gap(fmt: str) -> None:
    """Droidippy games 1232/1307: a winter followed by a fall."""
    report = WRITERS[fmt](_without({"S1902M"}))
    statuses = [(p.name, p.status) for p in report.phases]
    assert statuses[:3] == [("S1901M", AGREED), ("F1901M", AGREED), ("F1901R", AGREED)]
    assert statuses[3] == ("W1901A", GAP)
    assert report.phases[3].reason == ("the record goes from W1901A to F1902M: S1902M is missing, so W1901A has no "
                                       "recorded outcome to be judged on")
    # judged from its own position: A vie still in vie (the record has no gal), Italy's move agrees
    assert statuses[4:] == [("F1902M", AGREED), ("S1903M", FINAL)]


def test_gaps_in_the_command_reports(tmp_path) -> None:
    """The category shows in the terminal summary, --summary json, the JSONL report and the HTML report."""


    (tmp_path / "game_1.txt").write_text(write_godip_game(_without({"S1902M"})), encoding="utf-8")
    (tmp_path / "game_2.txt").write_text(write_godip_game(_without({"F1901R"})), encoding="utf-8")
    report, html = tmp_path / "report.jsonl", tmp_path / "html"
    result = run("validate", str(tmp_path), "--workers", "1", "--summary", "json", "--report", str(report), "--html", str(html))
    assert result.exit_code == 0, result.output  # a gap is no failure of the adjudicator
    summary = json.loads(result.stdout)
    assert summary["phases"]["movement"]["gap"] == 1 and summary["phases"]["adjustment"]["gap"] == 1
    assert summary["phases"]["total"]["rejected"] == 0 and "gap" in summary["columns"]
    gaps = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()
            if json.loads(line)["type"] == GAP]
    assert [(line["game"], line["phase"]) for line in gaps] == [("game_1", "W1901A"), ("game_2", "F1901M")]
    index = (html / "index.html").read_text(encoding="utf-8")
    assert index.count('<span class="status gap">gap</span>') == 2 and "A gap in the record:" in index
    text = run("validate", str(tmp_path), "--workers", "1").output.splitlines()
    assert text[1].split()[-2:] == ["gap", "final"]
    assert next(line for line in text if line.startswith("total")).split()[-2] == "2"


@pytest.mark.parametrize("fmt", sorted(WRITERS))
def test_a_missing_adjustment_phase_with_builds_is_a_gap(fmt: str) -> None:
    """A record may skip an adjustment phase with nothing to do; one whose next position
    shows builds and removals is missing. They are played as it shows them, and checked."""
    report = WRITERS[fmt](_without({"W1901A"}))
    statuses = {p.name: p.status for p in report.phases}
    assert statuses == {"S1901M": AGREED, "F1901M": AGREED, "F1901R": GAP, "S1902M": AGREED, "F1902M": AGREED,
                        "S1903M": FINAL}
    assert report.phases[2].reason == ("the record has no adjustment phase W1901A before S1902M (a gap in the record); "
                                       "as it shows: Austria builds A VIE, Italy removes F NAP")
    record = _without({"W1901A"})  # a build in a centre not its home is still a disagreement
    spring = record.phases[3].state
    record.phases[3].state = spring.with_(units=(*spring.units, Unit("Austria", UnitKind.ARMY, Location("ser"))))
    bugged = WRITERS[fmt](record).phases[2]
    assert bugged.status == DISAGREED and "no adjustment phase W1901A" in bugged.note
    assert [(d.subject, d.recorded, d.ours) for d in bugged.differences] == [("AUSTRIA A SER", "present", "absent")]
