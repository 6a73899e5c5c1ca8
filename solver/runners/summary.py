"""The summary of a validation run: counts, inferred rules, the first disagreements.

:class:`Summary` collects :class:`~dipsat.runners.validate.GameReport` values (or, for
``--resume``, the report lines an earlier run wrote) and prints the terminal
report (:func:`report_text`) or the same facts as JSON (:meth:`Summary.to_json`).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import Any

from ..rules import Rules
from .groups import Group, group_disagreements
from .validate import AGREED, DISAGREED, FINAL, GAP, KIND_NAMES, REJECTED, RULE_DIFFERENCE, GameReport

__all__ = ["Summary", "report_text", "KINDS", "COLUMNS"]

KINDS = (*KIND_NAMES.values(), "other")
BOARD = "board differs"
CODES = "codes differ"
COLUMNS = (("phases", "phases", "every phase of the records"),
           (AGREED, "agreed", "our adjudication gives what the record shows"),
           (BOARD, "board", "the board differs: units, dislodgements, retreats, centres or the next phase"),
           (CODES, "codes", "only a recorded per-order result code differs (the board agrees)"),
           (RULE_DIFFERENCE, "rule diff", "agrees under another option of a DATC chapter-4 issue (named below)"),
           (REJECTED, "rejected", "cannot be judged: what no adjudicator writes (unreadable text, an unknown "
                                  "unit, two units in one province; reason in --report)"),
           (GAP, "gap", "the record lacks the phase(s) after it (a spring turn, a retreat phase): nothing to "
                        "judge it on; the next recorded phase is judged from its own position"),
           (FINAL, "final", "the record's last phase, not yet played: nothing to compare"))


@dataclass
class Summary:
    games: int = 0
    records_rejected: int = 0
    counts: dict[tuple[str, str], int] = field(default_factory=dict)  # (kind, status) -> phases
    board: dict[str, int] = field(default_factory=dict)  # kind -> disagreements the board shows
    positions_only: dict[str, int] = field(default_factory=dict)  # kind -> phases judged on positions only
    rules_used: dict[str, int] = field(default_factory=dict)  # option -> rule-difference phases
    inferred: dict[str, int] = field(default_factory=dict)  # option -> games that follow it
    first: list[str] = field(default_factory=list)  # one line per disagreement or rejection, up to `show`
    shown_limit: int = 10
    problems: int = 0  # disagreements and rejections seen (shown or not)
    readings: list[str] = field(default_factory=list)  # the archive's rule readings and their evidence
    disagreements: list[dict[str, Any]] = field(default_factory=list)  # their lines, to group them

    @property
    def groups(self) -> list[Group]:
        return group_disagreements(self.disagreements)

    def add(self, report: GameReport) -> None:
        self.add_lines(report.report_lines())

    def add_lines(self, lines: list[dict[str, Any]]) -> None:
        """One record's report lines (its details, then its `record` line)."""
        for line in lines:
            kind = line.get("type")
            if kind == RULE_DIFFERENCE and line.get("rule"):
                self.rules_used[line["rule"]] = self.rules_used.get(line["rule"], 0) + 1
            if kind == DISAGREED:
                self.disagreements.append({k: line.get(k) for k in ("type", "game", "phase", "kind", "differences",
                                                                    "orders", "note")})
            if kind in (DISAGREED, REJECTED):
                self.problems += 1
                if len(self.first) < self.shown_limit:
                    self.first.append(problem_line(line))
            if kind == "readings":
                self.readings = [str(text) for text in line.get("summary", [])]
            if kind == "record":
                self.games += 1
                self.records_rejected += bool(line.get("rejected"))
                for key, n in line.get("counts", {}).items():
                    k, _, status = key.partition("/")
                    self.counts[(k, status)] = self.counts.get((k, status), 0) + n
                for k, n in line.get("board_differs", {}).items():
                    self.board[k] = self.board.get(k, 0) + n
                for k, n in line.get("positions_only", {}).items():
                    self.positions_only[k] = self.positions_only.get(k, 0) + n
                for option in (line.get("inferred_rules") or "").split():
                    self.inferred[option] = self.inferred.get(option, 0) + 1

    def count(self, kind: str | None = None, status: str | None = None) -> int:
        if status in (BOARD, CODES):
            board = sum(n for k, n in self.board.items() if kind is None or k == kind)
            return board if status == BOARD else self.count(kind, DISAGREED) - board
        return sum(n for (k, s), n in self.counts.items()
                   if (kind is None or k == kind) and (status is None or s == status))

    @property
    def failed(self) -> bool:
        return bool(self.count(status=DISAGREED) or self.count(status=REJECTED) or self.records_rejected)

    def to_json(self, rules: Rules) -> dict[str, Any]:
        kinds = [k for k in KINDS if self.count(kind=k)]
        table = {k: {name: self.count(k if k != "total" else None, None if key == "phases" else key)
                     for key, name, _ in COLUMNS} for k in [*kinds, "total"]}
        return {"rules": str(rules), "records": self.games, "records_rejected": self.records_rejected,
                "phases": table, "columns": {name: meaning for _, name, meaning in COLUMNS},
                "positions_only": sum(self.positions_only.values()),
                "inferred_rules": dict(sorted(self.inferred.items())),
                "rule_differences": dict(sorted(self.rules_used.items())), "readings": self.readings,
                "disagreements_and_rejections": self.problems, "first": self.first,
                "groups": [g.to_json() for g in self.groups]}


def problem_line(line: dict[str, Any]) -> str:
    """One disagreement or rejection on one line: game, phase, what differs, ours vs record."""
    where = f"{line.get('game')} {line.get('phase') or ''}".strip()
    if line.get("type") == REJECTED:
        return f"{where}: rejected: {line.get('reason', '')}"
    diffs = line.get("differences", [])
    shown = [f"{d['what']} {d['subject']}: record {d['recorded']}, ours {d['ours']}" for d in diffs[:2]]
    more = f"; +{len(diffs) - 2} more" if len(diffs) > 2 else ""
    first = line.get("conclusions") or []
    return f"{where}: " + "; ".join(shown) + more + (f" -- {first[0]}" if first else "")


def report_text(summary: Summary, rules: Rules) -> str:
    lines = [f"dipsat validate (rules {rules}): {summary.games} records read (games, or cases of case files), "
             f"{summary.records_rejected} rejected as a whole"]
    head = f"{'kind':<10}" + "".join(f"{name:>10}" for _, name, _ in COLUMNS)
    lines.append(head)
    lines.append("-" * len(head))
    kinds = [k for k in KINDS if summary.count(kind=k)]
    for kind in kinds + ["total"]:
        k = None if kind == "total" else kind
        if kind == "total":
            lines.append("-" * len(head))
        cells = [summary.count(k, None if key == "phases" else key) for key, _, _ in COLUMNS]
        lines.append(f"{kind:<10}" + "".join(f"{n:>10}" for n in cells))
    lines += _wrap("columns: " + "; ".join(f"{name} = {meaning}" for _, name, meaning in COLUMNS[1:]))
    positions = sum(summary.positions_only.values())
    if positions:
        lines.append(f"judged on positions only (the record has no per-order results): {positions} phases")
    if summary.readings:
        lines.append("rule readings of the archive (inferred from all its records; --infer game: per game):")
        lines += [part for text in summary.readings for part in textwrap.wrap(
            text, 80, initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False, break_long_words=False)]
    if summary.inferred:
        lines += _wrap("rules the records were judged by (where not ours): " + ", ".join(
            f"{r} ({n} of {summary.games} games)" for r, n in sorted(summary.inferred.items())))
    if summary.rules_used:
        lines += _wrap("rule differences (phases): " + ", ".join(
            f"{r} ({n})" for r, n in sorted(summary.rules_used.items())))
    groups = summary.groups
    if groups:
        shown = groups[:summary.shown_limit]
        more = f", the first {len(shown)}" if len(shown) < len(groups) else ""
        lines.append(f"disagreements grouped by signature ({len(groups)} groups{more}; kind; differences; orders; "
                     "rules that would reproduce them):")
        lines += [f"  {g}" for g in shown]
    if summary.first:
        more = f" of {summary.problems}" if summary.problems > len(summary.first) else ""
        lines.append(f"first disagreements and rejections ({len(summary.first)}{more}; --show N for more, "
                     "--report FILE for all):")
        lines += [f"  {line}" for line in summary.first]
    return "\n".join(lines)


def _wrap(text: str) -> list[str]:
    return textwrap.wrap(text, 80, subsequent_indent="  ", break_on_hyphens=False, break_long_words=False)
