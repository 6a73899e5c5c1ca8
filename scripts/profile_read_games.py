"""CPU time of reading saved games of the ``diplomacy`` package (a profile, not a test).

Decodes every line of the given JSONL(.gz) files first (not timed), then reads each record
with :func:`dipsat.formats.diplomacy_json.read_game` as ``dipsat validate`` does: one
:class:`DiplomacyTables` for the whole run (``Retained.diplomacy``). Prints the CPU time
(``time.process_time``) of each of ``--repeat`` runs and their median; ``--profile N``
prints the top N functions of a cProfile of one run instead.

Usage: ``python scripts/profile_read_games.py [--repeat N] [--profile N] [PATHS...]``
(default: the bundled corpus). The machine may be shared: compare old and new code in
alternating runs of one shell session.
"""

from __future__ import annotations

import argparse
import cProfile
import gzip
import json
import pstats
import statistics
import time
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parent.parent / "cases" / "corpus" / "random_games.jsonl.gz"


def records(paths: list[str]) -> list[Any]:
    out = []
    for path in paths:
        opener: Any = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as f:
            out.extend(json.loads(line) for line in f if line.strip())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=[str(CORPUS)])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print the top N functions of a profile")
    args = parser.parse_args()
    from dipsat.formats.diplomacy_json import DiplomacyTables, read_game

    games = records(args.paths)
    read_game(games[0], DiplomacyTables())  # the variant's tables loaded (validate loads them before reading)

    def run() -> None:
        tables = DiplomacyTables()
        for record in games:
            read_game(record, tables)

    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(run)
        pstats.Stats(profile).sort_stats("tottime").print_stats(args.profile)
        return
    times = []
    for _ in range(args.repeat):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    print(" ".join(f"{t:.3f}" for t in times), f"median {statistics.median(times):.3f} s CPU,",
          f"{len(games)} games, {sum(len(g.get('phases', [])) for g in games)} phases")


if __name__ == "__main__":
    main()
