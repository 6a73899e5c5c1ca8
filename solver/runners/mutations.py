"""The mutation test of ``dipsat validate``: realistic adjudicator bugs injected into
records of our own making, written out in every format validate reads, and the verdicts
counted (``scripts/mutate.py``, ``tests/test_mutations.py``).

A game is played with dipsat (:func:`play`): sensible random orders (those of
:func:`dipsat.runners.invariants.random_orders` that name their unit as it stands), each
phase adjudicated. At one phase (the first after a random start where it can happen) a
*buggy adjudicator* takes over: the phase's outcome is the bug's
(:mod:`dipsat.runners.bugs`), and the game goes on from that outcome, as the buggy program would have recorded it, so the bug
propagates into every later position of the record. Validate must report each bug as a
disagreement of the bugged phase naming the unit, centre or order concerned
(:func:`verdict`); the same games without a bug (the controls) must agree throughout.
"""

from __future__ import annotations

import gzip
import io
import json
import random
import tarfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any
from pathlib import Path

from ..adjudicator import adjudicate
from ..board import Location, PhaseKind, Unit
from ..formats.diplomacy_json import write_game
from ..formats.godip import write_godip_game
from ..formats.records import RecordedGame, RecordedPhase, format_unit, package_phase_name
from ..maps import load_variant
from ..notation import format_order
from ..printers.text import prestate_results
from ..orders import Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, SupportHold, SupportMove, Waive
from ..results import OrderResult, Reason
from ..rules import Rules
from ..state import State
from .bugs import BUGS, build_places, kind_for, unit_ref
from .invariants import random_orders
from .inference import Inference
from .inputs import Item, Judging
from .validate import (AGREED, DISAGREED, FINAL, GAP, REJECTED, RULE_DIFFERENCE, GameReport, PhaseReport,
                       validate_godip, validate_text)

__all__ = ["BUGS", "FORMATS", "OUTCOMES", "Mutant", "play", "verdict", "judge", "clean", "run", "Tally",
           "detection_table", "write_archives", "archive_reports"]

FORMATS = ("godip", "json", "json-results", "case")
"""How a record is written for validate: a godip (Droidippy) history, a saved game of the
``diplomacy`` package without per-order results (as webDiplomacy exports are) and with
them (each phase's codes from dipsat's adjudication of it: the bugged phase's codes are
right, its next position is the buggy one), and every phase as a jDip case (its POSTSTATE
the record's next position: the bugged phase's the buggy outcome), the game one case file."""


@dataclass
class Mutant:
    """A game played with one bug (or none: a control) and where the bug is."""

    game: RecordedGame
    bug: str | None = None
    at: int | None = None  # the bugged phase's index
    subjects: frozenset[str] = frozenset()
    what: str = ""


# --- the games ---------------------------------------------------------------------------------


def _clean(state: State, orders: list[Order]) -> list[Order]:
    """The orders that name their unit (and their target) as it stands, one per unit, the
    power its owner's: what every record format writes the same way."""
    out: list[Order] = []
    seen: set[str] = set()
    for order in orders:
        if not isinstance(order, (Hold, Move, SupportHold, SupportMove, Convoy)):
            continue  # a retreat in a movement phase: godip writes it as a move
        ref = order.unit
        unit = state.unit_at(ref.province)
        if unit is None or unit.location != ref.location or ref.kind not in (None, unit.kind) or unit.province in seen:
            continue
        clean: Order
        if isinstance(order, (SupportHold, SupportMove, Convoy)):
            aimed = state.unit_at(order.target.province)
            if aimed is None:
                continue
            clean = replace(order, unit=unit_ref(unit), target=unit_ref(aimed), power=unit.power)
        elif isinstance(order, Move):
            clean = replace(order, unit=unit_ref(unit), power=unit.power, path=())
        else:
            clean = replace(order, unit=unit_ref(unit), power=unit.power)
        seen.add(unit.province)
        out.append(clean)
    return out


def _retreat_orders(rng: random.Random, state: State, options: dict[Unit, tuple[Location, ...]]) -> list[Order]:
    orders: list[Order] = []
    for d in state.dislodged:
        choices = options.get(d.unit, ())
        roll = rng.random()
        if choices and roll < 0.8:
            orders.append(Retreat(unit_ref(d.unit), rng.choice(choices), d.unit.power))
        elif roll < 0.9:
            orders.append(Disband(unit_ref(d.unit), d.unit.power))
    return orders


def _adjustment_orders(rng: random.Random, state: State) -> list[Order]:
    orders: list[Order] = []
    for power in sorted(p.name for p in state.variant.powers):
        units = [u for u in state.units if u.power == power]
        balance = len(state.centres_of(power)) - len(units)
        if balance > 0:
            places = build_places(state, power)
            rng.shuffle(places)
            used: set[str] = set()
            for loc in places:
                kind = kind_for(state, loc, rng)
                if len(used) < balance and loc.province not in used and kind is not None and rng.random() < 0.8:
                    orders.append(Build(loc, kind, power))
                    used.add(loc.province)
        elif balance < 0 and rng.random() < 0.8:  # else: civil disorder
            for unit in rng.sample(units, -balance):
                orders.append(Remove(unit_ref(unit), power))
    return orders


def play(seed: int, phases: int = 14, bug: str | None = None, rules: Rules | None = None) -> Mutant | None:
    """A game of `phases` phases from the standard start, with `bug` injected at the first
    phase (after a random start) where it can happen; None if it never could."""
    rules = rules or Rules.profile()
    rng = random.Random(seed)
    state = load_variant("standard").initial_state()
    start = rng.randrange(0, max(1, phases // 2))
    recorded: list[RecordedPhase] = []
    options: dict[Unit, tuple[Location, ...]] = {}
    mutant = Mutant(RecordedGame(f"mutant-{bug or 'control'}-{seed}", "standard", (str(rules),), state.variant, []),
                    bug)
    for index in range(phases):
        kind = state.phase.kind
        if kind is PhaseKind.MOVEMENT:
            orders = _clean(state, random_orders(rng, state))
        elif kind is PhaseKind.RETREAT:
            orders = _retreat_orders(rng, state, options)
        else:
            orders = _adjustment_orders(rng, state)
        result = adjudicate(state, orders, rules)
        after = result.after
        if bug is not None and mutant.at is None and index >= start:
            bugged = BUGS[bug](rng, state, orders, result, rules)
            if bugged is not None:
                orders, after = bugged.orders, _settled(bugged.after, rules)
                mutant.at, mutant.subjects, mutant.what = index, bugged.subjects, bugged.what
        recorded.append(RecordedPhase(index, package_phase_name(state.phase), state.phase, state,
                                      [(o, format_order(o)) for o in orders], results_recorded=False))
        options = dict(result.retreat_options) if after is result.after else _options_of(after, rules)
        state = after
    recorded.append(RecordedPhase(phases, package_phase_name(state.phase), state.phase, state, [],
                                  results_recorded=False))
    mutant.game.phases = recorded
    return mutant if bug is None or mutant.at is not None else None


def _settled(after: State, rules: Rules) -> State:
    """A buggy outcome that leaves no unit to retreat goes on to the next phase."""
    if after.phase.kind is PhaseKind.RETREAT and not after.dislodged:
        return adjudicate(after, [], rules).after
    return after


def _options_of(state: State, rules: Rules) -> dict[Unit, tuple[Location, ...]]:
    """The retreat options of a buggy outcome's dislodged units (each retreat tried)."""
    if state.phase.kind is not PhaseKind.RETREAT:
        return {}
    out: dict[Unit, tuple[Location, ...]] = {}
    for d in state.dislodged:
        places = [Location(p) for p in sorted(state.map.neighbours(d.unit.province))]
        ok = []
        for loc in places:
            for place in [loc] + [Location(loc.province, c) for c in state.map.provinces[loc.province].coasts]:
                result = adjudicate(state, [Retreat(unit_ref(d.unit), place, d.unit.power)], rules)
                if result.results and result.results[0].succeeded:
                    ok.append(place)
        out[d.unit] = tuple(ok)
    return out


# --- judging ------------------------------------------------------------------------------------


def _codes(order: Order, r: OrderResult) -> list[str]:
    """The package's result codes for one order (see :mod:`dipsat.runners.validate`)."""
    if r.succeeded or isinstance(order, Hold):  # a hold only fails by being dislodged (its own code)
        return [""] if isinstance(order, (Build, Remove)) else []
    if isinstance(order, (Build, Remove)) or r.reason in (Reason.ILLEGAL, Reason.VOID):
        return ["void"]
    if isinstance(order, (Move, Retreat)) and r.reason is Reason.BOUNCED:
        return ["bounce"]
    if isinstance(order, Move):
        return ["no convoy"] if r.reason in (Reason.NO_PATH, Reason.PARADOX) else ["bounce"]
    if isinstance(order, Convoy):
        return ["disrupted"] if r.reason is Reason.PARADOX else []
    return ["cut"] if isinstance(order, (SupportHold, SupportMove)) else ["void"]


def with_results(game: RecordedGame, rules: Rules) -> dict[str, Any]:
    """The game as a saved game of the package with per-order result codes: each phase's
    from dipsat's adjudication of its recorded position and orders."""
    saved = write_game(game)
    for entry, raw in zip(game.phases[:-1], saved["phases"]):
        assert entry.state is not None
        result = adjudicate(entry.state, [o for o, _ in entry.orders], rules)
        codes: dict[str, list[str]] = {}
        for (order, _), r in zip(entry.orders, result.results):
            unit = Unit(order.power or "", order.kind, order.location) if isinstance(order, Build) and order.kind else (
                entry.state.unit_at(order.unit.province) if not isinstance(order, (Build, Waive)) else None)
            if entry.kind is PhaseKind.RETREAT and isinstance(order, (Retreat, Disband)):
                unit = next((d.unit for d in entry.state.dislodged if d.unit.province == order.unit.province), None)
            if unit is not None:
                codes[format_unit(unit)] = _codes(order, r)
        for d in result.dislodgements:
            codes.setdefault(format_unit(d.unit), []).append("dislodged")
        if entry.kind is PhaseKind.ADJUSTMENT:  # civil-disorder removals: done
            for unit in set(entry.state.units) - set(result.after.units):
                codes.setdefault(format_unit(unit), [""])
        raw["results"] = codes
    return saved


def _case_text(mutant: Mutant, index: int) -> str:
    """Phase `index` of the game as a case file, the record's next position as POSTSTATE
    (:func:`dipsat.runners.written_cases.recorded_case`)."""
    from .written_cases import recorded_case
    phases = mutant.game.phases
    return "VARIANT_ALL Standard\n" + recorded_case(f"{mutant.game.id}.{phases[index].name}", phases[index],
                                                   phases[index + 1], Rules.profile())


def judge(mutant: Mutant, fmt: str, rules: Rules | None = None,
          inference: Inference = Inference()) -> GameReport:
    """Validate's report of the mutant written in `fmt` (for ``case``: every phase but the
    last as a case, the cases' reports as one record's), judged with `inference`
    (:func:`judge_all` judges them as one archive)."""
    rules = rules or Rules.profile()
    game = mutant.game
    if fmt == "godip":
        return validate_godip(write_godip_game(game), f"{game.id}.txt", rules, inference=inference)
    if fmt in ("json", "json-results"):
        saved = write_game(game) if fmt == "json" else with_results(game, rules)
        return validate_text(json.dumps(saved), f"{game.id}.json", rules, inference=inference)
    from ..formats.casefile import read_cases
    from .case_records import validate_case

    out = GameReport(game.id, f"{game.id}.txt", str(rules))
    for i in range(len(game.phases) - 1):
        cases, _ = read_cases(io.StringIO(_case_text(mutant, i)), f"{game.id}.txt")
        _add_case(out, validate_case(cases[0], f"{game.id}.txt", None, inference=inference, given=rules), i)
    return out


def _add_case(record: GameReport, case: GameReport, index: int) -> None:
    """A case's report as phase `index` of its game's record, its evidence the record's."""
    record.phases += [replace(p, index=index) for p in case.phases]
    for issue, rows in case.evidence.items():
        record.evidence.setdefault(issue, []).extend(rows)
    for issue, options in case.unchecked.items():
        record.unchecked[issue] = sorted(set(record.unchecked.get(issue, [])) | set(options))


FOUND, RULE, REJECTED_, GAP_, MISSED = "found", "rule difference", "rejected", "gap", "missed"
OUTCOMES = (FOUND, RULE, REJECTED_, GAP_, MISSED)


def verdict(mutant: Mutant, phases: list[PhaseReport]) -> str:
    """How validate reported the bug: ``found`` (a disagreement of the bugged phase naming
    one of its subjects), ``rule difference``, ``rejected``, ``gap`` or ``missed``."""
    at = next((p for p in phases if p.index == mutant.at), None)
    if at is None:
        return MISSED
    if at.status == DISAGREED:
        named = " ".join([f"{d.subject} {d.recorded} {d.ours}" for d in at.differences] + at.orders).lower()
        return FOUND if any(s in named for s in mutant.subjects) else MISSED
    return {RULE_DIFFERENCE: RULE, REJECTED: REJECTED_, GAP: GAP_}.get(at.status, MISSED)


def clean(phases: list[PhaseReport]) -> bool:
    return all(p.status in (AGREED, FINAL) for p in phases)


@dataclass
class Tally:
    """The detection table: per (bug, format) how many were injected and each outcome;
    per format how many controls were played and how many were clean."""

    rows: dict[tuple[str, str], dict[str, int]] = field(default_factory=dict)
    controls: dict[str, list[int]] = field(default_factory=dict)  # format -> [games, clean]
    misses: list[str] = field(default_factory=list)

    def add(self, bug: str, fmt: str, outcome: str, where: str = "") -> None:
        row = self.rows.setdefault((bug, fmt), {"injected": 0, **{o: 0 for o in OUTCOMES}})
        row["injected"] += 1
        row[outcome] += 1
        if outcome != FOUND:
            self.misses.append(f"{bug} [{fmt}] {where}: {outcome}")

    def add_control(self, fmt: str, ok: bool, where: str = "") -> None:
        count = self.controls.setdefault(fmt, [0, 0])
        count[0] += 1
        count[1] += ok
        if not ok:
            self.misses.append(f"control [{fmt}] {where}: not clean")


def run(seeds: range, bugs: tuple[str, ...] = tuple(BUGS), phases: int = 14, folder: Path | None = None) -> Tally:
    """Every bug in every format, one game per seed (seeds where a bug cannot happen are
    skipped), and the controls; read back from archive files in `folder` when given
    (:func:`archive_reports`), else judged from the texts."""
    mutants: list[Mutant] = []
    for seed in seeds:
        control = play(seed, phases)
        assert control is not None
        mutants.append(control)
        mutants += [m for m in (play(seed, phases, bug) for bug in bugs) if m is not None]
    read = archive_reports(mutants, folder) if folder is not None else judge_all(mutants)
    tally = Tally()
    for mutant in mutants:
        for fmt in FORMATS:
            phases_of = read[mutant.game.id, fmt]
            if mutant.bug is None:
                tally.add_control(fmt, clean(phases_of), mutant.game.id)
            else:
                phase = mutant.game.phases[mutant.at or 0].name
                rule = next((f" ({p.rule})" for p in phases_of if p.index == mutant.at and p.rule), "")
                tally.add(mutant.bug, fmt, verdict(mutant, phases_of), f"{mutant.game.id} {phase}: {mutant.what}{rule}")
    return tally


ARCHIVES = {"godip": "histories.zip", "json": "games.jsonl.gz", "json-results": "results.jsonl",
            "case": "cases.tar.gz"}
"""How :func:`archive_reports` keeps each format: the way people keep archives."""


def write_archives(mutants: list[Mutant], folder: Path, rules: Rules) -> None:
    """Every mutant in every format (:data:`ARCHIVES`) in `folder`: godip histories in a
    zip, saved games as gzipped JSON lines (with results: plain JSON lines), each game's
    phases as a case file in a gzipped tar."""
    with zipfile.ZipFile(folder / ARCHIVES["godip"], "w") as histories:
        for mutant in mutants:
            histories.writestr(f"histories/{mutant.game.id}.txt", write_godip_game(mutant.game))
    lines = "".join(json.dumps(write_game(m.game)) + "\n" for m in mutants)
    (folder / ARCHIVES["json"]).write_bytes(gzip.compress(lines.encode("utf-8"), mtime=0))
    lines = "".join(json.dumps(with_results(m.game, rules)) + "\n" for m in mutants)
    (folder / ARCHIVES["json-results"]).write_text(lines, encoding="utf-8")
    with tarfile.open(folder / ARCHIVES["case"], "w:gz") as cases:
        for mutant in mutants:
            data = "".join(_case_text(mutant, i) + "\n" for i in range(len(mutant.game.phases) - 1)).encode("utf-8")
            info = tarfile.TarInfo(f"cases/{mutant.game.id}.txt")
            info.size = len(data)
            cases.addfile(info, io.BytesIO(data))


def judge_all(mutants: list[Mutant], rules: Rules | None = None) -> dict[tuple[str, str], list[PhaseReport]]:
    """Validate's phase reports of each mutant in each format, from the texts, by (game id,
    format): the records of one format (mutants and controls) judged as one archive, as
    ``dipsat validate`` judges an archive."""
    from .archive import judge_archive
    rules = rules or Rules.profile()
    out: dict[tuple[str, str], list[PhaseReport]] = {}
    for fmt in FORMATS:
        judges = [partial(judge, m, fmt, rules) for m in mutants]
        reports, _ = judge_archive(judges, rules)
        out.update({(m.game.id, fmt): r.phases for m, r in zip(mutants, reports)})
    return out


def archive_reports(mutants: list[Mutant], folder: Path, rules: Rules | None = None) -> dict[tuple[str, str], list[PhaseReport]]:
    """Validate's phase reports of each mutant in each format, read back from the archives
    :func:`write_archives` wrote (through the reader ``dipsat validate`` uses), by (game id,
    format); the records of each archive judged as one archive."""
    from .archive import judge_archive
    from .inputs import Judging, iter_items

    how = Judging(rules or Rules.profile())
    write_archives(mutants, folder, how.rules)
    out: dict[tuple[str, str], list[PhaseReport]] = {}
    fmt_of = {name: fmt for fmt, name in ARCHIVES.items()}
    phase_index = {(m.game.id, p.name): p.index for m in mutants for p in m.game.phases}
    items = list(iter_items([str(folder / name) for name in ARCHIVES.values()]))
    for fmt in ARCHIVES:
        mine = [item for item in items if fmt_of[Path(item.source.split(":", 1)[0]).name] == fmt]
        judges = [partial(_item_judge, item, how) for item in mine]
        reports = judge_archive(judges, how.rules)[0]
        for report in reports:
            _collect(out, fmt, report, phase_index)
    return out


def _item_judge(item: Item, how: Judging, inference: Inference) -> GameReport:
    from .inputs import validate_item
    return validate_item(item, replace(how, inference=inference))


def _collect(out: dict[tuple[str, str], list[PhaseReport]], fmt: str, report: GameReport,
             phase_index: dict[tuple[str, str], int]) -> None:
    """A record's phase reports under (game id, format); a case is one phase of its game."""
    if fmt == "case":
        game, _, name = report.game.rpartition(".")
        out.setdefault((game, fmt), []).extend(replace(p, index=phase_index[game, name]) for p in report.phases)
    else:
        out[(report.game, fmt)] = report.phases


def detection_table(tally: Tally) -> Iterator[str]:
    """The table as Markdown: one row per bug and format, then the controls."""
    yield "| bug | format | injected | found at the phase | rule difference | rejected | gap | missed |"
    yield "|---|---|---:|---:|---:|---:|---:|---:|"
    for (bug, fmt), row in sorted(tally.rows.items(), key=lambda kv: (list(BUGS).index(kv[0][0]), kv[0][1])):
        yield (f"| {bug} | {fmt} | {row['injected']} | {row[FOUND]} | {row[RULE]} | {row[REJECTED_]} | {row[GAP_]} "
               f"| {row[MISSED]} |")
    for fmt, (games, ok) in sorted(tally.controls.items()):
        yield f"| (control: no bug) | {fmt} | {games} games | {ok} clean | | | | {games - ok} not clean |"
