"""CPU time of the rule scope (:func:`dipsat.runners.rule_scope.issues_touched`), and its
answers, on every phase of recorded games and case files (a profile, not a test).

Reads the phases first (not timed): every phase of the saved games of the ``diplomacy``
package in ``*.jsonl(.gz)`` files and of the godip histories (``*.txt``) under folders
named with ``--godip``, and the position of every case of the case files under the
other PATHS (default: the bundled corpus and ``cases/``), and with ``--generated N``
the phases of the first N items of ``dipsat fuzz``'s generators (seed 0, every family, the
bundled variants: convoys, paradoxes, coasts and mistaken orders the records rarely
have). Then prints the CPU time
(``time.process_time``) of ``--repeat`` runs of ``issues_touched`` over them all and the
median; ``--dump FILE`` writes its answer for each phase instead, one line each, to
compare the answers of two versions of the code (``cmp``: the rule scope is a superset
contract, and a change made for speed must name the same issues for every phase).

Usage: ``python scripts/profile_scope.py [--repeat N] [--dump FILE] [--godip DIR] [--generated N] [PATHS...]``.
The machine may be shared: compare old and new code in alternating runs.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import time
from pathlib import Path
from typing import Any

from dipsat.errors import DipsatError
from dipsat.formats.diplomacy_json import DiplomacyTables, read_game
from dipsat.formats.godip import GodipTables, read_godip_game
from dipsat.maps import bundled_variants, load_variant
from dipsat.orders import Order
from dipsat.rules import Rules
from dipsat.runners.cases import build_position, case_files, case_rules, load_cases
from dipsat.runners.generators import FAMILIES, generate_item
from dipsat.runners.rule_scope import issues_touched
from dipsat.state import State

ROOT = Path(__file__).resolve().parent.parent
DEFAULTS = [str(ROOT / "cases" / "corpus" / "random_games.jsonl.gz"), str(ROOT / "cases")]

Phase = tuple[str, State, list[Order]]  # (where it comes from, the position, the orders)


def phases(paths: list[str], godip: list[str], generated: int) -> list[Phase]:
    out: list[Phase] = []
    tables = DiplomacyTables()
    for path in paths:
        if path.endswith((".jsonl", ".jsonl.gz")):
            opener: Any = gzip.open if path.endswith(".gz") else open
            with opener(path, "rt", encoding="utf-8") as f:
                for line in f:
                    if line.strip():
                        out += _recorded(read_game(json.loads(line), tables))
            continue
        for file in case_files([path]):
            for case in load_cases(file)[0]:
                try:
                    rules = case_rules(case)
                    if rules is not None:
                        state, orders, _ = build_position(case, rules)
                        out.append((f"{file.relative_to(ROOT) if file.is_relative_to(ROOT) else file}:{case.line}",
                                    state, orders))
                except (ValueError, DipsatError):
                    continue  # a case that cannot be set up is never scoped
    godip_tables = GodipTables()
    for folder in godip:
        for file in sorted(Path(folder).rglob("*.txt")):
            text = file.read_bytes().decode("utf-8", errors="surrogateescape")
            out += _recorded(read_godip_game(text, file.name, tables=godip_tables))
    variants = [load_variant(name) for name in bundled_variants()]
    for n in range(generated):
        out += [(g.id, g.state, list(g.orders)) for g in generate_item(0, n, variants, list(FAMILIES), Rules.profile())]
    return out


def _recorded(game: Any) -> list[Phase]:
    return [(f"{game.id} {rec.name}", rec.state, [o for o, _ in rec.orders])
            for rec in game.phases if rec.state is not None]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=DEFAULTS)
    parser.add_argument("--godip", action="append", default=[], metavar="DIR", help="godip histories under DIR")
    parser.add_argument("--generated", type=int, default=0, metavar="N", help="the first N generated items too")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--dump", metavar="FILE", help="write each phase's issues to FILE instead of timing")
    args = parser.parse_args()
    todo = phases(args.paths, args.godip, args.generated)
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as f:
            for source, state, orders in todo:
                f.write(f"{source}: {' '.join(sorted(issues_touched(state, orders)))}\n")
        print(f"{len(todo)} phases written to {args.dump}")
        return
    times = []
    for _ in range(args.repeat):
        start = time.process_time()
        for _, state, orders in todo:
            issues_touched(state, orders)
        times.append(time.process_time() - start)
    print(" ".join(f"{t:.3f}" for t in times), f"median {statistics.median(times):.3f} s CPU, {len(todo)} phases")


if __name__ == "__main__":
    main()
