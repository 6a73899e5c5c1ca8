"""`dipsat validate --html DIR`: the report as pages a browser opens, with pictures and case files."""

from __future__ import annotations

import copy
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from dipsat.runners.cases import load_cases
from dipsat.runners.html import HtmlReport
from dipsat.rules import Rules
from dipsat.runners.validate import DISAGREED, REJECTED, RULE_DIFFERENCE, validate_game
from dipsat.runners.summary import Summary

from .test_validate import fallback_game, fallback_twice

from .conftest import run as cli  # `run` is this module's fixture

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
SVG_NS = "http://www.w3.org/2000/svg"


class Page(HTMLParser):
    """A page read with html.parser: its errors (tags not closed in order), ids, links,
    images and the text of each section."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.ids: list[str] = []
        self.links: list[str] = []
        self.images: list[dict[str, str]] = []
        self.sections: dict[str, dict] = {}  # id -> {"text", "images", "links"}
        self.section: dict | None = None
        self.feed(text)
        self.close()
        if self.stack:
            self.errors.append(f"not closed: {self.stack}")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "section" and "problem" in a.get("class", ""):
            self.section = self.sections[a["id"]] = {"text": "", "images": [], "links": [], "class": a["class"]}
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
            if self.section is not None:
                self.section["links"].append(a["href"])
        if tag == "img":
            self.images.append(a)
            if self.section is not None:
                self.section["images"].append(a)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.errors.append(f"self-closing <{tag}/> in HTML")

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
            return
        self.stack.pop()
        if tag == "section":
            self.section = None

    def handle_data(self, data: str) -> None:
        if self.section is not None:
            self.section["text"] += data


def _records() -> list[str]:
    """A rule difference whose board differs, a genuine disagreement, a rejected phase, and
    a line that is not JSON (a record rejected as a whole)."""
    fallback = fallback_twice()  # two phases: evidence of the reading (one alone is a disagreement)
    genuine = fallback_game()
    genuine["id"] = "hand-genuine"
    first, second = genuine["phases"]
    first["orders"] = {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]}
    first["results"]["A MUN"] = ["bounce"]
    second["state"]["units"] = copy.deepcopy(first["state"]["units"])
    second["state"]["units"]["FRANCE"] = ["F BRE", "A MAR", "A BUR"]
    unknown = fallback_game()
    unknown["id"] = "hand-unknown"
    unknown["phases"][0]["orders"]["FRANCE"] = ["A PAR - XYZ"]
    return [json.dumps(fallback), json.dumps(genuine), json.dumps(unknown), '{"id": "cut", "phases": [']


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = tmp_path_factory.mktemp("html")
    games = folder / "games.jsonl"
    games.write_text("".join(line + "\n" for line in _records()), encoding="utf-8")
    out = {}
    for workers in (1, 2):
        html, report = folder / f"out{workers}", folder / f"report{workers}.jsonl"
        result = cli("validate", str(games), "--html", str(html), "--report", str(report), "--workers", str(workers))
        assert result.exit_code == 1, result.output  # a disagreement and rejections
        out[workers] = (html, report, result.output)
    return {"html": out[1][0], "report": out[1][1], "output": out[1][2], "runs": out}


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_same_bytes_whatever_the_workers(run: dict) -> None:
    one, two = (_files(run["runs"][n][0]) for n in (1, 2))
    assert one == two
    assert run["runs"][1][2] == run["runs"][2][2]
    assert "index.html" in one and any(name.startswith("pictures/") for name in one)


def test_pages_are_well_formed_and_self_contained(run: dict) -> None:
    folder: Path = run["html"]
    for path in folder.glob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert text.startswith("<!DOCTYPE html>\n")
        page = Page(text)
        assert page.errors == [], (path.name, page.errors[:5])
        assert len(page.ids) == len(set(page.ids)), path.name
        local = re.sub(r'<a class="sandbox" href="http://127\.0\.0\.1:8765/#s=[A-Za-z0-9_-]+">', "", text)
        assert "http" not in local and "<script" not in text and "@import" not in text and "url(" not in text
        for href in page.links:  # every link leads to a file of the report (and its anchor), or to the sandbox
            if href.startswith("http://127.0.0.1:8765/#s="):
                continue
            target, _, anchor = href.partition("#")
            file = folder / target if target else path
            assert file.is_file(), href
            if anchor:
                assert f'id="{anchor}"' in file.read_text(encoding="utf-8"), href
    for path in (folder / "pictures").iterdir():
        root = ET.fromstring(path.read_text(encoding="utf-8"))  # well-formed XML
        assert root.tag == f"{{{SVG_NS}}}svg"
        assert "http" not in path.read_text(encoding="utf-8").replace(f'xmlns="{SVG_NS}"', "")


def test_every_disagreement_and_rejection_has_its_section(run: dict) -> None:
    folder: Path = run["html"]
    lines = [json.loads(line) for line in run["report"].read_text(encoding="utf-8").splitlines()]
    problems = [line for line in lines if line["type"] in (DISAGREED, RULE_DIFFERENCE, REJECTED)]
    assert {p["type"] for p in problems} == {DISAGREED, RULE_DIFFERENCE, REJECTED}
    page = Page((folder / "index.html").read_text(encoding="utf-8"))
    sections = list(page.sections.values())
    assert len(sections) == len(problems)
    for problem, section in zip(problems, sections):  # in input order
        text = section["text"]
        assert problem["game"] in text and (problem["phase"] or "whole record") in text
        assert problem["type"].replace("-", " ") in text
        if problem["type"] == REJECTED:
            assert problem["reason"] in text
            continue
        for d in problem["differences"]:
            assert d["subject"] in text and d["recorded"] in text and d["ours"] in text
        for order in problem["orders"]:
            assert order in text and problem["explanation"][order][0] in text
        if problem.get("rule"):
            assert problem["rule"] in text
        names = [re.sub(r"^pictures/\d+-|\.svg$", "", img["src"]) for img in section["images"]]
        assert names == (["before", "record", "ours"] if problem["board_differs"] else ["before"])
        for img in section["images"]:
            assert img["loading"] == "lazy" and img["width"] and img["height"] and img["alt"]
            picture = (folder / img["src"]).read_text(encoding="utf-8")
            assert 'class="highlight"' in picture  # where the record and dipsat differ
        cases = [href for href in section["links"] if href.startswith("cases/")]
        assert len(cases) == 1
        loaded, errors = load_cases(folder / cases[0])
        assert not errors and loaded[0].id == f"{problem['game']}.{problem['phase']}"


def test_pictures_show_the_record_against_ours(run: dict) -> None:
    """The rule difference: the package moves A LVP to EDI by land, DATC v3.0 keeps it in LVP."""
    folder: Path = run["html"]
    page = Page((folder / "index.html").read_text(encoding="utf-8"))
    first = next(iter(page.sections.values()))
    assert "hand-fallback" in first["text"] and "4.A.3=intent" in first["text"]
    before, record, ours = ((folder / img["src"]).read_text(encoding="utf-8") for img in first["images"])
    assert 'id="order-move-lvp-edi"' in before and "failed" in re.search(r'id="order-move-lvp-edi" class="([^"]*)"',
                                                                       before).group(1)
    assert 'id="unit-england-A-edi"' in record and 'id="unit-england-A-lvp"' not in record
    assert 'id="unit-england-A-lvp"' in ours and 'id="unit-england-A-edi"' not in ours


def test_summary_table_has_the_terminal_facts(run: dict) -> None:
    text = (run["html"] / "index.html").read_text(encoding="utf-8")
    total = [line for line in run["output"].splitlines() if line.startswith("total")][0].split()[1:]
    row = re.search(r'<tr class="total"><td>total</td>(.*?)</tr>', text).group(1)
    assert re.findall(r">([\d,]+)<", row) == total
    assert "4 records read" in text and "1 rejected as a whole" in text


def test_pages_and_contents_when_there_are_many(tmp_path: Path) -> None:
    """Sections spread over pages: the index keeps the first page and links the others."""
    rules = Rules.profile()
    report = HtmlReport(tmp_path, page_size=2)
    summary = Summary()
    records = []
    for n in range(5):
        record = fallback_game()
        record["id"] = f"game-{n}"
        records.append(validate_game(record, rules, f"g{n}.json", cases=True, pictures=True))
    for r in records:
        report.add(r)
        summary.add(r)
    report.close(summary, rules)
    assert sorted(p.name for p in tmp_path.glob("*.html")) == ["contents.html", "index.html", "page-2.html",
                                                              "page-3.html"]
    index = Page((tmp_path / "index.html").read_text(encoding="utf-8"))
    assert list(index.sections) == ["s1", "s2"] and "page-3.html" in index.links and "contents.html" in index.links
    last = Page((tmp_path / "page-3.html").read_text(encoding="utf-8"))
    assert list(last.sections) == ["s5"] and "page-2.html" in last.links and "page-4.html" not in last.links
    contents = Page((tmp_path / "contents.html").read_text(encoding="utf-8"))
    assert [h for h in contents.links if re.search(r"#s\d+$", h)] == ["index.html#s1", "index.html#s2", "page-2.html#s3",
                                                      "page-2.html#s4", "page-3.html#s5"]
    assert len(list((tmp_path / "cases").iterdir())) == 5


def test_html_is_not_combined_with_resume(tmp_path: Path) -> None:
    (tmp_path / "g.json").write_text(json.dumps(fallback_game()), encoding="utf-8")
    result = cli("validate", str(tmp_path / "g.json"), "--html", str(tmp_path / "out"), "--resume", str(tmp_path / "r.jsonl"))
    assert result.exit_code == 2 and "--resume" in result.output


def test_highlighted_provinces_are_outlined() -> None:
    import dipsat
    from dipsat.printers import svg
    state = dipsat.load_variant("standard").initial_state()
    picture = svg.board(state, area=["par", "bur"], highlight=["bur"])
    assert re.search(r'<path id="highlight-bur" class="highlight" d="M', picture)
    assert 'legend-entry highlight' in picture and "highlight-par" not in picture
    assert "highlight" not in svg.board(state, area=["par", "bur"])
    with pytest.raises(ValueError, match="xyz"):
        svg.board(state, highlight=["xyz"])


def test_case_file_inputs_get_their_sections(tmp_path: Path) -> None:
    from .test_validate import FALLBACK_CASE
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "fallback.txt").write_text(FALLBACK_CASE, encoding="utf-8")
    result = cli("validate", str(tmp_path / "in"), "--html", str(tmp_path / "out"))
    assert result.exit_code == 1, result.output  # a disagreement (one case makes no reading)
    page = Page((tmp_path / "out" / "index.html").read_text(encoding="utf-8"))
    assert page.errors == []
    (section,) = page.sections.values()
    assert "fallback.1" in section["text"] and "4.A.3=fallback" in section["text"]
    (img,) = section["images"]
    picture = (tmp_path / "out" / img["src"]).read_text(encoding="utf-8")
    assert 'id="order-move-lvp-edi"' in picture and 'id="unit-england-A-lvp"' in picture


def test_sandbox_links_decode_to_the_case_and_can_be_left_out(tmp_path: Path) -> None:
    import base64
    from html import unescape

    from dipsat.runners.html import sandbox_link

    link = sandbox_link("http://host:9/", "CASE x\nEND\n", "2000 4.A.2=d", "2000,datc")
    fragment = link.split("#s=")[1]
    assert link.startswith("http://host:9/#s=") and "=" not in fragment
    assert json.loads(base64.urlsafe_b64decode(fragment + "=" * (-len(fragment) % 4))) == {
        "p": "CASE x\nEND\n", "o": "", "r": "2000", "x": "4.A.2=d", "c": "2000,datc", "a": True, "g": "", "n": ""}
    games = tmp_path / "games.jsonl"
    games.write_text(_records()[1] + "\n", encoding="utf-8")
    for sandbox, links in (("", 0), ("http://example.org:1/", 2)):
        out = tmp_path / f"out{links}"
        cli("validate", str(games), "--html", str(out), "--sandbox", sandbox)
        hrefs = [unescape(h) for h in re.findall(r'<a class="sandbox" href="([^"]+)"', (out / "index.html").read_text())]
        assert len(hrefs) == links and all(h.startswith("http://example.org:1/#s=") for h in hrefs)
