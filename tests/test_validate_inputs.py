"""`dipsat validate`: reading inputs, --resume and --timeout, whatever the input or the run
went through (issue 12: a bad byte, a lone CR, a cut report, a kill during a resume)."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dipsat.runners.inputs import iter_items

from .conftest import CASES, run

CORPUS = CASES / "corpus" / "random_games.jsonl.gz"


@pytest.fixture(scope="module")
def lines() -> list[bytes]:
    """The first four games of the bundled corpus, one JSON line each."""
    with gzip.open(CORPUS, "rb") as source:
        return [next(source) for _ in range(4)]


def _validate(*args: str) -> tuple[int, str]:
    result = run("validate", *args, "--no-progress")
    return result.exit_code, result.output


def test_a_bad_byte_rejects_its_own_line_only(tmp_path: Path, lines: list[bytes]) -> None:
    broken = lines[1].replace(b'"phases"', b'"pha\xffses"', 1)
    path = tmp_path / "games.jsonl"
    path.write_bytes(lines[0] + broken + lines[2] + lines[3])
    items = list(iter_items([str(path)]))
    assert [(i.source.rsplit(":", 1)[1], i.kind) for i in items] == [
        ("1", "game"), ("2", "unreadable"), ("3", "game"), ("4", "game")]
    assert "line 2: not UTF-8: byte 0xff" in items[1].text
    code, out = _validate(str(path), "--workers", "1")
    assert "4 records read (games, or cases of case files), 1 rejected as a whole" in out


def test_a_lone_cr_does_not_split_a_record(tmp_path: Path, lines: list[bytes]) -> None:
    path = tmp_path / "games.jsonl"
    path.write_bytes(lines[0].replace(b',"', b',\r"', 3) + lines[1].rstrip(b"\n") + b"\r\n")
    items = list(iter_items([str(path)]))
    assert [i.kind for i in items] == ["game", "game"]
    code, out = _validate(str(path), "--workers", "1")
    assert "2 records read (games, or cases of case files), 0 rejected as a whole" in out


def test_a_bom_starts_a_jsonl_file(tmp_path: Path, lines: list[bytes]) -> None:
    path = tmp_path / "games.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + lines[0])
    (tmp_path / "game.json").write_bytes(b"\xef\xbb\xbf" + lines[1])
    code, out = _validate(str(path), str(tmp_path / "game.json"), "--workers", "1")
    assert "2 records read (games, or cases of case files), 0 rejected as a whole" in out


# --- --resume -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def judged(tmp_path_factory, lines: list[bytes]) -> tuple[Path, bytes]:
    """Four games in a file whose name has two- and three-byte characters (every report line
    names it), and the full report of a run without interruption."""
    folder = tmp_path_factory.mktemp("resume")
    games = folder / "spiele-ü€.jsonl"
    games.write_bytes(b"".join(lines) + b'{"id": "not a game"}\n')
    full = folder / "full.jsonl"
    _validate(str(games), "--workers", "1", "--report", str(full))
    return games, full.read_bytes()


def _cuts(report: bytes) -> list[int]:
    """Byte offsets to cut at: the start, inside a multi-byte character, just before and after
    a newline, inside and at the end of a record line, the very end."""
    first_multibyte = report.index("ü".encode())
    line_ends = [i + 1 for i, b in enumerate(report) if b == 0x0A]
    euro = report.index("€".encode(), line_ends[1])
    record = _record_ends(report)[1]
    return sorted({0, first_multibyte + 1, euro + 1, euro + 2, line_ends[0] - 1, line_ends[0],
                   line_ends[1] + 5, record - 1, record, record + 1, len(report) // 2, len(report) - 1,
                   len(report)})


@pytest.mark.slow
def test_a_report_cut_anywhere_is_completed_byte_for_byte(tmp_path: Path, judged) -> None:
    games, full = judged
    for cut in _cuts(full):
        report = tmp_path / f"cut{cut}.jsonl"
        report.write_bytes(full[:cut])
        code, out = _validate(str(games), "--workers", "1", "--resume", str(report))
        assert report.read_bytes() == full, f"cut at byte {cut}: {out}"
        assert "5 records read" in out and "Traceback" not in out


def test_a_cut_last_line_that_happens_to_be_json_is_dropped(tmp_path: Path, judged) -> None:
    games, full = judged
    first = full.index(b"\n") + 1
    report = tmp_path / "report.jsonl"
    report.write_bytes(full[:first] + b"[1, 2]")  # valid JSON, but no newline: the cut
    code, out = _validate(str(games), "--workers", "1", "--resume", str(report))
    assert report.read_bytes() == full


@pytest.mark.parametrize("line", [b"[1, 2]\n", b'{"type": "record"}\n', b'"x"\n', b"\xff\xfe\n",
                                  b'{"type": "record", "source": "a", "rules": "2000", "rejected": false, '
                                  b'"counts": {"movement/agreed": ' + b"9" * 5000 + b"}}\n"])
def test_a_file_that_is_not_a_report_is_left_alone(tmp_path: Path, judged, line: bytes) -> None:
    games, full = judged
    first = full.index(b"\n") + 1
    report = tmp_path / "report.jsonl"
    report.write_bytes(full[:first] + line + full[first:])
    result = run("validate", str(games), "--workers", "1", "--resume", str(report))
    assert result.exit_code == 2 and result.exception is None or isinstance(result.exception, SystemExit)
    assert f"{report}:2: not a line of a dipsat validate report" in result.output
    assert report.read_bytes() == full[:first] + line + full[first:]


def test_resuming_under_other_rules_is_refused(tmp_path: Path, judged) -> None:
    games, full = judged
    kept = full[:_record_ends(full)[1]]
    report = tmp_path / "report.jsonl"
    report.write_bytes(kept)
    result = run("validate", str(games), "--workers", "1", "--rules", "1982", "--resume", str(report))
    assert result.exit_code == 2
    assert "was judged under rules 2000, this run judges it by 1982" in result.output
    assert report.read_bytes() == kept


def _record_ends(report: bytes) -> list[int]:
    """Where each record's last line (its `record` line) ends."""
    ends, offset = [], 0
    for line in report.splitlines(keepends=True):
        offset += len(line)
        if b'"type": "record"' in line:
            ends.append(offset)
    return ends


def test_a_kill_during_resume_keeps_what_the_report_holds(tmp_path: Path) -> None:
    """The resumed run is killed as soon as it touches the report: the records already there
    stay (the report was once rewritten from the start), and a second resume completes it."""
    with gzip.open(CORPUS, "rb") as source:
        games = tmp_path / "games.jsonl"
        games.write_bytes(b"".join(next(source) for _ in range(10)))
    full = tmp_path / "full.jsonl"
    _validate(str(games), "--workers", "1", "--report", str(full))
    expected = full.read_bytes()
    kept = _record_ends(expected)[3]
    report = tmp_path / "report.jsonl"
    report.write_bytes(expected[:kept + 40])  # four records, and a cut line of the fifth
    run = subprocess.Popen([sys.executable, "-m", "dipsat.cli", "validate", str(games), "--workers", "1",
                            "--resume", str(report), "--no-progress"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while report.stat().st_size == kept + 40 and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.001)
    run.kill()
    run.wait()
    after_kill = report.read_bytes()
    assert expected.startswith(after_kill) and len(after_kill) >= kept
    _validate(str(games), "--workers", "1", "--resume", str(report))
    assert report.read_bytes() == expected


def test_resuming_cases_under_other_rules_is_refused(tmp_path: Path) -> None:
    """A case follows its RULES line unless --rules/--rule name others: resuming a report of
    cases judged under --rules 1982 without them would mix two rule sets."""
    cases = tmp_path / "cases.txt"
    cases.write_text("".join(f"CASE c{n}\nPRESTATE\n\tFrance: A par\nORDERS\n\tFrance: A par H\nPOSTSTATE_SAME\nEND\n"
                             for n in range(3)))
    report = tmp_path / "report.jsonl"
    _validate(str(cases), "--workers", "1", "--rules", "1982", "--report", str(report))
    kept = report.read_bytes()[:_record_ends(report.read_bytes())[0]]
    report.write_bytes(kept)
    result = run("validate", str(cases), "--workers", "1", "--resume", str(report))
    assert result.exit_code == 2 and "was judged under rules 1982, this run judges it by 2000" in result.output
    code, out = _validate(str(cases), "--workers", "1", "--rules", "1982", "--resume", str(report))
    assert code == 0 and "3 records read" in out


def test_a_lone_surrogate_in_a_record_is_written_escaped(tmp_path: Path, lines: list[bytes]) -> None:
    """Found by scripts/fuzz.py: a record whose id is "\\ud800" stopped the summary (and the
    report) with a UnicodeEncodeError."""
    path = tmp_path / "games.jsonl"
    path.write_bytes(lines[0] + b'{"id": "x\\ud800", "phases": 3}\n')
    report = tmp_path / "report.jsonl"
    for summary in ("text", "json"):
        result = run("validate", str(path), "--workers", "1", "--summary", summary, "--report", str(report))
        assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
        assert "x\\ud800" in result.output
    ids = [json.loads(line)["game"] for line in report.read_text(encoding="utf-8").splitlines()]
    assert "x\ud800" in ids
    code, out = _validate(str(path), "--workers", "1", "--resume", str(report))
    assert code == 1
    code, out = _validate(str(path), "--workers", "1", "--html", str(tmp_path / "html"))
    assert code == 1 and "x\\ud800" in (tmp_path / "html" / "index.html").read_text(encoding="utf-8")


MALFORMED_CASES = """CASE players.bad A PLAYERS line that is no number
PLAYERS ²
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
\tEngland: F lon
ORDERS
\tEngland: F lon - nth
END
CASE keyword.bad An unknown keyword, then no END
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
\tEngland: F lon
FOO_BAR 3
ORDERS
\tEngland: F lon - nth
"""


def test_malformed_cases_are_rejected_alike_by_one_worker_and_a_pool(tmp_path: Path) -> None:
    """A case carries its parse errors (CaseFileError) to the worker that judges it and back:
    they must survive pickling, or the pool calls it a crash."""
    path = tmp_path / "bad.txt"
    path.write_text(MALFORMED_CASES, encoding="utf-8")
    reports = {}
    for workers in ("1", "2"):
        report = tmp_path / f"r{workers}.jsonl"
        result = run("validate", str(path), "--workers", workers, "--report", str(report))
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
        reports[workers] = report.read_bytes()
    assert reports["1"] == reports["2"]
    lines = [json.loads(line) for line in reports["1"].splitlines()]
    reasons = " ".join(str(line) for line in lines)
    assert "PLAYERS needs one number" in reasons and "unknown keyword 'FOO_BAR'" in reasons
    assert "crashed" not in reasons


def test_resuming_with_other_inputs_is_refused(tmp_path: Path, lines: list[bytes]) -> None:
    """A report's records must be the inputs given now: another file, or the same file with
    its games in another order, would lose records or count them twice."""
    games, other = tmp_path / "games.jsonl", tmp_path / "other.jsonl"
    games.write_bytes(b"".join(lines[:3]))
    other.write_bytes(b"".join(lines[3:]))
    report = tmp_path / "r.jsonl"
    _validate(str(games), "--workers", "1", "--report", str(report))
    cut = report.read_bytes()
    records = [i for i, line in enumerate(cut.splitlines(keepends=True)) if b'"type": "record"' in line]
    report.write_bytes(b"".join(cut.splitlines(keepends=True)[:records[1] + 1]))  # two records complete
    kept = report.read_bytes()
    result = run("validate", str(other), "--workers", "1", "--resume", str(report))
    assert result.exit_code == 2 and "is not among the inputs of this run" in result.output
    games.write_bytes(b"".join(reversed(lines[:3])))  # the same file, its games reordered
    result = run("validate", str(games), "--workers", "1", "--resume", str(report))
    assert result.exit_code == 2 and "has changed since it was judged" in result.output
    assert report.read_bytes() == kept  # left alone
    games.write_bytes(b"".join(lines[:3]))  # as judged: completed
    code, _ = _validate(str(games), "--workers", "1", "--resume", str(report))
    assert report.read_bytes() == cut
