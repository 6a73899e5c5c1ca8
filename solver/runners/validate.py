"""Validate recorded games: re-adjudicate every phase and compare with the record.

:func:`validate_recorded` takes a recorded game of any archive format (a
:class:`~dipsat.formats.records.RecordedGame`: the ``diplomacy`` package's saved games and
webDiplomacy exports through :mod:`dipsat.formats.diplomacy_json`, Droidippy/godip
histories through :mod:`dipsat.formats.godip`) and the rules to judge by, and
returns a :class:`GameReport` with one :class:`PhaseReport` per phase of the
record. It is a pure function of its arguments and never raises, so a process pool
(or Dask) can map it over games; :func:`validate_text` and :func:`validate_godip`
do the same from a record's text.

Per phase the status is one of

- ``agreed``: our adjudication of the recorded orders gives the recorded outcome;
- ``disagreed``: it does not, under our rules nor under the rules the record is
  inferred to follow; the report says whether the board differs or only a
  recorded result code;
- ``rule-difference``: it does not under our rules, but does under the readings the
  record is judged by: the archive's, inferred from the evidence of all its records
  (:mod:`dipsat.runners.inference`: an option of a DATC chapter-4 issue is taken when at
  least two phases agree only under it and none contradicts it; ``--infer game`` per
  record), over the phases each issue can affect (decided statically by
  :mod:`dipsat.runners.rule_scope`: a ``VIA`` move to an adjacent province for 4.A.3, a
  civil-disorder removal for 4.D.8, ...). The report names the options the phase needs,
  e.g. ``4.A.3=intent``: the package lets an army ordered ``VIA`` to an adjacent province
  take the land route when no fleet is ordered to convoy it (the DATC v2.x reading); DATC
  v3.0 keeps it in place. An option that would reproduce a disagreeing phase but that the
  archive does not support is only named in the phase's ``note``. Issues the record
  formats cannot express are not tried: 4.A.6 (a written-out convoy path) and 4.C
  (missing or wrong unit kind or nationality);
- ``rejected``: what no adjudicator writes (unreadable text, an unknown province or
  unit, two units in one province; without per-order results, a phase whose next
  phase is rejected). A position no adjudication gives is a disagreement of its phase;
- ``gap``: the record lacks the phase(s) after this one (:mod:`dipsat.runners.gaps`);
  the next recorded phase is judged from its own position;
- ``final``: the record's last phase, not yet played (nothing to compare).

Records without per-order results (webDiplomacy exports have ``"results": {}``,
godip histories have none) are judged on the next phase's position alone
(``basis: positions`` in the report): no result code is ever invented. A retreat
phase of such a record gets its attackers' origins and the standoffs from our
adjudication of the movement before it (:func:`dipsat.formats.records.with_attackers`).

What is compared
----------------
1. **Each order's outcome**, in the package's vocabulary. The package's result
   codes and what dipsat calls them:

   =================  ============================================================
   package code       dipsat
   =================  ============================================================
   (none) / ``""``    the order succeeded (move made, support given, convoy
                      carried, retreat made, build/removal done)
   ``bounce``         move: :attr:`Reason.BOUNCED`; retreat: several retreats to
                      one area (we say BOUNCED, the unit is disbanded)
   ``void``           :attr:`Reason.VOID` (a support/convoy matching no order)
                      or :attr:`Reason.ILLEGAL`; adjustments: a build or removal
                      not carried out (our ILLEGAL or BLOCKED)
   ``cut``            :attr:`Reason.CUT`
   ``dislodged``      :attr:`Reason.DISLODGED` (and the unit in the dislodged list)
   ``no convoy``      move: :attr:`Reason.NO_PATH` (also a convoy paradox settled
                      by Szykman, :attr:`Reason.PARADOX`); convoy: the fleet is on
                      no complete route (our VOID)
   ``disrupted``      convoy: the fleet was attacked strongly enough to break the
                      convoy (our PARADOX for a convoy order settled by a backup
                      rule); a fleet actually dislodged gets ``dislodged`` instead
   ``disband``        retreat phase: the unit was disbanded (ordered ``D``, not
                      ordered, or its retreat bounced)
   =================  ============================================================

   Units may carry several codes (``bounce`` + ``dislodged``, ``cut`` +
   ``dislodged``); the order's class is read from them as: move ->
   ``no convoy`` / ``bounce`` / ``void`` / moves; support -> ``void`` /
   ``no convoy`` / cut (``cut`` or ``dislodged``) / given; convoy ->
   ``dislodged`` / ``disrupted`` / void (``void`` or ``no convoy``) / carried.

2. **Dislodged units and their retreat options**: the units marked ``*`` in the
   record's next phase (a retreat phase) and that phase's ``retreats`` table,
   against ours.
3. **The next position**: the record's next phase's units (and the phase name)
   and supply-centre ownership, against our state after the phase.

Known reporting differences (normalised, never counted)
-------------------------------------------------------
- The package writes supported and convoyed destinations without coasts
  (``F MAO S F GAS - SPA``): read as written; a support names a province.
- A dislodged unit with no retreat is removed at once: no ``*`` unit, no retreat
  phase (dipsat does the same, jDip's convention).
- Phases with nothing to do are skipped: no retreat phase when no dislodged unit
  can retreat, no adjustment phase when nobody must remove or can build. When the
  record skips the adjustment phase, our adjustment phase is played without
  orders (so a missed removal would still show) and compared with the next spring.
- The adjustment phase is called ``W1901A``; dipsat's is "Fall 1901, Adjustment".
- A support for a move into an area held by a unit of the supporting power is
  reported ``void`` when that support did not count (DATC: it is given but not
  counted for dislodging one's own unit); dipsat calls it successful.
- A support or convoy for an army whose convoy failed is reported ``void`` or
  ``no convoy``, whatever happened to it; its outcome cannot matter and is not
  compared. For the same reason a convoy order is not compared when its army's
  move failed for want of a convoy.
- ``WAIVE`` and orders the package voided when they were given are not kept in
  the record's ``orders`` (their ``void`` may still be in ``results``); results
  of units without a recorded order are compared through the next position.
- When the record's next phase is at another stage than ours (a retreat phase on
  one side only), centre ownership is not compared: it changes at the adjustment.

What the bundled corpus shows about the package (``diplomacy`` 1.1.2), see
``cases/peers/diplomacy_package.txt`` for its bugs:

- rule readings (:data:`KNOWN_READINGS`): 4.A.3 -- ``VIA`` with no convoy route
  ordered takes the land route, an ordered convoy is taken when the order says
  ``VIA`` or a fleet of the army's power convoys it (``4.A.3=intent``, DATC v2.x
  d; a few games fit ``convoy_first`` better). 4.A.2 -- a convoyed army does not
  cut a support for or against a convoying fleet (like the 1982 rule,
  ``4.A.2=b``). 4.D.8 -- civil-disorder removals by distance to the home supply
  centres, armies also at sea, fleets as fleets, ties by abbreviation
  (``4.D.8=diplomacy``);
- bugs: a support from the convoying fleet's own power counts when it decides that
  a convoy is disrupted; with ``VIA``, a support from the defender's own power
  counts for dislodging it; a unit dislodged by a convoyed army is offered every
  adjacent area as retreat (occupied ones, and those left empty by a standoff).
"""

from __future__ import annotations

import re
import traceback
from dataclasses import dataclass, field, replace
from collections.abc import Iterable
from typing import Any

from ..adjudicator import adjudicate, adjudicate_many
from ..movement import MovementTrace, prescan
from ..movement.prescan import rescan
from ..movement.turn import reread
from ..board import Location, PhaseKind, Unit, UnitKind
from ..printers.explain import explain
from ..formats.diplomacy_json import read_game
from ..formats.godip import read_godip_game
from ..printers.pictures import position_pictures, validation_pictures
from ..formats.records import (RecordedGame, RecordedPhase, RecordError, format_location, format_unit, package_phase_name,
                      with_attackers)
from .gaps import skipped_phases, through_missing_retreat
from .rule_scope import issues_touched
from .written_cases import Status, case_name, disagreement_case
from .conclusions import conclusions, disorder_explanation
from .inference import (GAME, NONE, Inference, PhaseEvidence, decide, evidence_to_json, gather, issues_of, presumed_readings,
                        readings_text)
from ..state import State
from ..orders import Build, Convoy, Disband, Move, Order, SupportHold, SupportMove, ordered_province
from ..results import OrderResult, PhaseResult, Reason
from ..rules import ISSUES, Rules

__all__ = ["AGREED", "DISAGREED", "RULE_DIFFERENCE", "REJECTED", "GAP", "FINAL", "Difference", "PhaseReport",
           "GameReport", "validate_game", "validate_text", "rejected_record", "alternative_rules", "case_name"]

AGREED = "agreed"
DISAGREED = "disagreed"
RULE_DIFFERENCE = "rule-difference"
REJECTED = "rejected"
FINAL = "final"
GAP = "gap"  # the record lacks the phase(s) after this one: see dipsat.runners.gaps
STATUSES = (AGREED, DISAGREED, RULE_DIFFERENCE, REJECTED, GAP, FINAL)

# Which DATC issues can change a phase of each kind (tried for rule differences of case files).
ISSUES_BY_KIND = {
    PhaseKind.MOVEMENT: ("4.A", "4.B", "4.C", "4.D.3", "4.D.9", "4.E"),
    PhaseKind.RETREAT: ("4.A.5", "4.B", "4.D.3"),
    PhaseKind.ADJUSTMENT: ("4.B.7", "4.C", "4.D"),
}
KNOWN_READINGS: dict[str, dict[str, str]] = {
    # the `diplomacy` package (and the webDiplomacy exports in its format): 'VIA' with no
    # convoy ordered goes by land (DATC v2.x 4.A.3 d), the 1982-like convoy rule, civil
    # disorder by distance to the home centres with armies also at sea, ties by abbreviation
    "diplomacy": {"4.A.3": "intent", "4.A.2": "b", "4.D.8": "diplomacy"},
    # godip (Droidippy): the same adjacent-convoy reading; civil disorder by distance to
    # the nearest home centre, armies and fleets both over land and sea
    "godip": {"4.A.3": "intent", "4.D.8": "godip"},
    # webDiplomacy (its exports in the package's format, without results): an army goes by
    # convoy to an adjacent province only when the order says VIA (and a convoy is ordered)
    "webdiplomacy": {"4.A.3": "via"},
}
"""The readings each archive format's adjudicator is known to follow: tried first when the
rules of a record are inferred, and taken when another option explains a game equally well."""

POSITIONS = "positions"
RESULTS = "results"


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
    status: str
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
    basis: str = RESULTS
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
    return KIND_NAMES.get(kind, "other")  # type: ignore[arg-type]


def rejected_record(source: str, reason: str, rules: Rules | None = None, game: str | None = None) -> GameReport:
    """A record that could not be read at all (bad JSON, not a saved game ...)."""
    return GameReport(game or source, source, str(rules or Rules.profile()), [], reason)


def validate_text(text: str, source: str, rules: Rules, cases: bool = False, *, pictures: bool = False,
                  inference: Inference = Inference(), retained: Retained | None = None) -> GameReport:
    """One saved game as JSON text (a ``.json`` file or one line of a ``.jsonl``)."""
    from ..formats.dipsat_json import JsonFormatError, parse_json

    try:
        record = parse_json(text, "JSON")  # every way json.loads fails, in words (nesting, long numbers)
    except JsonFormatError as exc:
        return rejected_record(source, f"malformed {exc.problems[0]}", rules)
    return validate_game(record, rules, source, cases, pictures=pictures, inference=inference, retained=retained)


def validate_game(record: Any, rules: Rules, source: str = "", cases: bool = False, *,
                  pictures: bool = False, inference: Inference = Inference(),
                  retained: Retained | None = None) -> GameReport:
    """Validate every phase of one recorded game of the ``diplomacy`` package; never raises."""
    try:
        game = read_game(record)
    except RecordError as exc:
        gid = record.get("id") if isinstance(record, dict) else None
        return rejected_record(source, str(exc), rules, str(gid) if gid is not None else None)
    except Exception as exc:  # noqa: BLE001 - a report, never an exception
        return rejected_record(source, f"unreadable record: {type(exc).__name__}: {exc}", rules)
    return validate_recorded(game, rules, source, cases, pictures=pictures, inference=inference, retained=retained)


def validate_godip(text: str, source: str, rules: Rules, cases: bool = False, *, pictures: bool = False,
                   inference: Inference = Inference(), retained: Retained | None = None) -> GameReport:
    """One Droidippy/godip game history (the text of a ``game_N.txt``); never raises."""
    try:
        game = read_godip_game(text, source)
    except RecordError as exc:
        return rejected_record(source, str(exc), rules)
    except Exception as exc:  # noqa: BLE001 - a report, never an exception
        return rejected_record(source, f"unreadable record: {type(exc).__name__}: {exc}", rules)
    return validate_recorded(game, rules, source, cases, pictures=pictures, inference=inference, retained=retained)


class Retained:
    """The judges of records kept in this process between the passes of an archive run
    (one worker): a record asked again (:mod:`dipsat.runners.archive`) is neither read
    nor adjudicated again where it was already (its results are cached in its judge).
    Bounded: judges are kept until they hold `limit` phases in all, the rest are not."""

    def __init__(self, limit: int = 20_000) -> None:  # about 60 kB a phase: about 1 GB
        self.limit = limit
        self.phases = 0
        self._judges: dict[tuple[str, str], _Judge] = {}

    def game(self, source: str, rules: Rules) -> RecordedGame | None:
        """The record read already from `source`, if its judge is kept."""
        judge = self._judges.get((source, str(rules)))
        return judge.game if judge is not None else None

    def judge(self, source: str, game: RecordedGame, rules: Rules) -> _Judge:
        """The kept judge of `source` (`game` under `rules`), or a new one, kept if there is room."""
        key = (source, str(rules))
        judge = self._judges.get(key)
        if judge is None or judge.game is not game:
            judge = _Judge(game, rules)
            if self.phases + len(game.phases) <= self.limit:
                self._judges[key] = judge
                self.phases += len(game.phases)
        return judge


def validate_retained(source: str, rules: Rules, retained: Retained, cases: bool = False, *, pictures: bool = False,
                      inference: Inference = Inference()) -> GameReport | None:
    """The record of `source` judged again with its kept judge (None: not kept)."""
    game = retained.game(source, rules)
    if game is None:
        return None
    return validate_recorded(game, rules, source, cases, pictures=pictures, inference=inference, retained=retained)


def validate_recorded(game: RecordedGame, rules: Rules, source: str = "", cases: bool = False, *,
                      pictures: bool = False, inference: Inference = Inference(),
                      retained: Retained | None = None) -> GameReport:
    """Validate every phase of a recorded game of any archive format; never raises.

    The game is judged under `rules`, and the rule readings it follows are found as
    :mod:`dipsat.runners.inference` describes, as `inference` asks: with its `readings` (an
    archive's) they are taken as given; else the record's evidence is gathered and, in mode
    ``game``, the readings are decided from it alone; in mode ``archive`` its program's known
    readings are presumed (the caller decides for the archive and asks again where needed:
    `check` gives the evidence alone, `only` reports only the phases named); mode ``none``:
    the given rules only. Phases that agree only under the readings are
    rule differences. With `cases`, each disagreement and rule difference carries its case
    file (:attr:`PhaseReport.case`); with `pictures`, they and the rejected phases carry
    their pictures (:attr:`PhaseReport.pictures`); with `retained`, the record's judge is
    kept there (or taken from there) for the passes to come."""
    report = GameReport(game.id, source or game.id, str(rules))
    try:
        judge = retained.judge(source or game.id, game, rules) if retained is not None else _Judge(game, rules)
        fitting: Readings = {}
        pinned = inference.pinned | frozenset(rules.overrides)
        presumption = {n: o for n, o in (inference.presumed or ()) if n not in pinned and o}
        presumed = ({n: o[0] for n, o in presumption.items()} if inference.presumed is not None
                    else presumed_readings(judge.known, rules, pinned))
        if inference.check is not None:
            check = dict(inference.check)
            report.evidence, report.unchecked = gather(judge, game.id, presumed, sorted(check), check,
                                                       inference.disagreeing)
            if inference.only is None:
                return report
        if inference.readings is not None:
            fitting = {n: options for n, options in inference.readings if n not in pinned and options}
        elif inference.mode != NONE:
            issues = issues_of(judge, NOT_IN_RECORDS, pinned)
            if inference.mode == GAME:
                report.evidence, _ = gather(judge, game.id, presumed, issues, {n: ISSUES[n].options for n in issues})
                fitting = {n: r.fitting for n, r in decide([report.evidence], rules, judge.known).items() if r.fitting}
            else:
                report.evidence, report.unchecked = gather(
                    judge, game.id, presumed, issues, {n: ISSUES[n].options for n in issues} if inference.complete
                    else None, also=presumption)
                fitting = {n: presumption.get(n, (o,)) for n, o in presumed.items()
                           if n in report.evidence or n in report.unchecked}
        inferred = {n: options[0] for n, options in fitting.items()}
        report.judged_by = dict(sorted(fitting.items()))
        final_rules = judge.rules_with(inferred)
        touched = frozenset().union(*judge.scope.values())
        report.inferred = readings_text({n: o for n, o in inferred.items() if n in touched})
    except Exception as exc:  # noqa: BLE001 - a crash of ours is reported, the run goes on
        return rejected_record(source or game.id, f"dipsat failed on this record: {type(exc).__name__}: {exc}",
                               rules, game.id)
    try:
        judge.prejudge(inference.only, final_rules)
    except Exception:  # noqa: BLE001, S110 - each phase is judged alone below, and a crash reported there
        pass
    for i, rec in enumerate(game.phases):
        if inference.only is not None and rec.name not in inference.only:
            continue
        try:
            phase = judge.phase_report(i, inferred, final_rules)
            if phase.status == RULE_DIFFERENCE:  # every option that fits the archive, not only the one judged by
                phase.rule_options = [f"{n}={o}" for n, _ in (x.split("=", 1) for x in phase.rule_options)
                                      for o in fitting.get(n, ())]
            if cases and phase.status in (DISAGREED, RULE_DIFFERENCE):
                phase.case = judge.case_text(i, phase, final_rules)
            report.phases.append(phase)
        except Exception as exc:  # noqa: BLE001 - a crash of ours is reported, the run goes on
            report.phases.append(phase := _crash(rec, exc))
        if pictures and phase.status in (DISAGREED, RULE_DIFFERENCE, REJECTED):
            try:
                phase.pictures = judge.pictures(i, phase)
            except Exception as exc:  # noqa: BLE001 - a picture must not sink the report
                phase.pictures = {"error": f"{type(exc).__name__}: {exc}"}
    return report


def _crash(rec: RecordedPhase, exc: Exception) -> PhaseReport:
    where = traceback.extract_tb(exc.__traceback__)[-1]
    return PhaseReport(rec.index, rec.name, kind_name(rec.kind), REJECTED,
                       reason=f"dipsat failed on this phase: {type(exc).__name__}: {exc} ({where.name}:{where.lineno})")


# Issues the saved-game formats cannot express: a recorded order cannot write out a
# convoy path (4.A.6), nor leave out or get wrong a unit's kind or nationality (4.C):
# the readers give every order its unit's kind and power.
NOT_IN_RECORDS = ("4.A.6", "4.C")

Judged = tuple[PhaseResult, list[Difference]]
Readings = dict[str, tuple[str, ...]]
"""Rule readings: DATC issue -> options (those that fit: the first is judged by; or those to try)."""


class _Judge:
    """Adjudicates the phases of one game under our rules and alternatives (cached)."""

    def __init__(self, game: RecordedGame, rules: Rules) -> None:
        self.game = game
        self.rules = rules
        self.cache: dict[tuple[int, tuple[str, ...]], Judged] = {}  # by the options the phase can feel
        self.scanned: dict[int, list[tuple[tuple[Any, ...], tuple[int, tuple[str, ...]]]]] = {}  # see _same_as_judged
        self.known = KNOWN_READINGS.get(game.format, {})
        self.playable = [i for i, rec in enumerate(game.phases) if self._playable(i)]
        self.scope: dict[int, frozenset[str]] = {}
        for i in self.playable:
            rec = game.phases[i]
            assert rec.state is not None
            self.scope[i] = issues_touched(rec.state, [o for o, _ in rec.orders])

    def _playable(self, i: int) -> bool:
        rec = self.game.phases[i]
        if rec.error is not None or rec.phase is None or rec.state is None:
            return False
        last = i + 1 == len(self.game.phases)
        return not (last and (not rec.processed or not rec.results_recorded))

    def context(self, i: int) -> tuple[RecordedPhase, RecordedPhase | None, str]:
        rec = self.game.phases[i]
        nxt = self.game.phases[i + 1] if i + 1 < len(self.game.phases) else None
        if nxt is None:
            return rec, None, "the record ends here: only the orders' results are compared"
        if nxt.error is not None:
            return rec, None, f"the next phase ({nxt.name}) is rejected: only the orders' results are compared"
        if nxt.state is None and not rec.results_recorded:
            return rec, None, f"the next phase ({nxt.name}) has no position: nothing to compare"
        if gap := skipped_phases(rec, nxt):
            return rec, None, gap
        return rec, nxt, ""

    def rules_with(self, overrides: dict[str, str]) -> Rules:
        return Rules.profile(self.rules.profile_name, {**self.rules.overrides, **overrides}) if overrides else self.rules

    # --- adjudication ----------------------------------------------------------------------------

    def _needs_previous(self, i: int) -> bool:
        """A retreat phase whose movement phase recorded no results: its attackers'
        origins and the standoffs come from our adjudication of that movement."""
        rec = self.game.phases[i]
        before = self.game.phases[i - 1] if i > 0 else None  # its own movement phase, not one across a gap
        return (rec.kind is PhaseKind.RETREAT and before is not None and not before.results_recorded
                and (i - 1) in self.scope and before.name[:5] == rec.name[:5])

    def key(self, i: int, rules: Rules) -> tuple[int, tuple[str, ...]]:
        """A phase's result depends only on the options of the issues it touches (and,
        for a retreat phase judged from our adjudication, those of its movement phase):
        results are cached by them, so trying an option re-judges only its phases."""
        issues = self.scope[i] | (self.scope[i - 1] if self._needs_previous(i) else frozenset())
        return i, tuple(rules.choice(n) if n in ISSUES else "" for n in sorted(issues))

    def judge(self, indices: list[int], rules: Rules) -> dict[int, Judged]:
        """(result, differences) of each phase under `rules`, movement turns solved in
        batches (one CP-SAT model for many turns; the same results as one by one)."""
        todo = [i for i in indices if self.key(i, rules) not in self.cache]
        first = [i for i in todo if not self._needs_previous(i)]
        later = [i for i in todo if self._needs_previous(i)]
        for batch in (first, later):
            if not batch:
                continue
            if batch is later:  # their movement phase must be judged first
                self.judge(sorted({i - 1 for i in batch}), rules)
            scans = {i: self._same_as_judged(i, rules) for i in batch}
            batch = [i for i in batch if scans[i] is not True]
            items = [(self.state(i, rules), [o for o, _ in self.game.phases[i].orders], rules) for i in batch]
            made = [scan if scan is not False else None for scan in (scans[i] for i in batch)]
            for i, result in zip(batch, adjudicate_many(items, scans=made)):
                rec, nxt, _ = self.context(i)
                self.cache[self.key(i, rules)] = (result, _compare(rec, result, nxt, rules))
                self._remember_scan(i, rules, result)
        return {i: self.cache[self.key(i, rules)] for i in indices}

    def prejudge(self, only: frozenset[str] | None, final_rules: Rules) -> None:
        """Judge in batches what the phase reports will ask for one phase at a time (the
        results are cached): every phase (of the names `only`) under the given rules, and
        the phases that disagree under them under `final_rules` and under each option of
        the issues they touch (their notes name the options that would reproduce them)."""
        phases = [i for i in self.playable if only is None or self.phase_name(i) in only]
        judged = self.judge(phases, self.rules)
        differing = [i for i in phases if judged[i][1]]
        if not differing:
            return
        if final_rules != self.rules:
            self.judge(differing, final_rules)
        for n in sorted({n for i in differing for n in self.scope[i]}):
            if n not in ISSUES or n.startswith(NOT_IN_RECORDS):
                continue
            touched = [i for i in differing if n in self.scope[i]]
            for o in sorted(ISSUES[n].options):
                if o != final_rules.choice(n):
                    self.judge(touched, self.rules_with({n: o}))

    def _same_as_judged(self, i: int, rules: Rules) -> Any:
        """A movement phase whose prescan under `rules` is one it had under rules judged
        already (same legal orders, matches, convoy routes, destinations), with the same
        model options, retreat rule and civil-disorder rule, has that result: it is taken
        over (and cached) without solving again, and True is returned. Most phases an
        option of 4.A.3 or 4.B can touch are such, and several options of 4.A.3 often
        read a phase alike. Else the prescan made (to be used for the adjudication), or
        False (nothing judged yet to compare with)."""
        judged = self.scanned.get(i)
        if not judged or self._needs_previous(i):
            return False
        scan = None
        for _, key in judged:  # a prescan made already under rules that read the orders alike
            result = self.cache[key][0]
            assert isinstance(result.trace, MovementTrace)
            scan = rescan(result.trace.scan, result.before, result.rules, rules)
            if scan is not None:
                break
        if scan is None:
            scan = prescan(self.state(i, rules), [o for o, _ in self.game.phases[i].orders], rules)
        mark = _scan_mark(scan, rules)
        for seen, key in judged:
            if seen == mark:
                result, diffs = self.cache[key]
                self.cache[self.key(i, rules)] = (replace(result, rules=rules), diffs)
                return True
        for _, key in judged:  # the same model (e.g. another option of 4.A.2 where no exception applies)
            again = reread(self.cache[key][0], rules)
            if again is not None:
                rec, nxt, _ = self.context(i)
                self.cache[self.key(i, rules)] = (again, _compare(rec, again, nxt, rules))
                self._remember_scan(i, rules, again)
                return True
        return scan

    def _remember_scan(self, i: int, rules: Rules, result: PhaseResult) -> None:
        trace = result.trace
        if isinstance(trace, MovementTrace) and not self._needs_previous(i):
            self.scanned.setdefault(i, []).append((_scan_mark(trace.scan, rules), self.key(i, rules)))

    def state(self, i: int, rules: Rules) -> State:
        """The position phase `i` is adjudicated from: the recorded one, and for a
        retreat phase without recorded results, each dislodged unit's attacker (from
        our adjudication of the movement before if it dislodged that unit too, else
        from the positions: the unit now in its province) and the standoffs (ours)."""
        rec = self.game.phases[i]
        assert rec.state is not None
        if not self._needs_previous(i):
            return rec.state
        result, _ = self.cache[self.key(i - 1, rules)]
        return with_attackers(self.game.phases[i - 1], rec, result)

    # --- rule inference -------------------------------------------------------------------------

    def affected(self, issue: str) -> list[int]:
        """The phases an option of `issue` can change (and the retreat phases judged
        from our adjudication of such a phase)."""
        out = {i for i in self.playable if issue in self.scope[i]}
        out |= {i for i in self.playable if self._needs_previous(i) and (i - 1) in out}
        return sorted(out)

    def phase_name(self, i: int) -> str:
        return self.game.phases[i].name

    def needed(self, i: int, inferred: dict[str, str]) -> tuple[tuple[str, str], ...]:
        """The inferred options phase `i` needs to agree (each one it touches, dropped
        when the phase agrees without it)."""
        used = {n: o for n, o in inferred.items() if i in self.affected(n)}
        for n in sorted(used):
            if len(used) > 1 and not self.judge([i], self.rules_with({k: v for k, v in used.items() if k != n}))[i][1]:
                del used[n]
        return tuple(sorted(used.items()))

    def pictures(self, i: int, report: PhaseReport) -> dict[str, str]:
        """The pictures of a phase that differs or is rejected (:attr:`PhaseReport.pictures`),
        of the corner of the map the differences and the orders involved touch."""
        rec, nxt, _ = self.context(i)
        if rec.state is None:
            return {}
        provinces = rec.state.map.provinces
        area = sorted(p for p in _involved_provinces(rec, report.differences)[1] if p in provinces)
        if report.status == REJECTED or i not in self.scope:
            return position_pictures(rec.state, [o for o, _ in rec.orders], area)
        result, _ = self.judge([i], self.rules)[i]
        record = ours = None
        if report.board_differs and nxt is not None and nxt.state is not None:
            record, ours = nxt.state, _ours_after(result, nxt, self.rules)
        differing = sorted(p for p in _subject_provinces(report.differences) if p in provinces)
        return validation_pictures(result, area, record, ours, differing)

    def case_text(self, i: int, report: PhaseReport, final_rules: Rules) -> str:
        """The phase as case files (:mod:`dipsat.runners.written_cases`), under the rules it
        was judged by in the end (`final_rules`: with the inferred options)."""
        rec, nxt, _ = self.context(i)
        result, differences = self.judge([i], final_rules)[i]
        base, base_differences = self.judge([i], self.rules)[i]
        if report.status == RULE_DIFFERENCE:  # the record's codes where the run's rules differ from it
            differences = base_differences
        texts = _OrderTexts(rec)
        index = {texts[k]: k for k in range(len(rec.orders))}
        codes = {index[d.subject]: d.recorded for d in differences if d.what == "order" and d.subject in index}
        classify = _movement_class if rec.kind is PhaseKind.MOVEMENT else None  # other kinds' show on the board
        return disagreement_case(self.game.id, rec, nxt, result, report, base, codes=codes, classify=classify)

    # --- reports --------------------------------------------------------------------------------

    def phase_report(self, i: int, inferred: dict[str, str], final_rules: Rules) -> PhaseReport:
        rec, nxt, note = self.context(i)
        kind = kind_name(rec.kind)
        basis = RESULTS if rec.results_recorded else POSITIONS
        if rec.error is not None:
            return PhaseReport(rec.index, rec.name, kind, REJECTED, reason=str(rec.error), basis=basis)
        if rec.phase is None or rec.state is None:
            return PhaseReport(rec.index, rec.name, kind, FINAL, note="the game is over", basis=basis)
        if i not in self.scope:
            return PhaseReport(rec.index, rec.name, kind, FINAL, note="the last phase of the record, not yet played",
                               basis=basis)
        if gap := skipped_phases(rec, self.game.phases[i + 1] if i + 1 < len(self.game.phases) else None):
            if not rec.results_recorded or not self.judge([i], self.rules)[i][1]:
                return PhaseReport(rec.index, rec.name, kind, GAP, reason=gap, basis=basis)
        if basis == POSITIONS:
            if nxt is None:  # the last phase is final (not in scope): the next one is unusable
                following = self.game.phases[i + 1]
                why = "is rejected" if following.error is not None else "has no position"
                return PhaseReport(rec.index, rec.name, kind, REJECTED, basis=basis, reason=(
                    f"nothing to judge this phase on: the record has no per-order results and its next phase "
                    f"({following.name}) {why}"))
            note = "; ".join(filter(None, [note, "no per-order results recorded: judged on the next position"]))
        result, differences = self.judge([i], self.rules)[i]
        report = PhaseReport(rec.index, rec.name, kind, AGREED if not differences else DISAGREED, note=note,
                             basis=basis)
        missing = through_missing_retreat(result, nxt, self.rules) if nxt is not None else None
        report.note = "; ".join(filter(None, [report.note, missing.note if missing else rec.contradiction and (
            f"the record contradicts itself: {rec.contradiction}")]))
        if not differences:
            if missing is not None:
                report.status, report.reason = GAP, missing.note
            return report
        report.differences = differences
        report.orders, report.explanation = _involved(rec, result, differences)
        disorder = disorder_explanation(result, _subject_provinces(differences))
        report.orders += list(disorder)
        report.explanation.update(disorder)
        report.conclusions = conclusions(rec, nxt, result, report.orders, _subject_provinces(differences))
        if inferred and not self.judge([i], final_rules)[i][1] and (used := self.needed(i, inferred)):
            report.status = RULE_DIFFERENCE
            report.rule = _combo_text(used)
            report.rule_title = "; ".join(f"DATC {n} {ISSUES[n].title}: {ISSUES[n].options[o]}" for n, o in used)
            report.rule_options = [f"{n}={o}" for n, o in used]
            return report
        others = [f"{n}={o}" for n in sorted(self.scope[i]) if n in ISSUES and not n.startswith(NOT_IN_RECORDS)
                  for o in sorted(ISSUES[n].options) if o != final_rules.choice(n)  # each alone: as the evidence
                  and not self.judge([i], self.rules_with({n: o}))[i][1]]
        if others:
            report.note = "; ".join(filter(None, [report.note, "would agree under " + ", ".join(others)
                                                  + " (a fact, not a verdict: the readings judged by are "
                                                    "inferred from all the phases, see --infer)"]))
        return report


def _combo_text(combo: tuple[tuple[str, str], ...]) -> str:
    return " ".join(f"{n}={o}" for n, o in combo)


def alternative_rules(rules: Rules, kind: PhaseKind | None, exclude: tuple[str, ...] = ()) -> list[tuple[str, str, Rules]]:
    """Every single-issue change of `rules` that can matter for a phase of `kind`,
    the package's own reading (4.A.3 fallback) first, then by issue and option."""
    prefixes = ISSUES_BY_KIND.get(kind, ())  # type: ignore[arg-type]
    out = []
    for number, issue in ISSUES.items():
        if not number.startswith(prefixes) or (exclude and number.startswith(exclude)):
            continue
        for option in issue.options:
            if option == rules.choice(number):
                continue
            alt = Rules.profile(rules.profile_name, {**rules.overrides, number: option})
            out.append((number, option, alt))
    known = KNOWN_READINGS["diplomacy"]
    out.sort(key=lambda t: (0 if known.get(t[0]) == t[1] else 1))
    return out


# --- comparison --------------------------------------------------------------------------


def _scan_mark(scan: Any, rules: Rules) -> tuple[Any, ...]:
    """What a movement phase's result depends on besides its position: the prescan's
    reading of the orders and the rules the model, the retreats and a skipped
    adjustment phase (played in :func:`_compare`) follow."""
    return (scan.problem, scan.verdicts, scan.dest_of, rules.model, rules.retreat_after_convoy, rules.civil_disorder)


def compare_recorded(rec: RecordedPhase, nxt: RecordedPhase | None, rules: Rules) -> list[Difference]:
    """What differs between a recorded phase (and the next recorded position) and dipsat's
    adjudication of it under exactly `rules`."""
    assert rec.state is not None
    return _compare(rec, adjudicate(rec.state, [o for o, _ in rec.orders], rules), nxt, rules)


def _compare(rec: RecordedPhase, result: PhaseResult, nxt: RecordedPhase | None, rules: Rules) -> list[Difference]:
    """What differs between the record and our result: each order's result code (only
    where the record has them: no code is ever invented) and the next position."""
    diffs = _order_differences(rec, result) if rec.results_recorded else []
    if nxt is not None:
        diffs += _position_differences(rec, result, nxt, rules)
    return diffs


def _order_differences(rec: RecordedPhase, result: PhaseResult) -> list[Difference]:
    state = rec.state
    assert state is not None
    kind = rec.kind
    texts = _OrderTexts(rec)
    by_province: dict[str, OrderResult] = {}
    for (order, _), r in zip(rec.orders, result.results):
        p = ordered_province(order)
        if p is not None and p not in by_province:
            by_province[p] = r
    diffs = []
    for k, ((order, _), r) in enumerate(zip(rec.orders, result.results)):
        p = ordered_province(order)
        if p is None:
            continue
        codes = rec.results.get(p, ())
        if kind is PhaseKind.MOVEMENT:
            recorded, ours = _recorded_movement_class(order, codes), _our_movement_class(order, r)
            if recorded != ours and not _immaterial(rec, order, recorded, ours, by_province):
                diffs.append(Difference("order", texts[k], recorded, ours))
        elif kind is PhaseKind.RETREAT:
            recorded = "disband" if ({"disband", "bounce"} & set(codes)) else "void" if "void" in codes else (
                "disband" if isinstance(order, Disband) else "retreats")
            ours = ("disband" if isinstance(order, Disband) and r.succeeded else "retreats" if r.succeeded
                    else "disband" if r.reason is Reason.BOUNCED else "void")
            if recorded != ours:
                diffs.append(Difference("order", texts[k], recorded, ours))
        else:
            done = "built" if isinstance(order, Build) else "removed"
            recorded = done if codes and set(codes) == {""} else "void"
            ours = done if r.succeeded else "void"
            if recorded != ours:
                diffs.append(Difference("order", texts[k], recorded, ours + (f" ({r.detail})" if r.detail else "")))
    return diffs


class _OrderTexts:
    """An order as recorded, with its power (``ENGLAND: A LVP - EDI VIA``), made when asked for."""

    def __init__(self, rec: RecordedPhase) -> None:
        self.orders = rec.orders

    def __getitem__(self, k: int) -> str:
        order, text = self.orders[k]
        return f"{order.power.upper() if order.power else '?'}: {text}"


def _recorded_movement_class(order: Order, codes: tuple[str, ...]) -> str:
    c = set(codes)
    if isinstance(order, Move):
        return "no convoy" if c & {"no convoy", "disrupted"} else "bounce" if "bounce" in c else (
            "void" if "void" in c else "moves")
    if isinstance(order, (SupportHold, SupportMove)):
        return "void" if "void" in c else "no convoy" if "no convoy" in c else (
            "cut" if c & {"cut", "dislodged"} else "supports")
    if isinstance(order, Convoy):
        return "void" if c & {"void", "no convoy"} else "dislodged" if "dislodged" in c else (
            "disrupted" if "disrupted" in c else "convoys")
    return "void" if "void" in c else "holds"


def _our_movement_class(order: Order, r: OrderResult) -> str:
    if r.reason is Reason.ILLEGAL:
        return "void"
    if isinstance(order, Move):
        if r.succeeded:
            return "moves"
        return "no convoy" if r.reason in (Reason.NO_PATH, Reason.PARADOX) else "bounce"
    if isinstance(order, (SupportHold, SupportMove)):
        return "supports" if r.succeeded else "void" if r.reason is Reason.VOID else "cut"
    if isinstance(order, Convoy):
        if r.succeeded:
            return "convoys"
        return {Reason.DISLODGED: "dislodged", Reason.PARADOX: "disrupted"}.get(r.reason, "void")  # type: ignore[arg-type]
    return "holds"


def _movement_class(order: Order, status: Status) -> str:
    """:func:`_our_movement_class` of an outcome alone (for a written case's ``# result:``)."""
    return _our_movement_class(order, status)  # type: ignore[arg-type]  # it reads .succeeded and .reason only


def _immaterial(rec: RecordedPhase, order: Order, recorded: str, ours: str,
                by_province: dict[str, OrderResult]) -> bool:
    """The known reporting differences of the package (see the module docstring)."""
    state = rec.state
    assert state is not None
    if isinstance(order, (SupportHold, SupportMove, Convoy)):
        # Orders for an army whose convoy failed (on either side) cannot matter; the
        # army's own outcome and every unit's dislodgement are compared elsewhere.
        target = order.target.province
        target_ours = by_province.get(target)
        if set(rec.results.get(target, ())) & {"no convoy", "disrupted"} or (
                target_ours is not None and target_ours.reason in (Reason.NO_PATH, Reason.PARADOX)):
            return True
    if isinstance(order, SupportMove) and recorded == "void" and ours == "supports":
        supporter = state.unit_at(order.unit.province)
        defender = state.unit_at(order.dest.province)
        if supporter is not None and defender is not None and defender.power == supporter.power:
            return True  # support against one's own unit: given, but not counted
    return False


def _position_differences(rec: RecordedPhase, result: PhaseResult, nxt: RecordedPhase, rules: Rules) -> list[Difference]:
    """The record's next position against ours: units, dislodged units and their retreat
    options (where the record lists them), the phase, centre ownership.

    Dislodged units follow jDip's convention on our side: a unit with no retreat is
    disbanded at once and is not in our retreat phase. A record that keeps such a unit
    (webDiplomacy lists it with no retreat options; godip records list no options at
    all) agrees when we dislodged it too, and a retreat phase in which no recorded unit
    has a retreat is the same as the phase we go to instead."""
    assert nxt.state is not None
    after = _ours_after(result, nxt, rules)
    retreat_options = dict(result.retreat_options)
    diffs = []
    ours_all = {d.unit for d in result.dislodgements}
    ours_open = {d.unit for d in after.dislodged} if after.phase.kind is PhaseKind.RETREAT else set()
    recorded = {d.unit for d in nxt.state.dislodged}
    recorded_options = {u: _recorded_options(u, nxt.retreat_options.get(u.province, ())) for u in recorded
                        if nxt.retreat_options_recorded}
    for unit in sorted(recorded | ours_open, key=lambda u: (u.province, str(u))):
        subject = f"{unit.power.upper()} {format_unit(unit)}"
        if unit in recorded and unit not in ours_all:
            diffs.append(Difference("dislodged", subject, "dislodged", "not dislodged"))
        elif unit in ours_open and unit not in recorded:
            diffs.append(Difference("dislodged", subject, "not dislodged (or no retreat)", "dislodged"))
        elif unit in recorded_options:
            ours = _options(unit, retreat_options.get(unit, ()))
            if ours != recorded_options[unit]:
                diffs.append(Difference("retreats", subject, " ".join(sorted(recorded_options[unit])) or "-",
                                        " ".join(sorted(ours)) or "-"))
    retreat_skipped = (nxt.kind is PhaseKind.RETREAT and after.phase.kind is not PhaseKind.RETREAT
                       and not any(recorded_options.get(u) for u in recorded))
    same_stage = nxt.phase is None or package_phase_name(after.phase) == nxt.name
    if not same_stage and not retreat_skipped:
        diffs.append(Difference("phase", "next phase", nxt.name, package_phase_name(after.phase)))
    ours_units = set(after.units)
    recorded_units = set(nxt.state.units)
    for unit in sorted(ours_units ^ recorded_units, key=lambda u: (u.province, str(u))):
        where = "recorded" if unit in recorded_units else "ours"
        diffs.append(Difference("unit", f"{unit.power.upper()} {format_unit(unit)}",
                                "present" if where == "recorded" else "absent",
                                "present" if where == "ours" else "absent"))
    if not same_stage:
        return diffs  # centres change at the adjustment phase: not comparable across stages
    ours_owners, recorded_owners = dict(after.owners), dict(nxt.state.owners)
    for centre in sorted(set(ours_owners) | set(recorded_owners)):
        if ours_owners.get(centre) != recorded_owners.get(centre):
            diffs.append(Difference("centre", centre.upper(), recorded_owners.get(centre, "unowned"),
                                    ours_owners.get(centre, "unowned")))
    return diffs


def _ours_after(result: PhaseResult, nxt: RecordedPhase, rules: Rules) -> State:
    """Our position to compare with the record's next one."""
    missing = through_missing_retreat(result, nxt, rules)  # a retreat phase the record lacks, played as it shows
    after = result.after if missing is None else missing.after
    if after.phase.kind is PhaseKind.ADJUSTMENT and nxt.kind is PhaseKind.MOVEMENT:
        after = adjudicate(after, [], rules).after  # the record skipped an adjustment phase with nothing to do
    return after


def _options(unit: Unit, options: Iterable[Location]) -> set[str]:
    if unit.kind is UnitKind.ARMY:
        return {o.province.upper() for o in options}
    return {format_location(o) for o in options}


def _recorded_options(unit: Unit, options: tuple[str, ...]) -> set[str]:
    if unit.kind is UnitKind.ARMY:
        return {o.split("/")[0] for o in options}
    with_coast = {o.split("/")[0] for o in options if "/" in o}
    return {o for o in options if "/" in o or o not in with_coast}


_LOCATION_WORD = re.compile(r"^[A-Z]{3}(/[A-Z]{2})?$")


def _involved(rec: RecordedPhase, result: PhaseResult, diffs: list[Difference]) -> tuple[list[str], dict[str, list[str]]]:
    """The recorded orders that touch the provinces of the differences, or the provinces
    those orders touch (one step further: the convoying fleets, the attacks on them, the
    supports ...), and our explanation of each."""
    touched, wider = _involved_provinces(rec, diffs)
    try:
        facts = explain(result)
    except Exception as exc:  # noqa: BLE001 - an explanation must not sink the report
        facts = [[f"(no explanation: {type(exc).__name__}: {exc})"]] * len(result.results)
    orders, explanation = [], {}
    for k, ((order, text), r) in enumerate(zip(rec.orders, result.results)):
        if touched[k] & wider:
            label = f"{order.power.upper() if order.power else '?'}: {text}"
            orders.append(label)
            explanation[label] = [r.status + (f" ({r.detail})" if r.detail else "")] + [
                f for f in facts[k] if f != r.status]
    return orders, explanation


def _involved_provinces(rec: RecordedPhase, diffs: list[Difference]) -> tuple[list[set[str]], set[str]]:
    """The provinces each recorded order touches, and those of the differences with those
    of the orders touching them."""
    provinces = _subject_provinces(diffs)
    touched = [_touched(order) for order, _ in rec.orders]
    first = [t for t in touched if t & provinces]
    return touched, provinces.union(*first) if first else provinces


def _subject_provinces(diffs: list[Difference]) -> set[str]:
    """The provinces the differences name (words such as ``BUR``, ``STP/NC``)."""
    return {word[:3].lower() for d in diffs for word in d.subject.replace(":", " ").split()
            if _LOCATION_WORD.match(word)}


def _touched(order: Order) -> set[str]:
    out = {ordered_province(order)} - {None}
    for attr in ("dest", "target", "location"):
        value = getattr(order, attr, None)
        if value is not None:
            out.add(value.province)
    return out  # type: ignore[return-value]
