"""An engine known only through its case runner (``--against 'cases:COMMAND {file}'``).

jDip's and godip's test runners, and many others, take a jDip/DATC case file and say
whether the program's result matches its POSTSTATE (exit status 0: every case passed).
Such an engine cannot say what its result is, only whether a given one is right, so the
adapter asks: it writes dipsat's result as POSTSTATE and runs the command; when the case
fails, it writes dipsat's result under each other reading of the DATC chapter-4 issues the
phase touches, one case each, until one passes. The result that passed is the engine's
answer (under another reading: a rule reading the run may infer). When none passes the
engine disagrees with every reading dipsat knows: the reply says so
(:attr:`~dipsat.engines.protocol.EngineReply.unknown`), and the comparison reports the
case's POSTSTATE as failing.

Phases are asked in batches (:attr:`CaseRunnerEngine.batch_size`): dipsat's results for
all of them go into one case file, so a batch the engine agrees with costs one run of the
command; a file that fails is cut in halves and each run again (bisection), down to the
cases that fail alone, and only those are offered the other readings.

The case is written in the plain jDip format (no ``RULES`` line), so any case reader can
run it; ``{file}`` in the command is replaced by the case file's path.
"""

from __future__ import annotations

import io
import shlex
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from ..adjudicator import adjudicate
from ..board import PhaseKind, Unit
from ..formats.casefile import case_variant, write_case
from ..notation import format_order
from ..orders import Order
from ..printers.text import prestate_results
from ..results import PhaseResult
from ..rules import Rules
from ..state import State
from .command import EngineFailure, FailureKind
from .protocol import EngineReply

__all__ = ["CaseRunnerEngine", "cases_text"]


class CaseRunnerEngine:
    """A case runner command (``{file}`` stands for the case file) judged under `rules`."""

    def __init__(self, command: str, rules: Rules, readings: Callable[[State, list[Order]], list[Rules]],
                 timeout: float = 30.0, batch_size: int = 16) -> None:
        """`readings` gives, for a phase, the other rules worth trying when dipsat's result
        fails (each a single-issue change of `rules` the phase can feel); `batch_size`:
        phases written to one case file (one run of the command when they all pass)."""
        if "{file}" not in command:
            raise ValueError("the case runner command must name the case file as {file}")
        self.template = shlex.split(command)
        self.rules = rules
        self.readings = readings
        self.timeout = timeout
        self.name = command
        self.runs = 0
        self.batch_size = batch_size
        self._dir = tempfile.TemporaryDirectory(prefix="dipsat-cases-")

    def close(self) -> None:
        self._dir.cleanup()

    def _passes(self, cases: list[tuple[str, PhaseResult, list[Order]]]) -> bool:
        """Whether the runner passes every case of one file holding `cases` (all of one
        variant); the command may take the timeout once per case.

        :raises EngineFailure: it hung or cannot be run (for the first case's request).
        """
        first = cases[0][0]
        path = Path(self._dir.name) / f"{first}.txt"
        with path.open("w", encoding="utf-8") as handle:
            handle.write(cases_text(cases))
        argv = [part.replace("{file}", str(path)) for part in self.template]
        self.runs += 1
        allowed = self.timeout * len(cases)
        try:
            done = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  timeout=allowed, check=False)
        except subprocess.TimeoutExpired:
            raise EngineFailure(first, FailureKind.HUNG, f"the case runner ran past {allowed:g} s") from None
        except OSError as exc:
            raise EngineFailure(first, FailureKind.CRASHED, f"cannot run {argv[0]}: {exc}") from None
        return done.returncode == 0

    def _failing(self, cases: list[tuple[str, PhaseResult, list[Order]]]) -> dict[str, EngineFailure | None]:
        """The cases of a file that fail when run alone, by bisection: a file that passes
        holds none; one that fails (or whose run hangs or crashes) is cut in two halves, each
        run again, down to single cases. A single case that hangs or crashes is that
        request's failure (the value); one that fails is None."""
        if len(cases) == 1:
            try:
                return {} if self._passes(cases) else {cases[0][0]: None}
            except EngineFailure as failure:
                return {cases[0][0]: failure}
        try:
            if self._passes(cases):
                return {}
        except EngineFailure:
            pass  # a batch that hangs or crashes: which case is to blame is found by bisection too
        half = len(cases) // 2
        return {**self._failing(cases[:half]), **self._failing(cases[half:])}

    def judge(self, request_id: str, state: State, orders: list[Order]) -> EngineReply:
        answer = self.judge_many([(request_id, state, orders)])[0]
        if isinstance(answer, EngineFailure):
            raise answer
        return answer

    def judge_many(self, requests: list[tuple[str, State, list[Order]]]) -> list[EngineReply | EngineFailure]:
        """Replies to many phases, as few runs of the command as it takes: dipsat's results
        for all of them in one case file per variant (a file that fails is bisected down to
        the cases that fail alone); each failing case is then offered dipsat's result under
        the other readings, one file each, until one passes."""
        ours = {request_id: adjudicate(state, orders, self.rules) for request_id, state, orders in requests}
        failing: dict[str, EngineFailure | None] = {}
        for variant in sorted({state.variant.name for _, state, _ in requests}):
            cases = [(i, ours[i], orders) for i, state, orders in requests if state.variant.name == variant]
            failing.update(self._failing(cases))
        answers: list[EngineReply | EngineFailure] = []
        for request_id, state, orders in requests:
            failure = failing.get(request_id)
            if failure is not None:
                answers.append(failure)
            elif request_id not in failing:
                answers.append(_reply(request_id, ours[request_id]))
            else:
                try:
                    answers.append(self._other_reading(request_id, state, orders, ours[request_id]))
                except EngineFailure as exc:
                    answers.append(exc)
        return answers

    def _other_reading(self, request_id: str, state: State, orders: list[Order], ours: PhaseResult) -> EngineReply:
        """The engine's answer to a case that fails with dipsat's result: dipsat's result
        under the first other reading whose case passes, else unknown."""
        tried = {_board(ours)}
        for rules in self.readings(state, orders):
            alt = adjudicate(state, orders, rules)
            if _board(alt) in tried:
                continue
            tried.add(_board(alt))
            if self._passes([(request_id, alt, orders)]):
                return _reply(request_id, alt)
        return EngineReply(request_id, ours.after, unknown=True)


def cases_text(cases: list[tuple[str, PhaseResult, list[Order]]]) -> str:
    """Phases of one variant as a plain jDip case file: each its position, orders and
    result (the :class:`PhaseResult`) as POSTSTATE, named by its id."""
    out = io.StringIO()
    out.write(f"VARIANT_ALL {case_variant(cases[0][1].before.variant)}\n\n")
    for case_id, result, orders in cases:
        before, after = result.before, result.after
        dislodged: list[Unit] = []
        if before.phase.kind is PhaseKind.MOVEMENT and after.phase.kind is PhaseKind.RETREAT:
            dislodged = sorted((d.unit for d in after.dislodged), key=lambda u: (u.province, u.location.coast or ""))
        write_case(out, case_id, before.phase, list(before.units), [format_order(o) for o in orders],
                   list(after.units), dislodged, list(before.owners), prestate_dislodged=[d.unit for d in before.dislodged],
                   prestate_results=prestate_results(before))
    return out.getvalue()


def _board(result: PhaseResult) -> tuple[object, ...]:
    after = result.after
    return (tuple(sorted(map(str, after.units))), tuple(sorted(str(d.unit) for d in after.dislodged)),
            tuple(sorted(after.owners)))


def _reply(request_id: str, result: PhaseResult) -> EngineReply:
    options = {u: tuple(sorted(o, key=str)) for u, o in result.retreat_options.items()}
    return EngineReply(request_id, result.after, options if result.after.phase.kind is PhaseKind.RETREAT else None)
