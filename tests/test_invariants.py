"""Invariants of every adjudicated phase, over random dense positions (hypothesis).

Under every rules profile and on both bundled maps: after any phase at most one unit
stands in each province, every unit is accounted for (moved, stayed, dislodged or
disbanded), a movement turn settled by constant folding gives what CP-SAT gives for its
model, and batch mode (:func:`dipsat.adjudicator.adjudicate_many`) gives the same results
as one phase at a time. The positions and orders come from
:mod:`dipsat.runners.invariants` (``scripts/fuzz.py`` runs the same check for longer).
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dipsat
from dipsat.movement import driver
from dipsat.runners.invariants import batch_problems, folding_problems, random_phases
from dipsat.rules import PROFILES, Rules

from .conftest import case_position, datc_case

VARIANTS = [dipsat.load_variant("standard"), dipsat.load_variant("modern")]


@pytest.mark.slow
@pytest.mark.parametrize("profile", sorted(PROFILES))
@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_every_phase_keeps_the_invariants(profile: str, seed: int) -> None:
    """About 900 positions per profile (300 dense movement phases, then their retreats and
    adjustments, and random retreat and adjustment positions), each seeded."""
    items = random_phases(random.Random(seed), VARIANTS, Rules.profile(profile))
    problems = batch_problems(items)
    assert not problems, f"seed {seed}: {problems}"


def test_a_folding_that_departs_from_the_model_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check is proven by the bug it catches: DATC 6.F.19 folds when built again
    (driver.folded_again); with one folded decision read wrong, the CP-SAT solution of the
    same model tells it."""
    state, orders, rules = case_position(datc_case("6.F.19"))
    assert not folding_problems(state, orders, rules)
    folded = driver._folded

    def flipped(enc: driver.Encoding) -> driver.Solved:
        solved = folded(enc)
        key = max(solved.values)
        return dataclasses.replace(solved, values={**solved.values, key: not solved.values[key]})

    monkeypatch.setattr(driver, "_folded", flipped)
    assert folding_problems(state, orders, rules)


def test_an_identical_copy_of_an_order_shares_its_outcome() -> None:
    """Found by the property test above (seed 1690, 1971): the second copy of a bounced move
    was reported as succeeding."""
    variant = VARIANTS[0]
    state = variant.initial_state().with_(units=tuple(
        u for u in variant.initial_state().units if u.province in ("par", "mun")))
    text = "France: A par - bur\nGermany: A mun - bur\nFrance: A par - bur"
    orders, errors = dipsat.notation.parse_orders(text, variant)
    assert not errors
    results = [r.status for r in dipsat.adjudicate(state, orders).results]
    assert results == ["fails (bounced)", "fails (bounced)", "fails (bounced)"]
