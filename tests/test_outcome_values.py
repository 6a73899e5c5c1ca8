"""The outcome values themselves: a closed set with a JSON kind each, facts read once and
never written into the frozen outcome, pickled with what was read."""

from __future__ import annotations

import pickle

from dipsat.formats.outcome_json import KINDS, outcome_json
from dipsat.outcomes import OUTCOME_TYPES, Bounced, Later, Moves, Opposition


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
