"""Running case files: build the position, adjudicate, compare with POSTSTATE.

This is the code path of ``dipsat cases`` and of the pytest suite alike.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from ..board import Location, Phase, PhaseKind, Season, Unit, UnitKind
from ..errors import CaseFileError, DipsatError, NotationError
from ..formats.case_comments import parse_result_comment, parse_retreats_comment
from ..formats.casefile import Case, LineReader, read_case_text, resolve_variant
from ..adjudicator import adjudicate
from .expected import diff_expected, expected_orders
from ..maps import Variant, fold
from ..notation import format_order, parse_order, parse_order_lines
from ..orders import Convoy, Move, Order
from ..results import PhaseResult
from ..rules import DEFAULT_PROFILE, Rules
from ..setups import SetupError, setup_for
from ..state import Dislodged, State, in_place_order, state_problems


class CaseStatus(StrEnum):
    """The outcome of a case as ``dipsat cases`` prints it (str-valued: printed as its value)."""

    PASS = "PASS"  # the adjudication gives the POSTSTATE
    FAIL = "FAIL"  # it does not
    SKIP = "SKIP"  # written for other rules than those asked
    ERROR = "ERROR"  # the case cannot be run (a bad line, no POSTSTATE, a crash)


@dataclass
class CaseRun:
    """The outcome of running one case."""

    case: Case
    status: CaseStatus
    problems: list[str] = field(default_factory=list)
    result: PhaseResult | None = None
    rules: Rules | None = None

    @property
    def passed(self) -> bool:
        return self.status is CaseStatus.PASS


def case_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Files named, and every file in folders named (sorted, recursive)."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in (".txt", ".case", ".dat")
                              and p.name.lower() != "readme.md")
        else:
            yield path


def load_cases(path: Path, warnings: list[str] | None = None,
               reader: LineReader | None = None) -> tuple[list[Case], list[CaseFileError]]:
    """The cases of a case file, and the problems outside any case. The file is read as
    people save it (:mod:`dipsat.formats.textfile`: a byte-order mark, Windows line ends,
    Windows-1252): a warning that it is not UTF-8 goes to `warnings` when given. The cases
    read their lines with `reader` when given (one reader for the files of a run)."""
    from ..formats.textfile import read_text

    try:
        text, warning = read_text(path)
    except OSError as exc:
        return [], [CaseFileError(str(path), 0, f"cannot read: {exc.strerror or exc}")]
    if warning is not None and warnings is not None:
        warnings.append(warning)
    return read_case_text(text, str(path), reader)


def case_rules(case: Case, profile: str | None = None) -> Rules | None:
    """The rules a case runs under; None when `profile` is forced and the case is written for another."""
    words = case.rules or [DEFAULT_PROFILE]
    named = [w for w in words if "=" not in w]
    overrides = [w for w in words if "=" in w]
    own = named[-1] if named else DEFAULT_PROFILE
    if profile is not None and case.rules is not None and own != profile:
        return None
    return Rules.parse([profile or own, *overrides])


def run_case(case: Case, profile: str | None = None, rules: Rules | None = None) -> CaseRun:
    """Run one case under its own RULES line, or every case under `profile` (cases
    written for another profile are skipped), or under exactly `rules`."""
    if case.errors:
        return CaseRun(case, CaseStatus.ERROR, [str(e) for e in case.errors])
    if not (case.post_same or case.has("POSTSTATE") or case.has("POSTSTATE_DISLODGED")):
        return CaseRun(case, CaseStatus.ERROR, [f"{case.source}:{case.line}: case {case.id}: no POSTSTATE or POSTSTATE_SAME: "
                                       "nothing to compare with (dipsat adjudicate shows dipsat's result)"])
    if rules is None:
        try:
            rules = case_rules(case, profile)
        except DipsatError as exc:
            return CaseRun(case, CaseStatus.ERROR, [f"{case.source}:{case.line}: {exc}"])
    if rules is None:
        return CaseRun(case, CaseStatus.SKIP, [f"written for rules {' '.join(case.rules or [])}"])
    try:
        state, orders, problems = build_position(case, rules)
    except (ValueError, DipsatError) as exc:
        return CaseRun(case, CaseStatus.ERROR, [str(exc)], rules=rules)
    if problems:
        return CaseRun(case, CaseStatus.ERROR, problems, rules=rules)
    try:
        state, neutral = apply_players(case, state)
    except CaseFileError as exc:
        return CaseRun(case, CaseStatus.ERROR, [str(exc)], rules=rules)
    problems = position_problems(case, state)
    expected, unread = expected_orders(case, state.variant, state.phase.kind, orders)
    if problems or unread:
        return CaseRun(case, CaseStatus.ERROR, problems + unread, rules=rules)
    result = adjudicate(state, orders, rules, neutral)
    problems = compare(case, state, result) + diff_expected(expected, result)
    return CaseRun(case, CaseStatus.FAIL if problems else CaseStatus.PASS, problems, result, rules)


def build_position(case: Case, rules: Rules) -> tuple[State, list[Order], list[str]]:
    """The case's position and orders; problems are returned as 'file:line: message'."""
    problems: list[str] = []
    variant = resolve_variant(case.variant_name)
    try:  # no PRESTATE_SETPHASE (as in some jDip files): the variant's first phase
        phase = case.reader.phase(case.phase_text) if case.phase_text else Phase(variant.start_year, Season.SPRING,
                                                                                  PhaseKind.MOVEMENT)
    except ValueError as exc:
        raise ValueError(f"{case.source}:{case.phase_line or case.line}: {exc}") from None
    units = _units(case, "PRESTATE", variant, problems)
    if "PRESTATE_SUPPLYCENTER_OWNERS" in case.blocks:
        owners = tuple(_owners(case, "PRESTATE_SUPPLYCENTER_OWNERS", variant, problems))
    else:
        owners = tuple((c, p.name) for p in variant.powers for c in p.home_centres)
    previous = _orders(case, "PRESTATE_RESULTS", variant, PhaseKind.MOVEMENT, problems, results=True)
    dislodged = tuple(_dislodgement(u, previous, variant) for u in _units(case, "PRESTATE_DISLODGED", variant, problems))
    standoffs = _standoffs(previous, {u.province for u in units}) if previous else frozenset()
    state = State(variant, phase, tuple(units), owners, dislodged, standoffs)
    orders, errors = case_orders(case, variant, phase.kind)
    problems += [f"{case.source}:{e.line}: ORDERS: {e}" for e in errors]
    return state, orders, problems


def position_problems(case: Case, state: State) -> list[str]:
    """What is wrong with a case's position (two units in a province ...), as
    ``file:line: case ID: problem``: the same check and words for every command. A problem
    about a unit of the PRESTATE (or PRESTATE_DISLODGED) block names the unit's line."""
    found = state_problems(state)
    if not found:  # the usual case: no line to look up
        return []
    lines: dict[str, list[int]] = {}  # the unit as the problems write it -> its lines
    for block, prefix in (("PRESTATE", ""), ("PRESTATE_DISLODGED", "dislodged ")):
        for line in case.block(block):
            try:
                unit = case.reader.unit(line.text, state.variant)
            except (ValueError, DipsatError):
                continue
            lines.setdefault(f"{prefix}{unit}", []).append(line.number)
    out = []
    for problem in found:
        subject = next((unit for unit in lines if problem.startswith(f"{unit}: ")), None)
        where = case.line if subject is None else lines[subject][-1]  # the same unit twice: its second line
        held = next((unit for unit in lines if problem.endswith(f" already holds {unit}")), None)
        if held is not None:  # two units in one province: the other's line too
            problem += f" (line {lines[held][0]})"
        out.append(f"{case.source}:{where}: case {case.id}: {problem}")
    return out


def case_orders(case: Case, variant: Variant, kind: PhaseKind) -> tuple[list[Order], list[NotationError]]:
    """A case's ORDERS, read as any order list (:func:`dipsat.notation.parse_orders`): a
    power's name alone on a line gives that power to the orders under it, up to the next
    such line or a blank line (the DATC's layout). Errors carry their line numbers."""
    block = case.blocks.get("ORDERS")
    if not block:
        return [], []
    given = case.reader.given_orders(block.texts, variant, kind)  # most lists: orders as dipsat writes them
    if given is not None:
        return given, []
    lines: list[tuple[int, str]] = []
    for k, (number, text) in enumerate(zip(block.numbers, block.texts)):
        if k in block.blanks:
            lines.append((number - 1, ""))
        lines.append((number, text))
    return parse_order_lines(lines, variant, kind, lenient_powers=True,  # case files are read leniently
                             canonical=case.reader.orders)


def apply_players(case: Case, state: State) -> tuple[State, dict[str, str]]:
    """A case's PLAYERS line: the set-up's map (neutral countries closed) and the
    powers whose orders are ignored (neutral), with the reason.

    :raises CaseFileError: the variant has no set-up for that many players."""
    if case.players is None:
        return state, {}
    try:
        return players_setup(state, case.players)
    except SetupError as exc:
        raise CaseFileError(case.source, case.players_line or case.line, f"PLAYERS: {exc}") from None


def players_setup(state: State, players: int) -> tuple[State, dict[str, str]]:
    """`state` played with the variant's `players`-player set-up (seed 000, 2 to 6 players):
    its map (the neutral home countries closed while the set-up says so) and the neutral
    powers, which give no orders, each with the reason their orders are ignored.

    :raises SetupError: the variant has no set-up for that many players."""
    setup = setup_for(state.variant, players)
    state = state.with_(variant=setup.variant_in(state.variant, state.phase.year))
    return state, {p: f"{p} is neutral in the {players}-player game: its orders are ignored"
                   for p in setup.neutral_in(state.phase.year)}


def _standoffs(previous: list[tuple[bool, Order]], occupied: set[str]) -> frozenset[str]:
    """Empty areas where two or more moves failed and none succeeded (DATC 6.H.9)."""
    failed: dict[str, int] = {}
    entered = {o.dest.province for ok, o in previous if ok and isinstance(o, Move)}
    for ok, order in previous:
        if isinstance(order, Move) and not ok:
            failed[order.dest.province] = failed.get(order.dest.province, 0) + 1
    return frozenset(p for p, n in failed.items() if n >= 2 and p not in occupied and p not in entered)


def _units(case: Case, block: str, variant: Variant, problems: list[str], placement: bool = True) -> list[Unit]:
    """The units of a block's lines; a line that cannot be read is a problem (``file:line: BLOCK: ...``)."""
    lines = case.blocks.get(block)
    if not lines:
        return []
    known = case.reader.known_units(lines.texts, variant, placement)  # most blocks: every line read before
    if known is not None:
        return known
    out = []
    unit = case.reader.units(variant, placement)
    for number, text in zip(lines.numbers, lines.texts):
        try:
            out.append(unit(text))
        except (ValueError, DipsatError) as exc:
            problems.append(f"{case.source}:{number}: {block}: {exc}")
    return out


def _owners(case: Case, block: str, variant: Variant, problems: list[str]) -> list[tuple[str, str]]:
    """The (centre, power) of a block of owner lines (:func:`_units`, `placement` False)."""
    lines = case.blocks.get(block)
    known = case.reader.known_owners(lines.texts, variant) if lines else None
    if known is not None:
        return known
    return [(u.province, u.power) for u in _units(case, block, variant, problems, placement=False)]


def _orders(case: Case, block: str, variant: Variant, kind: PhaseKind, problems: list[str],
            results: bool = False) -> list[tuple[bool, Order]]:
    out: list[tuple[bool, Order]] = []
    if block not in case.blocks:
        return out
    for line in case.block(block):
        text, ok = line.text, True
        if results:
            head, sep, rest = text.partition(":")
            if not sep or fold(head) not in ("success", "failure"):
                problems.append(f"{case.source}:{line.number}: {block}: expected 'SUCCESS: ...' or 'FAILURE: ...', found {text!r}")
                continue
            text, ok = rest, fold(head) == "success"
        try:
            out.append((ok, parse_order(text, variant, kind, lenient_powers=True)))
        except NotationError as exc:
            problems.append(f"{case.source}:{line.number}: {block}: {exc}")
    return out


def _dislodgement(unit: Unit, previous: list[tuple[bool, Order]], variant: Variant) -> Dislodged:
    """Attacker's origin (and whether it came by convoy) from PRESTATE_RESULTS."""
    for ok, order in previous:
        if ok and isinstance(order, Move) and order.dest.province == unit.province:
            origin = order.unit.province
            by_convoy = order.via_convoy or any(
                ok2 and isinstance(o, Convoy) and o.target.province == origin for ok2, o in previous) or (
                not variant.map.can_move(UnitKind.ARMY, Location(origin), Location(unit.province)))
            return Dislodged(unit, origin, by_convoy and order.unit.kind is not UnitKind.FLEET)
    return Dislodged(unit)


def compare(case: Case, state: State, result: PhaseResult) -> list[str]:
    """Differences between the expected and the adjudicated board."""
    variant = state.variant
    problems: list[str] = []
    expected: Sequence[Unit]
    expected_dislodged: Sequence[Unit] = ()
    if case.post_same:
        expected = state.units
    else:
        expected = _units(case, "POSTSTATE", variant, problems)
        expected_dislodged = _units(case, "POSTSTATE_DISLODGED", variant, problems)
    after = result.after
    got_dislodged = tuple(d.unit for d in after.dislodged) if (
        after.phase.kind is PhaseKind.RETREAT and state.phase.kind is PhaseKind.MOVEMENT) else ()
    # Most cases: the same units in the state's one order; sets (a Unit hashes in Python) where they differ
    if in_place_order(expected) != after.units:
        problems += _diff("board", set(expected), set(after.units))
    if in_place_order(expected_dislodged) != got_dislodged:
        problems += _diff("dislodged", set(expected_dislodged), set(got_dislodged))
    problems += _diff_retreats(case, variant, result, got_dislodged)
    problems += _diff_results(case, variant, result)
    if "POSTSTATE_SUPPLYCENTER_OWNERS" in case.blocks:
        owners = _owners(case, "POSTSTATE_SUPPLYCENTER_OWNERS", variant, problems)
        if tuple(sorted(owners)) != after.owners:  # a state's owners are sorted
            problems += _diff_owners(set(owners), set(after.owners))
    return problems


def _diff_retreats(case: Case, variant: Variant, result: PhaseResult, got_dislodged: Collection[Unit]) -> list[str]:
    """The retreat options a ``POSTSTATE_DISLODGED`` line's comment gives (dipsat's addition,
    ``# retreats: bel, pic``) against ours, for each unit both sides dislodge."""
    out: list[str] = []
    lines = case.blocks.get("POSTSTATE_DISLODGED")
    if lines is None:
        return out
    for k, comment in lines.comments.items():  # most lines: no comment, no options given
        try:
            expected = parse_retreats_comment(comment, variant)
            unit = case.reader.unit(lines.texts[k], variant) if expected is not None else None
        except (ValueError, DipsatError) as exc:
            out.append(f"{case.source}:{lines.numbers[k]}: POSTSTATE_DISLODGED: {exc}")
            continue
        if expected is None or unit is None or unit not in got_dislodged:
            continue  # no options given, or the unit itself differs (said by the "dislodged" line)
        got = tuple(sorted(result.retreat_options.get(unit, ())))
        if got != expected:
            out.append(f"retreats of {unit}: expected {', '.join(map(str, expected)) or 'none'}, "
                       f"got {', '.join(map(str, got)) or 'none'}")
    return out


def _diff_results(case: Case, variant: Variant, result: PhaseResult) -> list[str]:
    """The outcomes an ``ORDERS`` line's comment allows (dipsat's addition, ``# result:
    fails (cut)``) against ours. The line must name its power (it is read alone)."""
    out: list[str] = []
    taken: set[int] = set()
    lines = case.blocks.get("ORDERS")
    if lines is None:
        return out
    for n, comment in lines.comments.items():  # most lines: no comment, no outcome given
        try:
            allowed = parse_result_comment(comment)
            order = parse_order(lines.texts[n], variant, result.before.phase.kind, lenient_powers=True) if allowed else None
        except (ValueError, DipsatError) as exc:
            out.append(f"{case.source}:{lines.numbers[n]}: ORDERS: {exc}")
            continue
        if allowed is None or order is None:
            continue
        k = next((k for k, r in enumerate(result.results) if k not in taken and r.order == order), None)
        if k is None:
            out.append(f"{case.source}:{lines.numbers[n]}: ORDERS: no result for {format_order(order)}")
            continue
        taken.add(k)
        if result.results[k].status not in allowed:
            out.append(f"result of {format_order(order)}: expected {' or '.join(allowed)}, got {result.results[k].status}")
    return out


def _diff_owners(expected: set[tuple[str, str]], got: set[tuple[str, str]]) -> list[str]:
    out = []
    for what, pairs in (("expected but missing", expected - got), ("not expected", got - expected)):
        if pairs:
            out.append(f"owners: {what}: " + "; ".join(f"{p}: {c}" for c, p in sorted(pairs)))
    return out


def _diff(what: str, expected: set[Unit], got: set[Unit]) -> list[str]:
    out = []
    missing, extra = sorted(expected - got, key=str), sorted(got - expected, key=str)
    if missing:
        out.append(f"{what}: expected but missing: " + "; ".join(map(str, missing)))
    if extra:
        out.append(f"{what}: not expected: " + "; ".join(map(str, extra)))
    return out


def case_lines(case: Case, profile: str | None = None, verbose: bool = False,
               svg_dir: str | None = None) -> tuple[str, list[str]]:
    """Run one case and say it as ``dipsat cases`` prints it: its status and lines
    (with `svg_dir`, a failing case's before/after pictures are written there)."""
    run = run_case(case, profile)
    if run.status is CaseStatus.PASS:
        return run.status, [f"PASS {case.id}"]
    if run.status is CaseStatus.SKIP:
        return run.status, [f"SKIP {case.id}: {run.problems[0]}"]
    lines = [f"{run.status} {case.id} ({case.source}:{case.line})" + (f" [rules {run.rules}]" if run.rules else "")]
    lines += [f"    {problem}" for problem in run.problems]
    if verbose and run.result is not None:
        lines += [f"      {line}" for line in describe_results(run.result)]
    if svg_dir and run.result is not None:
        from ..printers.pictures import case_pictures
        lines += [f"    picture: {picture}" for picture in case_pictures(svg_dir, case.id, run.result)]
    return run.status, lines


def _case_chunk(task: tuple[list[Case], str | None, bool, str | None]) -> list[tuple[str, list[str]]]:
    """A pool's unit of work: some cases (top level, so worker processes can import it)."""
    cases, profile, verbose, svg_dir = task
    return [case_lines(case, profile, verbose, svg_dir) for case in cases]


OUTSIDE = "OUTSIDE"
"""The status :func:`run_cases` gives a problem outside any case (not counted as a case)."""
WARNING = "WARNING"
"""The status :func:`run_cases` gives a warning about a file (read as Windows-1252): not a case."""


def run_cases(paths: Iterable[str | Path], profile: str | None = None, verbose: bool = False,
              workers: int = 1, chunk: int = 32, svg_dir: str | None = None,
              only: str | None = None) -> Iterator[tuple[str, list[str]]]:
    """(status, lines) of every case of the files in `paths`, in input order (a line
    outside any case that cannot be read is :data:`OUTSIDE`, printed as an ``ERROR``
    line but not a case). With `workers` > 1 the cases run in a process pool, `chunk`
    at a time; the output is the same."""
    pending: list[Case] = []
    reader = LineReader()  # the run's cases repeat their unit lines and orders

    def flush() -> Iterator[tuple[str, list[str]]]:
        chunks = [pending[i:i + chunk] for i in range(0, len(pending), chunk)]
        if workers <= 1 or len(chunks) <= 1:
            for case in pending:
                yield case_lines(case, profile, verbose, svg_dir)
        else:
            from .pool import Pool, TaskFailure
            done: dict[int, list[tuple[str, list[str]]]] = {}
            tasks = [(c, profile, verbose, svg_dir) for c in chunks]
            for i, answer in Pool(_case_chunk, workers).run(tasks):
                if isinstance(answer, TaskFailure):
                    answer = [(CaseStatus.ERROR, [f"ERROR {case.id} ({case.source}:{case.line}): {answer.reason}"])
                              for case in chunks[i]]
                done[i] = answer
            for i in range(len(chunks)):
                yield from done[i]
        pending.clear()

    for path in case_files(paths):
        warnings: list[str] = []
        cases, errors = load_cases(path, warnings, reader)
        if only is not None:
            cases, errors = [c for c in cases if c.id.casefold() == only.casefold()], []
        for warning in warnings:
            yield WARNING, [warning]
        for error in errors:
            yield OUTSIDE, [f"ERROR {error}"]
        pending.extend(cases)
        if workers <= 1:
            yield from flush()
    yield from flush()


def describe_results(result: PhaseResult) -> list[str]:
    lines = []
    for r in result.results:
        detail = f" — {r.detail}" if r.detail else ""
        lines.append(f"{format_order(r.order)}: {r.status}{detail}")
    for d in result.after.dislodged:
        options = result.retreat_options.get(d.unit, ())
        lines.append(f"dislodged {d.unit} (retreats: {', '.join(map(str, options)) or 'none'})")
    return lines
