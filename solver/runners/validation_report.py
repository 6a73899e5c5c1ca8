"""The report of a validation (:mod:`dipsat.runners.validate`): per phase its status, the
differences from the record and what explains them; per record the counts and the readings
it was judged by, and the JSONL report's lines."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..board import PhaseKind
from ..rules import Rules
from .inference import PhaseEvidence, evidence_to_json

__all__ = ["PhaseStatus", "AGREED", "DISAGREED", "RULE_DIFFERENCE", "REJECTED", "GAP", "FINAL", "STATUSES", "Basis",
           "POSITIONS", "RESULTS", "Difference", "PhaseReport", "GameReport", "KIND_NAMES", "kind_name",
           "rejected_record"]


class PhaseStatus(StrEnum):
    """What validation concluded of a phase (the module docstring of :mod:`dipsat.runners.validate`
    says each); str-valued: the JSON report writes the value."""

    AGREED = "agreed"
    DISAGREED = "disagreed"
    RULE_DIFFERENCE = "rule-difference"
    REJECTED = "rejected"
    FINAL = "final"
    GAP = "gap"  # the record lacks the phase(s) after this one: see dipsat.runners.gaps


AGREED = PhaseStatus.AGREED
DISAGREED = PhaseStatus.DISAGREED
RULE_DIFFERENCE = PhaseStatus.RULE_DIFFERENCE
REJECTED = PhaseStatus.REJECTED
FINAL = PhaseStatus.FINAL
GAP = PhaseStatus.GAP
STATUSES = (AGREED, DISAGREED, RULE_DIFFERENCE, REJECTED, GAP, FINAL)


class Basis(StrEnum):
    """What a phase was judged on (:attr:`PhaseReport.basis`)."""

    RESULTS = "results"
    POSITIONS = "positions"


POSITIONS = Basis.POSITIONS
RESULTS = Basis.RESULTS


@dataclass(frozen=True)
class Difference:
    """One thing the record and dipsat disagree on."""

    what: str  # "order", "dislodged", "retreats", "unit", "centre", "phase"
    subject: str  # the order as recorded, the unit, the centre ...
    recorded: str
    ours: str

    def to_json(self) -> dict[str, str]:
        return {"what": self.what, "subject": self.subject, "recorded": self.recorded, "ours": self.ours}

    @property
    def on_board(self) -> bool:
        """Does it show on the board (units, dislodgements, retreats, centres, the phase),
        or only in a recorded result code?"""
        return self.what != "order"


@dataclass
class PhaseReport:
    index: int
    name: str
    kind: str  # "movement", "retreat", "adjustment", "other"
    status: PhaseStatus
    reason: str = ""  # rejected: why
    note: str = ""  # e.g. what could not be compared
    differences: list[Difference] = field(default_factory=list)  # under our rules
    orders: list[str] = field(default_factory=list)  # the orders involved, as recorded
    explanation: dict[str, list[str]] = field(default_factory=dict)
    conclusions: list[str] = field(default_factory=list)
    """Per order involved (and civil-disorder removal): what the record implies happened to
    it against dipsat's outcome and its reason (:mod:`dipsat.runners.conclusions`)."""
    rule: str | None = None  # rule-difference: "4.A.3=fallback"
    rule_title: str = ""
    rule_options: list[str] = field(default_factory=list)  # every option (or pair) that reproduces the record
    basis: Basis = RESULTS
    """What the phase was judged on: ``results`` (the record's per-order result codes and
    the next position) or ``positions`` (the next position only: the record has no results)."""
    case: str = ""
    """With ``cases=True``: the phase as a jDip case file (position, orders, the record's
    outcome as POSTSTATE, ours as comments), for disagreements and rule differences."""
    pictures: dict[str, str] = field(default_factory=dict)
    """With ``pictures=True`` (``dipsat validate --html``), drawn by the process that judged the
    phase, for disagreements, rule differences and rejected phases with a position: SVG texts
    by name (:func:`dipsat.printers.pictures.validation_pictures`): ``before`` (the position, the
    recorded orders and our results), and where the boards differ ``record`` (the record's
    next position) and ``ours`` (ours), of the same corner of the map; ``error``: why a
    picture could not be drawn."""

    @property
    def board_differs(self) -> bool:
        return any(d.on_board for d in self.differences)


@dataclass
class GameReport:
    game: str
    source: str
    rules: str
    phases: list[PhaseReport] = field(default_factory=list)
    error: str | None = None  # the whole record was rejected
    inferred: str = ""
    """The options the record was judged by where they differ from `rules` (``"4.A.3=fallback"``):
    the archive's (or the record's, ``--infer game``) readings of the issues its phases touch."""
    evidence: dict[str, list[PhaseEvidence]] = field(default_factory=dict)
    """Per DATC issue, the phases where its options give different outcomes (:mod:`.inference`)."""
    unchecked: dict[str, list[str]] = field(default_factory=dict)
    """Per DATC issue, the options tried on its phases not judged under every option."""
    judged_by: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Per DATC issue, the options that fit (the first judged by) the phases were classified by."""

    def counts(self) -> dict[tuple[str, str], int]:
        out: dict[tuple[str, str], int] = {}
        for p in self.phases:
            out[(p.kind, p.status)] = out.get((p.kind, p.status), 0) + 1
        return out

    def record_line(self) -> dict[str, Any]:
        """The last report line of every record: its counts (what --resume reads back)."""
        counts = {f"{kind}/{status}": n for (kind, status), n in sorted(self.counts().items())}
        board: dict[str, int] = {}
        positions: dict[str, int] = {}
        for p in self.phases:
            if p.status == DISAGREED and p.board_differs:
                board[p.kind] = board.get(p.kind, 0) + 1
            if p.basis == POSITIONS and p.status != FINAL:
                positions[p.kind] = positions.get(p.kind, 0) + 1
        return {"type": "record", "game": self.game, "source": self.source, "rules": self.rules,
                "rejected": self.error is not None, "counts": counts, "board_differs": dict(sorted(board.items())),
                "positions_only": dict(sorted(positions.items())), "inferred_rules": self.inferred,
                "evidence": evidence_to_json(self.evidence), "unchecked": dict(sorted(self.unchecked.items())),
                "judged_by": {n: list(o) for n, o in sorted(self.judged_by.items())}}

    def report_lines(self) -> list[dict[str, Any]]:
        """The JSONL report's lines for this game: one per rejected record, rejected
        phase, disagreement and rule difference, then its `record` line."""
        return self._detail_lines() + [self.record_line()]

    def _detail_lines(self) -> list[dict[str, Any]]:
        base = {"game": self.game, "source": self.source, "rules": self.rules}
        if self.error is not None:
            return [{**base, "type": "rejected", "phase": None, "reason": self.error}]
        lines = []
        for p in self.phases:
            if p.status in (AGREED, FINAL):
                continue
            line: dict[str, Any] = {**base, "type": p.status, "phase": p.name, "index": p.index, "kind": p.kind,
                                    "basis": p.basis}
            if p.status in (REJECTED, GAP):
                line["reason"] = p.reason
            else:
                line["differences"] = [d.to_json() for d in p.differences]
                line["board_differs"] = p.board_differs
                line["orders"] = p.orders
                line["explanation"] = p.explanation
                line["conclusions"] = p.conclusions
                if p.note:
                    line["note"] = p.note
                if p.status == RULE_DIFFERENCE:
                    line["rule"] = p.rule
                    line["rule_title"] = p.rule_title
                    line["rule_options"] = p.rule_options
            lines.append(line)
        return lines


KIND_NAMES = {PhaseKind.MOVEMENT: "movement", PhaseKind.RETREAT: "retreat", PhaseKind.ADJUSTMENT: "adjustment"}
"""How reports name the kind of a phase; anything else (no phase, unreadable) is ``"other"``."""


def kind_name(kind: PhaseKind | None) -> str:
    return KIND_NAMES.get(kind, "other") if kind is not None else "other"


def rejected_record(source: str, reason: str, rules: Rules | None = None, game: str | None = None) -> GameReport:
    """A record that could not be read at all (bad JSON, not a saved game ...)."""
    return GameReport(game or source, source, str(rules or Rules.profile()), [], reason)

