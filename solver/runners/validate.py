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

The work is split by job: :mod:`.validation_report` (the report values and statuses),
:mod:`.comparison` (the record against our adjudication), :mod:`.judge` (adjudication
under each reading, cached and in batches; the judges kept between passes) and
:mod:`.validation_writers` (a phase's case file and pictures); this module puts them
together and keeps their public names importable from here.
"""

from __future__ import annotations

import traceback
from typing import Any

from ..formats.diplomacy_json import read_game
from ..formats.godip import read_godip_game
from ..formats.records import RecordedGame, RecordedPhase, RecordError
from ..rules import ISSUES, Rules
from .comparison import compare_recorded
from .inference import GAME, NONE, Inference, decide, gather, issues_of, presumed_readings, readings_text
from .judge import ISSUES_BY_KIND, KNOWN_READINGS, NOT_IN_RECORDS, Judge, Readings, Retained, alternative_rules
from .validation_report import (AGREED, DISAGREED, FINAL, GAP, POSITIONS, REJECTED, RESULTS, RULE_DIFFERENCE, STATUSES,
                                Basis, Difference, GameReport, PhaseReport, PhaseStatus, KIND_NAMES, kind_name,
                                rejected_record)
from .validation_writers import phase_case, phase_pictures
from .written_cases import case_name, disagreement_case

__all__ = ["AGREED", "DISAGREED", "RULE_DIFFERENCE", "REJECTED", "GAP", "FINAL", "STATUSES", "PhaseStatus", "Basis",
           "POSITIONS", "RESULTS", "KIND_NAMES", "ISSUES_BY_KIND", "KNOWN_READINGS", "Difference", "PhaseReport",
           "GameReport", "Retained", "validate_game", "validate_text", "validate_godip", "validate_retained",
           "validate_recorded", "compare_recorded", "rejected_record", "alternative_rules", "case_name",
           "disagreement_case", "kind_name"]


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
        game = read_game(record, retained.diplomacy if retained is not None else None)
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
        game = read_godip_game(text, source, tables=retained.godip if retained is not None else None)
    except RecordError as exc:
        return rejected_record(source, str(exc), rules)
    except Exception as exc:  # noqa: BLE001 - a report, never an exception
        return rejected_record(source, f"unreadable record: {type(exc).__name__}: {exc}", rules)
    return validate_recorded(game, rules, source, cases, pictures=pictures, inference=inference, retained=retained)


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
        judge = retained.judge(source or game.id, game, rules) if retained is not None else Judge(game, rules)
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
                phase.case = phase_case(judge, i, phase, final_rules)
            report.phases.append(phase)
        except Exception as exc:  # noqa: BLE001 - a crash of ours is reported, the run goes on
            report.phases.append(phase := _crash(rec, exc))
        if pictures and phase.status in (DISAGREED, RULE_DIFFERENCE, REJECTED):
            try:
                phase.pictures = phase_pictures(judge, i, phase)
            except Exception as exc:  # noqa: BLE001 - a picture must not sink the report
                phase.pictures = {"error": f"{type(exc).__name__}: {exc}"}
    return report


def _crash(rec: RecordedPhase, exc: Exception) -> PhaseReport:
    where = traceback.extract_tb(exc.__traceback__)[-1]
    return PhaseReport(rec.index, rec.name, kind_name(rec.kind), REJECTED,
                       reason=f"dipsat failed on this phase: {type(exc).__name__}: {exc} ({where.name}:{where.lineno})")


