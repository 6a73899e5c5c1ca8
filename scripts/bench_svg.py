"""Time dipsat.printers.svg.board on full-board positions (a benchmark, not a test).

    python scripts/bench_svg.py [--repeat 50]

Draws the initial position of both maps, and the standard map with the orders and results of
DATC 6.F.24 and of a full-board first turn, and prints the median and p90 per picture.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import dipsat
from dipsat.printers import svg
from dipsat.runners.cases import load_cases, run_case

ROOT = Path(__file__).resolve().parent.parent


def timed(fn, repeat: int) -> list[float]:
    fn()  # warm up (geometry loaded and cached once per map)
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    standard = dipsat.load_variant("standard").initial_state()
    modern = dipsat.load_variant("modern").initial_state()
    text = "\n".join(["Austria: A vie - gal", "Austria: A bud - ser", "Austria: F tri - alb",
                      "England: F edi - nwg", "England: F lon - nth", "England: A lvp - yor",
                      "France: F bre - mao", "France: A par - bur", "France: A mar S A par - bur",
                      "Germany: F kie - den", "Germany: A ber - kie", "Germany: A mun - bur",
                      "Italy: A ven H", "Italy: A rom - apu", "Italy: F nap - ion",
                      "Russia: A mos - ukr", "Russia: A war - gal", "Russia: F sev - bla", "Russia: F stp/sc - bot",
                      "Turkey: F ank - bla", "Turkey: A con - bul", "Turkey: A smy - con"])
    orders, _ = dipsat.notation.parse_orders(text, standard.variant)
    first_turn = dipsat.adjudicate(standard, orders)
    cases, _ = load_cases(ROOT / "cases" / "datc" / "6f_convoys.txt")
    f24 = run_case(next(c for c in cases if c.id == "6.F.24")).result
    jobs = {
        "standard, initial position": lambda: svg.board(standard),
        "modern, initial position": lambda: svg.board(modern),
        "standard, first turn with results": lambda: svg.board(result=first_turn),
        "standard, DATC 6.F.24 with results": lambda: svg.board(result=f24),
    }
    for name, fn in jobs.items():
        times = sorted(timed(fn, args.repeat))
        print(f"{name:38} median {statistics.median(times):6.2f} ms   p90 {times[int(len(times) * 0.9)]:6.2f} ms")


if __name__ == "__main__":
    main()
