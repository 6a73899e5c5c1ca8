"""Rule readings inferred for an archive (``dipsat validate --infer``), from evidence.

Every record here is our own: a winter in which Germany, with two centres (Munich, Berlin)
and four units (A MUN, F NTH, F NWG, F BOT), orders no removal (civil disorder). DATC 4.D.8:
under the 2000 rule (dipsat's default) it keeps A MUN and F NTH, under the 2023 rule A MUN and
F BOT; each record writes the spring after as one of them would have.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path


import dipsat
from dipsat.adjudicator import adjudicate
from dipsat.formats.diplomacy_json import read_game
from dipsat.rules import Rules

from .test_validate import _centres, _phase, _units

from .conftest import run

GERMANY = ["A MUN", "F NTH", "F NWG", "F BOT"]


def civil_disorder_game(game_id: str, reading: str) -> dict:
    """A record whose civil-disorder removal follows 4.D.8=`reading`."""
    start = dipsat.load_variant("standard").initial_state()
    units, centres = _units(start), _centres(start)
    units["GERMANY"] = list(GERMANY)
    centres["GERMANY"] = ["BER", "MUN"]
    centres["RUSSIA"] = centres["RUSSIA"] + ["KIE"]
    record = {"id": game_id, "map": "standard", "rules": [],
              "phases": [_phase("W1901A", units, centres), _phase("S1902M", units, centres)]}
    state = read_game(record).phases[0].state
    assert state is not None
    after = adjudicate(state, [], Rules.profile("2000", {"4.D.8": reading})).after
    spring = copy.deepcopy(units)
    spring["GERMANY"] = [f"{u.kind} {str(u.location).upper()}" for u in after.units if u.power == "Germany"]
    record["phases"][1] = _phase("S1902M", spring, centres)
    return record


def test_the_two_readings_differ_here() -> None:
    kept = {r: civil_disorder_game("g", r)["phases"][1]["state"]["units"]["GERMANY"] for r in ("2000", "2023")}
    assert sorted(kept["2000"]) == ["A MUN", "F NTH"] and sorted(kept["2023"]) == ["A MUN", "F BOT"]


def _archive(folder: Path, readings: list[str]) -> Path:
    folder.mkdir(exist_ok=True)
    for k, reading in enumerate(readings):
        (folder / f"game_{k}.json").write_text(json.dumps(civil_disorder_game(f"g{k}", reading)), encoding="utf-8")
    return folder


def _run(tmp_path: Path, folder: Path, *options: str) -> tuple[dict[str, dict], dict, str]:
    report = tmp_path / "report.jsonl"
    result = run("validate", str(folder), "--workers", "1", "--report", str(report), *options)
    assert result.exit_code in (0, 1), result.output
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    phases = {line["game"]: line for line in lines if line["type"] in ("disagreed", "rule-difference")}
    readings = next((line for line in lines if line["type"] == "readings"), {})
    return phases, readings, result.output


def test_one_removal_matching_another_reading_than_the_archive_is_a_disagreement(tmp_path: Path) -> None:
    """Three games remove as 2000 does, one as 2023: that one phase is no evidence of a
    reading (and the others contradict it): a disagreement, with the fact in its note."""
    folder = _archive(tmp_path / "games", ["2000", "2000", "2000", "2023"])
    phases, readings, output = _run(tmp_path, folder)
    assert list(phases) == ["g3"] and phases["g3"]["type"] == "disagreed" and phases["g3"]["phase"] == "W1901A"
    assert "would agree under 4.D.8=2023" in phases["g3"]["note"]
    (reading,) = readings["readings"]
    assert reading["issue"] == "4.D.8" and reading["inferred"] == []
    assert reading["support"] == {"2023": ["g3 W1901A"]}
    # the first records of an archive are judged under every option: the others contradict it
    assert reading["against"]["2023"] == ["g0 W1901A", "g1 W1901A", "g2 W1901A"]
    assert "4.D.8=2023: 1 phases agree only under it, contradicted by 3 (g0 W1901A, g1 W1901A, g2 W1901A)" in (
        readings["summary"][0])
    assert "rule readings of the archive" in output and "4.D.8=2023: 1 phases agree only under it," in output


def test_a_reading_the_archive_supports_is_inferred_and_named_with_its_evidence(tmp_path: Path) -> None:
    folder = _archive(tmp_path / "games", ["2023", "2023"])
    phases, readings, output = _run(tmp_path, folder)
    assert {g: (p["type"], p["rule"]) for g, p in phases.items()} == {
        "g0": ("rule-difference", "4.D.8=2023"), "g1": ("rule-difference", "4.D.8=2023")}
    assert phases["g0"]["rule_options"] == ["4.D.8=2023"]  # the only option that fits
    (reading,) = readings["readings"]
    assert reading["inferred"] == ["2023"] and reading["support"]["2023"] == ["g0 W1901A", "g1 W1901A"]
    assert "4.D.8=2023: 2 phases agree only under it, none contradicts it" in readings["summary"][0]
    assert "4.D.8=2023: 2 phases agree only under it, none" in output


def test_a_contradicting_phase_keeps_the_reading_from_being_inferred(tmp_path: Path) -> None:
    folder = _archive(tmp_path / "games", ["2023", "2023", "2000"])
    phases, readings, _ = _run(tmp_path, folder)
    assert {g: p["type"] for g, p in phases.items()} == {"g0": "disagreed", "g1": "disagreed"}
    assert readings["readings"][0]["against"]["2023"] == ["g2 W1901A"]


def test_rule_pins_the_issue(tmp_path: Path) -> None:
    """--rule 4.D.8=2000: no evidence is gathered for 4.D.8, nothing is inferred for it."""
    folder = _archive(tmp_path / "games", ["2023", "2023"])
    phases, readings, _ = _run(tmp_path, folder, "--rule", "4.D.8=2000")
    assert {g: p["type"] for g, p in phases.items()} == {"g0": "disagreed", "g1": "disagreed"}
    assert readings["readings"] == []


def test_infer_game_and_none(tmp_path: Path) -> None:
    """Per game, each game's single phase is no evidence; with none, nothing is ever inferred."""
    folder = _archive(tmp_path / "games", ["2023", "2023"])
    for mode in ("game", "none"):
        phases, readings, _ = _run(tmp_path, folder, "--infer", mode)
        assert {g: p["type"] for g, p in phases.items()} == {"g0": "disagreed", "g1": "disagreed"}, mode
        assert readings == {}, mode


def test_resume_completes_an_archive_report(tmp_path: Path) -> None:
    """A report cut after its first record is completed by --resume to the same bytes: the
    record lines carry their evidence, so the archive decides the same."""
    folder = _archive(tmp_path / "games", ["2023", "2023", "2000", "2023"])
    report = tmp_path / "report.jsonl"
    run("validate", str(folder), "--workers", "1", "--report", str(report))
    whole = report.read_bytes()
    lines = whole.decode().splitlines(keepends=True)
    first = next(k for k, line in enumerate(lines) if json.loads(line)["type"] == "record")
    report.write_text("".join(lines[:first + 1]), encoding="utf-8")
    run("validate", str(folder), "--workers", "1", "--resume", str(report))
    assert report.read_bytes() == whole


def test_a_civil_disorder_disagreement_says_what_the_record_implies_and_why(tmp_path: Path) -> None:
    """Item 3 of issue 18: the removal dipsat makes, with its distances and tie-break,
    against what the record shows (it kept F BOT, dipsat removes it), in the report line,
    its explanation and the terminal line."""
    folder = _archive(tmp_path / "games", ["2000", "2023"])
    phases, _, output = _run(tmp_path, folder)
    line = phases["g1"]
    label = "GERMANY: F BOT (civil disorder)"
    assert line["orders"] == [label] and line["explanation"][label][0] == "removed"
    assert "distance 2 (DATC 4.D.8, reading 2000); alphabetically before F nth (2)" in line["explanation"][label][1]
    (conclusion,) = line["conclusions"]
    assert conclusion.startswith(f"{label}: the record implies it was kept; dipsat: removed, distance 2")
    assert f"-- {label}: the record implies it was kept" in output


def test_a_movement_disagreement_says_what_the_record_implies() -> None:
    from dipsat.runners.validate import validate_game

    from .test_validate import fallback_game

    phase = validate_game(fallback_game(), Rules.profile()).phases[0]
    assert "ENGLAND: A LVP - EDI VIA: the record implies it moved; dipsat: fails (illegal)" in " ".join(
        phase.conclusions)


def test_disagreements_with_one_signature_are_grouped_across_games(tmp_path: Path) -> None:
    """Item 5 of issue 18: the same civil-disorder removal in two games is one group (its
    count, its games, its smallest case first), in the report, the terminal and the HTML."""
    folder = _archive(tmp_path / "games", ["2000", "2023", "2000", "2023"])
    report = tmp_path / "report.jsonl"
    html = tmp_path / "html"
    result = run("validate", str(folder), "--workers", "1", "--report", str(report), "--html", str(html))
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    (group,) = [line for line in lines if line["type"] == "group"]
    assert group["count"] == 2 and group["games"] == ["g1", "g3"] and group["smallest"] == "g1 W1901A"
    assert group["signature"] == "adjustment; unit; orders F (civil disorder); rules 4.D.8"
    assert "2 x adjustment; unit; orders F (civil disorder); rules 4.D.8: smallest g1 W1901A; games g1, g3" in (
        result.output)
    assert "adjustment; unit; orders F (civil disorder); rules 4.D.8" in (html / "index.html").read_text("utf-8")
