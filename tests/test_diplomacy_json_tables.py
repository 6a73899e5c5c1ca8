"""The saved-game reader's tables kept across records (an archive run in one process):
games read with shared tables are read as each alone."""

from __future__ import annotations

import copy
import gzip
import json
from typing import Any

from dipsat.formats.diplomacy_json import DiplomacyTables, RecordedGame, read_game

from .conftest import CASES


def _summary(game: RecordedGame) -> list[tuple[object, ...]]:
    return [(p.name, str(p.error), p.state, p.orders, p.results, p.contradiction) for p in game.phases]


def _records(n: int) -> list[dict[str, Any]]:
    with gzip.open(CASES / "corpus" / "random_games.jsonl.gz", "rt", encoding="utf-8") as handle:
        return [json.loads(line) for _, line in zip(range(n), handle)]


def test_reading_many_records_with_shared_tables() -> None:
    records = _records(6)
    bad = copy.deepcopy(records[0])  # an order no map has: its phase is rejected, the text is not kept
    first = bad["phases"][0]["orders"]
    power = sorted(first)[0]
    first[power] = [first[power][0].rsplit(" ", 1)[0] + " XYZ"] + first[power][1:]
    swapped = copy.deepcopy(records[0])  # the same order texts given to another power
    orders = swapped["phases"][0]["orders"]
    names = sorted(orders)
    orders[names[0]], orders[names[1]] = orders[names[1]], orders[names[0]]
    texts = [bad, *records, swapped, bad]
    tables = DiplomacyTables()
    for round_ in range(2):
        for k, record in enumerate(texts):
            assert _summary(read_game(record, tables)) == _summary(read_game(record)), (round_, k)
    assert "XYZ" in str(read_game(bad, tables).phases[0].error)
