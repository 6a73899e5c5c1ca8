"""Finish an archive run of ``dipsat validate``: decide the archive's rule readings and
bring every record's report in line with them.

The records were judged once (in a pool, or on Dask) with their evidence gathered and
their phases classified by presumed readings (:mod:`dipsat.runners.inference`). Here, from
the report lines of every record (judged in this run or resumed from a report):

1. the readings are decided; where an option has support but a record has phases it was
   not tried on, that record is asked for them (only those phases, only those options),
   in waves of records (:data:`FIRST_WAVE`), the readings decided again after each;
2. the readings after the last wave are the archive's: every option that fits was tried
   on every phase it can affect;
3. the phases whose verdict may depend on a reading other than the one they were judged by
   (those with evidence on an issue where it changed) are judged again under the archive's
   readings, alone, and their lines take the place of the old ones.

Nothing is judged twice in an archive that follows the readings presumed for its program.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..rules import Rules
from .inference import (ARCHIVE, Inference, Pairs, PhaseEvidence, Reading, archive_readings, evidence_to_json,
                        line_evidence, readings_line, record_readings)

if TYPE_CHECKING:
    from .validate import GameReport

__all__ = ["JudgeAll", "Rejudge", "finish_archive", "judge_archive"]

Rejudge = Callable[[list[tuple[int, Inference]]], Iterator[tuple[int, "GameReport"]]]
"""Judge records again (by their index among the records, each as asked), in any order."""

JudgeAll = Callable[[list[tuple[Callable[[Inference], "GameReport"], Inference]]], list["GameReport"]]
"""Run records' judges, each under its inference; the reports in the same order."""

_VERDICTS = ("disagreed", "rule-difference")

FIRST_WAVE = 8
"""Records are asked for more evidence in waves of 8, 32, 128, ... records, in input order
(the same waves whatever judges them): the readings are decided again after each, so an
option the first records contradict is not tried on the rest. Support comes only from
phases judged under every option already, so it never grows: a ruled-out option stays out,
and the readings decided are those all the checks would give."""


@dataclass
class _Record:
    lines: list[dict[str, Any]]

    @property
    def line(self) -> dict[str, Any]:
        return self.lines[-1]

    @property
    def unchecked(self) -> dict[str, list[str]]:
        value = self.line.get("unchecked")
        return value if isinstance(value, dict) else {}


def finish_archive(records: list[list[dict[str, Any]]], rules: Rules, rejudge: Rejudge,
                   reports: dict[str, GameReport]) -> tuple[list[list[dict[str, Any]]], dict[str, Reading]]:
    """The records' final lines, then the `readings` line; and the readings. `reports`
    (the reports of this run by source, for ``--html``) are brought in line too."""
    kept = [_Record(lines) for lines in records]
    judged = [r for r in kept if r.line.get("type") == "record" and not r.line.get("rejected")]
    readings = archive_readings((r.line for r in judged), rules)
    start, size = 0, FIRST_WAVE
    while start < len(kept):  # the checks, in waves: an option a wave rules out is not asked of the next
        tasks = []
        for k in range(start, min(start + size, len(kept))):
            record = kept[k]
            need = {n: sorted(set(readings[n].fitting) | set(tried)) for n, tried in record.unchecked.items()
                    if n in readings and not set(readings[n].fitting) <= set(tried)}
            if need:
                tasks.append((k, Inference(ARCHIVE, check=tuple(sorted((n, tuple(o)) for n, o in need.items())),
                                           disagreeing=_disagreeing(record))))
        start, size = start + size, size * 4
        if not tasks:
            continue
        checked = {k: report for k, report in rejudge(tasks) if report.error is None}
        for k, inference in tasks:
            if k in checked and inference.check is not None:
                _merge_evidence(kept[k], checked[k], {n for n, _ in inference.check})
        readings = archive_readings((r.line for r in judged), rules)
    again = [(k, Inference(ARCHIVE, readings=_fitting(readings), only=frozenset(phases)))
             for k, record in enumerate(kept) if (phases := _to_judge_again(record, readings))]
    answers = {k: report for k, report in rejudge(again) if report.error is None}
    for k in sorted(answers):
        _merge_phases(kept[k], answers[k], reports.get(answers[k].source))
    for record in kept:
        if record.line.get("type") == "record":
            record.line["inferred_rules"] = record_readings(record.line, readings)
            record.line["judged_by"] = {n: list(r.fitting) for n, r in sorted(readings.items())
                                        if r.fitting and n in line_evidence(record.line)}
            report = reports.get(record.line.get("source", ""))
            if report is not None:
                report.inferred = record.line["inferred_rules"]
    return [r.lines for r in kept] + [[readings_line(readings, ARCHIVE)]], readings


def _disagreeing(record: _Record) -> frozenset[str]:
    """The phases of a record that differ under the given rules (judged under every option)."""
    return frozenset(str(line.get("phase")) for line in record.lines[:-1] if line.get("type") in _VERDICTS)


def _fitting(readings: dict[str, Reading]) -> Pairs:
    return tuple(sorted((n, r.fitting) for n, r in readings.items() if r.fitting))


def _merge_evidence(record: _Record, report: GameReport, issues: set[str]) -> None:
    """The evidence a record gave when asked (:attr:`Inference.check`) on `issues` in place
    of what it had on them, but for the phases judged under every option already."""
    game = str(record.line.get("game", ""))
    evidence = line_evidence(record.line)
    for issue in sorted(issues):
        complete = [p for p in evidence.get(issue, []) if not p.tried]
        names = {p.phase for p in complete}
        rows = complete + [PhaseEvidence(game, p.phase, p.agrees, p.tried) for p in report.evidence.get(issue, [])
                           if p.phase not in names]
        if rows:
            evidence[issue] = sorted(rows, key=lambda p: p.phase)
        else:
            evidence.pop(issue, None)
    unchecked = {n: o for n, o in record.unchecked.items() if n not in issues}
    unchecked.update({n: o for n, o in report.unchecked.items() if n in issues})
    record.line["evidence"] = evidence_to_json(evidence)
    record.line["unchecked"] = dict(sorted(unchecked.items()))


def _to_judge_again(record: _Record, readings: dict[str, Reading]) -> list[str]:
    """The phases of a record whose verdict may change: disagreements and rule differences
    with evidence on an issue whose reading is not the one they were judged by."""
    used = record.line.get("judged_by")
    used = used if isinstance(used, dict) else {}
    changed = [n for n in line_evidence(record.line)
               if list(readings[n].fitting if n in readings else ()) != used.get(n, [])]
    names = {p.phase for n in changed for p in line_evidence(record.line)[n]}
    return sorted(line["phase"] for line in record.lines[:-1] if line.get("type") in _VERDICTS and line.get("phase") in names)


def _merge_phases(record: _Record, report: GameReport, full: GameReport | None) -> None:
    """The lines of phases judged again in place of the old ones, and the counts with them."""
    new = {line["phase"]: line for line in report.report_lines()[:-1] if line.get("phase") is not None}
    counts = record.line.setdefault("counts", {})
    board = record.line.setdefault("board_differs", {})
    for k, line in enumerate(record.lines[:-1]):
        replacement = new.get(line.get("phase"))
        if replacement is None:
            continue
        for sign, old in ((-1, line), (1, replacement)):
            key = f"{old['kind']}/{old['type']}"
            counts[key] = counts.get(key, 0) + sign
            if old["type"] == "disagreed" and old.get("board_differs"):
                board[old["kind"]] = board.get(old["kind"], 0) + sign
        record.lines[k] = replacement
    record.line["counts"] = {key: n for key, n in sorted(counts.items()) if n}
    record.line["board_differs"] = {key: n for key, n in sorted(board.items()) if n}
    if full is not None:
        by_name = {p.name: p for p in report.phases}
        full.phases = [by_name.get(p.name, p) for p in full.phases]



def judge_archive(judges: Sequence[Callable[[Inference], GameReport]], rules: Rules,
                  pinned: frozenset[str] = frozenset(),
                  judge_all: JudgeAll | None = None) -> tuple[list[GameReport], dict[str, Reading]]:
    """Records judged as one archive, in memory (``dipsat fuzz``, the mutation test): each
    record gathers its evidence under every option of the issues it touches, the archive
    decides (:func:`dipsat.runners.inference.decide`), and the records with a phase that
    does not agree are judged again under the readings decided. `judges` judge one record
    each under the :class:`Inference` given; `pinned` issues are never inferred; `judge_all`
    runs a list of (judge, inference) and returns the reports in its order (default: one
    after the other, here; a pool of processes gives the same reports)."""
    from .inference import decide
    run_all = judge_all or (lambda tasks: [judge(inference) for judge, inference in tasks])
    gathering = Inference(mode=ARCHIVE, complete=True, pinned=pinned)
    first = run_all([(judge, gathering) for judge in judges])
    readings = decide([report.evidence for report in first], rules)
    fitting = tuple(sorted((n, r.fitting) for n, r in readings.items() if r.fitting and n not in pinned))
    deciding = Inference(mode=ARCHIVE, readings=fitting, pinned=pinned)
    # a record that differs somewhere is judged again under the archive's readings (the first
    # pass presumed its program's known ones); one that agrees throughout agrees under them
    # too (an option no phase contradicts)
    again = [k for k, report in enumerate(first) if any(p.status not in ("agreed", "final") for p in report.phases)]
    out = list(first)
    for k, report in zip(again, run_all([(judges[k], deciding) for k in again])):
        out[k] = report
    return out, readings
