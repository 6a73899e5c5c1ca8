"""dipsat serve's speed (a benchmark, not a test): with the server warm,

1. a full board (34 units, every one ordered: a movement phase of random moves, supports and
   convoys, seeded) adjudicated and drawn: ``POST /api/adjudicate`` with the explanations, every
   resolution and the picture, request to response (over HTTP on loopback, keep-alive);
2. the page loaded in headless Chromium to the initial position drawn (the board's SVG in
   ``#board``), from navigation to ready.

Usage: ``python scripts/bench_serve.py [--repeat 30] [--seed 1]`` (needs ``.[test]`` and
``/usr/bin/chromium``). Prints medians and 90th percentiles. The machine may be shared: compare
numbers from one run only.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx  # noqa: E402

from dipsat.formats.dipsat_json import state_to_json  # noqa: E402
from dipsat.maps import load_variant  # noqa: E402
from dipsat.runners.invariants import random_orders, random_state  # noqa: E402
from tests.serve_browser import browser, running_server  # noqa: E402

UNITS = 34


def full_board(seed: int) -> dict:
    """A movement phase with 34 units, all ordered (as dipsat JSON, orders included)."""
    rng = random.Random(seed)
    variant = load_variant("standard")
    while True:
        state = random_state(rng, variant, density=0.6)
        if len(state.units) >= UNITS:
            state = state.with_(units=tuple(rng.sample(state.units, UNITS)))
            orders = random_orders(rng, state)
            if len(orders) == UNITS:  # one order per unit
                return state_to_json(state, orders)


def quantiles(times: list[float]) -> str:
    times = sorted(times)
    return f"median {statistics.median(times) * 1000:6.1f} ms, p90 {times[int(len(times) * 0.9) - 1] * 1000:6.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    board = full_board(args.seed)
    body = {"position": board, "explain": True, "all": True}
    with running_server() as url:
        with httpx.Client(base_url=url, timeout=60) as client:
            for _ in range(3):  # warm: imports, the map, the geometry
                answer = client.post("/api/adjudicate", json=body)
                answer.raise_for_status()
            data = answer.json()
            times = []
            for _ in range(args.repeat):
                started = time.perf_counter()
                client.post("/api/adjudicate", json=body).raise_for_status()
                times.append(time.perf_counter() - started)
        print(f"POST /api/adjudicate, {len(data['orders'])} orders of {UNITS} units (seed {args.seed}), explained, "
              f"every resolution, picture of {len(data['pictures']['board']) // 1024} KiB: {quantiles(times)}")
        with browser() as chromium:
            loads, in_page = [], []
            for k in range(min(args.repeat, 15) + 1):
                context = chromium.new_context(viewport={"width": 1400, "height": 1000})
                tab = context.new_page()
                started = time.perf_counter()
                tab.goto(url)
                tab.wait_for_selector("#board svg.dipsat-board")
                elapsed = time.perf_counter() - started
                ready = tab.evaluate("performance.now()") / 1000
                context.close()
                if k:  # the first load warms the server's picture of the initial position
                    loads.append(elapsed)
                    in_page.append(ready)
        print(f"page load to the initial position drawn: {quantiles(loads)} (navigation start to the board "
              f"drawn, in the page: {quantiles(in_page)})")


if __name__ == "__main__":
    main()
