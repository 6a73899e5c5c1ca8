"""The record-against-itself check (dipsat.formats.records.position_contradiction): its fast
path, told from the provinces the orders name, says what the full check says, unit by unit,
on the corpus's positions as both readers make them and on positions changed so that many
contradict their phase (units moved, removed, added, doubled, made anew; centres changed;
orders dropped or sent elsewhere)."""

from __future__ import annotations

import dataclasses
import gzip
import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache

import pytest

from dipsat.board import Location, Unit, UnitKind
from dipsat.formats import records
from dipsat.formats.diplomacy_json import read_game
from dipsat.formats.godip import GodipTables, read_godip_game, write_godip_game
from dipsat.formats.records import RecordedGame, RecordedPhase, position_contradiction
from dipsat.orders import Move, Retreat
from dipsat.state import Dislodged, State

from .conftest import CASES

_Pair = tuple[RecordedPhase, RecordedPhase]


@cache
def _games() -> tuple[RecordedGame, ...]:
    """The corpus's games as saved games, and as godip histories read with shared tables (a
    unit of one text is one object across phases and games, as in an archive run)."""
    with gzip.open(CASES / "corpus" / "random_games.jsonl.gz", "rt", encoding="utf-8") as handle:
        saved = [read_game(json.loads(line)) for _, line in zip(range(120), handle)]
    tables = GodipTables()
    return (*saved, *(read_godip_game(write_godip_game(game), f"game_{k}.txt", tables=tables)
                      for k, game in enumerate(saved)))


def _pairs() -> Iterator[_Pair]:
    for game in _games():
        for prev, nxt in zip(game.phases, game.phases[1:]):
            if prev.state is not None and nxt.state is not None and prev.phase is not None:
                yield prev, nxt


def _full(prev: RecordedPhase, nxt: RecordedPhase, monkeypatch: pytest.MonkeyPatch) -> str | None:
    with monkeypatch.context() as patched:
        patched.setattr(records, "_units_follow", lambda *args: False)
        return position_contradiction(prev, nxt)


def _copy(unit: Unit) -> Unit:
    """An equal unit, another object (as another reader, or a state made anew, has it)."""
    return Unit(unit.power, unit.kind, Location(unit.location.province, unit.location.coast))


def _changed(prev: RecordedPhase, nxt: RecordedPhase, rng: random.Random) -> _Pair:
    """The pair with one thing changed: the position after, the one before, or the orders."""
    before, after = prev.state, nxt.state
    assert before is not None and after is not None
    provinces = sorted(after.map.provinces)
    powers = [p.name for p in after.variant.powers]

    def anywhere(unit: Unit) -> Unit:
        return Unit(unit.power, unit.kind, Location(rng.choice(provinces)))

    def units(state: State, change: Callable[[list[Unit]], None]) -> State:
        changed = list(state.units)
        change(changed)
        return state.with_(units=tuple(changed))

    def one(units: list[Unit]) -> int:
        return rng.randrange(len(units)) if units else 0

    def edit(units: list[Unit], make: Callable[[Unit], Unit]) -> None:
        if units:
            k = one(units)
            units[k] = make(units[k])

    edits: list[Callable[[State], State]] = [
        lambda s: units(s, lambda us: us.pop(one(us)) if us else None),
        lambda s: units(s, lambda us: edit(us, anywhere)),
        lambda s: units(s, lambda us: us.append(anywhere(rng.choice(us))) if us else None),
        lambda s: units(s, lambda us: us.append(rng.choice(us)) if us else None),  # one unit twice
        lambda s: units(s, lambda us: us.append(_copy(rng.choice(us))) if us else None),  # two in one province
        lambda s: units(s, lambda us: edit(us, lambda u: Unit(rng.choice(powers), u.kind, u.location))),
        lambda s: units(s, lambda us: edit(us, lambda u: Unit(u.power, UnitKind.FLEET if u.kind is UnitKind.ARMY
                                                               else UnitKind.ARMY, Location(u.province)))),
        lambda s: units(s, lambda us: edit(us, _copy)),  # no contradiction: an equal unit
        lambda s: units(s, lambda us: us.__setitem__(slice(None), map(_copy, us))),  # all made anew
        lambda s: s.with_(dislodged=(*s.dislodged, Dislodged(anywhere(rng.choice(s.units))))) if s.units else s,
        lambda s: s.with_(dislodged=()),
        lambda s: s.with_(owners=tuple((c, rng.choice(powers)) if rng.random() < 0.2 else (c, p)
                                       for c, p in s.owners)),
        lambda s: s.with_(owners=s.owners[1:]),
    ]
    where = rng.random()
    if where < 0.55:
        return prev, dataclasses.replace(nxt, state=rng.choice(edits)(after))
    if where < 0.75:
        return dataclasses.replace(prev, state=rng.choice(edits)(before)), nxt
    orders = list(prev.orders)
    if orders:
        k = one(orders)
        order, text = orders[k]
        if rng.random() < 0.5 or not isinstance(order, (Move, Retreat)):
            del orders[k]
        else:  # ordered elsewhere
            orders[k] = dataclasses.replace(order, dest=Location(rng.choice(provinces))), text
    return dataclasses.replace(prev, orders=orders), nxt


def test_the_corpus_as_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: Counter[tuple[str, bool]] = Counter()
    for prev, nxt in _pairs():
        assert nxt.state is not None  # the godip reader gives each state its index: the one it would make
        assert nxt.state.units_by_province == {unit.province: unit for unit in nxt.state.units}
        assert position_contradiction(prev, nxt) == _full(prev, nxt, monkeypatch), (prev.name, nxt.name)
        assert prev.phase is not None and prev.state is not None and nxt.state is not None
        seen[prev.phase.kind.name, records._units_follow(prev.phase.kind, prev.state, nxt.state, prev.orders)] += 1
    # the fast path answers for nearly all of them
    assert all(seen[kind, True] > 20 * seen[kind, False] for kind in ("MOVEMENT", "RETREAT", "ADJUSTMENT")), seen


def test_positions_changed_to_contradict(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(22)
    seen: Counter[tuple[str, str]] = Counter()
    for prev, nxt in _pairs():
        for _ in range(3):
            changed_prev, changed_nxt = _changed(prev, nxt, rng)
            fast = position_contradiction(changed_prev, changed_nxt)
            assert fast == _full(changed_prev, changed_nxt, monkeypatch), (prev.name, nxt.name, fast)
            assert prev.phase is not None and changed_prev.state is not None and changed_nxt.state is not None
            problems = records._units_problems(prev.phase.kind, changed_prev.state, changed_nxt.state,
                                               changed_prev.orders)
            follows = records._units_follow(prev.phase.kind, changed_prev.state, changed_nxt.state,
                                            changed_prev.orders)
            assert not (follows and problems), (prev.name, problems)
            seen[prev.phase.kind.name, "fast" if follows else "contradicts" if problems else "unsure"] += 1
    # each way taken often, in each kind of phase
    assert min(seen[kind, way] for kind in ("MOVEMENT", "RETREAT", "ADJUSTMENT")
               for way in ("fast", "contradicts", "unsure")) >= 20, seen
