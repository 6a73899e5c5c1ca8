"""Write the recorded games ``tests/records/written_cases/`` holds: a short game played by
dipsat's game module (a supported attack dislodges a French army in fall 1901, Germany
takes Holland), written as a saved game of the ``diplomacy`` package (with its retreat
table) and as a Droidippy/godip history, unchanged (the controls) and with one
adjudicator bug each, written as the buggy program would have written its next phase:

- ``retreat_bug.json``: the dislodged army is offered the province its attacker came from
  (Ruhr), which DATC 4.A.5 / rule XI forbids;
- ``ownership_bug.json`` and ``game_2.txt`` (godip): Holland, taken by a German fleet at
  the end of 1901, is left unowned;
- ``lost_retreat_option.json``: Picardy, free, is missing from the retreat table;
- ``removal_not_made.json`` (another game): Russia, on three centres with four units after
  fall 1901, goes on to spring 1902 with all four: no adjustment phase, no removal;
- ``code_bug.json``: the fall's per-order results are recorded, and the support that
  dislodged the French army is recorded as cut (the board is right: only a result code
  differs).

``dipsat validate tests/records/written_cases --write-cases D && dipsat cases D`` must
fail every case written (tests/test_written_cases.py). Usage::

    python scripts/make_bugged_records.py tests/records/written_cases
"""

from __future__ import annotations

import copy
import json
import os
import sys
from typing import Any

from dipsat.adjudicator import adjudicate
from dipsat.formats.diplomacy_json import write_game
from dipsat.formats.godip import write_godip_game
from dipsat.game import Game, new_game
from dipsat.notation import parse_orders
from dipsat.runners.recorded import game_record

TURNS = [
    """France: A par - bur
France: A mar - gas
Germany: A mun - ruh
Germany: A ber - mun
Germany: F kie - hol
England: F lon - nth""",
    """Germany: A ruh - bur
Germany: A mun S A ruh - bur
Germany: F hol H
France: A bur H
France: A gas - spa
England: F nth - bel""",
    """France: A bur - pic""",
]


# A second game: Germany takes Warsaw; the Russian army retreats to Ukraine, so Russia has
# four units on three centres and must remove one in the adjustment (Russia gives orders:
# the game module puts a power that gives none in civil disorder).
TURNS_REMOVAL = [
    "Germany: A ber - pru\nGermany: A mun - sil\nRussia: A war H",
    "Germany: A sil - war\nGermany: A pru S A sil - war\nRussia: A war H",
    "Russia: A war - ukr",
]


def played(turns: list[str] = TURNS) -> Game:
    game = new_game("standard")
    for text in turns:
        orders, errors = parse_orders(text, game.state.variant, game.state.phase.kind)
        assert not errors, errors
        game.play(orders)
    return game


def saved_game(game: Game) -> dict[str, Any]:
    """The game as the package saves it, with the retreat table of its retreat phase
    (dipsat's own options: the control)."""
    record = write_game(game_record(game))
    fall = next(p for p in record["phases"] if p["name"] == "F1901M")
    state = game_record(game).phases[1].state  # F1901M
    assert state is not None
    orders, _ = parse_orders(TURNS[1], state.variant, state.phase.kind)
    result = adjudicate(state, orders)
    retreat = next(p for p in record["phases"] if p["name"] == "F1901R")
    table: dict[str, dict[str, list[str]]] = {}
    for unit, options in result.retreat_options.items():
        table.setdefault(unit.power.upper(), {})[f"{unit.kind} {str(unit.location).upper()}"] = sorted(
            str(o).upper() for o in options)
    retreat["state"]["retreats"] = table
    assert fall["name"] == "F1901M"
    return record


def phase(record: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in record["phases"] if p["name"] == name)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    out = argv[0]
    os.makedirs(out, exist_ok=True)
    game = played()
    control = saved_game(game)
    control["id"] = "control"
    records = {"control.json": control}
    bug = copy.deepcopy(control)
    bug["id"] = "retreat_bug"
    phase(bug, "F1901R")["state"]["retreats"]["FRANCE"]["A BUR"].append("RUH")
    records["retreat_bug.json"] = bug
    bug = copy.deepcopy(control)
    bug["id"] = "lost_retreat_option"
    phase(bug, "F1901R")["state"]["retreats"]["FRANCE"]["A BUR"].remove("PIC")
    records["lost_retreat_option.json"] = bug
    bug = copy.deepcopy(control)
    bug["id"] = "ownership_bug"
    phase(bug, "W1901A")["state"]["centers"]["GERMANY"].remove("HOL")
    records["ownership_bug.json"] = bug
    bug = write_game(game_record(played(TURNS_REMOVAL)))
    bug["id"] = "removal_not_made"
    pending = phase(bug, "W1901A")  # the record goes on to spring without the removal
    pending["name"] = pending["state"]["name"] = "S1902M"
    records["removal_not_made.json"] = bug
    bug = copy.deepcopy(control)
    bug["id"] = "code_bug"
    phase(bug, "F1901M")["results"] = {"F NTH": [], "A BUR": ["dislodged"], "A GAS": [], "A RUH": [],
                                       "A MUN": ["cut"], "F HOL": []}
    records["code_bug.json"] = bug
    for name, record in records.items():
        with open(os.path.join(out, name), "w", encoding="utf-8", newline="\n") as handle:
            json.dump(record, handle, indent=1, sort_keys=True)
            handle.write("\n")
    history = write_godip_game(game_record(game))
    with open(os.path.join(out, "game_1.txt"), "w", encoding="utf-8", newline="\n") as handle:
        handle.write(history)
    bugged = _unown(history, "hol", after="W1901A")
    with open(os.path.join(out, "game_2.txt"), "w", encoding="utf-8", newline="\n") as handle:
        handle.write(bugged)
    print(f"{len(records) + 2} records written to {out}", file=sys.stderr)
    return 0


def _unown(history: str, centre: str, after: str) -> str:
    """The godip history with `centre`'s ownership line dropped from the phases from the
    one whose header names `after` on."""
    lines, out, seen = history.splitlines(keepends=True), [], False
    for line in lines:
        seen = seen or _is_header(line, after)
        if seen and line.strip().endswith(f"supply {centre}"):
            continue
        out.append(line)
    assert seen, f"no phase {after} in the history"
    return "".join(out)


def _is_header(line: str, name: str) -> bool:
    """Is `line` the header of phase `name` (``W1901A``: ``PHASE 1901 Fall Adjustment``)?"""
    season = {"S": "Spring", "F": "Fall", "W": "Fall"}[name[0]]
    kind = {"M": "Movement", "R": "Retreat", "A": "Adjustment"}[name[-1]]
    return line.split() == ["PHASE", name[1:5], season, kind]


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
