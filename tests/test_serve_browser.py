"""The sandbox page in a real browser (headless Chromium driven by Playwright): paste a DATC
test as the DATC writes it, adjudicate, read the results table and the SVG, open an
explanation, reload from the permalink in a fresh browser; set up a position and orders by
clicking, step to the retreat phase and back; compare rulebooks and export a ruling.

One server and one browser for the module. In CI (CI=true) a missing Chromium is a failure,
not a skip: `.ci/run` installs it as README says."""

from __future__ import annotations

import json
import os
import time

import pytest

from .serve_browser import browser, chromium_missing, running_server
from .test_serve_api import F24_ORDERS

from .conftest import run

_missing = chromium_missing()
if _missing and os.environ.get("CI", "").lower() in ("1", "true", "yes"):
    pytest.fail(f"the browser tests cannot run: {_missing}", pytrace=False)
pytestmark = pytest.mark.skipif(_missing is not None, reason=_missing or "")


@pytest.fixture(scope="module")
def url():
    with running_server() as address:
        yield address


@pytest.fixture(scope="module")
def chromium():
    with browser() as b:
        yield b


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    yield tab
    context.close()
    assert errors == []  # no script error in the page


def ready(tab, url: str) -> None:
    tab.goto(url)
    tab.wait_for_selector("body[data-ready='1']")


def results(tab) -> list[tuple[str, str]]:
    tab.wait_for_selector("#results tbody tr")
    return [(row.query_selector("td.order").inner_text(), row.query_selector("td.result").inner_text().split(" (was")[0])
            for row in tab.query_selector_all("#results tbody tr")]


def adjudicate(tab) -> None:
    tab.evaluate("document.querySelector('#results tbody').replaceChildren()")
    tab.click("#adjudicate")
    tab.wait_for_selector("#results tbody tr")


def test_a_pasted_datc_test_adjudicated_explained_and_shared(page, chromium, url):
    ready(page, url)
    assert page.query_selector("#board svg.dipsat-board") is not None  # the initial position, drawn
    page.fill("#position", "")
    page.fill("#orders", F24_ORDERS)
    page.select_option("#rules", "datc")
    adjudicate(page)
    got = results(page)
    drawn = page.inner_html("#board svg .orders")
    assert got[0] == ("England: F edi - nth", "succeeds")  # in the order given
    assert ("France: A bre - lon", "paradox") in got and ("Russia: F nth C A nwy - bel", "paradox") in got
    assert page.query_selector("#results tr.paradox") is not None
    assert page.query_selector("#board svg #order-move-bre-lon.paradox") is not None
    assert page.query_selector("#board svg #order-move-edi-nth.succeeds") is not None
    assert "No consistent resolution" in page.inner_text("#alternatives")
    row = page.query_selector("#results tbody tr[data-order='France: A bre - lon']")
    row.click()
    assert "4.A.2" in page.inner_text("#explanation")
    page.dispatch_event("#board #order-move-edi-nth", "click")  # an order on the map: its explanation
    assert page.inner_text("#explanation h3").startswith("England: F edi - nth")
    before = page.get_attribute("#board svg.map", "viewBox")
    page.hover("#board svg.map")
    page.mouse.wheel(0, -300)  # the wheel zooms in on the map
    zoomed = page.get_attribute("#board svg.map", "viewBox")
    assert float(zoomed.split()[2]) < float(before.split()[2])
    page.click("#zoom-reset")
    assert page.get_attribute("#board svg.map", "viewBox") == before
    link = page.get_attribute("#permalink", "href")
    fresh = chromium.new_context()
    other = fresh.new_page()
    try:
        other.goto(link)
        assert results(other) == got
        assert other.input_value("#orders") == F24_ORDERS and other.input_value("#rules") == "datc"
        assert other.inner_html("#board svg .orders") == drawn
    finally:
        fresh.close()


def click_province(tab, province: str) -> None:
    box = None
    while box is None:  # the board may be being redrawn after the last click
        tab.wait_for_selector(f"#board #province-{province}")
        box = tab.locator(f"#board #province-{province}").bounding_box()
    tab.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def until(tab, check, what: str) -> None:
    deadline = time.monotonic() + 20  # the machine may be shared and busy
    while not check():
        assert time.monotonic() < deadline, what
        tab.wait_for_timeout(50)


def test_set_up_and_order_by_clicking_then_step_to_the_retreat_phase_and_back(page, url):
    ready(page, url)
    page.select_option("#new-board", "modern empty")  # a board of another variant, emptied
    until(page, lambda: '"modern"' in page.input_value("#position") and '"units": []' in page.input_value("#position"),
          "an empty Modern board")
    page.select_option("#new-board", "standard")
    until(page, lambda: page.input_value("#position") == "standard" and
          page.get_attribute("#board svg.dipsat-board", "data-variant") == "standard", "the standard board")
    page.select_option("#tool", "A")
    page.select_option("#power", "Germany")
    click_province(page, "ruh")
    until(page, lambda: page.query_selector("#board #unit-germany-A-ruh") is not None, "A ruh placed")
    page.select_option("#power", "France")
    click_province(page, "bur")
    until(page, lambda: page.query_selector("#board #unit-france-A-bur") is not None, "A bur placed")
    page.select_option("#tool", "F")  # a fleet on a split coast: the first coast, then the next
    page.select_option("#power", "Russia")
    click_province(page, "bul")
    until(page, lambda: page.query_selector("#board #unit-russia-F-bul-ec") is not None, "F bul/ec placed")
    click_province(page, "bul")
    until(page, lambda: page.query_selector("#board #unit-russia-F-bul-sc") is not None, "F bul/sc next")
    page.select_option("#tool", "order")
    page.select_option("#order-kind", "move")
    click_province(page, "mun")
    click_province(page, "bur")
    page.select_option("#order-kind", "support")
    for province in ("ruh", "mun", "bur"):
        click_province(page, province)
    until(page, lambda: page.input_value("#orders").count("\n") == 2, "two orders given")
    assert page.input_value("#orders") == "Germany: A mun - bur\nGermany: A ruh S A mun - bur\n"
    page.select_option("#tool", "")
    page.focus("#orders")
    page.keyboard.press("Control+Enter")  # adjudicates, as the button does
    assert results(page) == [("Germany: A mun - bur", "succeeds"), ("Germany: A ruh S A mun - bur", "succeeds")]
    page.click("#step")
    until(page, lambda: '"Retreat"' in page.input_value("#position"), "the retreat phase")
    page.wait_for_selector("#board #dislodged-france-A-bur")
    page.fill("#orders", "France: A bur R pic")
    adjudicate(page)
    assert results(page) == [("France: A bur R pic", "succeeds")]
    page.click("#back")
    until(page, lambda: page.input_value("#orders").startswith("Germany"), "back to the movement phase")
    until(page, lambda: results(page)[0][0].startswith("Germany"), "the movement phase adjudicated again")
    assert results(page)[0] == ("Germany: A mun - bur", "succeeds")


def test_compare_what_if_and_export_a_ruling(page, url, tmp_path):
    ready(page, f"{url}?case=6.F.24")
    assert ("France: A bre - lon", "paradox") in results(page)
    page.click("#whatif")
    page.fill("#compare", "1982,dptg")
    page.select_option("#rules", "dptg")
    adjudicate(page)
    assert len(page.query_selector_all("#comparison figure img")) == 2
    assert page.evaluate("[...document.querySelectorAll('#comparison img')].every((i) => i.complete && i.naturalWidth > 0)")
    assert "difference" in page.inner_text("#comparison h3")
    assert page.query_selector("#results tr.changed") is not None  # the DPTG differs from the case's datc
    for button, suffix, start in (("#export-case", ".txt", b"# Written by dipsat"), ("#export-svg", ".svg", b"<svg"),
                                  ("#export-png", ".png", b"\x89PNG"), ("#export-json", ".json", b"{"),
                                  ("#export-result", ".result.json", b"{")):
        with page.expect_download() as saved:
            page.click(button)
        target = tmp_path / f"export{suffix}"
        saved.value.save_as(target)
        assert saved.value.suggested_filename == f"6.F.24{suffix}" and target.read_bytes().startswith(start)
    result = json.loads((tmp_path / "export.result.json").read_text())
    assert result["format"] == "dipsat/2" and result["type"] == "result" and result["rules"] == "dptg"
    assert "pictures" not in result and "input" not in result
    exported = json.loads((tmp_path / "export.json").read_text())  # the position, orders and rules: rerun, the same
    assert exported["type"] == "state" and exported["rules"] == "dptg" and len(exported["orders"]) == 9


    rerun = run("adjudicate", str(tmp_path / "export.json"), "--format", "json")
    assert rerun.exit_code == 0, rerun.output
    assert [(o["order"], o["result"]) for o in json.loads(rerun.stdout)["orders"]] == \
        [(o["order"], o["result"]) for o in result["orders"]]
    with page.expect_download() as download:
        page.click("#export-ruling")
    path = tmp_path / "ruling.html"
    download.value.save_as(path)
    text = path.read_text(encoding="utf-8")
    assert "://" not in text.replace("http://www.w3.org", "")  # self-contained
    page.goto(path.as_uri())
    assert page.inner_text("#ruling-rules") == "dptg"
    assert len(page.query_selector_all("#ruling-results tr")) == 10  # a header and the nine orders
    assert page.query_selector("#ruling-board svg") is not None and "CASE" in page.inner_text("#ruling-case")


def test_a_recorded_game_back_and_forth_through_its_phases(page, url):
    from dipsat.game import new_game
    from dipsat.notation import parse_orders

    game = new_game("standard")
    for text in ("France: A par - bur", "France: A bur - mun"):
        game.play(parse_orders(text, game.state.variant, game.state.phase.kind)[0])
    ready(page, url)
    page.fill("#position", game.dumps())
    page.fill("#orders", "")
    adjudicate(page)
    assert page.is_visible("#game-row") and page.input_value("#game-phase") == "S1901M"
    assert ("France: A par - bur", "succeeds") in results(page)
    page.click("#game-next")
    until(page, lambda: page.input_value("#game-phase") == "F1901M" and "bur - mun" in page.inner_text("#results"),
          "the next phase")
    assert ("France: A bur - mun", "bounced") in results(page)  # A mun holds: no order
    page.click("#game-prev")
    until(page, lambda: "par - bur" in page.inner_text("#results"), "back to the first phase")


def test_a_case_file_of_ones_own_opened_in_the_page(page, url, tmp_path):
    """A case file on the user's disk (e.g. one of a `validate --html` report's disagreements),
    opened with the page's file chooser: read by the browser, adjudicated."""
    path = tmp_path / "mine.txt"
    path.write_text("CASE mine A bounce\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n  France: A par\n"
                    "  Germany: A mun\nORDERS\n  France: A par - bur\n  Germany: A mun - bur\nEND\n")
    ready(page, url)
    page.set_input_files("#open-file", str(path))
    until(page, lambda: page.query_selector("#results tbody tr") is not None, "the file adjudicated")
    assert results(page) == [("France: A par - bur", "bounced"), ("Germany: A mun - bur", "bounced")]
    assert page.input_value("#position").startswith("CASE mine")


def test_order_errors_are_marked_beside_their_lines(page, url):
    """Each line that cannot be read is marked where it is, as it is typed: the fragment
    underlined, the reader's message beside it ("did you mean" where the reader suggests,
    never a guess), listed below too; a click on the list goes to the line."""
    ready(page, url)
    typed = "France: A par - bur\n  England: F lon - Nrth Sea\nGermany: A mun - xyz\n"
    page.fill("#orders", typed)
    until(page, lambda: len(page.query_selector_all("#orders-marks .line.bad")) == 2, "two lines marked as typed")
    bad = page.query_selector_all("#orders-marks .line.bad")
    assert [b.get_attribute("data-line") for b in bad] == ["2", "3"]
    assert bad[0].query_selector(".fragment").inner_text() == "Nrth"
    assert "did you mean North Sea (nth)?" in bad[0].query_selector(".why").inner_text()
    assert bad[1].query_selector(".fragment").inner_text() == "xyz" and "did you mean" not in bad[1].inner_text()
    box, mark = page.locator("#orders").bounding_box(), page.locator("#orders-marks .line.bad >> nth=0").bounding_box()
    assert box["y"] < mark["y"] < box["y"] + box["height"] and abs(mark["height"] - 18) < 1  # on line 2 of the box
    assert abs(mark["y"] - box["y"] - 1 - 4 - 18) < 2
    page.click("#order-errors li[data-line='3']")
    assert page.evaluate("[document.activeElement.id, document.activeElement.selectionStart, "
                         "document.activeElement.selectionEnd]") == ["orders", typed.index("xyz"), typed.index("xyz") + 3]
    adjudicate(page)
    assert results(page) == [("France: A par - bur", "succeeds")]  # the unread lines are left out, not guessed
    assert len(page.query_selector_all("#orders-marks .line.bad")) == 2
    page.fill("#orders", "France: A par - bur\n  England: F lon - nth\nGermany: A mun - xyz\n")
    until(page, lambda: [b.get_attribute("data-line") for b in page.query_selector_all("#orders-marks .line.bad")] == ["3"],
          "the mended line's mark gone")
    page.fill("#orders", "France: A par H\n" * 30 + "France: A par - bru\n")  # scrolled: the mark scrolls along
    until(page, lambda: page.query_selector("#orders-marks .line.bad[data-line='31']") is not None, "line 31 marked")
    page.evaluate("document.querySelector('#orders').scrollTop = 10000")
    until(page, lambda: page.evaluate("document.querySelector('#orders-marks').scrollTop > 0"), "the marks scrolled")
    # the marks are drawn again when the reader's answer comes: measure a mark that is drawn
    seen: dict[str, dict[str, float]] = {}

    def measured() -> bool:
        box, mark = page.locator("#orders").bounding_box(), page.locator("#orders-marks .line.bad").bounding_box()
        if box is None or mark is None:
            return False
        seen.update(box=box, mark=mark)
        return True

    until(page, measured, "the mark drawn")
    box, mark = seen["box"], seen["mark"]
    caret = page.evaluate("""(() => { const b = document.querySelector('#orders');
        return b.scrollHeight - b.scrollTop - b.clientHeight; })()""")
    assert box["y"] < mark["y"] < box["y"] + box["height"] - 18 and caret <= 1
    assert abs(mark["y"] + mark["height"] + 18 + 4 + 1 - (box["y"] + box["height"])) < 20  # next to last line


def test_an_export_adjudicates_first(page, url, tmp_path):
    ready(page, url)
    page.fill("#orders", "France: A par - bur\nGermany: A mun - bur")
    with page.expect_download() as saved:
        page.click("#export-svg")
    saved.value.save_as(tmp_path / "board.svg")
    assert 'id="order-move-par-bur"' in (tmp_path / "board.svg").read_text()
    assert results(page) == [("France: A par - bur", "bounced"), ("Germany: A mun - bur", "bounced")]


def test_the_player_set_up_is_chosen_and_reaches_adjudication_and_the_link(page, chromium, url, tmp_path):
    ready(page, url)
    until(page, lambda: page.query_selector("#players option[value='5']") is not None, "the set-ups listed")
    assert "Germany, Italy" in page.inner_text("#players option[value='5']")
    page.select_option("#players", "5")
    page.fill("#orders", "Germany: A mun - bur\nFrance: A par - bur\n")
    adjudicate(page)
    assert results(page) == [("Germany: A mun - bur", "illegal"), ("France: A par - bur", "succeeds")]
    assert "neutral in the 5-player game" in page.inner_text("#results tbody tr:first-child")
    assert "5-player game" in page.inner_text("#note")
    with page.expect_download() as saved:
        page.click("#export-case")
    saved.value.save_as(tmp_path / "five.txt")
    assert "\nPLAYERS 5\n" in (tmp_path / "five.txt").read_text()
    link = page.get_attribute("#permalink", "href")
    fresh = chromium.new_context()
    other = fresh.new_page()
    try:
        other.goto(link)
        assert results(other) == results(page) and other.input_value("#players") == "5"
    finally:
        fresh.close()
    page.select_option("#players", "7")  # one player per power: Germany's order stands
    until(page, lambda: results(page)[0] == ("Germany: A mun - bur", "bounced"), "adjudicated again, seven players")
    ready(page, f"{url}?case=players.6.a")  # a case's PLAYERS line: kept when stepping on
    assert results(page) == [("Italy: A ven - tri", "illegal"), ("Austria: A tyr - pie", "succeeds")]
    assert "6-player game: Italy neutral" in page.inner_text("#note") and page.input_value("#players") == ""
    page.click("#step")
    until(page, lambda: '"Fall"' in page.input_value("#position"), "fall 1901")
    assert page.input_value("#players") == "6"
    page.fill("#orders", "Italy: A ven - tri\nAustria: A pie - tus")
    adjudicate(page)
    assert results(page) == [("Italy: A ven - tri", "illegal"), ("Austria: A pie - tus", "succeeds")]


def test_the_board_pans_by_dragging(page, url):
    ready(page, url)
    page.click("#zoom-in")
    before = [float(v) for v in page.get_attribute("#board svg.map", "viewBox").split()]
    box = page.locator("#board svg.map").bounding_box()
    page.mouse.move(box["x"] + 300, box["y"] + 300)
    page.mouse.down()
    page.mouse.move(box["x"] + 200, box["y"] + 250, steps=5)
    page.mouse.up()
    after = [float(v) for v in page.get_attribute("#board svg.map", "viewBox").split()]
    assert after[0] > before[0] and after[1] > before[1] and after[2:] == before[2:]  # moved, same zoom


def test_a_validate_html_disagreement_opens_in_the_sandbox_with_one_click(page, url, tmp_path):
    """A `dipsat validate --html` report's section links to the sandbox: the case's position,
    orders and rules in the page, adjudicated to the same results as `dipsat adjudicate`;
    a rule difference compared under the run's rules and the record's."""
    import html
    import re



    from .test_validate_html import _records

    games = tmp_path / "games.jsonl"
    games.write_text("".join(line + "\n" for line in _records()), encoding="utf-8")
    out = run("validate", str(games), "--html", str(tmp_path / "report"), "--sandbox", url)
    assert out.exit_code == 1, out.output
    index = (tmp_path / "report" / "index.html").read_text(encoding="utf-8")
    sections = index.split('<section class="problem')[1:]
    for game, rules in (("hand-genuine · S1901M", "2000"), ("hand-fallback · S1901M", "2000 4.A.3=intent")):
        section = next(s for s in sections if f"</a> {game}<" in s)
        case_file = re.search(r'href="(cases/[^"]+)"', section).group(1)
        link = html.unescape(re.search(r'<a class="sandbox" href="([^"]+)">the case</a>', section).group(1))
        assert link.startswith(url + "#s=")
        page.goto((tmp_path / "report" / "index.html").as_uri())
        number = re.match(r'[^"]*" id="(s\d+)"', section).group(1)
        with page.expect_navigation():
            page.click(f"#{number} a.sandbox >> text=the case")  # the one click
        assert page.url == link
        page.wait_for_selector("body[data-ready='1']")
        got = results(page)
        text = (tmp_path / "report" / case_file).read_text(encoding="utf-8")
        first = text[:text.index("\nEND\n") + 5]
        assert page.input_value("#position") == first
        profile, _, options = rules.partition(" ")
        assert (page.input_value("#rules"), page.input_value("#overrides")) == (profile, options)
        ours = run("adjudicate", str(tmp_path / "report" / case_file), "--format", "json")
        expected = sorted(json.loads(ours.stdout)["orders"], key=lambda o: o["index"])
        assert got == [(o["order"], o["result"]) for o in expected]
        block = first[first.index("\nORDERS\n") + 8:first.index("\nPOSTSTATE\n")].splitlines()
        assert [line.split("#")[0].strip() for line in page.input_value("#orders").splitlines() if line.strip()] == \
            [line.split("#")[0].strip() for line in block]  # the case's orders, in the orders' box
        if game.startswith("hand-genuine"):
            first_link = link
            assert got == [("France: A par - bur", "bounced"), ("Germany: A mun - bur", "bounced")]
            assert "record moves, dipsat bounce" in text
        else:
            assert ("England: A lvp - edi via convoy", "succeeds") in got
            assert page.input_value("#compare") == "2000,2000+4.A.3=intent"
            assert len(page.query_selector_all("#comparison figure img")) == 2
    page.goto(first_link)  # another link opened in the same page: only the fragment changes
    until(page, lambda: page.input_value("#position").startswith("# Written by dipsat validate: game hand-genuine"),
          "the other link's state")
    until(page, lambda: results(page) == [("France: A par - bur", "bounced"), ("Germany: A mun - bur", "bounced")],
          "the other link's results")


def test_a_datc_6h_test_movement_then_retreat_in_one_page(page, url):
    ready(page, f"{url}?case=6.H.1")
    assert ("Italy: A tyr - tri", "succeeds") in results(page)
    page.click("#step")
    until(page, lambda: '"Retreat"' in page.input_value("#position"), "the retreat phase")
    page.fill("#orders", "Austria: F Trieste - Albania\nAustria: A Serbia Supports F Trieste - Albania\n"
                         "Turkey: F Greece - Albania\n")  # the DATC's retreat orders
    adjudicate(page)
    assert results(page) == [("Austria: F tri R alb", "bounced"), ("Austria: A ser S F tri - alb", "illegal"),
                             ("Turkey: F gre R alb", "bounced")]  # no support in a retreat phase: both disbanded
    page.click("#back")
    until(page, lambda: ("Italy: A tyr - tri", "succeeds") in results(page), "back to the movement")


def test_season_year_and_kind_chosen_then_builds_and_a_wing_by_clicking(page, url):
    ready(page, url)
    page.select_option("#tool", "remove")
    click_province(page, "par")
    until(page, lambda: page.input_value("#position").startswith("{") and not any(
        u["location"] == "par" for u in json.loads(page.input_value("#position"))["units"]), "A par removed")
    page.fill("#year", "1903")
    page.dispatch_event("#year", "change")
    until(page, lambda: json.loads(page.input_value("#position"))["phase"]["year"] == 1903, "the year")
    page.fill("#year", "0")  # no such year: said in the page, nothing drawn
    page.dispatch_event("#year", "change")
    until(page, lambda: "error" in (page.get_attribute("#status", "class") or "") and "year" in page.inner_text("#status"),
          "the year refused")
    page.fill("#year", "1903")
    page.select_option("#season", "Fall")
    page.select_option("#kind", "Adjustment")
    until(page, lambda: json.loads(page.input_value("#position"))["phase"] == {"year": 1903, "season": "Fall",
                                                                              "kind": "Adjustment"}, "adjustments 1903")
    page.select_option("#tool", "order")
    page.select_option("#order-kind", "build")
    page.select_option("#power", "France")
    click_province(page, "par")
    page.select_option("#order-kind", "waive")
    click_province(page, "mar")
    until(page, lambda: page.input_value("#orders") == "France: Build A par\nFrance: Waive\n", "build and waive")
    page.select_option("#tool", "")
    adjudicate(page)
    assert results(page)[0] == ("France: Build A par", "succeeds")
    page.select_option("#new-board", "modern empty")  # a wing, on the Modern map
    until(page, lambda: '"modern"' in page.input_value("#position") and '"units": []' in page.input_value("#position"),
          "an empty Modern board")
    page.select_option("#tool", "W")
    page.select_option("#power", "Britain")
    click_province(page, "lon")
    until(page, lambda: json.loads(page.input_value("#position"))["units"] == [
        {"power": "Britain", "kind": "W", "location": "lon"}], "W lon placed")
