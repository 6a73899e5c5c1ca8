"""The mutation test of `dipsat validate` (issue 18 item 7; `scripts/mutate.py` runs more):
each kind of adjudicator bug (`dipsat.runners.mutations.BUGS`) injected into a game of our
own making, the later positions as the buggy program would have recorded them, written as
a godip history, a saved game of the `diplomacy` package without per-order results (as
webDiplomacy exports are) and with them, and a case file. Every bug must come out as a disagreement of
the bugged phase naming its unit, centre or order; the same games without a bug agree."""

from __future__ import annotations

import pytest

from dipsat.runners.mutations import BUGS, FORMATS, Mutant, clean, judge, judge_all, play, verdict

PHASES = 10

def _first_mutant(bug: str) -> Mutant:
    for seed in range(40):
        mutant = play(seed, PHASES, bug)
        if mutant is not None:
            return mutant
    raise AssertionError(f"{bug}: no game of 40 where it can happen")


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_every_bug_is_a_disagreement_of_the_bugged_phase(bug: str) -> None:
    mutant = _first_mutant(bug)
    for fmt in FORMATS:
        phases = judge(mutant, fmt).phases
        bugged = next(p for p in phases if p.index == mutant.at)
        where = f"{bug} [{fmt}] {mutant.game.id} {bugged.name}: {mutant.what}"
        assert verdict(mutant, phases) == "found", (where, bugged)
        # the phases before it agree: the bug is found where it happened
        assert clean([p for p in phases if p.index < (mutant.at or 0)]), where


@pytest.mark.parametrize("seed", [0, 1])
def test_the_unmutated_games_agree_in_every_format(seed: str) -> None:
    control = play(int(seed), PHASES)
    assert control is not None and control.at is None
    for fmt in FORMATS:
        phases = judge(control, fmt).phases
        assert clean(phases), (fmt, [(p.name, p.status, p.differences) for p in phases
                                     if p.status not in ("agreed", "final")])


def test_a_bug_changes_the_record_from_the_bugged_phase_on() -> None:
    """The later positions are the buggy program's: the record differs from the control's
    from the phase after the bugged one, and not before."""
    mutant = _first_mutant("unit-lost")
    control = play(int(mutant.game.id.rsplit("-", 1)[1]), PHASES)
    assert control is not None and mutant.at is not None
    same = [a.state == b.state for a, b in zip(mutant.game.phases, control.game.phases)]
    assert all(same[:mutant.at + 1]) and not same[mutant.at + 1]


def test_judged_as_one_archive_every_bug_is_found_and_the_controls_are_clean() -> None:
    """As `dipsat validate` judges an archive: the games of one format (every bug's and two
    controls) together, the readings decided from all of them: no bug is explained away by
    a reading its phase alone would suggest (in a case file neither: its cases are the
    archive's phases)."""
    mutants = [_first_mutant(bug) for bug in sorted(BUGS)] + [play(seed, PHASES) for seed in (0, 1)]
    reports = judge_all([m for m in mutants if m is not None])
    for mutant in mutants:
        assert mutant is not None
        for fmt in FORMATS:
            phases = reports[mutant.game.id, fmt]
            if mutant.bug is None:
                assert clean(phases), (fmt, mutant.game.id)
            else:
                assert verdict(mutant, phases) == "found", (mutant.bug, fmt, mutant.what)
