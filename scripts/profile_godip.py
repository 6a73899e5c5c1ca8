"""Where the time of reading godip histories goes (a profile, not a test).

Reads every ``game_N.txt`` under the PATHS as ``dipsat validate`` does (each file decoded
with ``errors="surrogateescape"``, one :class:`GodipTables` kept across the games, the
collector's batch thresholds, each game read kept and frozen out of the collector's way) and
prints the CPU time spent in :func:`read_godip_game` (as the stage 'read: godip' of
``scripts/profile_validate.py`` counts it), the fastest and the median of ``--repeat`` runs,
each with fresh tables. With ``--shares``, runs alternate with the record-against-itself
check (:func:`~dipsat.formats.records.position_contradiction`) and the typing of the orders
left out, to show their shares of that time; with ``--profile N``, the top N functions of
one more run under cProfile (which inflates the functions called most).

Usage: ``python scripts/profile_godip.py [--repeat N] [--shares] [--profile N] PATHS...``.
The machine may be shared: compare runs alternated in one session, by their medians.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from dipsat.formats import godip
from dipsat.formats.records import RecordedGame
from dipsat.maps import load_variant
from dipsat.runners.runtime import long_lived_heap, tune_for_batches


def texts(paths: list[str]) -> list[tuple[str, str]]:
    files: list[Path] = []
    for path in map(Path, paths):
        files.extend(sorted(path.rglob("*.txt")) if path.is_dir() else [path])
    return [(f.name, f.read_bytes().decode("utf-8", errors="surrogateescape")) for f in files]


def read_all(games: list[tuple[str, str]]) -> tuple[float, list[RecordedGame]]:
    """The CPU time spent reading the games, and the games (kept past the timing, as
    validate's judges keep them: their freeing is no part of the reading)."""
    tables = godip.GodipTables()
    settle, release = long_lived_heap()
    kept: list[RecordedGame] = []
    spent = 0.0
    try:
        for name, text in games:
            start = time.process_time()
            kept.append(godip.read_godip_game(text, name, tables=tables))
            spent += time.process_time() - start
            settle()
    finally:
        release()
    return spent, kept


@contextmanager
def left_out(what: str) -> Iterator[None]:
    """The reader with `what` ('contradiction', 'orders' and so both) made a no-op."""
    saved: list[tuple[Any, str, Callable[..., Any]]] = []
    if what in ("contradiction", "orders"):
        saved.append((godip, "position_contradiction", godip.position_contradiction))
        godip.position_contradiction = lambda prev, nxt: None
    if what == "orders":
        saved.append((godip._Reader, "orders", godip._Reader.orders))
        godip._Reader.orders = lambda *args: None  # type: ignore[method-assign]
    try:
        yield
    finally:
        for owner, name, value in saved:
            setattr(owner, name, value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--shares", action="store_true")
    parser.add_argument("--profile", type=int, default=0, metavar="N")
    args = parser.parse_args()
    games = texts(args.paths)
    load_variant("standard")
    tune_for_batches()
    ways = ["all", "contradiction", "orders"] if args.shares else ["all"]
    times: dict[str, list[float]] = {way: [] for way in ways}
    phases = 0
    for _ in range(args.repeat):
        for way in ways:
            with left_out(way):
                gc.collect()
                spent, kept = read_all(games)
            times[way].append(spent)
            phases = sum(len(game.phases) for game in kept)
            del kept
    print(f"{len(games)} games, {phases} phases; CPU time in read_godip_game, best and median of {args.repeat}:")
    whole = statistics.median(times["all"])
    labels = {"all": "reading", "contradiction": "without the contradiction check",
              "orders": "without it and the orders' typing"}
    for way in ways:
        median = statistics.median(times[way])
        print(f"  {labels[way]:34s} {min(times[way]):6.3f} s {median:6.3f} s  {100 * median / whole:5.1f}%")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(read_all, games)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(args.profile)


if __name__ == "__main__":
    sys.exit(main())
