"""``dipsat fuzz`` runs (issue 20, item 5 and the case-runner adapter): the report and
``--resume`` (nothing counted twice or lost), judging in worker processes and on a Dask
cluster (the same verdicts), the HTML report, and the case runner asked in batches that
are bisected where they fail."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import dipsat
from dipsat.engines.casefile import CaseRunnerEngine
from dipsat.engines.command import EngineFailure
from dipsat.rules import Rules
from dipsat.runners.fuzz import other_readings
from dipsat.runners.generators import generate_item

from .conftest import run

ROOT = Path(__file__).resolve().parents[1]
BUGGY = f"cmd:{sys.executable} {ROOT / 'tests' / 'engines' / 'buggy_engine.py'} --bug retreat-to-origin"
CASE_RUNNER = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'case_runner.py'}"
STANDARD = dipsat.load_variant("standard")
RUN = ["--against", BUGGY, "--seed", "3", "--family", "retreats", "--no-shrink"]


def fuzz(*args: str):
    return run("fuzz", *args)


def verdicts(path: Path) -> list[dict[str, object]]:
    """The verdict lines of a report (its phases' lines and groups are the run's)."""
    return [line for line in map(json.loads, path.read_text().splitlines()) if line["type"] in ("phase", "readings",
                                                                                                "engine-failure")]


@pytest.mark.slow
def test_a_run_cut_off_and_resumed_is_the_whole_run(tmp_path: Path) -> None:
    """A report cut anywhere (in the middle of a line too) and resumed gives the verdicts
    of the run never cut: its items are taken as answered, the rest asked, none twice."""
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    first = fuzz(*RUN, "--phases", "30", "--report", str(whole))
    assert first.exit_code == 1, first.output
    items = [line for line in whole.read_text().splitlines() if '"type": "item"' in line]
    assert len(items) == 30
    text = whole.read_text()
    cut.write_text(text[:text.index(items[12]) + 40])  # 12 items whole, the 13th cut in the middle
    again = fuzz(*RUN, "--phases", "30", "--report", str(cut), "--resume")
    said = " ".join(again.output.split())  # the summary is wrapped to the terminal, where depends on the paths
    assert again.exit_code == 1 and "30 phases asked" in said and "12 of them by the run resumed" in said
    assert verdicts(cut) == verdicts(whole) and verdicts(whole)
    ids = [json.loads(line)["item"] for line in cut.read_text().splitlines() if '"type": "item"' in line]
    assert sorted(ids) == list(range(30))  # each item once
    more = fuzz(*RUN, "--phases", "40", "--report", str(cut), "--resume")  # a larger budget: only the new ones asked
    said = " ".join(more.output.split())
    assert "40 phases asked" in said and "30 of them by the run resumed" in said, more.output


@pytest.mark.parametrize("change, message", [(["--seed", "4"], "a run with seed 3, not 4"),
                                             (["--rules", "1971"], "a run with rules 2000, not 1971"),
                                             (["--family", "rings"], "a run with families retreats, not rings")])
def test_a_report_of_another_run_is_not_resumed(tmp_path: Path, change: list[str], message: str) -> None:
    report = tmp_path / "r.jsonl"
    fuzz(*RUN, "--phases", "2", "--report", str(report))
    args = [*RUN, "--phases", "4", "--report", str(report), "--resume"]
    for option, value in zip(change[::2], change[1::2]):
        k = args.index(option) if option in args else None
        args = args[:k] + args[k + 2:] if k is not None else args
        args += [option, value]
    res = fuzz(*args)
    assert res.exit_code == 2 and message in res.output and "Traceback" not in res.output, res.output
    (tmp_path / "other.txt").write_text("not a report\n")
    res = fuzz(*RUN, "--phases", "2", "--report", str(tmp_path / "other.txt"), "--resume")
    assert res.exit_code == 2 and "other.txt:1: not a line of a dipsat fuzz report" in res.output


@pytest.mark.slow
def test_judging_in_worker_processes_gives_the_same_verdicts(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    fuzz(*RUN, "--phases", "40", "--report", str(one))
    res = fuzz(*RUN, "--phases", "40", "--report", str(two), "--workers", "2")
    assert res.exit_code == 1, res.output
    assert verdicts(one) == verdicts(two)


def test_judging_on_a_dask_cluster_gives_the_same_verdicts(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    here, there = tmp_path / "here.jsonl", tmp_path / "there.jsonl"
    fuzz(*RUN, "--phases", "20", "--report", str(here))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        res = fuzz(*RUN, "--phases", "20", "--report", str(there), "--scheduler", cluster.scheduler_address)
    assert res.exit_code == 1, res.output
    assert verdicts(here) == verdicts(there)


def test_the_html_report_shows_each_kind_s_smallest_case(tmp_path: Path) -> None:
    html = tmp_path / "html"
    res = fuzz("--against", BUGGY, "--seed", "3", "--family", "retreats", "--phases", "30", "--html", str(html))
    assert res.exit_code == 1
    kinds = res.output.count("smallest:")
    index = (html / "index.html").read_text()
    assert kinds and index.count('class="problem disagreed"') == kinds
    assert len(list((html / "pictures").glob("*-record.svg"))) == kinds  # the engine's position beside dipsat's
    assert len(list((html / "pictures").glob("*-ours.svg"))) == kinds
    assert len(list((html / "cases").glob("*.txt"))) == kinds


def _phases(n: int) -> list[tuple[str, dipsat.State, list[dipsat.Order]]]:
    out = []
    item = 0
    while len(out) < n:
        out += [(g.id, g.state, list(g.orders)) for g in generate_item(5, item, [STANDARD], ["rings"],
                                                                      Rules.profile("2000"))]
        item += 1
    return out[:n]


@pytest.mark.slow
def test_the_case_runner_is_asked_in_batches_bisected_where_they_fail() -> None:
    """16 phases the runner agrees with: one run of the command. One case it fails among
    them: the file is bisected down to it (4 levels, 2 runs each), then each other reading
    is offered to it alone; the others are answered with dipsat's result."""
    rules = Rules.profile("2000")
    requests = _phases(16)
    with_all = CaseRunnerEngine(f"{CASE_RUNNER} {{file}}", rules, other_readings(rules))
    answers = with_all.judge_many(requests)
    assert with_all.runs == 1 and all(not isinstance(a, EngineFailure) and not a.unknown for a in answers)
    bad = requests[5][0]
    failing = CaseRunnerEngine(f"{CASE_RUNNER} {{file}} --fail-case {bad}", rules, other_readings(rules))
    answers = failing.judge_many(requests)
    tried = len({str(alt) for alt in other_readings(rules)(requests[5][1], requests[5][2])})
    assert 1 + 2 * 4 <= failing.runs <= 1 + 2 * 4 + tried
    assert [a.id for a in answers if not isinstance(a, EngineFailure) and a.unknown] == [bad]
    assert all(not isinstance(a, EngineFailure) for a in answers)
    with_all.close()
    failing.close()


@pytest.mark.slow
def test_a_run_of_the_case_runner_finds_the_readings_of_its_rules() -> None:
    res = fuzz("--against", f"cases:{CASE_RUNNER} {{file}} --rules 1971", "--phases", "40", "--seed", "2",
               "--family", "convoys", "--family", "rings")
    assert res.exit_code == 0 and "disagreements 0, engine failures 0" in " ".join(res.output.split()), res.output
    assert "4.A.3=a" in res.output


def test_the_progress_bar_fills_as_the_budget_is_spent() -> None:
    res = fuzz(*RUN, "--phases", "12", "--progress")
    err = res.stderr if hasattr(res, "stderr") else res.output
    assert f"[{'#' * 24}] 12 phases asked" in err and "judging 12 phases" in err, err
    quiet = fuzz(*RUN, "--phases", "12", "--no-progress")
    assert "phases asked," not in (quiet.stderr if hasattr(quiet, "stderr") else quiet.output)
