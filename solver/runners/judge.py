"""The judge of one recorded game (:mod:`dipsat.runners.validate`): adjudicates its phases
under the rules asked and under other readings of the DATC issues they touch, caching the
results by the options each phase can feel and solving movement turns in batches; and the
judges kept between the passes of an archive run (:class:`Retained`)."""

from __future__ import annotations

import dataclasses
import functools

from ..adjudicator import adjudicate_many
from ..board import PhaseKind
from ..formats.diplomacy_json import DiplomacyTables
from ..formats.godip import GodipTables
from ..formats.records import RecordedGame, RecordedPhase, with_attackers
from ..movement import MovementTrace, prescan
from ..movement.prescan import Prescan, rescan
from ..movement.turn import reread
from ..orders import Order
from ..results import PhaseResult
from ..rules import ISSUES, Rules
from ..state import State
from .comparison import RecordedCodes, compare, involved, subject_provinces
from .conclusions import conclusions, disorder_explanation
from .gaps import skipped_phases, through_missing_retreat
from .rule_scope import issues_touched
from .validation_report import (AGREED, DISAGREED, FINAL, GAP, POSITIONS, REJECTED, RESULTS, RULE_DIFFERENCE, Difference,
                                PhaseReport, kind_name)

__all__ = ["Judge", "Judged", "Readings", "Retained", "KNOWN_READINGS", "ISSUES_BY_KIND", "NOT_IN_RECORDS",
           "alternative_rules"]

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


# Issues the saved-game formats cannot express: a recorded order cannot write out a
# convoy path (4.A.6), nor leave out or get wrong a unit's kind or nationality (4.C):
# the readers give every order its unit's kind and power.
NOT_IN_RECORDS = ("4.A.6", "4.C")

Judged = tuple[PhaseResult, list[Difference]]
_Key = tuple[int, tuple[object, ...]]  # a phase, and the options of the issues it touches (Judge.key)
_Mark = tuple[tuple[object, ...], tuple[object, ...]]  # a movement turn's reading and options (Judge._scan_mark)
_RetreatMark = tuple[_Key, tuple[object, ...]]  # Judge._retreat_mark
Readings = dict[str, tuple[str, ...]]
"""Rule readings: DATC issue -> options (those that fit: the first is judged by; or those to try)."""



class Judge:
    """Adjudicates the phases of one game under our rules and alternatives (cached)."""

    def __init__(self, game: RecordedGame, rules: Rules) -> None:
        self.game = game
        self.rules = rules
        self.cache: dict[_Key, Judged] = {}  # by the options the phase can feel
        self.scanned: dict[int, list[tuple[_Mark, _Key]]] = {}  # see _same_as_judged
        self.known = KNOWN_READINGS.get(game.format, {})
        self.playable = [i for i, rec in enumerate(game.phases) if self._playable(i)]
        self.scope: dict[int, frozenset[str]] = {}
        for i in self.playable:
            rec = game.phases[i]
            assert rec.state is not None
            self.scope[i] = issues_touched(rec.state, [o for o, _ in rec.orders])
        self._keyed: dict[int, tuple[str, ...]] = {}  # phase -> the Rules fields its results are cached by
        self._keys_by_rules: dict[int, tuple[Rules, dict[int, _Key]]] = {}  # id of rules -> it, phase -> key (key)
        self._overrides = tuple(sorted(rules.overrides.items()))
        self._from_ours = frozenset(i for i in range(len(game.phases)) if self._judged_from_ours(i))  # _needs_previous
        self._affected: dict[str, list[int]] = {}  # issue -> the phases it can change (affected)
        self._explanations: dict[int, tuple[list[str], dict[str, list[str]], list[str]]] = {}  # _explained
        self._contexts: dict[int, tuple[RecordedPhase, RecordedPhase | None, str]] = {}  # context
        self._codes: dict[int, RecordedCodes] = {}  # _compare
        self._origins: dict[_Key, _Key] = {}  # a movement turn taken over -> the reading it was judged under
        self._own_fields: dict[int, tuple[str, ...]] = {}  # _retreat_mark
        self._retreats: dict[_RetreatMark, _Key] = {}  # a retreat phase judged, by its _retreat_mark
        self._summaries: dict[int, tuple[Prescan, tuple[object, ...]]] = {}  # id of a prescan -> it, its _summary
        self._orders: dict[int, list[Order]] = {}  # _orders_of

    def _playable(self, i: int) -> bool:
        rec = self.game.phases[i]
        if rec.error is not None or rec.phase is None or rec.state is None:
            return False
        last = i + 1 == len(self.game.phases)
        return not (last and (not rec.processed or not rec.results_recorded))

    def context(self, i: int) -> tuple[RecordedPhase, RecordedPhase | None, str]:
        """(the phase, the next one to compare with or None, why there is none): decided once per phase."""
        known = self._contexts.get(i)
        if known is None:
            known = self._contexts[i] = self._context(i)
        return known

    def _context(self, i: int) -> tuple[RecordedPhase, RecordedPhase | None, str]:
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
        """The given rules with `overrides` (issue -> option key): made once for each set
        (:func:`_variant`), since the inference asks every record for the same few."""
        if not overrides:
            return self.rules
        return _variant(self.rules.profile_name, self._overrides, tuple(sorted(overrides.items())))

    # --- adjudication ----------------------------------------------------------------------------

    def _needs_previous(self, i: int) -> bool:
        """A retreat phase whose movement phase recorded no results: its attackers'
        origins and the standoffs come from our adjudication of that movement."""
        return i in self._from_ours

    def _judged_from_ours(self, i: int) -> bool:
        """:meth:`_needs_previous`, decided once per phase when the judge is made."""
        rec = self.game.phases[i]
        before = self.game.phases[i - 1] if i > 0 else None  # its own movement phase, not one across a gap
        return (rec.kind is PhaseKind.RETREAT and before is not None and not before.results_recorded
                and (i - 1) in self.scope and before.name[:5] == rec.name[:5])

    def key(self, i: int, rules: Rules) -> _Key:
        """A phase's result depends only on the options of the issues it touches (and,
        for a retreat phase judged from our adjudication, those of its movement phase):
        results are cached by them, so trying an option re-judges only its phases."""
        known = self._keys_by_rules.get(id(rules))  # (_key_table, inline: asked of every phase judged)
        table = known[1] if known is not None and known[0] is rules else self._key_table(rules)
        key = table.get(i)
        if key is None:
            key = table[i] = self._make_key(i, rules)
        return key

    def _keys_of(self, indices: list[int], rules: Rules) -> list[_Key]:
        """:meth:`key` of each phase of `indices` under `rules` (the inference asks the same
        rules of many phases: their table is found once)."""
        table = self._key_table(rules)
        return [table.get(i) or self.key(i, rules) for i in indices]  # (a key is a non-empty tuple)

    def _key_table(self, rules: Rules) -> dict[int, _Key]:
        """The keys made under `rules`, by phase (the rules object is kept with them: its id
        stays its own)."""
        known = self._keys_by_rules.get(id(rules))
        if known is None or known[0] is not rules:
            known = self._keys_by_rules[id(rules)] = (rules, {})
        return known[1]

    def _make_key(self, i: int, rules: Rules) -> _Key:
        fields = self._keyed.get(i)
        if fields is None:
            issues = self.scope[i] | (self.scope[i - 1] if self._needs_previous(i) else frozenset())
            fields = self._keyed[i] = tuple(ISSUES[n].field if n in ISSUES else "" for n in sorted(issues))
        return i, tuple(getattr(rules, f) if f else None for f in fields)

    def judge(self, indices: list[int], rules: Rules) -> dict[int, Judged]:
        """(result, differences) of each phase under `rules`, movement turns solved in
        batches (one CP-SAT model for many turns; the same results as one by one)."""
        if len(indices) == 1:  # the reports ask one phase at a time, mostly judged already
            i = indices[0]
            known = self.cache.get(self.key(i, rules))
            if known is not None:
                return {i: known}
        return self.judge_many([(indices, rules)])[0]

    def judge_many(self, asked: list[tuple[list[int], Rules]]) -> list[dict[int, Judged]]:
        """:meth:`judge` of each (phases, rules) asked, all in few batches: the movement
        turns of every rules variant are solved together. A phase asked under several
        variants is solved once per prescan (the first variant asked; the others wait for
        the next round, where they take its result over or read its model again, as they
        would one variant after the other), so the results are those of asking one by one."""
        pending: dict[_Key, tuple[int, Rules]] = {}
        keyed = [self._keys_of(indices, rules) for indices, rules in asked]  # a key stays the key
        for (indices, rules), keys in zip(asked, keyed):
            for i, key in zip(indices, keys):
                if key not in self.cache:
                    pending.setdefault(key, (i, rules))
        if pending:  # (most calls find everything asked judged already)
            first = [(i, rules) for i, rules in pending.values() if not self._needs_previous(i)]
            later = [(i, rules) for i, rules in pending.values() if self._needs_previous(i)]
            self._rounds([(i, rules, None) for i, rules in first])
            if later:  # their movement phases must be judged first
                self.judge_many([([i - 1 for i, r in later if r is rules], rules)
                                 for rules in {id(r): r for _, r in later}.values()])
                self._rounds([(i, rules, None) for i, rules in later])
        cache = self.cache
        return [{i: cache[key] for i, key in zip(indices, keys)} for (indices, _), keys in zip(asked, keyed)]

    def _rounds(self, pairs: list[tuple[int, Rules, Prescan | None]]) -> None:
        """Judge (phase, rules) pairs in rounds, each round's movement turns in one batch;
        of the pairs of one movement phase with the same prescan (or none made yet), one
        is judged per round, so that the rest find it judged (:meth:`_same_as_judged`)."""
        cache, from_ours, phases = self.cache, self._from_ours, self.game.phases
        while pairs:
            todo: list[tuple[int, Rules, Prescan | None, _Key]] = []
            wait: list[tuple[int, Rules, Prescan | None]] = []
            solving: dict[int, list[tuple[object, ...] | None]] = {}  # phase -> prescans judged this round
            made_here: dict[int, list[tuple[Prescan, Rules]]] = {}  # phase -> prescans made this round
            following: list[tuple[_Key, Rules, _RetreatMark]] = []  # retreats judged alike this round: taken over after it
            retreats_here: set[_RetreatMark] = set()
            for i, rules, made in pairs:
                key = self.key(i, rules)
                if key in cache:
                    continue
                from_movement = i in from_ours  # (_needs_previous)
                if from_movement:
                    mark = self._retreat_mark(i, rules)
                    if mark in self._retreats or mark in retreats_here:
                        following.append((key, rules, mark))
                        continue
                    retreats_here.add(mark)
                for other, scanned in made_here.get(i, []) if made is None else ():  # as one after the other
                    made = rescan(other, self.state(i, rules), scanned, rules)
                    if made is not None:
                        break
                scan = self._same_as_judged(i, rules, made, key)
                if scan is True:
                    continue
                scanned_here = scan if isinstance(scan, Prescan) else None
                if scanned_here is not None:
                    made_here.setdefault(i, []).append((scanned_here, rules))
                movement = phases[i].kind is PhaseKind.MOVEMENT and not from_movement
                read = self._scan_mark(scanned_here, rules)[0] if scanned_here is not None else None
                if movement and i in solving and (read is None or read in solving[i]):
                    wait.append((i, rules, scanned_here))  # judged in the next round
                    continue
                solving.setdefault(i, []).append(read)
                todo.append((i, rules, scanned_here, key))
            items = [(self.state(i, rules), self._orders_of(i), rules) for i, rules, _, _ in todo]
            for (i, rules, _, key), result in zip(todo, adjudicate_many(items, scans=[scan for _, _, scan, _ in todo])):
                cache[key] = (result, self._compare(i, result, rules))
                if i in from_ours:
                    self._retreats[self._retreat_mark(i, rules)] = key
                else:
                    self._remember_scan(i, rules, result, key)
            for key, rules, mark in following:
                result, diffs = cache[self._retreats[mark]]
                cache[key] = (_with_rules(result, rules), diffs)
            pairs = wait

    def _retreat_mark(self, i: int, rules: Rules) -> _RetreatMark:
        """What a retreat phase judged from our adjudication of its movement phase depends on:
        the options of the issues the retreat phase touches (:meth:`key`, without those of the
        movement phase), and the movement turn's result, named by the reading it was judged
        under (a turn taken over from another reading, :meth:`_same_as_judged`, is that one's).
        Two readings with the same mark give the retreat phase the same position and rules:
        the one judged first is taken over."""
        fields = self._own_fields.get(i)
        if fields is None:
            fields = self._own_fields[i] = tuple(ISSUES[n].field if n in ISSUES else "" for n in sorted(self.scope[i]))
        movement = self.key(i - 1, rules)
        return (self._origins.get(movement, movement), tuple(getattr(rules, f) if f else None for f in fields))

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
            final = self.judge(differing, final_rules)
            differing = [i for i in differing if final[i][1]]  # the rest agree: no note to write
        self.judge_many([([i for i in differing if n in self.scope[i]], _with(final_rules, n, o))
                         for n in sorted({n for i in differing for n in self.scope[i]})
                         if n in ISSUES and not n.startswith(NOT_IN_RECORDS)
                         for o in sorted(ISSUES[n].options) if o != final_rules.choice(n)])

    def _same_as_judged(self, i: int, rules: Rules, made: Prescan | None = None,
                        own: _Key | None = None) -> Prescan | bool:
        """A movement phase whose prescan under `rules` is one it had under rules judged
        already (same legal orders, matches, convoy routes, destinations), with the same
        model options, retreat rule and civil-disorder rule, has that result: it is taken
        over (and cached) without solving again, and True is returned. Most phases an
        option of 4.A.3 or 4.B can touch are such, and several options of 4.A.3 often
        read a phase alike. Else the prescan made (to be used for the adjudication), or
        False (nothing judged yet to compare with). `made`: the turn's prescan under
        `rules`, made already; `own`: its :meth:`key` under `rules`, found already."""
        judged = self.scanned.get(i)
        if not judged or i in self._from_ours:  # (_needs_previous)
            return made if made is not None else False
        scan = made
        unread: set[_Key] = set()  # judged turns rescan refused
        for _, key in judged if made is None else ():  # a prescan made already under rules that read the orders alike
            result = self.cache[key][0]
            assert isinstance(result.trace, MovementTrace)
            scan = rescan(result.trace.scan, result.before, result.rules, rules)
            if scan is not None:
                break
            unread.add(key)
        if scan is None:
            scan = prescan(self.state(i, rules), self._orders_of(i), rules)
        read, options = self._scan_mark(scan, rules)
        mine = own if own is not None else self.key(i, rules)
        alike: list[_Key] = []  # judged turns read alike: the only ones reread can take (rescan gives their scan)
        for (seen_read, seen_options), key in judged:
            if seen_read == read:
                if seen_options == options:
                    result, diffs = self.cache[key]
                    self.cache[mine] = (_with_rules(result, rules), diffs)
                    self._origins[mine] = self._origins.get(key, key)
                    return True
                alike.append(key)
        for key in alike:  # the same model (e.g. another option of 4.A.2 where no exception applies)
            if key in unread:
                continue  # reread would ask rescan the same again, and be told None
            again = reread(self.cache[key][0], rules)
            if again is not None:
                self.cache[mine] = (again, self._compare(i, again, rules))
                self._remember_scan(i, rules, again, mine)
                return True
        return scan

    def _compare(self, i: int, result: PhaseResult, rules: Rules) -> list[Difference]:
        """The differences of phase `i`'s record from `result` (what the record says of its
        orders read once per phase: :class:`RecordedCodes`)."""
        rec, nxt, _ = self.context(i)
        codes = self._codes.get(i)
        if codes is None and rec.results_recorded:
            codes = self._codes[i] = RecordedCodes(rec)
        return compare(rec, result, nxt, rules, codes)

    def _scan_mark(self, scan: Prescan, rules: Rules) -> _Mark:
        """What a movement phase's result depends on besides its position: the prescan's
        reading of the orders, and the rules the model, the retreats and a skipped
        adjustment phase (played in :func:`_compare`) follow. The reading starts with a
        summary of it (:func:`_summary`, made once per prescan), so that readings that
        differ are mostly told apart without comparing them field by field."""
        known = self._summaries.get(id(scan))
        if known is None or known[0] is not scan:
            known = self._summaries[id(scan)] = (scan, _summary(scan))
        return ((known[1], scan.problem, scan.verdicts, scan.dest_of),
                (rules.model, rules.retreat_after_convoy, rules.civil_disorder))

    def _remember_scan(self, i: int, rules: Rules, result: PhaseResult, key: _Key) -> None:
        """Keep a movement turn's reading (:meth:`_scan_mark`) with its `key` (under `rules`)."""
        trace = result.trace
        if isinstance(trace, MovementTrace) and not self._needs_previous(i):
            self.scanned.setdefault(i, []).append((self._scan_mark(trace.scan, rules), key))

    def _orders_of(self, i: int) -> list[Order]:
        """The orders of phase `i` as adjudicated (without their texts), listed once per phase."""
        known = self._orders.get(i)
        if known is None:
            known = self._orders[i] = [o for o, _ in self.game.phases[i].orders]
        return known

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
        known = self._affected.get(issue)
        if known is None:
            out = {i for i in self.playable if issue in self.scope[i]}
            out |= {i for i in self.playable if self._needs_previous(i) and (i - 1) in out}
            known = self._affected[issue] = sorted(out)
        return list(known)

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
        report.orders, report.explanation, report.conclusions = self._explained(i, rec, nxt, result, differences)
        if inferred and not self.judge([i], final_rules)[i][1] and (used := self.needed(i, inferred)):
            report.status = RULE_DIFFERENCE
            report.rule = _combo_text(used)
            report.rule_title = "; ".join(f"DATC {n} {ISSUES[n].title}: {ISSUES[n].options[o]}" for n, o in used)
            report.rule_options = [f"{n}={o}" for n, o in used]
            return report
        others = [f"{n}={o}" for n in sorted(self.scope[i]) if n in ISSUES and not n.startswith(NOT_IN_RECORDS)
                  for o in sorted(ISSUES[n].options) if o != final_rules.choice(n)  # each with the readings judged by
                  and not self.judge([i], _with(final_rules, n, o))[i][1]]
        if others:
            report.note = "; ".join(filter(None, [report.note, "would agree under " + ", ".join(others)
                                                  + " (a fact, not a verdict: the readings judged by are "
                                                    "inferred from all the phases, see --infer)"]))
        return report


    def _explained(self, i: int, rec: RecordedPhase, nxt: RecordedPhase | None, result: PhaseResult,
                   differences: list[Difference]) -> tuple[list[str], dict[str, list[str]], list[str]]:
        """The orders involved in the differences of phase `i` under the judge's rules, our
        explanation of each and the conclusions (a fresh copy each time: made once per
        phase, since an archive run reports a phase again in its last pass)."""
        known = self._explanations.get(i)
        if known is None:
            orders, explanation = involved(rec, result, differences)
            disorder = disorder_explanation(result, subject_provinces(differences))
            orders += list(disorder)
            explanation.update(disorder)
            known = self._explanations[i] = (orders, explanation, conclusions(rec, nxt, result, orders,
                                                                             subject_provinces(differences)))
        orders, explanation, concluded = known
        return list(orders), {label: list(lines) for label, lines in explanation.items()}, list(concluded)


class Retained:
    """The judges of records kept in this process between the passes of an archive run
    (one worker): a record asked again (:mod:`dipsat.runners.archive`) is neither read
    nor adjudicated again where it was already (its results are cached in its judge);
    and what the godip and saved-game readers made of the lines read so far.
    Bounded: judges are kept until they hold `limit` phases in all, the rest are not."""

    def __init__(self, limit: int = 20_000) -> None:  # about 60 kB a phase: about 1 GB
        self.limit = limit
        self.phases = 0
        self._judges: dict[tuple[str, str], Judge] = {}
        self.godip = GodipTables()
        """The godip reader's readings of the lines of the records read so far (they repeat)."""
        self.diplomacy = DiplomacyTables()
        """The saved-game reader's readings of the texts of the records read so far."""

    def game(self, source: str, rules: Rules) -> RecordedGame | None:
        """The record read already from `source`, if its judge is kept."""
        judge = self._judges.get((source, str(rules)))
        return judge.game if judge is not None else None

    def judge(self, source: str, game: RecordedGame, rules: Rules) -> Judge:
        """The kept judge of `source` (`game` under `rules`), or a new one, kept if there is room."""
        key = (source, str(rules))
        judge = self._judges.get(key)
        if judge is None or judge.game is not game:
            judge = Judge(game, rules)
            if self.phases + len(game.phases) <= self.limit:
                self._judges[key] = judge
                self.phases += len(game.phases)
        return judge


@functools.lru_cache(maxsize=4096)
def _variant(profile: str, given: tuple[tuple[str, str], ...], overrides: tuple[tuple[str, str], ...]) -> Rules:
    """The rules of `profile` with the `given` overrides, then `overrides` (a pure function
    of its arguments, memoised: :class:`Rules` is a frozen value)."""
    return Rules.profile(profile, {**dict(given), **dict(overrides)})


def _with(rules: Rules, issue: str, option: str) -> Rules:
    """`rules` with `option` for `issue` (a phase's note names the options that, with the
    readings judged by, would reproduce it: a reading too rare to infer, beside one inferred)."""
    return _variant(rules.profile_name, tuple(sorted(rules.overrides.items())), ((issue, option),))


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



def _summary(scan: Prescan) -> tuple[object, ...]:
    """A short summary of a turn's reading, equal for equal readings: how many supports and
    convoys it matched, and whether each move tries a convoy route and may fall back to the
    land route (DATC 4.A.3, where readings of one turn differ most) and how many supports it has."""
    p = scan.problem
    return len(p.supports), len(p.convoys), len(scan.verdicts), *[(m.convoyed, m.fallback, len(m.supports))
                                                                 for m in p.moves]


def _with_rules(result: PhaseResult, rules: Rules) -> PhaseResult:
    """`result` under `rules`, as ``dataclasses.replace(result, rules=rules)`` makes it (the
    fields copied as they are, without replace's work per field: thousands of turns an
    archive run takes over from a reading judged already)."""
    new = object.__new__(PhaseResult)
    for name, set_field in _RESULT_FIELDS:  # a new value being made: frozen from here on
        set_field(new, rules if name == "rules" else getattr(result, name))
    return new


_RESULT_FIELDS = tuple((f.name, getattr(PhaseResult, f.name).__set__) for f in dataclasses.fields(PhaseResult))
"""Each field of a result, with its slot's setter (past the frozen guard)."""
