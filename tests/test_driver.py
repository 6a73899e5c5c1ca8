"""The solve driver's CP-SAT hygiene: enforcement literals made with each constraint,
enumeration per independent part with a reported cap, every solver status handled."""

from __future__ import annotations

import io
import pickle

import pytest
from ortools.sat.python import cp_model, cp_model_helper

import dipsat
from dipsat.movement import cpsat, driver
from dipsat.printers.alternatives import alternatives
from dipsat.runners.cases import build_position, case_rules
from dipsat.encodings import Encoding
from dipsat.encodings import phase_model
from dipsat.encodings.decisions import DISLODGED, MOVE
from dipsat.encodings.phase_model import PhaseModel
from dipsat.errors import SolverError
from dipsat.formats.casefile import read_cases
from dipsat.movement import prescan
from dipsat.printers.text import render_alternatives

from .conftest import CASES, case_position, datc_case

# Seven circular movements far enough apart that no order of one touches another:
# each has two consistent resolutions (all three moves succeed, or all fail).
SEVEN_RINGS = """VARIANT_ALL Standard
CASE seven.rings Seven independent circular movements
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
\tEngland: A wal
\tEngland: A lon
\tEngland: A yor
\tFrance: A par
\tFrance: A pic
\tFrance: A bur
\tGermany: A mun
\tGermany: A ruh
\tGermany: A kie
\tAustria: A vie
\tAustria: A boh
\tAustria: A gal
\tRussia: A mos
\tRussia: A stp
\tRussia: A lvn
\tItaly: A rom
\tItaly: A nap
\tItaly: A apu
\tTurkey: A con
\tTurkey: A ank
\tTurkey: A smy
ORDERS
\tEngland: A wal - lon
\tEngland: A lon - yor
\tEngland: A yor - wal
\tFrance: A par - pic
\tFrance: A pic - bur
\tFrance: A bur - par
\tGermany: A mun - ruh
\tGermany: A ruh - kie
\tGermany: A kie - mun
\tAustria: A vie - boh
\tAustria: A boh - gal
\tAustria: A gal - vie
\tRussia: A mos - stp
\tRussia: A stp - lvn
\tRussia: A lvn - mos
\tItaly: A rom - nap
\tItaly: A nap - apu
\tItaly: A apu - rom
\tTurkey: A con - ank
\tTurkey: A ank - smy
\tTurkey: A smy - con
END
"""


def _seven_rings() -> tuple[dipsat.State, list[dipsat.Order], dipsat.Rules]:
    cases, errors = read_cases(io.StringIO(SEVEN_RINGS), "seven_rings")
    assert not errors
    rules = case_rules(cases[0])
    state, orders, problems = build_position(cases[0], rules)
    assert not problems
    return state, orders, rules


def _datc(case_id: str) -> tuple[dipsat.State, list[dipsat.Order], dipsat.Rules]:
    return case_position(datc_case(case_id))


def test_seven_independent_rings_have_128_resolutions_counted_part_by_part():
    state, orders, rules = _seven_rings()
    result = dipsat.adjudicate(state, orders, rules)
    assert result.resolutions == 128 and not result.resolutions_capped
    solved = result.trace.solved
    assert [len(part) for part in solved.resolutions.parts] == [2] * 7  # never 128 whole-board solutions
    # every combination is a whole-board resolution, made on demand
    assert len({tuple(sorted(r.items())) for r in solved.resolutions}) == 128
    assert len(result.backup_rules) == 7 and all(r.startswith("circular movement") for r in result.backup_rules)
    assert all(r.succeeded for r in result.results)  # DATC 5.B.9: each circular movement succeeds
    assert render_alternatives(result).startswith("Consistent resolutions: 128\n")


def test_the_cap_is_reported_not_silent(monkeypatch):
    monkeypatch.setattr(driver, "MAX_RESOLUTIONS", 1)
    state, orders, rules = _seven_rings()
    result = dipsat.adjudicate(state, orders, rules)
    assert result.resolutions == 1 and result.resolutions_capped
    assert all(r.succeeded for r in result.results)  # the cap limits what is listed, not the result
    alt = alternatives(result)
    assert alt.capped and render_alternatives(result).startswith("Consistent resolutions: at least 1")


def test_a_cycle_too_big_to_settle_is_a_solver_error(monkeypatch):
    monkeypatch.setattr(driver, "CYCLE_LIMIT", 1)
    state, orders, rules = _datc("6.C.1")
    with pytest.raises(SolverError, match="more than 1 consistent resolutions"):
        dipsat.adjudicate(state, orders, rules)


def test_a_time_limit_without_an_answer_is_a_solver_error(monkeypatch):
    monkeypatch.setattr(cpsat, "TIME_LIMIT", 1e-9)
    state, orders, rules = _datc("6.C.1")
    with pytest.raises(SolverError, match="time limit"):
        dipsat.adjudicate(state, orders, rules)


def test_an_invalid_model_is_a_solver_error():
    model = PhaseModel()
    x = model.new_int_var(0, 1, "x")
    model.add(x == 1).only_enforce_if(x)
    model.proto.constraints[0].enforcement_literal.append(99)  # a variable that does not exist
    with pytest.raises(SolverError, match="invalid"):
        driver._solve(model, "test model")


def test_an_infeasible_acyclic_model_is_a_solver_error():
    model = PhaseModel()
    x = model.new_bool_var("x")
    model.add(x == 1)
    model.add(x == 0)
    with pytest.raises(SolverError, match="no solution"):
        driver._solve(model, "test model")


@pytest.mark.parametrize("case_id", ["6.C.1", "6.F.16", "6.F.24", "6.E.1"])
def test_every_constraint_of_a_paradox_core_model_is_guarded(case_id):
    state, orders, rules = _datc(case_id)
    problem = prescan(state, orders, rules).problem
    enc = Encoding(problem, rules.model, assumptions=True)
    guards = {lit.index for lit in enc.assumed.values()}
    constraints = enc.model.proto.constraints
    assert constraints and all(guards & set(c.enforcement_literal) for c in constraints)


def test_batch_mode_solves_a_paradox_on_its_own():
    from dipsat.adjudicator import adjudicate_many

    items = [_datc("6.F.16"), _datc("6.A.11"), _datc("6.C.1")]
    batch = adjudicate_many(items)
    alone = [dipsat.adjudicate(*item) for item in items]
    assert [r.results for r in batch] == [r.results for r in alone]
    assert [r.resolutions for r in batch] == [0, None, 2]


def test_phase_model_builds_the_proto_cp_model_builds():
    """PhaseModel stands on private methods of OR-Tools' extension (see its module): pin
    that it builds, call by call, the very proto ``cp_model.CpModel`` builds, for every
    call dipsat makes, and that the solver reads it alike. If this fails after an OR-Tools
    upgrade, adapt PhaseModel (or let LEAN fall back to CpModel)."""
    full_class, full_linear = phase_model._full_model()  # the fallback where LEAN is false
    plain, ours, full = cp_model.CpModel(), PhaseModel(), full_class()
    assert phase_model.LEAN == hasattr(cp_model_helper, "CpBaseModel")  # 9.15 builds models in the extension
    assert full_linear is cp_model.LinearExpr and isinstance(full, cp_model.CpModel)
    for model in (ours, full):
        assert not any(name[0].isupper() for name in vars(model))  # none of 9.15's per-instance CamelCase aliases
    for model in (plain, ours, full):
        a, b = model.new_bool_var("a"), model.new_bool_var("b")
        n = model.new_int_var(0, 3, "n")
        model.add_bool_or([a, b.Not()]).only_enforce_if(a)
        model.add_bool_and([a, b]).only_enforce_if([b.Not()])
        model.add_implication(a, b)
        model.add(phase_model.LinearExpr.weighted_sum([a, b, n], [1, 2, 1]) + 1 <= 4)
        model.add(a + b == 1)
        model.add(True)
        model.add(False)
        model.add_assumptions([a, b.Not()])
    assert str(plain.proto) == str(ours.proto) == str(full.proto)
    plain.clear_assumptions()
    ours.clear_assumptions()
    assert str(plain.proto) == str(ours.proto) and not ours.proto.assumptions
    assert ours.validate() == plain.validate() == ""
    with pytest.raises(TypeError):
        ours.add("a == b")
    with pytest.raises(ValueError):
        ours.get_int_var_from_proto_index(len(ours.proto.variables))
    with pytest.raises(TypeError):
        ours.get_bool_var_from_proto_index(2)  # n: not boolean
    assert ours.get_bool_var_from_proto_index(1).index == 1


def test_cpsat_solves_enumerates_and_finds_cores():
    """The solver calls (:mod:`dipsat.movement.cpsat`, on the extension's SolveWrapper)
    give what ``cp_model.CpSolver`` gives on the same model."""
    model = PhaseModel()
    a, b, c = (model.new_bool_var(x) for x in "abc")
    model.add(a + b + c == 2)
    model.add_implication(a, b)
    solution = cpsat.solve(model, "test")
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(model) == cp_model.OPTIMAL
    assert sum(solution) == 2 and (not solution[0] or solution[1])
    seen: list[list[int]] = []
    cpsat.enumerate_solutions(model, lambda s: seen.append(s) or True, "test")
    assert sorted(seen) == [[0, 1, 1], [1, 1, 0]]
    first: list[list[int]] = []
    cpsat.enumerate_solutions(model, lambda s: first.append(s) and False, "test")  # stopped after one
    assert len(first) == 1 and first[0] in seen
    assert cpsat.infeasible_core(model, [a, b], "test") is None  # a, b: c false, fine
    core = cpsat.infeasible_core(model, [a, b.Not()], "test")
    assert core and core <= {a.index, b.Not().index}
    model.add(a + b + c == 4)
    with pytest.raises(SolverError, match="no solution"):
        cpsat.solve(model, "test")


def _movement_problems():
    """Every movement turn of the bundled cases and of the bundled corpus: (name, problem, rules)."""
    from dipsat.board import PhaseKind
    from dipsat.runners.bench import corpus_phases, corpus_texts

    from .test_rereading import MOVEMENT  # the bundled cases' movement turns

    for case_id, state, orders, rules in MOVEMENT:
        yield case_id, prescan(state, orders, rules).problem, rules
    corpus = CASES / "corpus" / "random_games.jsonl.gz"
    for phase in corpus_phases(corpus_texts([str(corpus)]), dipsat.Rules.profile("2000")):
        if phase.kind == str(PhaseKind.MOVEMENT):
            yield str(phase.key), prescan(phase.state, phase.orders, phase.rules).problem, phase.rules


@pytest.mark.slow
def test_skipping_the_solver_for_a_folded_model_changes_no_result(monkeypatch):
    # The condition for the shortcut: a model whose constant folding fixed every decision
    # is not solved; every bundled case and corpus turn gives the same values, strengths, calls,
    # resolutions and backup rules with and without it, and the shortcut is taken.
    # A turn whose first building left decisions open with no cycle among them folds when
    # built again with what that building fixed (driver.folded_again): every such turn does.
    # Within a turn with a cycle, a model enumerated that folded (the board under a backup
    # rule, most often) is not handed to CP-SAT either, nor a cycle alone in its part, whose
    # resolutions the part's enumeration has given already (204 enumerations, 69 of them
    # searched).
    enumerations = {True: 0, False: 0}
    enumerate_solutions = cpsat.enumerate_solutions
    shortcut = True

    def counted(*args, **kwargs):
        enumerations[shortcut] += 1
        return enumerate_solutions(*args, **kwargs)

    monkeypatch.setattr(cpsat, "enumerate_solutions", counted)
    turns = folded = again = 0
    for name, problem, rules in _movement_problems():
        shortcut = True
        fast = driver.solve(problem, rules)
        shortcut = False
        assert fast == driver.solve(problem, rules, shortcut=False), name
        turns += 1
        enc = driver.Encoding(problem, rules.model)
        if driver.folded(enc):
            folded += 1
        elif not driver.has_cycle(enc.deps):
            assert driver.folded_again(problem, rules.model, enc) is not None, name
            again += 1
    assert turns > 1000 and 0 < folded < turns and again > 50
    assert 50 < enumerations[True] < enumerations[False] - 100


def test_a_cycle_alone_in_its_part_is_enumerated_once(monkeypatch):
    # The backup rule reads a cycle's resolutions (DATC 5.B.9). Where the cycle is the only one
    # of its part, those are the part's, enumerated already: DATC 6.C.1's three armies in a
    # ring (the whole board's one part), a convoy paradox settled by Szykman (6.F.14) and
    # seven rings apart (seven parts). With the shortcut each part is searched once; without
    # it, the cycle again, then the board under the rule. The same answer and calls.
    enumerate_solutions = cpsat.enumerate_solutions
    searches: list[str] = []
    monkeypatch.setattr(cpsat, "enumerate_solutions", lambda model, keep, what, **kwargs: searches.append(what)
                        or enumerate_solutions(model, keep, what, **kwargs))
    for state, orders, rules in (_datc("6.C.1"), _datc("6.F.14"), _seven_rings()):
        problem = prescan(state, orders, rules).problem
        searches.clear()
        fast = driver.solve(problem, rules)
        parts = len(fast.resolutions.parts)
        assert len(searches) == parts and len(fast.backups) == parts
        searches.clear()
        assert driver.solve(problem, rules, shortcut=False) == fast and len(searches) > 2 * parts


def test_a_cycle_is_enumerated_again_unless_its_part_gave_all_of_its_resolutions():
    # driver._same_resolutions: only where the part holds that one cycle, and its enumeration
    # was neither capped nor past the cycle's own limit, does it stand for the cycle's own.
    ring = [(MOVE, 0), (MOVE, 1)]
    part = sorted(ring + [(DISLODGED, 0)])
    two = driver._Found([({}, {}), ({}, {})], part, False)
    assert driver._same_resolutions([ring], part, two)
    assert not driver._same_resolutions([ring, [(MOVE, 2), (MOVE, 3)]], part, two)  # another cycle
    assert not driver._same_resolutions([ring + [(MOVE, 2)]], part, two)  # a cycle reaching outside the part
    assert not driver._same_resolutions([ring], part, driver._Found(two.solutions, part, True))  # capped
    many = driver._Found([({}, {})] * (driver.CYCLE_LIMIT + 1), part, False)
    assert not driver._same_resolutions([ring], part, many)


def _thorough(monkeypatch) -> None:
    """Every solver call with the parameters of a search that may steer the answer."""
    full = cpsat._parameters
    monkeypatch.setattr(cpsat, "_parameters", lambda all_solutions=False, search_free=False: full(
        all_solutions=all_solutions))


@pytest.mark.slow
def test_the_search_free_parameters_change_no_result(monkeypatch):
    # A model with one solution, and an enumeration that sees every solution, give the same
    # answer whatever the search: the driver solves them without CP-SAT's search aids
    # (cpsat._parameters). Every bundled case and corpus turn CP-SAT settles gives the same
    # values, strengths, calls, resolutions and backup rules with the aids as without.
    unfolded = [(name, problem, rules) for name, problem, rules in _movement_problems()
                if not driver.folded(driver.Encoding(problem, rules.model))]
    light = [driver.solve(problem, rules, shortcut=False) for _, problem, rules in unfolded]
    _thorough(monkeypatch)
    for (name, problem, rules), solved in zip(unfolded, light):
        assert solved == driver.solve(problem, rules, shortcut=False), name
    assert len(unfolded) > 100 and sum(solved.resolutions is not None for solved in light) > 30


def test_an_enumeration_stopped_at_its_cap_is_searched_again_with_every_aid(monkeypatch):
    # Which solutions a capped enumeration keeps depends on the search: the driver searches
    # again with the aids, so the kept ones are those it has always kept.
    state, orders, rules = _seven_rings()
    enc = Encoding(prescan(state, orders, rules).problem, rules.model)
    part = sorted(enc.deps)
    searches = []
    enumerate_solutions = cpsat.enumerate_solutions
    monkeypatch.setattr(cpsat, "enumerate_solutions", lambda *args, **kwargs: searches.append(
        kwargs.get("search_free", False)) or enumerate_solutions(*args, **kwargs))
    found = driver._enumerate(enc, part, limit=5)
    assert found.capped and len(found.solutions) == 5 and searches == [True, False]
    complete = driver._enumerate(enc, part, limit=200)
    assert not complete.capped and len(complete.solutions) == 128 and searches[2:] == [True]
    _thorough(monkeypatch)
    assert driver._enumerate(enc, part, limit=5) == found


def test_a_turn_left_open_without_a_cycle_folds_when_built_again(monkeypatch):
    # DATC 6.F.19: the army from Tunis has two convoy routes, one through the Tyrrhenian Sea,
    # which Rome attacks with the support of Naples, which the army attacks. The first
    # building reads a convoy and a dislodgement while they are being defined, as literals:
    # they stay open though what they read then folds, and there is no cycle among them.
    # Built again with the decisions that building fixed, the turn folds: no CP-SAT call,
    # and the result CP-SAT gives for the first model.
    state, orders, rules = _datc("6.F.19")
    problem = prescan(state, orders, rules).problem
    enc = Encoding(problem, rules.model)
    assert not driver.folded(enc) and not driver.has_cycle(enc.deps)
    again = driver.folded_again(problem, rules.model, enc)
    assert again is not None and driver.folded(again)
    assert enc.known.items() < again.known.items() and again.known.keys() == enc.values([0] * len(enc.lits)).keys()
    calls: list[str] = []
    solve_model = cpsat.solve
    monkeypatch.setattr(cpsat, "solve", lambda model, what: calls.append(what) or solve_model(model, what))
    solved = driver.solve(problem, rules)
    assert not calls and solved.calls == 1 and solved.resolutions is None
    assert solved == driver.solve(problem, rules, shortcut=False) and calls == ["movement model"]
    # a seed is read only while its decision is open: with none, the second building is the first
    assert driver.Encoding(problem, rules.model, seeds={}).known == enc.known
    # past its buildings, the turn goes to CP-SAT as before, with the same answer
    monkeypatch.setattr(driver, "REBUILDS", 0)
    assert driver.folded_again(problem, rules.model, enc) is None
    assert driver.solve(problem, rules) == solved and calls == ["movement model"] * 2


def test_a_folded_model_has_no_variable_and_an_open_one_is_solved():
    state, orders, rules = _datc("6.A.1")
    enc = Encoding(prescan(state, orders, rules).problem, rules.model)
    assert driver.folded(enc) and enc.made_model is None  # no variable needed one: no CP-SAT model made
    state, orders, rules = _seven_rings()
    enc = Encoding(prescan(state, orders, rules).problem, rules.model)
    assert not driver.folded(enc) and enc.lits and enc.made_model is not None


def test_a_folded_turns_strengths_are_its_terms_values_read_when_asked_for():
    # A turn whose model has no variable keeps its terms and reads a strength's constant when
    # asked for: the mapping equals the dict of the values CP-SAT gives, and pickles as it.
    state, orders, rules = _datc("6.D.2")  # a supported attack and a cut support: strengths 2 and 1
    problem = prescan(state, orders, rules).problem
    enc = Encoding(problem, rules.model)
    solved = driver.solve(problem, rules)
    assert enc.made_model is None and len(solved.strengths) == len(enc.strengths) == 4
    values = {key: term.const for key, term in enc.strengths.items()}
    assert dict(solved.strengths) == values == driver.solve(problem, rules, shortcut=False).strengths
    assert solved.strengths == values and values == solved.strengths  # both ways round
    assert sorted(solved.strengths.values()) == sorted(values.values()) and max(values.values()) == 2
    again = pickle.loads(pickle.dumps(solved))
    assert type(again.strengths) is dict and again == solved


def test_a_model_whose_folding_fixed_a_literal_it_made_is_folded():
    # DATC 6.E.2: the two moves meet head to head. Move 0's definition reads move 1's, which
    # reads move 0 while it is being defined: its literal is made, and then folding fixes
    # every decision, that literal too. The model is the literal and its one constraint
    # `move[0] == 0`: the known values are its one solution, found without the solver.
    state, orders, rules = _datc("6.E.2")
    problem = prescan(state, orders, rules).problem
    enc = Encoding(problem, rules.model)
    proto = enc.model.proto
    assert list(enc.lits) == [(driver.MOVE, 0)] and enc.known[(driver.MOVE, 0)] is False
    assert len(proto.variables) == len(proto.constraints) == 1 and driver.folded(enc)
    solved = driver.solve(problem, rules)
    assert solved == driver.solve(problem, rules, shortcut=False)
    assert not solved.values[(driver.MOVE, 0)] and not solved.values[(driver.MOVE, 1)]
