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

__all__ = ["CaseRunnerEngine"]


class CaseRunnerEngine:
    """A case runner command (``{file}`` stands for the case file) judged under `rules`."""

    def __init__(self, command: str, rules: Rules, readings: Callable[[State, list[Order]], list[Rules]],
                 timeout: float = 30.0) -> None:
        """`readings` gives, for a phase, the other rules worth trying when dipsat's result
        fails (each a single-issue change of `rules` the phase can feel)."""
        if "{file}" not in command:
            raise ValueError("the case runner command must name the case file as {file}")
        self.template = shlex.split(command)
        self.rules = rules
        self.readings = readings
        self.timeout = timeout
        self.name = command
        self.runs = 0
        self._dir = tempfile.TemporaryDirectory(prefix="dipsat-cases-")

    def close(self) -> None:
        self._dir.cleanup()

    def _passes(self, request_id: str, result: PhaseResult, orders: list[Order]) -> bool:
        path = Path(self._dir.name) / f"{request_id}.txt"
        with path.open("w", encoding="utf-8") as handle:
            handle.write(case_text(request_id, result, orders))
        argv = [part.replace("{file}", str(path)) for part in self.template]
        self.runs += 1
        try:
            done = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  timeout=self.timeout, check=False)
        except subprocess.TimeoutExpired:
            raise EngineFailure(request_id, FailureKind.HUNG, f"the case runner ran past {self.timeout:g} s") from None
        except OSError as exc:
            raise EngineFailure(request_id, FailureKind.CRASHED, f"cannot run {argv[0]}: {exc}") from None
        return done.returncode == 0

    def judge(self, request_id: str, state: State, orders: list[Order]) -> EngineReply:
        ours = adjudicate(state, orders, self.rules)
        if self._passes(request_id, ours, orders):
            return _reply(request_id, ours)
        tried = {_board(ours)}
        for rules in self.readings(state, orders):
            alt = adjudicate(state, orders, rules)
            if _board(alt) in tried:
                continue
            tried.add(_board(alt))
            if self._passes(request_id, alt, orders):
                return _reply(request_id, alt)
        return EngineReply(request_id, ours.after, unknown=True)


def case_text(case_id: str, result: PhaseResult, orders: list[Order]) -> str:
    """The phase as a plain jDip case: position, orders, `result` as POSTSTATE."""
    before, after = result.before, result.after
    dislodged: list[Unit] = []
    if before.phase.kind is PhaseKind.MOVEMENT and after.phase.kind is PhaseKind.RETREAT:
        dislodged = sorted((d.unit for d in after.dislodged), key=lambda u: (u.province, u.location.coast or ""))
    out = io.StringIO()
    out.write(f"VARIANT_ALL {case_variant(before.variant)}\n\n")
    write_case(out, case_id, before.phase, list(before.units), [format_order(o) for o in orders], list(after.units),
               dislodged, list(before.owners), prestate_dislodged=[d.unit for d in before.dislodged],
               prestate_results=prestate_results(before))
    return out.getvalue()


def _board(result: PhaseResult) -> tuple[object, ...]:
    after = result.after
    return (tuple(sorted(map(str, after.units))), tuple(sorted(str(d.unit) for d in after.dislodged)),
            tuple(sorted(after.owners)))


def _reply(request_id: str, result: PhaseResult) -> EngineReply:
    options = {u: tuple(sorted(o, key=str)) for u, o in result.retreat_options.items()}
    return EngineReply(request_id, result.after, options if result.after.phase.kind is PhaseKind.RETREAT else None)
