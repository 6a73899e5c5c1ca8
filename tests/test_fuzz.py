"""``dipsat fuzz`` (issue 20): the engine protocol, engines that fail, injected bugs found
where they are, rule readings told apart from bugs, the case-runner adapter."""

from __future__ import annotations

import itertools
import json
import re
import sys
from pathlib import Path

import pytest

import dipsat
from dipsat.engines.command import CommandEngine, FailureKind
from dipsat.engines.protocol import ReplyError, read_reply, read_request, reply_json, request_line
from dipsat.rules import Rules
from dipsat.runners.fuzz import ask_engine, judge_run
from dipsat.runners.generators import FAMILIES, generate, generate_item
from dipsat.state import state_problems

from .conftest import run

ROOT = Path(__file__).resolve().parents[1]
BUGGY = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'buggy_engine.py'}"
DIPSAT_ENGINE = f"{sys.executable} {ROOT / 'docs' / 'engines' / 'dipsat_engine.py'}"
CASE_RUNNER = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'case_runner.py'}"
STANDARD = dipsat.load_variant("standard")
ALL = ["convoys", "paradoxes", "rings", "head_to_head", "coasts", "retreats", "adjustments", "games"]


def fuzz(*args: str):
    return run("fuzz", *args)


# --- generators ---------------------------------------------------------------------------------


def test_generated_phases_are_legal_and_reproducible() -> None:
    variants = [STANDARD, dipsat.load_variant("modern")]
    first = list(itertools.islice(generate(7, variants, ALL, Rules.profile("2000")), 120))
    again = list(itertools.islice(generate(7, variants, ALL, Rules.profile("2000")), 120))
    assert first == again and len({g.id for g in first}) == 120
    alone = generate_item(7, 10, variants, ALL, Rules.profile("2000"))  # any item, made again alone
    assert alone == [g for g in first if g.id.startswith("fuzz-7-000010")]
    assert {g.family for g in first} == set(ALL)
    assert all(not state_problems(g.state) for g in first)
    assert set(FAMILIES) | {"games"} == set(ALL)


def test_the_paradox_family_puts_a_convoy_under_a_support_from_its_destination() -> None:
    """Every ``paradoxes`` phase has an army ordered by convoy to a province whose fleet
    supports an attack on a fleet convoying it (or supports that fleet, or attacks it):
    the position where a convoyed army's arrival would cut the support that disrupts its
    own convoy (DATC 6.F.14-6.F.24). The supporter is of every kind of power -- the
    convoying fleet's own among them, whose support cannot dislodge the fleet (5.B.8) --
    and the reading of 4.A.2 decides some of the phases."""
    from dipsat.board import UnitKind
    from dipsat.orders import Convoy, Move, SupportHold, SupportMove
    generated = list(itertools.islice(generate(5, [STANDARD], ["paradoxes"], Rules.profile("2000")), 300))
    assert all(not state_problems(g.state) for g in generated)
    own = foreign = decided = 0
    for g in generated:
        state, orders = g.state, list(g.orders)
        convoys = [o for o in orders if isinstance(o, Convoy)]
        fleets = {o.unit.province: state.unit_at(o.unit.province) for o in convoys}
        cores = []
        for o in orders:
            unit = state.unit_at(o.unit.province)
            aimed = (o.dest.province if isinstance(o, (SupportMove, Move)) else
                     o.target.province if isinstance(o, SupportHold) else None)
            if unit is None or unit.kind is not UnitKind.FLEET or aimed not in fleets:
                continue
            army_moves = [m for m in orders if isinstance(m, Move) and m.dest.province == unit.province
                          and any(c.target.province == m.unit.province for c in convoys if c.unit.province == aimed)]
            if army_moves:
                cores.append((unit, fleets[aimed]))
        assert cores, g.id
        own += any(s.power == f.power for s, f in cores)
        foreign += any(s.power != f.power for s, f in cores)
        rules = [Rules.parse(["2000", f"4.A.2={o}"]) for o in ("a", "b", "c", "f")]
        decided += len({dipsat.adjudicate(state, orders, r).after for r in rules}) > 1
    assert own >= 30 and foreign >= 30 and decided >= 3, (own, foreign, decided)


# --- the protocol -------------------------------------------------------------------------------


def test_a_request_and_its_reply_read_back() -> None:
    state, orders = next((g.state, list(g.orders)) for g in generate(3, [STANDARD], ["convoys"],
                                                                       Rules.profile("2000")))
    request_id, read_state, read_orders = read_request(request_line("r-1", state, orders))
    assert (request_id, read_state, read_orders) == ("r-1", state, orders)
    result = dipsat.adjudicate(state, orders, Rules.profile("2000"))
    line = json.dumps(reply_json("r-1", result.after, result.retreat_options, {0: True}))
    reply = read_reply(line, "r-1", state, len(orders))
    assert reply.after == result.after and reply.succeeded == {0: True}
    if result.after.dislodged:
        assert reply.retreat_options == {u: tuple(sorted(o, key=str)) for u, o in result.retreat_options.items()}


@pytest.mark.parametrize("line, message", [
    ("not json", "not JSON"),
    ('{"id": "other", "position": {}}', "answers request 'other', not 'r-1'"),
    ('{"id": "r-1", "error": "boom"}', "the engine reports an error: boom"),
    ('{"id": "r-1"}', "no 'position' object"),
    ('{"id": "r-1", "position": {"phase": {"year": 1901, "season": "Fall", "kind": "Movement"}, '
     '"units": [{"power": "France", "kind": "F", "location": "vie"}]}}', "its position cannot be read"),
])
def test_replies_that_are_not_answers_say_why(line: str, message: str) -> None:
    with pytest.raises(ReplyError, match=message.replace("(", r"\(")):
        read_reply(line, "r-1", STANDARD.initial_state(), 0)


# --- engines that fail --------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("flag, kind", [("--crash-on", FailureKind.CRASHED), ("--garbage-on", FailureKind.GARBAGE),
                                        ("--hang-on", FailureKind.HUNG)])
def test_a_failing_engine_is_reported_per_request_and_nothing_is_lost(flag: str, kind: FailureKind) -> None:
    """The third request of each start fails; the engine is restarted and the run goes on:
    every request is counted once, as answered or as failed."""
    with CommandEngine(f"{BUGGY} {flag} 3", timeout=3) as engine:
        run = ask_engine(engine, [STANDARD], ["rings"], Rules.profile("2000"), seed=5, phases=7)
    assert [p.id for p in run.phases] == [f"fuzz-5-{n:06d}" for n in range(7)]
    assert [p.id for p in run.failed] == ["fuzz-5-000002", "fuzz-5-000005"]  # the third of each start
    assert {p.failure.kind for p in run.failed if p.failure} == {kind}
    assert all(j.status == "agreed" for j in judge_run(run, Rules.profile("2000"), "buggy").phases)


def test_an_engine_that_cannot_start_is_a_failure_per_request() -> None:
    with CommandEngine("/nonexistent/engine", timeout=1) as engine:
        run = ask_engine(engine, [STANDARD], ["rings"], Rules.profile("2000"), seed=1, phases=2)
    assert len(run.failed) == 2 and all(p.failure and p.failure.kind is FailureKind.CRASHED for p in run.failed)


# --- verdicts -----------------------------------------------------------------------------------


@pytest.mark.slow
def test_dipsat_as_an_engine_agrees_and_under_another_profile_only_differs_in_rules(tmp_path: Path) -> None:
    """dipsat wrapped as an engine agrees on every phase under the rules judged by. Under
    another profile (1971) every difference is one of that profile's readings: inferred for
    the engine where the run shows it in enough phases (a rule difference), and where a
    reading shows in too few phases to be inferred (one phase is no evidence: a bug may
    match an option), a disagreement whose note names the 1971 option that reproduces it.
    Never a reading 1971 does not follow, never a difference no reading of 1971 explains --
    whatever phases the seed draws."""
    res = fuzz("--against", f"cmd:{DIPSAT_ENGINE}", "--phases", "60", "--seed", "2")
    assert res.exit_code == 0, res.output
    assert "agreed 60, rule differences 0, disagreements 0, engine failures 0" in res.output
    report = tmp_path / "report.jsonl"
    res = fuzz("--against", f"cmd:{DIPSAT_ENGINE} --rules 1971", "--phases", "80", "--seed", "2", "--family",
               "convoys", "--family", "paradoxes", "--family", "rings", "--no-shrink", "--report", str(report))
    assert "4.A.3=a" in res.output and "engine failures 0" in res.output, res.output
    old = Rules.profile("1971")

    def options(text: str) -> set[tuple[str, str]]:
        return set(re.findall(r"(4\.[A-E]\.\d+)=([\w/]+)", text))

    lines = [line for line in map(json.loads, report.read_text().splitlines()) if line["type"] == "phase"]
    differences = [line for line in lines if line["status"] == "rule-difference"]
    assert differences and all(options(line["rule"]) and all(old.choice(n) == o for n, o in options(line["rule"]))
                               for line in differences), differences
    disagreements = [line for line in lines if line["status"] == "disagreed"]
    for line in disagreements:
        assert any(old.choice(n) == o for n, o in options(line.get("note", ""))), line
    # a gap: the engine's next phase skips one dipsat plays (no retreat phase where 1971 lets
    # the dislodged unit retreat nowhere, 4.A.5), judged on the engine's position: no verdict
    assert all(line["status"] in ("rule-difference", "disagreed", "gap") for line in lines), lines
    assert res.exit_code == (1 if disagreements else 0), res.output


@pytest.mark.parametrize("bug, kind, what, units", [("retreat-to-origin", "movement", {"retreats"}, 3),
                                                     ("overbuild", "adjustment", {"unit"}, 1)])
def test_an_injected_bug_is_found_where_it_is(tmp_path: Path, bug: str, kind: str, what: set[str], units: int) -> None:
    """Every disagreement is in the phase kind the bug is in, with the difference it makes;
    each kind's first is shrunk, with the engine as the judge, to the few units the bug
    needs (an attacker, its support and the dislodged unit; one build), and its case fails
    under `dipsat cases`."""
    report, cases = tmp_path / "report.jsonl", tmp_path / "cases"
    family = "retreats" if kind == "movement" else "adjustments"
    res = fuzz("--against", f"cmd:{BUGGY} --bug {bug}", "--phases", "60", "--seed", "3", "--family", family,
               "--report", str(report), "--write-cases", str(cases))
    assert res.exit_code == 1, res.output
    lines = [line for line in map(json.loads, report.read_text().splitlines()) if "status" in line]
    disagreements = [line for line in lines if line["status"] == "disagreed"]
    assert disagreements and all(line["kind"] == kind for line in disagreements)
    assert all({d["what"] for d in line["differences"]} == what for line in disagreements)
    assert not [line for line in lines if line["status"] == "engine-failure"]
    sizes = [int(line.split(": ")[2].split(" units")[0]) for line in res.output.splitlines() if "smallest:" in line]
    assert sizes and all(size <= units for size in sizes), res.output
    minimal = sorted(cases.glob("*.min.txt"))
    assert len(minimal) == len(sizes)
    ran = run("cases", *map(str, minimal))
    assert ran.exit_code == 1 and f"0 passed, {len(minimal)} failed" in ran.output, ran.output


def test_shrinking_keeps_the_difference_shown_under_the_rules_it_shrinks_by() -> None:
    """A disagreement's differences are told under the rules given; it is shrunk under them
    with the engine's readings inferred, where they may read otherwise (the package's
    4.A.5=a forbids a retreat 2000 allows: 'engine ARM CON SMY, dipsat CON' against 'dipsat
    ARM CON'). The shrinking keeps the difference the phase shows under the rules it
    shrinks by: differences told under other rules would match no candidate, and the
    phase would stay as big as it came."""
    from dataclasses import replace
    from dipsat.board import PhaseKind
    from dipsat.runners.fuzz import FuzzPhase, judge_phase, phase_differences, shrink_disagreement
    from dipsat.runners.validate import Difference
    engine = CommandEngine(f"{BUGGY} --bug retreat-to-origin", 30)
    rules = Rules.profile("2000")
    try:
        for g in generate(3, [STANDARD], ["retreats"], rules):
            if g.state.phase.kind is PhaseKind.MOVEMENT and len(g.state.units) > 6:
                phase = FuzzPhase(g.id, g, engine.judge(g.id, g.state, list(g.orders)))
                if phase_differences(phase, rules):
                    break
        judged, _ = judge_phase(phase, rules, "buggy")
        told = replace(judged, differences=tuple(Difference(d.what, d.subject, d.recorded, d.ours + " ARM")
                                                  for d in judged.differences))  # as other rules would tell them
        small = shrink_disagreement(engine, phase, told, rules, "buggy")
    finally:
        engine.close()
    assert small.phase_size[0] <= 3, small.phase_size


@pytest.mark.slow
def test_the_case_runner_adapter_finds_readings_and_disagreements() -> None:
    res = fuzz("--against", f"cases:{CASE_RUNNER} {{file}} --rules 1971", "--phases", "4", "--seed", "4",
               "--family", "rings")
    assert res.exit_code == 0, res.output
    assert "disagreements 0, engine failures 0" in res.output
    res = fuzz("--against", f"cases:{CASE_RUNNER} {{file}} --always-fail", "--phases", "1", "--seed", "4",
               "--family", "rings")
    assert res.exit_code == 1 and "engine fails dipsat's result under every reading" in res.output


def test_the_package_speaks_the_protocol() -> None:
    res = fuzz("--against", "diplomacy", "--phases", "60", "--seed", "1")
    assert "engine failures 0" in res.output, res.output
    agreed = int(res.output.split("agreed ")[1].split(",")[0])
    assert agreed >= 50, res.output


@pytest.mark.parametrize("spec, message", [("nonsense", "expected diplomacy, cmd:COMMAND or 'cases:COMMAND {file}'"),
                                            ("cases:runner", "must name the case file as {file}")])
def test_bad_engine_names_are_one_line_errors(spec: str, message: str) -> None:
    res = fuzz("--against", spec, "--phases", "1")
    assert res.exit_code == 2 and message in res.output and "Traceback" not in res.output
