"""The README's pictures of dipsat serve (docs/pictures/serve-*.png), taken in headless Chromium.

Usage: ``python scripts/serve_screenshots.py [--out docs/pictures]`` (needs ``.[test]`` and
``/usr/bin/chromium``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.serve_browser import browser, running_server  # noqa: E402
from tests.test_serve_api import F24_ORDERS  # noqa: E402

RETREAT = {"variant": "standard", "phase": "F1901M",
           "units": [{"power": "Germany", "kind": "A", "location": "mun"},
                     {"power": "Germany", "kind": "A", "location": "ruh"},
                     {"power": "Germany", "kind": "F", "location": "hol"},
                     {"power": "France", "kind": "A", "location": "bur"},
                     {"power": "France", "kind": "A", "location": "pic"},
                     {"power": "England", "kind": "F", "location": "nth"}]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="docs/pictures")
    out = Path(parser.parse_args().out)
    with running_server() as url, browser() as chromium:
        tab = chromium.new_page(viewport={"width": 1400, "height": 1050})

        def ready(address: str) -> None:
            tab.goto(address)
            tab.wait_for_selector("body[data-ready='1']")

        ready(url)  # a DATC test pasted as the DATC writes it
        tab.fill("#position", "")
        tab.fill("#orders", F24_ORDERS)
        tab.select_option("#rules", "datc")
        tab.click("#adjudicate")
        tab.wait_for_selector("#results tbody tr")
        tab.click("#results tbody tr[data-order='France: A bre - lon']")
        tab.screenshot(path=str(out / "serve-paradox.png"), full_page=True)

        ready(f"{url}?case=6.F.24")  # three rulebooks side by side
        tab.wait_for_selector("#results tbody tr")
        tab.fill("#compare", "1982,datc,dptg")
        tab.click("#adjudicate")
        tab.wait_for_selector("#comparison figure img")
        tab.locator("#comparison").scroll_into_view_if_needed()
        tab.screenshot(path=str(out / "serve-compare.png"), full_page=True)

        ready(url)  # a movement phase, then its retreat phase
        tab.fill("#position", json.dumps(RETREAT, indent=1))
        tab.fill("#orders", "Germany: A mun - bur\nGermany: A ruh S A mun - bur\nGermany: F hol H\n"
                            "France: A pic H\nEngland: F nth - bel")
        tab.click("#adjudicate")
        tab.wait_for_selector("#results tbody tr")
        tab.click("#step")
        tab.wait_for_selector("#board #dislodged-france-A-bur")
        tab.fill("#orders", "France: A bur R gas")
        tab.click("#adjudicate")
        tab.wait_for_selector("#results tbody tr")
        box = tab.locator("#board #province-bur").bounding_box()
        tab.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        for _ in range(4):  # zoomed in on Burgundy with the wheel
            tab.mouse.wheel(0, -200)
            tab.wait_for_timeout(50)
        tab.screenshot(path=str(out / "serve-retreat.png"), full_page=True)

        ready(url)  # the five-player game, orders typed with mistakes: each marked beside its line
        tab.select_option("#players", "5")
        tab.fill("#orders", "France: A par - bur\nFrance: A mar S A par - bru\nGermany: A mun - bur\n"
                            "England: F lon - Nrth Sea\nEngland: F edi - nwg")
        tab.click("#adjudicate")
        tab.wait_for_selector("#results tbody tr")
        tab.wait_for_selector("#orders-marks .line.bad")
        tab.screenshot(path=str(out / "serve-setup.png"), full_page=True)
    print(f"wrote {out}/serve-paradox.png, serve-compare.png, serve-retreat.png, serve-setup.png")


if __name__ == "__main__":
    main()
