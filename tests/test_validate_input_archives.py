"""Inputs as people keep archives (issue 18 item 6): any supported file gzipped, `.zip`
and `.tar` / `.tar.gz` / `.tgz` of folders read member by member (nothing extracted), a
file reached twice counted once with a warning, the same reader for `dipsat bench`, and
a Dask cluster that has lost every worker: the pending records rejected, the run ends."""

from __future__ import annotations

import gzip
import io
import json
import tarfile
import zipfile
from pathlib import Path

import pytest

from dipsat.formats.diplomacy_json import write_game
from dipsat.formats.godip import write_godip_game
from dipsat.runners.bench import bench_cases, corpus_texts, recorded_inputs
from dipsat.runners.inputs import iter_items

from .conftest import CASES, run
from .test_validate_gaps import _played

CASE_FILE = CASES / "datc" / "6a_basic.txt"


def _folder(root: Path) -> Path:
    """A folder of our own records in every format validate reads, in a subfolder."""
    folder = root / "games"
    (folder / "sub").mkdir(parents=True)
    record = _played()
    (folder / "game_1.txt").write_text(write_godip_game(record), encoding="utf-8")
    (folder / "sub" / "game_2.json").write_text(json.dumps(write_game(record)), encoding="utf-8")
    (folder / "sub" / "games.jsonl").write_text(json.dumps(write_game(record)) + "\n" + "{broken\n", encoding="utf-8")
    (folder / "cases.txt").write_bytes(CASE_FILE.read_bytes())
    return folder


def _run(*args: str) -> tuple[int, dict, str]:
    result = run("validate", *args, "--workers", "1", "--summary", "json")
    return result.exit_code, json.loads(result.stdout), result.stderr


def _counts(summary: dict) -> dict:
    return {key: value for key, value in summary.items() if key != "first"}


def _gzipped(folder: Path, out: Path) -> Path:
    for path in folder.rglob("*"):
        if path.is_file():
            target = out / path.relative_to(folder)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.with_name(target.name + ".gz").write_bytes(gzip.compress(path.read_bytes(), mtime=0))
    return out


def _zipped(folder: Path, out: Path) -> Path:
    with zipfile.ZipFile(out, "w") as archive:
        for path in sorted(folder.rglob("*")):
            archive.write(path, str(path.relative_to(folder.parent)))
    return out


def _tarred(folder: Path, out: Path, mode: str) -> Path:
    with tarfile.open(out, mode) as archive:
        archive.add(folder, arcname=folder.name)
    return out


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    folder = _folder(tmp_path_factory.mktemp("plain"))
    code, summary, _ = _run(str(folder))
    assert code == 1  # the broken line is rejected, the rest agrees
    assert summary["records_rejected"] == 1 and summary["phases"]["total"]["board"] == 0
    return folder, summary


@pytest.mark.parametrize("how", ["gz", "zip", "tar", "tar.gz", "tgz"])
def test_archives_validate_as_their_contents_do(plain: tuple[Path, dict], tmp_path: Path, how: str) -> None:
    folder, expected = plain
    if how == "gz":
        packed = _gzipped(folder, tmp_path / "games")
    elif how == "zip":
        packed = _zipped(folder, tmp_path / "games.zip")
    else:
        packed = _tarred(folder, tmp_path / f"games.{how}", {"tar": "w", "tar.gz": "w:gz", "tgz": "w:gz"}[how])
    code, summary, _ = _run(str(packed))
    assert code == 1 and _counts(summary) == _counts(expected)
    assert [line.split(": ", 1)[1] for line in summary["first"]] == [line.split(": ", 1)[1] for line in expected["first"]]
    items = list(iter_items([str(packed)]))
    kinds = sorted({item.kind for item in items})
    assert kinds == ["case", "game", "godip"]
    if how != "gz":  # members are named inside their archive; nothing was extracted
        assert any(item.source == f"{packed}:games/game_1.txt" for item in items)
        assert sorted(p.name for p in tmp_path.iterdir()) == [packed.name]


def test_a_gzipped_godip_history_is_one_history(tmp_path: Path) -> None:
    """It was read as thousands of malformed JSONL records."""
    path = tmp_path / "game_1.txt.gz"
    path.write_bytes(gzip.compress(write_godip_game(_played()).encode(), mtime=0))
    assert [item.kind for item in iter_items([str(path)])] == ["godip"]
    named = tmp_path / "history"  # no suffix, named on the command line: sniffed, gzipped or not
    named.write_bytes(path.read_bytes())
    assert [item.kind for item in iter_items([str(named)])] == ["godip"]


def test_a_path_given_twice_is_counted_once(plain: tuple[Path, dict]) -> None:
    folder, expected = plain
    for args in ([str(folder), str(folder)], [str(folder), str(folder / "game_1.txt")],
                 [str(folder / "sub" / ".." / "game_1.txt"), str(folder)]):
        code, summary, err = _run(*args)
        assert summary == expected, args
        assert "game_1.txt: already read (as " in err and "counted once (warning)" in err


def test_a_broken_archive_is_rejected_and_the_run_goes_on(plain: tuple[Path, dict], tmp_path: Path) -> None:
    folder, _ = plain
    (tmp_path / "bad.zip").write_bytes(b"PK\x03\x04 not really a zip")
    (tmp_path / "game_1.txt").write_bytes((folder / "game_1.txt").read_bytes())
    items = list(iter_items([str(tmp_path)]))
    assert [(item.kind, Path(item.source).name) for item in items] == [("unreadable", "bad.zip"),
                                                                        ("godip", "game_1.txt")]
    assert items[0].text.startswith("cannot read the archive: BadZipFile")


def test_bench_reads_the_same_inputs(plain: tuple[Path, dict], tmp_path: Path) -> None:
    folder, _ = plain
    games = tmp_path / "games"
    games.mkdir()
    for name in ("game_1.txt", "sub/game_2.json"):
        (games / Path(name).name).write_bytes((folder / name).read_bytes())
    packed = _tarred(games, tmp_path / "games.tgz", "w:gz")
    assert recorded_inputs([str(packed)]) and len(corpus_texts([str(packed)])) == 2
    cases = _zipped(folder, tmp_path / "cases.zip")
    assert not recorded_inputs([str(cases)])  # it holds case files: bench times cases
    n = len([i for i in iter_items([str(CASE_FILE)]) if i.kind == "case"])
    assert len(bench_cases([str(cases)], repeat=1).timings) == len(bench_cases([str(CASE_FILE)], repeat=1).timings) > 0
    assert n > 0


def test_bench_names_what_it_cannot_time_and_never_reports_nothing(tmp_path: Path) -> None:
    """An input bench cannot time is named on stderr; with nothing to time it fails, never
    printing an empty table."""
    (tmp_path / "notes.txt").write_text("hello\n")
    res = run("bench", str(tmp_path / "notes.txt"))
    assert res.exit_code == 1 and "notes.txt:1:" in res.stderr and "no phase to time" in res.stderr
    assert "phase kind" not in res.stdout
    (tmp_path / "bad.txt").write_text("CASE a\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n\tEngland: F xyz\n"
                                      "ORDERS\nEND\n")
    res = run("bench", "--repeat", "1", str(tmp_path / "bad.txt"), str(CASES / "datc" / "6a_basic.txt"))
    assert res.exit_code == 0 and "bad.txt:1: case a:" in res.stderr and "(not timed)" in res.stderr
    assert "12 phases" in res.stdout


def test_a_cluster_without_workers_rejects_what_is_pending(plain: tuple[Path, dict], tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    folder, expected = plain
    report = tmp_path / "report.jsonl"
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            client.retire_workers(list(client.scheduler_info()["workers"]), close_workers=True)
            assert not client.scheduler_info()["workers"]
        result = run("validate", str(folder), "--scheduler", cluster.scheduler_address, "--timeout", "1", "--report", str(report), "--summary", "json")
    assert result.exit_code == 1, result.output
    summary = json.loads(result.stdout)
    assert summary["records"] == expected["records"] == summary["records_rejected"]  # nothing lost
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    rejected = [line for line in lines if line["type"] == "rejected"]
    assert len(rejected) == expected["records"]
    assert all("the cluster has no worker left: still pending after --timeout (1 s)" in line["reason"]
               for line in rejected)


def test_adjudicate_reads_a_phase_of_a_game_in_an_archive(plain: tuple[Path, dict], tmp_path: Path) -> None:
    """`dipsat adjudicate ARCHIVE:MEMBER --phase`, the name validate's reports give."""

    folder, _ = plain
    packed = _zipped(folder, tmp_path / "games.zip")
    direct = run("adjudicate", str(folder / "game_1.txt"), "--phase", "F1901M")
    for name in (f"{packed}:games/game_1.txt", f"{packed}:games/sub/games.jsonl:1"):
        result = run("adjudicate", name, "--phase", "F1901M")
        assert result.exit_code == 0, result.output
        if name.endswith(".txt"):
            assert result.output.splitlines()[1:] == direct.output.splitlines()[1:]
        else:  # the same game saved by the package: its orders in the package's order (listed as given)
            assert sorted(result.output.splitlines()[1:]) == sorted(direct.output.splitlines()[1:])
    missing = run("adjudicate", f"{packed}:games/nothing.txt", "--phase", "F1901M")
    assert missing.exit_code != 0 and "no member 'games/nothing.txt' in" in missing.output
