"""Write recorded games in another format: benchmark inputs for ``dipsat cases`` and
``dipsat validate`` (README, "Speed"); the files written are not committed.

Usage::

    python scripts/convert_records.py cases/corpus/random_games.jsonl.gz OUT_DIR --to cases [--kind movement]
    python scripts/convert_records.py cases/corpus/random_games.jsonl.gz OUT_DIR --to godip

``--to cases``: each phase becomes one jDip case: the recorded position and orders,
and the record's next position as POSTSTATE (so a case FAILs where dipsat and the
record disagree); one file per game (``GAME.txt``), cases named ``GAME.PHASE``.
``--to godip``: each game becomes a Droidippy/godip history ``game_N.txt`` (positions
and orders, no results), the format of the zond/godip-history archive.
"""

from __future__ import annotations

import argparse
import os
import re
import sys

from dipsat.adjudicator import adjudicate
from dipsat.runners.inputs import iter_items
from dipsat.formats.diplomacy_json import read_game
from dipsat.formats.godip import read_godip_game, write_godip_game
from dipsat.formats.records import RecordedGame
from dipsat.rules import Rules
from dipsat.runners.validate import PhaseReport, disagreement_case


def games(paths: list[str]) -> list[RecordedGame]:
    import json
    out = []
    for item in iter_items(paths):
        try:
            if item.kind == "game":
                out.append(read_game(json.loads(item.text)))
            elif item.kind == "godip":
                out.append(read_godip_game(item.text, item.source))
        except Exception as exc:  # noqa: BLE001 - a script: skip what cannot be read
            print(f"{item.source}: skipped: {exc}", file=sys.stderr)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", nargs="+", help="recorded games (files or folders), then the output folder")
    parser.add_argument("--to", choices=["cases", "godip"], default="cases")
    parser.add_argument("--kind", choices=["movement", "retreat", "adjustment", "all"], default="movement",
                        help="--to cases: which phases")
    args = parser.parse_args(argv)
    *inputs, out = args.inputs
    os.makedirs(out, exist_ok=True)
    rules = Rules.profile()
    written = 0
    for number, game in enumerate(games(inputs), start=1):
        if args.to == "godip":
            with open(os.path.join(out, f"game_{number}.txt"), "w", encoding="utf-8") as handle:
                handle.write(write_godip_game(game))
            written += 1
            continue
        texts = []
        for rec, nxt in zip(game.phases, game.phases[1:]):
            if rec.state is None or rec.error is not None or nxt.state is None or nxt.error is not None:
                continue
            if args.kind != "all" and str(rec.state.phase.kind).lower() != args.kind:
                continue
            result = adjudicate(rec.state, [o for o, _ in rec.orders], rules)
            texts.append(disagreement_case(game.id, rec, nxt, result, PhaseReport(rec.index, rec.name, "", ""),
                                           minimal=False, checked=False))
        if texts:
            name = re.sub(r"[^A-Za-z0-9_.-]+", "_", game.id) + ".txt"
            with open(os.path.join(out, name), "w", encoding="utf-8") as handle:
                handle.write("\n".join(texts))
            written += len(texts)
    print(f"{written} {'games' if args.to == 'godip' else 'cases'} written to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
