"""Invariants of every adjudicated phase, over random dense positions (hypothesis).

Under every rules profile and on both bundled maps: after any phase at most one unit
stands in each province, every unit is accounted for (moved, stayed, dislodged or
disbanded), and batch mode (:func:`dipsat.adjudicator.adjudicate_many`) gives the
same results as one phase at a time. The positions and orders come from
:mod:`dipsat.invariants` (``scripts/fuzz.py`` runs the same check for longer).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dipsat
from dipsat.adjudicator import adjudicate_many
from dipsat.board import PhaseKind
from dipsat.invariants import phase_problems, random_orders, random_state
from dipsat.rules import PROFILES, Rules

VARIANTS = (dipsat.load_variant("standard"), dipsat.load_variant("modern"))


def _play(rng: random.Random, rules: Rules) -> list[tuple[dipsat.State, list, Rules]]:
    """A movement phase on each map, played on through its retreats and adjustments
    (random orders each time), and a random retreat and adjustment position."""
    items = []
    for variant in VARIANTS:
        state = random_state(rng, variant, PhaseKind.MOVEMENT)
        for _ in range(3):
            orders = random_orders(rng, state)
            items.append((state, orders, rules))
            state = dipsat.adjudicate(state, orders, rules).after
            if state.phase.kind is PhaseKind.MOVEMENT:
                break
    for kind in (PhaseKind.RETREAT, PhaseKind.ADJUSTMENT):
        state = random_state(rng, rng.choice(VARIANTS), kind)
        items.append((state, random_orders(rng, state), rules))
    return items


@pytest.mark.parametrize("profile", sorted(PROFILES))
@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_every_phase_keeps_the_invariants(profile: str, seed: int) -> None:
    rules = Rules.profile(profile)
    items = _play(random.Random(seed), rules)
    one_by_one = [dipsat.adjudicate(state, orders, r) for state, orders, r in items]
    for (state, orders, _), result in zip(items, one_by_one):
        problems = phase_problems(result, orders)
        assert not problems, (f"seed {seed}, {state.variant.name} {state.phase} under {rules}: {problems}\n"
                              + "\n".join(map(str, orders)))
    assert adjudicate_many(items) == one_by_one, f"seed {seed}: batch mode differs from one by one"
