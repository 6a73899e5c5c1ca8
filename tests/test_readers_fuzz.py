"""Property tests of every file reader (issue 11, item 5; issue 12): a valid case file,
dipsat JSON state, dipsat game file, saved game of the `diplomacy` package and godip
history, each as people save it -- a byte-order mark, CRLF line ends, Windows-1252 --
or damaged -- cut anywhere, a byte replaced by any byte -- goes through every command
that reads it. None gives a traceback: the command adjudicates, or says in one line per
problem what is wrong, naming the file (and the line or JSON path where there is one).
``scripts/fuzz.py`` runs the same, and more, for as long as one likes."""

from __future__ import annotations

import codecs
import gzip
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dipsat
from dipsat.formats.dipsat_json import state_to_json
from dipsat.game import new_game

from .conftest import CASES, run

SETTINGS = settings(max_examples=25, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def _case_file() -> bytes:
    text = (CASES / "datc" / "6a_basic.txt").read_text(encoding="utf-8")
    return text[:text.index("END", text.index("CASE 6.A.5")) + 4].encode("utf-8")  # a few cases


def _state_file() -> bytes:
    return json.dumps(state_to_json(dipsat.load_variant("standard").initial_state())).encode("utf-8")


def _game_file(tmp_path_factory) -> bytes:
    path = tmp_path_factory.mktemp("game") / "g.json"
    game = new_game("standard")
    orders, _ = dipsat.notation.parse_orders("France: A par - bur\nGermany: A mun - bur\nEngland: F lon - nth",
                                             game.variant)
    game.play(orders)
    game.save(path)
    return path.read_bytes()


def _saved_game() -> bytes:
    with gzip.open(CASES / "corpus" / "random_games.jsonl.gz", "rt", encoding="utf-8") as handle:
        record = json.loads(handle.readline())
    record["phases"] = record["phases"][:5]
    return json.dumps(record).encode("utf-8")


GODIP = b"""PHASE 1901 Spring Movement
POSITIONS
England: fleet lon
England: supply lon
France: army par
France: supply par
Germany: army mun
Germany: supply mun
ORDERS
lon move nth
par move bur
mun move bur
PHASE 1901 Fall Movement
POSITIONS
England: fleet nth
England: supply lon
France: army par
France: supply par
Germany: army mun
Germany: supply mun
ORDERS
nth move nwy
"""

COMMANDS = {
    "case.txt": [["cases", "{}"], ["adjudicate", "{}"], ["validate", "{}", "--workers", "1"]],
    "state.json": [["adjudicate", "{}", "--format", "json"]],
    "game.json": [["game", "show", "{}"], ["adjudicate", "{}", "--phase", "S1901M"]],
    "saved.json": [["adjudicate", "{}", "--phase", "S1901M"], ["validate", "{}", "--workers", "1"]],
    "game_1.txt": [["adjudicate", "{}", "--phase", "S1901M"], ["validate", "{}", "--workers", "1"]],
}


@st.composite
def as_saved(draw, data: bytes) -> bytes:
    """`data` as a person's editor or a broken copy may leave it."""
    how = draw(st.sampled_from(["bom", "crlf", "cp1252", "cut", "byte", "bom-crlf-cut"]))
    if how in ("bom", "bom-crlf-cut"):
        data = codecs.BOM_UTF8 + data
    if how in ("crlf", "bom-crlf-cut"):
        data = data.replace(b"\n", b"\r\n")
    if how == "cp1252":  # a name with an umlaut, saved on Windows
        at = draw(st.integers(0, len(data)))
        data = data[:at] + "Müller".encode("cp1252") + data[at:]
    if how in ("cut", "bom-crlf-cut"):
        data = data[:draw(st.integers(0, len(data)))]
    if how == "byte":
        at = draw(st.integers(0, max(0, len(data) - 1)))
        data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1:]
    return data


def _check(tmp_path, name: str, data: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    for command in COMMANDS[name]:
        args = [a.format(path) for a in command]
        res = run(*args)
        assert res.exception is None or isinstance(res.exception, SystemExit), (args, repr(res.exception))
        assert res.exit_code in (0, 1, 2), (args, res.exit_code)
        assert "Traceback" not in res.output, args
        for line in res.stderr.splitlines():
            if line.strip() and not line.startswith(("Usage:", "Try ")):
                assert name in line or line.startswith("Error:"), (args, line)


@pytest.fixture(scope="module")
def originals(tmp_path_factory) -> dict[str, bytes]:
    """A valid file of each kind, by the name it is written under."""
    return {"case.txt": _case_file(), "state.json": _state_file(), "game.json": _game_file(tmp_path_factory),
            "saved.json": _saved_game(), "game_1.txt": GODIP}


def test_the_valid_files_are_read_also_with_a_bom_and_crlf(tmp_path, originals):
    for name, data in originals.items():
        path = tmp_path / name
        outputs = set()
        for saved in (data, codecs.BOM_UTF8 + data, data.replace(b"\n", b"\r\n")):
            path.write_bytes(saved)
            for command in COMMANDS[name]:
                args = [a.format(path) for a in command]
                res = run(*args)
                assert res.exit_code in ((0, 1) if args[0] in ("validate", "cases") else (0,)), (args, res.output)
                assert res.stderr == "", (args, res.stderr)
                if args[0] != "game":  # game show names the file's line ends nowhere: the same text
                    outputs.add((tuple(command), res.stdout))
        assert len(outputs) == len([c for c in COMMANDS[name] if c[0] != "game"]), name  # the same output each time


@pytest.mark.parametrize("name", sorted(COMMANDS))
@SETTINGS
@given(st.data())
def test_a_file_as_saved_or_damaged(tmp_path, originals, name, data):
    _check(tmp_path, name, data.draw(as_saved(originals[name])))
