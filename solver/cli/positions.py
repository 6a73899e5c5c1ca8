"""Positions and orders as the commands read them: a case file's case (or one found by id
in a folder), a dipsat JSON state, a variant's initial position, an orders file; every
problem one line naming the file and line. Shared by ``adjudicate``, ``draw`` and the
map reference (``orders``)."""

from __future__ import annotations

import difflib
import contextlib
import io
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import DipsatError, NotationError
from ..rules import Rules, RulesError

if TYPE_CHECKING:
    from ..notation import RejectedOrder
    from ..orders import Order
    from ..state import State

# The commands import what they use when they run: `dipsat --help`, `--version` and shell
# completion load only click and the rule options (OR-Tools is imported on the first solve).



class _Unreadable(Exception):
    """The position (or the orders file) cannot be read: one line per problem."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass
class _Position:
    state: State
    name: str  # the case id, or the file's stem
    orders: list[Order] | None = None  # orders that came with the position
    rule_words: list[str] = field(default_factory=list)  # the case's RULES line
    silent: dict[str, str] = field(default_factory=dict)  # PLAYERS: neutral powers, whose orders are ignored
    players: int | None = None  # the case's PLAYERS line
    crop: bool = False  # pictures show a corner of the map (a case)
    title: str = ""  # the case's title
    rejected: list[RejectedOrder] = field(default_factory=list)  # order lines that came with it and cannot be read


def _warn(message: str) -> None:
    click.echo(message, err=True)


@contextlib.contextmanager
def _input_or_exit() -> Iterator[None]:
    """Reading a command's input: a position or a file that cannot be read, or rules that
    cannot be parsed, is one line per problem on stderr and exit status 2."""
    try:
        yield
    except _Unreadable as exc:
        for problem in exc.problems:
            _warn(problem)
        sys.exit(2)
    except RulesError as exc:
        _warn(f"rules: {exc}")
        sys.exit(2)


def _read_text(path: str) -> str:
    """A file (or stdin) as people save it (:mod:`dipsat.formats.textfile`): a byte-order mark,
    Windows line ends, a file that is not UTF-8 (read as Windows-1252, with a warning)."""
    from ..formats.textfile import read_stream, read_text

    try:
        text, warning = read_stream(sys.stdin) if path == "-" else read_text(path)
    except OSError as exc:
        raise _Unreadable([f"{path}: cannot read: {exc.strerror or exc}"]) from None
    if warning:
        _warn(warning)
    return text


RECORDED_GAME = ("a recorded game, not a position: give a phase with dipsat adjudicate --phase (e.g. S1901M), or "
                 "judge every phase with dipsat validate")
"""What adjudicate says of a whole game given as POSITION without --phase."""


def _load_position(path: str, case_id: str | None, variant_name: str = "standard") -> _Position:
    """POSITION as the commands read it. Standard input that is neither JSON nor a case file
    with a PRESTATE (orders pasted as the DATC writes them) is a position taken from the
    orders (:func:`_pasted_position`, in `variant_name`), as ``--from-orders`` reads it."""
    from ..formats.godip import is_godip_history

    if Path(path).is_dir():
        path = _find_case(path, case_id)
    if path != "-":
        try:
            with open(path, "rb") as handle:
                head = handle.read(4096)
        except OSError as exc:
            raise _Unreadable([f"{path}: cannot read: {exc.strerror or exc}"]) from None
        if head.startswith(b"\x1f\x8b") or path.lower().endswith((".jsonl", ".gz")) or is_godip_history(head):
            raise _Unreadable([f"{path}: {RECORDED_GAME}"])
    text = _read_text(path)
    if path.lower().endswith(".json") or text.lstrip().startswith("{"):
        if case_id is not None:
            raise _Unreadable([f"{path}: --case applies to case files, not to a JSON state"])
        return _json_position(path, text)
    if path == "-" and case_id is None and not _KEYWORD_LINE.search(text):
        return _pasted_position(text, "<stdin>", variant_name)
    return _case_position(path, text, case_id)


_KEYWORD_LINE = re.compile(r"^\s*(?:PRESTATE|CASE)\b", re.M)
"""A line of a case file that gives a position (or starts a case): without one, standard
input is orders pasted without a position."""


def _pasted_position(text: str, source: str, variant_name: str = "standard", phase_name: str | None = None
                     ) -> _Position:
    """``--from-orders``: the units the orders name (:mod:`dipsat.formats.pasted`), in a
    movement phase (Spring of the variant's first year unless `phase_name` says otherwise).
    What was taken is said on stderr, one unit a line."""
    from ..board import Phase, PhaseKind
    from ..formats.pasted import position_from_orders
    from ..notation import RejectedOrder, parse_orders

    variant = _initial_position(variant_name).state.variant
    phase = None
    if phase_name is not None:
        try:
            phase = Phase.parse(phase_name)
        except ValueError as exc:
            raise _Unreadable([f"--phase: {exc}"]) from None
    orders, errors = parse_orders(text, variant, PhaseKind.MOVEMENT)
    state, taken, problems = position_from_orders(orders, variant, phase)
    if problems:
        raise _Unreadable([f"{source}: {p}" for p in problems])
    if not taken:
        shown = [str(RejectedOrder.of(source, e)) for e in errors[:5]]
        raise _Unreadable(shown + [f"{source}: no order names a unit: no position to take from the orders"])
    _warn(f"{source}: no position given: the units the orders name, {state.phase} ({variant.name} map, each power "
          f"owning its home centres):")
    for unit in taken:
        _warn(f"  {unit}")
    name = "orders" if source == "<stdin>" else Path(source).stem
    return _Position(state, name, orders, rejected=[RejectedOrder.of(source, e) for e in errors])


def _orders_position(path: str, variant_name: str, phase_name: str | None) -> _Position:
    """``--from-orders ORDERS``: the file (or stdin) read as orders, the position taken from them."""
    text = _read_text(path)
    return _pasted_position(text, "<stdin>" if path == "-" else path, variant_name, phase_name)


def _find_case(folder: str, case_id: str | None) -> str:
    """The case file under `folder` that holds the case `case_id` (``--case`` across folders).
    Only the files whose text holds the id are parsed (a case's id is a word of its CASE
    line); when none has the case, every file is, for the ids the error suggests."""
    from ..formats.casefile import read_cases
    from ..formats.textfile import read_text
    from ..runners.cases import case_files, load_cases

    if case_id is None:
        raise _Unreadable([f"{folder}: a folder of case files: name the case with --case ID"])
    wanted = case_id.casefold()
    for path in case_files([folder]):
        try:
            text, _ = read_text(path)
        except OSError:
            continue  # a file that cannot be read holds no case (load_cases: no case, an error)
        if wanted not in text.casefold() and ":" not in case_id:  # an id-less CASE's id is FILE:LINE
            continue
        cases, _ = read_cases(io.StringIO(text), str(path))
        if any(c.id == case_id or c.id.casefold() == wanted for c in cases):
            return str(path)
    seen = [case.id for path in case_files([folder]) for case in load_cases(path)[0]]
    close = difflib.get_close_matches(case_id, seen, n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise _Unreadable([f"{folder}: no case {case_id!r} in its case files{hint}"])


def _json_position(path: str, text: str) -> _Position:
    from ..formats.dipsat_json import JsonFormatError, parse_json, position_from_json
    from ..notation import RejectedOrder, parse_order

    from ..game import GAME_FORMATS

    try:
        data = parse_json(text, path)
        if isinstance(data, dict) and (data.get("format") in GAME_FORMATS or "phases" in data):
            raise _Unreadable([f"{path}: {RECORDED_GAME}"])
        state, order_texts = position_from_json(data, source=path)
    except JsonFormatError as exc:
        raise _Unreadable(exc.problems) from None
    orders, rejected = None, []
    if order_texts is not None:
        orders = []
        for where, line in order_texts:
            try:
                orders.append(parse_order(line, state.variant, state.phase.kind))
            except NotationError as exc:
                rejected.append(RejectedOrder.of(f"{path}: {where}", exc))
    rules = data.get("rules") if isinstance(data, dict) else None
    if rules is not None and not isinstance(rules, str):
        raise _Unreadable([f"{path}: $.rules: expected the rules as text, e.g. \"2000 4.A.2=d\", found "
                           f"{type(rules).__name__}"])
    words = rules.split() if isinstance(rules, str) else []
    try:
        Rules.parse(words)
    except RulesError as exc:
        raise _Unreadable([f"{path}: $.rules: {exc}"]) from None
    return _Position(state, Path(path).stem, orders, words, rejected=rejected)


def _case_position(path: str, text: str, case_id: str | None) -> _Position:
    from ..board import PhaseKind
    from ..runners.cases import apply_players, build_position, case_orders, position_problems
    from ..errors import CaseFileError
    from ..formats.casefile import UnknownKeywordError, read_cases
    from ..notation import RejectedOrder

    cases, errors = read_cases(io.StringIO(text), path)
    if case_id is None:
        if not cases:
            shown = [str(e) for e in errors[:5]] + ([f"{path}: ... and {len(errors) - 5} more lines outside a case"]
                                                     if len(errors) > 5 else [])
            raise _Unreadable(shown + [f"{path}: no CASE in the file (expected a case file or a .json state; orders "
                                       f"without a position: dipsat adjudicate --from-orders {path})"])
        case = cases[0]
    else:
        matches = [c for c in cases if c.id == case_id] or [c for c in cases if c.id.casefold() == case_id.casefold()]
        if not matches:
            known = ", ".join(c.id for c in cases[:8]) + (", ..." if len(cases) > 8 else "")
            raise _Unreadable([f"{path}: no case {case_id!r} (cases: {known or 'none'})"])
        case = matches[0]
    fatal = [e for e in case.errors if e.message.startswith("PLAYERS") or isinstance(e, UnknownKeywordError)]
    if fatal:  # the set-up decides whose orders count, a block under a misspelt keyword is lost: no result
        raise _Unreadable([str(e) for e in fatal])
    for error in [*errors, *case.errors]:
        _warn(f"{error} (warning)")
    position_only = replace(case, blocks={k: v for k, v in case.blocks.items() if k != "ORDERS"})
    try:
        state, _, problems = build_position(position_only, Rules.profile())
    except (ValueError, DipsatError) as exc:
        message = str(exc)
        raise _Unreadable([message if message.startswith(f"{path}:") else f"{path}:{case.line}: {message}"]) from None
    try:
        state, silent = apply_players(case, state)
    except CaseFileError as exc:
        raise _Unreadable([str(exc)]) from None
    problems += position_problems(case, state)
    if problems:
        raise _Unreadable(problems)
    orders, rejected = case_orders(case, state.variant, state.phase.kind) if case.has("ORDERS") else (None, [])
    if orders and not (state.units or state.dislodged) and state.phase.kind is not PhaseKind.ADJUSTMENT:  # no board
        raise _Unreadable([f"{path}:{case.line}: case {case.id}: no unit on the board (no PRESTATE lines) for its "
                           f"orders: give the units in PRESTATE, or take them from the orders with dipsat "
                           f"adjudicate --from-orders"])
    return _Position(state, case.id, orders, list(case.rules or []), silent, case.players, crop=True,
                     title=case.title, rejected=[RejectedOrder.of(path, e) for e in rejected])


def _initial_position(variant_name: str) -> _Position:
    """The initial position of a variant named as in case files (``Standard``,
    ``DATC_Standard``) or as a bundled map file (``standard``)."""
    from ..formats.casefile import resolve_variant
    from ..maps import load_variant

    try:
        variant = resolve_variant(variant_name)
    except ValueError as exc:
        if not variant_name.replace("_", "").isalnum():
            raise _Unreadable([f"--variant: {exc}"]) from None
        try:
            variant = load_variant(variant_name.lower())
        except DipsatError as exc2:
            raise _Unreadable([f"--variant: {exc2}"]) from None
    return _Position(variant.initial_state(), f"{variant.name}.initial")


def _read_orders(path: str, state: State) -> tuple[list[Order], list[RejectedOrder]]:
    """The orders of an ORDERS file (or stdin), and the lines that cannot be read."""
    from ..notation import RejectedOrder, parse_orders

    text = _read_text(path)
    name = "<stdin>" if path == "-" else path
    orders, errors = parse_orders(text, state.variant, state.phase.kind)
    return orders, [RejectedOrder.of(name, exc) for exc in errors]


def _position_arguments(position: str | None, orders_path: str | None, initial: bool,
                        from_orders: bool = False) -> tuple[str | None, str | None]:
    """(POSITION, ORDERS) as given; with --initial or --from-orders the one argument is ORDERS."""
    if initial and from_orders:
        raise click.UsageError("give --initial or --from-orders, not both")
    if from_orders:
        if position is None or orders_path is not None:
            raise click.UsageError("with --from-orders, give only ORDERS (the position is taken from the orders)")
        return None, position
    if initial:
        if orders_path is not None:
            raise click.UsageError("with --initial, give only ORDERS (the position is the initial one)")
        return None, position
    if position is None:
        raise click.UsageError("give a POSITION (a case file or a .json state), or --initial")
    return position, orders_path
