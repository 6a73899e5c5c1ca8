"""The saved-game reader's tables kept across records (an archive run in one process):
games read with shared tables are read as each alone."""

from __future__ import annotations

import copy
import dataclasses
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


def test_an_order_text_read_once_is_each_powers_own() -> None:
    """The tables keep what an order's text says whoever gives it: given by another power
    (in another record), it is that power's order; words outside the package's spelling
    (lower case, a capital outside A-Z) go to the notation's reader, as without tables."""
    record = _records(1)[0]
    record["phases"] = record["phases"][:2]
    orders = record["phases"][0]["orders"]
    first, second = sorted(orders)[:2]
    text = orders[first][0]
    other = copy.deepcopy(record)
    other["phases"][0]["orders"][second] = [text]
    other["phases"][0]["orders"][first] = []
    tables = DiplomacyTables()
    mine = read_game(record, tables).phases[0]
    theirs = read_game(other, tables).phases[0]
    given = [order for order, written in theirs.orders if written == text]
    assert [o.power for o in given] == [read_game(other).phases[0].orders[0][0].power] != [mine.orders[0][0].power]
    assert given[0] == dataclasses.replace(mine.orders[0][0], power=given[0].power)
    words = text.split()
    for spelt in (" ".join([words[0], words[1].lower(), *words[2:]]), " ".join([*words[:-1], "\u00c4" + words[-1][1:]])):
        odd = copy.deepcopy(record)
        odd["phases"][0]["orders"][first] = [spelt]
        assert _summary(read_game(odd, tables)) == _summary(read_game(odd)), spelt
    foreign = read_game(odd, tables).phases[0]  # the last: a capital outside A-Z
    assert foreign.error is not None and "\u00c4" in str(foreign.error)
