"""``dipsat fuzz``: test another adjudicator without an archive.

Generated phases (:mod:`dipsat.runners.generators`) go to the engine (the engine protocol,
:mod:`dipsat.engines`); each answer becomes a recorded game of two phases -- the position
and orders asked about, and the engine's next position -- so that everything ``dipsat
validate`` does with an archive is done with the engine's answers: the comparison (units,
dislodgements, retreat options, centres), the rule readings the engine follows, the
verdicts, the written cases.

An engine that crashes, hangs or answers with garbage is reported for that request
(:class:`~dipsat.engines.command.EngineFailure`) and the run goes on; every request is
counted once, as judged or as failed.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol

from ..formats.records import RecordedGame, RecordedPhase, format_location, package_phase_name
from ..maps import Variant
from ..notation import format_order
from ..orders import Order
from ..rules import Rules
from ..state import State
from ..engines.command import EngineFailure
from ..engines.protocol import EngineReply
from .generators import Generated, generate_item
from .inference import NONE, Inference, Reading
from .validate import Difference, GameReport

if TYPE_CHECKING:
    from .archive import JudgeAll

__all__ = ["Engine", "FuzzPhase", "FuzzRun", "JudgedPhase", "PhaseJudge", "ask_engine", "engine_record", "judge_run",
           "other_readings", "write_fuzz_cases"]


class Engine(Protocol):
    """Anything that judges a phase as another adjudicator would."""

    def judge(self, request_id: str, state: State, orders: list[Order]) -> EngineReply: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class FuzzPhase:
    """One generated phase and the engine's answer (or how the engine failed)."""

    id: str
    generated: Generated
    reply: EngineReply | None
    failure: EngineFailure | None = None


@dataclass
class FuzzRun:
    """What a run asked and was told, in the order asked."""

    seed: int
    phases: list[FuzzPhase] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def answered(self) -> list[FuzzPhase]:
        return [p for p in self.phases if p.reply is not None]

    @property
    def failed(self) -> list[FuzzPhase]:
        return [p for p in self.phases if p.failure is not None]


def ask_engine(engines: Engine | Sequence[Engine], variants: list[Variant], families: list[str], rules: Rules,
               seed: int, *, phases: int | None = None, minutes: float | None = None,
               progress: Callable[[int], None] | None = None, resumed: Mapping[int, list[FuzzPhase]] | None = None,
               on_item: Callable[[int, list[FuzzPhase]], None] | None = None) -> FuzzRun:
    """Generate phases (reproducibly from `seed`) and ask the engines about them -- one
    thread per engine, each taking the next item -- until `phases` were asked or `minutes`
    have passed (the first budget reached). The run lists the phases in the order of their
    ids, whatever engine answered which: the same seed and budget of phases give the same run.

    `resumed`: items asked by an earlier run (by item number), taken as they are, counted in
    the `phases` budget and not asked again. `on_item` is told of each item once all its
    phases are answered (or failed), one call at a time. An engine with a ``judge_many``
    method (a case runner) is given ``batch_size`` phases at a time."""
    if phases is None and minutes is None:
        raise ValueError("give a budget: phases or minutes")
    pool = list(engines) if isinstance(engines, Sequence) else [engines]
    earlier = dict(resumed or {})
    run = FuzzRun(seed)
    start = time.monotonic()
    lock = threading.Lock()
    items = (n for n in itertools.count() if n not in earlier)
    count = sum(len(v) for v in earlier.values())  # phases asked, earlier runs' included
    asked: dict[int, list[FuzzPhase]] = {}
    answered = 0

    def take(size: int) -> list[tuple[int, list[Generated]]] | None:
        nonlocal count
        out: list[tuple[int, list[Generated]]] = []
        with lock:
            while sum(len(made) for _, made in out) < size:
                if phases is not None and count >= phases:
                    break
                if minutes is not None and time.monotonic() - start >= minutes * 60:
                    break
                n = next(items)
                made = generate_item(seed, n, variants, families, rules)
                if phases is not None:
                    made = made[:phases - count]
                count += len(made)
                asked[n] = [FuzzPhase(g.id, g, None) for g in made]  # placeholders: counted once, now
                out.append((n, made))
        return out or None

    def finished(n: int, done: list[FuzzPhase]) -> None:
        nonlocal answered
        with lock:
            asked[n] = done
            answered += len(done)
            if on_item is not None:
                on_item(n, done)
            if progress is not None:
                progress(answered)

    def work(engine: Engine) -> None:
        many = getattr(engine, "judge_many", None)
        size = int(getattr(engine, "batch_size", 1)) if many is not None else 1
        while (taken := take(size)) is not None:
            if many is not None:
                flat = [g for _, made in taken for g in made]
                answers = iter(many([(g.id, g.state, list(g.orders)) for g in flat]))
                for n, made in taken:
                    finished(n, [_answered(g, next(answers)) for g in made])
                continue
            for n, made in taken:
                done = []
                for generated in made:
                    try:
                        reply = engine.judge(generated.id, generated.state, list(generated.orders))
                        done.append(FuzzPhase(generated.id, generated, reply))
                    except EngineFailure as failure:
                        done.append(FuzzPhase(generated.id, generated, None, failure))
                finished(n, done)

    with ThreadPoolExecutor(max_workers=len(pool)) as executor:
        list(executor.map(work, pool))
    every = {**earlier, **asked}
    run.phases = [p for n in sorted(every) for p in every[n]]  # every phase asked is answered or failed, once
    run.seconds = time.monotonic() - start
    return run


def _answered(generated: Generated, answer: EngineReply | EngineFailure) -> FuzzPhase:
    if isinstance(answer, EngineFailure):
        return FuzzPhase(generated.id, generated, None, answer)
    return FuzzPhase(generated.id, generated, answer)


# --- the engine's answer as a recorded game -----------------------------------------------------


def engine_record(phase: FuzzPhase, engine_name: str) -> RecordedGame:
    """A generated phase and the engine's answer as a recorded game of two phases (the
    second is the engine's next position, not played), judged as validate judges
    archives: on positions, with the retreat options where the engine gives them."""
    assert phase.reply is not None
    state = phase.generated.state
    reply = phase.reply
    first = RecordedPhase(0, package_phase_name(state.phase), state.phase, state,
                          [(o, format_order(o)) for o in phase.generated.orders], results_recorded=False)
    after = reply.after
    nxt = RecordedPhase(1, package_phase_name(after.phase), after.phase, after, results_recorded=False)
    if reply.retreat_options is not None:
        nxt.retreat_options = {u.province: tuple(format_location(loc) for loc in options)
                               for u, options in reply.retreat_options.items()}
        nxt.retreat_options_recorded = True
    return RecordedGame(phase.id, state.variant.name, (), state.variant, [first, nxt], format=f"engine:{engine_name}")


def other_readings(rules: Rules) -> Callable[[State, list[Order]], list[Rules]]:
    """For a phase, every single-issue change of `rules` among the DATC chapter-4 issues
    the phase touches (what a case-runner engine is asked about when dipsat's result fails)."""
    from ..rules import ISSUES
    from .rule_scope import issues_touched

    def readings(state: State, orders: list[Order]) -> list[Rules]:
        out = []
        for number in sorted(n for n in issues_touched(state, orders) if n in ISSUES):
            for option in ISSUES[number].options:
                if option != rules.choice(number):
                    out.append(Rules.profile(rules.profile_name, {**rules.overrides, number: option}))
        return out

    return readings


# --- judging --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class JudgedPhase:
    """A generated phase judged: ``agreed``, ``rule-difference`` (the engine follows
    `rule`) or ``disagreed``, with the differences under the run's rules."""

    id: str
    family: str
    kind: str
    status: str
    rule: str | None
    differences: tuple[Difference, ...]
    orders: tuple[str, ...]
    shapes: tuple[str, ...] = ()
    """The kinds of the orders involved (``move``, ``move via convoy``, ``support_move``, ...)."""
    case: str = ""
    conclusions: tuple[str, ...] = ()
    """Per order involved: what the engine's answer implies happened to it, against dipsat's outcome."""
    note: str = ""
    """Validate's note on the phase: for a disagreement, the options that, with the readings
    inferred, would reproduce it ("would agree under 4.A.1=a"), where too few phases showed
    them to name a reading."""

    @property
    def signature(self) -> str:
        """What kind of difference, on which kinds of orders, and the DATC issues whose
        options would reproduce it (as validate groups): disagreements alike in these are
        grouped (likely one bug of the engine, or one reading shown too rarely to name)."""
        from .groups import rule_family
        whats = sorted({d.what for d in self.differences})
        family = rule_family(self.note) if self.status == "disagreed" else []
        return (f"{self.kind}: {'+'.join(whats)}" + (f" [{', '.join(self.shapes)}]" if self.shapes else "")
                + (f" (rules {', '.join(family)})" if family else ""))

    @property
    def rule_title(self) -> str:
        return ""

    @property
    def summary(self) -> str:
        return "; ".join(f"{d.what} {d.subject}: engine {d.recorded}, dipsat {d.ours}" for d in self.differences[:3]) + (
            f"; +{len(self.differences) - 3} more" if len(self.differences) > 3 else "")

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "family": self.family, "kind": self.kind, "status": self.status, "rule": self.rule,
                "signature": self.signature, "differences": [d.to_json() for d in self.differences],
                "orders": list(self.orders), **({"note": self.note} if self.note else {})}


def _shapes(phase: FuzzPhase, involved: list[str]) -> tuple[str, ...]:
    """The kinds of the orders of `phase` whose texts (as validate writes them) are `involved`."""
    from ..formats.dipsat_json import ORDER_TYPES
    from ..orders import Move
    wanted = set(involved)
    out = set()
    for order in phase.generated.orders:
        if f"{(order.power or '?').upper()}: {format_order(order)}" in wanted:
            via = isinstance(order, Move) and order.via_convoy
            out.add(ORDER_TYPES[type(order)] + (" via convoy" if via else ""))
    return tuple(sorted(out))


NO_READINGS = Inference(mode=NONE)
"""Judge by the rules given, trying no other reading."""


def judge_phase(phase: FuzzPhase, rules: Rules, engine_name: str, cases: bool = False,
                inference: Inference = NO_READINGS) -> tuple[JudgedPhase, GameReport | None]:
    """One answered phase judged against the engine's answer, as validate judges a record
    (`inference`: what to do about rule readings), and validate's report of it."""
    from .validate import validate_recorded
    assert phase.reply is not None
    state = phase.generated.state
    kind = state.phase.kind.value.lower()
    if phase.reply.unknown:
        return JudgedPhase(phase.id, phase.generated.family, kind, "disagreed", None, (
            Difference("case", "POSTSTATE", "fails dipsat's result under every reading", "dipsat's result"),),
            tuple(format_order(o) for o in phase.generated.orders)), None
    record = validate_recorded(engine_record(phase, engine_name), rules, phase.id, inference=inference)
    judged = _judged(phase, record)
    if cases and judged.status == "disagreed":
        judged = replace(judged, case=fuzz_case(phase, judged, rules, engine_name))
    return judged, record


def _judged(phase: FuzzPhase, record: GameReport) -> JudgedPhase:
    """A phase's verdict from validate's report of its record."""
    report = record.phases[0]
    return JudgedPhase(phase.id, phase.generated.family, phase.generated.state.phase.kind.value.lower(),
                       report.status, report.rule, tuple(report.differences), tuple(report.orders),
                       _shapes(phase, report.orders), conclusions=tuple(report.conclusions), note=report.note)


@dataclass(frozen=True)
class JudgedRun:
    """Every answered phase judged, and the readings inferred for the engine over the run."""

    phases: list[JudgedPhase]
    readings: dict[str, Reading]
    rules: Rules
    """The rules judged by: the run's, with the readings inferred for the engine."""
    reports: dict[str, GameReport] = field(default_factory=dict)
    """Validate's report of each phase judged (by id; not the phases the engine did not know)."""


@dataclass(frozen=True)
class PhaseJudge:
    """Judges one answered phase under an :class:`Inference`, as validate judges a record
    (picklable: it goes to worker processes, :mod:`dipsat.runners.fuzz_workers`)."""

    phase: FuzzPhase
    rules: Rules
    engine_name: str

    @property
    def source(self) -> str:
        return self.phase.id

    def __call__(self, inference: Inference) -> GameReport:
        from .validate import validate_recorded
        return validate_recorded(engine_record(self.phase, self.engine_name), self.rules, self.phase.id,
                                 inference=inference)


def judge_run(run: FuzzRun, rules: Rules, engine_name: str, cases: bool = False, infer: bool = True,
              pinned: frozenset[str] = frozenset(), judge_all: JudgeAll | None = None) -> JudgedRun:
    """Every answered phase of `run` judged against the engine's answer, the engine's rule
    readings inferred over the whole run as validate infers an archive's
    (:mod:`dipsat.runners.inference`: an option is named where at least two phases agree
    only under it and none contradicts it; `pinned` issues are never inferred): each phase
    gathers its evidence under every option of the issues it touches, the run decides, and
    the phases that differ are judged again under the readings decided. `judge_all`: where
    the phases are judged (:mod:`dipsat.runners.fuzz_workers`; default: here)."""
    answered = run.answered
    if not infer:
        judged_alone = [judge_phase(p, rules, engine_name, cases) for p in answered]
        return JudgedRun([j for j, _ in judged_alone], {}, rules,
                         {j.id: r for j, r in judged_alone if r is not None})
    from .archive import judge_archive
    unknown = {p.id for p in answered if p.reply is not None and p.reply.unknown}
    judges = [PhaseJudge(phase, rules, engine_name) for phase in answered if phase.id not in unknown]
    reports, readings = judge_archive(judges, rules, pinned, judge_all)
    by_id = {report.source: report for report in reports}
    final = Rules.profile(rules.profile_name, {**rules.overrides, **{n: r.fitting[0] for n, r in readings.items()
                                                                    if r.fitting and n not in pinned}})
    judged = []
    for phase in answered:
        if phase.id in unknown:
            j = judge_phase(phase, rules, engine_name)[0]
        elif by_id[phase.id].error is not None:  # its worker failed: told as a failure to judge, not a verdict
            j = JudgedPhase(phase.id, phase.generated.family, phase.generated.state.phase.kind.value.lower(),
                            "rejected", None, (Difference("judging", phase.id, str(by_id[phase.id].error), "-"),),
                            tuple(format_order(o) for o in phase.generated.orders))
        else:
            j = _judged(phase, by_id[phase.id])
        if cases and j.status == "disagreed":
            j = replace(j, case=fuzz_case(phase, j, final, engine_name))
        judged.append(j)
    return JudgedRun(judged, readings, final, by_id)


def write_fuzz_cases(folder: str, judged: list[JudgedPhase], shrunk: dict[str, ShrunkPhase] | None = None) -> None:
    """Each disagreement's case file as ``ID.txt`` in `folder` (the engine's result as
    POSTSTATE, dipsat's as comments), and each kind's smallest as ``ID.min.txt``."""
    import os
    for j in judged:
        if j.status == "disagreed" and j.case:
            with open(os.path.join(folder, f"{j.id}.txt"), "w", encoding="utf-8", newline="\n") as handle:
                handle.write(j.case)
    for small in (shrunk or {}).values():
        if small.judged.case:
            with open(os.path.join(folder, f"{small.original.id}.min.txt"), "w", encoding="utf-8",
                      newline="\n") as handle:
                handle.write(small.judged.case)


def shrink_groups(engine: Engine, run: FuzzRun, judged: JudgedRun, engine_name: str) -> dict[str, ShrunkPhase]:
    """The first disagreement of each kind (:attr:`JudgedPhase.signature`) shrunk, by kind,
    under the rules judged by (the run's, with the engine's readings)."""
    phases = {p.id: p for p in run.answered}
    out: dict[str, ShrunkPhase] = {}
    for j in judged.phases:
        if j.status == "disagreed" and j.signature not in out:
            out[j.signature] = shrink_disagreement(engine, phases[j.id], j, judged.rules, engine_name)
    return out


# --- shrinking: the fewest units and orders that still show the difference ------------------------


@dataclass(frozen=True)
class ShrunkPhase:
    """A disagreement shrunk with the engine as the judge: the smallest phase found that
    still disagrees the same way (at least one of the original differences, unchanged, and
    no difference anywhere else), the engine's answer about it, and how many phases the
    engine was asked about."""

    original: JudgedPhase
    phase: FuzzPhase
    judged: JudgedPhase
    asked: int

    @property
    def phase_size(self) -> tuple[int, int, int]:
        """(units with the dislodged ones, orders, owned centres) of the shrunk phase."""
        state = self.phase.generated.state
        return len(state.units) + len(state.dislodged), len(self.phase.generated.orders), len(state.owners)


def phase_differences(phase: FuzzPhase, rules: Rules) -> list[Difference]:
    """What differs between the engine's answer and dipsat's under exactly `rules` (no
    reading inferred): validate's comparison of a record."""
    from .validate import compare_recorded
    if phase.reply is None or phase.reply.unknown:
        return [Difference("case", "POSTSTATE", "fails dipsat's result under every reading", "dipsat's result")]
    record = engine_record(phase, "engine")
    return compare_recorded(record.phases[0], record.phases[1], rules)


def _essence(d: Difference) -> tuple[str, str, object, object]:
    """What makes two differences the same one: the place and both sides, and for retreat
    options only the options one side has and the other lacks (a unit taken away may open
    an option to both)."""
    if d.what == "retreats":
        engine, ours = set(d.recorded.split()) - {"-"}, set(d.ours.split()) - {"-"}
        return d.what, d.subject, frozenset(engine - ours), frozenset(ours - engine)
    return d.what, d.subject, d.recorded, d.ours


def shrink_disagreement(engine: Engine, phase: FuzzPhase, judged: JudgedPhase, rules: Rules,
                        engine_name: str) -> ShrunkPhase:
    """`judged` (a disagreement of `phase`) shrunk by delta debugging over units, orders and
    centres (:mod:`dipsat.runners.shrink`), every candidate asked of `engine` and judged
    under `rules` (the run's rules with the readings inferred for the engine)."""
    from .shrink import Candidate, shrink
    shown = phase_differences(phase, rules) or list(judged.differences)  # under `rules`, as every candidate is
    wanted = {_essence(d) for d in shown}
    places = {(d.what, d.subject) for d in shown}
    counter = itertools.count(1)
    answers: dict[tuple[object, ...], FuzzPhase] = {}

    def ask(candidate: Candidate) -> FuzzPhase:
        if candidate.key not in answers:
            request_id = f"{phase.id}.s{next(counter)}"
            generated = Generated(phase.generated.family, candidate.state, candidate.orders, request_id)
            try:
                reply: EngineReply | None = engine.judge(request_id, candidate.state, list(candidate.orders))
                answers[candidate.key] = FuzzPhase(request_id, generated, reply)
            except EngineFailure as failure:
                answers[candidate.key] = FuzzPhase(request_id, generated, None, failure)
        return answers[candidate.key]

    def keeps(candidate: Candidate) -> bool:
        asked = ask(candidate)
        if asked.reply is None:
            return False  # an engine failure is not the difference looked for
        found = {_essence(d) for d in phase_differences(asked, rules)}
        return bool(found & wanted) and {f[:2] for f in found} <= places  # nothing differs anywhere else


    start = Candidate(phase.generated.state, phase.generated.orders)
    shrunk = shrink(start, keeps)
    final = ask(shrunk.candidate) if shrunk.candidate.key != start.key else phase
    small, _ = judge_phase(final, rules, engine_name)
    return ShrunkPhase(judged, final, replace(small, case=fuzz_case(final, small, rules, engine_name)), len(answers))


def fuzz_case(phase: FuzzPhase, judged: JudgedPhase, rules: Rules, engine_name: str) -> str:
    """A disagreement as a jDip/DATC case file for the engine's regression suite: the
    position and orders, the engine's result as POSTSTATE, dipsat's results, position and
    the differences as comments (validate's writer, with no case of its own shrinking)."""
    from ..adjudicator import adjudicate
    from .written_cases import disagreement_case
    record = engine_record(phase, engine_name)
    result = adjudicate(phase.generated.state, list(phase.generated.orders), rules)
    return disagreement_case(phase.id, record.phases[0], record.phases[1], result, judged, minimal=False,
                             written_by=f"dipsat fuzz against {engine_name} (the record is its answer)")
