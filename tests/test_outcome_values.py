"""The outcome values themselves: a closed set with a JSON kind each, facts read once when
first asked for, pickled with what was read."""

from __future__ import annotations

import pickle

from dipsat.formats.outcome_json import KINDS, outcome_json
from dipsat.board import Location, Unit, UnitKind
from dipsat.facts import AttackNote, MoveRef, NoCut
from dipsat.outcomes import (OUTCOME_TYPES, UNREAD, Bounced, Cut, Given, Holds, Later, Moves, NoPath, Opposition,
                             SupportDislodged)


def test_every_outcome_class_has_exactly_one_json_kind() -> None:
    assert set(KINDS) == set(OUTCOME_TYPES)
    assert KINDS[Moves] == "moves" and KINDS[Bounced] == "bounced"


def test_a_later_fact_is_read_once_when_first_asked_for() -> None:
    reads: list[int] = []

    def culprits() -> tuple[Opposition, ...]:
        reads.append(1)
        return (Opposition(None, own_unit=True),)

    outcome = Bounced(None, Later(culprits))
    assert reads == []  # a result code needs none of it
    assert outcome.code is not None and str(outcome.code) == "bounced"
    assert outcome.by == (Opposition(None, own_unit=True),)
    assert outcome.by == (Opposition(None, own_unit=True),)
    assert reads == [1]


def test_an_outcome_pickles_with_its_facts_read_and_compares_equal() -> None:
    outcome = Bounced(None, Later(lambda: (Opposition(None, own_unit=True),)))
    back = pickle.loads(pickle.dumps(outcome))
    assert back == outcome and back.by == outcome.by
    assert outcome_json(back)["by"] == [{"strength": None, "unit": None, "order": None, "head_to_head": False,
                                         "own_unit": True}]


class _Reader:
    """A turn's reader (as :class:`dipsat.movement.resolution.Resolution` is), counting its reads."""

    def __init__(self) -> None:
        self.reads: list[tuple[str, int]] = []

    def move_facts(self, m: int) -> None:  # (no MoveFacts: what an outcome keeps, not what it is)
        self.reads.append(("facts", m))

    def culprits(self, m: int) -> tuple[Opposition, ...]:
        self.reads.append(("culprits", m))
        return (Opposition(None, own_unit=True),)

    def hold_strength(self, u: int) -> None:
        self.reads.append(("hold", u))

    def supported_move(self, s: int) -> MoveRef:
        self.reads.append(("supported", s))
        return _REF

    def attack_notes(self, s: int) -> tuple[AttackNote, ...]:
        self.reads.append(("notes", s))
        return (AttackNote(_REF, NoCut.SAME_POWER),)


_REF = MoveRef(Unit("france", UnitKind.ARMY, Location("par")), "bur")


def test_an_outcome_read_by_its_turn_is_the_outcome_made_with_its_values() -> None:
    """Moves, Bounced, NoPath and Holds read their facts through the turn's reader, by index,
    with no cell of their own: read once, and equal, hashed and pickled as the same outcome
    made with the values."""
    reader = _Reader()
    lazy = [Moves(UNREAD, reader, 2), Bounced(UNREAD, UNREAD, reader, 3), NoPath(UNREAD, reader, 4),
            Holds(UNREAD, reader, 5)]
    made = [Moves(None), Bounced(None, (Opposition(None, own_unit=True),)), NoPath(None), Holds(None)]
    assert reader.reads == [] and [o.code for o in lazy] == [o.code for o in made]  # a result code reads nothing
    assert lazy == made and [hash(o) for o in lazy] == [hash(o) for o in made]
    assert sorted(reader.reads) == [("culprits", 3), ("facts", 2), ("facts", 3), ("facts", 4), ("hold", 5)]
    assert lazy == made and lazy[1].by == made[1].by
    assert len(reader.reads) == 5  # read once each
    back = [pickle.loads(pickle.dumps(o)) for o in lazy]
    assert back == made and all(getattr(o, "_reader") is None for o in back)  # no reader crosses processes
    assert Moves(UNREAD, _Reader(), 2) != Bounced(UNREAD, UNREAD, _Reader(), 2)


def test_a_support_outcome_read_by_its_turn_is_the_outcome_made_with_its_values() -> None:
    """Given, Cut and SupportDislodged read the supported move's name and the attack notes
    through the turn's reader, by the support's index: read once, only when asked for, and
    equal, hashed and pickled as the same outcome made with the values."""
    reader = _Reader()
    notes = (AttackNote(_REF, NoCut.SAME_POWER),)
    lazy = [Given(UNREAD, None, None, (), None, UNREAD, reader, 1), Given(None, "par", None, (), None, (), reader, 2),
            Cut((), UNREAD, reader, 3), SupportDislodged(None, True, UNREAD, reader, 4)]
    made = [Given(_REF, None, None, (), None, notes), Given(None, "par"), Cut((), notes),
            SupportDislodged(None, True, notes)]
    assert reader.reads == [] and [o.code for o in lazy] == [o.code for o in made]
    assert lazy == made and [hash(o) for o in lazy] == [hash(o) for o in made]
    assert sorted(reader.reads) == [("notes", 1), ("notes", 3), ("notes", 4), ("supported", 1)]
    assert lazy[0].supported == _REF and lazy[2].attacks == notes and len(reader.reads) == 4  # read once each
    back = [pickle.loads(pickle.dumps(o)) for o in lazy]
    assert back == made and all(getattr(o, "_reader") is None for o in back)
    assert Given(None, "par") != Given(None, "mun") and Cut((), ()) != SupportDislodged(None, False, ())
