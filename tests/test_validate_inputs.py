"""`dipsat validate`: reading inputs, --resume and --timeout, whatever the input or the run
went through (issue 12: a bad byte, a lone CR, a cut report, a kill during a resume)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from dipsat.cli import main
from dipsat.cli_validate import iter_items

from .conftest import CASES

CORPUS = CASES / "corpus" / "random_games.jsonl.gz"


@pytest.fixture(scope="module")
def lines() -> list[bytes]:
    """The first four games of the bundled corpus, one JSON line each."""
    with gzip.open(CORPUS, "rb") as source:
        return [next(source) for _ in range(4)]


def _validate(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["validate", *args, "--no-progress"])
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
