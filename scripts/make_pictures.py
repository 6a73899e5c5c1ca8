"""Render the pictures of docs/pictures/ (shown in the README) from the bundled cases.

    python scripts/make_pictures.py [--png]

Each picture is dipsat.svg.board of a case's result, as ``dipsat adjudicate CASEFILE --case ID
--format svg`` draws it. --png also writes PNGs (needs the png extra: resvg-py).
tests/test_svg.py checks that the committed SVGs are what this script draws now.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from dipsat.runners.cases import load_cases, run_case
from dipsat.cli.draw import render, result_picture

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "pictures"

PICTURES = [
    ("rulebook/figures.txt", "rulebook.fig08", "rulebook-fig08"),
    ("rulebook/figures.txt", "rulebook.fig14", "rulebook-fig14"),
    ("rulebook/figures.txt", "rulebook.fig19", "rulebook-fig19"),
    ("rulebook/figures.txt", "rulebook.fig32", "rulebook-fig32"),
    ("datc/6c_circular.txt", "6.C.3", "datc-6c3"),
    ("datc/6f_convoys.txt", "6.F.14", "datc-6f14"),
    ("datc/6f_convoys.txt", "6.F.24", "datc-6f24"),
    ("modern/turns.txt", "modern.turn.blockade", "modern-wings-blockade"),
    ("rulebook/sample_game.txt", "rulebook.game.F1902R", "retreat-phase"),
    ("rulebook/sample_game.txt", "rulebook.game.W1902A", "adjustment-phase"),
]


def pictures() -> list[tuple[str, str, str]]:
    """(file name, case id, SVG text) of every picture, drawn now."""
    out = []
    for path, case_id, name in PICTURES:
        cases, errors = load_cases(ROOT / "cases" / path)
        run = run_case(next(c for c in cases if c.id == case_id))
        if run.result is None:
            raise SystemExit(f"{case_id}: {run.problems}")
        out.append((f"{name}.svg", f"{case_id} ({run.status})", result_picture(run.result, case_id, True)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--png", action="store_true", help="also write PNGs")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for name, what, text in pictures():
        (OUT / name).write_text(text, encoding="utf-8")
        if args.png:
            (OUT / name.replace(".svg", ".png")).write_bytes(render(text, "png"))
        print(f"{name}  {what}")


if __name__ == "__main__":
    main()
