"""What validation writes of a phase besides its report line (:mod:`dipsat.runners.validate`):
its case file (``dipsat validate --write-cases``) and its pictures (``--html``)."""

from __future__ import annotations

from ..board import PhaseKind
from ..printers.pictures import position_pictures, validation_pictures
from ..rules import Rules
from .comparison import OrderTexts, involved_provinces, movement_class, ours_after, subject_provinces
from .judge import Judge
from .validation_report import REJECTED, RULE_DIFFERENCE, PhaseReport
from .written_cases import disagreement_case

__all__ = ["phase_pictures", "phase_case"]


def phase_pictures(judge: Judge, i: int, report: PhaseReport) -> dict[str, str]:
    """The pictures of a phase that differs or is rejected (:attr:`PhaseReport.pictures`),
    of the corner of the map the differences and the orders involved touch."""
    rec, nxt, _ = judge.context(i)
    if rec.state is None:
        return {}
    provinces = rec.state.map.provinces
    area = sorted(p for p in involved_provinces(rec, report.differences)[1] if p in provinces)
    if report.status == REJECTED or i not in judge.scope:
        return position_pictures(rec.state, [o for o, _ in rec.orders], area)
    result, _ = judge.judge([i], judge.rules)[i]
    record = ours = None
    if report.board_differs and nxt is not None and nxt.state is not None:
        record, ours = nxt.state, ours_after(result, nxt, judge.rules)
    differing = sorted(p for p in subject_provinces(report.differences) if p in provinces)
    return validation_pictures(result, area, record, ours, differing)


def phase_case(judge: Judge, i: int, report: PhaseReport, final_rules: Rules) -> str:
    """The phase as case files (:mod:`dipsat.runners.written_cases`), under the rules it
    was judged by in the end (`final_rules`: with the inferred options)."""
    rec, nxt, _ = judge.context(i)
    result, differences = judge.judge([i], final_rules)[i]
    base, base_differences = judge.judge([i], judge.rules)[i]
    if report.status == RULE_DIFFERENCE:  # the record's codes where the run's rules differ from it
        differences = base_differences
    texts = OrderTexts(rec)
    index = {texts[k]: k for k in range(len(rec.orders))}
    codes = {index[d.subject]: d.recorded for d in differences if d.what == "order" and d.subject in index}
    classify = movement_class if rec.kind is PhaseKind.MOVEMENT else None  # other kinds' show on the board
    return disagreement_case(judge.game.id, rec, nxt, result, report, base, codes=codes, classify=classify)
