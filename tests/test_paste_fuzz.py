"""Property tests of the readers of pasted orders (issue 11, item 5): random bytes, byte-order
marks, CRLF and lone CR line ends, Latin-1 and Windows-1252 text, truncated files and
mangled order lines go to every reader of order lists -- ``decode_text``, ``parse_orders``,
a case file's ORDERS, ``dipsat adjudicate`` (file and stdin), ``dipsat game turn`` -- and
never give a traceback: every problem is one line naming the file, the line and what was
expected, and every order that was read can be adjudicated."""

from __future__ import annotations

import codecs
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dipsat
from dipsat.errors import NotationError
from dipsat.notation import parse_orders
from dipsat.formats.textfile import decode_text

from .conftest import run

V = dipsat.load_variant("standard")

LINES = [
    "Germany: ", "F London - North Sea", "England:", "A Vienna - Tyrolia", "Italy: A Venice - Tyrolia",
    "F Marseilles Supports F Gascony - Spain(nc)", "F North Sea Convoys A London - Belgium", "A mun - Switzerland",
    "Deutschland:", "A München - Tirol", "F Kiel - Ostsee", "Russia: Build F St Petersburg(nc)", "Waive",
    "A par S A mar - bur", "F lon - Tyrhennian Sea", "Itly: A ven H", "F nap - Tyrrhenain Sea", "A bur - Nrth Sea",
    "France: A Brest - Paris via convoy", "", "# a comment", "Österreich: A Wien H", "A lvp - iri - ech - lon",
]

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def _mangle(line: str, cut: int, junk: str) -> str:
    return line[:cut] + junk if cut < len(line) else line + junk


order_lines = st.lists(
    st.one_of(st.sampled_from(LINES),
              st.builds(_mangle, st.sampled_from(LINES), st.integers(0, 30), st.text(max_size=6)),
              st.text(max_size=40)),
    max_size=12)


@st.composite
def order_files(draw) -> bytes:
    """An order file as it may come: any line ends, any of the usual encodings, a BOM, cut off."""
    lines = draw(order_lines)
    text = draw(st.sampled_from(["\n", "\r\n", "\r"])).join(lines) + draw(st.sampled_from(["", "\n", "\r\n"]))
    how = draw(st.sampled_from(["utf-8", "utf-8-bom", "cp1252", "latin-1", "utf-16", "bytes"]))
    if how == "bytes":
        data = draw(st.binary(max_size=200))
    elif how == "utf-8-bom":
        data = codecs.BOM_UTF8 + text.encode("utf-8", "surrogatepass")
    elif how == "utf-16":
        data = codecs.BOM_UTF16_LE + text.encode("utf-16-le", "surrogatepass")
    else:
        data = text.encode(how, errors="replace")
    if draw(st.booleans()):
        data = data[:draw(st.integers(0, len(data)))]  # truncated
    return data


def _one_line_problems(stderr: str, source: str) -> None:
    for line in stderr.splitlines():
        assert line.startswith(f"{source}:"), line
        assert re.match(rf"{re.escape(source)}:\d+: ", line), line
        assert "expected" in line or "not UTF-8" in line or "broken UTF-16" in line, line
        assert "Traceback" not in line


@SETTINGS
@given(order_files())
def test_decode_text_reads_anything(data):
    text, warning = decode_text(data, "f.txt")
    assert isinstance(text, str)
    assert warning is None or ("\n" not in warning and warning.startswith("f.txt"))


@SETTINGS
@given(order_lines, st.sampled_from(list(dipsat.PhaseKind)))
def test_parse_orders_reports_one_line_errors_and_orders_adjudicate(lines, kind):
    text = "\n".join(lines)
    orders, errors = parse_orders(text, V, kind)
    for error in errors:
        assert isinstance(error, NotationError)
        assert error.line is not None and 1 <= error.line <= len(text.splitlines())
        assert "\n" not in str(error) and "expected" in str(error)
    if kind is dipsat.PhaseKind.MOVEMENT:
        result = dipsat.adjudicate(V.initial_state(), orders)  # never raises on what was read
        assert len(result.results) == len(orders)


@SETTINGS
@given(order_files(), st.booleans())
def test_adjudicate_reads_any_order_file(tmp_path, data, strict):
    path = tmp_path / "orders.txt"
    path.write_bytes(data)
    res = run("adjudicate", "--initial", str(path), *(["--strict"] if strict else []))
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert res.exit_code in ((0, 1) if strict else (0,))
    _one_line_problems(res.stderr, str(path))


@SETTINGS
@given(order_files())
def test_adjudicate_reads_any_stdin(data):
    res = run("adjudicate", "--initial", "-", "--format", "json", input=data)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert res.exit_code == 0
    _one_line_problems(res.stderr, "<stdin>")


CASE_HEAD = "CASE fuzz\nPRESTATE\n\tEngland: F lon\n\tGermany: A mun\nORDERS\n"


@SETTINGS
@given(order_lines, st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_case_file_orders_read_like_any_order_list(tmp_path, lines, end, bom):
    path = tmp_path / "case.txt"
    text = (CASE_HEAD + "".join(f"\t{line}\n" for line in lines) + "END\n").replace("\n", end)
    path.write_bytes((codecs.BOM_UTF8 if bom else b"") + text.encode("cp1252", errors="replace"))
    res = run("adjudicate", str(path), "--format", "json")
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert res.exit_code in (0, 2)
    for line in res.stderr.splitlines():
        assert re.match(rf"{re.escape(str(path))}:\d+: ", line), line


@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(order_files())
def test_game_turn_reads_any_order_file(tmp_path, data):
    game, orders = tmp_path / "g.json", tmp_path / "orders.txt"
    assert run("game", "new", "--force", str(game)).exit_code == 0
    orders.write_bytes(data)
    res = run("game", "turn", str(game), str(orders))
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert res.exit_code == 0
    for line in res.stderr.splitlines():
        assert re.match(rf"{re.escape(str(orders))}:\d+: ", line), line
