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
    deadline = time.monotonic() + 10
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
                                  ("#export-png", ".png", b"\x89PNG"), ("#export-json", ".json", b"{")):
        with page.expect_download() as saved:
            page.click(button)
        target = tmp_path / f"export{suffix}"
        saved.value.save_as(target)
        assert saved.value.suggested_filename == f"6.F.24{suffix}" and target.read_bytes().startswith(start)
    exported = json.loads((tmp_path / "export.json").read_text())
    assert exported["format"] == "dipsat/1" and exported["rules"] == "dptg" and "pictures" not in exported
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
