"""The rule readings an archive follows, inferred from evidence, never from one phase.

A maintainer asks of every disagreement "is this my bug, or a rule reading I chose?".
A reading is chosen once for a whole program, so it is inferred for the whole archive
(all records of a ``dipsat validate`` run; ``--infer game`` per record, for archives that
mix programs; ``--infer none``: the given rules only), from the phases where the options of
a DATC chapter-4 issue give different outcomes:

1. each record gathers its **evidence** (:func:`gather`): for every issue its phases can
   touch (:func:`dipsat.runners.rule_scope.issues_touched`), every phase an option can
   affect is judged under every option of that issue, and the phase is kept when some but
   not all options make it agree (a :class:`PhaseEvidence`: the options it agrees under);
2. the archive **decides** (:func:`decide`), issue by issue: an option *fits* when at least
   :data:`MIN_SUPPORT` phases agree under it but not under the given reading (its support)
   and no phase contradicts it (agrees under some option, not under it) -- in a large
   archive, at most :data:`TOLERANCE` of its support. The given reading
   stays when no phase contradicts it; else every option that fits is named (they agree on
   every phase of the archive where the options differ), and the first, alphabetically, is
   the one phases are judged by; when none fits, nothing is inferred;
3. each phase is then classified under the archive's readings: a phase that disagrees
   under them is a disagreement, whatever some other option would say of it alone (its
   note says, as a fact, which options would reproduce it).

Evidence is gathered per record, in the process that judges it (the results are cached
there), so the archive's decision costs no re-adjudication of the records that already
follow it; a record classified by a presumed reading (its program's known one) that the
archive does not follow is judged again under the archive's readings.
An issue given with ``--rule`` is pinned: no evidence is gathered for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ..rules import ISSUES, Rules

__all__ = ["Inference", "Pairs", "PILOT", "MIN_SUPPORT", "TOLERANCE", "ARCHIVE", "GAME", "NONE", "INFER_MODES", "PhaseEvidence", "Reading", "gather", "decide",
           "evidence_to_json", "evidence_from_json", "presumed_readings", "chosen", "readings_text"]

PILOT = 20
"""An archive run judges its first records (in input order) first, presuming the programs'
known readings, and presumes the readings they show for the rest: the fewer records are
judged again, the faster. It changes nothing in the verdicts (decided on all the evidence)."""

MIN_SUPPORT = 2
"""How many phases must agree under an option, and not under the given reading, for it to
be inferred: one phase alone is a disagreement (it may be a bug that happens to match)."""

TOLERANCE = 0.02
"""An option fits only where the phases contradicting it are at most this share of those
supporting it, rounded down: none below 50 supporting phases. A program that follows a
reading shows it in hundreds of phases of a large archive; its bugs that happen to match
another option must not hide the reading (each such phase is still a disagreement under
the reading named, with the phases contradicting it listed as evidence)."""

ARCHIVE, GAME, NONE = "archive", "game", "none"
INFER_MODES = (ARCHIVE, GAME, NONE)
"""``--infer``: readings inferred for the whole run, per record, or not at all."""


Pairs = tuple[tuple[str, tuple[str, ...]], ...]
"""DATC issue -> options, hashable (sorted by issue)."""


@dataclass(frozen=True)
class Inference:
    """What a worker is asked to do about rule readings (one record)."""

    mode: str = GAME
    readings: Pairs | None = None
    """Judge by these (issue -> the options that fit, the first judged by): no evidence gathered."""
    check: Pairs | None = None
    """Only gather the evidence of these issues, trying these options on every phase they can
    affect but the `disagreeing` ones (which agree under the given rules: not judged again)."""
    disagreeing: frozenset[str] = frozenset()
    """With `check`: the phases (by name) that disagree under the given rules."""
    only: frozenset[str] | None = None
    """Report only the phases of these names."""
    presumed: Pairs | None = None
    """The readings to presume (issue -> the options that fit) instead of the program's known
    ones: those a first part of the archive showed."""
    complete: bool = False
    """Try every option on every phase an issue can affect (the first records of an archive
    run: the readings they show are presumed for the rest, so they must rule out all they can)."""
    pinned: frozenset[str] = frozenset()
    """The issues given with ``--rule`` (even where the option given is the profile's own):
    never inferred."""


@dataclass(frozen=True, slots=True)
class PhaseEvidence:
    """One phase where the options of an issue differ: the options it agrees under, of
    those tried (all of them when `tried` is empty)."""

    game: str
    phase: str
    agrees: tuple[str, ...]
    tried: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.game} {self.phase}"

    def knows(self, option: str) -> bool:
        """Was the phase judged under `option`?"""
        return not self.tried or option in self.tried


class _Judge(Protocol):
    """What :func:`gather` needs of a record's judge (:class:`dipsat.runners.judge.Judge`)."""

    rules: Rules
    playable: list[int]
    scope: dict[int, frozenset[str]]

    def affected(self, issue: str) -> list[int]: ...

    def rules_with(self, overrides: dict[str, str]) -> Rules: ...

    def judge(self, indices: list[int], rules: Rules) -> dict[int, Any]: ...

    def judge_many(self, asked: list[tuple[list[int], Rules]]) -> list[dict[int, Any]]: ...

    def phase_name(self, i: int) -> str: ...


def issues_of(judge: _Judge, skip: tuple[str, ...], pinned: Iterable[str]) -> list[str]:
    """The issues a record's phases touch that evidence is gathered for."""
    pinned = set(pinned)
    return sorted({n for i in judge.playable for n in judge.scope[i]
                   if n in ISSUES and n not in pinned and not n.startswith(skip)})


def gather(judge: _Judge, game: str, presumed: Mapping[str, str], issues: Iterable[str],
           options: Mapping[str, Iterable[str]] | None = None, disagreeing: frozenset[str] | None = None,
           also: Mapping[str, Iterable[str]] | None = None,
           ) -> tuple[dict[str, list[PhaseEvidence]], dict[str, list[str]]]:
    """The evidence of one record on `issues`, each phase judged under each option with the
    other issues as given: the phases where some but not all options tried agree, and,
    per issue, the options tried on phases not judged under every option (``unchecked``).

    With `options` (issue -> options), only those (and the given and presumed ones) are
    tried, on every phase the issue can affect. Without, every option is tried on the
    phases that disagree under the given rules (the only ones that can support an option),
    and only the given and presumed ones (and those in `also`) on the others (which can only contradict one: the
    archive asks for more, :mod:`dipsat.runners.archive`, when another option has support).
    With `disagreeing` (the names of the phases that disagree under the given rules), the
    others are known to agree under them (from an earlier pass): only `options` are tried,
    on them alone."""
    evidence: dict[str, list[PhaseEvidence]] = {}
    unchecked: dict[str, list[str]] = {}
    issues = list(issues)
    affected = {issue: judge.affected(issue) for issue in issues}
    if disagreeing is None and options is None:  # the given rules first: the phases that differ under them
        judge.judge(sorted({i for issue in issues for i in affected[issue]}), judge.rules)
    plans = []
    asked: list[tuple[list[int], Rules]] = []
    for issue in issues:
        phases = affected[issue]
        every = list(ISSUES[issue].options)
        given_option = judge.rules.choice(issue)
        few = sorted({given_option, presumed.get(issue, given_option), *(options or {}).get(issue, ()),
                      *(also or {}).get(issue, ())} & set(every))
        if disagreeing is not None:
            phases = [i for i in phases if judge.phase_name(i) not in disagreeing]
            complete = []
        elif options is None:
            given = judge.judge(phases, judge.rules)
            complete = [i for i in phases if given[i][1]]
        else:
            complete = []
        partial = [i for i in phases if i not in complete]
        tries = []
        for option in every:
            todo = complete + partial if option in few else complete
            known = disagreeing is not None and option == given_option  # known to agree: not among the disagreeing
            if todo and not known:
                tries.append((option, todo, len(asked)))
                asked.append((todo, judge.rules_with({issue: option})))
            elif known:
                tries.append((option, todo, -1))
        plans.append((issue, phases, every, few, complete, partial, tries))
    answers = judge.judge_many(asked)  # every option of every issue in few batches
    for issue, phases, every, few, complete, partial, tries in plans:
        agrees: dict[int, list[str]] = {i: [] for i in phases}
        for option, todo, at in tries:
            for i in todo:
                if at < 0 or not answers[at][i][1]:
                    agrees[i].append(option)
        rows = []
        for i in phases:
            tried = () if i in complete or len(few) == len(every) else tuple(few)
            if agrees[i] and len(agrees[i]) < len(tried or every):
                rows.append(PhaseEvidence(game, judge.phase_name(i), tuple(sorted(agrees[i])), tried))
        if rows:
            evidence[issue] = rows
        if partial and len(few) < len(every):
            unchecked[issue] = few
    return evidence, unchecked


@dataclass(frozen=True)
class Reading:
    """The archive's reading of one issue, and the evidence for it."""

    issue: str
    given: str
    fitting: tuple[str, ...]
    """Every option that fits (sorted; the first is judged by); empty: the given reading stays."""
    support: Mapping[str, tuple[PhaseEvidence, ...]]
    """Per option: the phases that agree under it but not under the given reading."""
    against: Mapping[str, tuple[PhaseEvidence, ...]]
    """Per option: the phases that contradict it (agree under another option, not under it)."""

    @property
    def chosen(self) -> str | None:
        return self.fitting[0] if self.fitting else None

    def to_json(self) -> dict[str, Any]:
        def phases(table: Mapping[str, tuple[PhaseEvidence, ...]]) -> dict[str, list[str]]:
            return {o: [str(p) for p in rows] for o, rows in sorted(table.items()) if rows}

        return {"issue": self.issue, "given": self.given, "inferred": list(self.fitting),
                "support": phases(self.support), "against": phases(self.against)}

    def summary(self, shown: int = 3) -> str:
        """One line: the reading and its evidence (``4.D.8=godip: 30 phases agree only under
        it, none contradicts it``), or why none is inferred."""
        if self.fitting:
            names = " or ".join(f"{self.issue}={o}" for o in self.fitting)
            n, against = len(self.support[self.fitting[0]]), self.against.get(self.fitting[0], ())
            if not against:
                return f"{names}: {n} phases agree only under it, none contradicts it"
            return (f"{names}: {n} phases agree only under it, {len(against)} contradict it (disagreements: "
                    f"{', '.join(str(p) for p in against[:shown])}{', ...' if len(against) > shown else ''})")
        tried = sorted((o for o in self.support if self.support[o]), key=lambda o: (-len(self.support[o]), o))
        parts = []
        for o in tried:
            against = self.against.get(o, ())
            why = (f"contradicted by {len(against)} ({', '.join(str(p) for p in against[:shown])}"
                   f"{', ...' if len(against) > shown else ''})" if against
                   else f"fewer than {MIN_SUPPORT} phases support it")
            parts.append(f"{self.issue}={o}: {len(self.support[o])} phases agree only under it, {why}")
        return f"{self.issue}: given reading {self.given} kept; " + "; ".join(parts)


def decide(evidence: Iterable[Mapping[str, Iterable[PhaseEvidence]]], rules: Rules,
           prefer: Mapping[str, str] | None = None) -> dict[str, Reading]:
    """The archive's reading of each issue some record has evidence for (see the module
    docstring), from the evidence of all its records. Of several options that fit, the
    one in `prefer` is judged by (they agree wherever the archive shows a difference),
    else the first alphabetically; all are named."""
    prefer = prefer or {}
    rows: dict[str, list[PhaseEvidence]] = {}
    for record in evidence:
        for issue, phases in record.items():
            rows.setdefault(issue, []).extend(phases)
    out = {}
    for issue in sorted(rows):
        phases = rows[issue]
        given = rules.choice(issue)
        support = {o: tuple(p for p in phases if o in p.agrees and given not in p.agrees and p.knows(given))
                   for o in ISSUES[issue].options}
        against = {o: tuple(p for p in phases if o not in p.agrees and p.knows(o)) for o in ISSUES[issue].options}
        fitting: tuple[str, ...] = ()
        if against[given]:
            fitting = tuple(sorted((o for o in ISSUES[issue].options
                                    if o != given and len(support[o]) >= MIN_SUPPORT
                                    and len(against[o]) <= int(len(support[o]) * TOLERANCE)),
                                   key=lambda o: (o != prefer.get(issue), len(against[o]), o)))
        out[issue] = Reading(issue, given, fitting, support, against)
    return out


def chosen(readings: Mapping[str, Reading]) -> dict[str, str]:
    """The options to judge by: the first that fits, of each issue where one does."""
    return {n: r.fitting[0] for n, r in readings.items() if r.fitting}


def readings_text(options: Mapping[str, str]) -> str:
    return " ".join(f"{n}={o}" for n, o in sorted(options.items()))


def presumed_readings(known: Mapping[str, str], rules: Rules, pinned: Iterable[str] = ()) -> dict[str, str]:
    """The readings a record is first classified by in an archive run: its program's known
    ones (see :data:`dipsat.runners.validate.KNOWN_READINGS`), except where pinned or equal
    to the given ones. The archive's decision replaces them; they only spare re-judging."""
    pinned = set(pinned) | set(rules.overrides)
    return {n: o for n, o in known.items() if n not in pinned and o != rules.choice(n)}


def evidence_to_json(evidence: Mapping[str, Iterable[PhaseEvidence]]) -> dict[str, list[list[Any]]]:
    """For the record line of the report (what ``--resume`` reads back): per issue,
    ``[phase, agrees]`` or, when not every option was tried, ``[phase, agrees, tried]``."""
    return {n: [[p.phase, list(p.agrees)] + ([list(p.tried)] if p.tried else []) for p in rows]
            for n, rows in sorted(evidence.items())}


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(o, str) for o in value)


def evidence_from_json(game: str, data: Any) -> dict[str, list[PhaseEvidence]]:
    """The evidence of a record line (an unreadable one counts as none)."""
    out: dict[str, list[PhaseEvidence]] = {}
    if not isinstance(data, dict):
        return out
    for issue, rows in data.items():
        if issue not in ISSUES or not isinstance(rows, list):
            continue
        for row in rows:
            if (isinstance(row, list) and len(row) in (2, 3) and isinstance(row[0], str)
                    and all(_strings(part) for part in row[1:])):
                tried = tuple(row[2]) if len(row) == 3 else ()
                out.setdefault(issue, []).append(PhaseEvidence(game, row[0], tuple(row[1]), tried))
    return out


# --- an archive run: the records' report lines --------------------------------------------------


def parse_readings(text: str) -> dict[str, str]:
    """``"4.A.3=intent 4.D.8=godip"`` (a record line's ``inferred_rules``) as a dict."""
    return dict(part.split("=", 1) for part in text.split() if "=" in part)


def line_evidence(line: Mapping[str, Any]) -> dict[str, list[PhaseEvidence]]:
    return evidence_from_json(str(line.get("game", "")), line.get("evidence"))


def archive_readings(record_lines: Iterable[Mapping[str, Any]], rules: Rules) -> dict[str, Reading]:
    """The archive's readings from the `record` lines of its records (new or resumed),
    preferring among options that fit the one the records were presumed to follow."""
    lines = list(record_lines)
    used: dict[str, set[str]] = {}
    for line in lines:
        for n, o in parse_readings(str(line.get("inferred_rules") or "")).items():
            used.setdefault(n, set()).add(o)
    prefer = {n: next(iter(options)) for n, options in used.items() if len(options) == 1}
    return decide((line_evidence(line) for line in lines), rules, prefer)


def record_readings(line: Mapping[str, Any], readings: Mapping[str, Reading]) -> str:
    """A record's ``inferred_rules`` in an archive run: the archive's options of the issues
    it has evidence for."""
    judged_by = chosen(readings)
    return readings_text({n: judged_by[n] for n in line_evidence(line) if n in judged_by})


def readings_line(readings: Mapping[str, Reading], mode: str) -> dict[str, Any]:
    """The report's last line in an archive run: each issue's reading and its evidence."""
    return {"type": "readings", "source": "", "game": "", "infer": mode,
            "readings": [r.to_json() for _, r in sorted(readings.items())],
            "summary": [r.summary() for _, r in sorted(readings.items()) if r.fitting or any(r.support.values())]}
